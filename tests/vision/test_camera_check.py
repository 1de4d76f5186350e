"""camera-check: pixels per die, focus, glare and nothing over the board on a calibrated mount."""

from __future__ import annotations

import random
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from engine.position import Position
from vision import synthetic
from vision.camera_check import check_camera, die_pixels
from vision.geometry import BoardGeometry

from .conftest import Setup, a_mount, with_hand


def by_name(frame: np.ndarray, setup: Setup) -> dict[str, bool]:
    return {c.name: c.passed for c in check_camera(frame, setup.calibration)}


def test_die_pixels_follow_the_far_edge(setup_factory: Callable[..., Setup]) -> None:
    setup = setup_factory(31)
    tl, tr, br, bl = setup.calibration.corners
    g = BoardGeometry()
    shortest = min(np.linalg.norm(tr - tl) / g.width, np.linalg.norm(br - bl) / g.width,
                   np.linalg.norm(bl - tl) / g.height, np.linalg.norm(br - tr) / g.height)
    assert die_pixels(setup.calibration) == pytest.approx(shortest * g.checker * 0.45)
    # A board seen whole at 1280 x 960 leaves a die well under 40 px: the check says so.
    assert 10 < die_pixels(setup.calibration) < 40
    assert by_name(setup.start, setup)["pixels per die"] is False


def test_blur_fails_focus_and_sharp_passes(setup_factory: Callable[..., Setup]) -> None:
    setup = setup_factory(33, blur=0.0)
    assert by_name(setup.start, setup)["focus"] is True
    blurred, _ = setup.frame(Position.start(), blur=3.0)
    assert by_name(blurred, setup)["focus"] is False


def test_a_burnt_out_patch_fails_glare(setup_factory: Callable[..., Setup]) -> None:
    setup = setup_factory(35, glare=0, brightness=0.8, gradient=0.0)
    frame = setup.start.copy()
    assert by_name(frame, setup)["glare"] is True
    centre = setup.calibration.corners.mean(axis=0)
    cv2.circle(frame, (int(centre[0]), int(centre[1])), 90, (255, 255, 255), -1)
    checks = {c.name: c for c in check_camera(frame, setup.calibration)}
    assert checks["glare"].passed is False
    assert "lamp" in checks["glare"].advice


def test_a_hand_in_the_picture_fails_and_says_where() -> None:
    _, style, mount = a_mount(41)
    start, truth = synthetic.render(Position.start(), random.Random(1), style=style, mount=mount)
    from vision.calibration import calibrate

    calibration = calibrate(start, truth.corners)
    frame, _ = with_hand(Position.start(), style, mount, 0)
    check = {c.name: c for c in check_camera(frame, calibration)}["hands over the board"]
    assert check.passed is False and check.value == 1
    assert check.advice.startswith("a hand over the board near ")
    assert {c.name: c.passed for c in check_camera(start, calibration)}["hands over the board"] is True


def test_advice_is_ok_only_when_passed(setup_factory: Callable[..., Setup]) -> None:
    setup = setup_factory(31)
    for check in check_camera(setup.start, setup.calibration):
        assert (check.advice == "ok") == check.passed
        assert set(check.to_json()) == {"name", "value", "target", "ok", "advice"}
