"""Calibration: learn the board's outline, numbering and looks from one frame of the starting position.

The camera is fixed, so one homography maps every later frame to the canonical
view.  The outline comes from the caller (four corners in any order) or from
:mod:`vision.outline`.  The start position decides the numbering: of the eight
ways to name four corners (four turns, two mirror layouts), the right one is
where the places the start fills form two tight colour groups, the lighter one
(White) on points 1, 12, 17 and 19.  The looks of every place, empty and with
either checker, come from the same frame, so no colour is hard-coded.  Before
it is accepted, the frame is read back with looks borrowed from other places
only: it must show the start position exactly.
"""

from __future__ import annotations

import base64
import json
import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.position import Position
from vision.dice import on_board
from vision.discs import checker_pitch, discs_per_point
from vision.geometry import FloatArray
from vision.hands import hands_over
from vision.images import MIN_SIDE, decode_quietly
from vision.outline import fit_to_triangles
from vision.slot_model import SlotModel
from vision.templates import BLACK, COVERED, EMPTY, SHOWS, WHITE, Descriptors, Templates, labels_for
from vision.view import (
    GEOMETRY,
    GRID,
    LOG,
    MARGIN,
    PLACES,
    SLOTS,
    Image,
    Layout,
    canonical,
    cells_within,
    layout_for,
    observe,
    on_board_units,
    place_index,
    place_name,
    reduce,
    view_size,
    washed_out,
)

#: How sure the self-check must be that a place differs from the start before it refuses a frame.
SURE = 0.9
#: Places read as covered that mean a hand over the start frame (borrowed looks under a glint make a few).
HAND = 8
START = Position.start()
START_LABELS = labels_for(START)
#: The outermost checker of every start row: where a missing checker leaves a gap.
ROW_ENDS = frozenset(place_index(p, abs(START.at(p)) - 1) for p in range(1, 25) if START.at(p))
VERSION = 2
#: A calibration's corners are kept to this many decimals of a frame pixel, in memory and in its file.
CORNER_DECIMALS = 2
#: A calibration file's checker diameter must lie within these shares of the canonical one.
CHECKER_SHARES = (0.6, 1.2)


class CalibrationError(ValueError):
    """A frame that cannot calibrate (no board, not the starting position), or a bad calibration file."""


#: Lattice cells inside half a checker radius: a place's face colour, free of its rim.
FACE = cells_within(0.5)


def faces(described: Descriptors) -> FloatArray:
    """Every place's face colour, log BGR with light divided out: (128, 3)."""
    cells = described.reshape(len(PLACES), GRID * GRID, 3)[:, FACE, :]
    return np.asarray(cells.mean(axis=1), np.float64)


def _separation(colours: FloatArray) -> float:
    """How badly the start position explains these face colours (lower is better)."""
    white = colours[START_LABELS == WHITE]
    black = colours[START_LABELS == BLACK]
    spread = np.linalg.norm(white - white.mean(0), axis=1).mean() + np.linalg.norm(
        black - black.mean(0), axis=1).mean()
    return float(spread / max(float(np.linalg.norm(white.mean(0) - black.mean(0))), 1e-6))


def orientations(corners: FloatArray) -> list[FloatArray]:
    """The eight ways to read four corners as TL, TR, BR, BL: four turns, each mirrored or not."""
    turns = [np.roll(corners, -k, axis=0) for k in range(4)]
    return turns + [t[[1, 0, 3, 2]] for t in turns]


def _describe(frame: Image, corners: FloatArray, layout: Layout) -> tuple[Image, Descriptors]:
    view = canonical(frame, corners)
    return view, observe(view, layout)[2]


