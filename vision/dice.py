"""Find and read dice and the doubling cube, in any photo or on a calibrated board.

Two small convolutional networks, trained by ``tools/train_dice.py`` and shipped as
ONNX files run by ONNX Runtime, or by OpenCV's own ``cv2.dnn`` where that is missing (no
PyTorch at run time):

- the *detector* sees the whole frame, scaled down to `DETECT_SIDE` at most (on a
  calibrated board, the checker reader's upright view of the playing area), and
  outputs, every `STRIDE` pixels, how likely a die's centre is there, the sub-cell
  offset of that centre and the die's size (CenterNet's idea: no anchors, no boxes to
  merge, touching dice stay apart because their centres do);
- the *reader* sees one square patch cut round each centre from the full-resolution
  frame (`PHOTO_CROP` px a side in a photo, `CROP` on a board: a network for each),
  turned to no particular angle, and says 1..6, "cocked", one of the cube's faces, or
  "not a die".  A cocked die shows a foreshortened top face beside a
  second face; the rulebook has such a roll thrown again, so its value is reported but
  not trusted.  Each patch is read in its eight quarter turns and mirror images
  (`read_crops`), since a die's value does not depend on how it lies.

Reading pips with a network rather than counting blobs is what handles glare, pips on
a tilted second face and either pip polarity (the failure modes of blob counting).
The colour is measured, not learned: the face's median colour, which the pips cannot
move because they cover under a third of it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from engine.cube import CUBE_FACES
from vision.geometry import BoardGeometry, FloatArray
from vision.view import canonical, in_frame, on_board_units, warp_matrix

DATA = Path(__file__).parent / "data"
DETECTOR_FILE = "dice_detector.onnx"
BOARD_DETECTOR_FILE = "dice_board_detector.onnx"
READER_FILE = "dice_reader.onnx"
PHOTO_READER_FILE = "dice_reader_48.onnx"

# The detector runs at the frame's own resolution up to this long side: dice on a board
# seen whole by a 1280 x 960 camera are only about 20-25 px across, and it was trained
# on dice of 10 to 110 px.
DETECT_SIDE = 1280
STRIDE = 8  # detector output cell, in detector-input pixels (the network halves the frame three times)
#: A doubling cube's side in die sides: a 20 mm cube beside 16 mm dice (`_sort_places`).
CUBE_TO_DIE = 1.25
BOARD_DIE = 20.0  # px a die is scaled to on a board (chosen on seeds 5,000,000+, not the bench's)
CROP = 32  # the board reader's input side: a 20 px die at 1.4 spans keeps its own resolution
#: The photo reader's: a photo's dice are 33 to 110 px, and at 32 px their pips lost detail.
PHOTO_CROP = 48
#: Each reader's network, by its input side.
READERS = {CROP: READER_FILE, PHOTO_CROP: PHOTO_READER_FILE}
#: The 8-bit copy of a network (`tools/quantise_reader.py`), run in its place by ONNX Runtime
#: (`DiceConfig.int8`): the board's reader reads its 80-odd patches of a frame with a roll 1.6
#: times as fast, and read the benchmarks' and the referee games' flat dice, cocked calls and
#: cubes as the float one did (docs/dice.md).  OpenCV's dnn reads such a file differently, so
#: it keeps the float network.
QUANTISED = {READER_FILE: "dice_reader_int8.onnx"}
CROP_SPAN = 1.4  # the crop covers this many die sizes: the whole die and a rim of its surroundings
NOT_A_DIE = 0  # reader class 0; classes 1..6 are the values
COCKED = 7  # reader class 7: a die tilted on a checker or the rim, whatever its top face shows
CUBE = 8  # reader classes 8..13: the doubling cube showing CUBE_FACES[class - CUBE]
CLASSES = CUBE + len(CUBE_FACES)


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in frame pixels


def box_centre(box: Box) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


class DieColour(Enum):
    WHITE = "white"
    BLACK = "black"
    OTHER = "other"


#: Two dice touching face to face have centres a side apart; less than this is one die.
MIN_APART = 0.8
#: The Classic Line set: two white and two black dice.
DICE_PER_COLOUR = 2
#: A die whose centre is nearer than this many of its sides to one of the board's fittings is
#: that fitting (`physical`).
AT_FITTING = 0.5


@dataclass(frozen=True, slots=True)
class DiceConfig:
    """The tunables of `find_dice`, in one place."""

    min_score: float = 0.3  # detector centre probability to consider a place
    #: The reader's input side, which picks its network (`READERS`).  Read at 48 px instead of 32,
    #: held-out real photos read about a point more values right; but on the board, where a die is
    #: about 20 px, a 48-px reader flagged fewer cocked dice (docs/dice.md), so `on_board` reads at
    #: `board_crop`.
    crop: int = PHOTO_CROP
    board_crop: int = CROP
    min_read: float = 0.5  # reader probability that the crop is a die or the cube at all
    # A die is cocked when the reader's "cocked" is this many times as likely as its likeliest
    # value: on a photo (`cocked_odds`), and on a board (`board_cocked_odds`), whose reader learnt
    # from its teacher's probabilities as well as the labels and is less sure of a die's tilt
    # (docs/dice.md, *The board's reader since 2026-11-28*).
    cocked_odds: float = 2.0
    board_cocked_odds: float = 1.0
    # Colour of the face: white faces are pale and grey, black faces dark.
    white_min_value: int = 130
    white_max_saturation: int = 80
    black_max_value: int = 90
    #: On the board only white and black dice are thrown (the Classic Line set): a face is
    #: then black up to this brightness, white from `white_min_value`, and between the two
    #: the pips decide.
    two_colours: bool = False
    two_colour_split: int = 85
    #: On the board a weaker detector peak is still looked at: a white die on a pale point is a
    #: faint peak, and `physical` and the reader's "not a die" drop what is not a die.
    board_min_score: float = 0.1
    #: The reader also reads each crop mirrored (`read_crops`); off, it reads the four turns only.
    mirrored: bool = True
    #: Each place is read from crops cut at these multiples of the die's size, the log-probabilities
    #: averaged.
    spans: tuple[float, ...] = (1.0,)
    #: On the board a place is read again when the first reading (at a die's size, in
    #: `sort_turns` views) gives it at least this probability of being a die or the cube (`_sort_places`).
    reread_min: float = 0.1
    #: On the board a die read with less confidence than `board_sure` (which `on_board` makes
    #: `sure`), or called cocked, is looked for on rings of these radii (in die sides) round the
    #: detector's centre, eight places on each, and read again where it was found
    #: (`centre_on_dice`); empty: never.  At 0.9 instead of 0.95 the search looks round 0.38
    #: dice a frame with a roll instead of 0.85 and every die of the benchmarks, the tuning
    #: boards, the referee bench's games and the demo is read the same (docs/dice.md).
    sure: float = 0.95
    board_sure: float = 0.9
    recentre: tuple[float, ...] = (0.25,)
    #: A die the search moved and still reads a value with doubt (not one it found cocked) is
    #: looked for again, onward, up to this many searches in all (`_read_board_places`): the
    #: detector put a white 2 of the referee bench's game 16 0.6 sides off, and one step a quarter
    #: of a side towards it left it read as a 1.
    search_steps: int = 2
    #: On a photo (no board to give a die's size) a die read with doubt (`sure`) whose detected
    #: size is under this share of the median of the photo's dice is read again at that median
    #: (`read_at_photo_size`); ``None``: never.
    photo_size: float | None = 0.85
    #: On the board a place read as a die with less than `min_read` but at least `search_min` is
    #: looked for too, and counts only if read as a die with `search_read` where it was found
    #: (`find_objects`).
    search_min: float = 0.3
    search_read: float = 0.8
    #: On the board a die called cocked is read again from a crop this much narrower, and stays
    #: cocked only when that reading says so too (`confirm_cocked`); ``None``: never.
    cocked_check: float | None = 0.9
    #: Quarter turns (1, 2 or 4) the places the detector found are first read in, to sort dice
    #: from the rest, on the board (`_sort_places`), and the turns the search reads its candidates in.
    sort_turns: int = 1
    search_turns: int = 4
    #: A die that first reading finds at least this sure of its value is not read again in all its
    #: views: 765 of 1,726 dice over 848 frames with a roll, each read the same by the eight
    #: views (none was 0.99 sure); the benchmarks, the games, the tuning boards and the demo read
    #: the same, and a frame with a roll took 0.3 ms less (docs/dice.md).
    first_sure: float = 0.95
    #: With `on_view` off, the detector sees the frame's box round the board, scaled so a die is
    #: this many px.
    board_die: float = BOARD_DIE
    #: What runs the networks (`_net`, `RUNTIMES`): "" the fastest installed.
    runtime: str = ""
    #: On the board the detector sees the checker reader's upright top-down view of the playing
    #: area (`board_detector_input`); off, the frame's upright box round it.
    on_view: bool = True
    #: With `on_view`, the board's own detector (`board_detector`, a file in the models' folder)
    #: sees the view shrunk by `board_view_scale`, where a die is 15.5 px: it learned board views
    #: at that scale alone (`tools/train_dice.py --board-detector`), and reads one in 0.9 ms
    #: where the photos' detector took 2.2 ms at full size (docs/dice.md, *The board's detector*).
    board_detector: str = BOARD_DETECTOR_FILE
    board_view_scale: float = 0.75
    #: ONNX Runtime runs a reader's 8-bit copy (`QUANTISED`) where the folder has one; off, or on
    #: OpenCV's dnn, the float network.
    int8: bool = True
    #: On the board the cube is read again at a cube's usual size (`_sort_places`) unless its
    #: first reading is at least this sure of its face; ``None``: always.
    cube_sure: float | None = 0.9


@dataclass(frozen=True, slots=True)
class Die:
    value: int
    colour: DieColour
    cocked: bool
    box: Box
    confidence: float  # the reader's probability of this value (of "cocked", for a cocked die)
    #: The reader's probability of ``value`` among the six values alone: were the die flat.
    flat_confidence: float | None = None
    #: On the board, how sure the first reading was that the die is cocked, when it found that at
    #: least as likely as any value and the die is read flat (after the search round it, the
    #: narrower check, or as the first reading's odds were under `DiceConfig.cocked_odds`).
    first_cocked: float | None = None

    @property
    def centre(self) -> tuple[float, float]:
        return box_centre(self.box)

    def lying_flat(self) -> Die:
        """This die read as lying flat: its likeliest value, as sure as the reader is of it."""
        return replace(self, cocked=False, confidence=self.confidence if self.flat_confidence is None
                       else self.flat_confidence)

    def tilted(self) -> Die:
        """This die read as cocked, as sure of it as its first reading was (`first_cocked`)."""
        return replace(self, cocked=True, confidence=self.confidence if self.first_cocked is None
                       else self.first_cocked)

    def to_json(self) -> dict[str, object]:
        return {
            "value": self.value,
            "color": self.colour.value,
            "cocked": self.cocked,
            "box": [round(v, 1) for v in self.box],
            "confidence": round(self.confidence, 4),
        }


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube as seen: the number on top."""

    face: int
    box: Box
    confidence: float

    @property
    def centre(self) -> tuple[float, float]:
        return box_centre(self.box)


