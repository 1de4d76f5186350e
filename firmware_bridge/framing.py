"""Framing: typed frames over the shared wire format.  Pure functions, no I/O.

The byte layout lives in one place, ``firmware/wire.py``, which the firmware runs
too; this module gives it types and counts what arrives damaged.

>>> frame = Frame(FrameType.ACK, seq=7, ack=65535)
>>> packet = encode_frame(frame)
>>> packet[-1], decode_frame(packet[:-1]) == frame
(0, True)
>>> deframer = Deframer()
>>> deframer.feed(b"garbage\\x00" + packet) == [frame], deframer.stats.corrupt
(True, 1)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from enum import IntEnum

from engine.buttons import Button, ButtonEvent, Press
from engine.lights import Colour, Light, LightPlan, Pattern
from firmware_bridge.errors import FrameError
from firmware_bridge.firmware import wire
from firmware_bridge.layout import StripLayout


class FrameType(IntEnum):
    HELLO = wire.HELLO
    HELLO_REPLY = wire.HELLO_REPLY
    LIGHTS = wire.LIGHTS
    ACK = wire.ACK
    HEARTBEAT = wire.HEARTBEAT
    BUTTON = wire.BUTTON
    NAK = wire.NAK


@dataclass(frozen=True, slots=True)
class Frame:
    kind: FrameType
    seq: int = 0
    ack: int = 0
    payload: bytes = b""
    version: int = wire.PROTOCOL_VERSION


def encode_frame(frame: Frame) -> bytes:
    """The frame's bytes on the wire, ending in 0x00."""
    return wire.pack(frame.kind, frame.seq, frame.ack, frame.payload, frame.version)


def decode_frame(packet: bytes) -> Frame:
    """The frame in ``packet`` (the bytes between two 0x00), or FrameError.

    A frame of another protocol version is refused, except a HELLO_REPLY, so the
    handshake can say which version the firmware speaks.
    """
    try:
        version, kind, seq, ack, payload = wire.unpack(packet)
    except ValueError as err:
        raise FrameError(str(err)) from err
    if kind not in wire.FRAME_TYPES:
        raise FrameError("type", f"unknown frame type {kind}")
    if version != wire.PROTOCOL_VERSION and kind != wire.HELLO_REPLY:
        raise FrameError("version", f"protocol version {version}")
    if len(payload) > wire.MAX_PAYLOAD:
        raise FrameError("long")
    return Frame(FrameType(kind), seq, ack, payload, version)


@dataclass(slots=True)
class FrameStats:
    """What a `Deframer` has seen: good frames, and each kind of bad one."""

    frames: int = 0
    bad: dict[str, int] = field(default_factory=dict)

    @property
    def corrupt(self) -> int:
        return sum(self.bad.values())

    def count(self, reason: str, n: int = 1) -> None:
        self.bad[reason] = self.bad.get(reason, 0) + n


class Deframer:
    """Bytes in, frames out.  Never raises on input: every bad packet is counted."""

    def __init__(self) -> None:
        self._splitter = wire.Splitter()
        self.stats = FrameStats()

    def reset(self) -> None:
        """Forget a partial packet (the port changed); keep the counts."""
        self._splitter = wire.Splitter()

    def flush(self) -> bool:
        """Drop and count a partial packet (see `wire.Splitter.flush`); whether there was one."""
        if not self._splitter.has_partial():
            return False
        self._splitter.flush()
        self.stats.count("partial")
        return True

    def feed(self, data: bytes) -> list[Frame]:
        frames: list[Frame] = []
        overlong = self._splitter.overlong
        for packet in self._splitter.feed(data):
            try:
                frames.append(decode_frame(packet))
            except FrameError as err:
                self.stats.count(err.reason)
        if self._splitter.overlong != overlong:
            self.stats.count("long", self._splitter.overlong - overlong)
        self.stats.frames += len(frames)
        return frames


# -- payloads -----------------------------------------------------------------

_PATTERN_CODES = {Pattern.OFF: wire.OFF, Pattern.STEADY: wire.STEADY,
                  Pattern.BLINK: wire.BLINK, Pattern.PULSE: wire.PULSE}
_PATTERNS = {code: pattern for pattern, code in _PATTERN_CODES.items()}
_BUTTON_CODES = {Button.END_TURN: wire.BUTTON_END_TURN, Button.TAKE_BACK: wire.BUTTON_TAKE_BACK,
                 Button.MODE: wire.BUTTON_MODE}
_BUTTONS = {code: button for button, code in _BUTTON_CODES.items()}
_PRESS_CODES = {Press.SHORT: wire.PRESS_SHORT, Press.LONG: wire.PRESS_LONG}
_PRESSES = {code: press for press, code in _PRESS_CODES.items()}


def encode_lights(plan: LightPlan) -> bytes:
    """The whole plan, 4 bytes a lamp: pattern, r, g, b."""
    out = bytearray()
    for light in plan.lights:
        out += bytes((_PATTERN_CODES[light.pattern], light.colour.r, light.colour.g, light.colour.b))
    return bytes(out)


def decode_lights(payload: bytes) -> LightPlan:
    """The inverse of `encode_lights` (the simulator and the tests read plans back)."""
    if len(payload) != wire.LIGHTS_PAYLOAD_SIZE:
        raise FrameError("payload", f"lights payload of {len(payload)} bytes")
    lights = []
    for i in range(0, len(payload), wire.LIGHT_SIZE):
        code, r, g, b = payload[i : i + wire.LIGHT_SIZE]
        if code not in _PATTERNS:
            raise FrameError("payload", f"pattern code {code}")
        lights.append(Light(_PATTERNS[code], Colour(r, g, b)))
    return LightPlan(tuple(lights))


def encode_hello(session: int, layout: StripLayout) -> bytes:
    return struct.pack(wire.HELLO_PAYLOAD, session, *layout.counts)


@dataclass(frozen=True, slots=True)
class FirmwareInfo:
    """What the board says about itself in its hello reply."""

    protocol: int
    firmware: tuple[int, int, int]
    led_count: int
    board_id: str
    boot_id: int
    event_base: int  # the last button event acknowledged on this boot
    status: int

    @property
    def firmware_version(self) -> str:
        return ".".join(map(str, self.firmware))


def decode_hello_reply(payload: bytes) -> FirmwareInfo:
    try:
        fields = struct.unpack(wire.HELLO_REPLY_PAYLOAD, payload)
    except struct.error as err:
        raise FrameError("payload", f"hello reply of {len(payload)} bytes") from err
    protocol, major, minor, patch, led_count, board_id, boot_id, event_base, status = fields
    return FirmwareInfo(protocol, (major, minor, patch), led_count, board_id.hex(), boot_id, event_base,
                        status)


def decode_button(payload: bytes) -> ButtonEvent:
    if len(payload) != 2 or payload[0] not in _BUTTONS or payload[1] not in _PRESSES:
        raise FrameError("payload", f"button payload {payload.hex()}")
    return ButtonEvent(_BUTTONS[payload[0]], _PRESSES[payload[1]])


def encode_button(event: ButtonEvent) -> tuple[int, int]:
    """The firmware's codes for a button event (what the simulator presses)."""
    return _BUTTON_CODES[event.button], _PRESS_CODES[event.press]