@dataclass(frozen=True)
class Calibration:
    """Everything later frames are read with.  ``view`` is the calibration frame's canonical view."""

    corners: FloatArray  # camera px of the numbering frame's TL, TR, BR, BL
    frame_size: tuple[int, int]  # (width, height) the corners belong to
    view: Image
    small_log: npt.NDArray[np.float32]  # the view at half resolution, as log intensities
    grid: FloatArray  # the view's light grid
    templates: Templates
    #: Where the start frame showed "dice" (canonical board units): the board's own fittings, such
    #: as the metal hinges at the ends of a tournament board's bar, read as white 1s.
    fittings: tuple[tuple[float, float], ...] = ()
    #: The board's checkers' diameter (canonical px; `vision.discs.checker_pitch`): every frame's
    #: places are laid out for it (`layout`).
    checker: float = GEOMETRY.checker

    @property
    def layout(self) -> Layout:
        return layout_for(self.checker)

    @classmethod
    def from_view(cls, corners: FloatArray, frame_size: tuple[int, int], view: Image,
                  fittings: tuple[tuple[float, float], ...] = (), checker: float = GEOMETRY.checker,
                  ) -> Calibration:
        # The corners as the file keeps them: a calibration made here and the one loaded from its
        # file warp every frame alike.  Kept to the last digit, the referee bench's games read
        # through the file called 5 flat rolls cocked and through the calibration in memory 3, and
        # the service read a board it had just calibrated otherwise than after a restart.
        kept = np.asarray(np.round(np.asarray(corners, np.float64), CORNER_DECIMALS), np.float64)
        small, grid, described = observe(view, layout_for(checker))
        return cls(kept, frame_size, view, LOG[small], grid, Templates.learn(described, START_LABELS),
                   fittings, checker)

    def to_json(self) -> str:
        ok, png = cv2.imencode(".png", self.view)
        if not ok:
            raise CalibrationError("could not encode the calibration view")
        return json.dumps({
            "version": VERSION,
            "corners": [[round(float(v), CORNER_DECIMALS) for v in c] for c in self.corners],
            "frame_size": list(self.frame_size),
            "view_png": base64.b64encode(png.tobytes()).decode("ascii"),
            "fittings": [[round(x, 1), round(y, 1)] for x, y in self.fittings],
            "checker": round(self.checker, 1),
        })

    @classmethod
    def from_json(cls, text: str | bytes) -> Calibration:
        """Parse a saved calibration (``bytes`` as read from its file: UTF-8, a byte-order mark
        allowed); :class:`CalibrationError` says what is wrong with it, naming the field and
        what it should hold.  Every field is checked here, so no later step meets a bad value."""
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8-sig")
            except UnicodeDecodeError as err:
                raise CalibrationError(f"not UTF-8 text (byte {text[err.start]:#04x} at offset {err.start}): "
                                       "a calibration is the JSON `pipgammon calibrate` writes") from err
        try:
            data = json.loads(text)
        except ValueError as err:  # JSONDecodeError, and a whole number of over 4,300 digits
            raise CalibrationError(f"not JSON: {err}") from err
        except RecursionError as err:
            raise CalibrationError("not a pipgammon calibration: JSON nested too deeply to read") from err
        if not isinstance(data, dict) or "version" not in data:
            raise CalibrationError("not a pipgammon calibration (no \"version\" key): make one with "
                                   "`pipgammon calibrate START_IMAGE -o FILE`")
        version = data["version"]
        if not _is_int(version):
            raise _malformed("version", f"a whole number (this pipgammon reads version {VERSION})", version)
        if version != VERSION:
            raise CalibrationError(f"calibration version {version!r}, this pipgammon reads version "
                                   f"{VERSION}: calibrate again with `pipgammon calibrate`")
        corners = _pairs(data, "corners", CORNERS_WANTED, 4)
        width, height = _frame_size(data)
        # Files written before fittings were kept have none.
        fittings = _pairs(data, "fittings", FITTINGS_WANTED) if "fittings" in data else np.zeros((0, 2))
        if ((fittings < -MARGIN) | (fittings > np.array([_WIDE, _HIGH]))).any():
            raise _malformed("fittings", FITTINGS_WANTED, data["fittings"])
        # Files written before checkers were measured were read at the canonical board's.
        checker = GEOMETRY.checker
        if "checker" in data:
            measured = _number(data["checker"])
            if measured is None:
                raise _malformed("checker", "a number (a checker's diameter, canonical px)", data["checker"])
            checker = measured
        low, high = (share * GEOMETRY.checker for share in CHECKER_SHARES)
        if not low <= checker <= high:
            raise CalibrationError(f"'checker' must be a checker's diameter from {low:.1f} to {high:.1f} "
                                   f"canonical px, not {checker!r}")
        view = _decoded_view(_view_png(data))
        check_outline(corners, (width, height))
        return cls.from_view(corners, (width, height), view,
                             tuple((float(x), float(y)) for x, y in fittings), checker)


