"""gnubg Position ID and Match ID: known values from gnubg, round trips and bad input."""

from __future__ import annotations

import random

import pytest

from engine.errors import NotationError
from engine.gnubg_id import GameStage, MatchKey, position_from_id, position_id
from engine.player import Player
from engine.position import Position
from engine.sampling import Kind, random_position

W, B = Player.WHITE, Player.BLACK


def test_start_position_id() -> None:
    assert position_id(Position.start(), W) == position_id(Position.start(), B) == "4HPwATDgc/ABMA"


def test_known_ids_from_gnubg() -> None:
    """Values gnubg printed: the player on roll has 15 on its 23-point (gnubg's second half)."""
    position = position_from_id("/z8AAEAAAMD/Hw", W)
    assert position.count(W, 2) == 15  # White's own 23-point is rulebook point 2
    assert position.count(B, 1) == 14 and position.bar == (0, 1)


def test_round_trip_from_either_side() -> None:
    rng = random.Random(11)
    for kind in Kind:
        for _ in range(200):
            position = random_position(rng, kind)
            for player in (W, B):
                assert position_from_id(position_id(position, player), player) == position


def test_the_id_is_relative_to_the_player_on_roll() -> None:
    position = Position.from_text("W 19:15 | B 1:2 6:13")
    assert position_from_id(position_id(position, W), B) == position.swap_colours()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4HPwATDgc/ABM", "14 base64"),
        ("4HPwATDgc/ABM!", "14 base64"),
        ("/////////////w", "checkers|slots|stray"),
        ("", "14 base64"),
        # The start with padding bits set: base64 decoding alone drops them.
        ("4HPwATDgc/ABMB", "padding bits"),
        ("4HPwATDgc/ABMP", "padding bits"),
        ("4HPwATDgc/ABMI", "padding bits"),
        # No checker of either side: refused as its text 'W | B' is.
        ("AAAAAAAAAAAAAA", "AAAAAAAAAAAAAA' has no checker on the board or bar: both sides have borne off"),
    ],
)
def test_bad_position_ids(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        position_from_id(text)


def test_match_key_round_trips_and_known_gnubg_ids() -> None:
    # Printed by gnubg: a fresh money session (Jacoby on) and a 7-point match at 3-5.
    money = MatchKey.decode("cAkLAAAAAAAA")
    assert money.jacoby and money.length == 0 and money.cube_owner is None
    assert money.dice == (6, 2)  # gnubg had rolled 6-2 for the opening
    match = MatchKey.decode("QYnlADAAKAAE")
    assert (match.length, match.score, match.cube_value, match.cube_owner) == (7, (3, 5), 2, W)
    assert match.dice == (3, 1) and match.stage is GameStage.PLAYING and not match.jacoby
    for text in ("cAkLAAAAAAAA", "QYnlADAAKAAE", "sAGgAEAAEAAE", "EgF7AQAAAAAE"):
        assert MatchKey.decode(text).encode() == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("cAkLAAAAAAA", "Match ID"),
        ("cAkLAAAAAAA?", "Match ID"),
        ("cAkLAAAAAAAAAA", "Match ID"),
        # gnubg's "cAkLAAAAAAAA" with one of the five bits past the 67 fields set.
        ("cAkLAAAAAAAI", "beyond its 67 defined"),
        ("cAkLAAAAAABA", "beyond its 67 defined"),
        # The cube field at 2^7 and 2^15.
        ("dwkLAAAAAAAA", "cube value 128"),
        ("fwkLAAAAAAAA", "cube value 32768"),
    ],
)
def test_bad_match_ids(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        MatchKey.decode(text)


def test_a_cube_of_64_is_the_highest_a_match_id_holds() -> None:
    assert MatchKey.decode("dgkLAAAAAAAA").cube_value == 64


def test_impossible_match_ids_are_refused() -> None:
    with pytest.raises(NotationError, match="dice"):
        MatchKey.decode(MatchKey(dice=(7, 1)).encode())
    with pytest.raises(NotationError, match="power of two"):
        MatchKey(cube_value=3).encode()


@pytest.mark.parametrize("text", ["W 19:1 | B", "W | B 6:1 bar:1"])
@pytest.mark.parametrize("on_roll", [W, B])
def test_an_id_with_one_side_borne_off_reads_as_its_text_does(text: str, on_roll: Player) -> None:
    """Only both sides off is refused; one side off is a finished game, in the text and in an ID."""
    position = Position.from_text(text)
    assert position_from_id(position_id(position, on_roll), on_roll) == position
