"""Movement rules as data, and the legal plays of one dice stage under them.

The standard game has its own fast generator (:mod:`engine.movegen`).  The
variants state how they differ from it in a :class:`Rules` value (blocking by
one checker, pinning, a limit of five on a point, exact bearing off, moving
backwards, a pool of checkers still to enter, the direction each side travels)
and how a roll is played in :class:`Stage` values (which numbers, in which
order, and what happens when not all of them can be played).  One generator,
:class:`StageMoves`, handles every combination; on standard rules it agrees
with the fast one (``tests/engine/test_rules.py`` checks that on random
positions).

Boards here are the relative boards of :mod:`engine.position`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import permutations

from engine.notation import Paths
from engine.player import Player
from engine.position import (
    ASCENDING,
    DESCENDING,
    REL_BAR,
    REL_OFF,
    REL_OPP_BAR,
    REL_PINS,
    REL_POOL,
    RelativeBoard,
    Track,
)
from engine.step import POOL, Step


class HitRule(Enum):
    """What landing on a lone opposing checker does."""

    BAR = "bar"  #: it is hit onto the bar (standard)
    PIN = "pin"  #: it is pinned underneath until the pinner leaves (Pin)


class Usage(Enum):
    """What must be played of a stage's numbers."""

    #: As many as possible; of two numbers where only one can be played, the higher (standard).
    MOST = "most"
    #: As many as possible; of two where only one can be played, either (Old Britain).
    MOST_ANY = "most-any"
    #: Everything, or the whole stage is lost (Pin).
    ALL_OR_NOTHING = "all-or-nothing"


@dataclass(frozen=True, slots=True)
class Rules:
    """How checkers move in a variant (defaults: the standard game)."""

    #: Opposing checkers that close a point (1: a single checker blocks, no hitting).
    block: int = 2
    hit: HitRule = HitRule.BAR
    #: Most own checkers on a point (Mexican, Old Britain: 5).
    own_limit: int | None = None
    #: Bear off only with the exact number (Mexican).
    exact_bear_off: bool = False
    #: Any number may also move a checker backwards (Rückwärts).
    backwards: bool = False
    #: Checkers waiting in the pool must enter first while the pool holds more than this.
    pool_first_above: int = 0
    #: While checkers are still to enter, no checker uses two dice (Puff and its variants).
    split_while_entering: bool = False
    #: Which way each side travels: from point 1 towards 24, or the other way.
    white_ascending: bool = True
    black_ascending: bool = False
    #: Tracks other than the whole board one way or the other (Ludus: half a board).
    white_track: Track | None = None
    black_track: Track | None = None
    #: How many own points the track has: a checker enters on point ``length + 1 - die``.
    length: int = 24

    def track(self, player: Player) -> Track:
        """The rulebook point of each own point 1..24 of ``player``."""
        custom = self.white_track if player is Player.WHITE else self.black_track
        if custom is not None:
            return custom
        ascending = self.white_ascending if player is Player.WHITE else self.black_ascending
        return ASCENDING if ascending else DESCENDING

    @property
    def opposite_directions(self) -> bool:
        return self.white_track is None and self.white_ascending != self.black_ascending

    @property
    def homes_apart(self) -> bool:
        """Whether the two sides' home boards (their last six points) are different points, so a
        loser's checker can be left in the winner's home: a backgammon.  On a shared track both
        homes are the same points."""
        return set(self.track(Player.WHITE)[:6]) != set(self.track(Player.BLACK)[:6])


STANDARD_RULES = Rules()


@dataclass(frozen=True, slots=True)
class Stage:
    """Numbers one player must play now: a roll, the bottom faces, a chosen doublet, ...

    >>> Stage(Player.WHITE, (3, 5)).text
    '5-3'
    >>> Stage(Player.WHITE, (5, 5, 5, 5)).text
    '5-5'
    >>> Stage(Player.BLACK, (4, 4, 4, 4), label="4×4 (bottom faces)").text
    '4×4 (bottom faces)'
    """

    player: Player
    dice: tuple[int, ...]
    #: Play the numbers in the order given (the smaller die first).
    in_order: bool = False
    usage: Usage = Usage.MOST
    label: str = ""

    @property
    def text(self) -> str:
        if self.label:
            return self.label
        if len(set(self.dice)) == 1 and len(self.dice) > 1:
            # A double is written as players write it, and as the turn log writes the roll.
            return f"{self.dice[0]}-{self.dice[0]}"
        return "-".join(str(d) for d in (self.dice if self.in_order else sorted(self.dice, reverse=True)))


