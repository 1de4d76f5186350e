"""The simulated board: a `LightPlan` as terminal text and as a picture of the board.

It shows what an RGB board would, colours and all (not the single-colour mapping), so
``make demo`` and the web page can show the referee's lights with no hardware.

>>> from engine.lights import GREEN, RED, Light, LightPlan
>>> plan = LightPlan.dark().with_points({8: Light.steady(GREEN), 6: Light.blink(RED)})
>>> print(render_text(plan))
 13  14  15  16  17  18  | bar |  19  20  21  22  23  24  | off-white  turn-white
  .   .   .   .   .   .  |  .  |   .   .   .   .   .   .  |     .          .
                         |     |                          | status .
  .   .   .   .   G   .  |     |   R!  .   .   .   .   .  |     .          .
 12  11  10   9   8   7  |     |   6   5   4   3   2   1  | off-black  turn-black
G green  R red  A amber  B blue  W white  * other;  ! blink  ~ pulse
"""

from __future__ import annotations

import time
from typing import IO, Self

import cv2
import numpy as np

from engine.lights import AMBER, BLUE, GREEN, RED, WHITE, Light, LightPlan, Pattern, looks_like
from hardware.errors import HardwareError
from hardware.lights import Clock

# Points as the board is seen from Black's edge (as vision/ draws it): 13..24 along the
# top, 12..1 along the bottom, the bar between the quarters, the off trays on the right.
TOP = tuple(range(13, 25))
BOTTOM = tuple(range(12, 0, -1))

_LETTERS = {GREEN: "G", RED: "R", AMBER: "A", BLUE: "B", WHITE: "W"}
_MARKS = {Pattern.STEADY: " ", Pattern.BLINK: "!", Pattern.PULSE: "~"}
LEGEND = "G green  R red  A amber  B blue  W white  * other;  ! blink  ~ pulse"


def _mark(light: Light) -> str:
    if not light.is_on:
        return ". "
    named = looks_like(light.colour)
    return (_LETTERS[named] if named is not None else "*") + _MARKS[light.pattern]


def render_text(plan: LightPlan) -> str:
    """Plain text, one lamp per cell: colour letter plus ``!`` for blink, ``~`` for pulse."""

    def row(points: tuple[int, ...]) -> str:
        cells = [f"  {_mark(plan.point(p))}" for p in points]
        return "".join(cells[:6]) + " "

    def numbers(points: tuple[int, ...]) -> str:
        return "".join(f" {p:>2} " for p in points[:6]) + " "

    def right(points: tuple[int, ...]) -> str:
        return "".join(f"  {_mark(plan.point(p))}" for p in points[6:]) + " "

    top = [numbers(TOP) + "| bar | " + numbers(TOP[6:]) + "| off-white  turn-white",
           row(TOP) + f"|  {_mark(plan['bar'])} | " + right(TOP)
           + f"|     {_mark(plan['off-white'])}         {_mark(plan['turn-white'])}",
           " " * 25 + "|     |" + " " * 26 + f"| status {_mark(plan['status'])}"]
    bottom = [row(BOTTOM) + "|     | " + right(BOTTOM)
              + f"|     {_mark(plan['off-black'])}         {_mark(plan['turn-black'])}",
              numbers(BOTTOM) + "|     | " + numbers(BOTTOM[6:]) + "| off-black  turn-black"]
    lines = [*top, *bottom, LEGEND]
    return "\n".join(line.rstrip() for line in lines)


# The picture: non-square on purpose, like a real board photographed from above.
WIDTH, HEIGHT = 1000, 620
_FRAME, _BAR_W, _TRAY_W = 32, 64, 100
_WOOD, _FELT = (40, 80, 130), (60, 110, 40)  # BGR
_TRIANGLES = ((40, 40, 150), (200, 225, 235))  # dark red, ivory