#: The largest frame side a calibration may give (px): far beyond any camera's.
MAX_SIDE = 1 << 16
#: How far a calibration's corner may lie outside its frame, as a share of the frame's larger
#: side.  A corner fitted to a board whose edge the frame cuts may lie a little beyond it (a user's
#: `--corners` may lie 1 % beyond: `pipgammon.vision_cli.OUTSIDE`); 5 % is most of a checker's
#: width when the board fills the frame (a checker is 7 % of the board's length), so the start's
#: checker by that corner was cut off.
OUTSIDE = 0.05
#: The least share of its frame the playing area may cover: the 14 real photos' boards cover
#: 40 to 66 %, and at 1 % a die would be a few pixels across.
LEAST_AREA = 0.01
CORNER_NAMES = ("TL", "TR", "BR", "BL")
CORNERS_WANTED = "four [x, y] pairs of finite numbers (camera px of TL, TR, BR, BL)"
_WIDE, _HIGH = GEOMETRY.size[0] + MARGIN, GEOMETRY.size[1] + MARGIN
FITTINGS_WANTED = (f"a list of [x, y] pairs of finite numbers on the board (canonical px, {-MARGIN:g} to "
                   f"{_WIDE:g} across and {-MARGIN:g} to {_HIGH:g} down)")
FRAME_SIZE_WANTED = f"[width, height] in whole pixels, each from {MIN_SIDE} to {MAX_SIDE}"


def _shown(value: object) -> str:
    """A field's value as JSON, cut short: what the file says, for the message."""
    try:
        text = json.dumps(value, allow_nan=True)
    except (ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _malformed(key: str, wanted: str, value: object) -> CalibrationError:
    return CalibrationError(f"calibration field {key!r} malformed: want {wanted}, not {_shown(value)}")


def _is_int(value: object) -> bool:
    """A JSON whole number (``true`` is none, nor is ``2.0``)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> float | None:
    """A JSON number as a float (a whole number too large for one is infinite), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def _pairs(data: dict[str, object], key: str, wanted: str, count: int | None = None) -> FloatArray:
    """``data[key]``: a list of ``count`` (any number if None) [x, y] pairs of finite numbers."""
    if key not in data:
        raise CalibrationError(f"calibration field {key!r} missing: want {wanted}")
    value = data[key]
    if isinstance(value, list) and (count is None or len(value) == count):
        pairs = [[_number(v) for v in pair] if isinstance(pair, list) and len(pair) == 2 else [None]
                 for pair in value]
        if all(v is not None and math.isfinite(v) for pair in pairs for v in pair):
            return np.array(pairs, np.float64).reshape(-1, 2)
    raise _malformed(key, wanted, value)


def _frame_size(data: dict[str, object]) -> tuple[int, int]:
    if "frame_size" not in data:
        raise CalibrationError(f"calibration field 'frame_size' missing: want {FRAME_SIZE_WANTED}")
    value = data["frame_size"]
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(v) for v in value)):
        raise _malformed("frame_size", FRAME_SIZE_WANTED, value)
    return int(value[0]), int(value[1])


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _view_png(data: dict[str, object]) -> bytes:
    """The calibration view's PNG bytes, checked to be a PNG of the view's size before it is decoded."""
    wanted = "the calibration view, a {}x{} PNG in base64".format(*view_size())
    if "view_png" not in data:
        raise CalibrationError(f"calibration field 'view_png' missing: want {wanted}")
    value = data["view_png"]
    if not isinstance(value, str):
        raise _malformed("view_png", wanted, value)
    try:
        png = base64.b64decode(value, validate=True)
    except ValueError as err:  # binascii.Error, and non-ASCII text
        raise CalibrationError(f"calibration field 'view_png' malformed: want {wanted}, not base64 "
                               f"({err})") from err
    # The header gives the size: a huge image is refused before it takes the memory to decode it.
    if png[:8] != PNG_SIGNATURE or png[12:16] != b"IHDR" or (
            int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) != view_size():
        raise CalibrationError(f"'view_png' is not a calibration view image: want {wanted}")
    return png


def _decoded_view(png: bytes) -> Image:
    view = decode_quietly(png, cv2.IMREAD_COLOR)
    if view is None or (view.shape[1], view.shape[0]) != view_size():
        raise CalibrationError("'view_png' is not a calibration view image: its PNG data is corrupt")
    return np.asarray(view, np.uint8)


