"""The slot model and its training: mirrored lattices (``--mirror``), rings that read the same
mirrored, and a model that reads mirrored places alike."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from engine.position import Position
from tests.vision.conftest import Setup
from vision.slot_model import SlotModel
from vision.templates import WHERE
from vision.view import (
    CENTRES,
    GEOMETRY,
    GRID,
    LATTICE,
    RING_ANGLES,
    RING_RADII,
    SCALE,
    canonical,
    observe,
    place_index,
    ring_profile,
    rings,
    view_size,
)

CELLS = 3 * LATTICE
#: The three looks' lattices: what mirroring moves (the rings' profiles and the depth stay).
MOVED = CELLS


def _trainer() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "tools" / "train_slot_model.py"
    spec = importlib.util.spec_from_file_location("train_slot_model", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("train_slot_model", module)
    spec.loader.exec_module(module)
    return module


def _flips(row: np.ndarray) -> list[np.ndarray]:
    lattices = row[:CELLS].reshape(3, GRID, GRID, 3)
    return [np.flip(lattices, axis=axes).reshape(-1) if axes else lattices.reshape(-1)
            for axes in ((), (1,), (2,), (1, 2))]


@pytest.mark.parametrize("axis", [0, 1])
def test_a_place_mirrored_in_the_view_has_the_same_ring_profile(axis: int) -> None:
    """Mirroring leaves the rings' profiles alone, so ``--mirror`` may: check it on the view."""
    width, height = view_size()
    view = np.random.default_rng(3).integers(0, 256, (height, width, 3), dtype=np.uint8)
    index = place_index(7, 2)
    x, y = (int(v) for v in CENTRES[index])
    # Mirror a window round the (whole-pixel) centre, so every ring sample lands on another's place.
    reach = 40
    window = view[y - reach:y + reach + 1, x - reach:x + reach + 1]
    mirrored = view.copy()
    mirrored[y - reach:y + reach + 1, x - reach:x + reach + 1] = np.flip(window, axis=axis)
    light = np.full((len(CENTRES), 3), 128.0)
    before, after = (np.concatenate([np.zeros((len(CENTRES), LATTICE), np.float32), rings(v, light)], axis=1)
                     for v in (view, mirrored))
    assert not np.array_equal(before[index], after[index]), "the mirror did not move the ring"
    assert np.allclose(ring_profile(before)[index], ring_profile(after)[index], atol=1e-5)


def test_the_ring_sees_the_rim_a_lattice_smooths_away() -> None:
    """A dark rim two view pixels wide at the checker's edge (as a real rim is at this scale), on
    an otherwise white board, is deep in the ring at the rim's radius and shallow in the lattice."""
    width, height = view_size()
    view = np.full((height, width, 3), 250, np.uint8)
    index = place_index(12, 4)
    radius = 0.94 * GEOMETRY.checker / 2 * SCALE
    cv2.circle(view, (int(CENTRES[index][0]), int(CENTRES[index][1])), round(radius), (60, 60, 60), 2)
    light = np.full((len(CENTRES), 3), 250.0)
    _, _, described = observe(view)
    ring = rings(view, light)[index].reshape(len(RING_RADII), RING_ANGLES)
    at_rim = RING_RADII.index(0.94)
    assert ring[at_rim].mean() < -0.5, ring.mean(axis=1)
    assert abs(ring[0].mean()) < 0.05 and abs(ring[-1].mean()) < 0.05
    assert described[index, :LATTICE].min() > ring[at_rim].mean() / 3


def test_mirroring_flips_every_look_of_a_place_the_same_way_and_keeps_where_it_is() -> None:
    trainer = _trainer()
    gen = np.random.default_rng(0)
    looks = gen.normal(size=(400, MOVED))
    x = np.concatenate([looks, np.tile(WHERE[:8], (50, 1))], axis=1).astype(np.float32)
    out = trainer.mirrored(x, gen)
    seen = set()
    for before, after in zip(x, out, strict=True):
        matches = [k for k, flipped in enumerate(_flips(before)) if np.array_equal(flipped, after[:MOVED])]
        assert len(matches) == 1, "a place's three looks were not flipped together"
        seen.add(matches[0])
        assert np.array_equal(before[MOVED:], after[MOVED:])
    assert seen == {0, 1, 2, 3}


def test_the_shipped_model_reads_a_mirrored_place_as_the_place_itself(setup_factory: Callable[..., Setup],
                                                                       ) -> None:
    """A checker seen mirrored is the same checker, and a model that has learnt what a checker
    does to a difference (not one board's places) reads it the same: a guard for retrained models."""
    setup = setup_factory(31)
    model = SlotModel.load()
    agree, total = 0, 0
    for scene in ("W 2:3 4:2 6:4 9:1 18:2 bar:1 off:2 | B 24:2 22:3 20:5 14:1 11:2 bar:2",
                  "W 1:5 2:5 3:5 | B 22:5 23:5 24:5"):
        frame, _ = setup.frame(Position.from_text(scene))
        inputs = setup.calibration.templates.inputs(observe(canonical(frame, setup.calibration.corners))[2])
        kinds = model.probabilities(inputs).argmax(axis=1)
        for k in range(1, 4):
            flipped = np.stack([_flips(row)[k] for row in inputs])
            mirrored = np.concatenate([flipped, inputs[:, MOVED:]], axis=1)
            agree += int((model.probabilities(mirrored).argmax(axis=1) == kinds).sum())
            total += len(kinds)
    assert agree == total, f"{total - agree} of {total} mirrored places read differently"
