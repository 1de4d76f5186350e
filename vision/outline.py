"""Find the playing area in a frame of the starting position, with no help from the user.

The start position is its own calibration target: four points hold five
checkers each, in two straight rows of touching discs across the board, one
pair on the outer columns and one pair beside the bar.  Circles found in the
frame are linked into straight runs of touching discs; the four runs of five
fix a homography from the canonical board (8 points), which the other fourteen
start checkers confirm and refine.  The corners come back in some order; the
calibration decides which is which from the checkers' colours, and then fits
them to the board's own triangles (`fit_to_triangles`).
"""

from __future__ import annotations

import itertools
import math
from functools import lru_cache

import cv2
import numpy as np

from engine.position import Position
from engine.wording import plural
from vision.discs import edge_share, find_discs
from vision.geometry import BoardGeometry, FloatArray
from vision.view import Image

GEOMETRY = BoardGeometry()
#: Start checkers a homography must put on found circles to be believed (of 30).
ENOUGH = 20
#: The search tries the start's four fives among this many runs of five, the likeliest first
#: (`_row_cost`), and pairs of rows among this many runs of four or five.  A striped tablecloth
#: gave 175 runs of five: every four of them would have taken hours.  Over 70 start frames the
#: true fives always ranked among the first four (`tests/vision/test_outline.py`).
MOST_FIVES = 10
#: Start checkers a two-row homography must confirm before other checker sizes are left untried.
NEARLY_ALL = 28
MOST_ROWS = 14
#: The search looks at frames shrunk to this short side at most.  At 2028x1520 (the Pi HQ
#: camera's binned mode) it missed the start rows of 3 of 70 boards (seeds 2,000 on and
#: 4,200,000 on; the circle finder's thresholds grow with the radius), and took a median 0.9 to
#: 1.8 s against 0.4 s shrunk, where it found all 70.
SEARCH_SHORT = 960
#: A frame with more of its pixels on an edge than this, in a colour channel as the circle finder
#: sees it (`vision.discs.edge_share`), is refused before the circle finder runs: it is noise or a
#: pattern no board's checkers can be picked out of.  The circle finder and the search grow with the
#: edges: a 2028x1520 frame of random noise (20 % edges) took 185 s to be refused.  The real
#: photos' frames are 3 to 6 % edges (1280x720 tournament streams), 200 phone photos of dice under
#: 3 %, 310 rendered start frames under 2.5 %.
MOST_EDGES = 0.1


class OutlineError(ValueError):
    """No board in the starting position was found in the frame."""


def _runs(centres: FloatArray, radius: float) -> list[list[int]]:
    """Maximal straight runs of touching discs (centre spacing about one diameter)."""
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
    linked = (gaps > 1.3 * radius) & (gaps < 3.0 * radius)

    def extend(path: list[int]) -> list[int]:
        while True:
            direction = centres[path[-1]] - centres[path[-2]]
            options = [int(k) for k in np.flatnonzero(linked[path[-1]]) if k not in path
                       and _angle(direction, centres[k] - centres[path[-1]]) < 0.5]
            if not options:
                return path
            path.append(min(options, key=lambda k: _angle(direction, centres[k] - centres[path[-1]])))

    runs = set()
    for i, j in zip(*np.nonzero(linked), strict=True):
        run = extend(extend([int(j), int(i)])[::-1])
        runs.add(tuple(run) if run[0] < run[-1] else tuple(run[::-1]))
    return [list(run) for run in runs]


def _windows(runs: list[list[int]], length: int) -> list[list[int]]:
    """Every stretch of ``length`` circles in the runs: stray circles in the gap or on the bar can
    join two rows into one long run, and the true rows are stretches of it."""
    return [run[i:i + length] for run in runs for i in range(len(run) - length + 1)]