def check_outline(corners: FloatArray, frame_size: tuple[int, int]) -> None:
    """Raise :class:`CalibrationError` unless ``corners`` (TL, TR, BR, BL) go round a convex area
    of at least `LEAST_AREA` of a ``frame_size`` frame, with no corner far outside it (`OUTSIDE`).

    `calibrate` checks the corners it found so too, and never writes a file `Calibration.from_json`
    refuses.  Before files were checked, four corners on one spot divided by zero when dice were
    looked for, and a corner far outside the frame read every frame as `no-board`, saying nothing
    of why."""
    width, height = frame_size
    if not (_is_int(width) and _is_int(height) and min(width, height) >= MIN_SIDE
            and max(width, height) <= MAX_SIDE):
        raise CalibrationError(f"'frame_size' {_shown([width, height])}: want {FRAME_SIZE_WANTED}")
    slack = OUTSIDE * max(width, height)
    for name, (x, y) in zip(CORNER_NAMES, corners, strict=True):
        if not (-slack <= x <= width - 1 + slack and -slack <= y <= height - 1 + slack):
            raise CalibrationError(f"the {name} corner in 'corners' ({x:g}, {y:g}) lies outside the "
                                   f"{width}x{height} frame: the whole board must be in view")
    if not goes_round_in_order(corners):
        raise CalibrationError(f"'corners' {_shown(corners.tolist())} {NOT_IN_ORDER}")
    if small := too_small(corners, (width, height)):
        raise CalibrationError(f"'corners' {small}")


#: What is wrong with corners that `goes_round_in_order` refuses, after naming them.
NOT_IN_ORDER = "do not go round a convex area in order (TL, TR, BR, BL)"


def goes_round_in_order(corners: FloatArray) -> bool:
    """Whether the four ``corners`` go round a convex area in order, either way round: every
    turn from one side to the next is the same way.  Two sides that cross (two corners swapped),
    a corner dented in, and three corners on a line are not.  The caller keeps the corners within
    a frame's reach of it, so the products below cannot overflow."""
    sides = np.roll(corners, -1, axis=0) - corners
    turns = sides[:, 0] * np.roll(sides[:, 1], -1) - sides[:, 1] * np.roll(sides[:, 0], -1)
    return bool((turns > 0).all() or (turns < 0).all())


def too_small(corners: FloatArray, frame_size: tuple[int, int]) -> str | None:
    """Why the area ``corners`` enclose (in order round it) is too small for a board in a
    ``frame_size`` frame (`LEAST_AREA`), if it is: the area and its share, then the rule."""
    width, height = frame_size
    area = 0.5 * abs(float((corners[:, 0] * np.roll(corners[:, 1], -1)
                            - np.roll(corners[:, 0], -1) * corners[:, 1]).sum()))
    if area >= LEAST_AREA * width * height:
        return None
    share = 100 * area / (width * height)
    return (f"enclose {area:.0f} px², {share:.2g} % of the {width}x{height} frame; a board covers at "
            f"least {LEAST_AREA:.0%}")


