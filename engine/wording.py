"""Wording shared by the messages people read: a count with the noun that agrees with it, and
the places an illegal play is to be checked.

>>> plural(1, "legal play"), plural(11, "legal play"), plural(0, "match", "matches")
('1 legal play', '11 legal plays', '0 matches')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and ``noun``, or ``nouns`` (default ``noun`` + "s") unless the count is one."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def own_places(player: str, own_points: Sequence[int], bar: bool = False) -> str:
    """Points said as ``player`` ("white", "black") counts their own, as their plays are written,
    and saying so: the dashboard's drawing labels them the same way while they are to act.

    >>> own_places("white", [13])
    "point 13 (numbered from White's side)"
    >>> own_places("black", [], bar=True)
    'the bar'
    """
    return _places(list(own_points), f"numbered from {player.capitalize()}'s side", bar)


def illegal_places(illegal: Mapping[str, Any]) -> str:
    """Where to look after an ``illegal`` verdict (the event's details), said from the mover's
    side, as the nearest legal play is written: a player counts their own points.

    >>> illegal_places({"player": "white", "points": [12, 14], "own_points": [13, 11], "bar": False})
    "points 13, 11 (numbered from White's side)"
    >>> illegal_places({"player": "black", "points": [3], "own_points": [3], "bar": True})
    "point 3 (numbered from Black's side) and the bar"
    >>> illegal_places({"player": "white", "points": [], "own_points": [], "bar": True})
    'the bar'

    A journal written before ``own_points`` existed has only the board's numbering, and says so:

    >>> illegal_places({"player": "white", "points": [12, 14]})
    "points 12, 14 (the board's numbering)"
    """
    own = illegal.get("own_points")
    bar = bool(illegal.get("bar"))
    if own is None:
        return _places(illegal.get("points", []), "the board's numbering", bar)
    return own_places(str(illegal.get("player", "")), own, bar)


def _places(points: Sequence[int], numbering: str, bar: bool) -> str:
    noun = "point" if len(points) == 1 else "points"
    places = f"{noun} {', '.join(map(str, points))} ({numbering})" if points else ""
    if bar:
        places = f"{places} and the bar" if places else "the bar"
    return places