def _row_cost(frame: Image, circles: FloatArray, row: list[int]) -> float:
    """How unlike a row of touching checkers of one colour the circles ``row`` are (0: exactly).

    Four terms, each about 0 for a true row and 1 for a poor one: the spread of the gaps between
    centres, how far the gaps are from one diameter, how far the centres stray from a line, and
    how much the colours at their centres differ.
    """
    centres, radii = circles[row, :2], circles[row, 2]
    gaps = np.linalg.norm(np.diff(centres, axis=0), axis=1)
    spacing = float(gaps.std() / gaps.mean())
    touching = abs(float(gaps.mean()) / (2 * float(np.median(radii))) - 1)
    along = centres[-1] - centres[0]
    normal = np.array([-along[1], along[0]]) / (np.linalg.norm(along) + 1e-9)
    straight = float(np.abs((centres - centres[0]) @ normal).max() / gaps.mean())
    height, width = frame.shape[:2]
    faces = []
    for (x, y), radius in zip(centres, radii, strict=True):
        reach = max(1, int(radius * 0.4))
        x0, y0 = min(max(int(x), 0), width - 1), min(max(int(y), 0), height - 1)
        patch = frame[max(0, y0 - reach):y0 + reach + 1, max(0, x0 - reach):x0 + reach + 1]
        faces.append(patch.reshape(-1, 3).mean(axis=0))
    colour = float(np.std(np.array(faces), axis=0).mean()) / 40
    return spacing + touching + straight + colour


def _likeliest(frame: Image, circles: FloatArray, rows: list[list[int]], most: int) -> list[list[int]]:
    """The ``most`` rows likeliest to be rows of start checkers, best first."""
    return sorted(rows, key=lambda row: _row_cost(frame, circles, row))[:most]


def _angle(a: FloatArray, b: FloatArray) -> float:
    cosine = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-9))
    return math.acos(max(-1.0, min(1.0, cosine)))


#: The checker sizes (canonical px) the search tries: real boards' checkers are often smaller
#: than a fifth of a triangle (0.79 to 0.94 of that on 13 real photos), and a homography that
#: puts a row of smaller checkers on the canonical slots stretches the board to fit them.
CHECKERS = tuple(GEOMETRY.checker * share for share in (0.8, 0.825, 0.85, 0.875, 0.9, 0.925, 0.95,
                                                        0.975, 1.0, 1.025, 1.05))


@lru_cache(maxsize=len(CHECKERS))
def start_centres(checker: float = GEOMETRY.checker) -> dict[int, FloatArray]:
    """Canonical centres of the start position's checkers, by point, for checkers ``checker`` across."""
    start, geometry = Position.start(), GEOMETRY.sized(checker)
    return {point: np.array([geometry.slot_centre(point, slot) for slot in range(abs(start.at(point)))])
            for point in range(1, 25) if start.at(point)}


START_CENTRES = start_centres()
#: A found homography: how many start checkers it confirms, it, and the checker size it assumed.
Found = tuple[int, FloatArray, float]

#: How many homographies `_search` may try at one radius, at most: each four of the likeliest
#: fives, placed 12 ways (`_hypotheses`), then each size of `CHECKERS` for each pair of the
#: likeliest rows, the pair on 8 ordered pairs of fives not on one line, a row of four on 2
#: places of a five and each row either way round (`_two_rows`).
TRIES = math.comb(MOST_FIVES, 4) * 12 + len(CHECKERS) * math.comb(MOST_ROWS, 2) * 8 * 4 * 4


def chance_boards(circles: FloatArray, radius: float, frame_size: tuple[int, int]) -> float:
    """How many of `TRIES` homographies would confirm `ENOUGH` start checkers by chance alone,
    where ``circles`` (found at about ``radius``) are as found but no board is there (expected).

    A homography from two rows of five confirms their 10 checkers itself; each other start
    checker is confirmed where it lands within half a radius of a circle (`_confirm`), which a
    checker put anywhere does with the chance ``p``, the share of the frame that near a circle.
    So one homography reaches `ENOUGH` by chance with P(Binomial(20, p) >= ENOUGH - 10), and the
    search tries `TRIES` of them.  The search is evidence of a board only while this stays under
    one: a start frame's circles cover a few hundredths (under 0.08 on the real photos, where
    this gives at most 0.05), the circles the finder sees everywhere in noise blurred just under
    `MOST_EDGES` a fifth (755 of them at 2028x1520: this gives about 1,000, and indeed the search
    took minutes there and came back with a homography confirming 20 checkers by chance, a board
    the calibration refused only after).  The chance is at most this: a checker projected outside the
    frame lands on no circle, and one circle confirms one checker."""
    width, height = frame_size
    near = np.zeros((height, width), np.uint8)
    for x, y in circles[:, :2]:
        cv2.circle(near, (round(float(x)), round(float(y))), max(1, round(0.5 * radius)), 1, -1)
    p = float(near.mean())
    others, wanted = 30 - 10, ENOUGH - 10
    once = sum(math.comb(others, k) * p ** k * (1 - p) ** (others - k) for k in range(wanted, others + 1))
    return TRIES * once


