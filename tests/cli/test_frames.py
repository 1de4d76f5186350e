"""Frame folders and their button presses: what a replay is fed, and clear errors when it can't be."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.buttons import Button, ButtonEvent, Press
from pipgammon.frames import FrameSourceError, read_presses, stills


def _folder(tmp_path: Path, names: list[str]) -> Path:
    for name in names:
        (tmp_path / name).write_bytes(b"not decoded here")
    return tmp_path


def test_stills_come_in_file_name_order_with_a_second_each(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["00002.png", "00010.jpg", "00001.PNG", "notes.txt"])
    frames = stills(folder)
    assert [f.name for f in frames] == ["00001.PNG", "00002.png", "00010.jpg"]
    assert [f.timestamp_ms for f in frames] == [0.0, 1000.0, 2000.0]


def test_presses_follow_the_frame_they_are_recorded_after(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["a.png", "b.png"])
    (folder / "buttons.jsonl").write_text('{"frame": "b.png", "button": "end-turn"}\n\n'
                                          '{"frame": "b.png", "button": "take-back:long"}\n')
    frames = stills(folder)
    assert frames[0].presses == ()
    assert frames[1].presses == (ButtonEvent(Button.END_TURN), ButtonEvent(Button.TAKE_BACK, Press.LONG))


@pytest.mark.parametrize(("line", "fault"), [
    ("{not json", "buttons.jsonl:1: want"),
    ('{"frame": "a.png"}', "buttons.jsonl:1: want"),
    ('{"frame": "a.png", "button": "self-destruct"}', "buttons.jsonl:1: button event 'self-destruct'"),
])
def test_a_bad_press_line_is_named_by_file_and_line(tmp_path: Path, line: str, fault: str) -> None:
    (tmp_path / "buttons.jsonl").write_text(line + "\n")
    with pytest.raises(FrameSourceError, match=fault.replace("(", r"\(")):
        read_presses(tmp_path / "buttons.jsonl")


def test_presses_after_missing_frames_and_empty_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(FrameSourceError, match="no image files"):
        stills(tmp_path)
    with pytest.raises(FrameSourceError, match="not a folder"):
        stills(tmp_path / "nowhere")
    folder = _folder(tmp_path, ["a.png"])
    (folder / "buttons.jsonl").write_text('{"frame": "z.png", "button": "end-turn"}\n')
    with pytest.raises(FrameSourceError, match=r"not in the folder: z\.png"):
        stills(folder)
