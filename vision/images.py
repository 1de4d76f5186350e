"""Load a still from disk, and say exactly what is wrong with a file that is not one.

OpenCV returns ``None`` for an unreadable file without a reason, and decodes a
truncated JPEG into a picture with a grey bottom, with only a warning on
stderr.  Checking the container's end marker first turns the plainest cut into
an :class:`ImageError` naming the file and the fault.  OpenCV's own log is
silenced while it decodes, and libpng and libjpeg, which print their faults
(``libpng error: IDAT: CRC error``, ``Corrupt JPEG data: premature end of data
segment``) to the process's stderr past any switch OpenCV offers, print them
into a file we read back instead (`decode_reporting`): a bad file gives one
line, ours, with the library's words in it.  libjpeg's warning is how a JPEG
cut short with its end marker put back is told from a whole one (`_damage`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from vision.view import Image

#: The smallest frame worth reading: a checker would be a few pixels across below this.
MIN_SIDE = 240


class ImageError(ValueError):
    """A file that is not a usable image, with the reason."""


#: OpenCV's log level and file descriptor 2 are each one for the whole process: decodes in two
#: threads at once must not leave either silenced or pointed at the other's file.
_QUIET = threading.Lock()

_T = TypeVar("_T")

#: How the lines libpng and libjpeg print begin (libjpeg-turbo's `jerror.h` warnings, the ones a
#: damaged file gives).  Only these are kept from what fd 2 took during a decode; any other line
#: was another thread's, or a library's we do not know, and is passed on to the real stderr.
DECODER_LINES = ("libpng error:", "libpng warning:", "Corrupt JPEG data:", "Premature end of JPEG file",
                 "Invalid SOS parameters", "Inconsistent progression sequence", "Warning: unknown JFIF",
                 "Unknown Adobe color transform", "Application transferred too many scanlines")


def _stderr_caught(work: Callable[[], _T]) -> tuple[_T, list[str]]:
    """``work()``, with file descriptor 2 pointed at a temporary file meanwhile, and the lines
    written there.  The caller holds `_QUIET`.

    A temporary file, not a pipe: nothing reads a pipe while the decoder runs, and one that
    filled would block it for ever.  fd 2 is put back whatever ``work`` raises.  With no fd 2 to
    save (a daemon started with it closed) there is nothing to guard, and ``work`` runs as it is."""
    # Python's own pending text belongs to the real stderr, not the file (with no sys.stderr, or
    # a closed one, none of ours is pending).
    with contextlib.suppress(AttributeError, OSError, ValueError):
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:
        return work(), []
    try:
        sink = tempfile.TemporaryFile()  # noqa: SIM115 (closed by the `with` below, once made)
    except OSError:  # no room for the file (a full disk): a decode is worth more than its quiet
        os.close(saved)
        return work(), []
    try:
        with sink:
            os.dup2(sink.fileno(), 2)
            try:
                result = work()
            finally:
                os.dup2(saved, 2)
            sink.seek(0)
            text = sink.read().decode("utf-8", "replace")
    finally:
        os.close(saved)
    return result, text.splitlines()


def decode_reporting(data: bytes, flags: int = cv2.IMREAD_COLOR) -> tuple[np.ndarray | None, list[str]]:
    """``cv2.imdecode``, with what libpng and libjpeg said of the data (`DECODER_LINES`) returned
    rather than printed, and OpenCV's own log silenced meanwhile (it logs a file it cannot read,
    "imdecode_(''): can't read data: ...", where the caller gives the reason in one line)."""
    buffer = np.frombuffer(data, np.uint8)
    with _QUIET:
        level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            frame, lines = _stderr_caught(lambda: cv2.imdecode(buffer, flags))
        finally:
            cv2.utils.logging.setLogLevel(level)
    said = [line.strip() for line in lines if line.strip().startswith(DECODER_LINES)]
    others = [line for line in lines if line.strip() and not line.strip().startswith(DECODER_LINES)]
    if others:
        os.write(2, ("\n".join(others) + "\n").encode())
    return frame, said


def decode_quietly(data: bytes, flags: int = cv2.IMREAD_COLOR) -> np.ndarray | None:
    """``cv2.imdecode`` with nothing printed; for a caller that has its own words for a ``None``."""
    return decode_reporting(data, flags)[0]


#: libjpeg's warnings after which the picture is not all the file's.  It ran out of data before
#: the last block (a file cut short, even one with an end marker put back after the cut, which
#: `_truncation` cannot tell from a whole one) and filled the rest with grey, or lost its place
#: in the data and went on with made-up blocks.  libjpeg's other warnings leave every pixel as
#: the file has it (bytes between segments, an ICC profile it cannot use, odd scan parameters
#: from some cameras) and the frame is read.  libjpeg prints only the first warning of a decode.
JPEG_CUT_SHORT = ("Corrupt JPEG data: premature end of data segment", "Premature end of JPEG file")
JPEG_GARBLED = ("Corrupt JPEG data: bad Huffman code", "Corrupt JPEG data: bad arithmetic code",
                "Corrupt JPEG data: found marker")


def _damage(said: list[str]) -> str | None:
    """Why a frame that decoded is not the picture in the file, from what libjpeg said of it."""
    for line in said:
        if line.startswith(JPEG_CUT_SHORT):
            return ("the JPEG data ends before the picture does: the file is truncated or corrupt "
                    f"(libjpeg: {line})")
        if line.startswith(JPEG_GARBLED):
            return f"the JPEG data is corrupt: part of the picture would be made up (libjpeg: {line})"
    return None


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
    frame, said = decode_reporting(data)
    if frame is None:
        if said:  # the last line is the fault that stopped the decoder; warnings may come before it
            raise ImageError(f"{name}: the image data is corrupt ({said[-1]})")
        raise ImageError(f"{name}: not an image OpenCV can decode (corrupt, or an unsupported format)")
    damage = _damage(said)
    if damage:
        raise ImageError(f"{name}: {damage}")
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
