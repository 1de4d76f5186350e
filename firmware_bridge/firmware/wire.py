"""The wire format both ends of the link share: COBS, CRC-16 and the frame body.

This one file is copied to the Pico *and* imported by the host, so the two ends
cannot disagree about a byte.  That is why COBS is written here rather than taken
from the ``cobs`` package: MicroPython cannot pip-install it, and one shared pure
module is tested once for both ends.  It also sets what the code may use: only
what MicroPython has (no dataclasses, enum, typing at run time or
``binascii.crc_hqx``).

A frame on the wire is ``COBS(body) 0x00`` where body is::

    version:u8  type:u8  seq:u16  ack:u16  payload:0..MAX_PAYLOAD  crc:u16

all big-endian; crc is CRC-16/CCITT-FALSE over everything before it.
"""

import struct

PROTOCOL_VERSION = 1

# Frame types.  Host -> board: HELLO, LIGHTS, HEARTBEAT.  Board -> host: HELLO_REPLY,
# BUTTON.  Either way: ACK, NAK ("I just got a damaged frame: resend yours now").
HELLO = 1
HELLO_REPLY = 2
LIGHTS = 3
ACK = 4
HEARTBEAT = 5
BUTTON = 6
NAK = 7
FRAME_TYPES = (HELLO, HELLO_REPLY, LIGHTS, ACK, HEARTBEAT, BUTTON, NAK)

HEADER = ">BBHH"
HEADER_SIZE = 6
CRC_SIZE = 2
LAMP_COUNT = 30  # engine.lights.LAMPS, in that order
MAX_PAYLOAD = 160
# The longest COBS packet a valid frame can make; anything longer is garbage.
MAX_PACKET = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE + 2

# Payloads.  HELLO: session id, then how many LEDs each lamp has (the strip layout).
HELLO_PAYLOAD = ">I" + "B" * LAMP_COUNT
# HELLO_REPLY: protocol, firmware major.minor.patch, LED count, board id, boot id,
# the last button event acknowledged on this boot, status.
HELLO_REPLY_PAYLOAD = ">BBBBH8sIHB"
STATUS_OK = 0
STATUS_LAYOUT_TOO_BIG = 1
STATUS_VERSION = 2
# LIGHTS: pattern, r, g, b for each of the LAMP_COUNT lamps.
LIGHT_SIZE = 4
LIGHTS_PAYLOAD_SIZE = LIGHT_SIZE * LAMP_COUNT
# Patterns, as engine.lights.Pattern.
OFF = 0
STEADY = 1
BLINK = 2
PULSE = 3
# BUTTON: button, press; the codes of engine.buttons.Button and Press.
BUTTON_END_TURN = 1
BUTTON_TAKE_BACK = 2
BUTTON_MODE = 3
PRESS_SHORT = 0
PRESS_LONG = 1

SEQ_MASK = 0xFFFF
# A sender writes a frame in one go, so a partial packet this old has lost its end.
IDLE_FLUSH_MS = 5


def newer(a: int, b: int) -> bool:
    """Whether sequence number ``a`` comes after ``b`` (RFC 1982 arithmetic on 16 bits)."""
    return 0 < ((a - b) & SEQ_MASK) < 0x8000


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF), table-driven.

    Equal to ``binascii.crc_hqx(data, 0xFFFF)``, which MicroPython lacks.
    """
    crc = 0xFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFF00) ^ table[(crc >> 8) ^ byte]
    return crc


try:
    from binascii import crc_hqx as _crc_hqx

    def fast_crc16(data: bytes) -> int:
        """`crc16` in C where the interpreter has it (CPython)."""
        return _crc_hqx(data, 0xFFFF)

except ImportError:  # MicroPython
    fast_crc16 = crc16


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` with no 0x00 left in it."""
    out = bytearray()
    blocks = bytes(data).split(b"\x00")
    last = len(blocks) - 1
    for i in range(len(blocks)):
        block = blocks[i]
        # A run of 254 non-zero bytes gets code 0xFF and no implied zero.
        while len(block) >= 254:
            out.append(0xFF)
            out += block[:254]
            block = block[254:]
            if not block and i == last:
                return bytes(out)
        out.append(len(block) + 1)
        out += block
    return bytes(out)


def cobs_decode(packet: bytes) -> bytes:
    """The inverse of `cobs_encode`; ValueError("cobs") if ``packet`` cannot be one."""
    out = bytearray()
    i = 0
    n = len(packet)
    while i < n:
        code = packet[i]
        end = i + code
        if code == 0 or end > n:
            raise ValueError("cobs")
        out += packet[i + 1 : end]
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def pack(kind: int, seq: int, ack: int, payload: bytes = b"", version: int = PROTOCOL_VERSION) -> bytes:
    """One whole frame, ready to write: COBS-encoded body and the 0x00 that ends it."""
    body = struct.pack(HEADER, version, kind, seq & SEQ_MASK, ack & SEQ_MASK) + payload
    crc = fast_crc16(body)
    return cobs_encode(body + bytes((crc >> 8, crc & 0xFF))) + b"\x00"


def unpack(packet: bytes) -> tuple[int, int, int, int, bytes]:
    """``(version, type, seq, ack, payload)`` from a packet without its 0x00.

    ValueError names what is wrong: "cobs", "short", "long" or "crc".  The type
    and version are the caller's to judge, so a newer peer can still be named.
    """
    if len(packet) > MAX_PACKET:
        raise ValueError("long")
    body = cobs_decode(packet)
    if len(body) < HEADER_SIZE + CRC_SIZE:
        raise ValueError("short")
    crc = (body[-2] << 8) | body[-1]
    if fast_crc16(body[:-2]) != crc:
        raise ValueError("crc")
    version, kind, seq, ack = struct.unpack(HEADER, body[:HEADER_SIZE])
    return version, kind, seq, ack, body[HEADER_SIZE:-2]


class Splitter:
    """Cuts a byte stream into packets at each 0x00.

    Garbage costs at most the packet it sits in: the next 0x00 resynchronises.  A
    packet longer than MAX_PACKET is dropped and counted in ``overlong``.
    """

    def __init__(self, limit: int = MAX_PACKET) -> None:
        self.limit = limit
        self.overlong = 0
        self._buf = bytearray()
        self._dropping = False

    def feed(self, data: bytes) -> list[bytes]:
        packets = []
        parts = bytes(data).split(b"\x00")
        last = len(parts) - 1
        for i in range(len(parts)):
            if not self._dropping:
                self._buf += parts[i]
                if len(self._buf) > self.limit:
                    self._buf = bytearray()
                    self._dropping = True
                    self.overlong += 1
            if i < last:
                if not self._dropping and self._buf:
                    packets.append(bytes(self._buf))
                self._buf = bytearray()
                self._dropping = False
        return packets

    def has_partial(self) -> bool:
        return bool(self._buf) or self._dropping

    def flush(self) -> None:
        """Give up on a partial packet: the line went quiet before its 0x00.

        A frame whose 0x00 was lost would otherwise wait for the next frame to end
        it, and with one frame in flight that is a whole retransmit timeout.
        """
        self._buf = bytearray()
        self._dropping = False
