"""Corners mode: read a board with no calibration frame, from the four corners of its playing area.

Without a frame of the start position there are no learned looks, so the
empty look of every place is drawn from the board's own parts, measured where
checkers never hide them: the bare strip between the rows (the surface), the
middle of the bar, the frame outside the playing area, and each triangle's
colour between the touching points of the discs on it.  Places that differ
from their drawn empty look hold checkers; those split into two colours, the
lighter called ``white``; a second pass compares every place with the empty
look and with the two checker looks measured on this very frame.  The discs on
each point (`vision.discs`) stand in for what a calibration would have learnt:
a triangle's round base is no checker, a plain row of discs on a point read
empty is, and a checker at the bar's end with none inside it is a hinge.  Last,
the points holding checkers split into two colour groups, and an unsure point
takes the colour of the group its faces are nearer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from engine.position import CHECKERS
from vision.discs import BASE_EDGE, Rows, discs_per_point, recount
from vision.geometry import FloatArray
from vision.reading import Reading, count, in_rows, places_under, timed
from vision.slot_model import SlotModel
from vision.templates import BLACK, EMPTY, WHITE, Templates
from vision.view import (
    BANDS,
    BAR_SLOTS,
    BAR_START,
    COLUMN_EDGES,
    COLUMN_X,
    DISC,
    FLOOR,
    GEOMETRY,
    GRID,
    MARGIN,
    PLACES,
    SCALE,
    SLOTS,
    Image,
    bar_index,
    canonical,
    cells_within,
    descriptors,
    lattice_nominal,
    place_index,
    reduce,
    to_view,
)

#: A checker's face (inside 0.8 of its radius) gives its colour; the whole DISC, rim and shadow
#: included, tells an ivory checker from an ivory triangle when their faces match.
_FACE = cells_within(0.8)
#: Mean absolute log difference (per channel) beyond which a face is not the empty look.
OCCUPIED = 0.25
#: The look of a colour with no checker in view: far from anything a frame holds.
FAR = 5.0
CORNERS_MODEL = "corners_model.npz"
#: A point with a place less sure than this is given as many checkers as discs are found on it
#: (`vision.discs`).  A board with no calibration has no learned looks and real boards' checkers
#: do not sit on the canonical places: this took the real photos from 158 to 167 of 240 points
#: (0.9: 163; 0.7: 161), and 186 to 188 of 192 synthetic tuning boards exact (`vision.discs.HINT`
#: recounts points read empty too: 172).
RECOUNT_BELOW = 0.99
#: A point read empty is given the row of discs on it when the first of them shows at least this
#: share of its edge's contrast on its inner side (`vision.discs.BASE_EDGE`): a checker's rim,
#: plainly.  On the real photos this took 188 to 193 of 240 points, and 0.5 to 194, with the
#: synthetic frames of corners mode (benchmark and tuning boards) reading the same; 0.4 lost two
#: tuning frames and 0.3 six, to triangles' bases and other circles the finder sees.  The share is
#: taken on the circle near the disc that fits its rim best (`discs_per_point`'s ``fit``): the
#: tournament boards' black checkers on black triangles showed 0.17 to 0.49 on the circle found,
#: a few pixels larger and off centre, and over 1 on their rims (real photos 202 to 207 points;
#: fitted for the base test too, a washed-out white checker on a white triangle was emptied).
PLAIN_EDGE = 0.7
#: A checker whose face differs from its bare place by more than this (mean absolute log
#: difference) shows a rim the circle finder sees, so an unsure point read as holding such
#: checkers with no disc found holds none (`vision.discs.recount`'s ``rim_shows``).  Of the
#: unsure points with no disc on three synthetic seed ranges in corners mode (2,000,000, 3,500,000
#: and 3,800,000 on), 31 of 33 real checkers differed by 0.34 or less (black on dark triangles)
#: and 14 of 18 phantoms by 0.36 or more.  Over ten seed ranges corners mode then read 2,328 →
#: 2,342 of 2,400 frames exactly (the seven ranges not looked at: +10), and the real photos 265 →
#: 273 of 312 points (the three never tuned on: 52 → 57 of 72), bare triangles read as checkers.
RIM_SHOWS = 0.35

WOOD, FRAME, BAR, TRIANGLE = 0, 1, 2, 3


def _parts() -> tuple[np.ndarray, np.ndarray]:
    """What every lattice sample shows on an empty board: a part code and, on a triangle, its parity."""
    g = GEOMETRY
    points = lattice_nominal()
    part = np.full(points.shape[:2], WOOD)
    side = np.zeros(points.shape[:2], np.int64)
    x, y = points[..., 0], points[..., 1]
    outside = (x < 0) | (x > g.width) | (y < 0) | (y > g.height)
    bar0, _, bar1, _ = g.bar_box()
    part[(x >= bar0) & (x <= bar1)] = BAR
    for point in range(1, 25):
        cx = g.column_x(g.column(point))
        depth = y if g.is_top(point) else g.height - y
        inside = (depth >= 0) & (depth <= g.point_depth) & (
            np.abs(x - cx) <= g.point_width / 2 * (1 - depth / g.point_depth))
        part[inside] = TRIANGLE
        side[inside] = g.parity(point)
    part[outside] = FRAME
    return part, side


_PART, _SIDE = _parts()


def _faces(described: np.ndarray) -> np.ndarray:
    """Every place's mean face colour (..., 128, 3) from descriptors or looks (..., 128, features)."""
    cells = described.reshape(*described.shape[:-1], GRID * GRID, 3)
    return np.asarray(cells[..., _FACE, :].mean(axis=-2))


