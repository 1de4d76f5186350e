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
A frame of more than `MAX_PIXELS` is refused from the size its header gives
(`declared_size`), before any of it is decoded.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal, TypeVar

import cv2
import numpy as np

from vision.view import Image

#: The smallest frame worth reading: a checker would be a few pixels across below this.
MIN_SIDE = 240

#: The most pixels a frame may have: 16.8 MP, a 4096x4096 still.  The Pi HQ camera's full
#: 4056x3040 (12.3 MP) and a 16 MP phone photo pass.  A larger file is not a camera's frame, and
#: decoding it costs what the reader cannot spare: a 30000x30000 PNG took 31 s and 5.3 GB before
#: it was found to show no board.  OpenCV's own limit, 2^30 px, is an assertion (a traceback),
#: not a reason.
MAX_PIXELS = 1 << 24


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


def quietly(work: Callable[[], _T]) -> tuple[_T, list[str]]:
    """``work()`` with OpenCV's log silenced and the lines the libraries under it print to fd 2
    meanwhile returned rather than printed: ffmpeg's ``[mjpeg @ 0x...] error y=21 x=56`` for a
    damaged video frame, ``[png @ 0x...] Invalid PNG signature`` for a file that is no video.
    The caller says in its own words what they mean, and passes on the lines it does not know."""
    with _QUIET:
        level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        try:
            result, lines = _stderr_caught(work)
        finally:
            cv2.utils.logging.setLogLevel(level)
    return result, [line.strip() for line in lines if line.strip()]


#: How ffmpeg begins a line of its log: ``[mjpeg @ 0x55d0c0a0] error y=21 x=56``.
FFMPEG_LINE = re.compile(r"\[[\w:-]+ @ 0x[0-9a-fA-F]+\] ")


def video_quietly(work: Callable[[], _T]) -> tuple[_T, list[str]]:
    """``work()`` on an OpenCV video (open, read), with what ffmpeg said returned without its
    ``[codec @ 0x...]`` prefix, not printed; any other line goes on to stderr."""
    result, lines = quietly(work)
    others = [line for line in lines if not FFMPEG_LINE.match(line)]
    if others:
        os.write(2, ("\n".join(others) + "\n").encode())
    return result, [FFMPEG_LINE.sub("", line, count=1) for line in lines if FFMPEG_LINE.match(line)]


#: How `decode_reporting` begins its own line for an OpenCV error.
OPENCV_SAID = "OpenCV: "


def _imdecode(buffer: np.ndarray, flags: int) -> np.ndarray | str | None:
    """``cv2.imdecode``, or OpenCV's words when it raises instead of returning ``None``: it
    asserts on a header's size past its own limit (``pixels <= CV_IO_MAX_IMAGE_PIXELS``)."""
    try:
        frame: np.ndarray | None = cv2.imdecode(buffer, flags)
    except cv2.error as err:
        return f"{OPENCV_SAID}{err.err} in {err.func}"
    return frame


def decode_reporting(data: bytes, flags: int = cv2.IMREAD_COLOR) -> tuple[np.ndarray | None, list[str]]:
    """``cv2.imdecode``, with what libpng and libjpeg said of the data (`DECODER_LINES`) returned
    rather than printed, and OpenCV's own log silenced meanwhile (it logs a file it cannot read,
    "imdecode_(''): can't read data: ...", where the caller gives the reason in one line).  An
    error OpenCV raises is a ``None`` frame, with its words last in the lines (`OPENCV_SAID`)."""
    buffer = np.frombuffer(data, np.uint8)
    decoded, lines = quietly(lambda: _imdecode(buffer, flags))
    said = [line for line in lines if line.startswith(DECODER_LINES)]
    frame = None if isinstance(decoded, str) else decoded
    if isinstance(decoded, str):
        said.append(decoded)
    others = [line for line in lines if not line.startswith(DECODER_LINES)]
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


#: Marker segments that hold no picture data: JFIF, Exif, ICC and Adobe headers (APP0 to APP15) and
#: comments.  Their oddities are libjpeg's commonest harmless warnings.
JPEG_EXTRAS = frozenset(range(0xE0, 0xF0)) | {0xFE}


