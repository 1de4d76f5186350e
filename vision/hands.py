"""Hands over the board, seen by networks trained on real hands.

The checker reader learnt what a hand looks like from the synthetic renderer's arms (its
*covered* class), and corners mode, with no learned looks to compare, has no such class at
all: the three labelled real photos with a hand or an arm over the board were all read
``ok``, and 15 of their 72 points wrong.  A real hand is best seen by networks trained on
real hands: MediaPipe's hand pipeline, in two stages, each a network taken unchanged from
the mediapipe 0.10.18 wheel on PyPI (Apache-2.0, its licence and origin in
``vision/data/NOTICE.md``) and run by OpenCV's own dnn, so nothing new is installed.

1. The *palm detector* (``palm_detection_full.tflite``) proposes palms: a single-shot
   detector over a 192 x 192 picture (RGB scaled to 0..1, letterboxed on black), 2,016 anchors
   on a 24 x 24 grid (two a cell) and a 12 x 12 grid (six a cell), each with a score, a box and
   seven keypoints offset from the anchor in input pixels.  A palm, not a hand: it is rigid
   and square, so one box fits it at any angle.
2. The *hand landmark model* (``hand_landmark_full.tflite``) confirms one: it sees a 224 x 224
   crop round the palm, turned so that the fingers point up and grown to hold the whole hand,
   and says how surely a hand is there (its *presence*), and where its 21 landmarks are, of
   which the five fingertips are used: a hand whose palm rests beside the playing area may
   have its fingers on the checkers.

Alone, the palm detector took a row of skin-coloured checkers beside the cube for a palm
(scores up to 0.75, the demo's board), where real hands over a board scored from 0.72; the
landmark model gave those rows a presence of 0.15 at most, and every real hand 0.91 or more.

The two take about 30 ms, and 20 ms more a palm proposed, on one core here (`bench/hands.py`),
several frames' reading, so a live camera asks them only of a board at rest about to be
trusted (`vision.observation.Observer`); a photo is asked every time.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import FloatArray
from vision.view import PLACE_CENTRES, PLACES, Image, on_board_units

DATA = Path(__file__).parent / "data"
PALM_FILE = "palm_detection_full.tflite"
HAND_FILE = "hand_landmark_full.tflite"
#: The palm detector's input side, and the landmark model's, in pixels.
PALM_INPUT = 192
HAND_INPUT = 224
#: The palm detector's anchor grids: (cells a side, anchors a cell); the 12 x 12 grid's six
#: come from three layers of stride 16 merged.
GRIDS = ((24, 2), (12, 6))
#: Boxes overlapping more than this (intersection over union) are one palm seen twice.
SAME_PALM = 0.3
#: The landmark model's crop round a palm: this many palm sides, centred this many sides from
#: the palm towards the fingers (MediaPipe's own rule, so that the whole hand is in it).
HAND_SPAN = 2.6
HAND_SHIFT = 0.5
#: The landmark model's fingertips among its 21 landmarks: thumb, index, middle, ring, little.
FINGERTIPS = (4, 8, 12, 16, 20)
#: Palms are asked about whose centre lies within this many palm sides outside the playing
#: area: on rendered and real hands the fingertips lay 0.9 to 1.1 sides from the palm's centre.
REACH = 1.5

Network = Callable[[np.ndarray], list[np.ndarray]]


class HandModelError(FileNotFoundError):
    """A hand network's file is missing or unreadable."""


@dataclass(frozen=True, slots=True)
class Palm:
    """A palm proposed in a frame, in frame pixels: the detector's score (0..1), its box's
    centre and side, the wrist and the middle finger's knuckle; and, once asked of the landmark
    model (`confirm`), how surely a hand is there and where its five fingertips are."""

    score: float
    centre: tuple[float, float]
    side: float
    wrist: tuple[float, float]
    knuckle: tuple[float, float]
    presence: float = 0.0
    tips: tuple[tuple[float, float], ...] = ()

    def moved(self, dx: float, dy: float) -> Palm:
        def by(point: tuple[float, float]) -> tuple[float, float]:
            return point[0] + dx, point[1] + dy

        return replace(self, centre=by(self.centre), wrist=by(self.wrist), knuckle=by(self.knuckle),
                       tips=tuple(by(tip) for tip in self.tips))


@dataclass(frozen=True, slots=True)
class HandConfig:
    #: Palms the detector scores at least this are proposed.  Real hands over a board scored
    #: 0.36 (a motion-blurred one) to 0.95; the landmark model decides (``min_presence``).
    min_score: float = 0.3
    #: The best this many palms over the board or within reach of it (`REACH`) are asked of the
    #: landmark model.
    proposals: int = 2
    #: A palm whose hand the landmark model sees this surely is a hand.  On the real photos of
    #: `bench/hands.py` every hand over a board gave 0.91 or more (a motion-blurred one), and
    #: the palms proposed over clear boards 0.003 at most; rows of skin-coloured checkers the
    #: palm detector scored up to 0.75 on the demo's board gave 0.15 at most.
    min_presence: float = 0.8
    #: The picture asked is the playing area's bounding box grown by this share of its size
    #: on every side: an arm reaches in over the rim, and its palm may be half outside.
    margin: float = 0.15


