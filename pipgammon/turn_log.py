"""The turn log: one line per moment the referee decided something a player cares about.

The demo's page and pictures, and the web dashboard, show the same lines.

>>> from engine.events import Event
>>> describe(Event("double", "f12", {"player": "white", "cube": 2}))
'White doubles (cube 2)'
>>> describe(Event("game-over", "f90", {"winner": "black", "points": 1, "kind": "single"}))
'Black wins 1 point (single)'
>>> describe(Event("match-over", "f90", {"winner": "black", "score": [1, 3]}))
'Black wins the match 3-1'
>>> describe(Event("reroll", "f16", {"player": "white", "dice": [2, 4]}))
'White roll 2-4 void: a die is cocked, throw both again'
>>> describe(Event("void-roll", "f70", {"player": "white", "dice": [6, 6]}))
'White roll 6-6 void: out of turn'
>>> describe(Event("illegal", "f33", {"player": "white", "dice": [3, 1], "points": [12, 14],
...                                   "own_points": [13, 11], "nearest": "8/5 6/5", "bar": False}))
"White 3-1: ILLEGAL, check points 13, 11 (numbered from White's side); nearest legal play 8/5 6/5"
"""

from __future__ import annotations

from engine.events import Event
from engine.wording import illegal_places, plural

#: The events the log shows (the rest, such as a die read or a lifted checker, are plumbing).
SHOWN = ("opening", "roll", "rethrow", "undo", "no-play", "accepted", "illegal", "corrected", "reroll",
         "void-roll", "double", "take", "drop", "game-over", "match-over")


def describe(event: Event) -> str:
    """One line of the turn log."""
    who = str(event.details.get("player", event.details.get("winner", ""))).capitalize()
    dice = "-".join(str(d) for d in event.details.get("dice", []))
    kind = event.type
    if kind == "accepted":
        return f"{who} {dice}: {event['move'] or '(no move)'}  accepted"
    if kind == "illegal":
        # The points and the nearest legal play both from the mover's side, so they can be matched.
        nearest = event.details.get("nearest", "?")
        return f"{who} {dice}: ILLEGAL, check {illegal_places(event.details)}; nearest legal play {nearest}"
    if kind == "opening":
        return f"Opening roll: White {event['white']}, Black {event['black']}"
    if kind == "game-over":
        return f"{who} wins {plural(event['points'], 'point')} ({event['kind']})"
    if kind in ("double", "take", "drop"):
        return f"{who} {kind}s (cube {event['cube']})"
    if kind == "match-over":
        # The winner's score first, as people say it; the event keeps White's first.
        scores = list(event.details.get("score", []))
        if event.details.get("winner") == "black":
            scores.reverse()
        score = "-".join(str(s) for s in scores)
        return f"{who} wins the match {score}".rstrip()
    if kind == "corrected":
        if event["to"] == "start":
            return f"{who} put the checkers back to the start of the turn"
        return f"{who} corrected the board to a legal play"
    if kind == "rethrow":
        return f"{who}'s roll {dice} taken back"
    if kind == "undo":
        return f"{who}'s last play taken back"
    if kind == "reroll":
        return f"{who} roll {dice} void: a die is cocked, throw both again"
    if kind == "void-roll":
        return f"{who} roll {dice} void: {event.details.get('reason', 'out of turn')}"
    if kind == "roll" and event.details.get("source") == "overruled":
        return f"{who} roll {dice} (called cocked, but played as it lay)"
    if kind == "roll" and event.details.get("source") == "inferred":
        read = "-".join(str(d) for d in event.details.get("read", []))
        return f"{who} roll {dice} (worked out from the board{'; the camera read ' + read if read else ''})"
    return f"{who} {kind} {dice}".rstrip()