def find_corners(frame: Image) -> FloatArray:
    """The playing area's four corners (camera px, in order round the board) in a start-position frame."""
    shrink = min(1.0, SEARCH_SHORT / min(frame.shape[:2]))
    small: Image = frame
    if shrink < 1.0:
        small = np.asarray(cv2.resize(frame, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA),
                           np.uint8)
    edges = edge_share(small)
    if edges > MOST_EDGES:
        raise OutlineError(f"no board found: {edges:.0%} of the frame is edges, as in noise or a busy "
                           f"pattern (a board's frame has under {MOST_EDGES:.0%}): too many to pick checkers "
                           "out of; give the corners with --corners")
    height, width = small.shape[:2]
    short = min(width, height)
    circles = find_discs(small, 0.012 * short, 0.05 * short)
    if len(circles) < 20:
        raise OutlineError(f"no board found: only {plural(len(circles), 'round shape')} in the frame, the "
                           "starting position has 30 checkers")
    best: Found | None = None
    fives = 0
    for radius in _likely_radii(circles[:, 2]):
        near = find_discs(small, 0.7 * radius, 1.35 * radius)
        chance = chance_boards(near, float(np.median(near[:, 2])), (width, height)) if len(near) else 0.0
        if chance >= 1:
            # Whatever the search found, chance would have found as well.  This falls where a
            # tenth of the frame lies within half a radius of a circle: touching circles give
            # 0.23, so it takes them packed over half the frame, where no board's start can be
            # (its checkers are a sixth of the playing area).  The larger radii are then the
            # pattern's larger circles: on blurred noise the next one's search took 20 s more to
            # find nothing, and with circles everywhere the search is at its slowest (2 min at
            # this radius), a bound on the search's work that a board never meets.
            raise OutlineError(f"no board found: round shapes {2 * radius / shrink:.0f} px across are "
                               f"everywhere ({len(near)} of them), as in noise or a busy pattern: start "
                               "checkers would fall on them by chance wherever a board was supposed; give "
                               "the corners with --corners")
        found, rows = _search(small, near)
        fives = max(fives, rows)
        if found is not None:
            best = _better(best, found)
        # Enough checkers confirmed at one radius make a board, but not always the board: at
        # the likeliest radius of a board seen at 45 degrees (seed 6,400,014 of bench/vision.py)
        # the true rows were not among the likeliest, and a chance alignment confirmed 20; the
        # next radius found the board with 29.  So only nearly all of them end the search early.
        if best is not None and best[0] >= NEARLY_ALL:
            break
    if best is None or best[0] < ENOUGH:
        found_checkers = 0 if best is None else best[0]
        raise OutlineError(f"no board in the starting position found: {plural(fives, 'row')} of five "
                           f"touching checkers and at best {found_checkers} of the 30 start checkers where "
                           "they belong; give the corners with --corners")
    matrix = np.diag([1 / shrink, 1 / shrink, 1.0]) @ _refine(small, best[1], best[2])
    corners = cv2.perspectiveTransform(GEOMETRY.corners().reshape(-1, 1, 2), matrix).reshape(4, 2)
    return np.asarray(corners, np.float64)


def fit_to_triangles(frame: Image, corners: FloatArray) -> FloatArray:
    """``corners`` (TL, TR, BR, BL of the numbering, of a start-position frame) moved to where the
    board's triangles put them (`_fit_triangles`): found by `find_corners` or given by a user,
    they are good to a few pixels; fitted, to about one, in the full frame."""
    canonical = GEOMETRY.corners()
    matrix = cv2.getPerspectiveTransform(canonical.astype(np.float32), np.asarray(corners, np.float32))
    fitted = _fit_triangles(frame, np.asarray(matrix, np.float64))
    return np.asarray(cv2.perspectiveTransform(canonical.reshape(-1, 1, 2), fitted).reshape(4, 2), np.float64)