@dataclass(frozen=True, slots=True)
class CubeOnBoard:
    """The cube's value and place as CONTRACT.md has them: ``center`` (value 1 when it shows
    64), or on ``white``'s or ``black``'s side, meaning that player owns it."""

    value: int
    position: str

    @classmethod
    def showing(cls, face: int, position: str) -> CubeOnBoard:
        """The cube with ``face`` up at ``position``: centred, its 64 is value 1."""
        return cls(1 if position == "center" and face == CUBE_FACES[-1] else face, position)

    def to_json(self) -> dict[str, object]:
        return {"value": self.value, "position": self.position}


RUNTIMES = ("", "onnxruntime", "opencv")  # the fastest installed, or the one named
Network = Callable[[np.ndarray], np.ndarray]  # an input batch (N, 3, H, W) -> its outputs


@cache
def _onnxruntime(runtime: str) -> bool:
    """Whether `_net` runs a network on ONNX Runtime for ``runtime``: with none named, whether
    it imports, so a broken install never hands OpenCV's dnn the 8-bit file (`reader_path`)."""
    if runtime != "":
        return runtime == "onnxruntime"
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


@cache
def _net(path: Path, runtime: str = "") -> Network:
    """The ONNX network at ``path`` as a function of its input batch.

    It is run by ONNX Runtime on one thread when that is installed, else (``runtime="opencv"``,
    or a machine with no ONNX Runtime wheel such as 32-bit Raspberry Pi OS) by OpenCV's dnn;
    ``runtime="onnxruntime"`` insists on ONNX Runtime.
    Both give the same outputs to 1e-5; on one core here ONNX Runtime runs the reader 3.9 and the
    detector 3.1 times as fast (`bench/dice.py --runtimes`).  One thread, because the referee's
    other work (the checkers, the web page, the LEDs) has the Pi's other cores.
    """
    if runtime not in RUNTIMES:
        raise ValueError(f"no runtime {runtime!r} for the dice networks: want one of {RUNTIMES}")
    if not path.is_file():
        raise FileNotFoundError(f"the dice model {path} is missing: reinstall pipgammon")
    if _onnxruntime(runtime):
        import onnxruntime  # named and missing: the ImportError says so

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only: not the graph optimiser's notes
        session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name
        return lambda batch: np.asarray(session.run(None, {name: batch})[0])
    net = cv2.dnn.readNetFromONNX(str(path))

    def forward(batch: np.ndarray) -> np.ndarray:
        net.setInput(batch)
        return np.asarray(net.forward())

    return forward


