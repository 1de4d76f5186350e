"""Calibration: the outline found alone, the numbering in every rotation and mirror, and refusals."""

from __future__ import annotations

import base64
import dataclasses
import json
import math
import random
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from engine.position import Position
from tests.vision.conftest import Setup, a_mount, with_glint, with_hand
from vision import synthetic
from vision.calibration import Calibration, CalibrationError, calibrate, check_outline
from vision.outline import OutlineError, find_corners
from vision.view import GEOMETRY, view_size


@pytest.mark.parametrize("mirror", [False, True], ids=["home-right", "home-left"])
@pytest.mark.parametrize("quarter", range(4), ids=["0deg", "90deg", "180deg", "270deg"])
def test_numbering_in_every_rotation_and_mirror_layout(quarter: int, mirror: bool) -> None:
    """The corners come back in the numbering frame: point 13 at TL, point 1 at BR, whatever the turn."""
    rng = random.Random(100 + quarter * 2 + mirror)
    style = dataclasses.replace(synthetic.Style.random(rng, hand=False),
                                rotation=90.0 * quarter + rng.uniform(-8, 8), mirror=mirror,
                                tilt=rng.uniform(0, 20))
    frame, truth = synthetic.render(Position.start(), rng, style=style)
    calibration = calibrate(frame, find_corners(frame))
    error = np.abs(calibration.corners - truth.corners).max()
    assert error < 12, f"corners off by {error:.1f} px"


def test_given_corners_in_any_order_find_the_same_numbering() -> None:
    rng = random.Random(7)
    frame, truth = synthetic.render(Position.start(), rng, style=synthetic.Style.random(rng, hand=False))
    shuffled = truth.corners[[2, 3, 0, 1]][::-1]  # half a turn, then mirrored: still round the board
    calibration = calibrate(frame, shuffled)
    # The same corners in the numbering's order, fitted to the triangles (within a pixel or so).
    assert np.abs(calibration.corners - truth.corners).max() < 1.5


def test_a_calibration_in_memory_is_the_one_loaded_from_its_file(setup_factory: Callable[..., Setup]) -> None:
    """The file keeps the corners to 0.01 px, and a calibration keeps them so in memory too: the
    service reads a board it has just calibrated as it does after a restart."""
    calibration = setup_factory(11).calibration
    again = Calibration.from_json(calibration.to_json())
    assert np.array_equal(again.corners, calibration.corners)
    assert np.array_equal(again.templates.looks, calibration.templates.looks)


def test_a_calibration_survives_its_json(setup_factory: Callable[..., Setup]) -> None:
    calibration = setup_factory(11).calibration
    again = Calibration.from_json(calibration.to_json())
    assert np.allclose(again.corners, calibration.corners, atol=0.01)
    assert again.frame_size == calibration.frame_size
    assert np.allclose(again.templates.looks, calibration.templates.looks)
    assert again.fittings == calibration.fittings
    assert again.checker == calibration.checker
    # A file written before fittings were kept has none, and one written before checkers were
    # measured was read at the canonical board's places.
    data = json.loads(calibration.to_json())
    del data["fittings"], data["checker"]
    old = Calibration.from_json(json.dumps(data))
    assert old.fittings == () and old.checker == GEOMETRY.checker


@pytest.mark.parametrize("text, reason", [
    ("not json", "not JSON"),
    ('{"version": 1}', "version 1, this pipgammon reads version 2: calibrate again"),
    ('{"corners": [[0, 0]]}', 'not a pipgammon calibration \\(no "version" key\\)'),
    ("[1, 2]", "not a pipgammon calibration"),
    ('{"version": 2, "corners": [[0, 0]], "frame_size": [10, 10], "view_png": ""}', "corners"),
    ('{"version": 2, "corners": [[0,0],[1,0],[1,1],[0,1]], "frame_size": [10, 10], "view_png": "aGVsbG8="}',
     "view_png"),
    ('{"version": 2, "corners": [[0,0],[1,0],[1,1],[0,1]], "frame_size": [10, 10], "view_png": "",'
     ' "fittings": [[1, 2, 3]]}', "malformed"),
    ('{"version": 2, "corners": [[0,0],[1,0],[1,1],[0,1]], "frame_size": [10, 10], "view_png": "",'
     ' "checker": 20}', "'checker' must be a checker's diameter from 55.2 to 110.4 canonical px, not 20.0"),
    ('{"version": 2, "corners": [[0,0],[1,0],[1,1],[0,1]], "frame_size": [10, 10], "view_png": "",'
     ' "checker": "big"}', "malformed"),
])
def test_a_bad_calibration_file_says_what_is_wrong(text: str, reason: str) -> None:
    with pytest.raises(CalibrationError, match=reason):
        Calibration.from_json(text)


def test_a_mid_game_frame_is_not_a_calibration() -> None:
    rng = random.Random(21)
    position = Position.from_text("W 1:2 12:4 17:3 19:4 20:2 | B 24:2 13:4 8:3 6:4 5:2")
    frame, truth = synthetic.render(position, rng, style=synthetic.Style.random(rng, hand=False))
    with pytest.raises((CalibrationError, OutlineError)):
        calibrate(frame, truth.corners)


