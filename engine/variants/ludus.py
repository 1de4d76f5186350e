"""Ludus Lumbadorum: backgammon on half a board.

Geometry (VARIANTS.md, after R. Reid's Ludus Lumbardorum / Medio Emperador):
the game uses the half of the board with points 1..6 and 19..24, twelve points
in a ring.  White starts with all 15 on point 6 (normally Black's 6-point, here
White's own first point) and travels 6, 5, ..., 1, then 24, 23, ..., 19,
bearing off from 19..24; Black starts on 19 and travels 19..24, then 1..6,
bearing off from 1..6.  In own numbering a side's track runs 12 (start) down
to 1, home being 1..6, so a hit checker enters on own point 13 - n.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.dice import Roll
from engine.position import REL_BAR, Position, RelativeBoard, Track
from engine.rules import Rules, Stage, StageMoves
from engine.turn import Program
from engine.variants.base import Variant

if TYPE_CHECKING:
    from engine.movegen import Moves
    from engine.turn import Turn

#: Own point k → rulebook point: own 1..6 home, 7..12 the far half, 13..24 unused (points 7..18).
WHITE_TRACK: Track = (*range(19, 25), *range(1, 7), *range(7, 19))
BLACK_TRACK: Track = tuple(25 - point for point in WHITE_TRACK)
START_POINT = 12
#: The opponent's points 3, 4 and 5 from their start are our own points 3, 4 and 5.
NO_BLOCK = (3, 4, 5)


class LudusMoves(StageMoves):
    """The standard moves on the 12-point track, with the game's two restrictions."""

    def options(self, board: RelativeBoard, die: int, fresh: tuple[int, ...]) -> list[tuple[int, int]]:
        found = super().options(board, die, fresh)
        allowed = []
        for start, end in found:
            if start == REL_BAR and end == START_POINT and board[START_POINT] > 0:
                continue  # enter on the start point only once every checker has left it
            if end in NO_BLOCK and board[end] >= 1:
                continue  # may not make a point on the opponent's points 3, 4 and 5
            allowed.append((start, end))
        return allowed


class LudusLumbadorum(Variant):
    """Half a board, fifteen checkers each from the opponent's 6-point; doublets count once.

    Decisions: "der Pasch wird nur einmal gezogen" plays a double as an
    ordinary roll, two moves of its number.  "Black may not block White's points
    3, 4 and 5" is read as: a player may never hold two or more checkers on the
    opponent's points 3, 4 and 5 counted from their start (our own points 3, 4, 5).
    """

    name = "ludus-lumbadorum"
    title = "Ludus Lumbadorum"
    summary = (
        "Played on one half of the board, numbered the other way round, the players moving in "
        "opposite directions from the opponent's 6-point. Moving, hitting, entering and bearing off "
        "as usual, but a double is played only once. Two checkers block a point, but neither player "
        "may block the other's points 3, 4 and 5, and a player enters on their own start point only "
        "after all their checkers have left it."
    )
    source = (
        "Diese Variante wird nur auf einem halben Brett gespielt, mit einer abweichenden Nummerierung "
        "und Zugrichtung ... Die Zugweise, das Schlagen, das Einsetzen und das Hinausspielen "
        "entsprechen dem klassischen Backgammon, nur der Pasch wird nur einmal gezogen. Die "
        "Besonderheit sind die Blockademöglichkeiten: Spitzen werden durch 2 gegnerische Steine "
        "blockiert. Allerdings darf schwarz in der obigen Abb. die gegnerischen Felder 3, 4 und 5 "
        "nicht blockieren, für weiß gilt analog das Gleiche. Das Gleiche gilt für den eigenen "
        "Startpunkt – obwohl Sie mit mehreren Steinen dort starten, dürfen Sie dort nur einsetzen, "
        "wenn alle anderen Steine diese Spitze 1 verlassen haben."
    )
    rules = Rules(white_track=WHITE_TRACK, black_track=BLACK_TRACK, length=START_POINT)

    @property
    def fits_position_id(self) -> bool:
        return False

    def start_position(self) -> Position:
        return Position.from_points({6: 15, 19: -15})

    def program(self, turn: Turn, roll: Roll) -> Program:
        return Program((Stage(turn.player, (roll.first, roll.second)),))

    def moves_for(self, stage: Stage) -> Moves:
        return LudusMoves(stage, self.rules)