def _geometry() -> tuple[dict[int, tuple[int, int, int, bool]], dict[str, tuple[int, int]]]:
    """Each point's (left x, right x, base y, is_top) and each other lamp's centre."""
    field_w = WIDTH - 2 * _FRAME - _TRAY_W - _BAR_W
    point_w = field_w // 12
    left0 = _FRAME
    right0 = _FRAME + 6 * point_w + _BAR_W
    points: dict[int, tuple[int, int, int, bool]] = {}
    for i, p in enumerate(TOP):
        x = (left0 if i < 6 else right0) + (i % 6) * point_w
        points[p] = (x, x + point_w, _FRAME, True)
    for i, p in enumerate(BOTTOM):
        x = (left0 if i < 6 else right0) + (i % 6) * point_w
        points[p] = (x, x + point_w, HEIGHT - _FRAME, False)
    bar_x = _FRAME + 6 * point_w + _BAR_W // 2
    tray_x = WIDTH - _FRAME - _TRAY_W // 2
    lamps = {
        "bar": (bar_x, HEIGHT // 2 + 60),
        "status": (bar_x, HEIGHT // 2 - 60),
        "off-white": (tray_x, _FRAME + 110),
        "off-black": (tray_x, HEIGHT - _FRAME - 110),
        "turn-white": (tray_x, _FRAME + 30),
        "turn-black": (tray_x, HEIGHT - _FRAME - 30),
    }
    return points, lamps


def render_image(plan: LightPlan, seconds: float = 0.0) -> np.ndarray:
    """A BGR picture of the board, each lit lamp glowing at its level ``seconds`` after showing."""
    image: np.ndarray = np.full((HEIGHT, WIDTH, 3), _WOOD, np.uint8)
    points, lamps = _geometry()
    field_right = WIDTH - _FRAME - _TRAY_W - 10
    cv2.rectangle(image, (_FRAME, _FRAME), (field_right, HEIGHT - _FRAME), _FELT, -1)
    bar_x = lamps["bar"][0]
    cv2.rectangle(image, (bar_x - _BAR_W // 2, 0), (bar_x + _BAR_W // 2, HEIGHT), _WOOD, -1)
    tray = (WIDTH - _FRAME - _TRAY_W, _FRAME)
    cv2.rectangle(image, tray, (WIDTH - _FRAME, HEIGHT // 2 - 10), (30, 60, 100), -1)
    cv2.rectangle(image, (tray[0], HEIGHT // 2 + 10), (WIDTH - _FRAME, HEIGHT - _FRAME), (30, 60, 100), -1)
    tip = int(HEIGHT * 0.4) - _FRAME
    centres: list[tuple[tuple[int, int], Light]] = []
    for point, (x0, x1, base, is_top) in points.items():
        tip_y = base + tip if is_top else base - tip
        triangle = np.array([[x0 + 2, base], [x1 - 2, base], [(x0 + x1) // 2, tip_y]], np.int32)
        cv2.fillPoly(image, [triangle], _TRIANGLES[point % 2], cv2.LINE_AA)
        label_y = base - 9 if is_top else base + 21
        _label(image, str(point), ((x0 + x1) // 2, label_y), 0.5)
        centres.append((((x0 + x1) // 2, base + 16 if is_top else base - 16), plan.point(point)))
    for lamp, centre in lamps.items():
        _label(image, lamp, (centre[0], centre[1] + 28 if centre[1] < HEIGHT // 2 else centre[1] - 18), 0.38)
        centres.append((centre, plan[lamp]))
    # A lamp is a dark socket; a lit one gets its colour at this moment's level and a halo.
    glow = np.zeros_like(image)
    for centre, light in centres:
        cv2.circle(image, centre, 10, (30, 30, 30), -1, cv2.LINE_AA)
        r, g, b = light.rgb(seconds)
        if r or g or b:
            cv2.circle(glow, centre, 12, (b, g, r), -1, cv2.LINE_AA)
    halo = cv2.GaussianBlur(glow, (0, 0), 10)
    image = np.asarray(cv2.addWeighted(image, 1.0, halo, 2.5, 0.0), np.uint8)
    for centre, light in centres:
        r, g, b = light.rgb(seconds)
        if r or g or b:
            cv2.circle(image, centre, 8, (b, g, r), -1, cv2.LINE_AA)
    return image


def _label(image: np.ndarray, text: str, centre: tuple[int, int], scale: float) -> None:
    (w, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    cv2.putText(image, text, (centre[0] - w // 2, centre[1]), cv2.FONT_HERSHEY_SIMPLEX, scale,
                (220, 230, 240), 1, cv2.LINE_AA)


class SimLights:
    """A `BoardLights` with no hardware: it prints each new plan and draws the board on demand."""

    def __init__(self, out: IO[str] | None = None, *, clock: Clock = time.monotonic) -> None:
        self._out = out
        self._clock = clock
        self.plan = LightPlan.dark()
        self.shown_at = clock()
        self._closed = False

    def show(self, plan: LightPlan) -> None:
        if self._closed:
            raise HardwareError("SimLights is closed")
        if plan != self.plan:
            self.plan, self.shown_at = plan, self._clock()
            if self._out is not None:
                self._out.write(render_text(plan) + "\n")

    def image(self, now: float | None = None) -> np.ndarray:
        """The board as it looks at ``now`` (default: the clock)."""
        return render_image(self.plan, (self._clock() if now is None else now) - self.shown_at)

    def close(self) -> None:
        self.plan = LightPlan.dark()
        self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