def test_corners_round_the_wrong_area_say_the_start_shows_no_two_colours() -> None:
    """Corners that frame only the board's left half put the start's places on bare triangles
    and half-seen rows: the refusal says the places show no two checker colours, and how far off."""
    rng = random.Random(23)
    frame, truth = synthetic.render(Position.start(), rng, style=synthetic.Style.random(rng, hand=False))
    tl, tr, br, bl = truth.corners
    half = np.array([tl, (tl + tr) / 2, (bl + br) / 2, bl])
    with pytest.raises(CalibrationError, match=r"do not show two checker colours \(within a colour they "
                                               r"differ \d+\.\d\d times as much"):
        calibrate(frame, half)


def test_a_missing_checker_is_named() -> None:
    rng = random.Random(22)
    short = Position.from_text("W 1:2 12:5 17:3 19:4 off:1 | B 24:2 13:5 8:3 6:5")
    frame, truth = synthetic.render(short, rng, style=synthetic.Style.random(rng, hand=False))
    with pytest.raises(CalibrationError, match="point 19 slot 5 shows nothing") as refused:
        calibrate(frame, truth.corners)
    assert "lamp" not in str(refused.value)


def test_start_checkers_washed_out_by_a_lamp_are_refused_with_the_lamp_named() -> None:
    """Two white checkers of the 12-point washed to pure white read as nothing, as checkers
    missing would; the refusal says they show pure white and sends the user to the lamp (unseen
    seed 7,000,264's start frame had only named the places)."""
    rng = random.Random(22)
    frame, truth = synthetic.render(Position.start(), rng, style=synthetic.Style.random(rng, hand=False))
    for slot in (1, 2):
        frame = with_glint(frame, truth.corners, 12, slot, 400.0)
    with pytest.raises(CalibrationError) as refused:
        calibrate(frame, truth.corners)
    assert str(refused.value) == (
        "not the starting position, or a lamp too bright: point 12 slot 1 shows nothing, the start has "
        "a white checker (it shows pure white); point 12 slot 2 shows nothing, the start has a white "
        "checker (it shows pure white): if the checkers are right, dim or move the lamp, or shorten the "
        "camera's exposure, and calibrate again")


def test_a_row_end_washed_out_by_a_glint_is_forgiven_while_its_disc_shows() -> None:
    """A lamp's glint over the 6-point's fifth checker made the self-check read that place as
    nothing (unseen seed 6,700,172), as it reads a checker really missing.  The circle finder
    still sees all five discs there, so the frame calibrates; with the checker gone (above) it
    sees four, and the frame is refused."""
    from vision.slot_model import SlotModel
    from vision.templates import EMPTY
    from vision.view import place_index

    class Glinted:
        """The shipped model, but the 6-point's fifth place read plainly bare."""

        def probabilities(self, inputs: np.ndarray) -> np.ndarray:
            out = SlotModel.load().probabilities(inputs)
            out[place_index(6, 4)] = np.eye(out.shape[1])[EMPTY]
            return out

    rng = random.Random(22)
    frame, truth = synthetic.render(Position.start(), rng, style=synthetic.Style.random(rng, hand=False))
    assert calibrate(frame, truth.corners, model=Glinted()).frame_size == (1280, 960)  # type: ignore[arg-type]
    short = Position.from_text("W 1:2 12:5 17:3 19:5 | B 24:2 13:5 8:3 6:4 off:1")
    rng = random.Random(22)
    frame, truth = synthetic.render(short, rng, style=synthetic.Style.random(rng, hand=False))
    with pytest.raises(CalibrationError, match="point 6 slot 5 shows nothing"):
        calibrate(frame, truth.corners)


@pytest.mark.parametrize("seed", [0, 5, 10])
def test_a_start_frame_with_a_hand_over_the_board_is_refused(seed: int) -> None:
    """A hand over bare places would be learnt as their empty look: the hand networks
    (vision/hands.py) refuse the frame before anything is learnt."""
    _, style, mount = a_mount(41)
    frame, truth = with_hand(Position.start(), style, mount, seed)
    assert truth.occluded
    with pytest.raises(CalibrationError, match=r"a hand over the board \(sure to 0\.\d\d\): take the"):
        calibrate(frame, truth.corners)
    clear, truth = synthetic.render(Position.start(), random.Random(seed), style=style, mount=mount)
    assert calibrate(clear, truth.corners).frame_size == (1280, 960)


def test_a_frame_with_no_board_is_refused() -> None:
    rng = random.Random(23)
    table = synthetic._wood(rng, (960, 1280), (90, 120, 150))
    with pytest.raises(OutlineError, match="no board"):
        find_corners(table)


@pytest.mark.parametrize("seed", [22, 36])
@pytest.mark.parametrize("stray", [14, 15, 20, 21])
def test_a_checker_on_a_bare_place_is_named(seed: int, stray: int) -> None:
    """A checker where the start has none is named, on every triangle of the top row."""
    moved = Position.from_text(f"W 1:2 12:5 17:3 19:5 | B 24:2 13:4 8:3 6:5 {stray}:1")
    rng = random.Random(seed)
    frame, truth = synthetic.render(moved, rng, style=synthetic.Style.random(rng, hand=False))
    with pytest.raises(CalibrationError, match=f"point {stray} slot 1 shows a black checker"):
        calibrate(frame, truth.corners)


