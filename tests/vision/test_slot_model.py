"""The slot model and its training: mirrored lattices (``--mirror``), and a model that reads them alike."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType

import numpy as np
import pytest

from engine.position import Position
from tests.vision.conftest import Setup, script
from vision import synthetic
from vision.slot_model import SlotModel, SlotModelError
from vision.templates import WHERE
from vision.view import GRID, canonical, observe

CELLS = 3 * GRID * GRID * 3


def _trainer() -> ModuleType:
    module: ModuleType = script("tools/train_slot_model.py")
    return module


def _flips(row: np.ndarray) -> list[np.ndarray]:
    lattices = row[:CELLS].reshape(3, GRID, GRID, 3)
    return [np.flip(lattices, axis=axes).reshape(-1) if axes else lattices.reshape(-1)
            for axes in ((), (1,), (2,), (1, 2))]


def test_mirroring_flips_every_look_of_a_place_the_same_way_and_keeps_where_it_is() -> None:
    trainer = _trainer()
    gen = np.random.default_rng(0)
    lattices = gen.normal(size=(400, CELLS))
    x = np.concatenate([lattices, np.tile(WHERE[:8], (50, 1))], axis=1).astype(np.float32)
    out = trainer.mirrored(x, gen)
    seen = set()
    for before, after in zip(x, out, strict=True):
        matches = [k for k, flipped in enumerate(_flips(before)) if np.array_equal(flipped, after[:CELLS])]
        assert len(matches) == 1, "a place's three looks were not flipped together"
        seen.add(matches[0])
        assert np.array_equal(before[CELLS:], after[CELLS:])
    assert seen == {0, 1, 2, 3}


def test_the_shipped_model_reads_a_mirrored_place_as_the_place_itself(setup_factory: Callable[..., Setup],
                                                                       ) -> None:
    """A checker seen mirrored is the same checker, and a model that has learnt what a checker
    does to a difference (not one board's places) reads it the same: a guard for retrained models."""
    setup = setup_factory(31)
    model = SlotModel.load()
    agree, total = 0, 0
    for seed, scene in enumerate(("W 2:3 4:2 6:4 9:1 18:2 bar:1 off:2 | B 24:2 22:3 20:5 14:1 11:2 bar:2",
                                  "W 1:5 2:5 3:5 | B 22:5 23:5 24:5")):
        # A generator of its own: the mount's is drawn from by whichever tests ran before.
        frame, _ = synthetic.render(Position.from_text(scene), random.Random(seed), style=setup.style,
                                    mount=setup.mount)
        inputs = setup.calibration.templates.inputs(observe(canonical(frame, setup.calibration.corners))[2])
        kinds = model.probabilities(inputs).argmax(axis=1)
        for k in range(1, 4):
            flipped = np.stack([_flips(row)[k] for row in inputs])
            mirrored = np.concatenate([flipped, inputs[:, CELLS:]], axis=1)
            agree += int((model.probabilities(mirrored).argmax(axis=1) == kinds).sum())
            total += len(kinds)
    assert agree == total, f"{total - agree} of {total} mirrored places read differently"


def test_inputs_of_another_width_are_refused_with_the_widths() -> None:
    """A model trained on other descriptors would read nonsense rather than fail."""
    model = SlotModel.load()
    width = model.mean.shape[0]
    assert model.probabilities(np.zeros((2, width), np.float32)).shape[0] == 2
    with pytest.raises(SlotModelError, match=f"takes {width} inputs a place, given {width + 3}"):
        model.probabilities(np.zeros((2, width + 3), np.float32))