@cache  # its file checks took 0.2 ms of a frame with a roll, asked for on each of its 5.5 reads
def reader_path(models: Path, side: int, runtime: str = "", int8: bool = True) -> Path:
    """The reader network of ``side`` px crops in ``models`` that ``runtime`` runs: its 8-bit
    copy (`QUANTISED`) on ONNX Runtime when ``int8`` and the folder has one, else the float one."""
    if side not in READERS:
        raise ValueError(f"no dice reader reads {side}-px crops: the readers read {sorted(READERS)} px")
    name = READERS[side]
    if int8 and name in QUANTISED and (models / QUANTISED[name]).is_file() and _onnxruntime(runtime):
        return models / QUANTISED[name]
    return models / name


def normalise(bgr: np.ndarray) -> np.ndarray:
    """uint8 BGR images (N, H, W, 3) or (H, W, 3) -> the networks' float input (N, 3, H, W),
    each value v as v / 255 - 0.5."""
    if bgr.ndim == 3:
        bgr = bgr[None]
    n, h, w, _ = bgr.shape
    batch = np.empty((n, 3, h, w), np.float32)
    # OpenCV splits the interleaved channels into planes at twice the speed of numpy's strided
    # transpose, and scaling straight into the output saves a temporary: the detector's input
    # took 0.84 ms, now 0.44 (a 768 x 800 board at 1280 x 960).  One image is split as it lies
    # (a slice of a larger one, say), a batch as one tall image.
    planes = cv2.split(bgr[0] if n == 1 else np.ascontiguousarray(bgr).reshape(n * h, w, 3))
    for channel, plane in enumerate(planes):
        np.multiply(plane.reshape(n, h, w), np.float32(1 / 255), out=batch[:, channel], dtype=np.float32)
    batch -= np.float32(0.5)
    return batch


@dataclass(frozen=True, slots=True)
class DetectorView:
    """What the detector sees, in whole cells, and ``to_frame``: the homography from its pixels to
    the frame's (pixel centres at whole numbers in both, as OpenCV's warps have them)."""

    image: np.ndarray
    to_frame: np.ndarray  # 3 x 3

    def places(self, peaks: list[tuple[float, float, float, float]]) -> list[Place]:
        """The detector's (score, x, y, size) in its input (pixel edges at whole numbers, as
        `decode_centres` gives them) -> (x, y, size) in the frame, the same way: each peak's
        square mapped to the frame, its size the root of the area it covers there."""
        squares = np.array([[(x + dx * size / 2 - 0.5, y + dy * size / 2 - 0.5)
                             for dx, dy in ((0, 0), (-1, -1), (1, -1), (1, 1), (-1, 1))]
                            for _, x, y, size in peaks], np.float64)
        seen = np.asarray(cv2.perspectiveTransform(squares.reshape(1, -1, 2), self.to_frame))
        seen = seen.reshape(-1, 5, 2)
        return [(float(cx + 0.5), float(cy + 0.5), float(side))
                for (cx, cy), side in zip(seen[:, 0], square_sides(seen[:, 1:]), strict=True)]


def square_sides(quads: np.ndarray) -> FloatArray:
    """The side of the square of the same area as each quadrilateral (N, 4, 2): a square's side
    seen through a perspective."""
    x, y = quads[:, :, 0].T, quads[:, :, 1].T
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=0) - np.roll(x, -1, axis=0) * y).sum(axis=0))  # the shoelace
    sides: FloatArray = np.sqrt(area)
    return sides


def _whole_cells(image: np.ndarray) -> np.ndarray:
    ph, pw = -image.shape[0] % STRIDE, -image.shape[1] % STRIDE
    return cv2.copyMakeBorder(image, 0, ph, 0, pw, cv2.BORDER_REPLICATE) if ph or pw else image


def detector_input(frame: np.ndarray, scale: float | None = None,
                   offset: tuple[int, int] = (0, 0)) -> DetectorView:
    """The frame scaled (by default down to `DETECT_SIDE`) and padded to whole cells; ``offset``:
    where ``frame`` (a part of a larger frame) lies in it."""
    h, w = frame.shape[:2]
    scale = min(1.0, DETECT_SIDE / max(h, w)) if scale is None else scale
    sw, sh = round(w * scale), round(h * scale)
    # Averaging areas (INTER_AREA) at a scale that is no whole fraction took 3.2 ms of a 1280 x 960
    # board's 20; down to half size, interpolating reads the referee bench's games and the tuning
    # boards as well (docs/dice.md), and only a larger step needs the averaging against aliasing.
    small = cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR)
    # Pixel edges scale with the frame: a centre x maps to (x + 0.5) / scale - 0.5 + offset.
    k = 1 / scale
    to_frame = np.array([[k, 0, (k - 1) / 2 + offset[0]], [0, k, (k - 1) / 2 + offset[1]], [0, 0, 1]])
    return DetectorView(_whole_cells(small), to_frame)


