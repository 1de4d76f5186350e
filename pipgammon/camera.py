"""The service's cameras: the Pi camera, a USB webcam, or recorded frames played as a camera.

Every source has the same three calls: `open` (raises `CameraLost` when the camera is not
there), `read` (the next `Shot`; None when a recording has ended; `CameraLost` when the
camera went away) and `close`.  The service closes a lost camera and opens it again until it
is back, so each source only has to say what went wrong, in one line.

Recordings are played as the camera would have seen the table, paced at ``fps``:

- a folder of stills (`pipgammon.frames.stills`): each still stands for a second of the board
  held still (CONTRACT.md), so it is given ``fps`` times, and its button presses after the
  last copy.  Below 4 fps it is given 4 times all the same (`still_copies`), or no board
  would be held still long enough for the stabiliser to trust it.  A replayed source never
  drops a frame when the reader is slow: it is a recording of what happened, not a live feed
  to keep up with.
- a video: each frame once, with the presses of ``NAME.buttons.jsonl`` after it.

Taking a recording away (renaming the folder, unplugging the disk) is a lost camera, and
putting it back carries on from the frame it had reached, like players who wait while
the camera is plugged back in.  With ``loop`` the recording starts again after its end.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from engine.buttons import ButtonEvent
from engine.wording import plural
from pipgammon.config import CameraConfig, SourceKind
from pipgammon.frames import STILL_MS, Frame, FrameSourceError, stills, video_presses

Clock = Callable[[], float]
Sleep = Callable[[float], None]


class CameraLost(OSError):
    """The camera is not there, or stopped giving frames; the reason says which and where."""


@dataclass(frozen=True, slots=True)
class Shot:
    """One camera frame: the BGR image, a name for the journal, and presses right after it."""

    image: np.ndarray
    name: str
    presses: tuple[ButtonEvent, ...] = ()


class Camera(Protocol):
    description: str

    def open(self) -> None: ...

    def read(self) -> Shot | None: ...

    def close(self) -> None: ...


@runtime_checkable
class Recording(Camera, Protocol):
    """A camera that plays frames recorded before (a folder of stills, a video)."""

    def carry_on_after(self, frame: str) -> None:
        """Go on from the frame after ``frame`` (a resumed match's last journaled frame) when
        opened: the table the match was left on, not the recording's start again.  A recording
        without that frame is played from its start."""


def _lap_and_name(frame: str) -> tuple[int, str]:
    """A recording's frame name (``00012.png``, ``37``, ``lap2/00012.png``) as its lap and name."""
    lap, _, name = frame.rpartition("/")
    return (int(lap[3:]) if lap.startswith("lap") and lap[3:].isdigit() else 0), name


def live_name() -> str:
    """A live frame's name in the journal: the UTC time to the millisecond."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%f")[:-3] + "Z"


class _Pace:
    """Gives a frame at most every 1/fps seconds; a late reader is not made to wait."""

    def __init__(self, fps: float, clock: Clock, sleep: Sleep) -> None:
        self.period = 1.0 / fps
        self.clock, self.sleep = clock, sleep
        self.due: float | None = None

    def wait(self) -> None:
        now = self.clock()
        if self.due is not None and now < self.due:
            self.sleep(self.due - now)
            now = self.due
        self.due = now + self.period


def still_copies(fps: float) -> int:
    """How many frames a folder's still is given at ``fps``: a second's worth, but never fewer
    than the stabiliser needs to pass a board on (its first copy moved from the still before,
    then `StabiliserConfig.agreeing_frames` that agree)."""
    from vision.stabiliser import StabiliserConfig

    return max(StabiliserConfig().agreeing_frames + 1, round(fps * STILL_MS / 1000))


class FolderCamera:
    """Stills played as a camera (see the module docstring)."""

    def __init__(self, folder: Path, fps: float, *, loop: bool = False, clock: Clock = time.monotonic,
                 sleep: Sleep = time.sleep) -> None:
        self.folder = folder
        self.description = f"folder:{folder}"
        self.copies = still_copies(fps)
        self.loop = loop
        self._pace = _Pace(fps, clock, sleep)
        self._frames: list[Frame] = []
        self._at = 0  # the still being given
        self._copy = 0  # how many copies of it were given
        self._lap = 0
        self._image: np.ndarray | None = None
        self._after: str | None = None  # `carry_on_after`, done at the next `open`
        self._unreadable: str | None = None  # the still that could not be read last time

    def carry_on_after(self, frame: str) -> None:
        self._after = frame

    def open(self) -> None:
        try:
            frames = stills(self.folder)
        except FrameSourceError as err:
            raise CameraLost(str(err)) from err
        if self._frames and [f.name for f in frames] != [f.name for f in self._frames]:
            raise CameraLost(f"{self.folder}: came back with other stills; not the recording it was")
        if self._after is not None:
            # Stills without that frame are another recording of the table as it is now, played
            # from their start as a live camera would show it.
            lap, name = _lap_and_name(self._after)
            names = [f.name for f in frames]
            if name in names:
                self._at, self._copy, self._lap = names.index(name) + 1, 0, lap
            self._after = None
        self._frames = frames
        self._image = None  # read the still again from the disk that came back

    def read(self) -> Shot | None:
        from vision.images import ImageError, load

        if not self._frames:
            raise CameraLost(f"{self.folder}: not open")
        if self._at >= len(self._frames):
            if not self.loop:
                return None
            self._at, self._lap = 0, self._lap + 1
        frame = self._frames[self._at]
        assert frame.path is not None
        if self._image is None:
            if not self.folder.is_dir():
                raise CameraLost(f"{self.folder}: the folder is gone")
            try:
                self._image = load(frame.path)
            except ImageError as err:
                # Once, it may be a still being copied in, read again when the camera is opened
                # again; twice, it is damaged, and is skipped: retried for ever, a run with
                # --until-end never ended ("camera lost 28 times" until killed).
                if self._unreadable != frame.name:
                    self._unreadable = frame.name
                    raise CameraLost(str(err)) from err
                self._unreadable = None
                self._at, self._copy = self._at + 1, 0
                raise CameraLost(f"{err}; skipped, unreadable twice") from err
            self._unreadable = None
        self._pace.wait()
        self._copy += 1
        last = self._copy >= self.copies
        name = frame.name if self._lap == 0 else f"lap{self._lap}/{frame.name}"
        shot = Shot(self._image, name, frame.presses if last else ())
        if last:
            self._at, self._copy, self._image = self._at + 1, 0, None
        return shot

    def close(self) -> None:
        self._image = None


class VideoCamera:
    """A recorded video played as a camera."""

    def __init__(self, video: Path, fps: float, *, loop: bool = False, clock: Clock = time.monotonic,
                 sleep: Sleep = time.sleep) -> None:
        self.video = video
        self.description = f"video:{video}"
        self.loop = loop
        self._pace = _Pace(fps, clock, sleep)
        self._capture: Any = None
        self._presses: dict[str, tuple[ButtonEvent, ...]] = {}
        self._index = 0  # the next frame to give
        self._lap = 0
        self._after: str | None = None  # `carry_on_after`, done at the next `open`
        self._grabbed = False

    def carry_on_after(self, frame: str) -> None:
        self._after = frame

    def open(self) -> None:
        import cv2

        if self._after is not None:
            lap, name = _lap_and_name(self._after)
            if name.isdigit():  # else a frame of another source: this video is played from its start
                self._index, self._lap = int(name) + 1, lap
            self._after = None
        if not self.video.is_file():
            raise CameraLost(f"{self.video}: no such video")
        try:
            self._presses = video_presses(self.video)
        except FrameSourceError as err:
            raise CameraLost(str(err)) from err
        from vision.images import video_quietly

        # Quietly: a PNG named as the video had ffmpeg print "[png @ 0x...] Invalid PNG signature"
        # lines, and the run then ended with "0 frames" and exit 0.  A file OpenCV opens but whose
        # first frame it cannot decode gives no frames: not a video, said as such.
        capture, _ = video_quietly(lambda: cv2.VideoCapture(str(self.video)))
        if not capture.isOpened():
            raise CameraLost(f"{self.video}: not a video OpenCV can open")
        self._grabbed = self._index == 0 and video_quietly(capture.grab)[0]  # `read` retrieves it
        if self._index == 0 and not self._grabbed:
            capture.release()
            raise CameraLost(f"{self.video}: gives no frames: not a video OpenCV can read")
        # Back where it was: frame-exact seeking is unreliable in MJPG, so read up to it.
        for _ in range(self._index):
            if not capture.grab():
                capture.release()
                raise CameraLost(f"{self.video}: came back shorter than the "
                                 f"{plural(self._index, 'frame')} played")
        self._capture = capture

    def read(self) -> Shot | None:
        if self._capture is None:
            raise CameraLost(f"{self.video}: not open")
        ok, image = self._next()
        if not ok:
            if not self.video.is_file():
                raise CameraLost(f"{self.video}: the video is gone")
            if not self.loop or self._index == 0:
                return None
            self.close()
            self._index, self._lap = 0, self._lap + 1
            self.open()
            ok, image = self._next()
            if not ok:
                return None
        self._pace.wait()
        index = self._index
        self._index += 1
        name = str(index) if self._lap == 0 else f"lap{self._lap}/{index}"
        return Shot(np.asarray(image, np.uint8), name, self._presses.get(str(index), ()))

    def _next(self) -> tuple[bool, Any]:
        if self._grabbed:  # the first frame, grabbed by `open` to see that there is one
            self._grabbed = False
            return self._capture.retrieve()  # type: ignore[no-any-return]
        return self._capture.read()  # type: ignore[no-any-return]

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class UsbCamera:
    """A V4L2 webcam through OpenCV."""

    def __init__(self, device: int, size: tuple[int, int], fps: float) -> None:
        self.device, self.size, self.fps = device, size, fps
        self.description = f"usb:{device} (/dev/video{device})"
        self._capture: Any = None

    def open(self) -> None:
        import cv2

        capture = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        if not capture.isOpened():
            raise CameraLost(f"/dev/video{self.device}: no camera there (unplugged, or not in group video?)")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        capture.set(cv2.CAP_PROP_FPS, self.fps)
        # One frame of buffer: the referee wants the board as it is now, not a second ago.
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        self._capture = capture

    def read(self) -> Shot | None:
        if self._capture is None:
            raise CameraLost(f"/dev/video{self.device}: not open")
        ok, image = self._capture.read()
        if not ok:
            raise CameraLost(f"/dev/video{self.device}: stopped giving frames (unplugged?)")
        return Shot(np.asarray(image, np.uint8), live_name())

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class PiCamera:
    """The Raspberry Pi camera through Picamera2 (libcamera), installed from apt on the Pi."""

    def __init__(self, size: tuple[int, int], fps: float) -> None:
        self.size, self.fps = size, fps
        self.description = "picamera2"
        self._camera: Any = None

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found, unused-ignore]
        except ImportError as err:
            raise CameraLost("picamera2 is not installed (sudo apt install python3-picamera2, and make the "
                             "venv with --system-site-packages), or use camera.source = \"usb:0\"") from err
        try:
            camera = Picamera2()
            # "RGB888" is libcamera's name for bytes in B, G, R order: OpenCV's layout as is.
            config = camera.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                controls={"FrameDurationLimits": (int(1e6 / self.fps),) * 2})
            camera.configure(config)
            camera.start()
        except (RuntimeError, IndexError, OSError) as err:  # no camera: IndexError from the camera list
            raise CameraLost(f"picamera2: no camera ({err})") from err
        self._camera = camera

    def read(self) -> Shot | None:
        if self._camera is None:
            raise CameraLost("picamera2: not open")
        try:
            image = self._camera.capture_array("main")
        except (RuntimeError, OSError) as err:
            raise CameraLost(f"picamera2: stopped giving frames ({err})") from err
        return Shot(np.ascontiguousarray(image[:, :, :3], np.uint8), live_name())

    def close(self) -> None:
        if self._camera is not None:
            try:
                self._camera.close()
            finally:
                self._camera = None


def open_camera(config: CameraConfig, *, clock: Clock = time.monotonic, sleep: Sleep = time.sleep) -> Camera:
    """The source ``config`` names (not opened yet)."""
    if config.kind is SourceKind.FOLDER:
        assert config.path is not None
        return FolderCamera(config.path, config.fps, loop=config.loop, clock=clock, sleep=sleep)
    if config.kind is SourceKind.VIDEO:
        assert config.path is not None
        return VideoCamera(config.path, config.fps, loop=config.loop, clock=clock, sleep=sleep)
    if config.kind is SourceKind.USB:
        assert config.device is not None
        return UsbCamera(config.device, config.size, config.fps)
    return PiCamera(config.size, config.fps)