def anchors() -> FloatArray:
    """The palm detector's anchor centres (2016, 2), in input shares (0..1), in its output
    order: row by row, column by column, the anchors of a cell together."""
    centres = []
    for cells, per_cell in GRIDS:
        steps = (np.arange(cells) + 0.5) / cells
        ys, xs = np.meshgrid(steps, steps, indexing="ij")
        grid = np.stack([xs.ravel(), ys.ravel()], axis=1)
        centres.append(np.repeat(grid, per_cell, axis=0))
    return np.concatenate(centres).astype(np.float64)


ANCHORS = anchors()


@cache
def _network(path: Path, outputs: tuple[str, ...]) -> Network:
    """The TFLite network at ``path`` as a function of its input batch (1, 3, side, side)."""
    if not path.is_file():
        raise HandModelError(f"the hand network {path} is missing: reinstall pipgammon")
    try:
        # OpenCV 5's new engine returns only the first output; its classic engine (OpenCV 4's
        # only one) returns all that are asked, from one pass.
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        net = cv2.dnn.readNetFromTFLite(str(path)) if engine is None else cv2.dnn.readNetFromTFLite(
            str(path), engine=engine)
    except cv2.error as err:
        raise HandModelError(f"the hand network {path} cannot be loaded: {err}") from err

    # One network serves every caller: the service's loop asks it of a board at rest while the
    # dashboard's thread may be calibrating, and an OpenCV net's input is state of its own.
    lock = threading.Lock()

    def forward(batch: np.ndarray) -> list[np.ndarray]:
        with lock:
            net.setInput(batch)
            return [np.asarray(out) for out in net.forward(list(outputs))]

    return forward


