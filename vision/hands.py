"""Hands over the board, seen by a palm detector trained on real hands.

The checker reader learnt what a hand looks like from the synthetic renderer's arms (its
*covered* class), and corners mode, with no learned looks to compare, has no such class at
all: the three labelled real photos with a hand or an arm over the board were all read
``ok``, and 15 of their 72 points wrong.  A real hand is best seen by a network trained on
real hands: MediaPipe's palm detector (``vision/data/palm_detection_full.tflite``, taken
unchanged from the mediapipe 0.10.18 wheel on PyPI; Apache-2.0, its licence beside it), run by
OpenCV's own dnn, so nothing new is installed.

It is a single-shot detector over a 192 x 192 picture (RGB scaled to 0..1, letterboxed): 2,016
anchors on a 24 x 24 grid (two a cell) and a 12 x 12 grid (six a cell), each with a score and
a box offset in input pixels.  A palm, not a hand: the palm is rigid and square, so one box
fits it at any angle, and an arm reaching in shows its hand or is still moving (`motion`).

It takes about 30 ms a picture on one core here (`bench/hands.py`), three times the checkers'
budget, so a live camera asks it only of a board at rest about to be trusted (`Observer`); a
photo is asked every time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.geometry import FloatArray
from vision.reading import Reading
from vision.view import PLACE_CENTRES, PLACES, Image, on_board_units

DATA = Path(__file__).parent / "data"
PALM_FILE = "palm_detection_full.tflite"
#: The detector's input side, in pixels.
INPUT = 192
#: Its anchor grids: (cells a side, anchors a cell); the 12 x 12 grid's six come from three
#: layers of stride 16 merged.
GRIDS = ((24, 2), (12, 6))
#: Boxes overlapping more than this (intersection over union) are one palm seen twice.
SAME_PALM = 0.3

Detector = Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]


class HandModelError(FileNotFoundError):
    """The palm detector's file is missing or unreadable."""


@dataclass(frozen=True, slots=True)
class Palm:
    """A palm seen in a frame: its score (0..1), centre and box side in frame pixels."""

    score: float
    centre: tuple[float, float]
    side: float

    def to_json(self) -> dict[str, object]:
        return {"score": round(self.score, 3), "x": round(self.centre[0], 1), "y": round(self.centre[1], 1),
                "side": round(self.side, 1)}


@dataclass(frozen=True, slots=True)
class HandConfig:
    #: A palm scored at least this is a hand.  On the real photos of `bench/hands.py`, every
    #: palm found scoring 0.66 or more was a hand (the least, a player's hand beside the board);
    #: the hands over a board scored 0.72 and more; the best scores of things not a hand were
    #: 0.59 (lace under a book) and 0.58 (a column of pearl checkers).  MediaPipe's own
    #: default is 0.5.
    min_score: float = 0.65
    #: The picture asked is the playing area's bounding box grown by this share of its size
    #: on every side: an arm reaches in over the rim, and its palm may be half outside.
    margin: float = 0.15


def anchors() -> FloatArray:
    """The anchors' centres (2016, 2), in input shares (0..1), in the network's output order:
    row by row, column by column, the anchors of a cell together."""
    centres = []
    for cells, per_cell in GRIDS:
        steps = (np.arange(cells) + 0.5) / cells
        ys, xs = np.meshgrid(steps, steps, indexing="ij")
        grid = np.stack([xs.ravel(), ys.ravel()], axis=1)
        centres.append(np.repeat(grid, per_cell, axis=0))
    return np.concatenate(centres).astype(np.float64)


ANCHORS = anchors()


