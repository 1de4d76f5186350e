"""Catch me: six checkers each chase round a circular track; captured checkers leave the game.

The board is the usual one, read as a ring: White starts on 24..19 and travels
down (…, 2, 1, 24, 23, …), Black starts on 1..6 and travels up.  One checker per point.  A captured
checker is out of the game; pipgammon keeps it on the bar, which in this game
nobody ever enters from.  The player left without checkers on the points loses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.dice import Roll
from engine.play import Play
from engine.position import REL_BAR, REL_OPP_BAR, Position, RelativeBoard
from engine.result import GameResult, ResultKind
from engine.rules import Rules, Stage, StageMoves
from engine.turn import Incomplete, Program
from engine.variants.base import Variant

if TYPE_CHECKING:
    from engine.movegen import Moves
    from engine.turn import Turn

#: The corner points (1, 12, 13, 24 in either numbering: the set is symmetric).
CORNERS = (1, 12, 13, 24)


def _ring(point: int) -> int:
    return (point - 1) % 24 + 1


def corner_ahead(point: int, count: int, downwards: bool) -> int:
    """The ``count``-th corner strictly ahead of ``point`` in the direction of travel."""
    ring = sorted(CORNERS, reverse=downwards)
    for _ in range(count):
        ahead = [c for c in ring if (c < point if downwards else c > point)]
        point = ahead[0] if ahead else ring[0]
    return point


class CatchMeMoves(StageMoves):
    """The mover's plays for one roll.  In the relative board the mover travels down."""

    race = False

    def generate(self, board: RelativeBoard) -> dict[RelativeBoard, tuple[int, ...]]:
        mine = [p for p in range(1, 25) if board[p] > 0]
        dice = self.stage.dice
        found: dict[RelativeBoard, tuple[int, ...]] = {}
        if len(mine) == 1:
            # The last checker goes from corner to corner: a 1 to the next, a 6 to the one after.
            for die, corners in ((1, 1), (6, 2)):
                if die in dice:
                    target = corner_ahead(mine[0], corners, downwards=True)
                    found.setdefault(self._move(board, mine[0], target), (mine[0], die, target))
        else:
            total = sum(dice)
            for start in mine:
                target = _ring(start - total)
                while board[target] > 0 and target != start:
                    target = _ring(target - 1)  # own checker there: carry on to the next point
                found.setdefault(self._move(board, start, target), (start, total, target))
        return found or {board: ()}

    def _move(self, board: RelativeBoard, start: int, end: int) -> RelativeBoard:
        return self.hop(board, start, end)[0]

    def hop(self, board: RelativeBoard, start: int, end: int) -> tuple[RelativeBoard, bool]:
        cells = list(board)
        cells[start] -= 1
        hit = cells[end] < 0
        cells[end] = 1
        if hit:
            cells[REL_OPP_BAR] += 1  # captured: out of the game
            _last_checker_jumps(cells, opponent=True)
        return tuple(cells), hit


def _last_checker_jumps(cells: list[int], opponent: bool) -> None:
    """A side just reduced to one checker jumps it at once to its next corner, capturing there;
    that capture may in turn leave the other side with one.  In the relative board the
    mover travels down and the opponent up."""
    while True:
        sign = -1 if opponent else 1
        left = [p for p in range(1, 25) if cells[p] * sign > 0]
        if len(left) != 1:
            return
        start = left[0]
        target = corner_ahead(start, 1, downwards=not opponent)
        captured = cells[target] * sign < 0
        cells[start] = 0
        cells[target] = sign
        if not captured:
            return
        cells[REL_BAR if opponent else REL_OPP_BAR] += 1
        opponent = not opponent


class CatchMe(Variant):
    """Six checkers each on the first six points, moving round a ring in opposite directions.

    A roll moves only if it holds a 1 or a 6, and then one checker moves the sum.
    Every double moves one checker its sum and earns another roll (a last checker
    moves only with 1-1 or 6-6; other doubles only earn it the roll).  Landing on an
    opponent captures it out of the game; landing on one's own carries on to the
    next point free or held by the opponent.  A side down to
    one checker jumps it to the next corner (1, 12, 13, 24), capturing there, and
    from then on a 1 moves it to the next corner and a 6 to the one after.
    Start (VARIANTS.md): White on 19..24 travelling down, Black on 1..6 travelling up.
    """

    name = "catch-me"
    title = "Catch me"
    summary = (
        "Six checkers each, one on each of the first six points, chase each other round the board "
        "in a ring. A roll counts only if it holds a 1 or a 6: then one checker moves the sum. A "
        "double always moves one checker its sum and earns another roll. A "
        "checker landing on an opponent takes it out of the game; landing on one's own, it goes on "
        "to the next point that is free or held by the opponent. The last checker jumps from corner "
        "to corner. Whoever loses every checker loses."
    )
    source = (
        "Gespielt wird mit 6 Steinen pro Spieler. Diese werden auf die ersten sechs Felder (weiß 24-19, "
        "schwarz 1-6) gesetzt. Gewürfelt wird mit 2 Würfeln, gezogen wird jedoch nur, wenn der Wurf "
        "eine 1 oder 6 enthält. Dann wird ein Stein um die Summe der beiden Würfel bewegt. ... Ein "
        "Pasch wird immer gezogen, zusätzlich darf ein weiteres Mal gewürfelt werden. Erreicht ein "
        "Spieler ein Feld mit genau einem gegnerischen Stein, wird dieser hinaus geworfen und nicht "
        "wieder ins Spiel gebracht. Wird ein Feld erreicht, dass von einem eigenen Stein besetzt ist, "
        "zieht der Stein zum nächsten Feld, das entweder frei oder vom Gegner besetzt ist ... Sobald "
        "ein Spieler nur noch einen Stein besitzt, ... zieht der Spieler mit einer 1 zum nächsten, "
        "mit einer 6 zum übernächsten Eckfeld. ... Ein Pasch aus 1 oder 6 wird entsprechend gezogen, "
        "andere Pasch sind nicht verwendbar, es darf jedoch erneut gewürfelt werden."
    )
    checkers = 6
    #: "die ersten sechs Felder (weiß 24-19, schwarz 1-6)": White's first point is 24, so
    #: White travels down the rulebook numbers and Black up.
    rules = Rules(white_ascending=False, black_ascending=True)

    @property
    def fits_position_id(self) -> bool:
        return False

    def start_position(self) -> Position:
        return Position.from_points(
            {**{p: 1 for p in range(19, 25)}, **{p: -1 for p in range(1, 7)}}, checkers=self.checkers
        )

    def program(self, turn: Turn, roll: Roll) -> Program:
        stage = Stage(turn.player, (roll.first, roll.second), label=f"{roll}: one checker moves")
        # "Ein Pasch wird immer gezogen": every double moves and earns another roll (a last
        # checker moves only with 1-1 or 6-6, which the generator knows).  Other rolls move
        # only with a 1 or a 6 in them.  One step uses the whole roll.
        if roll.is_double:
            return Program((stage,), Incomplete.CONTINUE, roll_again=True)
        counts = 1 in (roll.first, roll.second) or 6 in (roll.first, roll.second)
        return Program((stage,) if counts else ())

    def moves_for(self, stage: Stage) -> Moves:
        return CatchMeMoves(stage, self.rules)

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        after = play.result
        for loser in (play.player.opponent, play.player):
            if after.checkers_on_board(loser) == 0:
                return GameResult(loser.opponent, ResultKind.SINGLE, cube,
                                  reason=f"{loser.label} has no checkers left")
        return None
