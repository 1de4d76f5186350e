"""Turn a stream of per-frame readings into stable observations for the referee.

Per-frame readings are pure functions of one frame (trackpy's ``locate``); this is the
one stateful part (trackpy's ``linking``).  A scene reaches the referee only when
`StabiliserConfig.agreeing_frames` frames in a row

- were read with status ``ok`` or ``cocked`` (a hand over the board resets the count),
- agree on every point, the bar and the dice (but for a cocked die's face: `what_counts`), and
- show no motion anywhere on the board: a die in flight, a checker being slid or a
  hand at the edge of the frame move pixels even when the reading happens to agree.

It emits a scene once, when it becomes stable and differs from the last one emitted,
with its latency: how many frames and milliseconds after the first frame of the run.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.scene import Scene
from vision.view import Image

__all__ = ["Scene", "Stabiliser", "StabiliserConfig", "Stable", "motion", "shrink", "what_counts"]

#: Motion is measured on the frame shrunk this many times: sensor noise averages out and
#: a die (20+ px) still covers a few cells.
MOTION_SHRINK = 8


@dataclass(frozen=True, slots=True)
class StabiliserConfig:
    agreeing_frames: int = 3
    #: Largest change of a shrunk frame's cell between two frames, in grey levels, that is
    #: still "no motion" (noise and JPEG stay under ~6; a die or a checker moved gives 30+).
    still: float = 12.0


@dataclass(frozen=True, slots=True)
class Stable:
    scene: Scene
    frame: int  # the frame at which it became stable
    first_frame: int  # the first frame of the agreeing run
    latency_ms: float  # from the first frame of the run to the frame it became stable

    @property
    def latency_frames(self) -> int:
        return self.frame - self.first_frame


def shrink(frame: Image) -> np.ndarray:
    """The grey frame shrunk by `MOTION_SHRINK`, as float32, for `motion`."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    return np.asarray(cv2.resize(grey, (max(1, w // MOTION_SHRINK), max(1, h // MOTION_SHRINK)),
                                 interpolation=cv2.INTER_AREA), np.float32)


def motion(before: np.ndarray | None, after: np.ndarray) -> float:
    """The largest change of any cell between two shrunk frames (infinite with no frame before)."""
    if before is None or before.shape != after.shape:
        return float("inf")
    return float(np.abs(after - before).max())


def what_counts(scene: Scene) -> tuple[object, ...]:
    """What frames must agree on: the scene without the face of a cocked die.

    The rulebook has a roll with a cocked die thrown again whatever it shows, so that face is no
    information, and a die leaning on a checker shows its top face so foreshortened that the
    reader's best guess at it changes from frame to frame (a cocked 1 of the stabiliser bench read
    1, 4, 4, 1, 4 in five still frames).  Counted, it kept the roll from ever becoming stable,
    and the referee never heard it was to be thrown again."""
    dice = tuple(sorted((colour, 0 if cocked else value, cocked) for colour, value, cocked in scene.dice))
    return scene.points, scene.bar, dice, scene.stacked, scene.cube


class Stabiliser:
    """Feed it every frame's reading with `push`; it returns a `Stable` when one is due."""

    def __init__(self, config: StabiliserConfig = StabiliserConfig()) -> None:
        self.config = config
        self._run: tuple[object, ...] | None = None  # what the frames of the current run agree on
        self._run_start = 0
        self._run_start_ms = 0.0
        self._run_length = 0
        self._emitted: Scene | None = None

    @property
    def last(self) -> Scene | None:
        """The last scene emitted."""
        return self._emitted

    def push(self, frame: int, timestamp_ms: float, status: str, scene: Scene | None,
             moved: float) -> Stable | None:
        """One frame: its index, time, reading status, scene (``None`` if unread) and `motion`."""
        if status not in ("ok", "cocked") or scene is None or moved > self.config.still:
            self._run = None
            self._run_length = 0
            return None
        key = what_counts(scene)
        if key != self._run:
            self._run, self._run_start, self._run_start_ms, self._run_length = key, frame, timestamp_ms, 0
        self._run_length += 1
        if self._run_length != self.config.agreeing_frames or (
                self._emitted is not None and key == what_counts(self._emitted)):
            return None
        self._emitted = scene
        return Stable(scene, frame, self._run_start, timestamp_ms - self._run_start_ms)

    def reset(self) -> None:
        """Forget everything (a new game): the next stable scene is emitted, even if unchanged."""
        self._emitted = None
        self._run = None
        self._run_length = 0
