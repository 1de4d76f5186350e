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
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.position import Position
from vision.dice import on_board
from vision.discs import checker_pitch
from vision.geometry import FloatArray
from vision.hands import hands_over
from vision.outline import fit_to_triangles
from vision.slot_model import SlotModel
from vision.templates import BLACK, COVERED, SHOWS, WHITE, Descriptors, Templates, labels_for
from vision.view import (
    GEOMETRY,
    GRID,
    LOG,
    PLACES,
    Image,
    Layout,
    canonical,
    cells_within,
    layout_for,
    mount_view,
    observe,
    on_board_units,
    place_index,
    place_name,
    view_size,
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


def _describe(frame: Image, corners: FloatArray, layout: Layout,
              warp: Callable[[Image, FloatArray], Image] = canonical) -> tuple[Image, Descriptors]:
    view = warp(frame, corners)
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
        small, grid, described = observe(view, layout_for(checker))
        return cls(corners, frame_size, view, LOG[small], grid, Templates.learn(described, START_LABELS),
                   fittings, checker)

    def to_json(self) -> str:
        ok, png = cv2.imencode(".png", self.view)
        if not ok:
            raise CalibrationError("could not encode the calibration view")
        return json.dumps({
            "version": VERSION,
            "corners": [[round(float(v), 2) for v in c] for c in self.corners],
            "frame_size": list(self.frame_size),
            "view_png": base64.b64encode(png.tobytes()).decode("ascii"),
            "fittings": [[round(x, 1), round(y, 1)] for x, y in self.fittings],
            "checker": round(self.checker, 1),
        })

    @classmethod
    def from_json(cls, text: str) -> Calibration:
        """Parse a saved calibration; :class:`CalibrationError` says what is wrong with it."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise CalibrationError(f"not JSON: {err}") from err
        if not isinstance(data, dict) or "version" not in data:
            raise CalibrationError("not a pipgammon calibration (no \"version\" key): make one with "
                                   "`pipgammon calibrate START_IMAGE -o FILE`")
        if data["version"] != VERSION:
            raise CalibrationError(f"calibration version {data['version']!r}, this pipgammon reads version "
                                   f"{VERSION}: calibrate again with `pipgammon calibrate`")
        try:
            corners = np.array(data["corners"], np.float64)
            width, height = (int(v) for v in data["frame_size"])
            png = np.frombuffer(base64.b64decode(data["view_png"], validate=True), np.uint8)
            # Files written before fittings were kept have none.
            fittings = np.array(data.get("fittings", []), np.float64).reshape(-1, 2)
            # Files written before checkers were measured were read at the canonical board's.
            checker = float(data.get("checker", GEOMETRY.checker))
        except (KeyError, TypeError, ValueError) as err:
            raise CalibrationError(f"calibration field missing or malformed: {err}") from err
        if corners.shape != (4, 2) or not np.isfinite(corners).all():
            raise CalibrationError("'corners' must be four [x, y] pairs")
        if not np.isfinite(fittings).all():
            raise CalibrationError("'fittings' must be [x, y] pairs of numbers")
        low, high = (share * GEOMETRY.checker for share in CHECKER_SHARES)
        if not low <= checker <= high:
            raise CalibrationError(f"'checker' must be a checker's diameter from {low:.1f} to {high:.1f} "
                                   f"canonical px, not {checker!r}")
        view = cv2.imdecode(png, cv2.IMREAD_COLOR)
        if view is None or (view.shape[1], view.shape[0]) != view_size():
            raise CalibrationError("'view_png' is not a calibration view image")
        return cls.from_view(corners, (width, height), np.asarray(view, np.uint8),
                             tuple((float(x), float(y)) for x, y in fittings), checker)


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
    # The looks are learnt from the view every later frame of this mount is read through; the
    # orientations were tried on one-off views, so no warp maps were worked out for the seven others.
    view, described = _describe(frame, chosen, layout, mount_view)
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
    if len(wrong) == 1 and wrong[0] not in ROW_ENDS:
        wrong = wrong[:0]
    if len(wrong):
        raise CalibrationError("not the starting position: " + "; ".join(
            f"{place_name(i)} shows {SHOWS[seen[i]]}, the start has {SHOWS[START_LABELS[i]]}"
            for i in wrong[:6]))
    return Calibration.from_view(chosen, (width, height), view, fittings(frame, chosen, view), layout.checker)


def fittings(frame: Image, corners: FloatArray, view: Image) -> tuple[tuple[float, float], ...]:
    """Where the dice reader finds "dice" on the start frame (``view``: its `mount_view`), which has
    none: the board's own fittings, in canonical board units.

    A calibration sees them where they are, and every later frame of the mount drops a die found
    at one (`vision.dice.physical`)."""
    dice, _ = on_board(frame, corners, view=view)
    if not dice:
        return ()
    return tuple((float(x), float(y)) for x, y in on_board_units(corners, [die.centre for die in dice]))

