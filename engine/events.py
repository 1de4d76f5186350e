"""What the referee decides, as events: the journal's lines and `pipgammon replay`'s output.

An event is a type, the frame where it was decided, and JSON-ready details.  The
referee emits them; the recorder appends each one to the journal; the exports
(`.mat`, SGF, text) and a resumed referee read them back.  So the keys of each type are
one contract, checked here, for all of them (CONTRACT.md names the minimum).

======================  =====================================================================
type                    keys besides ``type`` and ``frame``
======================  =====================================================================
``match``               ``length`` (0: money), ``variant``, ``opening``, ``jacoby``
``game``                ``number`` (1, 2, ...), ``score`` [white, black], ``crawford``
``opening``             ``white``, ``black`` (one die each); ``starter`` (player or null: a tie)
``starter``             ``player`` (Classic Line: the starter rolls their own two dice)
``roll``                ``player``, ``dice`` [a, b]; ``source`` (``dice``; ``announced``: open
                        roll, rolled last turn; ``fixed``: fixed roll, no dice thrown;
                        ``inferred``: the dice were not seen, the roll is worked out from the
                        board when the opponent throws, other fitting rolls in ``ambiguous``,
                        the dice the camera read in ``read``; ``overruled``: dice called cocked
                        that the players took as flat: end-turn held long, or the opponent
                        threw past a roll with no legal play)
``accepted``            ``player``, ``dice``, ``move`` (gnubg notation, seen by the mover),
                        ``position`` {``points``, ``bar``, ``off``} after the play, ``stage``;
                        ``by`` (the end signal: ``dice`` picked up, ``button``, or ``scene``:
                        a legal board after a correction or a take-back; ``inferred``: the play of an
                        inferred roll; ``carried-on``: the
                        opponent rolled past an illegal play, which is recorded as its nearest
                        legal result; ``overruled``: end-turn held long after an illegal
                        verdict, the same record); ``position_id``
                        (seen by the opponent) and ``match_id`` where the variant fits gnubg's
                        IDs (no ``match_id`` when the play ends the game); ``ambiguous``
                        (other moves the board fits as well: stacks, hidden pools or pins)
``no-play``             ``player``, ``dice``; ``stage``
``illegal``             ``player``, ``dice``, ``points`` (board points that differ from the
                        nearest legal result), ``nearest`` (that result's move); ``bar`` (true
                        when the bar differs too), ``by`` (as in ``accepted``)
``corrected``           ``player``, ``to`` (``legal`` or ``start``)
``void-roll``           ``player`` (who rolled out of turn), ``dice``; ``seen`` [[colour, value,
                        cocked], ...] (the dice ignored until picked up), ``reason``
``reroll``              ``player``, ``dice`` (a die was cocked); ``seen`` as in ``void-roll``
``rethrow``             ``player``, ``dice`` (the roll read before): thrown again before a
                        checker moved, so that throw was none (a cocked die seen as flat)
``announce``            ``player``, ``dice`` (open roll: the opponent's dice for next turn)
``doublet``             ``player``, ``value`` (a chosen doublet)
``double``              ``player`` (the doubler), ``cube`` (the value offered)
``take``                ``player`` (the taker), ``cube``
``drop``                ``player`` (who dropped), ``cube`` (the value before the double)
``undo``                ``player`` (whose accepted play was taken back: every accepted,
                        no-play, doublet and game-over since that roll is void; also a no-play
                        said on a misread roll, when the player then moved)
``mode``                ``mode`` (``play``, ``teach`` or ``record``)
``game-over``           ``winner``, ``points``, ``kind`` (``single``, ``gammon``,
                        ``backgammon``), ``cube``, ``score`` [white, black] after it;
                        ``dropped``, ``reason`` (a variant's early end, else "")
``match-over``          ``winner``, ``score``
======================  =====================================================================

Players are ``"white"``/``"black"``; dice are lists of ints.

>>> e = Event("roll", "frame-0012.png", {"player": "white", "dice": [3, 1]})
>>> Event.from_json(e.to_json()) == e
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError


class EventError(EngineError):
    """An event of an unknown type, or missing a key its type needs."""


#: The keys each event type must carry (more are allowed).
KEYS: Mapping[str, tuple[str, ...]] = {
    "match": ("length", "variant", "opening"),
    "game": ("number", "score"),
    "opening": ("white", "black", "starter"),
    "starter": ("player",),
    "roll": ("player", "dice"),
    "accepted": ("player", "dice", "move", "position"),
    "no-play": ("player", "dice"),
    "illegal": ("player", "dice", "points"),
    "corrected": ("player", "to"),
    "void-roll": ("player", "dice"),
    "reroll": ("player", "dice"),
    "rethrow": ("player", "dice"),
    "announce": ("player", "dice"),
    "doublet": ("player", "value"),
    "double": ("player", "cube"),
    "take": ("player", "cube"),
    "drop": ("player", "cube"),
    "undo": ("player",),
    "mode": ("mode",),
    "game-over": ("winner", "points", "kind"),
    "match-over": ("winner", "score"),
}


@dataclass(frozen=True)
class Event:
    type: str
    frame: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.type not in KEYS:
            raise EventError(f"unknown event type {self.type!r} (known: {', '.join(KEYS)})")
        missing = [key for key in KEYS[self.type] if key not in self.details]
        if missing:
            raise EventError(f"{self.type} event lacks {', '.join(missing)}")

    def __getitem__(self, key: str) -> Any:
        return self.details[key]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "frame": self.frame, **self.details}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise EventError(f"an event is a JSON object with a string 'type', not {data!r:.80}")
        details = {k: v for k, v in data.items() if k not in ("type", "frame")}
        return cls(data["type"], str(data.get("frame", "")), details)
