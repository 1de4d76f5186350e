"""Set-ups shared by the vision tests: a board, a mount and its calibration (seeds below 1,000)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from engine.position import Position
from vision import synthetic
from vision.calibration import Calibration, calibrate
from vision.outline import find_corners
from vision.view import CENTRES, place_index, warp_matrix


@dataclasses.dataclass
class Setup:
    rng: random.Random
    style: synthetic.Style
    mount: np.ndarray
    start: np.ndarray
    calibration: Calibration

    def frame(self, position: Position, **changes: object) -> tuple[np.ndarray, synthetic.Truth]:
        style = dataclasses.replace(self.style, **changes) if changes else self.style
        return synthetic.render(position, self.rng, style=style, mount=self.mount)


def a_mount(seed: int, **style_changes: object) -> tuple[random.Random, synthetic.Style, np.ndarray]:
    """A board's generator, style (no hand) and camera mount from ``seed``."""
    rng = random.Random(seed)
    style = dataclasses.replace(synthetic.Style.random(rng, hand=False), **style_changes)
    return rng, style, synthetic.camera(style, rng)


def with_hand(position: Position, style: synthetic.Style, mount: np.ndarray,
              seed: int) -> tuple[np.ndarray, synthetic.Truth]:
    """``position`` on ``mount`` with the renderer's hand over the board, the frame drawn from ``seed``."""
    hand = dataclasses.replace(style, hand=True)
    return synthetic.render(position, random.Random(seed), style=hand, mount=mount)


def make_setup(seed: int, **style_changes: object) -> Setup:
    rng, style, mount = a_mount(seed, **style_changes)
    start, _ = synthetic.render(Position.start(), rng, style=style, mount=mount)
    return Setup(rng, style, mount, start, calibrate(start, find_corners(start)))


@pytest.fixture(scope="session")
def setup_factory() -> Callable[..., Setup]:
    cache: dict[tuple[int, tuple[tuple[str, object], ...]], Setup] = {}

    def get(seed: int, **changes: object) -> Setup:
        key = (seed, tuple(sorted(changes.items())))
        if key not in cache:
            cache[key] = make_setup(seed, **changes)
        return cache[key]

    return get


def with_glint(frame: np.ndarray, corners: np.ndarray, point: int, slot: int, strength: float) -> np.ndarray:
    """``frame`` with a lamp's soft glint (light added to every colour) over a place."""
    x, y = CENTRES[place_index(point, slot)]
    to_frame = np.linalg.inv(warp_matrix(corners))
    centre = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), to_frame)[0, 0]
    spot = np.zeros(frame.shape[:2], np.float32)
    cv2.ellipse(spot, (round(centre[0]), round(centre[1])), (30, 18), 30, 0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), 12)
    return np.clip(frame + spot[:, :, None] * strength, 0, 255).astype(np.uint8)
