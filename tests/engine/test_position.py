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
        ("W 1:16 | B 24:15", "white has 16"),
        ("W 1:2 | B 1:2", "both colours"),
        ("W 25:1 | B 1:1", "outside"),
        ("W 1:x | B 2:1", "bad token"),
        ("X 1:1 | B 2:1", "start with W or B"),
        ("W 1:15 off:3 | B 24:15", "off:3 does not make 15"),
        ("W 1:15 | W 2:15", "given twice"),
    ],
)
def test_bad_position_text_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.from_text(text)


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
