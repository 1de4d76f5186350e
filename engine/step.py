"""A step: one checker moved by one die."""

from __future__ import annotations

from typing import NamedTuple

from engine.player import Player
from engine.position import ASCENDING, DESCENDING, Track

#: In a :class:`Step`, the mover's bar and the off tray (gnubg's numbering), and the
#: pool of checkers not yet entered (variants that enter every checker by the dice).
BAR = 25
OFF = 0
POOL = 27


class Step(NamedTuple):
    """One checker moved by one die, in the mover's own numbering (as gnubg writes moves).

    ``start`` is 1..24, :data:`BAR` or :data:`POOL`; ``end`` is 1..24 or :data:`OFF`.

    >>> Step(24, 18, 6).board_points(Player.WHITE)
    (1, 7)
    >>> Step(BAR, 22, 3, hit=True).board_points(Player.BLACK)
    ('bar', 22)
    """

    start: int
    end: int
    die: int
    hit: bool = False
    #: A step that is not a move along the track ("unstack", "stack" in Doublets).
    kind: str = ""

    def board_points(self, player: Player, track: Track | None = None) -> tuple[int | str, int | str]:
        """``(from, to)`` in rulebook numbering along ``track`` (default: the standard game's),
        with ``"bar"``, ``"in"`` and ``"off"`` for the edges."""
        return (_absolute(self.start, player, track), _absolute(self.end, player, track))


#: How notation names the places off the points.
EDGE_NAMES = {BAR: "bar", POOL: "in", OFF: "off"}


def _absolute(own: int, player: Player, track: Track | None) -> int | str:
    return EDGE_NAMES[own] if own in EDGE_NAMES else board_point(own, player, track)


def board_point(own: int, player: Player, track: Track | None = None) -> int:
    """Rulebook point of ``player``'s own point ``own`` (1..24) along ``track``."""
    if track is None:
        track = ASCENDING if player is Player.WHITE else DESCENDING
    return track[own - 1]


def own_point(point: int, player: Player, track: Track | None = None) -> int:
    """``player``'s own number (1..24, as gnubg writes their moves) of rulebook ``point``, the
    inverse of :func:`board_point`.  Every track runs over all 24 points.

    >>> own_point(12, Player.WHITE), own_point(12, Player.BLACK)
    (13, 12)
    """
    if track is None:
        track = ASCENDING if player is Player.WHITE else DESCENDING
    return track.index(point) + 1