def _likely_radii(radii: FloatArray) -> list[float]:
    """The checker radii to search at, likeliest first: the median of the first pass's circles,
    then its upper quartile and 90th percentile where those differ from every radius before by a
    fifth.  The first pass also finds small round shapes, and where they outnumber the checkers
    the median is theirs: a noisy JPEG of checkers with a raised inner ring gave 126 circles,
    their median 17 px against the checkers' 29 (seed 3,500,012 of bench/vision.py)."""
    tried: list[float] = []
    for radius in np.percentile(radii, [50, 75, 90]):
        if all(abs(radius / before - 1) > 0.2 for before in tried):
            tried.append(float(radius))
    return tried


def _search(frame: Image, circles: FloatArray) -> tuple[Found | None, int]:
    """The best homography found from ``circles``, found at about a checker's radius (how many
    start checkers it confirms, it and the checkers' size it assumed), and how many runs of five
    it started from."""
    if len(circles) < 8:
        return None, 0
    # The first pass also counts small round blobs; the second pass's circles are mostly checkers.
    radius = float(np.median(circles[:, 2]))
    centres = circles[:, :2]
    runs = _runs(centres, radius)
    fives = _likeliest(frame, circles, _windows(runs, 5), MOST_FIVES)
    best: Found | None = None
    for four in itertools.combinations(fives, 4):
        for matrix, checker in _hypotheses(centres, list(four)):
            best = _better(best, _confirm(matrix, centres, radius, checker))
    if best is None or best[0] < ENOUGH:
        # A checker the circle finder missed shortens a row to four: any two rows, each placed as
        # any of the fives, fix a homography the other checkers can confirm.  Two rows do not
        # tell the checkers' size: the canonical size is tried first, and where it puts nearly
        # every start checker on a circle (`NEARLY_ALL`) the others are not; otherwise every size
        # of `CHECKERS` is, and the one confirming the most checkers stands.  All eleven on every
        # board made a canonical board's search 10 s instead of 1; stopping at the first size to
        # confirm `ENOUGH` took a stretched board of canonical checkers for one of checkers 0.85
        # as wide (test seed 40), and six sizes instead of eleven missed a board of 0.85.
        rows = _likeliest(frame, circles, _windows(runs, 4) + fives, MOST_ROWS)
        for checker in sorted(CHECKERS, key=lambda size: abs(size - GEOMETRY.checker)):
            for pair in itertools.combinations(rows, 2):
                for matrix in _two_rows(centres, pair, checker):
                    best = _better(best, _confirm(matrix, centres, radius, checker))
            if checker == GEOMETRY.checker and best is not None and best[0] >= NEARLY_ALL:
                break
    return best, len(fives)


#: The refinement looks at the board at this many pixels per nominal canonical pixel.
REFINE_SCALE = 0.5
#: How far (nominal px) a checker may sit from where the first homography puts it.
REFINE_REACH = 16


