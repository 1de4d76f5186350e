"""Is a camera mount good enough to referee?  Pixels per die, focus, glare, and no hand in the way.

Used when setting up a board (``pipgammon camera-check``): the answers are about the
mount and the lamp, so each failed check says what to change.

- **Pixels per die**: a die is `BoardGeometry.die` (0.45 of a checker); the calibration's
  homography says how many frame pixels a checker spans, at the board's far edge too
  (a tilted camera sees it smaller).  Pips need about 40 px a die to be read reliably.
- **Focus**: the variance of the Laplacian over the playing area, per unit of contrast,
  so a dim but sharp frame is not called blurred.
- **Glare**: the share of the playing area at the top of the sensor's range, where a
  lamp's reflection hides whatever is under it.
- **Hands over the board**: none that the hand networks (`vision.hands`) see over the playing
  area, since a hand in the picture changes the focus and glare measured, and hides the board.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.geometry import BoardGeometry
from vision.hands import hands_over, near
from vision.view import Image


@dataclass(frozen=True, slots=True)
class CameraCheckConfig:
    min_die_px: float = 40.0
    min_sharpness: float = 0.02  # Laplacian variance / intensity variance, over the playing area
    max_glare: float = 0.01  # share of playing-area pixels at 250 or more in every channel


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    value: float
    target: str
    passed: bool
    advice: str

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "value": round(self.value, 4), "target": self.target,
                "ok": self.passed, "advice": self.advice}


def die_pixels(calibration: Calibration) -> float:
    """The smallest die side, in frame pixels, anywhere on the playing area."""
    return BoardGeometry().die_pixels(calibration.corners)[0]


def check_camera(frame: Image, calibration: Calibration,
                 config: CameraCheckConfig = CameraCheckConfig()) -> tuple[Check, ...]:
    """The four checks on a frame from the calibrated mount (the frame must match its size)."""
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(calibration.corners).astype(np.int32), 255)
    inside = mask > 0
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    laplacian = cv2.Laplacian(gray, cv2.CV_32F)
    contrast = float(gray[inside].astype(np.float32).var())
    sharpness = float(laplacian[inside].var()) / max(contrast, 1.0)
    glare = float(np.count_nonzero(frame.min(axis=2)[inside] >= 250)) / max(1, int(inside.sum()))
    die = die_pixels(calibration)
    width, height = calibration.frame_size
    hands = hands_over(frame, calibration.corners)
    return (
        Check("pixels per die", die, f">= {config.min_die_px:.0f}", die >= config.min_die_px,
              "ok" if die >= config.min_die_px else
              f"dice are {die:.0f} px across at the far edge: use a higher resolution than {width}x{height}, "
              f"mount the camera lower or use a longer lens"),
        Check("focus", sharpness, f">= {config.min_sharpness}", sharpness >= config.min_sharpness,
              "ok" if sharpness >= config.min_sharpness else
              "the board is blurred: focus the lens on the playing surface and keep the mount still"),
        Check("glare", glare, f"<= {config.max_glare:.0%}", glare <= config.max_glare,
              "ok" if glare <= config.max_glare else
              f"{glare:.1%} of the playing area is burnt out: lower the exposure, move or diffuse the lamp"),
        Check("hands over the board", len(hands), "0", not hands,
              "ok" if not hands else
              f"a hand over the board near {near(hands[0], calibration.corners)}: take the picture again "
              "with nothing over the board"),
    )
