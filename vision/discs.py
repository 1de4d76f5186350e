"""Checkers seen as discs: found wherever they lie, and counted per point.

The readers look at five fixed places a point, spaced as on the canonical board.  A checker is
also a disc whose edge a circle finder sees wherever it stands, so a point's discs are a second
opinion on its count: on a real board whose checkers are smaller or larger than a fifth of its
triangle they do not sit on the places, and under a glint a place may look nearly empty while
the disc's rim still shows.  The outline search finds the start's checkers the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import FloatArray
from vision.templates import BLACK, EMPTY, WHITE
from vision.view import BAR_START, GEOMETRY, MARGIN, SCALE, SLOTS, Image, place_index, to_view

#: A disc belongs to a point when its centre is this share of a point's width from the axis.
ON_AXIS = 0.4
#: Radii searched for, as shares of a checker's radius in the canonical view.
SMALLEST, LARGEST = 0.75, 1.25
#: A point read empty is recounted when its places hold this much of a colour in all: on the real
#: photos 0.05 took 167 to 172 of 240 points; 0.01 and 0 gave 168 and lost 3 of 192 synthetic
#: tuning frames, 0.2 gave 170.
HINT = 0.05
#: A row's first disc lies this many radii from the edge at most, and each next one this many from the last.
FIRST, NEXT = 1.8, 2.5
#: A disc nearer the last of its row than this many radii is no next checker: checkers lying
#: flat do not overlap, and the finder takes the hollow between two touching rims for a circle
#: now and then (half a checker beyond the last one of a synthetic row of five).
APART = 1.4
#: A disc whose inner side (the quarter of its edge facing the triangle's tip) shows less than this
#: share of its whole edge's contrast (medians) is the triangle's own base, no checker: on some
#: real boards a triangle's sides and the playing area's rim make most of a circle there, but the
#: triangle goes on past the last quarter.  Of the discs in rows on the real photos, 31 of 45 that
#: are no checker fall below 0.05, and 4 of 262 checkers; of 5,703 checkers on synthetic boards
#: none (the lowest 0.5 % from 0.18).  0.05 took the real photos from 178 to 188 of 240 points,
#: corners mode's frames of the benchmark and the tuning boards reading the same (on fresh seeds
#: a white checker on a white triangle was lost); 0.1 gave 186 and lost two tuning frames.
BASE_EDGE = 0.05
#: Angles round a disc at which its edge's contrast is sampled.
_ANGLES = np.linspace(-np.pi, np.pi, 48, endpoint=False)
_INNER = np.abs(_ANGLES) <= np.pi / 4
#: Circles near a found disc (centre moved by these shares of its radius in x and y, radius
#: scaled by 1 plus these) among which its rim is the one with the most contrast all round.  A
#: tournament board's black checker has a metal ring and a shadow round its rim, and the finder
#: may take a circle a few pixels larger and off centre, on whose inner quarter little shows.
_NUDGE = np.array([(dx, dy, dr) for dx in (-0.08, 0.0, 0.08) for dy in (-0.08, 0.0, 0.08)
                   for dr in (-0.12, -0.06, 0.0)])
#: An image's x and y gradients.
Gradients = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]


#: The circle finder's smoothing (Gaussian sigma, px) and edge threshold (`cv2.HoughCircles`'
#: param1: its Canny edges run from half of it to all of it).
SMOOTH, EDGE = 1.5, 80


def edge_share(image: Image) -> float:
    """The largest share of pixels on an edge in any colour channel, as `find_discs` sees them.

    The circle finder's time grows with its edges: a frame of random noise is a fifth edges, and
    its first pass in `vision.outline.find_corners` took 20 s there (this takes 0.04 s); the real
    and rendered boards' frames are 1 to 6 %."""
    shares = []
    for channel in cv2.split(image):
        edges = cv2.Canny(cv2.GaussianBlur(channel, (0, 0), SMOOTH), EDGE // 2, EDGE)
        shares.append(np.count_nonzero(edges) / edges.size)
    return float(max(shares))


def find_discs(image: Image, low: float, high: float) -> FloatArray:
    """Circles (x, y, r) with radii from ``low`` to ``high`` px found in any colour channel,
    duplicates merged."""
    found: list[np.ndarray] = []
    for channel in cv2.split(image):
        smooth = cv2.GaussianBlur(channel, (0, 0), SMOOTH)
        circles = cv2.HoughCircles(smooth, cv2.HOUGH_GRADIENT, dp=1, minDist=max(low * 1.4, 4.0),
                                   param1=EDGE, param2=max(12, int(low * 0.8)), minRadius=int(low),
                                   maxRadius=int(high) + 1)
        if circles is not None:
            found.extend(circles[0])
    # The same checker is often found in two channels, or twice a little apart: average each
    # cluster.  Running sums keep this linear per cluster, as wood grain on a real photo gives
    # hundreds of circles (recomputing each cluster's mean took 60 ms of a photo's 90).
    sums = np.zeros((len(found), 3), np.float64)
    sizes = np.zeros(len(found), np.int64)
    clusters = 0
    for circle in found:
        centres = sums[:clusters, :2] / sizes[:clusters, None]
        near = np.flatnonzero(np.hypot(*(centres - circle[:2]).T) < 0.9 * circle[2])
        at = int(near[0]) if near.size else clusters
        clusters += not near.size
        sums[at] += circle
        sizes[at] += 1
    return sums[:clusters] / sizes[:clusters, None]


@dataclass(frozen=True, slots=True)
class Rows:
    """What the discs show on each point (both (24,), 0 and False for the points not asked about):
    how many stand in a row from its edge, and whether the first disc at its edge was no checker
    (its triangle's bare base), so that none stands there."""

    checkers: np.ndarray
    bare: np.ndarray


def _gradients(image: Image) -> Gradients:
    """Per pixel, the x and y gradient of the colour channel that changes most there."""
    gx: npt.NDArray[np.float32] = np.zeros(image.shape[:2], np.float32)
    gy: npt.NDArray[np.float32] = np.zeros(image.shape[:2], np.float32)
    strongest: npt.NDArray[np.float32] = np.zeros(image.shape[:2], np.float32)
    for channel in cv2.split(cv2.GaussianBlur(image, (0, 0), 1.0)):
        x = cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3)
        y = cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3)
        magnitude = np.hypot(x, y)
        more = magnitude > strongest
        gx[more], gy[more], strongest[more] = x[more], y[more], magnitude[more]
    return gx, gy


