"""The board value type and its text forms."""

from __future__ import annotations

import random

import pytest

from engine.errors import PositionError
from engine.player import Player
from engine.position import Position
from engine.sampling import Kind, random_position

W, B = Player.WHITE, Player.BLACK


def test_start_position_matches_the_rulebook() -> None:
    """seed 002: "2 pions sur le POINT 1 / 5 pions sur le POINT 12 / 3 pions sur le POINT 17 /
    5 pions sur le POINT 19"; Black mirrors it (ARCHITECTURE.md)."""
    start = Position.start()
    assert {p: start.at(p) for p in range(1, 25) if start.at(p)} == {
        1: 2, 12: 5, 17: 3, 19: 5, 24: -2, 13: -5, 8: -3, 6: -5,
    }
    assert start.pip_count(W) == start.pip_count(B) == 167
    assert start.bar == start.off == (0, 0)


def test_positions_are_immutable_values() -> None:
    start = Position.start()
    with pytest.raises(AttributeError):
        start.points = ()  # type: ignore[misc]
    assert start == Position.from_text(start.to_text()) and hash(start) == hash(Position.start())


def test_text_form_round_trips() -> None:
    rng = random.Random(2)
    for kind in Kind:
        for _ in range(100):
            position = random_position(rng, kind)
            assert Position.from_text(position.to_text()) == position


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("W 1:2", "W ... | B"),
        # One side alone: the side that is missing is named.
        ("W 1:2", r"position text 'W 1:2' has no '\| B \.\.\.' part"),
        ("Black 24:2", r"has no '\| W \.\.\.' part"),
        ("1:2", r"has no '\|' between the sides"),
        ("W 1:2 | B 24:2 | W 3:1", "with one '|'"),
        ("W 1:16 | B 24:15", "white has 16"),
        ("W 1:2 | B 1:2", "both colours"),
        ("W 25:1 | B 1:1", "outside"),
        ("W 1:x | B 2:1", "bad token"),
        ("X 1:1 | B 2:1", "start with W or B"),
        ("W 1:15 off:3 | B 24:15", "off:3 does not make 15"),
        ("W 1:15 | W 2:15", "given twice"),
        # A repeat was added for a point but replaced the first for the bar: refuse both.
        ("W 1:2 1:3 | B 24:2", r"white names point 1 twice \('1:2' and '1:3'\)"),
        ("W 1:2 01:3 | B 24:2", r"white names point 1 twice \('1:2' and '01:3'\)"),
        ("W bar:2 bar:3 | B 24:2", r"white names bar twice \('bar:2' and 'bar:3'\)"),
        ("W 1:2 | B 24:2 pool:1 pool:1", "black names pool twice"),
        ("W 1:2 off:13 off:13 | B 24:2", "white names off twice"),
        ("W 4:1 | B 24:14 pin:4 pin:4", "black names pin:4 twice"),
        ("W 1:2 tower:1 tower:1 phase:1 | B 24:2", "white names tower:1 twice"),
        ("W 1:2 phase:1 phase:2 | B 24:2", "white names phase twice"),
        # No game reaches both sides borne off.
        ("W | B", "both sides have borne off"),
        ("W off:15 | B off:15", "both sides have borne off"),
        # int() and \d take any script's digits; the text is ASCII.
        ("W \uff11:2 | B 24:2", "bad token '\uff11:2'"),
        ("W 1:\u0662 | B 24:2", "bad token '1:\u0662'"),
        # Only ASCII whitespace separates tokens, so an odd space shows in the token named.
        ("W 1:2 | B 24:2\u00a0", r"bad token '24:2\\xa0'"),
        ("W\u30001:2 | B 24:2", r"start with W or B: 'W\\u30001:2'"),
        ("W 1:0 | B 24:2", "'1:0' puts no checker on point 1"),
        ("W 1:-2 | B 24:2", "bad token '1:-2'"),
        ("W 1:16 | B 24:2", "white has 16 checkers .* by '1:16', at most 15"),
        ("W 1:10 2:6 | B 24:2", "white has 16 checkers .* by '2:6'"),
        ("W 1:14 bar:2 | B 24:2", "white has 16 checkers .* by 'bar:2'"),
        ("W 1:2 | B 24:14 pool:2", "black has 16 checkers .* by 'pool:2'"),
        ("W 1:2 | B 1:1", "point 1 has both colours: '1:1'"),
        ("W 26:1 | B 1:1", "outside 1..24: '26:1'"),
        # A pin is listed with the pinned checker's side, under one of the other colour.
        ("W 5:1 pin:5 | B 24:2", "pin:5 needs one black checker on top of white's"),
        ("W 5:2 | B 24:2 pin:5", "pin:5 needs one white checker on top of black's"),
        # A tower is listed with the side whose checkers stand in it.
        ("W 5:1 | B 24:2 tower:5", "tower:5 needs black checkers on point 5"),
        ("W 1:2 | B 24:2 tower:30", "tower:30 needs black checkers"),
    ],
)
def test_bad_position_text_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.from_text(text)


@pytest.mark.parametrize(
    ("text", "checkers"),
    [
        ("W pool:15 | B pool:15", 15),  # Acey Deucey's start: nothing on the board yet
        ("W 10:1 20:1 bar:4 | B 5:1 1:1 bar:4", 6),  # Catch me: captured checkers out of the game
        ("W 1:14 pin:4 | B 4:1 24:14", 15),  # Pin: White's checker under Black's
        ("W 19:2 20:2 tower:19 phase:1 | B 1:2 2:2", 4),  # Doublets' towers and phase
        ("W off:15 | B 6:15", 15),  # one side done: the game is over
        ("W\t1:2\n12:5  | B 24:2", 15),  # any ASCII whitespace between tokens
    ],
)
def test_position_text_of_variants_and_ends_still_reads(text: str, checkers: int) -> None:
    Position.from_text(text, checkers=checkers)


def test_shape_errors() -> None:
    with pytest.raises(PositionError, match="24 points"):
        Position((0,) * 23)
    with pytest.raises(PositionError, match="non-negative"):
        Position((0,) * 24, (-1, 0))


def test_winner_and_swap() -> None:
    over = Position.from_text("W off:15 | B 6:15")
    assert over.is_over() and over.winner() is W
    swapped = Position.start().swap_colours()
    assert swapped == Position.start()
    assert Position.from_text("W 19:15 | B 6:15").swap_colours().to_text() == "W 19:15 | B 6:15"


def test_diagram_shows_every_point() -> None:
    lines = Position.start().diagram().splitlines()
    assert lines[0].split()[:6] == ["13", "14", "15", "16", "17", "18"]
    assert "5W" in lines[2] and "2W" in lines[2] and "bar W:0 B:0" in lines[4]
