"""The small learned model that says, for every place, empty, white, black or covered (a hand).

It is a two-layer perceptron over :meth:`vision.templates.Templates.inputs`:
how the place differs now from its own three looks learned at calibration.
Learning *differences from this board's looks* rather than colours keeps it
board-agnostic: it has to learn what light, shadows, noise and a checker's
placement do to a difference, not what a checker looks like.  Trained by
``tools/train_slot_model.py`` on synthetic frames; the weights ship in the
package (340 kB for the calibrated reader, 170 kB for corners mode) and load
offline.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

Array = npt.NDArray[np.float32]
WEIGHTS = "slot_model.npz"


class SlotModelError(ValueError):
    """Inputs of another width than the model was trained on (descriptors changed, model not)."""


@dataclass(frozen=True, slots=True)
class SlotModel:
    """``mean``/``scale`` standardise the inputs; ``hidden`` and ``out`` are (weights, bias) pairs."""

    mean: Array
    scale: Array
    hidden: tuple[Array, Array]
    out: tuple[Array, Array]

    def probabilities(self, inputs: Array) -> Array:
        """(n, classes) probabilities of empty, white, black (and covered) for (n, features) ``inputs``."""
        if inputs.shape[-1] != self.mean.shape[0]:
            # A model trained on other descriptors would read nonsense rather than fail.
            raise SlotModelError(f"the slot model takes {self.mean.shape[0]} inputs a place, "
                             f"given {inputs.shape[-1]}: retrain it for these descriptors")
        x = (inputs - self.mean) / self.scale
        h = np.maximum(x @ self.hidden[0] + self.hidden[1], 0.0)
        logits = h @ self.out[0] + self.out[1]
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        p: Array = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
        return p

    def save(self, path: Path) -> None:
        np.savez_compressed(path, mean=self.mean, scale=self.scale, w1=self.hidden[0], b1=self.hidden[1],
                            w2=self.out[0], b2=self.out[1])

    @classmethod
    def load(cls, path: Path | str = WEIGHTS) -> SlotModel:
        """A model shipped in ``vision/data`` by file name (read once per process), or one at a path."""
        if isinstance(path, str):
            return _shipped(path)
        return cls._read(path)

    @classmethod
    def _read(cls, path: Path | str) -> SlotModel:
        source = resources.files("vision").joinpath("data", path) if isinstance(path, str) else path
        with source.open("rb") as handle, np.load(handle) as data:
            a = {key: _flush(np.asarray(data[key], np.float32))
                 for key in ("mean", "scale", "w1", "b1", "w2", "b2")}
        return cls(a["mean"], a["scale"], (a["w1"], a["b1"]), (a["w2"], a["b2"]))


def _flush(values: Array) -> Array:
    """Subnormal floats set to zero.  Weight decay leaves weights of unused inputs at 1e-40 and
    the like, and a matrix product with subnormals runs some 30 times slower on x86 and ARM."""
    flushed: Array = np.where(np.abs(values) < np.finfo(np.float32).tiny, 0, values).astype(np.float32)
    return flushed


@cache
def _shipped(name: str) -> SlotModel:
    return SlotModel._read(name)
