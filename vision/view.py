"""The canonical view of a frame: the playing area warped upright, and the places where checkers stand.

A frame is warped once per read, at half the nominal canonical size and with a
margin round the playing area so the board's own frame is in view too, then
reduced once more.  Every place a checker can stand (five slots on each point,
four on each half of the bar) is summed up by a lattice of samples round it;
:func:`descriptors` takes all 128 lattices with one ``remap`` and a lookup
table of logarithms.  Light is measured on three bands that checkers never
cover: the board frame above and below the playing area and the bare strip
between the two rows of points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import BoardGeometry, FloatArray

Image = npt.NDArray[np.uint8]

GEOMETRY = BoardGeometry()
#: Canonical px are sampled at this fraction of the nominal size: a checker is then ~46 px across.
SCALE = 0.5
#: Room kept round the playing area (nominal canonical px), so the bands on the board frame fit.
MARGIN = 40.0
SLOTS = 5
BAR_SLOTS = 4
#: Columns of the light grid: the 12 point columns and the bar.
COLUMNS = 13


def view_size() -> tuple[int, int]:
    width, height = GEOMETRY.size
    return round((width + 2 * MARGIN) * SCALE), round((height + 2 * MARGIN) * SCALE)


def to_view(x: float, y: float) -> tuple[float, float]:
    """Nominal canonical coordinates to view pixels."""
    return (x + MARGIN) * SCALE, (y + MARGIN) * SCALE


def warp_matrix(corners: FloatArray) -> FloatArray:
    """The homography from camera pixels to view pixels, for the numbering frame's TL, TR, BR, BL."""
    target = np.array([to_view(x, y) for x, y in GEOMETRY.corners()], np.float32)
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), target)
    return np.asarray(matrix, np.float64)


def board_matrix(corners: FloatArray) -> FloatArray:
    """The homography from camera pixels to canonical board units (`BoardGeometry`, no margin)."""
    return _board_matrix(_key(corners)).copy()


def _key(corners: FloatArray) -> bytes:
    return np.asarray(corners, np.float32).reshape(4, 2).tobytes()


# A mount's corners stay put, and a frame with a roll asked for their matrices 13 times (0.15 ms).
@lru_cache(maxsize=8)
def _board_matrix(corners: bytes) -> FloatArray:
    target = GEOMETRY.corners().astype(np.float32)
    source = np.frombuffer(corners, np.float32).reshape(4, 2)
    matrix = np.asarray(cv2.getPerspectiveTransform(source, target), np.float64)
    matrix.flags.writeable = False  # shared by every caller
    return matrix


def on_board_units(corners: FloatArray, points: Sequence[tuple[float, float]]) -> FloatArray:
    """Frame points (N, 2) in canonical board units."""
    frame_points = np.array([points], np.float64).reshape(1, -1, 2)
    moved = cv2.perspectiveTransform(frame_points, _board_matrix(_key(corners)))
    return np.asarray(moved, np.float64).reshape(-1, 2)


def in_frame(corners: FloatArray, points: npt.ArrayLike) -> FloatArray:
    """Canonical board units (N, 2) in frame pixels: `on_board_units` the other way."""
    back = _frame_matrix(_key(corners))
    moved = cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(1, -1, 2), back)
    return np.asarray(moved, np.float64).reshape(-1, 2)


@lru_cache(maxsize=8)
def _frame_matrix(corners: bytes) -> FloatArray:
    inverse = np.asarray(np.linalg.inv(_board_matrix(corners)), np.float64)
    inverse.flags.writeable = False
    return inverse


def canonical(frame: Image, corners: FloatArray) -> Image:
    """The playing area (with :data:`MARGIN` round it) warped upright in the numbering frame.

    `cv2.warpPerspective` works out where each view pixel lies in the frame as it goes.  Until
    2026-11-29 a calibrated mount's frames were warped through maps worked out once per mount
    (`cv2.remap`), faster while the frame and the maps were in the cache; but a camera's frame
    is fresh from memory, and with the cache emptied before each frame, as between a benchmark's
    frames, the 2.3 MB of maps cost more than they saved: a frame with a roll took 0.30 ms more
    (paired median, 480 frames in one process), and read the same checkers, dice and cube but
    for one frame's checkers more right without them.
    """
    view: Image = np.asarray(
        cv2.warpPerspective(frame, warp_matrix(corners), view_size(), flags=cv2.INTER_LINEAR), np.uint8)
    return view


