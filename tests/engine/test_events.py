"""Events read from their JSON form (journal lines): every key of every type is checked."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.events import KEYS, Event, EventError
from engine.records import events_from_selfplay
from engine.selfplay import self_play
from engine.variants import VARIANTS

#: One event of each type with every key it may carry, as a journal line holds it.
GOOD: dict[str, dict[str, Any]] = {
    "match": {"length": 3, "variant": "standard", "opening": "auto", "jacoby": False},
    "game": {"number": 1, "score": [0, 0], "crawford": False},
    "opening": {"white": 3, "black": 1, "starter": "white"},
    "starter": {"player": "black"},
    "roll": {"player": "white", "dice": [6, 4], "source": "inferred", "ambiguous": ["4-6"], "read": [6, 2]},
    "accepted": {"player": "white", "dice": [3, 1], "move": "8/5 6/5", "stage": "", "by": "dice",
                 "position": {"points": [0] * 24, "bar": {"white": 0, "black": 0}, "off": [0, 0]},
                 "position_id": "4HPwATDgc/ABMA", "match_id": "cAkLAAAAAAAA", "ambiguous": []},
    "no-play": {"player": "black", "dice": [6, 6], "stage": ""},
    "illegal": {"player": "white", "dice": [3, 1], "points": [5, 8], "own_points": [20, 17],
                "nearest": "8/5 6/5", "bar": False, "by": "scene"},
    "corrected": {"player": "white", "to": "start"},
    "void-roll": {"player": "black", "dice": [2, 2], "seen": [["black", 2, False], ["other", 2, True]],
                  "reason": "out of turn"},
    "reroll": {"player": "white", "dice": [5], "seen": [["white", 5, True]]},
    "rethrow": {"player": "white", "dice": [4, 2]},
    "announce": {"player": "black", "dice": [5, 2]},
    "doublet": {"player": "white", "value": 4},
    "double": {"player": "white", "cube": 2},
    "take": {"player": "black", "cube": 2},
    "drop": {"player": "black", "cube": 1},
    "undo": {"player": "white"},
    "mode": {"mode": "teach"},
    "game-over": {"winner": "white", "points": 2, "kind": "gammon", "cube": 1, "score": [2, 0],
                  "dropped": False, "reason": ""},
    "match-over": {"winner": "white", "score": [3, 0]},
}


def test_every_type_has_a_good_example() -> None:
    assert set(GOOD) == set(KEYS)
    for kind, details in GOOD.items():
        assert Event.from_json({"type": kind, "frame": "f1.png", **details}).details == details


@pytest.mark.parametrize(
    ("kind", "key", "value", "message"),
    [
        # Each of these raised ValueError or OverflowError in Referee.apply, or was read as
        # something else (a variant the exports wrote as "record: nosuch").
        ("match", "length", "abc", "match event: length must be a whole number >= 0, not 'abc'"),
        ("match", "length", float("inf"), "match event: length must be a whole number >= 0, not inf"),
        ("match", "length", 1.0, "match event: length must be a whole number"),
        ("match", "length", -1, "match event: length must be a whole number >= 0"),
        ("match", "variant", "nosuch", "match event: variant must be the name of a known variant"),
        ("match", "variant", 7, "match event: variant must be"),
        ("match", "opening", "bogus",
         "match event: opening must be 'auto', 'one-die-each' or 'starter-rolls', not 'bogus'"),
        ("match", "opening", "weird", "match event: opening must be"),
        ("match", "jacoby", "yes", "match event: jacoby must be true or false"),
        ("game", "number", "x", "game event: number must be a whole number >= 1, not 'x'"),
        ("game", "number", 0, "game event: number must be"),
        ("game", "score", [1], r"game event: score must be \[white, black\] points"),
        ("game", "crawford", None, "game event: crawford must be true or false"),
        ("opening", "white", 7, "opening event: white must be a die 1..6"),
        ("opening", "black", 2.5, "opening event: black must be a die 1..6"),
        ("opening", "starter", "red", "opening event: starter must be 'white', 'black' or null"),
        ("starter", "player", None, "starter event: player must be 'white' or 'black'"),
        ("roll", "player", "White", "roll event: player must be 'white' or 'black'"),
        ("roll", "dice", [3], "roll event: dice must be a list of 2 dice 1..6"),
        ("roll", "dice", "31", "roll event: dice must be"),
        ("roll", "dice", [3, True], "roll event: dice must be"),
        ("roll", "source", "guess", "roll event: source must be"),
        ("roll", "read", [0, 1], "roll event: read must be a list of 2 dice"),
        ("roll", "ambiguous", "4-6", "roll event: ambiguous must be a list of texts"),
        ("accepted", "position", None, "accepted event: position must be a position"),
        ("accepted", "position", {"points": [0] * 23}, "accepted event: position must be"),
        ("accepted", "position", {"bar": {"white": -1, "black": 0}}, "accepted event: position must be"),
        ("accepted", "move", None, "accepted event: move must be text"),
        ("accepted", "dice", [], "accepted event: dice must be a list of 1 to 4 dice"),
        ("accepted", "by", "magic", "accepted event: by must be"),
        ("accepted", "position_id", 5, "accepted event: position_id must be text"),
        ("no-play", "stage", ["x"], "no-play event: stage must be text"),
        ("illegal", "points", [0], "illegal event: points must be a list of points 1..24"),
        ("illegal", "own_points", [25], "illegal event: own_points must be a list of points 1..24"),
        ("illegal", "bar", "no", "illegal event: bar must be true or false"),
        ("corrected", "to", "elsewhere", "corrected event: to must be 'legal' or 'start'"),
        ("void-roll", "seen", [["blue", 2, False]], "void-roll event: seen must be a list of"),
        ("reroll", "seen", [["white", 2]], "reroll event: seen must be"),
        ("rethrow", "dice", [1, 2, 3], "rethrow event: dice must be a list of 2 dice"),
        ("announce", "dice", None, "announce event: dice must be"),
        ("doublet", "value", 0, "doublet event: value must be a die 1..6"),
        ("double", "cube", 3, "double event: cube must be a cube value"),
        ("take", "cube", 128, "take event: cube must be a cube value 1, 2, 4, ... 64"),
        ("drop", "cube", "2", "drop event: cube must be"),
        ("undo", "player", 0, "undo event: player must be"),
        ("mode", "mode", "bogus", "mode event: mode must be 'play', 'teach' or 'record'"),
        ("game-over", "kind", "triple", "game-over event: kind must be 'single', 'gammon' or 'backgammon'"),
        ("game-over", "points", 0, "game-over event: points must be a whole number >= 1"),
        ("game-over", "dropped", 1, "game-over event: dropped must be true or false"),
        ("match-over", "winner", "nobody", "match-over event: winner must be"),
        ("match-over", "score", {"white": 1}, "match-over event: score must be"),
    ],
)
def test_a_bad_key_names_the_event_type_and_the_key(kind: str, key: str, value: object, message: str) -> None:
    data = {"type": kind, "frame": "f1.png", **GOOD[kind], key: value}
    with pytest.raises(EventError, match=message):
        Event.from_json(data)


@pytest.mark.parametrize("frame", [None, {"a": 1}, 12, ["f1.png"]])
def test_a_frame_that_is_not_text_is_refused(frame: object) -> None:
    """It used to be turned into text: "None", "{'a': 1}"."""
    with pytest.raises(EventError, match="roll event: frame must be text"):
        Event.from_json({"type": "roll", "frame": frame, **GOOD["roll"]})


def test_a_journal_line_without_a_frame_has_an_empty_one() -> None:
    assert Event.from_json({"type": "undo", "player": "white"}).frame == ""


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_selfplayed_event_of_every_variant_reads_back(name: str) -> None:
    events = list(events_from_selfplay(self_play(random.Random(2), 1, variant=VARIANTS[name])))
    assert [Event.from_json(json.loads(json.dumps(e.to_json()))) for e in events] == events