# -- one checker, one number ---------------------------------------------------------


def _mine(board: RelativeBoard, point: int) -> int:
    """The mover's checkers on ``point``, a pinned one included."""
    value = board[point]
    if value > 0:
        return value
    return 1 if board[REL_PINS] >> point & 1 else 0


def _theirs(board: RelativeBoard, point: int) -> int:
    value = board[point]
    if value < 0:
        return -value
    return 1 if board[REL_PINS] >> point & 1 else 0


def _can_land(board: RelativeBoard, point: int, rules: Rules) -> bool:
    mine, theirs = _mine(board, point), _theirs(board, point)
    if theirs >= rules.block or board[REL_PINS] >> point & 1:
        return False  # a point held by the opponent, or a pinned pair, is closed to everyone
    return rules.own_limit is None or mine < rules.own_limit


def _none_left(board: RelativeBoard) -> bool:
    """The mover has borne off every checker."""
    return not board[REL_BAR] and not board[REL_POOL] and all(_mine(board, p) == 0 for p in range(1, 25))


def _all_home(board: RelativeBoard) -> bool:
    if board[REL_BAR] or board[REL_POOL]:
        return False
    return all(_mine(board, point) == 0 for point in range(7, 25))


def hop(board: RelativeBoard, start: int, end: int, rules: Rules) -> tuple[RelativeBoard, bool]:
    """Move one mover checker from ``start`` to ``end`` (0: off), hitting or pinning a lone
    opponent there.  Returns the board and whether it hit.  Trusts the move to be legal."""
    cells = list(board)
    if start in (REL_BAR, REL_POOL):
        cells[start] -= 1
    elif cells[REL_PINS] >> start & 1:
        # The pinner leaves: the checker it held is free again, on its own.
        cells[start] = -1
        cells[REL_PINS] &= ~(1 << start)
    else:
        cells[start] -= 1
    hit = False
    if end == REL_OFF:
        cells[REL_OFF] += 1
    elif cells[end] == -1 and not cells[REL_PINS] >> end & 1:
        hit = True
        cells[end] = 1
        if rules.hit is HitRule.PIN:
            cells[REL_PINS] |= 1 << end
        else:
            cells[REL_OPP_BAR] += 1
    else:
        cells[end] += 1
    return tuple(cells), hit


def options(
    board: RelativeBoard, die: int, rules: Rules, fresh: tuple[int, ...] = ()
) -> list[tuple[int, int]]:
    """Every ``(start, end)`` the mover may play ``die`` as.  ``fresh`` lists points a
    checker entered this stage (Puff: those checkers may not move again)."""
    entry = rules.length + 1 - die
    if board[REL_BAR]:
        return [(REL_BAR, entry)] if _can_land(board, entry, rules) else []
    found: list[tuple[int, int]] = []
    if board[REL_POOL]:
        if _can_land(board, entry, rules):
            found.append((POOL, entry))
        if board[REL_POOL] > rules.pool_first_above:
            return found
    home = _all_home(board)
    highest = 0
    if home:
        highest = next((p for p in range(6, 0, -1) if _mine(board, p)), 0)
    for point in range(24, 0, -1):
        if board[point] <= 0:
            continue  # empty, the opponent's, or ours pinned underneath
        if fresh and board[point] <= fresh.count(point):
            continue
        target = point - die
        if target >= 1:
            if _can_land(board, target, rules):
                found.append((point, target))
        elif home and (target == 0 or (not rules.exact_bear_off and point == highest)):
            found.append((point, REL_OFF))
        if rules.backwards and point + die <= 24 and _can_land(board, point + die, rules):
            found.append((point, point + die))
    return found