def _sample(small: Image, x: float, y: float, half: int = 2) -> FloatArray:
    """Median BGR round nominal canonical (x, y) in the half-resolution view."""
    vx, vy = to_view(x, y)
    cx, cy = round(vx / 2), round(vy / 2)
    patch = small[cy - half:cy + half + 1, cx - half:cx + half + 1].reshape(-1, 3)
    return np.asarray(np.median(patch, axis=0), np.float64)


_ORDER = np.argsort(COLUMN_X)


def _middle(small: Image) -> FloatArray:
    """Median BGR of the bare middle strip in each column: the light, in corners mode (the frame
    round the playing area may be any colour, so it cannot be the reference)."""
    y0, y1 = BANDS[1]
    return np.array([np.median(small[y0 // 2:(y1 + 1) // 2, a // 2:(b + 1) // 2].reshape(-1, 3), axis=0)
                     for a, b in COLUMN_EDGES])


def _light_at(middle: FloatArray, view_x: FloatArray | float) -> FloatArray:
    """The middle strip's light interpolated to view x positions: (..., 3)."""
    return np.stack([np.interp(view_x, COLUMN_X[_ORDER], middle[_ORDER, c]) for c in range(3)], axis=-1)


#: Every place's x in view pixels, where its light is taken, and every lattice sample's.
_PLACE_X = (lattice_nominal()[:, :, 0].mean(axis=1) + MARGIN) * SCALE
_CELL_X = (lattice_nominal()[:, :, 0] + MARGIN) * SCALE


def _empty_looks(small: Image, middle: FloatArray) -> np.ndarray:
    """Every place's empty look, drawn from measured part colours (log, light divided out).

    Each part's colour is measured relative to the light of its own column, so a lamp to
    one side does not tint the whole board.
    """
    g = GEOMETRY

    def relative(x: float, y: float, half: int = 2) -> FloatArray:
        light = _light_at(middle, (x + MARGIN) * SCALE)
        return np.asarray(np.log(_sample(small, x, y, half) + FLOOR) - np.log(light + FLOOR), np.float64)

    columns = COLUMN_X / SCALE - MARGIN
    bar0, _, bar1, _ = g.bar_box()
    colours = {
        WOOD: np.median([relative(x, g.point_depth + g.gap / 2) for x in columns], axis=0),
        BAR: relative((bar0 + bar1) / 2, g.height / 2, 1),
        FRAME: np.median([relative(x, y) for x in columns for y in (-20.0, g.height + 20)], axis=0),
    }
    # A triangle's colour is taken on its axis where two discs would touch: on real boards, whose
    # triangles are narrower than the canonical ones, samples a quarter of a point off the axis
    # fell on the board beside the triangle, and a black triangle was drawn half as dark as it
    # is (empty black triangles were then read as black checkers).  Where a checker stands, the
    # axis shows its rim; the median over twelve points and three depths is the bare triangle.
    triangles: list[list[FloatArray]] = [[], []]
    for point in range(1, 25):
        cx = g.column_x(g.column(point))
        for depth in (g.checker, 2 * g.checker, 3 * g.checker):
            y = depth if g.is_top(point) else g.height - depth
            triangles[g.parity(point)].append(relative(cx, y, 1))
    looks = np.zeros((len(PLACES), GRID * GRID, 3), np.float32)
    for part, colour in colours.items():
        looks[part == _PART] = colour
    for side in range(2):
        looks[(_PART == TRIANGLE) & (side == _SIDE)] = np.median(triangles[side], axis=0)
    return np.asarray(looks + _light_shift(middle), np.float32)


def _board_light(middle: FloatArray, view_x: FloatArray) -> FloatArray:
    """The light on the board (not the bar) at view x positions: (..., 3), from the point columns."""
    order = np.argsort(COLUMN_X[:12])
    return np.stack([np.interp(view_x, COLUMN_X[order], middle[order, c]) for c in range(3)], axis=-1)


def _light_shift(middle: FloatArray) -> np.ndarray:
    """What dividing every place by the light of its own x adds to each lattice sample (log).

    Each part's colour is relative to the light of its own column, but a place is divided by
    the light where it stands.  The bar column's light is the bar's own colour, so beside a bar
    narrower than the canonical one the board in a bar place is far brighter than its colour
    alone says, and the bar in the places beside it far darker."""
    reference = np.where((_PART == BAR)[..., None], middle[12], _board_light(middle, _CELL_X))
    own = _light_at(middle, _PLACE_X)[:, None, :]
    return np.asarray(np.log(reference + FLOOR) - np.log(own + FLOOR), np.float32)


def _checker_lift(middle: FloatArray) -> FloatArray:
    """What dividing by the light where it stands adds to a checker's colour at every place (log,
    (128, 3)): nothing on the points; on a dark bar a checker is lit like the board, not like
    the bar, and looks brighter by as much as the board is than the bar."""
    board, own = _board_light(middle, _PLACE_X), _light_at(middle, _PLACE_X)
    return np.asarray(np.log(board + FLOOR) - np.log(own + FLOOR), np.float32)


def templates(small: Image, middle: FloatArray, described: np.ndarray, bare: Sequence[int] = ()) -> Templates:
    """This frame's looks: the drawn empty board, and the two checker colours found on it.

    A first pass calls a place occupied when it is far from its drawn empty look and
    splits the occupied places into the lighter and the darker colour; each colour's look is
    the median of its places.  A colour with no checker in view gets a look no place is near.
    The places ``bare`` (under a flat die) hold no checker, and do not lend a colour their look.
    """
    lattices = described.reshape(len(PLACES), GRID * GRID, 3)
    empty = _empty_looks(small, middle)
    off_empty = np.abs(lattices[:, DISC, :] - empty[:, DISC, :]).mean(axis=(1, 2))
    occupied = off_empty > OCCUPIED
    occupied[list(bare)] = False
    kinds = np.full(len(PLACES), EMPTY)
    if occupied.any():
        kinds[occupied] = _two_colours(_faces(described)[occupied])
    lift = np.repeat(_checker_lift(middle)[:, None, :], GRID * GRID, axis=1).reshape(len(PLACES), -1)
    looks = [empty.reshape(len(PLACES), -1)]
    for kind in (WHITE, BLACK):
        members = kinds == kind
        look = (np.median(described[members] - lift[members], axis=0) if members.any()
                else np.full(described.shape[1], FAR, np.float32))
        looks.append(look + lift)
    return Templates(np.stack(looks).astype(np.float32))


def read_corners(frame: Image, corners: FloatArray, model: SlotModel | None = None,
                 flat_dice: Sequence[tuple[float, float]] = (), view: Image | None = None) -> Reading:
    """Read ``frame`` given its playing area's corners TL, TR, BR, BL in the numbering frame
    (``view``: its `canonical` view, when that is already warped).

    ``flat_dice`` are the frame centres of dice lying flat on the board: as in `read`, a place
    under one holds no checker (not told, corners mode read a die on a free place as a checker on
    8 of 40 boards with a roll on them, seeds 7,000,000 on; told, on none)."""
    started = time.perf_counter()
    model = model or SlotModel.load(CORNERS_MODEL)
    view = canonical(frame, corners) if view is None else view
    small, middle, described = observe_corners(frame, corners, view)
    under = places_under(flat_dice, corners)
    looks = templates(small, middle, described, under)
    probabilities = model.probabilities(looks.inputs(described))
    probabilities[under] = np.eye(probabilities.shape[1])[EMPTY]
    kinds, certainty = mixed_unsure(*in_rows(probabilities))
    # Unlike `read`, every point may be recounted, dice or not: a photo is read alone, with no next
    # frame to agree with, and leaving the points of the dice found on the real photos, some of
    # them false, cost 4 of their 175 points right.  With no frame of the empty board the
    # triangles' bases are drawn, not learnt, so a pale base read as a white checker is emptied
    # when its only disc is that base.
    kinds = recount(kinds, certainty, probabilities, partial(discs_per_point, view, base_edge=BASE_EDGE),
                    RECOUNT_BELOW, rim_shows=rim_shows(looks))
    rims = partial(discs_per_point, view, base_edge=PLAIN_EDGE, fit=True)
    kinds, certainty = plain_rows(kinds, certainty, rims, looks, described)
    kinds = colour_bar(colour_unsure_points(kinds, certainty, described), described)
    kinds = at_most_fifteen(without_hinges(kinds), certainty, partial(discs_per_point, view))
    return timed(count(kinds, certainty, past_fifth(kinds, rims)), started)


def rim_shows(looks: Templates) -> np.ndarray:
    """Whether a checker of each kind (3, 128: none for `EMPTY`) stands out from each bare place
    by more than `RIM_SHOWS` (its face's mean absolute log difference from the empty look's), so
    that the circle finder would see its rim (`vision.discs.recount`)."""
    faces = _faces(looks.looks)
    contrast = np.abs(faces - faces[EMPTY]).mean(axis=-1)
    return np.asarray(contrast > RIM_SHOWS)


def mixed_unsure(kinds: np.ndarray, certainty: np.ndarray,
                 unsure: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """``kinds`` and ``certainty`` (128,) with the places of every point read in two colours
    made no surer than ``unsure``, so that the discs recount it and the colour groups colour it.

    A point holds one colour.  A calibrated read may see two on a point while a checker is put
    down, and the stabiliser waits for that to end; a photo is read alone.  On a real photo the
    slot model read the fourth and fifth black checkers of a row of six (a tournament board whose
    checkers are smaller than the canonical slots) as white, sure to 0.997: the places' faces
    were nearer the black look, but lighter than the black checkers' median under the lamp."""
    points = kinds[:BAR_START].reshape(24, SLOTS)
    mixed = (points == WHITE).any(axis=1) & (points == BLACK).any(axis=1)
    certainty = certainty.copy()
    on_points = certainty[:BAR_START].reshape(24, SLOTS)  # a view: writes reach ``certainty``
    on_points[mixed] = np.minimum(on_points[mixed], unsure)
    return kinds, certainty


def past_fifth(kinds: np.ndarray, discs: Callable[[list[int]], Rows]) -> np.ndarray:
    """How many checkers (24,) stand in a row beyond the fifth place of each point whose five
    places hold one colour, as ``discs`` finds them.

    A board's checkers may be smaller than a fifth of its triangle, and then a sixth in a row
    still lies on the triangle (a tournament board's row of six black checkers of the real
    photos).  On the canonical board a sixth lies beyond the triangle's tip, where the discs are
    not counted, and a second layer hides under the first: both are reported as five, stacked."""
    points = kinds[:BAR_START].reshape(24, SLOTS)
    full = (points == WHITE).all(axis=1) | (points == BLACK).all(axis=1)
    if not full.any():
        return np.zeros(24, np.int64)
    found = discs([int(point) + 1 for point in np.flatnonzero(full)]).checkers
    return np.asarray(np.maximum(found - SLOTS, 0) * full)


def plain_rows(kinds: np.ndarray, certainty: np.ndarray, discs: Callable[[list[int]], Rows],
               looks: Templates, described: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``kinds`` and ``certainty`` (128,) with every point read empty given the row of discs
    that ``discs`` (asked with `PLAIN_EDGE`) finds on it, in the colour whose look (``looks``)
    its places' faces in ``described`` are nearer.  Such a point's places are given as 0.5 sure:
    they read empty, the discs do not.

    The corners model is sure of what it has seen in training, and on the real photos it read
    black checkers on black triangles with a metal rim (the tournament boards), and gold ones
    on a pale board, as empty, sure to 0.99 or more, while the circle finder found them."""
    bare = [point for point in range(1, 25)
            if (kinds[[place_index(point, slot) for slot in range(SLOTS)]] == EMPTY).all()]
    if not bare:
        return kinds, certainty
    rows = discs(bare)
    faces, checker_faces = _faces(described), _faces(looks.looks)
    kinds, certainty = kinds.copy(), certainty.copy()
    for point in bare:
        places = [place_index(point, slot) for slot in range(min(int(rows.checkers[point - 1]), SLOTS))]
        if places:
            off_white = np.abs(faces[places] - checker_faces[WHITE, places]).mean()
            off_black = np.abs(faces[places] - checker_faces[BLACK, places]).mean()
            kinds[places] = WHITE if off_white < off_black else BLACK
            certainty[places] = 0.5
    return kinds, certainty


def colour_unsure_points(kinds: np.ndarray, certainty: np.ndarray, described: np.ndarray) -> np.ndarray:
    """``kinds`` (128,) with each unsure point's checkers (a place under `RECOUNT_BELOW`) given
    the colour of the two groups of this board's points that their faces are nearer.

    The points holding checkers are split in two by 2-means over their faces' colour (in
    ``described``, relative to the light; as reflectance, not log, and its hue), weighted by
    their checkers and started from the colours read; the lighter group is white.  The places'
    looks of a board with no calibration are drawn from medians of the places first taken for
    checkers, so one odd colour (gold beside pearl, red beside grey-black, a hand taken for a
    light checker) pulls a look off, and the model then reads a whole point in the wrong colour.
    A point is one colour, and its faces averaged over its checkers sit plainly with one group:
    on the real photos this took 193 to 202 of 240 points (on reflectance alone).  Points read
    surely keep their colour: white checkers in a shadow band, which the light of their column
    does not divide out, are nearer the black group, and so are black ones under a glare spot
    (with every point recoloured, 5 of the 720 synthetic frames of the benchmark's, tuning and
    fresh seeds were lost; with the sure ones kept, one, fresh seed 3,200,003's frame 1, a white
    checker read 0.93 sure, and a tuning frame was gained).  Split in log colour instead, the
    real photos gained 4 points, not 9, and a tuning frame was lost to a glare spot."""
    faces = _faces(described)
    points, means, weights, read = [], [], [], []
    for point in range(1, 25):
        held = [place for place in (place_index(point, slot) for slot in range(SLOTS))
                if kinds[place] in (WHITE, BLACK)]
        if held:
            points.append(held)
            means.append(faces[held].mean(axis=0))
            weights.append(len(held))
            read.append((kinds[held] == WHITE).sum() >= (kinds[held] == BLACK).sum())
    lighter = np.array(read, np.bool_)
    if lighter.all() or not lighter.any():
        return kinds  # one colour on the points: nothing to split
    # The geometric mean of the faces: a glint on one checker of a row moves it less.
    reflectance, weight = np.exp(np.array(means)), np.array(weights, np.float64)
    features = _colour_features(reflectance)
    for _ in range(10):
        white = np.average(features[lighter], axis=0, weights=weight[lighter])
        black = np.average(features[~lighter], axis=0, weights=weight[~lighter])
        nearer = np.linalg.norm(features - white, axis=1) < np.linalg.norm(features - black, axis=1)
        if nearer.all() or not nearer.any() or (nearer == lighter).all():
            break
        lighter = nearer
    brightness = reflectance.mean(axis=1)
    if np.average(brightness[lighter], weights=weight[lighter]) < np.average(brightness[~lighter],
                                                                          weights=weight[~lighter]):
        lighter = ~lighter
    kinds = kinds.copy()
    for held, white_group in zip(points, lighter, strict=True):
        if certainty[held].min() < RECOUNT_BELOW:
            kinds[held] = WHITE if white_group else BLACK
    return kinds


def _colour_features(reflectance: FloatArray) -> FloatArray:
    """Faces' reflectance (N, 3, BGR) with their two colour differences (red less green, blue
    less green), so that a hue weighs as much as a brightness: a grey marble checker under a
    lamp is as bright as a red one but nowhere near its hue (real photos 207 to 210 points; no
    synthetic frame read otherwise)."""
    return np.column_stack([reflectance, reflectance[:, 2] - reflectance[:, 1],
                            reflectance[:, 0] - reflectance[:, 1]])


def colour_bar(kinds: np.ndarray, described: np.ndarray, least: int = 3) -> np.ndarray:
    """``kinds`` (128,) with each checker on the bar given the colour of the points' checkers
    (as `colour_unsure_points` left them) that its face is nearer, when the points hold at least
    ``least`` checkers of each colour.

    The bar's places have looks of their own, drawn from the few places there, and a dark bar
    reads a white checker on it as black: on the real photos this took the bars from 6 to 8 of
    14 right (a white checker read black on two tournament boards), and the benchmark's
    corners-mode frames, its fresh seeds 3,000,000 and the unseen 4,700,000 on read the same
    (236, 235 and 235 of 240 exact)."""
    on_points = kinds[:BAR_START]
    white, black = np.flatnonzero(on_points == WHITE), np.flatnonzero(on_points == BLACK)
    on_bar = BAR_START + np.flatnonzero(np.isin(kinds[BAR_START:], (WHITE, BLACK)))
    if len(white) < least or len(black) < least or not len(on_bar):
        return kinds
    features = _colour_features(np.exp(_faces(described)))
    to_white = np.linalg.norm(features[on_bar] - features[white].mean(axis=0), axis=1)
    to_black = np.linalg.norm(features[on_bar] - features[black].mean(axis=0), axis=1)
    kinds = kinds.copy()
    kinds[on_bar] = np.where(to_white < to_black, WHITE, BLACK)
    return kinds


def without_hinges(kinds: np.ndarray) -> np.ndarray:
    """``kinds`` (128,) with each half of the bar's outermost place emptied when the place inside
    it is empty.

    A folding board's hinges lie at the ends of the bar, and with no frame of the empty board
    their metal looks like a checker to the drawn looks (7 of the 10 real photos have them).
    Checkers put on the bar stack from its middle outwards, so one at its end with none inside
    it is a hinge: this took the real photos' bars from 1 to 4 of 10 right, and no synthetic
    frame of the benchmark's or the tuning boards read otherwise."""
    kinds = kinds.copy()
    for half in range(2):
        outer, inner = bar_index(half, BAR_SLOTS - 1), bar_index(half, BAR_SLOTS - 2)
        if kinds[inner] == EMPTY:
            kinds[outer] = EMPTY
    return kinds


def at_most_fifteen(kinds: np.ndarray, certainty: np.ndarray,
                    discs: Callable[[list[int]], Rows] | None = None) -> np.ndarray:
    """``kinds`` (128,) with a colour seen on more than `CHECKERS` places taken off, by as many as
    it has too many: first off the bar's unsure places (under `RECOUNT_BELOW`), from its ends
    inwards; then, when ``discs`` (the circle finder, asked for any disc at all) is given, off its
    lone checkers on the points (a point's first place only) where that finds no disc, least sure
    first; and last off the bar's sure places, from its ends inwards.

    A side has 15 checkers, so more seen means phantoms, and with no calibration the bar is where
    they stand most often: its looks are drawn from a few places beside a hinge or the cube.  On
    a real photo two burgundy checkers were read, unsure, on a bare bar beside 15 on the points.
    On the points a phantom is most often one place misread at a triangle's base, where its
    colour is widest: on a board with textured cream and taupe triangles 33 pearl checkers were
    read, five of them lone "checkers" on bare cream triangles, read sure but with no rim the
    circle finder sees.  A real checker's rim shows, so a lone one the finder sees stays; taking
    the over-counted side's lone checkers off regardless lost real ones on two tournament boards.
    The bar's sure places go last: taken off before the points' phantoms, they made four right
    bars wrong in 960 rendered frames of corners mode whose phantoms stood on the points; taken
    off after them, none, and a gold board's two phantoms read sure on its bar go (the real
    photos' bars 9 to 10 of 14).  Phantoms it cannot tell are left for the referee, which knows
    the position before the play."""
    kinds = kinds.copy()
    ends_first = [bar_index(half, slot) for slot in reversed(range(BAR_SLOTS)) for half in range(2)]
    for colour in (WHITE, BLACK):
        extra = int((kinds == colour).sum()) - CHECKERS
        if extra <= 0:
            continue
        unsure_bar = [place for place in ends_first if certainty[place] < RECOUNT_BELOW]
        unseen = _unseen_lone(kinds, certainty, colour, discs) if discs is not None else []
        stages = [unsure_bar, unseen, ends_first]
        for places in stages:
            for place in places:
                if extra > 0 and kinds[place] == colour:
                    kinds[place] = EMPTY
                    extra -= 1
    return kinds


def _unseen_lone(kinds: np.ndarray, certainty: np.ndarray, colour: int,
                 discs: Callable[[list[int]], Rows]) -> list[int]:
    """The places of ``colour``'s lone checkers on the points (a point's first place, nothing
    beyond it) where ``discs`` finds no disc, least sure first."""
    points = kinds[:BAR_START].reshape(24, SLOTS)
    alone = (points[:, 0] == colour) & (points[:, 1:] == EMPTY).all(axis=1)
    lone = [int(point) + 1 for point in np.flatnonzero(alone)]
    if not lone:
        return []
    found = discs(lone).checkers
    unseen = [place_index(point, 0) for point in lone if found[point - 1] == 0]
    return sorted(unseen, key=lambda i: certainty[i])


def observe_corners(frame: Image, corners: FloatArray,
                    view: Image | None = None) -> tuple[Image, FloatArray, np.ndarray]:
    """The half-resolution view, its middle strip's light per column, and every place's
    descriptor lit by that strip alone."""
    small = reduce(canonical(frame, corners) if view is None else view)
    middle = _middle(small)
    return small, middle, descriptors(small, _light_at(middle, _PLACE_X))


def _two_colours(faces: FloatArray) -> np.ndarray:
    """Split checker faces into the lighter (WHITE) and darker (BLACK) group: 2-means on brightness."""
    brightness = faces.mean(axis=1)
    low, high = float(brightness.min()), float(brightness.max())
    for _ in range(20):
        split = (low + high) / 2
        lighter = brightness > split
        if lighter.all() or not lighter.any():
            break
        low, high = float(brightness[~lighter].mean()), float(brightness[lighter].mean())
    if high - low < 0.3:
        # One colour only: call it by whether it is lighter than the board's surface (log 0).
        return np.where(brightness > 0, WHITE, BLACK)
    return np.where(brightness > (low + high) / 2, WHITE, BLACK)
