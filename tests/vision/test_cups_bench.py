"""`bench/cups.py` stands a dice cup on a bare point of a rendered frame: it must draw the cup
where it says, on a point with no checker, and nowhere else."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from engine.position import Position
from tests.vision.conftest import script
from vision import synthetic
from vision.geometry import BoardGeometry
from vision.view import in_frame


def bench_cups() -> Any:
    return script("bench/cups.py")


def test_the_cup_stands_on_its_point_and_nowhere_else() -> None:
    cups = bench_cups()
    rng = random.Random(5)
    frame, truth = synthetic.render(Position.start(), rng, size=(1280, 960))
    before = frame.copy()
    cups.stand_cup(frame, truth.corners, 3, rng)
    changed = np.abs(frame.astype(int) - before.astype(int)).max(axis=2) > 12
    geometry = BoardGeometry()
    (x, y), = in_frame(truth.corners, [geometry.slot_centre(3, 1)])
    assert changed[int(y), int(x)], "the cup covers its point's second slot"
    (fx, fy), = in_frame(truth.corners, [geometry.slot_centre(22, 1)])
    assert not changed[int(fy) - 20:int(fy) + 20, int(fx) - 20:int(fx) + 20].any(), "far points untouched"
    ys, xs = np.nonzero(changed)
    ends = in_frame(truth.corners, [geometry.slot_centre(3, 0), geometry.slot_centre(3, 1)])
    checker = float(np.linalg.norm(ends[1] - ends[0]))  # a checker's pitch in the frame there
    assert np.hypot(xs - x, ys - y).max() < 2.5 * checker, "a cup and its shadow, no larger"


def test_the_cup_goes_on_a_bare_point_with_bare_neighbours_when_there_is_one() -> None:
    cups = bench_cups()
    start = Position.start()
    for seed in range(20):
        point = cups.bare_point(start, random.Random(seed))
        assert start.at(point) == 0
        side = [q for q in (point - 1, point + 1) if 1 <= q <= 24 and (q - 1) // 6 == (point - 1) // 6]
        assert all(start.at(q) == 0 for q in side)
