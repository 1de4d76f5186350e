"""Legal plays under the standard rules.

The generator works on the relative board of :mod:`engine.position` (the mover
moves from high numbers to low, bears off below 1, enters from 25).  Plays are
told apart by the position they lead to, and the rule "use as much of the roll
as possible; if only one die can be used, the higher one" is applied in one
place, :func:`_maximal`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from engine.dice import Roll
from engine.errors import IllegalPlayError
from engine.notation import Paths, parse_move
from engine.play import Play
from engine.player import Player
from engine.position import REL_BAR, REL_OFF, REL_OPP_BAR, Position, RelativeBoard
from engine.rules import STANDARD_RULES, Reached, Rules, hop
from engine.step import POOL, Step


def _sources(board: RelativeBoard, die: int, ceiling: int = REL_BAR) -> list[int]:
    """The points up to ``ceiling`` the mover can play ``die`` from.  Trusts ``board``."""
    if board[REL_BAR]:
        # Entering comes first: nothing else moves while a checker is on the bar.
        return [REL_BAR] if board[REL_BAR - die] >= -1 else []
    highest = 24
    while highest and board[highest] <= 0:
        highest -= 1
    top = min(highest, ceiling)
    found = [p for p in range(top, die, -1) if board[p] > 0 and board[p - die] >= -1]
    if highest <= 6:
        # All home: bear off exactly, or with a higher die from the highest point.
        if die <= top:
            if board[die] > 0:
                found.append(die)
        elif highest and highest <= ceiling:
            found.append(highest)
    return found


def _apply(board: RelativeBoard, start: int, die: int) -> RelativeBoard:
    cells = list(board)
    cells[start] -= 1
    end = start - die
    if end <= 0:
        cells[REL_OFF] += 1
    elif cells[end] == -1:
        cells[end] = 1
        cells[REL_OPP_BAR] += 1
    else:
        cells[end] += 1
    return tuple(cells)


def _outside(board: RelativeBoard) -> int:
    """Mover checkers not yet home (bar included): bearing off waits for zero."""
    return sum(c for c in board[7:26] if c > 0)


def _non_double(board: RelativeBoard, high: int, low: int) -> Reached:
    both: Reached = {}
    single: Reached = {}
    # With a checker on the bar, or bearing off in reach, every step can change
    # what the other die may do; otherwise only the two points it touched can.
    simple = not board[REL_BAR] and _outside(board) > 1
    for first, second in ((high, low), (low, high)):
        seconds = _sources(board, second)
        for start in _sources(board, first):
            after = _apply(board, start, first)
            if simple:
                end = start - first
                followers = [p for p in seconds if p != start or after[start] > 0]
                if end > second and after[end - second] >= -1 and end not in seconds:
                    followers.append(end)
            else:
                followers = _sources(after, second)
            for start2 in followers:
                final = _apply(after, start2, second)
                if final not in both:
                    both[final] = (start, first, start2, second)
            if not followers and after not in single:
                single[after] = (start, first)
    if both:
        return both
    return _maximal(single, high)


def _maximal(single: Reached, high: int) -> Reached:
    """When only one die can be played: the higher one wherever either could be."""
    if any(path[1] == high for path in single.values()):
        return {b: path for b, path in single.items() if path[1] == high}
    return single


def _double(board: RelativeBoard, die: int) -> Reached:
    reached: list[Reached] = [{board: ()}, {}, {}, {}, {}]

    # Steps are taken from non-increasing start points: any legal order of a
    # double can be sorted that way (moving a lower checker never opens a
    # higher one's move), so this visits each distinct play once.
    def extend(current: RelativeBoard, path: tuple[int, ...], ceiling: int) -> None:
        level = reached[len(path) // 2 + 1]
        for start in _sources(current, die, ceiling):
            after = _apply(current, start, die)
            if after not in level:
                longer = (*path, start, die)
                level[after] = longer
                if len(longer) < 8:
                    extend(after, longer, start)

    extend(board, (), REL_BAR)
    return next(level for level in reversed(reached) if level)


def generate(board: RelativeBoard, roll: Roll) -> Reached:
    """Every distinct final board reachable with ``roll``, each with one path reaching it."""
    if roll.is_double:
        return _double(board, roll.first)
    # No legal step at all still leaves one (empty) play: the turn passes.
    return _non_double(board, roll.high, roll.low) or {board: ()}


class StandardMoves:
    """The standard rules' generator for one roll (the fast path of :class:`LegalPlays`)."""

    rules = STANDARD_RULES

    def __init__(self, roll: Roll) -> None:
        self.roll = roll

    @property
    def label(self) -> str:
        return str(self.roll)

    #: The standard game uses only the first 27 slots of a relative board (see Position.to_relative).
    compact = True

    def generate(self, board: RelativeBoard) -> Reached:
        return generate(board, self.roll)

    def paths(self, board: RelativeBoard) -> Paths:
        """One checker may use both dice, so its steps are written as one path."""
        return Paths.JOINED

    def replay(self, board: RelativeBoard, path: tuple[int, ...]) -> tuple[Step, ...]:
        """The :class:`Step` objects of a generated path (ends and hits worked out again)."""
        steps = []
        for index in range(0, len(path), 2):
            start, die = path[index], path[index + 1]
            end = max(start - die, REL_OFF)
            steps.append(Step(start, end, die, end != REL_OFF and board[end] == -1))
            board = _apply(board, start, die)
        return tuple(steps)


