"""A step: one checker moved by one die."""

from __future__ import annotations

from typing import NamedTuple

from engine.player import Player

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

    def board_points(self, player: Player) -> tuple[int | str, int | str]:
        """``(from, to)`` in rulebook numbering, with ``"bar"`` and ``"off"`` for the edges."""
        return (_absolute(self.start, player), _absolute(self.end, player))


def _absolute(own: int, player: Player) -> int | str:
    if own == BAR:
        return "bar"
    if own == POOL:
        return "in"
    if own == OFF:
        return "off"
    return 25 - own if player is Player.WHITE else own


def board_point(own: int, player: Player) -> int:
    """Rulebook point of ``player``'s own point ``own`` (1..24)."""
    return 25 - own if player is Player.WHITE else own


def own_point(point: int, player: Player) -> int:
    """``player``'s own number for rulebook point ``point`` (1..24)."""
    return 25 - point if player is Player.WHITE else point
