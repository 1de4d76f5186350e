"""What the referee decides, as events: the journal's lines and `pipgammon replay`'s output.

An event is a type, the frame where it was decided, and JSON-ready details.  The
referee emits them; the recorder appends each one to the journal; the exports
(`.mat`, SGF, text) and a resumed referee read them back.  So the keys of each type are
one contract, checked here, for all of them (CONTRACT.md names the minimum): :data:`KEYS`
when an event is made, and what each key holds (:data:`FIELDS`) when one is read from its
JSON form, as a journal's lines are.

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
                        nearest legal result), ``nearest`` (that result's move); ``own_points``
                        (the same points as the mover numbers them, as ``nearest`` is written,
                        highest first), ``bar`` (true when the bar differs too), ``by`` (as in
                        ``accepted``)
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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.cube import MAX_CUBE
from engine.errors import EngineError, UnknownVariantError
from engine.game import OpeningRule
from engine.result import ResultKind
from engine.scene import DICE_COLOURS
from engine.variants import find_variant


class EventError(EngineError):
    """An event of an unknown type, missing a key its type needs, or with a key of the wrong kind."""


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


#: What a key holds: a description for the error message, and the test.
Check = tuple[str, Callable[[Any], bool]]


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(low: int) -> Check:
    return f"a whole number >= {low}", lambda v: _whole(v) and v >= low


def _one_of(*names: str) -> Check:
    listed = ", ".join(repr(n) for n in names[:-1]) + f" or {names[-1]!r}"
    return listed, lambda v: isinstance(v, str) and v in names


def _is_die(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6


def _dice(low: int = 0, high: int | None = None) -> Check:
    """A list of dice; how many: ``low`` to ``high`` (any number when ``high`` is None)."""
    many = "" if high is None else f"{low} " if low == high else f"{low} to {high} "
    return f"a list of {many}dice 1..6", lambda v: (
        isinstance(v, list | tuple) and low <= len(v) <= (len(v) if high is None else high)
        and all(_is_die(d) for d in v))


def _is_pair(value: object) -> bool:
    """Two counts >= 0, as ``[white, black]`` or ``{"white": w, "black": b}``."""
    if isinstance(value, Mapping):
        value = [value.get("white"), value.get("black")]
    return isinstance(value, list | tuple) and len(value) == 2 and all(_whole(c) and c >= 0 for c in value)


def _is_position(value: object) -> bool:
    if not isinstance(value, Mapping):
        return False
    points = value.get("points", [0] * 24)
    return (isinstance(points, list | tuple) and len(points) == 24 and all(_whole(c) for c in points)
            and all(_is_pair(value[key]) for key in ("bar", "off") if key in value))


def _is_variant(value: object) -> bool:
    try:
        return isinstance(value, str) and bool(find_variant(value))
    except UnknownVariantError:
        return False


PLAYER = _one_of("white", "black")
TEXT: Check = "text", lambda v: isinstance(v, str)
TEXTS: Check = "a list of texts", lambda v: isinstance(v, list | tuple) and all(isinstance(t, str) for t in v)
FLAG: Check = "true or false", lambda v: isinstance(v, bool)
DIE: Check = "a die 1..6", _is_die
CUBE: Check = f"a cube value 1, 2, 4, ... {MAX_CUBE}", lambda v: (
    _whole(v) and 1 <= v <= MAX_CUBE and not v & (v - 1))
SCORE: Check = "[white, black] points", _is_pair
POINTS: Check = "a list of points 1..24", lambda v: isinstance(v, list | tuple) and all(
    _whole(p) and 1 <= p <= 24 for p in v)
SEEN: Check = "a list of [colour, die 1..6, cocked]", lambda v: isinstance(v, list | tuple) and all(
    isinstance(d, list | tuple) and len(d) == 3 and d[0] in DICE_COLOURS and _is_die(d[1])
    and isinstance(d[2], bool) for d in v)
#: ``auto`` (the first dice show which) or one of the engine's opening rules; the referee's
#: :class:`~engine.referee.OpeningChoice`.
OPENINGS = ("auto", *(rule.value for rule in OpeningRule))
#: The referee's :class:`~engine.referee.Mode` values (it imports this module, not the reverse).
MODES = ("play", "teach", "record")
BY = _one_of("dice", "button", "scene", "inferred", "carried-on", "overruled")

#: The test of each key an event type may carry, required (:data:`KEYS`) or not; a journal's
#: event is checked against them where it is read (:meth:`Event.from_json`).
FIELDS: Mapping[str, Mapping[str, Check]] = {
    "match": {"length": _count(0), "variant": ("the name of a known variant", _is_variant),
              "opening": _one_of(*OPENINGS), "jacoby": FLAG},
    "game": {"number": _count(1), "score": SCORE, "crawford": FLAG},
    "opening": {"white": DIE, "black": DIE,
                "starter": ("'white', 'black' or null", lambda v: v is None or PLAYER[1](v))},
    "starter": {"player": PLAYER},
    "roll": {"player": PLAYER, "dice": _dice(2, 2),
             "source": _one_of("dice", "announced", "fixed", "inferred", "overruled"),
             "ambiguous": TEXTS, "read": _dice(2, 2)},
    "accepted": {"player": PLAYER, "dice": _dice(1, 4), "move": TEXT,
                 "position": ("a position {points, bar, off}", _is_position), "stage": TEXT, "by": BY,
                 "position_id": TEXT, "match_id": TEXT, "ambiguous": TEXTS},
    "no-play": {"player": PLAYER, "dice": _dice(1, 4), "stage": TEXT},
    "illegal": {"player": PLAYER, "dice": _dice(1, 4), "points": POINTS, "own_points": POINTS,
                "nearest": TEXT, "bar": FLAG, "by": BY},
    "corrected": {"player": PLAYER, "to": _one_of("legal", "start")},
    "void-roll": {"player": PLAYER, "dice": _dice(), "seen": SEEN, "reason": TEXT},
    "reroll": {"player": PLAYER, "dice": _dice(), "seen": SEEN},
    "rethrow": {"player": PLAYER, "dice": _dice(2, 2)},
    "announce": {"player": PLAYER, "dice": _dice(2, 2)},
    "doublet": {"player": PLAYER, "value": DIE},
    "double": {"player": PLAYER, "cube": CUBE},
    "take": {"player": PLAYER, "cube": CUBE},
    "drop": {"player": PLAYER, "cube": CUBE},
    "undo": {"player": PLAYER},
    "mode": {"mode": _one_of(*MODES)},
    "game-over": {"winner": PLAYER, "points": _count(1),
                  "kind": _one_of(*(kind.name.lower() for kind in ResultKind)), "cube": CUBE,
                  "score": SCORE, "dropped": FLAG, "reason": TEXT},
    "match-over": {"winner": PLAYER, "score": SCORE},
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
        """An event read from its JSON form (a journal line).  Every key its type defines is
        checked here, where a journal enters, so the referee and the exports trust the events."""
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise EventError(f"an event is a JSON object with a string 'type', not {data!r:.80}")
        details = {k: v for k, v in data.items() if k not in ("type", "frame")}
        event = cls(data["type"], "", details)
        frame = data.get("frame", "")
        if not isinstance(frame, str):
            raise EventError(f"{event.type} event: frame must be text, not {frame!r:.60}")
        for key, (wanted, test) in FIELDS[event.type].items():
            if key in details and not test(details[key]):
                raise EventError(f"{event.type} event: {key} must be {wanted}, not {details[key]!r:.60}")
        return replace(event, frame=frame)