def _across(gradients: Gradients, circles: FloatArray, tip: float) -> FloatArray:
    """The contrast across the edge of each circle (n, 3: x, y, radius in the image's pixels) at
    every one of `_ANGLES` turned by ``tip``: (n, 48)."""
    gx, gy = gradients
    height, width = gx.shape
    angles = _ANGLES + tip
    cos, sin = np.cos(angles), np.sin(angles)
    x, y, radius = (circles[:, k, None] for k in range(3))
    across = np.zeros((len(circles), len(angles)))
    for off in (-1.5, -0.5, 0.5, 1.5):  # the edge is found within a pixel or two of the circle
        ix = np.clip(np.round(x + (radius + off) * cos).astype(np.int64), 0, width - 1)
        iy = np.clip(np.round(y + (radius + off) * sin).astype(np.int64), 0, height - 1)
        across = np.maximum(across, np.abs(gx[iy, ix] * cos + gy[iy, ix] * sin))
    return across


def _inner_edge(gradients: Gradients, x: float, y: float, radius: float, tip: float,
                fit: bool = False) -> float:
    """How much of the contrast across a disc's edge (x, y, radius in the image's pixels) its inner
    quarter, facing angle ``tip``, shows: the median across it over the median all round.  With
    ``fit``, of the circle near it (`_NUDGE`) with the most contrast all round."""
    circles = np.array([[x, y, radius]])
    if fit:
        circles = circles + _NUDGE * radius  # the radius scaled by 1 plus its nudge, too
    across = _across(gradients, circles, tip)
    whole = np.median(across, axis=1)
    best = int(np.argmax(whole))
    return float(np.median(across[best, _INNER]) / max(float(whole[best]), 1e-6))


#: Contrast across a checker's edge (the strongest channel's Sobel of the view, blurred) from which
#: a stretch of it counts as showing (`rim_round`).  The rims of the checkers under the cocked dice
#: of `vision.reading.cocked_on_checkers` showed a median 69 to 169 along their edge in sight.
RIM_CONTRAST = 40.0
#: A rim is seen on at least this many of `_ANGLES` outside what hides it, or not judged.
RIM_ANGLES = 8


