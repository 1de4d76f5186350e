"""The service's cameras: recordings played as a camera, and the clear line when a camera is not there."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.buttons import Button
from engine.scene import Scene
from pipgammon.camera import CameraLost, FolderCamera, PiCamera, UsbCamera, VideoCamera, open_camera
from pipgammon.config import parse_config
from vision.stabiliser import Stabiliser, motion, shrink


def _stills(folder: Path, count: int, presses: dict[str, str] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for number in range(count):
        image = np.full((240, 320, 3), 20 * number, np.uint8)
        cv2.imwrite(str(folder / f"{number:05d}.png"), image)
    if presses:
        (folder / "buttons.jsonl").write_text(
            "".join(json.dumps({"frame": f, "button": b}) + "\n" for f, b in presses.items()))
    return folder


class Clock:
    """Time that passes only when the camera sleeps (or the test says so)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_a_still_is_a_second_held_still_with_its_presses_after_the_last_copy(tmp_path: Path) -> None:
    clock = Clock()
    camera = FolderCamera(_stills(tmp_path / "f", 2, {"00000.png": "end-turn"}), 4, clock=clock,
                          sleep=clock.sleep)
    camera.open()
    shots = [camera.read() for _ in range(9)]
    assert [s.name if s else None for s in shots] == ["00000.png"] * 4 + ["00001.png"] * 4 + [None]
    assert [len(s.presses) for s in shots[:8] if s] == [0, 0, 0, 1, 0, 0, 0, 0]
    assert shots[3] is not None and shots[3].presses[0].button is Button.END_TURN
    assert int(shots[4].image[0, 0, 0]) == 20  # type: ignore[union-attr]
    # Paced at 4 fps: a quarter of a second between frames, 2 s of recording in all.
    assert clock.slept == [0.25] * 7 and clock.now == 1.75


@pytest.mark.parametrize("fps", [0.5, 1, 3, 4, 10])
def test_every_still_is_held_long_enough_for_the_stabiliser_at_any_fps(fps: float, tmp_path: Path) -> None:
    """At 3 fps and less a second's worth of copies was too few to agree on: nothing was judged."""
    camera = FolderCamera(_stills(tmp_path / "f", 3), fps, clock=Clock(), sleep=lambda s: None)
    camera.open()
    stabiliser, before, stable = Stabiliser(), None, []
    for index, shot in enumerate(iter(camera.read, None)):
        # The stills differ in grey level, so each one's first copy moved from the one before.
        scene = Scene((int(shot.name[:5]) + 1,) + (0,) * 23)
        small = shrink(shot.image)
        if found := stabiliser.push(index, index * 1000 / fps, "ok", scene, motion(before, small)):
            stable.append(found.scene.points[0])
        before = small
    assert stable == [1, 2, 3]


def test_a_slow_reader_is_not_made_to_wait_and_no_frame_is_dropped(tmp_path: Path) -> None:
    clock = Clock()
    camera = FolderCamera(_stills(tmp_path / "f", 2), 4, clock=clock, sleep=clock.sleep)
    camera.open()
    names = []
    while (shot := camera.read()) is not None:
        names.append(shot.name)
        clock.now += 1.0  # vision took a second
    assert names == ["00000.png"] * 4 + ["00001.png"] * 4 and clock.slept == []


def test_a_looped_recording_names_each_lap(tmp_path: Path) -> None:
    camera = FolderCamera(_stills(tmp_path / "f", 2), 4, loop=True, clock=Clock(), sleep=lambda s: None)
    camera.open()
    assert [camera.read().name for _ in range(20)][::4] == [  # type: ignore[union-attr]
        "00000.png", "00001.png", "lap1/00000.png", "lap1/00001.png", "lap2/00000.png"]


def test_a_folder_taken_away_is_a_lost_camera_that_carries_on_where_it_was(tmp_path: Path) -> None:
    folder = _stills(tmp_path / "f", 3)
    camera = FolderCamera(folder, 4, clock=Clock(), sleep=lambda s: None)
    camera.open()
    assert [camera.read().name for _ in range(4)] == ["00000.png"] * 4  # type: ignore[union-attr]
    folder.rename(tmp_path / "away")
    with pytest.raises(CameraLost, match="the folder is gone"):
        camera.read()
    camera.close()
    with pytest.raises(CameraLost, match="not a folder of frames"):
        camera.open()
    (tmp_path / "away").rename(folder)
    camera.open()
    assert camera.read().name == "00001.png"  # type: ignore[union-attr]
    # Another recording put in its place is not carried on as if it were the same.
    (folder / "00002.png").unlink()
    with pytest.raises(CameraLost, match="came back with other stills"):
        camera.open()


