"""gnubg move notation, written and read back."""

from __future__ import annotations

import random

import pytest

from engine.dice import Roll
from engine.errors import IllegalPlayError, NotationError
from engine.movegen import legal_plays
from engine.notation import Paths, Segment, format_steps, parse_move
from engine.player import Player
from engine.position import Position
from engine.sampling import Kind, random_position, random_roll
from engine.step import BAR, OFF, POOL, Step


def test_writes_the_four_forms_of_the_issue() -> None:
    assert format_steps([Step(24, 18, 6), Step(13, 10, 3)]) == "24/18 13/10"
    assert format_steps([Step(BAR, 22, 3, hit=True)]) == "bar/22*"
    assert format_steps([Step(6, OFF, 6)]) == "6/off"
    assert format_steps([Step(13, 7, 6), Step(13, 7, 6)]) == "13/7(2)"


def test_a_hit_mark_goes_on_the_first_path_through_the_point() -> None:
    """As gnubg lists it: '5/1* 4/1' and '17/14*/11(2)' (checked in the gnubg cross-check)."""
    assert format_steps([Step(5, 1, 4, True), Step(4, 1, 3)]) == "5/1* 4/1"
    steps = [Step(17, 14, 3, True), Step(14, 11, 3), Step(17, 14, 3), Step(14, 11, 3)]
    assert format_steps(steps) == "17/14*/11(2)"


def test_steps_kept_apart_are_one_path_each_and_still_counted() -> None:
    """Puff while entering: no checker uses two numbers, so nothing is joined."""
    steps = [Step(POOL, 21, 4), Step(21, 17, 4), Step(POOL, 21, 4), Step(21, 17, 4, hit=True)]
    assert format_steps(steps) == "in/17*(2)"
    assert format_steps(steps, Paths.APART) == "in/21(2) 21/17*(2)"
    assert format_steps([Step(23, 21, 2), Step(21, 17, 4)], Paths.APART) == "23/21 21/17"


def test_a_path_with_a_backward_step_starts_where_its_checker_stood() -> None:
    """Rückwärts: 8/11 (back 3) then 11/10 is one checker, "8/10"; it was written "11/10 8/11",
    naming a checker on the 11-point that was not there.  Paths that share a start and an end
    but not the points they hit are not counted together."""
    assert format_steps([Step(8, 11, 3), Step(11, 10, 1)]) == "8/10"
    assert format_steps([Step(13, 15, 2), Step(15, 14, 1)]) == "13/14"
    steps = [Step(14, 13, 1), Step(14, 13, 1), Step(13, 12, 1, hit=True), Step(12, 13, 1)]
    assert format_steps(steps) == "14/12*/13 14/13"
    assert format_steps([Step(24, 23, 1), Step(24, 23, 1), Step(23, 24, 1), Step(23, 24, 1)]) == "24/24(2)"


def test_a_path_back_to_its_start_reads_only_where_moving_back_is_allowed() -> None:
    assert parse_move("24/24(2)", backwards=True) == [Segment(24, 24)] * 2
    with pytest.raises(NotationError, match="forward"):
        parse_move("24/24")


@pytest.mark.parametrize(
    "text", ["24/18 13/10", "bar/22*", "6/off", "13/7(2)", "24/21*/18", "25/22 8/4", "", "8/5, 6/5"]
)
def test_reads_what_gnubg_writes(text: str) -> None:
    parse_move(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("24-18", "not a move"),
        ("18/24", "forward"),
        ("off/3", "bar and in can only start"),
        ("13/7(5)", "repeated"),
        ("13*/7", "cannot hit on the point it leaves"),
        ("30/24", "outside 0..25"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_move(text)


def test_every_written_play_reads_back_to_the_same_play() -> None:
    rng = random.Random(3)
    for kind in Kind:
        for _ in range(150):
            player = Player(rng.randint(0, 1))
            position = random_position(rng, kind, player)
            view = legal_plays(position, player, random_roll(rng, doubles=0.3))
            for play in view:
                assert view.parse(play.notation) == play


def test_reading_a_play_that_is_not_legal_lists_the_legal_ones() -> None:
    view = legal_plays(Position.start(), Player.WHITE, Roll(3, 1))
    with pytest.raises(IllegalPlayError, match=r"legal: .*8/5 6/5"):
        view.parse("24/20 13/12")
    with pytest.raises(IllegalPlayError, match="no white checker to move from 20"):
        view.parse("20/17 6/5")
    with pytest.raises(IllegalPlayError, match="no blot to hit on 21"):
        view.parse("24/21* 24/23")
