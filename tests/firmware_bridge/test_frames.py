"""Framing: the frame layout, payloads, resynchronisation, and fuzzing of the decoders."""

from __future__ import annotations

import contextlib
import doctest
import random
import struct
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.buttons import Button, ButtonEvent, Press
from engine.lights import BLUE, Light
from firmware_bridge import framing, layout
from firmware_bridge.errors import FrameError
from firmware_bridge.firmware import wire
from firmware_bridge.firmware.board import Board
from firmware_bridge.framing import (
    Deframer,
    Frame,
    FrameType,
    decode_button,
    decode_frame,
    decode_hello_reply,
    decode_lights,
    encode_button,
    encode_frame,
    encode_lights,
)
from firmware_bridge.selftest import random_plan

frames = st.builds(
    Frame,
    st.sampled_from(list(FrameType)),
    st.integers(0, 0xFFFF),
    st.integers(0, 0xFFFF),
    st.binary(max_size=wire.MAX_PAYLOAD),
)


def test_layout_of_a_frame_body() -> None:
    packet = encode_frame(Frame(FrameType.LIGHTS, seq=0x1234, ack=0xABCD, payload=b"\x01\x02"))
    body = wire.cobs_decode(packet[:-1])
    assert body[:6] == bytes([wire.PROTOCOL_VERSION, wire.LIGHTS, 0x12, 0x34, 0xAB, 0xCD])
    assert body[6:8] == b"\x01\x02"
    assert struct.unpack(">H", body[8:])[0] == wire.crc16(body[:8])


@given(frames)
def test_round_trip(frame: Frame) -> None:
    packet = encode_frame(frame)
    assert packet.count(0) == 1 and packet[-1] == 0
    assert decode_frame(packet[:-1]) == frame


@pytest.mark.parametrize(("packet", "reason"), [
    (wire.cobs_encode(b"\x01\x04\x00"), "short"),
    (b"\x09\x01", "cobs"),
    (bytes([7]) * (wire.MAX_PACKET + 1), "long"),
])
def test_each_bad_packet_names_its_fault(packet: bytes, reason: str) -> None:
    with pytest.raises(FrameError) as info:
        decode_frame(packet)
    assert info.value.reason == reason


def test_crc_type_and_version_faults() -> None:
    body = bytearray(wire.cobs_decode(encode_frame(Frame(FrameType.ACK, 1, 2))[:-1]))
    body[3] ^= 0x10
    with pytest.raises(FrameError, match="crc"):
        decode_frame(wire.cobs_encode(bytes(body)))
    with pytest.raises(FrameError, match="type"):
        decode_frame(wire.pack(99, 0, 0)[:-1])
    with pytest.raises(FrameError, match="version"):
        decode_frame(wire.pack(wire.ACK, 0, 0, version=9)[:-1])
    # A hello reply of another version still decodes, so the handshake can name it.
    assert decode_frame(wire.pack(wire.HELLO_REPLY, 0, 0, version=9)[:-1]).version == 9


def test_garbage_resynchronises_at_the_next_zero() -> None:
    a, b = Frame(FrameType.ACK, 1, 1), Frame(FrameType.HEARTBEAT, 2, 2)
    deframer = Deframer()
    stream = b"\x13\x37junk\x00" + encode_frame(a) + b"\xff" * 500 + b"\x00" + encode_frame(b)
    got = [f for i in range(0, len(stream), 7) for f in deframer.feed(stream[i:i + 7])]
    assert got == [a, b]
    assert deframer.stats.bad == {"cobs": 1, "long": 1}


def test_a_partial_packet_is_flushed_and_counted() -> None:
    deframer = Deframer()
    assert deframer.feed(encode_frame(Frame(FrameType.ACK))[:-3]) == []
    assert deframer.flush() is True and deframer.flush() is False
    assert deframer.stats.bad == {"partial": 1}


