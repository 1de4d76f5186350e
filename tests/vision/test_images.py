"""Loading stills: every broken file is refused with its name and the fault."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import images
from vision.images import MAX_PIXELS, ImageError, declared_size, load


def good_jpeg(progressive: bool = False) -> bytes:
    frame = np.full((480, 640, 3), 128, np.uint8)
    cv2.circle(frame, (320, 240), 100, (20, 200, 20), -1)
    return bytes(cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_PROGRESSIVE, int(progressive)])[1])


@pytest.mark.parametrize("progressive", [False, True])
def test_a_good_file_loads(tmp_path: Path, progressive: bool) -> None:
    path = tmp_path / "ok.jpg"
    path.write_bytes(good_jpeg(progressive))
    assert load(path).shape == (480, 640, 3)


@pytest.mark.parametrize("progressive", [False, True])
def test_a_jpeg_cut_short_with_its_end_marker_put_back_is_refused(tmp_path: Path, progressive: bool,
                                                                   capfd: pytest.CaptureFixture[str]) -> None:
    """The end marker after the cut passes the container check, and libjpeg fills the missing
    part with grey, which read as `no-board`; its warning says the data ended first."""
    whole = good_jpeg(progressive)
    path = tmp_path / "half.jpg"
    path.write_bytes(whole[: len(whole) // 2] + b"\xff\xd9")
    with pytest.raises(ImageError, match=r"half\.jpg: .*truncated or corrupt .*premature end"):
        load(path)
    assert capfd.readouterr().err == ""


def with_a_harmless_warning(jpeg: bytes, cause: str) -> bytes:
    """``jpeg`` changed so that libjpeg's first warning of it is harmless: padding bytes before
    its first quantisation table or its first scan, or a JFIF header of a revision it does not know."""
    if cause == "jfif":
        assert jpeg[6:11] == b"JFIF\x00"
        return jpeg[:11] + b"\x03" + jpeg[12:]  # major revision 3
    marker = {"padding before a table": b"\xff\xdb", "padding before the scan": b"\xff\xda"}[cause]
    at = jpeg.index(marker)
    return jpeg[:at] + b"\x00\x00\x00" + jpeg[at:]


HARMLESS = ["padding before a table", "padding before the scan", "jfif"]


@pytest.mark.parametrize("cause", HARMLESS)
@pytest.mark.parametrize("progressive", [False, True])
def test_a_harmless_warning_does_not_hide_a_cut(tmp_path: Path, progressive: bool, cause: str,
                                                capfd: pytest.CaptureFixture[str]) -> None:
    """libjpeg prints only the first warning of a decode: after a harmless one, the file is
    decoded again without its cause, and a cut with the end marker put back is still refused."""
    whole = with_a_harmless_warning(good_jpeg(progressive), cause)
    said = images.decode_reporting(whole)[1]
    assert said and not said[0].startswith(images.JPEG_CUT_SHORT)  # the warning this is about
    path = tmp_path / "half.jpg"
    path.write_bytes(whole[: len(whole) // 2] + b"\xff\xd9")
    assert not images.decode_reporting(path.read_bytes())[1][0].startswith(images.JPEG_CUT_SHORT)
    with pytest.raises(ImageError, match=r"half\.jpg: .*truncated or corrupt .*premature end"):
        load(path)
    # Whole, the same file is read, to the pixel as it is without the warning's cause.
    path.write_bytes(whole)
    assert np.array_equal(load(path), cv2.imdecode(np.frombuffer(good_jpeg(progressive), np.uint8), 1))
    assert capfd.readouterr().err == ""


def test_stripping_keeps_the_picture_and_drops_only_extras() -> None:
    jpeg = with_a_harmless_warning(good_jpeg(True), "padding before a table")
    stripped = images._stripped(jpeg)
    assert stripped is not None and b"JFIF" not in stripped and len(stripped) < len(jpeg)
    assert images.decode_reporting(stripped)[1] == []
    assert np.array_equal(cv2.imdecode(np.frombuffer(stripped, np.uint8), 1),
                          cv2.imdecode(np.frombuffer(jpeg, np.uint8), 1))
    assert images._stripped(b"\xff\xd8\xff\xe0\x00") is None  # a segment cut off: not walked
    assert images._stripped(b"\x89PNG") is None


@pytest.mark.parametrize("name, content, reason", [
    ("empty.jpg", b"", "empty"),
    ("noise.jpg", bytes(range(256)) * 40, "not an image"),
    ("cut.jpg", None, "truncated"),
    ("cut.png", None, "truncated"),
])
def test_broken_files_say_what_is_wrong(tmp_path: Path, name: str, content: bytes | None,
                                        reason: str) -> None:
    if content is None:
        if name.endswith(".png"):
            whole = bytes(cv2.imencode(".png", np.zeros((400, 400, 3), np.uint8))[1])
        else:
            whole = good_jpeg()
        content = whole[: len(whole) * 2 // 3]
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ImageError, match=reason) as caught:
        load(path)
    assert name in str(caught.value)


def test_missing_files_directories_and_thumbnails(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        load(tmp_path / "missing.jpg")
    with pytest.raises(ImageError, match="directory"):
        load(tmp_path)
    small = tmp_path / "small.png"
    small.write_bytes(bytes(cv2.imencode(".png", np.zeros((100, 120, 3), np.uint8))[1]))
    with pytest.raises(ImageError, match="too small"):
        load(small)


@pytest.mark.parametrize("extension, options", [
    (".png", []), (".jpg", []), (".jpg", [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]), (".bmp", []), (".tiff", []),
    (".webp", []), (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101]),  # lossy and lossless
])
def test_the_header_gives_the_size_before_a_decode(extension: str, options: list[int]) -> None:
    encoded = bytes(cv2.imencode(extension, np.zeros((300, 400, 3), np.uint8), options)[1])
    assert declared_size(encoded) == (400, 300)


def _huge_header(extension: str, width: int, height: int) -> bytes:
    """A 400x300 frame's file, with its header made to say ``width`` x ``height``."""
    data = bytearray(cv2.imencode(extension, np.zeros((300, 400, 3), np.uint8))[1])
    if extension == ".png":
        data[16:24] = width.to_bytes(4, "big") + height.to_bytes(4, "big")
    elif extension == ".jpg":
        at = data.index(b"\xff\xc0")  # baseline start of frame: height, then width
        data[at + 5:at + 9] = height.to_bytes(2, "big") + width.to_bytes(2, "big")
    else:
        data[18:26] = width.to_bytes(4, "little") + height.to_bytes(4, "little")  # BMP
    return bytes(data)


