"""The camera overlay on rendered frames: the grid lands on the board, counts and dice where read."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from pipgammon.web.overlay import DIE_COLOUR, GRID_COLOUR, MAX_WIDTH, overlay
from vision.geometry import BoardGeometry
from vision.observation import Observation, observe
from vision.view import GEOMETRY, board_matrix

from .conftest import Rendered

BANNER = 60  # rows at the top the banner may take
SHOTS = Path("/tmp/web-shots")


def _frame_with_dice(rendered: Rendered) -> tuple[np.ndarray, Observation]:
    for path in sorted(rendered.frames.glob("*.jpg"))[2:60]:
        frame = cv2.imread(str(path))
        seen = observe(frame, rendered.calibration)
        if seen.status == "ok" and len(seen.dice) == 2 and any(seen.reading.points):
            return frame, seen
    raise AssertionError("no frame of the rendered game shows two dice")


def _amber(image: np.ndarray) -> np.ndarray:
    return np.all(np.abs(image.astype(int) - GRID_COLOUR) <= 40, axis=2)


def _to_frame(corners: np.ndarray, x: float, y: float) -> tuple[int, int]:
    moved = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), np.linalg.inv(board_matrix(corners)))
    return round(moved[0, 0, 0]), round(moved[0, 0, 1])


def _near(mask: np.ndarray, x: int, y: int, reach: int = 2) -> bool:
    return bool(mask[y - reach:y + reach + 1, x - reach:x + reach + 1].any())


@pytest.fixture(scope="module")
def with_dice(rendered: Rendered) -> tuple[np.ndarray, Observation]:
    return _frame_with_dice(rendered)


def test_the_grid_lies_on_the_calibrated_board(rendered: Rendered, with_dice: tuple[np.ndarray, Observation],
                                                ) -> None:
    frame, seen = with_dice
    kept = frame.copy()
    picture = overlay(frame, rendered.calibration, seen, title="00021.jpg")
    assert np.array_equal(frame, kept)  # drawn on a copy
    assert picture.shape == frame.shape  # 960 wide already: not scaled
    if SHOTS.is_dir():  # for a person to look at
        cv2.imwrite(str(SHOTS / "overlay-test.png"), picture)
    amber = _amber(picture)
    corners = rendered.calibration.corners
    for x, y in GEOMETRY.corners():
        assert _near(amber, *_to_frame(corners, x, y)), (x, y)
    # Every triangle's tip, where only the grid's lines meet.
    g = BoardGeometry()
    for point in (1, 6, 7, 12, 13, 18, 19, 24):
        tip = g.triangle(point)[2]
        assert _near(amber, *_to_frame(corners, tip[0], tip[1]), reach=3), point
    # Without a calibration nothing is drawn on the board, only the banner.
    bare = overlay(frame, None, seen)
    assert _amber(bare)[BANNER:].sum() < 0.02 * amber[BANNER:].sum()


def test_counts_are_drawn_in_the_checkers_colour_at_their_points(
        rendered: Rendered, with_dice: tuple[np.ndarray, Observation]) -> None:
    frame, seen = with_dice
    picture = overlay(frame, rendered.calibration, seen)
    corners = rendered.calibration.corners
    counted = 0
    for point, count in enumerate(seen.reading.points, start=1):
        if not count:
            continue
        x, y = _to_frame(corners, *GEOMETRY.slot_centre(point, 1))
        # The disc's left side, clear of the digit in its middle.
        pixel = picture[y, x - 9].astype(int)
        if count > 0:
            assert (pixel > 200).all(), (point, pixel)
        else:
            assert (pixel < 60).all(), (point, pixel)
        counted += 1
    assert counted >= 4


def test_dice_are_boxed_where_they_were_found(rendered: Rendered, with_dice: tuple[np.ndarray, Observation],
                                              ) -> None:
    frame, seen = with_dice
    picture = overlay(frame, rendered.calibration, seen)
    green = np.all(np.abs(picture.astype(int) - DIE_COLOUR) <= 40, axis=2)
    for die in seen.dice:
        x0, y0, x1, y1 = (round(v) for v in die.box)
        middle = (y0 + y1) // 2
        assert _near(green, x0 - 2, middle) and _near(green, x1 + 2, middle), die
    no_dice = overlay(frame, rendered.calibration, dataclasses.replace(seen, dice=()))
    assert not np.all(np.abs(no_dice.astype(int) - DIE_COLOUR) <= 40, axis=2).any()


def test_a_large_frame_is_scaled_down_and_the_grid_follows(
        rendered: Rendered, with_dice: tuple[np.ndarray, Observation]) -> None:
    frame, _ = with_dice
    big = cv2.resize(frame, (1920, 1440))
    calibration = dataclasses.replace(rendered.calibration, corners=rendered.calibration.corners * 2,
                                      frame_size=(1920, 1440))
    picture = overlay(big, calibration, None)
    assert picture.shape == (720, MAX_WIDTH, 3)
    amber = _amber(picture)
    for x, y in GEOMETRY.corners():
        assert _near(amber, *_to_frame(rendered.calibration.corners, x, y)), (x, y)
    # A frame of another size than the calibration's gets no grid, and the banner says why.
    other = overlay(big, rendered.calibration, None)
    assert _amber(other)[BANNER:].sum() < 0.02 * amber[BANNER:].sum()

