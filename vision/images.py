"""Load a still from disk, and say exactly what is wrong with a file that is not one.

OpenCV returns ``None`` for an unreadable file without a reason, and decodes a
truncated JPEG into a picture with a grey bottom, with only a warning on
stderr.  Checking the container's end marker first turns both into an
:class:`ImageError` naming the file and the fault.  OpenCV's own log is silenced
while it decodes (`decode_quietly`), so a bad file gives that one line; libpng
and libjpeg print some faults (``libpng error: IDAT: CRC error``, ``Corrupt
JPEG data: ...``) to stderr themselves, past any switch OpenCV offers.
"""

from __future__ import annotations

import threading
from pathlib import Path

import cv2
import numpy as np

from vision.view import Image

#: The smallest frame worth reading: a checker would be a few pixels across below this.
MIN_SIDE = 240


class ImageError(ValueError):
    """A file that is not a usable image, with the reason."""


#: OpenCV's log level is one setting for the whole process: decodes in two threads at once must
#: not leave it silenced.
_QUIET = threading.Lock()


def decode_quietly(data: bytes, flags: int = cv2.IMREAD_COLOR) -> np.ndarray | None:
    """``cv2.imdecode`` with OpenCV's own log silenced meanwhile (it logs a file it cannot read,
    "imdecode_(''): can't read data: ...", where the caller gives the reason in one line)."""
    buffer = np.frombuffer(data, np.uint8)
    with _QUIET:
        level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            return cv2.imdecode(buffer, flags)
        finally:
            cv2.utils.logging.setLogLevel(level)


def _truncation(data: bytes) -> str | None:
    """Why a JPEG or PNG container is cut short, if it is."""
    if data[:3] == b"\xff\xd8\xff":
        if b"\xff\xd9" not in data[-64:]:
            return "the JPEG data stops before its end marker (truncated file?)"
    elif data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in data[-32:]:
        return "the PNG data stops before its IEND chunk (truncated file?)"
    return None


def decode(data: bytes, name: str = "image") -> Image:
    """A BGR frame from encoded bytes (JPEG, PNG, BMP, TIFF...)."""
    if not data:
        raise ImageError(f"{name}: the file is empty")
    cut = _truncation(data)
    if cut:
        raise ImageError(f"{name}: {cut}")
    frame = decode_quietly(data)
    if frame is None:
        raise ImageError(f"{name}: not an image OpenCV can decode (corrupt, or an unsupported format)")
    height, width = frame.shape[:2]
    if min(width, height) < MIN_SIDE:
        # Worded for every command that loads a picture: `read` wants a board, `dice` only dice.
        raise ImageError(f"{name}: {width}x{height} is too small to read (want at least {MIN_SIDE} px on "
                         "the short side: a photo of the table, not a crop round a die or a point)")
    image: Image = np.asarray(frame, np.uint8)
    return image


def load(path: Path) -> Image:
    """The frame stored at ``path``; :class:`ImageError` says why not."""
    try:
        data = path.read_bytes()
    except FileNotFoundError as err:
        raise ImageError(f"{path}: no such file") from err
    except IsADirectoryError as err:
        raise ImageError(f"{path}: is a directory, not an image") from err
    except OSError as err:
        raise ImageError(f"{path}: cannot read it ({err.strerror})") from err
    return decode(data, str(path))