def _entropy_end(data: bytes, at: int) -> int:
    """Where a scan's entropy-coded data that starts at ``at`` ends: at the first marker that is
    neither a stuffed 0xFF00 nor a restart marker (or at the end of ``data``)."""
    while True:
        at = data.find(b"\xff", at)
        if at < 0 or at + 1 >= len(data):
            return len(data)
        follower = data[at + 1]
        if follower == 0x00 or 0xD0 <= follower <= 0xD7 or follower == 0xFF:
            at += 1 if follower == 0xFF else 2
            continue
        return at


#: A JPEG segment walk's sign that the segments run past the data or make no sense.
BROKEN = -1


def _segments(data: bytes) -> Iterator[tuple[int, int, int]]:
    """The markers of a JPEG after its start-of-image, each as (marker, where what follows it
    begins, where it ends): a segment's length and body, a scan's header and entropy-coded data,
    nothing for a marker with no length.  Bytes between segments that belong to none, and fill
    bytes, are passed over.  It stops after the end-of-image marker, or with `BROKEN` where a
    segment runs past the data."""
    at = 2
    while (start := data.find(b"\xff", at)) >= 0:
        at = start
        while at < len(data) and data[at] == 0xFF:  # fill bytes before a marker
            at += 1
        if at >= len(data):
            break
        marker = data[at]
        at += 1
        if marker == 0xD9 or marker == 0x01 or 0xD0 <= marker <= 0xD7 or marker == 0x00:  # no length
            yield marker, at, at
            if marker == 0xD9:
                return
            continue
        end = at + int.from_bytes(data[at:at + 2], "big")
        if at + 2 > len(data) or end > len(data) or end < at + 2:
            break
        if marker == 0xDA:  # a scan: its header, then its entropy-coded data to the next marker
            end = _entropy_end(data, end)
        yield marker, at, end
        at = end
    yield BROKEN, at, at


def _stripped(data: bytes) -> bytes | None:
    """``data`` with what a decoder's harmless warnings are about taken out: the bytes between
    segments that belong to none, and `JPEG_EXTRAS`; every other segment and each scan's data
    as they are.  ``None`` when the segments cannot be walked.

    libjpeg prints only the first warning of a decode, so a harmless one (a camera's padding
    between segments, an unknown JFIF revision) hides a later one that the data ends early:
    decoded again, stripped, that one shows (`decode`)."""
    if data[:2] != b"\xff\xd8":
        return None
    out = [b"\xff\xd8"]
    for marker, at, end in _segments(data):
        if marker == BROKEN:
            return None
        if marker not in JPEG_EXTRAS:
            out.append(bytes((0xFF, marker)) + data[at:end])
        if marker == 0xD9:
            return b"".join(out)
    return None


def _truncation(data: bytes) -> str | None:
    """Why a JPEG or PNG container is cut short, if it is."""
    if data[:3] == b"\xff\xd8\xff":
        if b"\xff\xd9" not in data[-64:]:
            return "the JPEG data stops before its end marker (truncated file?)"
    elif data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in data[-32:]:
        return "the PNG data stops before its IEND chunk (truncated file?)"
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


#: JPEG's start-of-frame markers (SOF0 to SOF15 but DHT, JPG and DAC, which share the range).
JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The size in a JPEG's first start-of-frame segment, walked to past the segments before it."""
    if data[:3] != b"\xff\xd8\xff":
        return None
    for marker, at, _ in _segments(data):
        if marker in JPEG_FRAMES:  # length, precision, then the height and the width
            return int.from_bytes(data[at + 5:at + 7], "big"), int.from_bytes(data[at + 3:at + 5], "big")
        if marker in (0xD9, 0xDA, BROKEN):  # the image ends, or its data begins, with no frame header
            return None
    return None


def _bmp_size(data: bytes) -> tuple[int, int] | None:
    if data[:2] != b"BM" or len(data) < 26:
        return None
    if int.from_bytes(data[14:18], "little") == 12:  # the OS/2 header: 16-bit sides
        return int.from_bytes(data[18:20], "little"), int.from_bytes(data[20:22], "little")
    # A negative height is a picture stored top row first.
    return (abs(int.from_bytes(data[18:22], "little", signed=True)),
            abs(int.from_bytes(data[22:26], "little", signed=True)))