def _ring(radius: float) -> np.ndarray:
    size = int(2 * radius + 9)
    ring = np.zeros((size, size), np.float32)
    cv2.circle(ring, (size // 2, size // 2), round(radius), 1.0, 2, cv2.LINE_AA)
    return ring


def _refine(frame: Image, matrix: FloatArray, checker: float = GEOMETRY.checker, rounds: int = 2,
            ) -> FloatArray:
    """Sharpen a homography: in the board seen upright, checkers are circles of known size.

    Hough centres wander by a few pixels on dark checkers; a few pixels at the checkers are
    many at the far corners.  Each round warps the frame upright, finds every start checker's
    edge ring near where it should be, and refits the homography to those centres.
    """
    source = np.concatenate(list(start_centres(checker).values()))
    ring = _ring(checker / 2 * 0.97 * REFINE_SCALE)
    half = ring.shape[0] // 2
    reach = round(REFINE_REACH * REFINE_SCALE)
    for _ in range(rounds):
        scale = np.diag([REFINE_SCALE, REFINE_SCALE, 1.0])
        upright_from_camera = scale @ np.linalg.inv(matrix)
        width, height = (round(v * REFINE_SCALE) for v in GEOMETRY.size)
        upright = cv2.warpPerspective(frame, upright_from_camera, (width, height))
        grey = cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY).astype(np.float32)
        edges = cv2.magnitude(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
        found = []
        side = ring.shape[0] + 2 * reach
        for x, y in source * REFINE_SCALE:
            x0, y0 = round(x) - half - reach, round(y) - half - reach
            if x0 < 0 or y0 < 0 or x0 + side > width or y0 + side > height:
                found.append((x, y))
                continue
            window = edges[y0:y0 + side, x0:x0 + side]
            score = cv2.matchTemplate(window, ring, cv2.TM_CCORR_NORMED)
            _, _, _, (bx, by) = cv2.minMaxLoc(score)
            found.append((x0 + bx + half, y0 + by + half))
        seen = np.array(found, np.float64) / REFINE_SCALE
        camera = cv2.perspectiveTransform(seen.reshape(-1, 1, 2), matrix).reshape(-1, 2)
        refitted, _ = cv2.findHomography(source, camera, cv2.RANSAC, 6.0)
        if refitted is None:
            break
        matrix = np.asarray(refitted, np.float64)
    return matrix


#: The triangle fit looks at the board and this much of its frame (canonical px) all round.
FIT_MARGIN = 40
#: Region labels of the triangle fit's model of the board.
_DARK_OR_LIGHT = (0, 1)  # the two triangle colours, by `BoardGeometry.parity`
_WOOD, _FRAME = 2, 3
#: The triangle fit's high-pass (model px; a point is 50 wide) and the weight of brightness
#: (log L) against the colour (Lab's a and b) in its colour distance.
FIT_SIGMA = 8.0
SHADE_WEIGHT = 40.0


def _board_model() -> np.ndarray:
    """The canonical board at `REFINE_SCALE` with `FIT_MARGIN` round it, each pixel labelled
    with its region: a triangle of either colour, the playing area's wood, or the frame."""
    width, height = (round((v + 2 * FIT_MARGIN) * REFINE_SCALE) for v in GEOMETRY.size)
    labels = np.full((height, width), _FRAME, np.uint8)

    def polygon(points: FloatArray) -> np.ndarray:
        # 4 fractional bits: the triangles' slanted edges land where they belong, not on whole pixels.
        return np.round((np.asarray(points) + FIT_MARGIN) * REFINE_SCALE * 16).astype(np.int32)

    cv2.fillPoly(labels, [polygon(GEOMETRY.corners())], _WOOD, cv2.LINE_8, 4)
    for point in range(1, 25):
        cv2.fillPoly(labels, [polygon(GEOMETRY.triangle(point))], _DARK_OR_LIGHT[GEOMETRY.parity(point)],
                     cv2.LINE_8, 4)
    return labels


BOARD_MODEL = _board_model()
#: Canonical px to the model's pixels.
_TO_MODEL = np.array([[REFINE_SCALE, 0, FIT_MARGIN * REFINE_SCALE],
                      [0, REFINE_SCALE, FIT_MARGIN * REFINE_SCALE], [0, 0, 1]])


def _usable() -> np.ndarray:
    """255 where the fit compares the frame with the model: not on the bar, whose width varies
    between boards, nor on a start checker."""
    height, width = BOARD_MODEL.shape
    usable = np.full((height, width), 255, np.uint8)
    bar_x0, _, bar_x1, _ = GEOMETRY.bar_box()
    cv2.rectangle(usable, (int((bar_x0 + FIT_MARGIN - 20) * REFINE_SCALE), 0),
                  (int((bar_x1 + FIT_MARGIN + 20) * REFINE_SCALE), height), 0, -1)
    for x, y in np.concatenate(list(START_CENTRES.values())):
        cv2.circle(usable, (round((x + FIT_MARGIN) * REFINE_SCALE), round((y + FIT_MARGIN) * REFINE_SCALE)),
                   round((GEOMETRY.checker / 2 + 12) * REFINE_SCALE), 0, -1)
    return usable


FIT_USABLE = _usable()


def _fit_triangles(frame: Image, matrix: FloatArray) -> FloatArray:
    """Sharpen a homography on the board's triangles, which are printed where the geometry says.

    The checkers are not: each lies a few pixels from its slot, and the corners are extrapolated
    from them, so a homography fitted to them alone put the far corners a median 2.6 px and up to
    12 px off on 30 start frames of seeds 4,200,000 on (1280x960), enough to read a checker at
    the corner on the wrong place.  Here the frame is warped upright with a margin of frame round
    it, turned into each pixel's colour distance from the playing area's wood (so light and dark
    triangles both stand out, whichever is nearer the wood in brightness), and aligned with ECC
    to a model of the board whose regions take that image's own median levels.  The start
    checkers and the bar (whose width varies between boards) are masked out.  A fit that fails
    or correlates worse than the start is ignored.
    """
    height, width = BOARD_MODEL.shape
    upright = cv2.warpPerspective(frame, _TO_MODEL @ np.linalg.inv(matrix), (width, height))
    lab = cv2.cvtColor(upright, cv2.COLOR_BGR2Lab).astype(np.float32)
    # Shade and light multiply the brightness: taken as a log and less its surroundings, a
    # shadow or a lamp's pool leaves the triangles' pattern as it was.
    lab[..., 0] = SHADE_WEIGHT * np.log(lab[..., 0] + 8)
    lab[..., 0] -= cv2.GaussianBlur(lab[..., 0], (0, 0), 2 * FIT_SIGMA)
    wood = np.median(lab[(BOARD_MODEL == _WOOD) & (FIT_USABLE > 0)], axis=0)
    seen = cv2.GaussianBlur(np.linalg.norm(lab - wood, axis=2), (0, 0), 1.0)
    model = np.zeros_like(seen)
    for region in (*_DARK_OR_LIGHT, _WOOD, _FRAME):
        where = np.equal(BOARD_MODEL, region)
        model[where] = np.median(seen[where & (FIT_USABLE > 0)])
    # Only the edges are compared: what is left of a shadow's slow change is taken out of both.
    seen -= cv2.GaussianBlur(seen, (0, 0), FIT_SIGMA)
    model -= cv2.GaussianBlur(model, (0, 0), FIT_SIGMA)
    try:
        before = cv2.computeECC(model, seen, FIT_USABLE)
        after, warp = cv2.findTransformECC(model, seen, np.eye(3, dtype=np.float32), cv2.MOTION_HOMOGRAPHY,
                                           (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 100, 1e-5),
                                           FIT_USABLE, 5)
    except cv2.error:
        return matrix  # ECC did not converge: the checkers' homography stands
    if not after > before:
        return matrix
    # The model's pixel x lies at warp(x) in the upright image, which the old homography maps on.
    correction = np.linalg.inv(_TO_MODEL) @ np.asarray(warp, np.float64) @ _TO_MODEL
    return np.asarray(matrix @ correction, np.float64)


def _better(best: Found | None, candidate: Found) -> Found:
    return candidate if best is None or candidate[0] > best[0] else best


def _two_rows(centres: FloatArray, rows: tuple[list[int], list[int]], checker: float) -> list[FloatArray]:
    """Homographies for each way two rows of four or five can lie on two of the start's fives,
    of checkers ``checker`` across."""
    placings = [_placings(row) for row in rows]
    start = start_centres(checker)
    out = []
    for first, second in itertools.permutations((13, 12, 19, 6), 2):
        if BoardGeometry.column(first) == BoardGeometry.column(second):
            continue  # two rows on one line fix no homography
        for (a_slots, a_row), (b_slots, b_row) in itertools.product(*placings):
            source = np.concatenate([start[first][a_slots], start[second][b_slots]])
            target = np.concatenate([centres[a_row], centres[b_row]])
            matrix, _ = cv2.findHomography(source, target)
            if matrix is not None:
                out.append(np.asarray(matrix, np.float64))
    return out


def _fitted(target: FloatArray) -> tuple[FloatArray, float] | None:
    """The homography from the start's four fives (`_fives`) to ``target`` (camera px, the same
    order) for the checker size of `CHECKERS` that fits them best (the least squared error), and that
    size.  The four fives lie on two lines across the board, one pair each, and the gap between
    a pair's inner ends against the rows' length tells the checkers' size."""
    best: tuple[float, FloatArray, float] | None = None
    for checker in CHECKERS:
        source = _fives(checker)
        matrix, _ = cv2.findHomography(source, target)
        if matrix is None:
            continue
        moved = cv2.perspectiveTransform(source.reshape(-1, 1, 2), matrix).reshape(-1, 2)
        error = float(np.square(moved - target).sum())
        if best is None or error < best[0]:
            best = (error, np.asarray(matrix, np.float64), checker)
    return None if best is None else (best[1], best[2])


def _placings(row: list[int]) -> list[tuple[slice, list[int]]]:
    """The slots a row may fill on a five (from the edge), each with the row in that direction."""
    spare = 5 - len(row)
    return [(slice(start, start + len(row)), ordered) for start in range(spare + 1)
            for ordered in (row, row[::-1])]


def _hypotheses(centres: FloatArray, runs: list[list[int]]) -> list[tuple[FloatArray, float]]:
    """Homographies canonical → camera, each with the checker size it fits best (`_fitted`), for
    each way the four runs can be the start's four fives."""
    out = []
    for first, second in (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))):
        pairs = [[runs[i] for i in first], [runs[i] for i in second]]
        if not all(_collinear(centres, a, b) for a, b in pairs):
            continue
        # In each collinear pair the inner ends face each other across the middle strip.
        oriented = [[_outward(centres, a, b), _outward(centres, b, a)] for a, b in pairs]
        for outer_pair, bar_pair in (oriented, oriented[::-1]):
            for top_outer in range(2):
                # The top runs of both pairs start on the same edge: pick the bar pair's nearer run.
                a_top = outer_pair[top_outer]
                bar_top = min(bar_pair, key=lambda run: math.dist(centres[run[0]], centres[a_top[0]]))
                bar_bottom = bar_pair[1] if bar_top is bar_pair[0] else bar_pair[0]
                target = np.concatenate([centres[a_top], centres[outer_pair[1 - top_outer]],
                                         centres[bar_top], centres[bar_bottom]])
                fitted = _fitted(target)
                if fitted is not None:
                    out.append(fitted)
    return out