def calibrate(frame: Image, corners: FloatArray, model: SlotModel | None = None) -> Calibration:
    """Learn the numbering and looks from ``frame``, the start position with no dice.

    ``corners`` are the playing area's corners (bar included) in any order around
    the board.  Raises :class:`CalibrationError` with the reason when the frame
    does not show exactly the starting position.
    """
    model = model or SlotModel.load()
    height, width = frame.shape[:2]
    # A hand over a bare place would be learnt as that place's empty look, and every later
    # frame read against it; the covered check below knows only rendered hands.
    if hands := hands_over(frame, np.asarray(corners, np.float64)):
        raise CalibrationError(f"a hand over the board (sure to {max(h.presence for h in hands):.2f}): "
                               "take the starting position with nothing over it")
    # The start's rows of touching checkers show their size in any of the eight orientations.
    checker = checker_pitch(canonical(frame, np.asarray(corners, np.float64))) or GEOMETRY.checker
    layout = layout_for(checker)
    scored = []
    for candidate in orientations(np.asarray(corners, np.float64)):
        view, described = _describe(frame, candidate, layout)
        scored.append((_separation(faces(described)), candidate, view, described))
    score, chosen, view, described = min(scored, key=lambda s: s[0])
    colours = faces(described)
    if colours[START_LABELS == WHITE].mean() < colours[START_LABELS == BLACK].mean():
        # The start's checkers are symmetric top to bottom with the colours swapped, so the
        # numbering upside down fits as well: White is the lighter side.
        chosen = chosen[[3, 2, 1, 0]]
    # The start checkers are masked out of the fit, and where they lie depends on the numbering.
    chosen = fit_to_triangles(frame, chosen)
    # The looks are learnt from the view through the corners as fitted, which every later frame
    # of this mount is read through.
    view, described = _describe(frame, chosen, layout)
    if score > 0.5:
        raise CalibrationError(
            "the start position's places do not show two checker colours (within a colour they "
            f"differ {score:.2f} times as much as the two colours differ; a start frame gives under "
            "0.5): is this the starting position, with the whole playing area inside the corners?")
    check = Templates.learn(described, START_LABELS, borrow_all=True)
    probabilities = model.probabilities(check.inputs(described))
    covered = np.flatnonzero(probabilities.argmax(axis=1) == COVERED)
    if len(covered) >= HAND:
        named = ", ".join(place_name(i) for i in covered[:4])
        raise CalibrationError(f"something is over the board ({named}...): "
                               "take the starting position with nothing over it")
    # Borrowed looks are a little off by nature: a place is judged by what it can really hold,
    # and only a confident disagreement counts.  One odd place alone (a glint on one triangle)
    # is forgiven unless it is what a missing checker leaves: the end of a start row empty.
    seen = probabilities[:, :COVERED].argmax(axis=1)
    sure = probabilities[:, :COVERED].max(axis=1) / probabilities[:, :COVERED].sum(axis=1)
    wrong = np.flatnonzero((seen != START_LABELS) & (sure >= SURE))
    if len(wrong) == 1 and (wrong[0] not in ROW_ENDS
                            or _row_whole(view, int(wrong[0]), seen, layout.checker)):
        wrong = wrong[:0]
    if len(wrong):
        raise CalibrationError(_not_the_start(view, wrong, seen, layout))
    # A file `Calibration.from_json` would refuse is never written.
    check_outline(chosen, (width, height))
    return Calibration.from_view(chosen, (width, height), view, fittings(frame, chosen, view), layout.checker)


def _not_the_start(view: Image, wrong: np.ndarray, seen: np.ndarray, layout: Layout) -> str:
    """Why a frame is refused as not the starting position: the places that differ from the start
    (``seen`` read there), the first six named.  Those that show pure white are named as such and
    the lamp is blamed: a lamp too bright for the exposure washed a white checker into its pale
    triangle on unseen seed 7,000,264, whose refusal had only sent the user to count checkers."""
    washed = set(washed_out(reduce(view), np.isin(np.arange(len(PLACES)), wrong), layout))
    named = "; ".join(f"{place_name(i)} shows {SHOWS[seen[i]]}, the start has {SHOWS[START_LABELS[i]]}"
                      + (" (it shows pure white)" if i in washed else "") for i in wrong[:6])
    if not washed:
        return f"not the starting position: {named}"
    return (f"not the starting position, or a lamp too bright: {named}: if the checkers are right, "
            "dim or move the lamp, or shorten the camera's exposure, and calibrate again")


def _row_whole(view: Image, place: int, seen: np.ndarray, checker: float) -> bool:
    """Whether the start row that ``place`` ends, read as bare (``seen``), still shows all its
    checkers' discs in ``view``: a lamp's glint over the row's last checker washes out its face,
    which the self-check then reads as nothing, but its rim still shows (unseen seed 6,700,172,
    the 5th black checker of the 6-point under a glint, was refused).  A checker truly missing
    leaves one disc fewer."""
    point = place // SLOTS + 1
    found = discs_per_point(view, [point], checker=checker)
    return bool(seen[place] == EMPTY and found.checkers[point - 1] >= abs(START.at(point)))


def fittings(frame: Image, corners: FloatArray, view: Image) -> tuple[tuple[float, float], ...]:
    """Where the dice reader finds "dice" on the start frame (``view``: its `canonical` view), which has
    none: the board's own fittings, in canonical board units.

    A calibration sees them where they are, and every later frame of the mount drops a die found
    at one (`vision.dice.physical`)."""
    dice, _ = on_board(frame, corners, view=view)
    if not dice:
        return ()
    return tuple((float(x), float(y)) for x, y in on_board_units(corners, [die.centre for die in dice]))

