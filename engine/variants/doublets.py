"""Doubletten (Icelandic): towers on the six home points are unstacked, restacked, then borne off.

Checkers never change point.  Each side's six home points start with two
checkers stacked in a tower.  Phase 0: a die n unstacks the tower on own point
n (the two checkers then stand side by side).  Phase 1, once every tower is
unstacked: a die n stacks point n again.  Phase 2, once all six stand stacked: a
die n bears off the tower on point n.  A die whose point has nothing left to do
in the phase is lost.  A double counts once and earns another roll.  Bearing off takes one
checker per die, as in Fiske's account of the Icelandic game (the rulebook's "nach dem
ebenfalls gleichen System" leaves it open).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.dice import Roll
from engine.play import Play
from engine.position import REL_OFF, REL_PROGRESS, REL_TOWERS, Position, RelativeBoard
from engine.result import GameResult, ResultKind
from engine.rules import Rules, Stage, StageMoves, Usage
from engine.step import Step
from engine.turn import Incomplete, Program
from engine.variants.base import Variant

if TYPE_CHECKING:
    from engine.movegen import Moves
    from engine.turn import Turn

UNSTACK, RESTACK, BEAR_OFF = 0, 1, 2
_KINDS = {UNSTACK: "unstack", RESTACK: "stack", BEAR_OFF: "bear-off"}
_ALL = sum(1 << p for p in range(1, 7))


class DoubletsMoves(StageMoves):
    """A die acts on its own point: no checker travels."""

    race = False

    def options(self, board: RelativeBoard, die: int, fresh: tuple[int, ...]) -> list[tuple[int, int]]:
        phase, tower = board[REL_PROGRESS], board[REL_TOWERS] >> die & 1
        if board[die] <= 0:
            return []
        if phase == BEAR_OFF:
            return [(die, REL_OFF)]  # one checker off the point, while any is left
        if (phase == UNSTACK and tower) or (phase == RESTACK and not tower):
            return [(die, die)]
        return []

    def hop(self, board: RelativeBoard, start: int, end: int) -> tuple[RelativeBoard, bool]:
        cells = list(board)
        phase = cells[REL_PROGRESS]
        if phase == BEAR_OFF:
            cells[start] -= 1
            cells[REL_OFF] += 1
            cells[REL_TOWERS] &= ~(1 << start)  # what is left is no longer a tower
            return tuple(cells), False
        cells[REL_TOWERS] ^= 1 << start
        if phase == UNSTACK and not cells[REL_TOWERS] & _ALL:
            cells[REL_PROGRESS] = RESTACK
        elif phase == RESTACK and cells[REL_TOWERS] & _ALL == _ALL:
            cells[REL_PROGRESS] = BEAR_OFF
        return tuple(cells), False

    def replay(self, board: RelativeBoard, path: tuple[int, ...]) -> tuple[Step, ...]:
        steps = []
        for index in range(0, len(path), 3):
            start, die, end = path[index:index + 3]
            kind = _KINDS[board[REL_PROGRESS]]
            board, _ = self.hop(board, start, end)
            steps.append(Step(start, end, die, kind=kind))
        return tuple(steps)


class Doublets(Variant):
    """Twelve checkers each, two stacked on each home point; unstack, restack, bear off by the dice.

    Decisions: a bear-off die takes one checker off its point (Fiske); a die
    left over when a phase ends is played in the next phase; the first to bear
    off all twelve wins a single game.
    """

    name = "doublets"
    title = "Doubletten"
    summary = (
        "An Icelandic game that is no race: 12 checkers each stand in towers of two on the six "
        "home points and never change point. A die unstacks the tower on its point (a die whose "
        "tower is already unstacked is lost); when all are unstacked they are stacked again the "
        "same way, and then borne off the same way. A double counts once and earns another roll."
    )
    source = (
        "Es handelt sich um kein Laufspiel, die Steine wechseln nicht die Felder! 12 Steine pro Spieler "
        "... Zunächst müssen alle Steine „entstapelt“, dann wieder gestapelt und dann endlich "
        "ausgespielt werden. ... Wird beispielsweise 3-6 gewürfelt, wird sowohl der Turm auf der 3 als "
        "auch auf der 6 aufgelöst und die Steine nebeneinander gesetzt. Ist ein Turm bereits aufgelöst, "
        "verfällt dieser Würfel. Bei einem Pasch wird der Wert nur 1x gesetzt, es darf aber noch einmal "
        "gewürfelt werden. Sobald alle Türme aufgelöst sind, werden sie nach dem gleichen System wieder "
        "zusammen gesetzt. ... Sobald auch dies gelungen ist, können sie nach dem ebenfalls gleichen "
        "System heraus gewürfelt werden. Auch hier wird der Pasch nur einfach genutzt."
    )
    checkers = 12
    rules = Rules()

    @property
    def fits_position_id(self) -> bool:
        return False

    def start_position(self) -> Position:
        points = {**{p: 2 for p in range(19, 25)}, **{p: -2 for p in range(1, 7)}}
        position = Position.from_points(points, checkers=self.checkers)
        return Position(position.points, towers=frozenset(points))

    def program(self, turn: Turn, roll: Roll) -> Program:
        if roll.is_double:
            stage = Stage(turn.player, (roll.first,), usage=Usage.MOST_ANY, label=f"{roll} (counts once)")
            return Program((stage,), Incomplete.CONTINUE, roll_again=True)
        return Program((Stage(turn.player, (roll.high, roll.low), usage=Usage.MOST_ANY),))

    def moves_for(self, stage: Stage) -> Moves:
        return DoubletsMoves(stage, self.rules)

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        if play.result.in_play(play.player):
            return None
        return GameResult(play.player, ResultKind.SINGLE, cube)

