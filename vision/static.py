"""Bare board that has changed since calibration: how a hand or an arm over the board shows.

Checkers only ever stand on places, so the rest of the playing area and the
board's frame above and below it must look as they did at calibration, once
the change of light is divided out.  What does not is measured in checker areas:
a die is a fraction of one, moving glare and shadows about two, an arm across the board
more.  (Hands over the places themselves are the slot model's COVERED class.)
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import FloatArray
from vision.view import (
    BAND_Y,
    CANONICAL,
    COLUMN_EDGES,
    COLUMN_X,
    COLUMNS,
    GEOMETRY,
    LOG,
    SCALE,
    Image,
    Layout,
    view_size,
)

#: The work is done on the half-resolution view (:func:`vision.view.reduce`): a hand is large.
STEP = 2
#: A log-intensity change (any channel) beyond this is a change, not light.
THRESHOLD = 0.45


def _interpolation(positions: FloatArray, at: FloatArray) -> FloatArray:
    """Linear interpolation weights from samples at ``positions`` to points ``at`` (clamped ends)."""
    order = np.argsort(positions)
    ordered = positions[order]
    weights = np.zeros((len(at), len(positions)))
    for i, value in enumerate(at):
        k = int(np.clip(np.searchsorted(ordered, value) - 1, 0, len(positions) - 2))
        a, b = ordered[k], ordered[k + 1]
        t = float(np.clip((value - a) / (b - a), 0, 1))
        weights[i, order[k]] += 1 - t
        weights[i, order[k + 1]] += t
    return weights


@lru_cache(maxsize=4)
def _static_mask(layout: Layout) -> npt.NDArray[np.bool_]:
    """Where the half-resolution view shows bare board whatever the checkers do: not round any
    of the places ``layout`` lays out, nor beside the outermost points."""
    width, height = view_size()
    mask = np.full((height, width), 255, np.uint8)
    radius = round(layout.checker / 2 * SCALE * 1.3)
    for x, y in layout.centres:
        cv2.circle(mask, (int(x), int(y)), radius, 0, -1)
    # The light is measured over the columns of points and the bar only: beside the outermost
    # points it could only be carried over flat, and a lamp's ramp that moved between frames
    # changed the side frames by up to 3 checker areas (4 clear frames of unseen seeds called
    # `occluded`).  An arm reaching in from a side crosses the corner points' covered places.
    mask[:, :min(left for left, _ in COLUMN_EDGES)] = 0
    mask[:, max(right for _, right in COLUMN_EDGES):] = 0
    small = cv2.resize(mask, ((width + 1) // STEP, (height + 1) // STEP), interpolation=cv2.INTER_NEAREST)
    return np.asarray(small > 0)


_WIDTH, _HEIGHT = view_size()
_ROWS_AT = np.arange((_HEIGHT + 1) // STEP, dtype=np.float64) * STEP + (STEP - 1) / 2
_COLS_AT = np.arange((_WIDTH + 1) // STEP, dtype=np.float64) * STEP + (STEP - 1) / 2
_WY = _interpolation(BAND_Y, _ROWS_AT).astype(np.float32)  # (rows, 3)
_WX = _interpolation(COLUMN_X, _COLS_AT).T.astype(np.float32)  # (13, cols)
# Measured in the canonical board's checkers whatever a board's own measure: the threshold is
# for hands, glare and shadows, which do not shrink with the checkers.
_CHECKER_AREA = math.pi * (GEOMETRY.checker / 2 * SCALE / STEP) ** 2
assert _WX.shape[0] == COLUMNS


def changed_area(small: Image, reference: npt.NDArray[np.float32], grid: FloatArray,
                 reference_grid: FloatArray, layout: Layout = CANONICAL) -> float:
    """How much bare board changed between the calibration and ``small``, in checker areas.

    ``small`` is a half-resolution view (:func:`vision.view.reduce`), ``reference`` the
    calibration's as log intensities (:data:`vision.view.LOG`); ``grid`` and ``reference_grid``
    are the two views' light grids (:func:`vision.view.light_grid`), and ``layout`` where the
    board's checkers may stand.
    """
    ratio = (np.log(grid + 8.0) - np.log(reference_grid + 8.0)).astype(np.float32)  # (3, 13, 3)
    # Across the columns first, for all bands and channels at once, then down the rows: the
    # field comes out interleaved as the image is, where a product per channel stacked took
    # 190 µs against 35.
    across = (ratio.transpose(0, 2, 1) @ _WX).transpose(0, 2, 1).reshape(len(ratio), -1)  # (3, cols * 3)
    field = (_WY @ across).reshape(len(_WY), _WX.shape[1], 3)  # (rows, cols, 3)
    # OpenCV's lookup and arithmetic give numpy's float32 results in a third of the time.
    delta = cv2.absdiff(cv2.subtract(cv2.LUT(small, LOG), reference), field)
    # (numpy reduces slowly along a short last axis: take the channel maximum by hand.)
    difference = np.maximum(np.maximum(delta[:, :, 0], delta[:, :, 1]), delta[:, :, 2])
    changed = ((difference > THRESHOLD) & _static_mask(layout)).astype(np.uint8)
    opened = cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return float(np.count_nonzero(opened) / _CHECKER_AREA)
