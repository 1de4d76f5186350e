"""The camera's frame as the dashboard shows it: the calibrated grid and what vision read, drawn on top.

A player looking at the page should see at once whether the camera and the referee agree:
the outline of the playing area, every point's triangle and the bar where the calibration
puts them, the number of checkers read on each point and on the bar (a disc in the
checkers' colour, at the point's edge), and each die found, boxed with its value.  If the
grid does not sit on the board, the camera or the board has moved since calibrating.

The calibration knows the playing area only (vision infers the checkers off from the
totals of 15), so the trays are not outlined; the counts off are written in the banner.

Everything is drawn on a copy, scaled down to at most ``max_width`` pixels wide first, so
lines and labels keep their size on the page whatever the camera's resolution.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.view import GEOMETRY, Image, in_frame

#: The widest picture the dashboard sends: a tablet shows no more, and JPEG-encoding a 4K frame
#: for every page's refresh would take the Pi's time from vision.
MAX_WIDTH = 960

GRID_COLOUR = (60, 220, 255)  # BGR amber: visible on both the light and the dark triangles
DIE_COLOUR = (80, 255, 80)
COCKED_COLOUR = (60, 60, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def scaled(image: Image, max_width: int = MAX_WIDTH) -> tuple[Image, float]:
    """A copy of ``image`` at most ``max_width`` wide, and the factor it was scaled by."""
    height, width = image.shape[:2]
    factor = min(1.0, max_width / width)
    if factor == 1.0:
        return image.copy(), 1.0
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8), factor


def _to_frame(corners: Any, factor: float, points: Any) -> np.ndarray:
    """Canonical board units (N, 2) to pixels of the scaled frame."""
    return in_frame(corners, points) * factor


def _poly(image: Image, corners: Any, factor: float, points: Any, colour: tuple[int, int, int],
          thickness: int) -> None:
    drawn = np.round(_to_frame(corners, factor, points)).astype(np.int32)
    cv2.polylines(image, [drawn], True, colour, thickness, cv2.LINE_AA)


def _label(image: Image, text: str, centre: tuple[float, float], *, fill: tuple[int, int, int],
           ink: tuple[int, int, int], scale: float = 0.5) -> None:
    """``text`` centred on a filled disc (a count) at ``centre``."""
    (w, h), _ = cv2.getTextSize(text, FONT, scale, 1)
    x, y = round(centre[0]), round(centre[1])
    radius = max(w, h) // 2 + 6
    cv2.circle(image, (x, y), radius, fill, -1, cv2.LINE_AA)
    cv2.circle(image, (x, y), radius, GRID_COLOUR, 1, cv2.LINE_AA)
    cv2.putText(image, text, (x - w // 2, y + h // 2), FONT, scale, ink, 1, cv2.LINE_AA)


def _banner(image: Image, lines: list[str]) -> None:
    """Lines of text on a dark band along the top of the picture."""
    scale = 0.55
    height = 10 + 22 * len(lines)
    band = image[:height]
    band[:] = (band * 0.35).astype(np.uint8)
    for i, line in enumerate(lines):
        cv2.putText(image, line, (8, 24 + 22 * i), FONT, scale, (255, 255, 255), 1, cv2.LINE_AA)


def grid(image: Image, corners: Any, factor: float) -> None:
    """The playing area, every point's triangle and the bar, in place on ``image`` (already scaled)."""
    g = GEOMETRY
    _poly(image, corners, factor, g.corners(), GRID_COLOUR, 2)
    x0, y0, x1, y1 = g.bar_box()
    _poly(image, corners, factor, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], GRID_COLOUR, 1)
    for point in range(1, 25):
        _poly(image, corners, factor, g.triangle(point), GRID_COLOUR, 1)
        # The number on the board's frame just outside the point's base, clear of its checkers.
        x = g.column_x(g.column(point))
        y = -0.25 * g.checker if g.is_top(point) else g.height + 0.25 * g.checker
        (px, py), = _to_frame(corners, factor, [[x, y]])
        text = str(point)
        (w, h), _ = cv2.getTextSize(text, FONT, 0.4, 1)
        cv2.putText(image, text, (round(px) - w // 2, round(py) + h // 2), FONT, 0.4, GRID_COLOUR, 1,
                    cv2.LINE_AA)


def _counts(image: Image, corners: Any, factor: float, reading: Any) -> None:
    """The checkers read on each point and on the bar, as a disc in their colour with the count."""
    g = GEOMETRY
    white, black = ((245, 245, 245), (0, 0, 0)), ((25, 25, 25), (255, 255, 255))
    for point, count in enumerate(reading.points, start=1):
        if count:
            spot = _to_frame(corners, factor, [g.slot_centre(point, 1)])[0]
            fill, ink = white if count > 0 else black
            _label(image, str(abs(count)), (spot[0], spot[1]), fill=fill, ink=ink, scale=0.6)
    for top, count, (fill, ink) in ((False, reading.bar[0], white), (True, reading.bar[1], black)):
        if count:
            spot = _to_frame(corners, factor, [g.bar_slot(top, 0)])[0]
            _label(image, str(count), (spot[0], spot[1]), fill=fill, ink=ink, scale=0.6)


def _dice(image: Image, factor: float, dice: Any) -> None:
    for die in dice:
        x0, y0, x1, y1 = (round(v * factor) for v in die.box)
        colour = COCKED_COLOUR if die.cocked else DIE_COLOUR
        cv2.rectangle(image, (x0 - 2, y0 - 2), (x1 + 2, y1 + 2), colour, 2, cv2.LINE_AA)
        text = f"{die.value}{' cocked' if die.cocked else ''}"
        (w, h), _ = cv2.getTextSize(text, FONT, 0.55, 2)
        top = max(y0 - 6 - h, 0)
        cv2.rectangle(image, (x0 - 2, top - 4), (x0 + w + 4, top + h + 4), colour, -1)
        cv2.putText(image, text, (x0 + 1, top + h), FONT, 0.55, (0, 0, 0), 2, cv2.LINE_AA)


def overlay(image: Image, calibration: Any | None, observation: Any | None, *, title: str = "camera",
            max_width: int = MAX_WIDTH) -> Image:
    """``image`` (BGR) scaled to ``max_width`` with the grid of ``calibration`` and what
    ``observation`` read drawn on it, under a banner starting with ``title``.  ``calibration``
    is a `vision.calibration.Calibration` (None: not calibrated), ``observation`` a
    `vision.observation.Observation` of this frame (None: only the grid is drawn).  The
    input is never written to."""
    picture, factor = scaled(image, max_width)
    height, width = image.shape[:2]
    lines = [title]
    if calibration is None:
        lines.append("not calibrated: capture the starting position on the calibration page")
    elif (width, height) != tuple(calibration.frame_size):
        cw, ch = calibration.frame_size
        lines.append(f"the frame is {width}x{height}, the calibration is for {cw}x{ch}")
    else:
        grid(picture, calibration.corners, factor)
        if observation is not None and observation.reading.status == "ok":
            _counts(picture, calibration.corners, factor, observation.reading)
    if observation is not None:
        reading = observation.reading
        status = observation.status
        if reading.off is not None and status in ("ok", "cocked"):
            status += f", off: white {reading.off[0]}, black {reading.off[1]}"
        lines[0] += f": {status}"
        if reading.reason:
            lines.append(reading.reason[:90])
        _dice(picture, factor, observation.dice)
    _banner(picture, lines)
    return picture


def jpeg(image: Image, quality: int = 80) -> bytes:
    """``image`` as JPEG bytes."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"could not encode a {image.shape} image as JPEG")
    return bytes(data.tobytes())
