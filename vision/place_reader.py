"""A second look at a point's place, from its pixels: empty, a white checker or a black one.

The slot model reads every place from a coarse lattice of the half-resolution view, compared
with the place's learned looks.  A checker pushed to the rim of a triangle of its own colour (a
white checker on a cream triangle, a black one on a black triangle) changes that lattice
little: only its rim and its shadow show, and those are finer than the lattice.  Such checkers
were the largest class of miss on unseen set-ups (11 of 28 wrong frames of seeds 7,300,000 on),
read empty at 0.88 to 0.98, where the circle finder found no disc either.

This reader is a small convolutional network over the place's patch of the full-resolution
view, turned so that the point's edge is at the top: trained by
``tools/train_place_reader.py`` on rendered frames (seeds its own), shipped as ONNX in
``vision/data`` and run like the dice networks.  `vision.reading.read` asks it only of the
points the slot model leaves in doubt, so it costs a frame little.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.dice import Network, _net, normalise, softmax
from vision.view import BAR_START, PLACES, SCALE, Layout

Image = npt.NDArray[np.uint8]

#: The patch is this many checkers across, centred on the place: the checker, its rim and shadow,
#: the point's edge beyond slot 1 and a little of the next places.
REACH = 1.5
#: The network's input side (px).
SIDE = 32
WEIGHTS = "place_reader.onnx"
#: The network's outputs are the slot model's first three classes, in its order (EMPTY, WHITE,
#: BLACK of `vision.templates`), so the two multiply column by column.
CLASSES = 3


def patches(view: Image, layout: Layout, places: npt.ArrayLike) -> Image:
    """(n, SIDE, SIDE, 3) uint8 patches of ``places`` (indices of point places) in ``view`` (a
    `canonical`), each turned so that its point's edge is at the top: the bottom half's points
    are flipped upside down, so the network learns one way round."""
    indices = np.asarray(places, np.int64).reshape(-1)
    if (indices >= BAR_START).any() or (indices < 0).any():
        raise ValueError(f"the place reader reads points' places (0 to {BAR_START - 1}), given {indices}")
    side = round(layout.checker * SCALE * REACH)
    out = np.empty((len(indices), SIDE, SIDE, 3), np.uint8)
    height, width = view.shape[:2]
    padded: Image | None = None
    for row, index in enumerate(indices):
        x, y = (int(v) - side // 2 for v in layout.centres[index])
        if x >= 0 and y >= 0 and x + side <= width and y + side <= height:
            crop = view[y:y + side, x:x + side]
        else:
            # A place at the rim reaches into the view's margin, a larger board's past it.
            if padded is None:
                padded = np.asarray(cv2.copyMakeBorder(view, side, side, side, side, cv2.BORDER_REPLICATE),
                                    np.uint8)
            crop = padded[y + side:y + 2 * side, x + side:x + 2 * side]
        # Area averaging, not a sampling warp: the patch is some 2.2 times smaller than the view.
        small = cv2.resize(crop, (SIDE, SIDE), interpolation=cv2.INTER_AREA)
        out[row] = small if PLACES[index].point > 12 else small[::-1]
    return out


@cache
def _shipped(runtime: str) -> Network:
    path = Path(str(resources.files("vision").joinpath("data", WEIGHTS)))
    return _net(path, runtime)


def read_places(view: Image, layout: Layout, places: npt.ArrayLike,
                runtime: str = "") -> npt.NDArray[np.float32]:
    """(n, 3) probabilities of empty, white and black for ``places`` of ``view``."""
    batch = patches(view, layout, places)
    if not len(batch):
        return np.zeros((0, CLASSES), np.float32)
    return np.asarray(softmax(_shipped(runtime)(normalise(batch)).astype(np.float64)), np.float32)