@dataclass(frozen=True, slots=True)
class Place:
    """Where a checker can stand: a point's slot or a bar slot (``point`` 0, ``half`` 0 = top)."""

    point: int
    slot: int
    half: int = 0

    @property
    def on_bar(self) -> bool:
        return self.point == 0


def _places() -> tuple[Place, ...]:
    points = [Place(point, slot) for point in range(1, 25) for slot in range(SLOTS)]
    bar = [Place(0, slot, half) for half in range(2) for slot in range(BAR_SLOTS)]
    return tuple(points + bar)


#: All 128 places, points first (index ``(point - 1) * 5 + slot``), then the bar's top and bottom halves.
PLACES = _places()
BAR_START = 24 * SLOTS


def place_index(point: int, slot: int) -> int:
    return (point - 1) * SLOTS + slot


def bar_index(half: int, slot: int) -> int:
    return BAR_START + half * BAR_SLOTS + slot


def place_name(index: int) -> str:
    """A place in words for messages, its slot counted from 1 at the point's edge."""
    place = PLACES[index]
    if place.on_bar:
        return f"bar ({'top' if place.half == 0 else 'bottom'}) slot {place.slot + 1}"
    return f"point {place.point} slot {place.slot + 1}"


def _place_centres(geometry: BoardGeometry) -> FloatArray:
    centres = []
    for place in PLACES:
        if place.on_bar:
            centres.append(geometry.bar_slot(place.half == 0, place.slot))
        else:
            centres.append(geometry.slot_centre(place.point, place.slot))
    return np.array(centres, np.float64)


#: A place's descriptor is a GRID x GRID lattice of samples over a square reaching SPAN checker radii
#: from its centre: the checker, its rim and the shadow it throws, but little of its neighbours.
GRID = 10
SPAN = 1.25