@cache
def _detector(path: Path) -> Detector:
    """The palm network at ``path``: a function from an input batch (1, 3, 192, 192) to its box
    offsets (1, 2016, 18) and score logits (1, 2016, 1)."""
    if not path.is_file():
        raise HandModelError(f"the palm detector {path} is missing: reinstall pipgammon")
    try:
        # OpenCV 5's new engine returns only the first of the two outputs; its classic engine
        # (OpenCV 4's only one) returns both from one pass.
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        net = cv2.dnn.readNetFromTFLite(str(path)) if engine is None else cv2.dnn.readNetFromTFLite(
            str(path), engine=engine)
    except cv2.error as err:
        raise HandModelError(f"the palm detector {path} cannot be loaded: {err}") from err

    def forward(batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        net.setInput(batch)
        boxes, scores = net.forward(["Identity", "Identity_1"])
        return np.asarray(boxes), np.asarray(scores)

    return forward


def find_palms(picture: Image, min_score: float, path: Path = DATA / PALM_FILE) -> list[Palm]:
    """The palms in a BGR ``picture`` scored at least ``min_score``, best first, in its pixels."""
    height, width = picture.shape[:2]
    scale = INPUT / max(height, width)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    shrunk = cv2.resize(picture, size, interpolation=cv2.INTER_AREA)
    # Letterboxed, centred on black, as the network was trained.
    left, top = (INPUT - size[0]) // 2, (INPUT - size[1]) // 2
    square = np.zeros((INPUT, INPUT, 3), np.uint8)
    square[top:top + size[1], left:left + size[0]] = shrunk
    rgb = cv2.cvtColor(square, cv2.COLOR_BGR2RGB).astype(np.float32) / 255.0
    boxes, logits = _detector(path)(np.ascontiguousarray(rgb.transpose(2, 0, 1)[None]))
    scores = 1.0 / (1.0 + np.exp(-np.clip(logits[0, :, 0].astype(np.float64), -100.0, 100.0)))
    found: list[Palm] = []
    for i in np.argsort(-scores):
        if scores[i] < min_score:
            break
        # Offsets are in input pixels from the anchor; the box is square for a palm.
        x, y = ANCHORS[i] * INPUT + boxes[0, i, :2]
        side = float(max(boxes[0, i, 2], boxes[0, i, 3]))
        palm = Palm(float(scores[i]), ((x - left) / scale, (y - top) / scale), side / scale)
        if all(_overlap(palm, kept) <= SAME_PALM for kept in found):
            found.append(palm)
    return found


def _overlap(one: Palm, other: Palm) -> float:
    """Intersection over union of two palms' square boxes."""
    def span(palm: Palm, axis: int) -> tuple[float, float]:
        return palm.centre[axis] - palm.side / 2, palm.centre[axis] + palm.side / 2

    common = 1.0
    for axis in (0, 1):
        (a0, a1), (b0, b1) = span(one, axis), span(other, axis)
        common *= max(0.0, min(a1, b1) - max(a0, b0))
    union = one.side ** 2 + other.side ** 2 - common
    return common / union if union > 0 else 0.0


def palms_over(frame: Image, corners: FloatArray, config: HandConfig = HandConfig(),
               path: Path = DATA / PALM_FILE) -> tuple[Palm, ...]:
    """The palms over the playing area whose ``corners`` (TL, TR, BR, BL frame pixels) are given:
    those whose centre lies inside it, or outside by under a quarter of the palm's side (its
    fingers reach in: a hand holding a checker over point 13 of a real photo lay so)."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    low, high = quad.min(axis=0), quad.max(axis=0)
    grow = (high - low) * config.margin
    height, width = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(low - grow), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(high + grow), (width, height)).astype(int)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return ()
    contour = quad.astype(np.float32).reshape(-1, 1, 2)
    over = []
    for palm in find_palms(frame[y0:y1, x0:x1], config.min_score, path):
        centre = (palm.centre[0] + x0, palm.centre[1] + y0)
        # Signed distance from the playing area's edge, positive inside.
        inside = cv2.pointPolygonTest(contour, centre, True)
        if inside >= -palm.side / 4:
            over.append(Palm(palm.score, centre, palm.side))
    return tuple(over)


def hand_reading(palms: tuple[Palm, ...], corners: FloatArray, ms: float = 0.0) -> Reading:
    """The `occluded` reading of a frame with ``palms`` over its playing area, naming where."""
    best = max(palms, key=lambda palm: palm.score)
    at = on_board_units(corners, [best.centre])[0]
    place = PLACES[int(np.argmin(np.linalg.norm(PLACE_CENTRES - at, axis=1)))]
    near = "the bar" if place.on_bar else f"point {place.point}"
    more = f", and {len(palms) - 1} more" if len(palms) > 1 else ""
    reason = f"a hand over the board: a palm near {near} (score {best.score:.2f}{more})"
    return Reading("occluded", reason=reason, ms=ms)