# -- a whole stage -------------------------------------------------------------------

#: Each distinct board a play reaches, with one flat path to it that the generator's own
#: ``replay`` understands: (start, die, ...) pairs in the standard generator, (start, die,
#: end, ...) triples here.
Reached = dict[RelativeBoard, tuple[int, ...]]


class StageMoves:
    """The legal plays of one :class:`Stage` under :class:`Rules` (see :class:`~engine.movegen.LegalPlays`).

    Games that are not races over the usual track (Catch me, Doublets, French 2,
    Ludus) subclass it and override :meth:`options` and :meth:`hop`, keeping the
    search and the rules of use in one place.
    """

    #: Whether gnubg-style paths can be replayed with :func:`hop` to read notation.
    race = True

    def __init__(self, stage: Stage, rules: Rules) -> None:
        self.stage = stage
        self.rules = rules

    def options(self, board: RelativeBoard, die: int, fresh: tuple[int, ...]) -> list[tuple[int, int]]:
        return options(board, die, self.rules, fresh)

    def hop(self, board: RelativeBoard, start: int, end: int) -> tuple[RelativeBoard, bool]:
        return hop(board, start, end, self.rules)

    @property
    def label(self) -> str:
        return self.stage.text

    def paths(self, board: RelativeBoard) -> Paths:
        """Apart while checkers wait to enter under Puff's "two dice, two checkers": then no
        checker moves twice in the stage, so a step from where another ended is another checker."""
        if self.rules.split_while_entering and board[REL_POOL] > 0:
            return Paths.APART
        return Paths.JOINED

    def generate(self, board: RelativeBoard) -> Reached:
        dice = self.stage.dice
        orders = [dice] if self.stage.in_order else sorted(set(permutations(dice)), reverse=True)
        by_count: list[Reached] = [{} for _ in range(len(dice) + 1)]
        seen: set[tuple[RelativeBoard, int, tuple[int, ...], tuple[int, ...]]] = set()
        split = self.paths(board) is Paths.APART

        def visit(current: RelativeBoard, order: tuple[int, ...], path: tuple[int, ...],
                  fresh: tuple[int, ...]) -> None:
            used = len(path) // 3
            choices = self.options(current, order[used], fresh) if used < len(order) else []
            if not choices:
                by_count[used].setdefault(current, path)
                return
            for start, end in choices:
                after, _ = self.hop(current, start, end)
                arrived = (*fresh, end) if split and end != REL_OFF else fresh
                key = (after, used + 1, order[used + 1:], tuple(sorted(arrived)))
                if key in seen:
                    continue
                seen.add(key)
                visit(after, order, (*path, start, order[used], end), arrived)

        for order in orders:
            visit(board, order, (), ())
        return self._apply_usage(board, by_count)

    def _apply_usage(self, board: RelativeBoard, by_count: list[Reached]) -> Reached:
        most = max(count for count, reached in enumerate(by_count) if reached)
        if most == 0:
            return {board: ()}
        if self.stage.usage is Usage.ALL_OR_NOTHING and most < len(self.stage.dice):
            # Bearing off the last checker uses the whole roll: nothing is left to play it with.
            finished = {b: p for b, p in by_count[most].items() if _none_left(b)}
            return finished or {board: ()}
        chosen = by_count[most]
        dice = self.stage.dice
        if (most == 1 and len(dice) == 2 and dice[0] != dice[1] and not self.stage.in_order
                and self.stage.usage is Usage.MOST):
            # Only one of two numbers can be played: the higher, wherever either could be.
            higher = {b: p for b, p in chosen.items() if p[1] == max(dice)}
            return higher or chosen
        return chosen

    def replay(self, board: RelativeBoard, path: tuple[int, ...]) -> tuple[Step, ...]:
        steps = []
        for index in range(0, len(path), 3):
            start, die, end = path[index:index + 3]
            board, hit = self.hop(board, start, end)
            steps.append(self.step(start, end, die, hit))
        return tuple(steps)

    def step(self, start: int, end: int, die: int, hit: bool) -> Step:
        return Step(start, end, die, hit)