def test_a_still_too_large_to_read_is_a_camera_fault_for_that_frame(tmp_path: Path) -> None:
    """It was a cv2.error out of `read`, which stopped the service."""
    folder = _stills(tmp_path / "f", 1)
    huge = bytearray(cv2.imencode(".png", np.zeros((240, 320, 3), np.uint8))[1])
    huge[16:24] = (100_000).to_bytes(4, "big") * 2  # the header's width and height
    (folder / "00001.png").write_bytes(bytes(huge))
    clock = Clock()
    camera = FolderCamera(folder, 4, clock=clock, sleep=clock.sleep)
    camera.open()
    assert [shot.name for shot in (camera.read() for _ in range(4)) if shot] == ["00000.png"] * 4
    with pytest.raises(CameraLost, match=r"00001\.png: the image is 100000x100000 px"):
        camera.read()


def _grey_video(video: Path, levels: list[int]) -> Path:
    """An MJPG video at 10 frames a second of 160x120 frames, each one grey level."""
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 10, (160, 120))
    for level in levels:
        writer.write(np.full((120, 160, 3), level, np.uint8))
    writer.release()
    return video


def test_a_video_is_played_frame_by_frame_with_its_presses_and_can_be_cut(tmp_path: Path) -> None:
    video = _grey_video(tmp_path / "game.avi", [40 * number for number in range(5)])
    (tmp_path / "game.buttons.jsonl").write_text('{"frame": 2, "button": "mode"}\n')
    camera = VideoCamera(video, 10, clock=Clock(), sleep=lambda s: None)
    camera.open()
    shots = [camera.read() for _ in range(3)]
    assert [s.name for s in shots if s] == ["0", "1", "2"]
    assert shots[2] is not None and shots[2].presses[0].button is Button.MODE
    camera.close()
    video.rename(tmp_path / "away.avi")
    with pytest.raises(CameraLost, match="no such video"):
        camera.open()
    (tmp_path / "away.avi").rename(video)
    camera.open()  # back where it was
    assert [s.name for s in (camera.read(), camera.read()) if s] == ["3", "4"]
    assert camera.read() is None


def test_a_camera_that_is_not_there_says_so_in_one_line() -> None:
    with pytest.raises(CameraLost, match=r"/dev/video63: no camera there"):
        UsbCamera(63, (640, 480), 10).open()
    try:
        import picamera2  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        with pytest.raises(CameraLost, match=r"picamera2 is not installed .*usb:0"):
            PiCamera((2028, 1520), 10).open()
    with pytest.raises(CameraLost, match="not open"):
        UsbCamera(63, (640, 480), 10).read()


def test_the_config_names_the_camera(tmp_path: Path) -> None:
    folder = parse_config(f'[camera]\nsource = "folder:{tmp_path}"').camera
    assert isinstance(open_camera(folder), FolderCamera)
    assert isinstance(open_camera(parse_config(f'[camera]\nsource = "video:{tmp_path}/v.avi"').camera),
                      VideoCamera)
    assert isinstance(open_camera(parse_config('[camera]\nsource = "usb:0"').camera), UsbCamera)
    assert isinstance(open_camera(parse_config("").camera), PiCamera)


def test_a_still_unreadable_twice_is_skipped_so_a_recording_ends(tmp_path: Path) -> None:
    # Found by a review: a truncated JPEG was a lost camera at every retry, and `run --until-end`
    # never ended ("camera lost 28 times" until killed).  Once may be a still being copied in.
    folder = _stills(tmp_path / "f", 3)
    (folder / "00001.png").write_bytes((folder / "00001.png").read_bytes()[:200])
    camera = FolderCamera(folder, 4, clock=Clock(), sleep=lambda s: None)
    camera.open()
    assert [camera.read().name for _ in range(4)] == ["00000.png"] * 4  # type: ignore[union-attr]
    for said in ("00001.png: ", "; skipped, unreadable twice"):
        with pytest.raises(CameraLost, match=said):
            camera.read()
        camera.close()
        camera.open()
    assert [s.name if s else None for s in (camera.read() for _ in range(5))] == ["00002.png"] * 4 + [None]


def test_a_file_that_gives_no_frames_is_no_video_and_says_so_in_one_line(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    # Found by a review: a PNG named as the video printed ffmpeg's "[png @ 0x...] Invalid PNG
    # signature" lines, and `run --until-end` ended with "0 frames", exit 0.
    text = tmp_path / "text.png"
    text.write_text("hello, I am no video\n")
    with pytest.raises(CameraLost, match=r"text.png: gives no frames: not a video OpenCV can read"):
        VideoCamera(text, 10, clock=Clock(), sleep=lambda s: None).open()
    assert capfd.readouterr().err == ""


def test_a_looped_video_gives_its_first_frame_on_every_lap(tmp_path: Path) -> None:
    # `open` grabs the first frame to see there is one; `read` must give that frame, not the next.
    video = _grey_video(tmp_path / "game.avi", [80 * number for number in range(3)])
    camera = VideoCamera(video, 10, loop=True, clock=Clock(), sleep=lambda s: None)
    camera.open()
    shots = [camera.read() for _ in range(7)]
    assert [s.name for s in shots if s] == ["0", "1", "2", "lap1/0", "lap1/1", "lap1/2", "lap2/0"]
    assert [round(int(s.image[60, 80, 0]) / 80) for s in shots if s] == [0, 1, 2, 0, 1, 2, 0]
