"""Where frames come from when no camera is attached: a folder of stills or a video file.

Both yield `Frame`s in time order, each with the button presses recorded just after it,
so a replay feeds the referee exactly what the service would have seen on the table.

- A folder holds still images sorted by file name (``.png``, ``.jpg``, ``.jpeg``, ``.bmp``,
  ``.tif``, ``.tiff``).  Each is a moment the scene was still, as if held for a second
  (CONTRACT.md).  Presses are in ``buttons.jsonl`` in the folder:
  ``{"frame": "00012.png", "button": "end-turn"}`` per line.
- A video is read frame by frame; presses are in a file beside it with the suffix
  ``.buttons.jsonl`` (``game.avi`` -> ``game.buttons.jsonl``) whose ``frame`` is the frame index.

Bad input raises `FrameSourceError` naming the file (and line) and what is wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.buttons import ButtonError, ButtonEvent

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")
#: A still stands for a second of the scene held still (CONTRACT.md).
STILL_MS = 1000.0


class FrameSourceError(ValueError):
    """A frame folder, video or button file that cannot be replayed, with the reason."""


@dataclass(frozen=True, slots=True)
class Frame:
    name: str  # the file name of a still, or the index of a video frame as text
    index: int
    timestamp_ms: float
    path: Path | None  # a still's file (loaded lazily, so a resumed replay skips cheaply)
    presses: tuple[ButtonEvent, ...] = ()


def read_presses(path: Path) -> dict[str, tuple[ButtonEvent, ...]]:
    """The presses recorded after each frame, by frame name; no file means no presses."""
    if not path.exists():
        return {}
    presses: dict[str, list[ButtonEvent]] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise FrameSourceError(f"{path}: cannot read the button presses ({err})") from err
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            frame, button = entry["frame"], entry["button"]
            event = ButtonEvent.parse(str(button))
        except (json.JSONDecodeError, TypeError, KeyError) as err:
            raise FrameSourceError(
                f"{path}:{number}: want {{\"frame\": NAME, \"button\": \"end-turn\"}}, got {line[:60]!r}"
            ) from err
        except ButtonError as err:
            raise FrameSourceError(f"{path}:{number}: {err}") from err
        presses.setdefault(str(frame), []).append(event)
    return {frame: tuple(events) for frame, events in presses.items()}


def stills(folder: Path) -> list[Frame]:
    """The stills of a folder in file-name order, with their presses."""
    if not folder.is_dir():
        raise FrameSourceError(f"{folder}: not a folder of frames")
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
    if not files:
        raise FrameSourceError(f"{folder}: no image files ({', '.join(IMAGE_SUFFIXES)}) to replay")
    presses = read_presses(folder / "buttons.jsonl")
    names = {p.name for p in files}
    unknown = sorted(set(presses) - names)
    if unknown:
        raise FrameSourceError(f"{folder / 'buttons.jsonl'}: presses after frames that are not in the "
                               f"folder: {', '.join(unknown[:3])}")
    return [Frame(p.name, i, i * STILL_MS, p, presses.get(p.name, ())) for i, p in enumerate(files)]


def video_presses_path(video: Path) -> Path:
    """Where a video's presses are: ``game.avi`` -> ``game.buttons.jsonl``."""
    return video.with_suffix(".buttons.jsonl")


def video_presses(video: Path) -> dict[str, tuple[ButtonEvent, ...]]:
    return read_presses(video_presses_path(video))