def _input(square: Image) -> np.ndarray:
    """A BGR square as the networks' input batch: RGB scaled to 0..1, channels first."""
    rgb = cv2.cvtColor(square, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0
    return np.ascontiguousarray(rgb.transpose(2, 0, 1)[None])


def find_palms(picture: Image, min_score: float, data: Path = DATA) -> list[Palm]:
    """The palms in a BGR ``picture`` the detector scores at least ``min_score``, best first,
    in its pixels (not yet confirmed)."""
    height, width = picture.shape[:2]
    scale = PALM_INPUT / max(height, width)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    left, top = (PALM_INPUT - size[0]) // 2, (PALM_INPUT - size[1]) // 2
    square = np.zeros((PALM_INPUT, PALM_INPUT, 3), np.uint8)
    square[top:top + size[1], left:left + size[0]] = cv2.resize(picture, size, interpolation=cv2.INTER_AREA)
    boxes, logits = _network(data / PALM_FILE, ("Identity", "Identity_1"))(_input(square))
    scores = 1.0 / (1.0 + np.exp(-np.clip(logits[0, :, 0].astype(np.float64), -100.0, 100.0)))

    def at(i: int, column: int) -> tuple[float, float]:
        # Offsets are in input pixels from the anchor; keypoint k is at columns 4 + 2k.
        x, y = ANCHORS[i] * PALM_INPUT + boxes[0, i, column:column + 2]
        return float((x - left) / scale), float((y - top) / scale)

    found: list[Palm] = []
    for i in np.argsort(-scores):
        if scores[i] < min_score:
            break
        side = float(max(boxes[0, i, 2], boxes[0, i, 3])) / scale  # a palm's box is square
        palm = Palm(float(scores[i]), at(i, 0), side, at(i, 4), at(i, 8))
        if all(_overlap(palm, kept) <= SAME_PALM for kept in found):
            found.append(palm)
    return found


def _overlap(one: Palm, other: Palm) -> float:
    """Intersection over union of two palms' square boxes."""
    common = 1.0
    for axis in (0, 1):
        low = max(one.centre[axis] - one.side / 2, other.centre[axis] - other.side / 2)
        high = min(one.centre[axis] + one.side / 2, other.centre[axis] + other.side / 2)
        common *= max(0.0, high - low)
    union = one.side ** 2 + other.side ** 2 - common
    return common / union if union > 0 else 0.0


def _crop_matrix(palm: Palm) -> FloatArray:
    """The affine map (2, 3) from frame pixels to the landmark model's picture of ``palm``'s
    hand: turned so that the line from the wrist to the middle finger's knuckle points up,
    centred `HAND_SHIFT` sides towards the fingers, `HAND_SPAN` sides across."""
    up = math.atan2(palm.knuckle[1] - palm.wrist[1], palm.knuckle[0] - palm.wrist[0]) + math.pi / 2
    # Towards the fingers is -y in the turned crop: in the frame, (sin up, -cos up).
    x = palm.centre[0] + HAND_SHIFT * palm.side * math.sin(up)
    y = palm.centre[1] - HAND_SHIFT * palm.side * math.cos(up)
    k = HAND_INPUT / (HAND_SPAN * palm.side)
    cos, sin = k * math.cos(-up), k * math.sin(-up)
    half = HAND_INPUT / 2
    return np.array([[cos, -sin, half - cos * x + sin * y],
                     [sin, cos, half - sin * x - cos * y]], np.float64)


def hand_crop(frame: Image, palm: Palm) -> Image:
    """The landmark model's picture of ``palm``'s hand (`_crop_matrix`)."""
    crop: Image = np.asarray(cv2.warpAffine(frame, _crop_matrix(palm), (HAND_INPUT, HAND_INPUT),
                                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT), np.uint8)
    return crop


def confirm(frame: Image, palm: Palm, data: Path = DATA) -> Palm:
    """``palm`` with the landmark model's presence of a hand round it in ``frame``, and the
    hand's five fingertips (landmarks 4, 8, 12, 16 and 20, the thumb's first) in frame pixels."""
    marks, flag = _network(data / HAND_FILE, ("Identity", "Identity_1"))(_input(hand_crop(frame, palm)))
    # 21 landmarks of (x, y, depth) in the crop's pixels, mapped back through the crop's map.
    in_crop = np.asarray(marks, np.float64).reshape(21, 3)[list(FINGERTIPS), :2]
    to_frame = cv2.invertAffineTransform(_crop_matrix(palm))
    tips = in_crop @ to_frame[:, :2].T + to_frame[:, 2]
    return replace(palm, presence=float(np.asarray(flag).ravel()[0]),
                   tips=tuple((float(x), float(y)) for x, y in tips))


def _confirmed(frame: Image, proposed: list[Palm], config: HandConfig, data: Path) -> tuple[Palm, ...]:
    """The best `HandConfig.proposals` of the palms ``proposed`` that the landmark model confirms."""
    palms = [confirm(frame, palm, data) for palm in proposed[:config.proposals]]
    return tuple(palm for palm in palms if palm.presence >= config.min_presence)


def hands_in(frame: Image, config: HandConfig = HandConfig(), data: Path = DATA) -> tuple[Palm, ...]:
    """The hands anywhere in ``frame``."""
    return _confirmed(frame, find_palms(frame, config.min_score, data), config, data)


def hands_over(frame: Image, corners: FloatArray, config: HandConfig = HandConfig(),
               data: Path = DATA) -> tuple[Palm, ...]:
    """The hands over the playing area whose ``corners`` (TL, TR, BR, BL frame pixels) are
    given, confirmed by the landmark model: those whose palm's centre or a fingertip lies
    inside it, or outside by under a quarter of the palm's side (a real hand holding a checker
    over point 13 lay so, and a checker at a point's edge stands against the rim).

    A palm resting on the board's frame or the table may have its fingers on the checkers: 5
    of the 7 rendered hands over the checker benchmark's unseen boards that the reader did not
    catch (seeds 6,100,000, 6,400,000 and 6,700,000 on) lay so, their palms' centres 30 to 106 px
    outside the playing area and a fingertip of each 3 to 109 px inside it.
    So every palm within `REACH` sides of the playing area is asked, those whose centres lie
    over it first, and then where its fingertips are."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    low, high = quad.min(axis=0), quad.max(axis=0)
    grow = (high - low) * config.margin
    height, width = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(low - grow), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(high + grow), (width, height)).astype(int)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return ()
    contour = quad.astype(np.float32).reshape(-1, 1, 2)
    proposed = [palm.moved(float(x0), float(y0))
                for palm in find_palms(frame[y0:y1, x0:x1], config.min_score, data)]
    within = [palm for palm in proposed if _inside(contour, palm.centre) >= -REACH * palm.side]
    within.sort(key=lambda palm: _inside(contour, palm.centre) < -palm.side / 4)  # stable: best first
    return tuple(palm for palm in _confirmed(frame, within, config, data)
                 if _inside(contour, _deepest(palm, contour)) >= -palm.side / 4)


def _inside(contour: np.ndarray, point: tuple[float, float]) -> float:
    """Signed distance in pixels from the playing area's edge (``contour``), positive inside."""
    return float(cv2.pointPolygonTest(contour, point, True))


def _deepest(palm: Palm, contour: np.ndarray) -> tuple[float, float]:
    """Of ``palm``'s centre and fingertips, the one furthest into the playing area."""
    return max((palm.centre, *palm.tips), key=lambda point: _inside(contour, point))


def near(palm: Palm, corners: FloatArray) -> str:
    """Where ``palm``'s hand is over the board, in words: the point (or the bar) whose place is
    nearest the palm's centre, or, when the palm lies outside the playing area, the fingertip
    furthest in."""
    contour = np.asarray(corners, np.float32).reshape(-1, 1, 2)
    over = palm.centre if _inside(contour, palm.centre) >= 0 else _deepest(palm, contour)
    at = on_board_units(corners, [over])[0]
    place = PLACES[int(np.argmin(np.linalg.norm(PLACE_CENTRES - at, axis=1)))]
    return "the bar" if place.on_bar else f"point {place.point}"