def _lattice(centres: npt.NDArray[np.int64], cell: float,
             ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Every place's lattice of samples round ``centres`` (view px), ``cell`` view px apart."""
    steps = (np.arange(GRID) + 0.5) * cell - GRID * cell / 2
    xs = centres[:, 0, None, None] + steps[None, None, :]
    ys = centres[:, 1, None, None] + steps[None, :, None]
    shape = (len(PLACES) * GRID, GRID)
    return (np.broadcast_to(xs, (len(PLACES), GRID, GRID)).reshape(shape).astype(np.float32),
            np.broadcast_to(ys, (len(PLACES), GRID, GRID)).reshape(shape).astype(np.float32))


def cells_within(radii: float) -> npt.NDArray[np.int64]:
    """Indices of the lattice cells whose centres lie within ``radii`` checker radii of the place."""
    half = (GRID - 1) / 2
    step = 2 * SPAN / GRID  # cell spacing, in checker radii
    return np.array([r * GRID + c for r in range(GRID) for c in range(GRID)
                     if ((r - half) ** 2 + (c - half) ** 2) * step**2 <= radii**2])


#: The checker itself and the ring just outside it (rim and shadow).
DISC = cells_within(1.1)
#: An 8-bit level at or above which a colour is clipped: blur and JPEG keep clipped areas a
#: little under 255.
CLIPPED = 250
#: Light is divided out in the log domain; this floor keeps black from becoming minus infinity.
FLOOR = 8.0


#: ``LOG[v]`` is ``log(v + FLOOR)`` for every 8-bit value: a lookup is far cheaper than ``np.log``.
LOG = np.log(np.arange(256, dtype=np.float32) + FLOOR)


def reduce(view: Image) -> Image:
    """The view at half its resolution (a checker ~23 px across): enough for lattices and hands."""
    small: Image = np.asarray(cv2.pyrDown(view), np.uint8)
    return small


def lattices(small: Image, layout: Layout | None = None) -> Image:
    """Every place's lattice of samples from the half-resolution view: (128, GRID*GRID, channels),
    the places where ``layout`` lays them (by default the canonical board's, `CANONICAL`).

    The view is blurred to the lattice's spacing first, so each sample stands for its whole cell.
    """
    layout = layout or CANONICAL
    smooth = cv2.GaussianBlur(small, (0, 0), layout.cell / 4)
    samples: Image = np.asarray(cv2.remap(smooth, layout.small_x, layout.small_y, cv2.INTER_NEAREST),
                                np.uint8)
    return samples.reshape(len(PLACES), GRID * GRID, -1)


def washed_out(small: Image, places: np.ndarray, layout: Layout | None = None) -> list[int]:
    """Those of ``places`` (128, bool) that show pure white (any colour clipped) over more than
    half their disc in ``small`` (`vision.view.reduce` of the view): a lamp too bright for the
    camera's exposure leaves nothing of a light triangle or checker to compare."""
    clipped = (lattices(small, layout)[:, DISC].max(axis=2) >= CLIPPED).mean(axis=1) > 0.5
    return [int(i) for i in np.flatnonzero(clipped & places)]


def descriptors(small: Image, light: FloatArray, layout: Layout | None = None) -> npt.NDArray[np.float32]:
    """Every place's lattice in log light units, ``light`` (128, 3) divided out: (128, GRID*GRID*3).

    ``small`` is :func:`reduce` of the view.
    """
    logs: npt.NDArray[np.float32] = LOG[lattices(small, layout)]
    logs -= np.log(light.astype(np.float32) + FLOOR)[:, None, :]
    return logs.reshape(len(PLACES), -1)


def _band_rows() -> tuple[tuple[int, int], ...]:
    depth, gap, height = GEOMETRY.point_depth, GEOMETRY.gap, GEOMETRY.height
    bands = ((-32.0, -8.0), (depth + 12, depth + gap - 12), (height + 8, height + 32))
    return tuple((round(to_view(0, a)[1]), round(to_view(0, b)[1])) for a, b in bands)


BANDS = _band_rows()
#: The y (view px) each band's light is taken to belong to.
BAND_Y = np.array([(a + b) / 2 for a, b in BANDS])


def _column_edges() -> tuple[tuple[int, int], ...]:
    edges = []
    for column in range(COLUMNS):
        if column == 12:
            x0, _, x1, _ = GEOMETRY.bar_box()
        else:
            centre = GEOMETRY.column_x(column)
            x0, x1 = centre - GEOMETRY.point_width / 2, centre + GEOMETRY.point_width / 2
        edges.append((round(to_view(x0, 0)[0]), round(to_view(x1, 0)[0])))
    return tuple(edges)


COLUMN_EDGES = _column_edges()
COLUMN_X = np.array([(a + b) / 2 for a, b in COLUMN_EDGES])


def _cell_columns() -> npt.NDArray[np.intp]:
    """The half-resolution view's x of each column's cells: (13, width); the bar is as wide as a point."""
    halves = [(x0 // 2, (x1 + 1) // 2) for x0, x1 in COLUMN_EDGES]
    widths = {x1 - x0 for x0, x1 in halves}
    assert len(widths) == 1, f"the light grid's columns differ in width: {sorted(widths)}"
    return np.array([np.arange(x0, x1) for x0, x1 in halves])


_CELL_COLUMNS = _cell_columns()


def light_grid(small: Image) -> FloatArray:
    """Median BGR of each band (frame above, middle strip, frame below) over each column: (3, 13, 3).

    ``small`` is :func:`reduce` of the view.  Medians keep a die or a stray glint in one cell
    from moving the light of a whole column.
    """
    grid = np.zeros((len(BANDS), COLUMNS, 3))
    for b, (y0, y1) in enumerate(BANDS):
        cells = small[y0 // 2:(y1 + 1) // 2, _CELL_COLUMNS]  # (rows, column, x, 3)
        # All 13 medians of a band in one call: 39 calls took 0.6 ms of a frame's reading.  Each
        # column's channel laid out in a row of its own first: partitioned along the last axis,
        # the three medians took 66 µs instead of 110.
        grid[b] = np.median(np.ascontiguousarray(cells.transpose(1, 3, 0, 2)).reshape(COLUMNS, 3, -1), axis=2)
    return grid


def _weights(centres: npt.NDArray[np.int64]) -> FloatArray:
    """Bilinear weights from the light grid to every place's centre (view px): (128, 3 * 13)."""
    order = np.argsort(COLUMN_X)
    xs = COLUMN_X[order]
    weights = np.zeros((len(PLACES), len(BANDS), COLUMNS))
    for i, (x, y) in enumerate(centres):
        k = int(np.clip(np.searchsorted(xs, x) - 1, 0, COLUMNS - 2))
        tx = float(np.clip((x - xs[k]) / (xs[k + 1] - xs[k]), 0, 1))
        b = 0 if y < BAND_Y[1] else 1
        ty = float(np.clip((y - BAND_Y[b]) / (BAND_Y[b + 1] - BAND_Y[b]), 0, 1))
        for band, wy in ((b, 1 - ty), (b + 1, ty)):
            weights[i, band, order[k]] += wy * (1 - tx)
            weights[i, band, order[k + 1]] += wy * tx
    return weights.reshape(len(PLACES), -1)


@dataclass(frozen=True, eq=False)
class Layout:
    """Where a board's places lie: each point's slots one checker apart from its edge, the bar's
    from its middle, for checkers ``geometry.checker`` across.

    Real boards' checkers are often smaller than a fifth of a triangle: on 13 real photos the
    rows' pitch was 0.79 to 0.94 of that.  Laid out canonically, the fourth and fifth checkers
    of such a row sit half off their places, and a calibration of rendered boards with checkers
    0.9 across was refused on 10 of 10 set-ups.  A calibration measures its board's checkers
    (`vision.discs.checker_pitch`) and reads every frame at places laid out for them, each
    lattice shrunk with its checker, so a place's samples cover the same parts of a checker on
    every board.  One layout per size (`layout_for`): the arrays are made once."""

    geometry: BoardGeometry
    #: Every place's centre on the canonical board (nominal px), and in the view (whole px).
    place_centres: FloatArray
    centres: npt.NDArray[np.int64]
    #: Lattice spacing (view px), and the lattices in the view's and the half view's pixels.
    cell: float
    map_x: npt.NDArray[np.float32]
    map_y: npt.NDArray[np.float32]
    small_x: npt.NDArray[np.float32]
    small_y: npt.NDArray[np.float32]
    weights: FloatArray

    @property
    def checker(self) -> float:
        return self.geometry.checker


@lru_cache(maxsize=8)
def layout_for(checker: float = GEOMETRY.checker) -> Layout:
    """The places of a board whose checkers are ``checker`` canonical px across (0.1 px apart)."""
    geometry = GEOMETRY.sized(round(float(checker), 1))
    place_centres = _place_centres(geometry)
    centres = np.round(np.array([to_view(x, y) for x, y in place_centres])).astype(np.int64)
    cell = 2 * SPAN * (geometry.checker / 2 * SCALE) / GRID
    map_x, map_y = _lattice(centres, cell)
    # The same lattices in the coordinates of the half-resolution view.
    small_x, small_y = (((m + 0.5) / 2 - 0.5).astype(np.float32) for m in (map_x, map_y))
    return Layout(geometry, place_centres, centres, cell, map_x, map_y, small_x, small_y, _weights(centres))


#: The canonical board's places, whose checkers fill a triangle five to a row: what corners mode
#: reads (its model learnt them), and every calibration made before checkers were measured.
CANONICAL = layout_for()
PLACE_CENTRES = CANONICAL.place_centres
CENTRES = CANONICAL.centres


def light_at_places(grid: FloatArray, layout: Layout | None = None) -> FloatArray:
    """The light grid interpolated to every place: (128, 3) BGR."""
    return np.asarray((layout or CANONICAL).weights @ grid.reshape(-1, 3), np.float64)


def observe(view: Image, layout: Layout | None = None) -> tuple[Image, FloatArray, npt.NDArray[np.float32]]:
    """The half-resolution view, its light grid and every place's descriptor."""
    small = reduce(view)
    grid = light_grid(small)
    return small, grid, descriptors(small, light_at_places(grid, layout), layout)


def lattice_nominal(layout: Layout | None = None) -> FloatArray:
    """Every place's lattice samples in nominal canonical coordinates: (128, GRID*GRID, 2)."""
    layout = layout or CANONICAL
    xs = layout.map_x.reshape(len(PLACES), GRID * GRID) / SCALE - MARGIN
    ys = layout.map_y.reshape(len(PLACES), GRID * GRID) / SCALE - MARGIN
    return np.stack([xs, ys], axis=-1).astype(np.float64)
