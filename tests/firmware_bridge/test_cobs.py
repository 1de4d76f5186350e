"""COBS, from the shared wire module both ends run."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.firmware.wire import cobs_decode, cobs_encode


def reference_encode(data: bytes) -> bytes:
    """COBS byte by byte, as Cheshire and Baker describe it: the oracle."""
    out = bytearray([0])
    code_at, code = 0, 1
    after_full_block = False
    for byte in data:
        if byte == 0:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
            after_full_block = False
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
            after_full_block = True
    out[code_at] = code
    if code == 1 and after_full_block:
        del out[code_at]  # a full block at the very end needs no empty block after it
    return bytes(out)


@pytest.mark.parametrize(("raw", "encoded"), [
    (b"", b"\x01"),
    (b"\x00", b"\x01\x01"),
    (b"\x00\x00", b"\x01\x01\x01"),
    (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
    (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
    (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
    (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
    (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
    (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
])
def test_known_vectors(raw: bytes, encoded: bytes) -> None:
    assert cobs_encode(raw) == encoded
    assert cobs_decode(encoded) == raw


# Runs of non-zero bytes near the 254-byte block limit, where COBS has its edge cases.
runs = st.lists(st.sampled_from([0, 1, 253, 254, 255, 508]), max_size=4).map(
    lambda lengths: b"\x00".join(bytes([7]) * n for n in lengths))


@given(st.one_of(st.binary(max_size=800), runs))
def test_round_trip_without_zeros_and_as_the_reference(data: bytes) -> None:
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert encoded == reference_encode(data)
    assert cobs_decode(encoded) == data


@given(st.binary(max_size=600).map(lambda b: b.replace(b"\x00", b"\x07")))
def test_decoder_either_decodes_or_says_cobs(packet: bytes) -> None:
    try:
        cobs_decode(packet)
    except ValueError as err:
        assert str(err) == "cobs"


@pytest.mark.parametrize("packet", [b"\x05\x11", b"\x00", b"\x03\x11\x22\x09"])
def test_impossible_packets_are_refused(packet: bytes) -> None:
    with pytest.raises(ValueError, match="cobs"):
        cobs_decode(packet)