def _file(**changes: object) -> str:
    """A calibration file of a 2028x1520 frame whose fields are good but for ``changes``; its view
    is blank, which is refused only after every field is checked."""
    view = np.zeros((*view_size()[::-1], 3), np.uint8)
    data = {"version": 2, "corners": [[1707.9, 1397.7], [1507.0, 218.3], [586.5, 452.9], [757.5, 1460.2]],
            "frame_size": [2028, 1520], "view_png": base64.b64encode(cv2.imencode(".png", view)[1]).decode(),
            "fittings": [], "checker": 92.0}
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("text, reason", [
    (_file(frame_size=[math.inf, 1520]), r"'frame_size' malformed: want \[width, height\] in whole pixels, "
                                         r"each from 240 to 65536, not \[Infinity, 1520\]"),
    (_file(frame_size=[True, True]), r"'frame_size' malformed: .* not \[true, true\]"),
    (_file(frame_size=[1e30, 1520]), r"'frame_size' malformed: .* not \[1e\+30, 1520\]"),
    (_file(frame_size=[2028.9, 1520.2]), r"'frame_size' malformed: .* not \[2028.9, 1520.2\]"),
    (_file(frame_size=[-5, 0]), r"'frame_size' \[-5, 0\]: want \[width, height\] in whole pixels"),
    (_file(frame_size=[10**30, 1520]), r"'frame_size' \[1000000000000000000000000000000, 1520\]: want"),
    (_file(checker="92"), r"'checker' malformed: want a number \(a checker's diameter, canonical px\), "
                          r"not \"92\""),
    (_file(checker=True), r"'checker' malformed: .* not true"),
    (_file(corners=[["1707.9", "1397.7"], ["1507", "218"], ["586", "452"], ["757", "1460"]]),
     r"'corners' malformed: want four \[x, y\] pairs of finite numbers"),
    (_file(corners=[[10**400, 0], [1, 0], [1, 1], [0, 1]]), r"'corners' malformed"),
    (_file(version=2.0),
     r"'version' malformed: want a whole number \(this pipgammon reads version 2\), not 2.0"),
    (_file(version=True), r"'version' malformed: .* not true"),
    (_file(fittings=[[math.inf, 0]]), r"'fittings' malformed: want a list of \[x, y\] pairs"),
    (_file(fittings=[[1e300, 0]]), r"'fittings' malformed: .* on the board"),
    (_file(view_png=5), r"'view_png' malformed: want the calibration view, a 690x550 PNG in base64, not 5"),
    (_file(view_png=base64.b64encode(b"\x89PNG\r\n\x1a\n").decode()), "'view_png' is not a calibration view"),
    # The fields are all well formed, but the corners cannot be a board's in this frame.
    (_file(corners=[[0, 0]] * 4), r"'corners' .* do not go round a convex area in order \(TL, TR, BR, BL\)"),
    (_file(corners=[[1707.9, 1397.7], [586.5, 452.9], [1507.0, 218.3], [757.5, 1460.2]]), "convex"),
    (_file(corners=[[99999, 99999], [1507.0, 218.3], [586.5, 452.9], [757.5, 1460.2]]),
     r"the TL corner in 'corners' \(99999, 99999\) lies outside the 2028x1520 frame"),
    (_file(corners=[[100, 100], [110, 100], [110, 110], [100, 110]]),
     r"'corners' enclose 100 px², 0.0032 % of the 2028x1520 frame; a board covers at least 1%"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"version": ' + "1" * 5000 + "}", "not JSON"),
    (b'{"version":2,"x":"\xe9"}', r"not UTF-8 text \(byte 0xe9 at offset 18\)"),
])
def test_a_bad_field_is_named_with_what_it_should_hold(text: str | bytes, reason: str) -> None:
    with pytest.raises(CalibrationError, match=reason):
        Calibration.from_json(text)


def test_a_calibration_file_read_as_bytes_is_the_same(setup_factory: Callable[..., Setup]) -> None:
    calibration = setup_factory(11).calibration
    again = Calibration.from_json(b"\xef\xbb\xbf" + calibration.to_json().encode())  # a byte-order mark too
    assert again.frame_size == calibration.frame_size
    assert np.allclose(again.corners, calibration.corners, atol=0.01)


def test_corners_are_checked_as_a_file_would_be() -> None:
    """`calibrate` refuses what `Calibration.from_json` would, and takes a board that fills its frame."""
    check_outline(np.array([[0.0, 0], [2027, 0], [2027, 1519], [0, 1519]]), (2028, 1520))
    check_outline(np.array([[-100.0, 0], [2127, 0], [2027, 1519], [0, 1519]]), (2028, 1520))  # within 5 %
    with pytest.raises(CalibrationError, match="the TR corner"):
        check_outline(np.array([[0.0, 0], [2200, 0], [2027, 1519], [0, 1519]]), (2028, 1520))
