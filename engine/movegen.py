"""Legal plays under the standard rules.

The generator works on the relative board of :mod:`engine.position` (the mover
moves from high numbers to low, bears off below 1, enters from 25).  Plays are
told apart by the position they lead to, and the rule "use as much of the roll
as possible; if only one die can be used, the higher one" is applied in one
place, :func:`_maximal`.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.dice import Roll
from engine.errors import IllegalPlayError
from engine.notation import parse_move
from engine.play import Play
from engine.player import Player
from engine.position import REL_BAR, REL_OFF, REL_OPP_BAR, Position, RelativeBoard
from engine.step import Step

# A reached board and the steps that reached it.
_Reached = dict[RelativeBoard, tuple[Step, ...]]


def _sources(board: RelativeBoard, die: int) -> list[int]:
    """The points the mover can play ``die`` from.  Trusts ``board`` to be valid."""
    if board[REL_BAR]:
        # Entering comes first: nothing else moves while a checker is on the bar.
        return [REL_BAR] if board[REL_BAR - die] >= -1 else []
    found = []
    highest = 0
    for point in range(24, 0, -1):
        if board[point] > 0:
            highest = point
            break
    home = highest <= 6
    for point in range(highest, 0, -1):
        if board[point] <= 0:
            continue
        target = point - die
        if target >= 1:
            if board[target] >= -1:
                found.append(point)
        elif home and (target == 0 or point == highest):
            # Exact, or a higher die from the highest point.
            found.append(point)
    return found


def _apply(board: RelativeBoard, start: int, die: int) -> tuple[RelativeBoard, Step]:
    cells = list(board)
    cells[start] -= 1
    end = start - die
    hit = False
    if end <= 0:
        end = REL_OFF
        cells[REL_OFF] += 1
    elif cells[end] == -1:
        cells[end] = 1
        cells[REL_OPP_BAR] += 1
        hit = True
    else:
        cells[end] += 1
    return tuple(cells), Step(start, end, die, hit)


def _non_double(board: RelativeBoard, high: int, low: int) -> _Reached:
    both: _Reached = {}
    single: dict[RelativeBoard, tuple[tuple[Step, ...], int]] = {}
    for first, second in ((high, low), (low, high)):
        for start in _sources(board, first):
            after, step = _apply(board, start, first)
            followers = _sources(after, second)
            for start2 in followers:
                final, step2 = _apply(after, start2, second)
                if final not in both:
                    both[final] = (step, step2)
            if not followers and after not in single:
                single[after] = ((step,), first)
    if both:
        return both
    return _maximal(single, high)


def _maximal(single: dict[RelativeBoard, tuple[tuple[Step, ...], int]], high: int) -> _Reached:
    """When only one die can be played: the higher one wherever either could be."""
    if any(die == high for _, die in single.values()):
        return {b: steps for b, (steps, die) in single.items() if die == high}
    return {b: steps for b, (steps, _) in single.items()}


def _double(board: RelativeBoard, die: int) -> _Reached:
    reached: dict[int, _Reached] = {0: {board: ()}}

    # Steps are taken from non-increasing start points: any legal order of a
    # double can be sorted that way (moving a lower checker never opens a
    # higher one's move), so this visits each distinct play without repeats.
    def extend(current: RelativeBoard, steps: tuple[Step, ...], ceiling: int) -> None:
        depth = len(steps)
        for start in _sources(current, die):
            if start > ceiling:
                continue
            after, step = _apply(current, start, die)
            path = (*steps, step)
            level = reached.setdefault(depth + 1, {})
            if after not in level:
                level[after] = path
                if depth + 1 < 4:
                    extend(after, path, start)

    extend(board, (), REL_BAR)
    return reached[max(reached)]


def generate(board: RelativeBoard, roll: Roll) -> _Reached:
    """Every distinct final board reachable with ``roll``, each with one way to reach it."""
    if roll.is_double:
        return _double(board, roll.first)
    # No legal step at all still leaves one (empty) play: the turn passes.
    return _non_double(board, roll.high, roll.low) or {board: ()}


class LegalPlays:
    """The legal plays of ``player`` with ``roll`` from ``position``, computed on first use.

    Supports ``iter``, ``len``, ``in`` (a :class:`Play` or a result :class:`Position`),
    ``bool`` and :meth:`count`, like python-chess's legal move view.  A position
    with no legal play gives one empty :class:`Play` (the turn passes), so the
    view is never empty; :attr:`can_move` tells the two apart.

    >>> plays = LegalPlays(Position.start(), Player.WHITE, Roll(3, 1))
    >>> plays.count(), plays.parse("8/5 6/5").notation
    (16, '8/5 6/5')
    """

    def __init__(self, position: Position, player: Player, roll: Roll) -> None:
        self.position = position
        self.player = player
        self.roll = roll
        self._plays: dict[Position, Play] | None = None

    def _compute(self) -> dict[Position, Play]:
        if self._plays is None:
            opponent_off = self.position.off[self.player.opponent]
            reached = generate(self.position.to_relative(self.player), self.roll)
            self._plays = {}
            for board, steps in reached.items():
                result = Position.from_relative(board, self.player, opponent_off)
                self._plays[result] = Play(self.player, steps, result)
        return self._plays

    def __iter__(self) -> Iterator[Play]:
        return iter(self._compute().values())

    def __len__(self) -> int:
        return len(self._compute())

    def count(self) -> int:
        return len(self._compute())

    def __bool__(self) -> bool:
        return bool(self._compute())

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return item.player == self.player and item.result in self._compute()
        if isinstance(item, Position):
            return item in self._compute()
        return False

    @property
    def can_move(self) -> bool:
        """False when the roll cannot be played at all."""
        return any(play.steps for play in self)

    @property
    def dice_used(self) -> int:
        """How many dice every legal play uses (0..4)."""
        return max(len(play.steps) for play in self)

    def find(self, result: Position) -> Play | None:
        """The legal play that leads to ``result``, if there is one."""
        return self._compute().get(result)

    def parse(self, text: str) -> Play:
        """The legal play written ``text`` in gnubg notation, or :class:`IllegalPlayError`."""
        segments = parse_move(text)
        cells = list(self.position.to_relative(self.player))
        hit_points: set[int] = set()
        for segment in segments:
            if cells[segment.start] <= 0:
                raise IllegalPlayError(
                    f"{text!r}: no {self.player.label} checker on {segment.start} "
                    f"in {self.position.to_text()}"
                )
            cells[segment.start] -= 1
            for point in (*segment.via, segment.end):
                if point != 0 and cells[point] == -1 and (point == segment.end or point in segment.hits):
                    cells[point] = 0
                    cells[REL_OPP_BAR] += 1
                    hit_points.add(point)
                elif point in segment.hits and point not in hit_points:
                    # gnubg writes "17/14*(2)": the mark repeats on paths after the hit.
                    raise IllegalPlayError(f"{text!r}: no blot to hit on {point}")
            if segment.end == 0:
                cells[REL_OFF] += 1
            else:
                cells[segment.end] += 1
        result = Position.from_relative(
            tuple(cells), self.player, self.position.off[self.player.opponent]
        )
        play = self.find(result)
        if play is None:
            legal = ", ".join(p.notation or "(no move)" for p in self)
            raise IllegalPlayError(
                f"{text!r} is not a legal play for {self.player.label} with {self.roll} "
                f"from {self.position.to_text()}; legal: {legal}"
            )
        return play


def legal_plays(position: Position, player: Player, roll: Roll) -> LegalPlays:
    """The standard-rules legal plays (see :class:`LegalPlays`)."""
    return LegalPlays(position, player, roll)
