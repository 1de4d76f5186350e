"""One frame of the board read whole: the checkers, the dice and the cube.

This is what `pipgammon read` prints and what the stabiliser is fed.  The dice are read
first because a place under a flat die holds no checker (`read`'s ``flat_dice``); a
cocked die makes an ``ok`` frame ``cocked``, since the rulebook has that roll thrown again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.calibration import Calibration
from vision.corners import read_corners
from vision.dice import CubeOnBoard, Die, on_board
from vision.reading import Reading, read
from vision.stabiliser import Scene
from vision.view import Image


@dataclass(frozen=True, slots=True)
class Observation:
    reading: Reading
    dice: tuple[Die, ...] = ()
    cube: CubeOnBoard | None = None

    @property
    def status(self) -> str:
        if self.reading.status == "ok" and any(d.cocked for d in self.dice):
            return "cocked"
        return self.reading.status

    def scene(self) -> Scene:
        """What the stabiliser compares from frame to frame."""
        dice = tuple(sorted((d.colour.value, d.value, d.cocked) for d in self.dice))
        cube = None if self.cube is None else (self.cube.value, self.cube.position)
        return Scene(self.reading.points, self.reading.bar, dice, self.reading.stacked, cube)

    def to_json(self) -> dict[str, Any]:
        """CONTRACT.md's keys of `pipgammon read`, without ``image`` and ``ms``."""
        return {
            **self.reading.to_json(),
            "status": self.status,
            "dice": [{"color": d.colour.value, "value": d.value, "cocked": d.cocked} for d in self.dice],
            "cube": None if self.cube is None else self.cube.to_json(),  # null: no cube on the board
        }


def observe(frame: Image, calibration: Calibration) -> Observation:
    """Read a frame from the calibrated mount."""
    if (frame.shape[1], frame.shape[0]) != tuple(calibration.frame_size):
        return Observation(read(frame, calibration))  # no-board, with the reason
    dice, cube = on_board(frame, calibration.corners)
    reading = read(frame, calibration, flat_dice=[d.centre for d in dice if not d.cocked])
    return Observation(reading) if reading.status == "no-board" else Observation(reading, dice, cube)


def observe_corners(frame: Image, corners: np.ndarray) -> Observation:
    """Read a photo from the corners of its playing area (no places are cleared under dice yet)."""
    reading = read_corners(frame, corners)
    if reading.status == "no-board":
        return Observation(reading)
    dice, cube = on_board(frame, corners)
    return Observation(reading, dice, cube)
