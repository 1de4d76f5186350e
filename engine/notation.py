"""gnubg move notation: ``24/18 13/10``, ``bar/22*``, ``6/off``, ``13/7(2)``, ``24/21*/18``.

Points are in the mover's own numbering (25 is the bar, 0 is off), as in every
gnubg listing.  Writing chains one checker's steps into one path and counts
repeated paths; reading gives back the paths, which :func:`engine.movegen`
matches against the legal plays.
"""

from __future__ import annotations

import re
from enum import Enum
from itertools import pairwise
from typing import NamedTuple

from engine.errors import NotationError
from engine.step import BAR, EDGE_NAMES, OFF, POOL, Step


class Segment(NamedTuple):
    """One written path ``start/.../end`` for one checker; ``hits`` are the points marked ``*``."""

    start: int
    end: int
    hits: tuple[int, ...] = ()
    via: tuple[int, ...] = ()


class Paths(Enum):
    """Which steps :func:`format_steps` writes as one checker's path."""

    #: A step that starts where an earlier one ended goes on with that checker (gnubg).
    JOINED = "joined"
    #: Every step moves a checker of its own (Puff while checkers are still to enter).
    APART = "apart"


def _name(point: int) -> str:
    return EDGE_NAMES.get(point, str(point))


def _paths_by_start(steps: list[Step]) -> list[list[tuple[int, bool]]]:
    """Moving forward only: from the highest start down, each step goes on with a path that
    ended where it starts (gnubg's paths).  A checker there either stood there or arrived from a
    higher point, so this order is always one the play could have been made in."""
    remaining = sorted(steps, key=lambda s: (s.start, s.end), reverse=True)
    paths: list[list[tuple[int, bool]]] = []
    while remaining:
        first = remaining.pop(0)
        path = [(first.start, False), (first.end, first.hit)]
        # Follow the same checker: a later step that starts where this one ended.
        while path[-1][0] != OFF:
            following = next((s for s in remaining if s.start == path[-1][0]), None)
            if following is None:
                break
            remaining.remove(following)
            path.append((following.end, following.hit))
        paths.append(path)
    return paths


def _paths_as_played(steps: list[Step]) -> list[list[tuple[int, bool]]]:
    """With a backward step (Rückwärts) the highest start may be a point a checker only passed
    through ("11/10 8/11" for 8/11/10).  In the order played, a step goes on with a path that
    ended where it starts, and otherwise starts a path where a checker stood before the play."""
    paths: list[list[tuple[int, bool]]] = []
    for step in steps:
        path = next((p for p in reversed(paths) if p[-1][0] == step.start), None)
        if path is None:
            paths.append([(step.start, False), (step.end, step.hit)])
        else:
            path.append((step.end, step.hit))
    # Listed as gnubg lists, with a path that hit first among those with its start and end, so
    # that it carries the "*" when they are counted together.
    paths.sort(key=lambda path: (path[0][0], path[-1][0], any(hit for _, hit in path)), reverse=True)
    return paths