def board_detector_input(frame: np.ndarray, corners: np.ndarray, scale: float,
                         view: np.ndarray | None = None, shrink: float = 1.0) -> DetectorView | None:
    """What the detector sees of a board: ``view``, the playing area's upright top-down view
    (`vision.view.canonical`) shrunk by ``shrink``, or with none the frame's upright box round
    the playing area scaled by ``scale``; ``None`` when that lies outside the frame.

    The checker reader warps the frame to that view anyway, and there a die is 20.7 px
    whatever the camera (15.5 px shrunk by 0.75, the size the board's detector learned), the
    board lies upright in a box a third smaller than the frame's box round it (on a board seen
    at 45°, half), and the frame is read once, not twice: a frame read fresh from memory took
    1.2 to 2 ms a warp.  A mirrored board is turned back so the cube's numerals read the right
    way."""
    if view is not None:
        to_whole = np.eye(3)
        if shrink != 1.0:
            # Interpolated, not area-averaged: shrinking by 0.8 so took 0.55 ms more a frame and
            # read the same dice (docs/dice.md).  Pixel edges scale: a centre x of the shrunk
            # view is (x + 0.5) * k - 0.5 of the whole one.
            h, w = view.shape[:2]
            view = cv2.resize(view, (round(w * shrink), round(h * shrink)), interpolation=cv2.INTER_LINEAR)
            kx, ky = w / view.shape[1], h / view.shape[0]
            to_whole = np.array([[kx, 0, (kx - 1) / 2], [0, ky, (ky - 1) / 2], [0, 0, 1]])
        # Whole cells cut from the middle (the view's margin round the playing area is 20 px),
        # rather than padded: a slice costs nothing, a padded copy 0.1 ms.
        h, w = view.shape[:2]
        top, left = (h % STRIDE) // 2, (w % STRIDE) // 2
        cut = view[top:top + h - h % STRIDE, left:left + w - w % STRIDE]
        to_view = np.array([[1.0, 0, left], [0, 1, top], [0, 0, 1]])
        warp, quad = warp_matrix(corners), np.asarray(corners, np.float64)
        seen = cv2.perspectiveTransform(quad.reshape(1, -1, 2), warp).reshape(-1, 2)
        if _clockwise(quad) != _clockwise(seen):
            cut = cv2.flip(cut, 1)
            to_view = to_view @ np.array([[-1.0, 0, cut.shape[1] - 1], [0, 1, 0], [0, 0, 1]])
        return DetectorView(cut, np.linalg.inv(warp) @ to_whole @ to_view)
    area = np.asarray(corners, np.float32).reshape(-1, 2)
    x, y, w, h = cv2.boundingRect(area)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(frame.shape[1], x + w), min(frame.shape[0], y + h)
    if x1 - x0 < 2 * STRIDE or y1 - y0 < 2 * STRIDE:
        return None
    return detector_input(frame[y0:y1, x0:x1], scale, (x0, y0))


def _clockwise(quad: np.ndarray) -> bool:
    """Whether a quadrilateral's corners (4, 2) run clockwise on the screen (y down)."""
    x, y = quad[:, 0], quad[:, 1]
    return bool((x * np.roll(y, -1) - np.roll(x, -1) * y).sum() > 0)