def _gif_size(data: bytes) -> tuple[int, int] | None:
    if data[:6] not in (b"GIF87a", b"GIF89a") or len(data) < 10:
        return None
    return int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little")  # the logical screen


def _webp_size(data: bytes) -> tuple[int, int] | None:
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP" or len(data) < 30:
        return None
    chunk = data[12:16]
    if chunk == b"VP8X":  # the extended format's canvas, each side less one in 24 bits
        return int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1
    if chunk == b"VP8L":  # lossless: 14 bits for each side less one, after a signature byte
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":  # lossy: a key frame's 14-bit sides, after its tag and start code
        return int.from_bytes(data[26:28], "little") & 0x3FFF, int.from_bytes(data[28:30], "little") & 0x3FFF
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """The size in a TIFF's first directory (ImageWidth and ImageLength, tags 256 and 257)."""
    order: Literal["little", "big"]
    if data[:4] == b"II*\x00":
        order = "little"
    elif data[:4] == b"MM\x00*":
        order = "big"
    else:
        return None
    at = int.from_bytes(data[4:8], order)
    sides: dict[int, int] = {}
    for entry in range(at + 2, at + 2 + 12 * int.from_bytes(data[at:at + 2], order), 12):
        tag = int.from_bytes(data[entry:entry + 2], order)
        kind = int.from_bytes(data[entry + 2:entry + 4], order)
        if tag in (256, 257) and kind in (3, 4):  # SHORT or LONG
            sides[tag] = int.from_bytes(data[entry + 8:entry + (10 if kind == 3 else 12)], order)
    return (sides[256], sides[257]) if len(sides) == 2 else None


def declared_size(data: bytes) -> tuple[int, int] | None:
    """The width and height an image's header gives, for PNG, JPEG, BMP, GIF, WebP and TIFF;
    ``None`` for another format, or a header too damaged to say (the decoder then gives the reason).

    OpenCV has no call that reads a header alone: only this tells a huge frame before it is
    decoded.  Another format's size is checked once it is decoded (`decode`)."""
    for size in (_png_size, _jpeg_size, _bmp_size, _gif_size, _webp_size, _tiff_size):
        found = size(data)
        if found is not None:
            return found
    return None


def _too_large(width: int, height: int) -> str | None:
    if width * height <= MAX_PIXELS:
        return None
    return (f"the image is {width}x{height} px ({width * height / 1e6:.1f} MP); pipgammon reads frames of "
            f"up to {MAX_PIXELS / 1e6:.1f} MP (a 4096x4096 still)")


def decode(data: bytes, name: str = "image") -> Image:
    """A BGR frame from encoded bytes (JPEG, PNG, BMP, TIFF...)."""
    if not data:
        raise ImageError(f"{name}: the file is empty")
    size = declared_size(data)
    large = _too_large(*size) if size else None
    if large:
        raise ImageError(f"{name}: {large}")
    cut = _truncation(data)
    if cut:
        raise ImageError(f"{name}: {cut}")
    frame, said = decode_reporting(data)
    if frame is None:
        if said and "CV_IO_MAX_IMAGE_PIXELS" in said[-1]:  # a format `declared_size` does not read
            raise ImageError(f"{name}: the image is larger than OpenCV decodes (over {1 << 30} px); "
                             f"pipgammon reads frames of up to {MAX_PIXELS / 1e6:.1f} MP (a 4096x4096 still)")
        if said and said[-1].startswith(OPENCV_SAID):
            raise ImageError(f"{name}: not an image OpenCV can decode ({said[-1]})")
        if said:  # the last line is the fault that stopped the decoder; warnings may come before it
            raise ImageError(f"{name}: the image data is corrupt ({said[-1]})")
        raise ImageError(f"{name}: not an image OpenCV can decode (corrupt, or an unsupported format)")
    damage = _damage(said)
    if damage is None and said:  # a harmless first warning may hide the one that matters
        stripped = _stripped(data)
        if stripped is not None and stripped != data:
            damage = _damage(decode_reporting(stripped)[1])
    if damage:
        raise ImageError(f"{name}: {damage}")
    height, width = frame.shape[:2]
    large = _too_large(width, height)  # a format whose header `declared_size` does not read
    if large:
        raise ImageError(f"{name}: {large}")
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