def _fives(checker: float) -> FloatArray:
    """The start's four rows of five (points 13, 12, 19 and 6) for checkers ``checker`` across."""
    start = start_centres(checker)
    return np.concatenate([start[13], start[12], start[19], start[6]])


def _collinear(centres: FloatArray, a: list[int], b: list[int]) -> bool:
    da = centres[a[-1]] - centres[a[0]]
    db = centres[b[-1]] - centres[b[0]]
    if min(_angle(da, db), _angle(da, -db)) > 0.2:
        return False
    normal = np.array([-da[1], da[0]]) / (np.linalg.norm(da) + 1e-9)
    offset = abs(float(np.dot(centres[b].mean(0) - centres[a].mean(0), normal)))
    return offset < 0.25 * float(np.linalg.norm(da))


def _outward(centres: FloatArray, run: list[int], other: list[int]) -> list[int]:
    """``run`` ordered from the board's edge inwards: its far end from ``other`` first."""
    middle = centres[other].mean(0)
    if math.dist(centres[run[0]], middle) < math.dist(centres[run[-1]], middle):
        return run[::-1]
    return run


def _confirm(matrix: FloatArray, centres: FloatArray, radius: float, size: float = GEOMETRY.checker,
             ) -> Found:
    """How many start checkers (``size`` across) a homography puts on a found circle, the
    homography refit to them, and ``size``.

    A homography fixed by a few rows is good near them and off by a radius or more across the
    board (two rows on parallel lines tell little of the perspective between them), so the
    checkers it confirms are fitted again and the rest looked for where the refit puts them,
    until no more are found: on a blurred board seen at 45 degrees (seeds 6,400,000 and
    6,400,014 of bench/vision.py) the true board's two rows first confirmed fewer checkers than a
    chance alignment's 20, and the calibration then refused the frame."""
    source = np.concatenate(list(start_centres(size).values()))
    pairs = _pairs(source, matrix, centres, radius)
    while len(pairs) >= 8:
        refined, _ = cv2.findHomography(source[list(pairs)], centres[list(pairs.values())])
        if refined is None:
            break
        more = _pairs(source, np.asarray(refined, np.float64), centres, radius)
        matrix = np.asarray(refined, np.float64)
        if len(more) <= len(pairs):
            break
        pairs = more
    return len(pairs), matrix, size


def _pairs(source: FloatArray, matrix: FloatArray, centres: FloatArray, radius: float) -> dict[int, int]:
    """Each start checker of ``source`` that ``matrix`` puts within half a radius of a found
    circle, with that circle."""
    projected = cv2.perspectiveTransform(source.reshape(-1, 1, 2), matrix).reshape(-1, 2)
    gaps = np.linalg.norm(projected[:, None] - centres[None], axis=-1)
    # One circle stands for one checker: a homography that folds the board onto a few circles
    # must not score by matching them many times.
    pairs: dict[int, int] = {}
    for flat in np.argsort(gaps, axis=None):
        checker, circle = divmod(int(flat), len(centres))
        if gaps[checker, circle] >= 0.5 * radius:
            break
        if checker not in pairs and circle not in pairs.values():
            pairs[checker] = circle
    return pairs