def crop_die(frame: np.ndarray, centre: tuple[float, float], size: float, side: int = CROP) -> np.ndarray:
    """A ``side`` × ``side`` patch of ``frame`` covering ``CROP_SPAN × size`` round ``centre``."""
    k = side / (CROP_SPAN * size)
    m = np.array([[k, 0, side / 2 - k * centre[0]], [0, k, side / 2 - k * centre[1]]], np.float64)
    return cv2.warpAffine(
        frame,
        m,
        (side, side),
        flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def decode_centres(out: np.ndarray, min_score: float) -> list[tuple[float, float, float, float]]:
    """Detector output (4, H, W) -> [(score, x, y, size)] in detector-input pixels.

    Channel 0 is the centre logit, 1-2 the centre's offset within its cell (in cells),
    3 the log of the die's size in cells.  A centre must be the maximum of its 3 × 3
    neighbourhood, so one die gives one centre.
    """
    score = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (score >= min_score) & (score >= cv2.dilate(score, np.ones((3, 3), np.uint8)))
    found = []
    for y, x in zip(*np.nonzero(peaks), strict=True):
        cx = (x + 0.5 + out[1, y, x]) * STRIDE
        cy = (y + 0.5 + out[2, y, x]) * STRIDE
        found.append((float(score[y, x]), float(cx), float(cy), float(np.exp(out[3, y, x]) * STRIDE)))
    return found


def face_colour(crop: np.ndarray, config: DiceConfig) -> DieColour:
    """The face's colour from the middle of a reader crop (the die fills 1 / `CROP_SPAN` of it)."""
    side = crop.shape[0]
    inner = round(side / CROP_SPAN * 0.35)
    middle = crop[side // 2 - inner : side // 2 + inner, side // 2 - inner : side // 2 + inner]
    hsv = cv2.cvtColor(middle, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    if config.two_colours:
        # Pips cover up to a third of the face (a 6): a black face leaves three quarters of the
        # pixels dark, a white one three quarters light, whatever colour the pips are.
        low, high = np.percentile(hsv[:, 2], (25, 75))
        if high < config.two_colour_split:
            return DieColour.BLACK
        if low >= config.white_min_value:
            return DieColour.WHITE
        # Neither (a white die in shadow, a black one in bright light): a white die has dark
        # pips, a black one light pips.  A black face lit to a brightness of 90 (game 0 of the
        # referee bench) was taken for white when anything over the split was.
        grey = cv2.cvtColor(middle, cv2.COLOR_BGR2GRAY).astype(np.float32)
        darkest, median, lightest = np.percentile(grey, (5, 50, 95))
        return DieColour.WHITE if median - darkest > lightest - median else DieColour.BLACK
    _, s, v = np.median(hsv, axis=0)
    if v <= config.black_max_value:
        return DieColour.BLACK
    if v >= config.white_min_value and s <= config.white_max_saturation:
        return DieColour.WHITE
    return DieColour.OTHER


def dihedral(batch: np.ndarray, mirrored: bool = True, turns: int = 4) -> np.ndarray:
    """A network's input batch (N, C, H, W) in its first ``turns`` quarter turns, then
    (``mirrored``) the same mirrored: (2 turns N or turns N, C, H, W), view-major (view k of
    image i at ``k * N + i``).

    The views are turned after `normalise`, not before: the same values, but one normalising pass
    over N crops and one copy of the views, which took a third of the time of normalising eight
    turned copies (53 against 171 µs for the search's nine places in four turns)."""
    turned = [np.rot90(batch, k, axes=(2, 3)) for k in range(turns)]
    views = turned + [t[..., ::-1] for t in turned] if mirrored else turned
    return np.concatenate(views)


def read_crops(crops: np.ndarray, models: Path = DATA, mirrored: bool = True) -> np.ndarray:
    """Reader probabilities (N, `CLASSES`) for square crops (N, side, side, 3), read by the reader of
    that side (`READERS`): `NOT_A_DIE`, 1..6, `COCKED`, then the cube's faces from `CUBE`.

    Each crop is read in its eight quarter turns and mirror images, and the log-probabilities
    averaged: a die has no up and no handedness that matters (its value is the same in all
    eight), and a pip the reader half-misses in one view it sees in another.  The cube's
    numerals are not mirror-symmetric and the reader never saw a mirrored cube, so its faces
    are averaged over the four turns only.  ``mirrored=False``: the four turns for every class.
    """
    return softmax(mean_log_probabilities(crops, models, mirrored))


def mean_log_probabilities(crops: np.ndarray, models: Path = DATA, mirrored: bool = True,
                           turns: int = 4, runtime: str = "", int8: bool = True) -> np.ndarray:
    """`read_crops` before the last normalisation: the views' mean log-probabilities (N, `CLASSES`),
    over the first ``turns`` quarter turns (and their mirror images), read by `reader_path`'s network."""
    views = 2 * turns if mirrored else turns
    network = _net(reader_path(models, crops.shape[1], runtime, int8), runtime)
    logits = network(dihedral(normalise(crops), mirrored, turns))
    logits = logits.astype(np.float64).reshape(views, len(crops), -1)
    if logits.shape[2] < CLASSES:  # a reader trained before the cocked or cube classes
        logits = np.pad(logits, ((0, 0), (0, 0), (0, CLASSES - logits.shape[2])), constant_values=-1e9)
    logp = logits - logits.max(axis=2, keepdims=True)
    logp -= np.log(np.exp(logp).sum(axis=2, keepdims=True))
    dice, cube = logp[:, :, :CUBE].mean(axis=0), logp[:turns, :, CUBE:].mean(axis=0)  # turns come first
    mean: np.ndarray = np.concatenate([dice, cube], axis=1)
    return mean


def softmax(scores: np.ndarray) -> np.ndarray:
    """Rows of log-probabilities, each up to a constant -> probabilities."""
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    probabilities: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return probabilities


Place = tuple[float, float, float]  # a die's centre x, y and its size, in frame pixels
DieSides = Callable[[list[tuple[float, float]]], FloatArray]  # frame points -> a die's side at each


def read_places(frame: np.ndarray, places: list[Place], config: DiceConfig,
                models: Path = DATA, turns: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """The crops round ``places`` (cut at the die's size) and the reader's probabilities: the
    log-probabilities of the crops cut at each of ``config.spans`` times that size, averaged.

    The cube's faces are taken from the first span only: the spans are for dice (a cocked die's
    second face), and averaging the cube's faces over them too read a centred 64 as a 4 on the
    bench (seed 3,000,022)."""
    spans = [np.stack([crop_die(frame, (x, y), k * size, config.crop) for x, y, size in places])
             for k in config.spans]
    logp = mean_log_probabilities(np.concatenate(spans), models, config.mirrored, turns, config.runtime,
                                  config.int8)
    logp = logp.reshape(len(spans), len(places), -1)
    probabilities = softmax(np.concatenate([logp[:, :, :CUBE].mean(axis=0), logp[0, :, CUBE:]], axis=1))
    if config.spans[0] == 1.0:
        return spans[0], probabilities
    return np.stack([crop_die(frame, (x, y), size, config.crop) for x, y, size in places]), probabilities


def centre_on_dice(frame: np.ndarray, places: list[Place], config: DiceConfig,
                   models: Path = DATA, heading: Sequence[tuple[float, float]] | None = None) -> list[Place]:
    """Each place moved to where the reader is surest a die lies: the detector's centre or one of
    eight places round it on each ring of `DiceConfig.recentre`; with ``heading`` (for each place
    the step that brought it there, in die sides), only the three of them onward.

    The detector's centre is a tenth of a side off as a rule but up to half a side off now and
    then (on a 20 px die a cell is 0.4 of a side), and a crop cut half a side off its die cuts a
    corner pip off a 2, which is then read as a 1, or shows the board beside it as a second
    face, read as cocked.  The reader learnt dice jittered by 0.08 sides and "not a die" from
    0.75 sides off, so its probability of "a die" peaks at the centre.  The candidates are read
    in the four turns: read only as cut, they chose places that had twice as many flat dice
    called cocked on the referee bench's games (docs/dice.md).

    Only dice read with doubt are looked for (`_doubtful`): the search reads nine patches in four
    views each, and a die read surely where the detector put it is read right.  A place not taken
    for a die there is never moved: the best of nine places on a dark checker's rim would now and
    then pass for a die.
    """
    if not config.recentre or not places:
        return places
    ring = [(r * np.cos(a), r * np.sin(a)) for r in config.recentre for a in np.arange(8) * np.pi / 4]

    def onward(hx: float, hy: float) -> list[tuple[float, float]]:
        # Within 45 degrees of the heading (cos 45 degrees is 0.707): a die the last step went
        # towards lies further that way.  Free to turn, a second step made a place between checkers
        # surer of being a die than a white 3 nearby, which was then dropped (benchmark seed
        # 2,000,006 frame 6).
        return [(dx, dy) for dx, dy in ring if dx * hx + dy * hy > 0.7 * np.hypot(dx, dy) * np.hypot(hx, hy)]

    steps = ([[(0.0, 0.0), *ring] for _ in places] if heading is None
             else [[(0.0, 0.0), *onward(hx, hy)] for hx, hy in heading])
    candidates = [(x + dx * size, y + dy * size, size)
                  for (x, y, size), around in zip(places, steps, strict=True) for dx, dy in around]
    _, p = read_places(frame, candidates, replace(config, mirrored=False, spans=(1.0,)), models,
                       config.search_turns)
    found, first = [], 0
    for around in steps:
        found.append(candidates[first + int(p[first:first + len(around), NOT_A_DIE].argmin())])
        first += len(around)
    return found


def confirm_cocked(frame: np.ndarray, places: dict[int, Place], probabilities: np.ndarray,
                   config: DiceConfig, models: Path = DATA) -> None:
    """Read each die of ``places`` that ``probabilities`` call cocked again, from a crop
    `DiceConfig.cocked_check` times as wide; where that reading does not call it cocked, it
    replaces the first (in place).

    A stripe of the board beside a flat die (the edge of a dark triangle by a black die, a pale
    point by a white one) looks like the second face of a cocked die, and the crop, 1.4 die
    sides wide, shows a fifth of a side of it all round.  On the referee bench's games the
    narrower crop took 5 of the 8 flat rolls called cocked for flat and kept every cocked roll
    flagged; cut that narrow for every die it made a flat roll cocked that the wider crop
    had read right, so it only confirms (docs/dice.md)."""
    if config.cocked_check is None:
        return
    called = [i for i in places if _a_die(probabilities[i], config) and _face(probabilities[i], config)[1]]
    if not called:
        return
    _, again = read_places(frame, [places[i] for i in called], replace(config, spans=(config.cocked_check,)),
                           models)
    for i, p in zip(called, again, strict=True):
        if not _face(p, config)[1]:
            probabilities[i] = p


def read_at_photo_size(frame: np.ndarray, places: list[Place], crops: np.ndarray, probabilities: np.ndarray,
                       config: DiceConfig, models: Path = DATA) -> None:
    """Read each doubtful die of ``places`` (`DiceConfig.sure`) that is much smaller than the
    photo's other dice again at their median size, and keep the reading surer of its value
    (``crops`` and ``probabilities`` in place).

    A photo has no board to tell a die's size, and the detector now and then sizes a die at
    half its side: the crop then shows one or two of its pips, and a 2 reads as a 1.  Over the
    200 real photos, each read by a reader that never saw it (five folds), the 120 dice found
    at under 0.8 of their labelled size held 7 of the 19 misreads, the 744 within a tenth of it
    also 7.  The dice of one photo are mostly of one size, so a doubtful die sized under
    `DiceConfig.photo_size` of their median is read at the median too: 5 misreads were read
    right, one (a dark translucent 6) wrong, and 4 places that were no die dropped.  Every share
    from 0.75 to 0.95 read the same (0.7: 3 dice fewer right).  Some photos mix sizes,
    so the reading surer of its value is kept: always taking the median's lost a die and read
    one more wrong on the shipped reader's photos.  Dice read surely keep their reading."""
    if config.photo_size is None:
        return
    dice = [i for i in range(len(places)) if _a_die(probabilities[i], config)]
    if len(dice) < 2:
        return
    median = float(np.median([places[i][2] for i in dice]))
    small = [i for i in dice
             if places[i][2] < config.photo_size * median and _doubtful(probabilities[i], config)]
    if not small:
        return
    larger = [(places[i][0], places[i][1], median) for i in small]
    again_crops, again = read_places(frame, larger, config, models)
    for k, i in enumerate(small):
        if _value_confidence(again[k]) > _value_confidence(probabilities[i]):
            crops[i], probabilities[i] = again_crops[k], again[k]


def _value_confidence(p: np.ndarray) -> float:
    """How sure reader probabilities ``p`` are of the likeliest value, given a die."""
    return float(p[1:COCKED].max() / max(1e-9, 1.0 - p[NOT_A_DIE]))


def _face(p: np.ndarray, config: DiceConfig) -> tuple[int, bool]:
    """The likeliest value in a die's reader probabilities ``p``, and whether the die is cocked:
    that is `DiceConfig.cocked_odds` times likelier than the value (the roll is thrown again
    anyway)."""
    value = int(np.argmax(p[1:COCKED])) + 1
    return value, bool(p[COCKED] >= config.cocked_odds * p[value])


def _a_die(p: np.ndarray, config: DiceConfig) -> bool:
    """Whether reader probabilities ``p`` are of a die: something at all, and a die, not the cube."""
    return bool(1.0 - p[NOT_A_DIE] >= config.min_read and p[1:CUBE].sum() >= p[CUBE:].sum())


def _doubtful(p: np.ndarray, config: DiceConfig) -> bool:
    """Reader probabilities ``p`` of a place that is a die (not the cube) read with less than
    `DiceConfig.sure` confidence in its value, or called cocked."""
    if not _a_die(p, config):
        return False
    value, cocked = _face(p, config)
    return cocked or bool(p[value] < config.sure * (1.0 - p[NOT_A_DIE]))


def _sort_places(frame: np.ndarray, places: list[Place], die_sides: DieSides,
                 config: DiceConfig, models: Path) -> tuple[np.ndarray, np.ndarray, list[int], list[Place]]:
    """The detector's ``places`` on a board sorted out and read: the crops and reader
    probabilities of them all, which of them are read as dice, and where (at the die's size).

    Each place is first read in `DiceConfig.sort_turns` views from a crop cut at a die's true
    size there.  The detector's size is a guess a few pixels off, and a crop a quarter too small
    cuts the corner pips off a 2 or a 3: cut at the detector's size, a die of the referee bench's
    games had 0.09 of being a die at all; cut at its true size the least of them had 0.63.  Most
    places are weak detector peaks on a checker's rim (23 a frame on those games, 3.4 of them at
    0.1 or more), and only a place that is something at all (`DiceConfig.reread_min`) is read
    again: a die in all its views (unless read `DiceConfig.first_sure`), the cube in its four
    turns at the detector's size, or a die's if that is larger (the cube is a quarter larger than
    a die; a detector size under a die's cut the 8 of a cube (tuning board seed 5,000,069 at
    2028×1520) so that it read as a 2), and, unless that is sure of its face, at a cube's usual
    size (`CUBE_TO_DIE`), keeping the reading surer of its face."""
    sides = die_sides([(x, y) for x, y, _ in places])
    at_size = [(x, y, float(side)) for (x, y, _), side in zip(places, sides, strict=True)]
    one_span = replace(config, mirrored=False, spans=(1.0,))
    crops, probabilities = read_places(frame, at_size, one_span, models, config.sort_turns)
    something = 1.0 - probabilities[:, NOT_A_DIE] >= config.reread_min
    cube_like = probabilities[:, CUBE:].sum(axis=1) > probabilities[:, 1:CUBE].sum(axis=1)
    dice = [i for i in range(len(places)) if something[i] and not cube_like[i]]
    cubes = [i for i in range(len(places)) if something[i] and cube_like[i]]
    again = [i for i in dice if probabilities[i, 1:COCKED].max() < config.first_sure]
    if again:
        crops[again], probabilities[again] = read_places(frame, [at_size[i] for i in again], config, models)
    if cubes:
        larger = [(x, y, max(size, at_size[i][2])) for i, (x, y, size) in ((i, places[i]) for i in cubes)]
        crops[cubes], probabilities[cubes] = read_places(frame, larger, one_span, models)
        # The detector sizes a cube from 0.8 to 2 die sides, where it is 1.2 to 1.33 on the
        # synthetic boards: cut twice too wide, a 32's numerals were read as a 16 (seeds
        # 4,600,020 and 4,800,014).  So the cube is read at a cube's usual size too, and the
        # reading surer of its face kept; but not when the first reading is sure of it
        # (`DiceConfig.cube_sure`): over 883 cube readings of 864 frames with a roll, the second read
        # changed the face of one alone, read first 0.35 sure, and 92 % were read 0.9 sure or more.
        unsure = [i for i in cubes
                  if config.cube_sure is None or _face_confidence(probabilities[i]) < config.cube_sure]
        if unsure:
            usual = [(x, y, CUBE_TO_DIE * at_size[i][2]) for i, (x, y, _) in ((i, places[i]) for i in unsure)]
            usual_crops, as_usual = read_places(frame, usual, one_span, models)
            for k, i in enumerate(unsure):
                if _face_confidence(as_usual[k]) > _face_confidence(probabilities[i]):
                    crops[i], probabilities[i] = usual_crops[k], as_usual[k]
    return crops, probabilities, dice, [at_size[i] for i in dice]


def _face_confidence(p: np.ndarray) -> float:
    """How sure reader probabilities ``p`` are of the likeliest face of the cube, given the cube."""
    return float(p[CUBE:].max() / max(1e-9, p[CUBE:].sum()))


def _read_board_places(frame: np.ndarray, places: list[Place], die_sides: DieSides, config: DiceConfig,
                       models: Path) -> tuple[np.ndarray, np.ndarray, dict[int, float]]:
    """The crops and reader probabilities of ``places`` on a board (each place moved, in the list,
    to where its die was read), and for each die read flat whose first reading found it cocked at
    least as likely as any value, how sure that reading was (`Die.first_cocked`)."""
    crops, probabilities, dice_like, guessed = _sort_places(frame, places, die_sides, config, models)
    # Where a die cannot lie flat, cocked at least as likely as any value is enough
    # (`vision.observation.propped`); elsewhere `_face` asks `DiceConfig.cocked_odds` of it.
    first_cocked = {i: float(probabilities[i, COCKED] / (1.0 - probabilities[i, NOT_A_DIE]))
                    for i in dice_like if probabilities[i, COCKED] >= probabilities[i, 1:COCKED].max()}
    if dice_like:
        # A die read with doubt (or called cocked) may have been cut off its centre: look
        # for it round there, and read it again where it was found.  So may a place read as
        # a die with less than `min_read`: a white 2 on a pale point, half a side from where
        # the detector put it, was read 0.41 a die and dropped, and the referee saw the
        # throw only with a checker already lifted (game 15 of the referee bench).  Found, it
        # read 0.90; the best place round a light gap between two black checkers (tuning
        # board 5,000,014), 0.55.
        faint = {k for k, i in enumerate(dice_like)
                 if config.search_min <= 1.0 - probabilities[i, NOT_A_DIE] < config.min_read}
        doubtful = [k for k, i in enumerate(dice_like)
                    if k in faint or _doubtful(probabilities[i], config)]
        at = dict(zip(dice_like, guessed, strict=True))
        looking = [dice_like[k] for k in doubtful]
        heading: list[tuple[float, float]] | None = None
        for _ in range(config.search_steps):
            found = centre_on_dice(frame, [at[i] for i in looking], config, models, heading)
            moved = [(i, place) for i, place in zip(looking, found, strict=True) if place != at[i]]
            if not moved:
                break
            again = [i for i, _ in moved]
            crops[again], probabilities[again] = read_places(frame, [place for _, place in moved], config,
                                                             models)
            went = {i: ((x - at[i][0]) / size, (y - at[i][1]) / size) for i, (x, y, size) in moved}
            at.update(moved)
            # Not a die the search found cocked: the onward step is for a flat die's value (a
            # corner pip cut off), and a cocked roll is thrown again whatever its values.  Followed
            # onward, the patch slid off a black die cocked on a black checker, whose face colour
            # was then read white (the referee bench's game 1, frame 26), and two white dice
            # cocked on synthetic boards were read flat (tests/vision/test_dice.py).
            looking = [i for i in again if (_doubtful(probabilities[i], config)
                                            and not _face(probabilities[i], config)[1])
                       or 1.0 - probabilities[i, NOT_A_DIE] < config.min_read]
            heading = [went[i] for i in looking]
        for k in faint:
            if 1.0 - probabilities[dice_like[k], NOT_A_DIE] < config.search_read:
                probabilities[dice_like[k]] = np.eye(CLASSES)[NOT_A_DIE]
        for i, place in at.items():
            places[i] = place
        confirm_cocked(frame, at, probabilities, config, models)
    return crops, probabilities, first_cocked


def _round_a_die(place: Place) -> list[Place]:
    """Places where a second die lying against the die at ``place`` has its centre: a side and a
    bit, or a side and a third (corner to face), away in twelve directions."""
    x, y, size = place
    return [(x + r * size * float(np.cos(a)), y + r * size * float(np.sin(a)), size)
            for r in (1.05, 1.3) for a in np.arange(12) * np.pi / 6]


def find_objects(frame: np.ndarray, config: DiceConfig = DiceConfig(), models: Path = DATA,
                 view: DetectorView | None = None, die_sides: DieSides | None = None,
                 detector_file: str = DETECTOR_FILE) -> tuple[tuple[Die, ...], tuple[Cube, ...]]:
    """Every die (left to right) and doubling cube in a BGR frame, trusted to be a real image.

    ``models`` is the folder of the ONNX files (another only to score retrained networks), and
    ``detector_file`` the detector's there (the board's own, `BOARD_DETECTOR_FILE`, for `on_board`);
    ``view`` what the detector sees (by default the whole frame, `detector_input`), and
    ``die_sides(points)`` the side in pixels a die has at each of those points of the frame
    when that is known (`on_board`).
    """
    view = detector_input(frame) if view is None else view
    detector = _net(models / detector_file, config.runtime)
    peaks = decode_centres(detector(normalise(view.image))[0], config.min_score)
    if not peaks:
        return (), ()
    places = view.places(peaks)
    first_cocked: dict[int, float] = {}
    if die_sides is None:
        crops, probabilities = read_places(frame, places, config, models)
        read_at_photo_size(frame, places, crops, probabilities, config, models)
    else:
        crops, probabilities, first_cocked = _read_board_places(frame, places, die_sides, config, models)
        lone = [i for i in range(len(places)) if _a_die(probabilities[i], config)]
        if lone and all(np.hypot(places[i][0] - places[lone[0]][0], places[i][1] - places[lone[0]][1])
                        < 0.7 * places[lone[0]][2] for i in lone):  # one die, maybe seen twice
            # A throw is two dice.  The detector never saw two dice lying against each other
            # and puts no place on the second (2 of the referee bench's 1,585 flat rolls, once
            # dice came to rest against things): read round a die found alone for one there.
            ring = _round_a_die(places[lone[0]])
            # Not followed onward there: the die found draws the search onto itself (on 2 of the
            # 8 boards with a pair face to face in tests/vision/test_dice.py a die was lost so).
            more_crops, more, more_cocked = _read_board_places(frame, ring, die_sides,
                                                               replace(config, search_steps=1), models)
            first_cocked |= {len(places) + i: odds for i, odds in more_cocked.items()}
            places, crops = [*places, *ring], np.concatenate([crops, more_crops])
            probabilities = np.concatenate([probabilities, more])
    dice: list[Die] = []
    cubes: list[Cube] = []
    # Surest first, so a second peak on the same die (two centres a cell or two apart on a
    # large die) is dropped rather than read as another die.
    order = np.argsort(probabilities[:, NOT_A_DIE])
    for i in order:
        (cx, cy, size), p, crop = places[i], probabilities[i], crops[i]
        if 1.0 - p[NOT_A_DIE] < config.min_read:
            continue
        taken: list[Die | Cube] = [*dice, *cubes]
        if any(np.hypot(cx - o.centre[0], cy - o.centre[1]) < 0.7 * (o.box[2] - o.box[0]) for o in taken):
            continue
        box = (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2)
        seen = 1.0 - p[NOT_A_DIE]
        if p[CUBE:].sum() > p[1:CUBE].sum():
            face = int(np.argmax(p[CUBE:]))
            cubes.append(Cube(CUBE_FACES[face], box, float(p[CUBE + face] / seen)))
            continue
        value, cocked = _face(p, config)
        confidence = float(max(p[value], p[COCKED]) / seen)
        dice.append(Die(value, face_colour(crop, config), cocked, box, confidence,
                        float(p[value] / p[1:COCKED].sum()), None if cocked else first_cocked.get(i)))
    return tuple(sorted(dice, key=lambda d: d.centre)), tuple(cubes)


def find_dice(frame: np.ndarray, config: DiceConfig = DiceConfig(), models: Path = DATA) -> tuple[Die, ...]:
    """Every die in a BGR frame, left to right (`find_objects` without the cube)."""
    return find_objects(frame, config, models)[0]


def cube_on_board(cube: Cube, corners: np.ndarray) -> CubeOnBoard:
    """Where the cube lies, from its centre on the canonical board: within a sixth of the
    height of the middle it is centred; otherwise on the side of the nearer edge (White's
    is the top edge of the numbering frame, by points 13-24)."""
    g = BoardGeometry()
    _, y = on_board_units(corners, [cube.centre])[0]
    if abs(y - g.height / 2) < g.height / 6:
        return CubeOnBoard.showing(cube.face, "center")
    return CubeOnBoard.showing(cube.face, "white" if y < g.height / 2 else "black")


def on_board(frame: np.ndarray, corners: np.ndarray, config: DiceConfig = DiceConfig(), models: Path = DATA,
             view: np.ndarray | None = None, fittings: Sequence[tuple[float, float]] = (),
             on_bar: bool = True) -> tuple[tuple[Die, ...], CubeOnBoard | None]:
    """The dice whose centres lie on the playing area (``corners``: its four frame corners),
    and the cube, if one lies there; none at the board's ``fittings``, nor on the bar unless
    ``on_bar`` (`physical`).

    Only the playing area is searched, in its upright top-down ``view`` (`vision.view.canonical`
    of the frame; warped here if not given) shrunk by `DiceConfig.board_view_scale`, where a die
    is 15.5 px whatever the camera's resolution, by the board's own detector, which learned such
    views alone (`board_detector_input`).  A die on the frame, in the tray or on the table is no roll; the
    referee sees none there.  The Classic Line set has white and black dice only, so every die
    found is one of the two (`DiceConfig.two_colours`).
    """
    scale = min(1.0, config.board_die / BoardGeometry().die_pixels(corners)[1])
    config = replace(config, two_colours=True, min_score=min(config.min_score, config.board_min_score),
                     crop=config.board_crop, cocked_odds=config.board_cocked_odds, sure=config.board_sure)
    if config.on_view and view is None:
        view = canonical(frame, corners)
    looked_at = board_detector_input(frame, corners, scale, view if config.on_view else None,
                                     config.board_view_scale)
    if looked_at is None:
        return (), None
    area = np.asarray(corners, np.float32).reshape(-1, 1, 2)
    dice, cubes = find_objects(frame, config, models, looked_at,
                               lambda points: local_die_sides(corners, points),
                               config.board_detector if config.on_view else DETECTOR_FILE)
    found = [d for d in dice if cv2.pointPolygonTest(area, d.centre, False) >= 0]
    seen = [c for c in cubes if cv2.pointPolygonTest(area, c.centre, False) >= 0]
    cube = max(seen, key=lambda c: c.confidence) if seen else None
    return (physical(found, cube, corners, fittings, on_bar),
            None if cube is None else cube_on_board(cube, corners))


def local_die_sides(corners: np.ndarray, points: Sequence[tuple[float, float]]) -> FloatArray:
    """A die's side in frame pixels where its centre is at each of ``points``: the canonical die
    square there, seen through the camera's perspective (the root of its area in the frame)."""
    half = BoardGeometry().die / 2
    centres = on_board_units(corners, points)
    squares = centres[:, None, :] + np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return square_sides(in_frame(corners, squares.reshape(-1, 2)).reshape(-1, 4, 2))


def physical(dice: list[Die], cube: Cube | None, corners: np.ndarray,
             fittings: Sequence[tuple[float, float]] = (), on_bar: bool = True) -> tuple[Die, ...]:
    """The dice that can all lie on the board at once, surest first: two dice (or a die and
    the cube) cannot overlap, so centres closer than `MIN_APART` die sides on the canonical
    board are one object seen twice (two detector peaks on a large die); and the set has two
    dice of each colour.  A "die" within `AT_FITTING` sides of one of the board's ``fittings``
    (canonical board units: where a calibration's start frame, which has no dice, showed one) is
    that fitting, and counts for no colour.

    Read through corners mode, the metal hinges at the ends of the real tournament boards' bars
    were read as white 1s and 2s on 6 of 14 photos.  Of five frames from one stream camera, with
    the "dice" of any frame that showed both hinges taken as fittings, every hinge of the other
    four was dropped and every real die kept.  A die thrown onto a fitting is dropped too, and the
    referee waits for the throw: the players see that and throw again.

    A photo read from its corners has no start frame to show its fittings, and a folding board's
    hinges lie on the bar: with ``on_bar`` off a "die" centred on the bar is taken for one.  On the
    14 real photos that dropped all 10 hinges and no real die (none came to rest on a bar, a
    raised strip where a thrown die rarely stops); a calibrated mount keeps dice there."""
    g = BoardGeometry()
    kept: list[Die] = []
    taken = list(on_board_units(corners, [cube.centre])) if cube is not None else []
    fitted = np.asarray(fittings, np.float64).reshape(-1, 2)
    bar0, _, bar1, _ = g.bar_box()
    for die in sorted(dice, key=lambda d: -d.confidence):
        at = on_board_units(corners, [die.centre])[0]
        if len(fitted) and np.hypot(*(fitted - at).T).min() < AT_FITTING * g.die:
            continue
        if not on_bar and bar0 <= at[0] <= bar1:
            continue
        if any(np.hypot(*(at - other)) < MIN_APART * g.die for other in taken):
            continue
        if sum(k.colour is die.colour for k in kept) >= DICE_PER_COLOUR:
            continue
        kept.append(die)
        taken.append(at)
    return tuple(sorted(kept, key=lambda d: d.centre))


def timed_find_dice(
    frame: np.ndarray,
    config: DiceConfig = DiceConfig(),
    models: Path = DATA,
) -> tuple[tuple[Die, ...], float]:
    start = time.perf_counter()
    dice = find_dice(frame, config, models)
    return dice, (time.perf_counter() - start) * 1000.0