def rim_round(view: Image, centre: tuple[float, float], radius: float, hidden: tuple[float, float],
              hidden_radius: float) -> float | None:
    """How much of a checker's rim shows round ``centre`` (nominal canonical px, ``radius``): the
    share of its edge outside the disc of ``hidden_radius`` round ``hidden`` (what lies over the
    checker) whose contrast reaches `RIM_CONTRAST`, on the circle near it that shows most
    (`_NUDGE`: a checker stands a little off its place).  None when too little of the edge is in
    sight to tell (`RIM_ANGLES`).  Only a patch round the circle is looked at."""
    x, y = centre
    outside = np.hypot(x + radius * np.cos(_ANGLES) - hidden[0],
                       y + radius * np.sin(_ANGLES) - hidden[1]) > hidden_radius
    if outside.sum() < RIM_ANGLES:
        return None
    vx, vy = to_view(x, y)
    reach = radius * SCALE * 1.5
    height, width = view.shape[:2]
    left, top = max(0, int(vx - reach)), max(0, int(vy - reach))
    patch = view[top:min(height, int(vy + reach) + 1), left:min(width, int(vx + reach) + 1)]
    if min(patch.shape[:2]) < 4:
        return None
    circles = np.array([[vx - left, vy - top, radius * SCALE]]) + _NUDGE * radius * SCALE
    across = _across(_gradients(patch), circles, 0.0)[:, outside]
    best = int(np.argmax(np.median(across, axis=1)))
    return float(np.mean(across[best] >= RIM_CONTRAST))


