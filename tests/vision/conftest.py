"""Set-ups shared by the vision tests: a board, a mount and its calibration (seeds below 1,000)."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import cv2
import numpy as np
import pytest

from engine.position import Position
from vision import synthetic
from vision.calibration import Calibration, calibrate
from vision.outline import find_corners
from vision.view import CENTRES, GEOMETRY, in_frame, place_index, warp_matrix

ROOT = Path(__file__).resolve().parents[2]


def script(path: str) -> Any:
    """The module of one of the repository's scripts (``bench/dice.py``, ``tools/...``), which are
    not in a package; registered under its file's stem, as dataclasses and pickles need."""
    name = Path(path).stem
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


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


def printed_die(frame: np.ndarray, corners: np.ndarray, x: float, y: float) -> np.ndarray:
    """``frame`` with a white 1 printed on the board at canonical (``x``, ``y``): a fitting, as a
    tournament board's bar hinge is to the dice reader."""
    half = GEOMETRY.die / 2
    corner_px = in_frame(corners, [(x - half, y - half), (x + half, y - half), (x + half, y + half),
                                   (x - half, y + half)])
    centre = in_frame(corners, [(x, y)])[0]
    printed = frame.copy()
    cv2.fillConvexPoly(printed, np.round(corner_px).astype(np.int32), (232, 232, 228), cv2.LINE_AA)
    pip = 0.1 * float(np.linalg.norm(corner_px[1] - corner_px[0]))
    cv2.circle(printed, (round(centre[0]), round(centre[1])), max(1, round(pip)), (25, 25, 25), -1,
               cv2.LINE_AA)
    return printed
