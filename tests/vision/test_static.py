"""Bare board changed since calibration: what counts as a change, and where it is looked for."""

from __future__ import annotations

import numpy as np

from tests.vision.conftest import make_setup
from vision.static import changed_area
from vision.view import BANDS, COLUMN_EDGES, LOG, light_grid, reduce, view_size


def _changed(view: np.ndarray, reference_view: np.ndarray) -> float:
    small, reference = reduce(view), reduce(reference_view)
    return changed_area(small, LOG[reference], light_grid(small), light_grid(reference))


def test_an_unchanged_board_or_a_dimmer_room_changes_nothing() -> None:
    view = make_setup(41).calibration.view
    assert _changed(view, view) == 0.0
    dimmer = (view * 0.8).astype(np.uint8)
    assert _changed(dimmer, view) < 0.5


def test_a_sleeve_between_the_rows_counts_and_the_side_frames_beyond_the_light_grid_do_not() -> None:
    """The light is measured over the 13 columns of points and the bar only; on the board's frame
    beside the outermost points it can only be carried over flat, and a lamp's ramp that moved
    between frames changed those strips by up to 3 checker areas: 4 clear frames of unseen seeds
    were called `occluded`.  An arm reaching in from a side crosses the corner points, at the rim,
    whose covered places catch it."""
    view = make_setup(41).calibration.view
    sleeve = np.array((40, 40, 40), np.uint8)  # dark: skin over this wood is within the light's change
    middle = view.copy()
    y0, y1 = BANDS[1]
    x0 = COLUMN_EDGES[3][0]
    # A dark sleeve over the strip between the rows, narrower than half a column: the column's light
    # (the strip's median) is still the board's.
    middle[y0 - 10:y1 + 10, x0:x0 + 20] = sleeve
    assert _changed(middle, view) > 0.25  # in checker areas; much of it lies over places
    side = view.copy()
    left, right = COLUMN_EDGES[0][0], max(b for _, b in COLUMN_EDGES)
    assert left > 0 and right < view_size()[0]
    side[:, :left] = sleeve
    side[:, right:] = sleeve
    assert _changed(side, view) == 0.0