@pytest.mark.parametrize("extension, width, height", [
    (".png", 100_000, 100_000),  # past OpenCV's own limit, which was an assertion: a traceback
    (".jpg", 65_000, 65_000),
    (".png", 30_000, 30_000),  # within OpenCV's: decoding a real one took 31 s and 5.3 GB
    (".bmp", 4097, 4097),
])
def test_a_frame_too_large_is_refused_from_its_header(tmp_path: Path, extension: str, width: int, height: int,
                                                      capfd: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"huge{extension}"
    path.write_bytes(_huge_header(extension, width, height))
    with pytest.raises(ImageError, match=rf"huge\{extension}: the image is {width}x{height} px .*; pipgammon "
                       r"reads frames of up to 16\.8 MP"):
        load(path)
    assert capfd.readouterr().err == ""


def test_the_pi_hq_cameras_full_still_is_read(tmp_path: Path) -> None:
    path = tmp_path / "hq.png"
    path.write_bytes(bytes(cv2.imencode(".png", np.zeros((3040, 4056, 3), np.uint8))[1]))
    assert load(path).shape == (3040, 4056, 3)


def test_a_format_whose_header_is_not_read_is_measured_once_decoded(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "frame.ppm"
    path.write_bytes(bytes(cv2.imencode(".ppm", np.zeros((300, 400, 3), np.uint8))[1]))
    assert declared_size(path.read_bytes()) is None and load(path).shape == (300, 400, 3)
    monkeypatch.setattr(images, "MAX_PIXELS", 400 * 300 - 1)
    with pytest.raises(ImageError, match=r"frame\.ppm: the image is 400x300 px"):
        load(path)
    # Past OpenCV's limit it raises instead of decoding: its words become ours, in one line.
    path.write_bytes(b"P6\n100000 100000\n255\n" + bytes(64))
    with pytest.raises(ImageError, match=r"frame\.ppm: the image is larger than OpenCV decodes"):
        load(path)
    assert MAX_PIXELS == 1 << 24


def test_opencvs_own_log_is_silenced_while_it_decodes(tmp_path: Path,
                                                      capfd: pytest.CaptureFixture[str]) -> None:
    """OpenCV logs a file it cannot decode ("imdecode_(''): can't read data: ..."); the one line
    of `ImageError` says it instead, and OpenCV's log level is as it was afterwards."""
    level = cv2.utils.logging.getLogLevel()
    path = tmp_path / "cut.gif"
    path.write_bytes(b"GIF89a\x01\x00\x01\x00\x00\x00\x00;")  # a header and nothing more
    with pytest.raises(ImageError, match="not an image OpenCV can decode"):
        load(path)
    assert capfd.readouterr().err == ""
    assert cv2.utils.logging.getLogLevel() == level


def test_libpng_and_libjpeg_print_nothing_themselves(tmp_path: Path,
                                                     capfd: pytest.CaptureFixture[str]) -> None:
    """libpng and libjpeg write their complaints to fd 2 themselves, past OpenCV's log level
    ("libpng error: IDAT: CRC error", "Corrupt JPEG data: ..."); the user sees one line, ours,
    with the library's words in it."""
    png = bytearray(cv2.imencode(".png", np.full((400, 400, 3), 90, np.uint8))[1])
    png[60] ^= 0xFF  # inside the IDAT chunk: its CRC no longer matches
    path = tmp_path / "crc.png"
    path.write_bytes(bytes(png))
    with pytest.raises(ImageError, match=r"crc\.png: the image data is corrupt .*CRC error"):
        load(path)
    jpeg = good_jpeg()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(jpeg[: len(jpeg) // 2] + b"\xff\xd9")  # cut short, with an end marker put back
    with contextlib.suppress(ImageError):  # refused or read: either way, nothing on stderr
        load(cut)
    assert capfd.readouterr().err == ""


def test_other_lines_on_stderr_during_a_decode_are_passed_on(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """fd 2 is the whole process's: a line another thread writes while a frame decodes is not
    the decoder's to swallow, and fd 2 is back in place even when the decoder raises."""
    real = cv2.imdecode
    calls: list[int] = []

    def chatty(buffer: np.ndarray, flags: int) -> np.ndarray | None:
        # The other thread writes once; the harmless warning has the file decoded twice.
        os.write(2, b"Corrupt JPEG data: 2 extraneous bytes before marker 0xd9\n"
                 + (b"" if calls else b"someone else's line\n"))
        calls.append(1)
        return real(buffer, flags)

    path = tmp_path / "ok.jpg"
    path.write_bytes(good_jpeg())
    monkeypatch.setattr(cv2, "imdecode", chatty)
    assert load(path).shape == (480, 640, 3)
    assert capfd.readouterr().err == "someone else's line\n"

    def failing(buffer: np.ndarray, flags: int) -> np.ndarray | None:
        raise MemoryError("out of memory")

    monkeypatch.setattr(cv2, "imdecode", failing)
    with pytest.raises(MemoryError):
        load(path)
    os.write(2, b"after\n")
    assert capfd.readouterr().err == "after\n"


def test_a_decode_with_no_room_for_the_decoders_words_still_decodes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The decoder's words go to a temporary file; on a full disk that file cannot be made, and
    a frame that decodes is worth more than a quiet stderr (no OSError out of `load`)."""
    def no_room() -> None:
        raise OSError(28, "No space left on device")

    path = tmp_path / "ok.jpg"
    path.write_bytes(good_jpeg())
    monkeypatch.setattr(tempfile, "TemporaryFile", no_room)
    assert load(path).shape == (480, 640, 3)