def test_lights_payload_round_trip() -> None:
    plan = random_plan(random.Random(3)).with_points({5: Light.blink(BLUE)})
    payload = encode_lights(plan)
    assert len(payload) == wire.LIGHTS_PAYLOAD_SIZE
    assert payload[16:20] == bytes([wire.BLINK, 0, 90, 230])  # point 5 is lamp 4
    assert decode_lights(payload) == plan
    with pytest.raises(FrameError, match="pattern code 9"):
        decode_lights(b"\x09" + payload[1:])


def test_button_and_hello_reply_payloads() -> None:
    event = ButtonEvent(Button.TAKE_BACK, Press.LONG)
    assert decode_button(bytes(encode_button(event))) == event
    with pytest.raises(FrameError):
        decode_button(b"\x09\x00")
    board = Board(57, (1, 2, 3), b"PICO", 77, now=0)
    board.receive(wire.pack(wire.HELLO, 0, 0, struct.pack(wire.HELLO_PAYLOAD, 1, *[1] * 30)), 0)
    reply = decode_frame(board.take_output()[:-1])
    info = decode_hello_reply(reply.payload)
    assert (info.firmware_version, info.led_count, info.boot_id) == ("1.2.3", 57, 77)
    assert info.board_id == b"PICO\0\0\0\0".hex()


def _packets(stream: bytes) -> list[bytes]:
    return [p for p in stream.split(b"\x00")[:-1] if p]


@settings(max_examples=300)
@given(st.lists(st.one_of(st.binary(max_size=300), frames.map(encode_frame)), max_size=12))
def test_fuzz_deframer_never_raises_and_counts_every_packet(chunks: list[bytes]) -> None:
    stream = b"".join(chunks) + b"\x00"
    deframer = Deframer()
    frames_out = deframer.feed(stream)
    assert len(frames_out) == deframer.stats.frames
    assert deframer.stats.frames + deframer.stats.corrupt == len(_packets(stream))


@settings(max_examples=300)
@given(st.lists(frames, min_size=1, max_size=8), st.data())
def test_fuzz_every_damaged_frame_is_counted_not_delivered(sent: list[Frame], data: st.DataObject) -> None:
    damaged = data.draw(st.sets(st.integers(0, len(sent) - 1)))
    stream = bytearray()
    for i, frame in enumerate(sent):
        packet = bytearray(encode_frame(frame))
        if i in damaged:
            at = data.draw(st.integers(0, len(packet) - 2))
            packet[at] = data.draw(st.integers(1, 255).filter(lambda v, old=packet[at]: v != old))
        stream += packet
    deframer = Deframer()
    got = deframer.feed(bytes(stream))
    assert got == [f for i, f in enumerate(sent) if i not in damaged]
    assert deframer.stats.corrupt == len(damaged)


@settings(max_examples=300)
@given(st.binary(max_size=600))
def test_fuzz_decoders_raise_only_frame_error(packet: bytes) -> None:
    for decode in (decode_frame, decode_lights, decode_button, decode_hello_reply):
        with contextlib.suppress(FrameError):
            decode(packet)


@settings(max_examples=300)
@given(st.lists(st.one_of(st.binary(max_size=200), frames.map(encode_frame)), max_size=10))
def test_fuzz_firmware_never_raises_and_counts_bad_packets(chunks: list[bytes]) -> None:
    board = Board(57, (1, 0, 0), b"x", 1, now=0)
    stream = b"".join(chunks) + b"\x00"
    board.receive(stream, now=0)
    good = 0
    for packet in _packets(stream):
        try:
            wire.unpack(packet)
            good += 1
        except ValueError:
            pass
    assert board.corrupt == len(_packets(stream)) - good
    board.tick(10_000)
    board.colours(10_000)


@pytest.mark.parametrize("module", [framing, layout])
def test_doctests(module: types.ModuleType) -> None:
    # firmware_bridge is not in pytest's doctest paths: its firmware/main.py needs the stubs.
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