class Moves(Protocol):
    """What :class:`LegalPlays` needs from a generator."""

    @property
    def rules(self) -> Rules: ...

    @property
    def label(self) -> str: ...

    def generate(self, board: RelativeBoard) -> Reached: ...

    def paths(self, board: RelativeBoard) -> Paths: ...

    def replay(self, board: RelativeBoard, path: tuple[int, ...]) -> tuple[Step, ...]: ...


class LegalPlays:
    """The legal plays of ``player`` from ``position``, computed on first use.

    Supports ``iter``, ``len``, ``in`` (a :class:`Play` or a result :class:`Position`),
    ``bool`` and :meth:`count`, like python-chess's legal move view.  A position
    with no legal play gives one empty :class:`Play` (the turn passes), so the
    view is never empty; :attr:`can_move` tells the two apart.  ``moves`` is the
    generator: the standard one for a roll, or a variant's for a dice stage.

    >>> plays = LegalPlays(Position.start(), Player.WHITE, StandardMoves(Roll(3, 1)))
    >>> plays.count(), plays.parse("8/5 6/5").notation
    (16, '8/5 6/5')
    """

    def __init__(self, position: Position, player: Player, moves: Moves) -> None:
        self.position = position
        self.player = player
        self.moves = moves
        self._track = moves.rules.track(player)
        self._board = position.to_relative(player, self._track, compact=getattr(moves, "compact", False))
        self._reached: Reached | None = None
        self._plays: dict[Position, Play] | None = None

    def _boards(self) -> Reached:
        """The distinct result boards; the cheap part, enough for counting."""
        if self._reached is None:
            self._reached = self.moves.generate(self._board)
        return self._reached

    def _result(self, board: RelativeBoard) -> Position:
        opponent_off = self.position.off[self.player.opponent]
        return Position.from_relative(board, self.player, opponent_off, self._track)

    def _compute(self) -> dict[Position, Play]:
        if self._plays is None:
            self._plays = {}
            paths = self.moves.paths(self._board)
            for board, path in self._boards().items():
                result = self._result(board)
                self._plays[result] = Play(self.player, self.moves.replay(self._board, path), result, paths)
        return self._plays

    def __iter__(self) -> Iterator[Play]:
        return iter(self._compute().values())

    def __len__(self) -> int:
        return len(self._boards())

    def count(self) -> int:
        return len(self._boards())

    def __bool__(self) -> bool:
        return bool(self._boards())

    def __contains__(self, item: object) -> bool:
        if isinstance(item, Play):
            return item.player == self.player and item.result in self._compute()
        if isinstance(item, Position):
            return item in self._compute()
        return False

    @property
    def can_move(self) -> bool:
        """False when the roll cannot be played at all."""
        return any(path for path in self._boards().values())

    @property
    def dice_used(self) -> int:
        """How many numbers every legal play uses."""
        return max(len(play.steps) for play in self)

    def find(self, result: Position) -> Play | None:
        """The legal play that leads to ``result``, if there is one."""
        return self._compute().get(result)

    def parse(self, text: str) -> Play:
        """The legal play written ``text`` in gnubg notation, or :class:`IllegalPlayError`."""
        wanted = " ".join(text.split())
        for candidate in self:
            if candidate.notation == wanted:
                return candidate
        if not getattr(self.moves, "race", True):
            raise self._illegal(text)
        rules = self.moves.rules
        board = self.position.to_relative(self.player, self._track)  # all slots: hop() reads pins
        hit_points: set[int] = set()
        for segment in parse_move(text, backwards=rules.backwards):
            if segment.start in (REL_BAR, POOL):
                present = board[segment.start] > 0
            else:
                present = 1 <= segment.start <= 24 and board[segment.start] > 0
            if not present:
                raise IllegalPlayError(
                    f"{text!r}: no {self.player.label} checker to move from {segment.start} "
                    f"in {self.position.to_text()}"
                )
            here = segment.start
            # Hop to each point marked with a hit, then to the end.
            for point in (*[p for p in segment.via if p in segment.hits], segment.end):
                lone = point != REL_OFF and board[point] == -1
                if point in segment.hits and not lone and point not in hit_points:
                    raise IllegalPlayError(f"{text!r}: no blot to hit on {point}")
                board, hit = hop(board, here, point, rules)
                if hit:
                    hit_points.add(point)
                here = point
        found = self.find(self._result(board))
        if found is None:
            raise self._illegal(text)
        return found

    def _illegal(self, text: str) -> IllegalPlayError:
        legal = ", ".join(p.notation or "(no move)" for p in self)
        return IllegalPlayError(
            f"{text!r} is not a legal play for {self.player.label} with {self.moves.label} "
            f"from {self.position.to_text()}; legal: {legal}"
        )


def legal_plays(position: Position, player: Player, roll: Roll) -> LegalPlays:
    """The standard-rules legal plays (see :class:`LegalPlays`)."""
    return LegalPlays(position, player, StandardMoves(roll))