def _on_point(view: Image, point: int, checker: float = GEOMETRY.checker,
              ) -> tuple[Image, FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """A point's strip of the canonical ``view`` (its triangle, with room for a checker at its
    edge and beyond its tip), the discs found in it (x, y, radius in the strip's pixels) about
    the size of a ``checker`` (diameter, nominal px), each one's depth in from the point's edge
    (nominal px), and which of them stand on the point."""
    radius = checker / 2 * SCALE
    height, width = view.shape[:2]
    half = GEOMETRY.point_width / 2 + GEOMETRY.checker * 0.75
    near, far = -GEOMETRY.checker / 2, GEOMETRY.point_depth + GEOMETRY.checker * 0.75
    axis = GEOMETRY.column_x(GEOMETRY.column(point))
    top, bottom = (near, far) if GEOMETRY.is_top(point) else (GEOMETRY.height - far, GEOMETRY.height - near)
    left, up = (max(0, int(v)) for v in to_view(axis - half, top))
    right, down = (int(v) + 1 for v in to_view(axis + half, bottom))
    strip = view[up:min(down, height), left:min(right, width)]
    discs = find_discs(strip, SMALLEST * radius, LARGEST * radius)
    x, y = ((discs[:, :2] + (left, up)) / SCALE - MARGIN).T
    depth = y if GEOMETRY.is_top(point) else GEOMETRY.height - y
    on = (abs(x - axis) < ON_AXIS * GEOMETRY.point_width) & (depth > 0) & (depth < GEOMETRY.point_depth)
    return strip, discs, depth, on


#: The start position's rows of touching checkers (points of either numbering: a view in any
#: of the eight orientations shows them on these columns).
START_ROWS = (13, 12, 19, 6, 18, 7, 17, 8, 20, 5, 24, 1)
#: The pitch of touching checkers measured (nominal px) must lie within these shares of the
#: canonical checker's, and be seen between this many pairs at least, or the board is taken
#: as canonical.
PITCH_SHARES = (0.75, 1.1)
PITCH_PAIRS = 6
#: A pitch this close to the canonical checker's is the canonical board's: on rendered start
#: frames of canonical boards it was measured 0.993 to 1.022 of it.
CANONICAL_WITHIN = 0.025


def checker_pitch(view: Image) -> float | None:
    """The diameter (nominal canonical px) of the checkers of a start-position ``view``, from the
    spacing of its rows of touching checkers, or None where too few rows show.

    The centres of two checkers touching in a row lie a diameter apart along the point.  The
    gaps between neighbours on the start's rows of five, three and two (whichever way the view
    is numbered) are taken within `PITCH_SHARES` of a canonical checker, and their median is
    the board's checker: a disc the finder misses leaves a gap of two, which falls outside.
    Within `CANONICAL_WITHIN` of the canonical checker it is that, so a board of the canonical
    make reads at the places its models learnt."""
    low, high = (share * GEOMETRY.checker for share in PITCH_SHARES)
    gaps: list[float] = []
    for point in START_ROWS:
        _, _, depth, on = _on_point(view, point)
        row = np.sort(depth[on])
        gaps.extend(float(g) for g in np.diff(row) if low <= g <= high)
    if len(gaps) < PITCH_PAIRS:
        return None
    pitch = float(np.median(gaps))
    return GEOMETRY.checker if abs(pitch / GEOMETRY.checker - 1) <= CANONICAL_WITHIN else pitch


def discs_per_point(view: Image, points: Iterable[int] = range(1, 25), *, base_edge: float = 0.0,
                    fit: bool = False, checker: float = GEOMETRY.checker) -> Rows:
    """How many checker-sized discs stand in a row from the edge of each of ``points`` in the
    canonical ``view``.  A first disc whose inner side shows less than ``base_edge`` of its edge's
    contrast is no checker: it ends the row and marks the point bare (with `BASE_EDGE`, it is
    the triangle's own base; corners mode also asks for a rim shown plainly, and then with
    ``fit`` measures it on the circle near the disc that fits its rim best).

    Only corners mode looks for bases: a calibrated read learnt every bare base from the start
    frame, and there the test cost two white checkers on white triangles, washed out under a
    lamp (fresh seeds 3,200,002 and 3,200,006: 234 to 232 of 240 exact frames).

    Each point is searched in its own strip of the view (its triangle, with room for a checker
    at its edge and beyond its tip), so one unsure point costs 2 ms, a tenth of the whole view's
    search.

    Discs are looked for about the size of the board's ``checker`` (a calibration's
    `vision.view.Layout.checker`).  Looked for about the canonical size on boards of checkers
    0.8 to 0.95 as wide, the finder took the base of a dark triangle at the frame's edge, as wide
    as the point, for a checker, and a point read empty with a hint of black got one (seeds
    2,700,000 and 2,700,006 of `bench/vision.py`'s smaller checkers; 3 frames of 304 on 40
    fresh set-ups, seeds 8,900,000 on, none lost)."""
    counts = np.zeros(24, np.int64)
    bare = np.zeros(24, np.bool_)
    for point in points:
        strip, discs, depth, on = _on_point(view, point, checker)
        # Checkers stand in a row from the point's edge: a disc counts only as the next of that
        # row.  A disc alone further in is the triangle's tip or the print on the board, and a
        # row's own spacing follows the board's checkers, not the canonical slots.
        edge, reach = 0.0, FIRST
        tip = np.pi / 2 if GEOMETRY.is_top(point) else -np.pi / 2  # the view's y grows downwards
        for index in np.flatnonzero(on)[np.argsort(depth[on])]:
            disc_x, disc_y, disc_radius = discs[index]
            if depth[index] - edge > reach * disc_radius / SCALE:
                break
            if counts[point - 1] and depth[index] - edge < APART * disc_radius / SCALE:
                continue
            # Only the first disc can be the triangle's base; further out a checker's inner side
            # may face one of its own colour.
            if (base_edge and not counts[point - 1]
                    and _inner_edge(_gradients(strip), disc_x, disc_y, disc_radius, tip, fit) < base_edge):
                bare[point - 1] = True
                break
            counts[point - 1] += 1
            edge, reach = depth[index], NEXT
    return Rows(counts, bare)


def recount(kinds: np.ndarray, certainty: np.ndarray, probabilities: np.ndarray,
            discs: Callable[[list[int]], Rows], unsure_below: float,
            hint: float = HINT, dice_at: Iterable[int] = (), sure_empty: float | None = None,
            rim_shows: np.ndarray | None = None, flat_dice_at: Iterable[int] = ()) -> np.ndarray:
    """Every place's kind (128,), each point with a place less sure than ``unsure_below`` given
    as many checkers as the discs found on it (up to five: a second layer's discs hide under
    the first).  Their colour is the one the point was read in; a point read empty is recounted
    only when its places' ``probabilities`` (128, 3 or more) hold at least ``hint`` of a colour
    in all, and takes the likelier.  ``discs`` gives the rows of discs of the points it is
    given, and is asked only when such a point is there.  A point whose only disc at its edge is
    its triangle's bare base is emptied (on the real photos, pale bases read as white checkers);
    one with no disc at all keeps its reading, as the circle finder misses some checkers' rims.

    The points of the places ``dice_at`` (a die lies on them or leans into them) keep their
    reading: a die leaning on a checker makes its point unsure, and its edges beside the
    checker's rim were read as one more disc on some frames and not on others, so a still
    board never gave agreeing frames (two still spells of `bench/stabiliser.py` lost).

    With ``sure_empty`` (a calibrated read, whose places are where the board's checkers stand)
    the discs add a checker only on a place whose probability of being empty is under it, each
    next to the last: a white checker on a pale triangle under a lamp was read unsure, and the
    finder took the triangle's edges and the glare beyond it for a second disc, on a place read
    empty for certain (2 of the 240 frames of seeds 3,300,000 on).  There, too, a point read as
    one checker, unsure, with no disc found is emptied: a lamp's glint on a bare triangle reads as
    an unsure checker, and over five unseen seed ranges 12 of the 14 such points were glints (the
    other two, black checkers on black triangles whose rim the finder missed); on two more
    ranges, looked at after, 7 of 8.  A checker read surely on a point unsure elsewhere (a die's
    shadow over its next places) is no glint, and stays (2026-11-28: `bench/vision.py` 238 to 239
    of 240 exact, seeds 3,400,000 on 236 to 237, 4,600,000 on the same).  And the discs found
    take no checker off a place read surely, nor off any place nearer the edge than one: under a
    lamp's glints the finder saw 2 discs in a row of five black checkers that the model read sure
    but for one place at 0.76 (game 1 of the referee bench, point 1 read as 2 for the rest of the
    game).

    The points of the places ``flat_dice_at`` (a flat die lies on them or beside them) are
    recounted only to empty such a lone unsure checker, which may be the die's own face: the
    die's square edge beside a point was found as a disc, and would add a checker.  On the
    frames with a roll of `bench/vision.py` (1280×960) that put 2 more of 240 right, and kept a
    phantom black checker off a small-checker board (seed 2,700,007 frame 3).

    With ``rim_shows`` ((3, 128) bool: whether a checker of each colour on each place stands out
    from the bare place plainly enough for the finder to see its rim; corners mode), a point read
    as one to four checkers with no disc found where a first checker's rim would show is emptied:
    the drawn empty looks of a board with no calibration are off there, and the circle finder,
    which finds nearly every checker in the real photos' rows, sees nothing.  Where the colours are
    close (a black checker on a black triangle) a missed rim is no sign, and a full row of five
    stays (the finder missed all five of a row under a glint)."""
    kinds = kinds.copy()
    recounted: dict[int, tuple[list[int], int]] = {}  # point -> its places, the colour it was read in
    left = {place // SLOTS + 1 for place in dice_at if place < BAR_START}
    by_a_die = {place // SLOTS + 1 for place in flat_dice_at if place < BAR_START}
    for point in range(1, 25):
        places = [place_index(point, slot) for slot in range(SLOTS)]
        if point in left or certainty[places].min() >= unsure_below:
            continue
        here = kinds[places]
        if point in by_a_die and (sure_empty is None or int((here != EMPTY).sum()) != 1):
            continue
        white, black = float((here == WHITE).sum()), float((here == BLACK).sum())
        if not (white or black):
            white_hint, black_hint = probabilities[places, WHITE].sum(), probabilities[places, BLACK].sum()
            if max(white_hint, black_hint) < hint:
                continue
            white, black = float(white_hint), float(black_hint)
        recounted[point] = places, WHITE if white >= black else BLACK
    if not recounted:
        return kinds
    found = discs(list(recounted))
    for point, (places, colour) in recounted.items():
        many = min(int(found.checkers[point - 1]), SLOTS)
        read = int((kinds[places] != EMPTY).sum())
        if rim_shows is not None and not many and 0 < read < SLOTS and rim_shows[colour, places[0]]:
            kinds[places] = EMPTY  # a rim would show, and none does
            continue
        if sure_empty is not None:
            may_hold = read
            lone = [place for place in places if kinds[place] != EMPTY] if read == 1 else []
            if lone and not many and certainty[lone[0]] < unsure_below:
                # A glint on a bare place (or a die's face), more often than a checker whose rim
                # the finder missed; one read surely is a checker, its point unsure elsewhere.
                kinds[places] = EMPTY
                continue
            if point in by_a_die:
                continue
            # And one more for each next place not surely empty.
            while may_hold < many and probabilities[places[may_hold], EMPTY] < sure_empty:
                may_hold += 1
            many = min(many, may_hold)
            # Nor fewer than reach the furthest place surely read in the point's colour: the
            # checkers stand in a row from the edge.
            sure = [slot for slot, place in enumerate(places)
                    if kinds[place] == colour and certainty[place] >= unsure_below]
            if sure and many:
                many = max(many, sure[-1] + 1)
        if many or found.bare[point - 1]:
            kinds[places] = EMPTY
            kinds[places[:many]] = colour
    return kinds
