"""French backgammon 2: three checkers each, each player on their own half of the board.

Geometry (VARIANTS.md; the rulebook shows it only in a picture): each player's
half is their own row of 12 points.  Black, at the edge with points 1..12,
enters at point 1 (nearest the right hand) and stacks at home on point 12;
White, at the edge with 13..24, enters at 13 and stacks at home on 24.  The
point *opposite* rulebook point p is 25 - p.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.dice import Roll
from engine.play import Play
from engine.player import Player
from engine.position import REL_BAR, REL_OPP_BAR, REL_POOL, Position, RelativeBoard
from engine.result import GameResult, ResultKind
from engine.rules import Rules, Stage, StageMoves, Usage
from engine.step import POOL
from engine.turn import Program
from engine.variants.base import Variant

if TYPE_CHECKING:
    from engine.movegen import Moves
    from engine.turn import Turn

HOME = 12


class French2Moves(StageMoves):
    """Both sides travel up the rulebook numbers, so in the relative board (own k = rulebook
    25 - k) White's row is own 12..1 and Black's own 24..13, home being own 1 and 13."""

    race = False

    def _own(self, step: int) -> int:
        """Own point of path position ``step`` (1 = the entry point, 12 = home)."""
        return (13 if self.stage.player is Player.WHITE else 25) - step

    def _path(self, own: int) -> int:
        return (13 if self.stage.player is Player.WHITE else 25) - own

    def options(self, board: RelativeBoard, die: int, fresh: tuple[int, ...]) -> list[tuple[int, int]]:
        row = [self._own(step) for step in range(1, HOME + 1)]
        occupied = [self._path(p) for p in row if board[p] > 0]
        rearmost = min(occupied, default=HOME + 1)
        entering = REL_BAR if board[REL_BAR] else (POOL if board[REL_POOL] else None)
        found: list[tuple[int, int]] = []
        # Entering: onto a free point behind every checker already on the row (no overtaking).
        if entering is not None and die < rearmost:
            found.append((entering, self._own(die)))
        if board[REL_BAR]:
            return found  # a captured checker re-enters before anything else moves
        for step in sorted(set(occupied)):
            target = step + die
            if step == HOME or target > HOME:
                continue  # home is reached with the exact number only
            ahead = [s for s in occupied if step < s < target]
            if ahead or (target != HOME and target in occupied):
                continue  # never land on an occupied point, never overtake
            found.append((self._own(step), self._own(target)))
        return found

    def hop(self, board: RelativeBoard, start: int, end: int) -> tuple[RelativeBoard, bool]:
        cells = list(board)
        cells[start] -= 1
        cells[end] += 1
        facing = 25 - end
        hit = cells[facing] < 0
        if hit:
            # Landing opposite an opponent captures it: it goes to the bar.
            cells[facing] += 1
            cells[REL_OPP_BAR] += 1
        return tuple(cells), hit


class French2(Variant):
    """Three checkers each, entered by the dice, each on their own half; first to stack all three
    on the home point wins.

    Never land on an occupied point (the home point excepted) and never overtake; a
    double counts once (one move); home needs the exact number; numbers that
    cannot be played are lost.  Landing opposite an opponent checker captures it to
    the bar, from where it re-enters before its owner moves anything else.
    """

    name = "french-2"
    title = "Französisches Backgammon 2"
    summary = (
        "A 17th-century game: three checkers each, each player only on their own half of the "
        "board. The checkers are rolled in; no checker lands on an occupied point (except the home "
        "point) or overtakes another; a double counts once; the home point needs the exact number. "
        "Landing on the point opposite an opponent captures it: it must re-enter before its owner "
        "moves anything else. The first to stack all three on the home point wins."
    )
    source = (
        "In dieser Variante, die aus dem 17. Jahrhundert stammt, spielt jeder nur mit 3 Steinen und "
        "nur auf seiner Hälfte. Wer zuerst seine Steine auf seinem Heimpunkt stapeln kann, gewinnt. "
        "Die Steine werden eingewürfelt. Bereits besetzte Felder dürfen – auch während des Spiels "
        "(Ausnahme: Heimpunkt) – nicht betreten werden. Die Steine bleiben in ihrer ursprünglichen "
        "Reihenfolge, sie dürfen einander nicht überholen. Bei einem Pasch wird der Wert nur einmal "
        "(1x) gezogen. Der Heimpunkt muss passend erreicht werden. Wenn Sie nicht alle Werte setzen "
        "können, verfallen die anderen. Sie schlagen, indem Sie ein Feld betreten, dem gegenüber ein "
        "Gegner steht. Dieser muss auf die Bar und zunächst wieder eingewürfelt werden, bevor andere "
        "Züge erlaubt sind."
    )
    checkers = 3
    enters_from_pool = True
    rules = Rules(white_ascending=True, black_ascending=True)

    def start_position(self) -> Position:
        return Position((0,) * 24, pool=(self.checkers, self.checkers))

    def program(self, turn: Turn, roll: Roll) -> Program:
        dice = (roll.first,) if roll.is_double else (roll.high, roll.low)
        return Program((Stage(turn.player, dice, usage=Usage.MOST_ANY),))

    def moves_for(self, stage: Stage) -> Moves:
        return French2Moves(stage, self.rules)

    def pips(self, position: Position, player: Player) -> int:
        """What ``player`` still has to travel along their own row of twelve to the home point
        (a checker still to enter or captured: the whole row).  Measured along the whole board, as
        the shared track runs, Black's home point 12 was 13 pips from its end, and a game blocked
        for good with both sides alike went to White (a rules review's 38-62)."""
        home = 24 if player is Player.WHITE else 12
        on_row = sum(position.count(player, point) * (home - point) for point in range(home - HOME + 1, home))
        return on_row + HOME * (position.bar[player] + position.pool[player])

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        home = 24 if play.player is Player.WHITE else 12
        if play.result.count(play.player, home) == self.checkers:
            return GameResult(play.player, ResultKind.SINGLE, cube, reason="all three home")
        return None