def format_steps(steps: tuple[Step, ...] | list[Step], grouping: Paths = Paths.JOINED) -> str:
    """Write steps as gnubg does; with :attr:`Paths.APART`, one path per step.

    >>> format_steps([Step(24, 18, 6), Step(13, 10, 3)])
    '24/18 13/10'
    >>> format_steps([Step(13, 10, 3), Step(10, 7, 3), Step(13, 10, 3), Step(10, 7, 3)])
    '13/7(2)'
    >>> format_steps([Step(24, 21, 3, hit=True), Step(21, 18, 3)])
    '24/21*/18'
    >>> format_steps([Step(BAR, 22, 3, hit=True), Step(6, OFF, 6)])
    'bar/22* 6/off'
    >>> format_steps([Step(POOL, 23, 2), Step(23, 19, 4)], Paths.APART)
    'in/23 23/19'
    >>> format_steps([Step(8, 11, 3), Step(11, 10, 1)])  # back 3, forward 1 (Rückwärts)
    '8/10'
    """
    # Steps that act on a point in place (Doublets' towers) are written "unstack 3".
    special = [f"{s.kind} {_name(s.start)}" for s in steps if s.kind]
    steps = [s for s in steps if not s.kind]
    backward = any(s.start <= 24 and s.end > s.start for s in steps)
    if grouping is Paths.APART:
        ordered = sorted(steps, key=lambda s: (s.start, s.end), reverse=True)
        paths = [[(s.start, False), (s.end, s.hit)] for s in ordered]
    elif backward:
        paths = _paths_as_played(steps)
    else:
        paths = _paths_by_start(steps)

    # gnubg puts a hit's "*" on the first path (in listing order) through the
    # point where the blot stood, and shows an intermediate point only when it
    # carries that mark.  Paths with the same start and end are then counted,
    # written as the first of them.  (With a backward step, paths that pass
    # through different points can share a start and end: only the same text
    # is counted there.)
    marked: dict[int, int] = {}
    for hit_point in sorted({step.end for step in steps if step.hit}, reverse=True):
        owner = next(i for i, path in enumerate(paths) if any(p == hit_point for p, _ in path[1:]))
        marked[hit_point] = owner
    counted: list[tuple[tuple[int, int], str, int]] = []
    for index, path in enumerate(paths):
        points = [point for point, _ in path]
        stars = {p for p, owner in marked.items() if owner == index}
        shown = [points[0]] + [p for p in points[1:-1] if p in stars] + [points[-1]]
        text = "/".join(_name(p) + ("*" if p in stars else "") for p in shown)
        key = (points[0], points[-1])
        if backward:
            found = next((i for i, (_, written, _) in enumerate(counted) if written == text), None)
        else:
            found = len(counted) - 1 if counted and counted[-1][0] == key else None
        if found is None:
            counted.append((key, text, 1))
        else:
            counted[found] = (key, counted[found][1], counted[found][2] + 1)
    return " ".join([*special, *(text if n == 1 else f"{text}({n})" for _, text, n in counted)])


_TOKEN = re.compile(r"((?:bar|off|in|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+)(?:\((\d)\))?")


def _point(text: str, token: str) -> int:
    if text == "bar":
        return BAR
    if text == "in":
        return POOL
    if text == "off":
        return OFF
    value = int(text)
    if not 0 <= value <= 25:
        raise NotationError(f"point {value} in {token!r} is outside 0..25")
    return value


def parse_move(text: str, *, backwards: bool = False) -> list[Segment]:
    """Read gnubg notation into one :class:`Segment` per checker path (repeats expanded).

    ``in/22`` enters a checker from the pool; ``backwards`` allows paths such as
    ``6/10`` (the Rückwärts variant).

    >>> parse_move("13/7(2) bar/22*")
    [Segment(start=13, end=7, hits=(), via=()), Segment(start=13, end=7, hits=(), via=()), \
Segment(start=25, end=22, hits=(22,), via=())]
    >>> parse_move("24/21*/18")[0].hits
    (21,)
    """
    segments: list[Segment] = []
    cleaned = text.strip().lower()
    if cleaned in ("", "-", "(no move)", "no move", "cannot move"):
        return segments
    for token in cleaned.replace(",", " ").split():
        match = _TOKEN.fullmatch(token)
        if not match:
            raise NotationError(f"not a move: {token!r} in {text!r} (expected e.g. 24/18 or bar/22*)")
        parts = match.group(1).split("/")
        points = [_point(part.rstrip("*"), token) for part in parts]
        hits = tuple(p for p, part in zip(points, parts, strict=True) if part.endswith("*"))
        if BAR in points[1:] or POOL in points[1:] or OFF in points[:-1]:
            raise NotationError(f"{token!r}: bar and in can only start a path, and off only end one")
        for earlier, later in pairwise(points):
            # Back and forth a path can end where it began (Rückwärts: "24/23/24" is "24/24").
            back = backwards and earlier <= 24
            if (later == earlier and not backwards) or (later > earlier and not back):
                raise NotationError(f"{token!r} does not move forward ({earlier} to {later})")
        if points[0] in hits:
            raise NotationError(f"{token!r}: a checker cannot hit on the point it leaves")
        repeat = int(match.group(2) or 1)
        if not 1 <= repeat <= 4:
            raise NotationError(f"{token!r}: a path can be repeated 1..4 times")
        segment = Segment(points[0], points[-1], hits, tuple(points[1:-1]))
        segments.extend([segment] * repeat)
    return segments
