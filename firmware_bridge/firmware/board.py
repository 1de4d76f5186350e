"""The board's end of the link: protocol, watchdog and what each LED shows.

No I/O here: `Board` takes bytes and a time in milliseconds and gives back bytes
to write and LED colours, so the very code that runs on the Pico is tested on the
host (``main.py`` does the USB, NeoPixel and button I/O).  MicroPython runs it, so
it uses only what MicroPython has (see wire.py).

Rules (docs/firmware_bridge.md has them in full):

* LIGHTS frames carry complete states; a state is applied only if its sequence
  number is newer than the one shown, so a repeated or late frame changes nothing.
  Every frame from the host is answered with the newest state shown (the ``ack``).
* HELLO starts a session: the strip layout, and the host's session id.  A new
  session id (a restarted host) blanks the plan; the same one (a reconnect) keeps it.
* Button events wait in a queue, oldest first, until the host acknowledges them,
  and are resent every EVENT_RESEND_MS (or at once on a NAK).
* Silence from the host for OFFLINE_AFTER_MS turns the plan off and shows the
  offline pattern, so a dead host never leaves stale lights on the board.
"""

import math
import struct

try:
    from firmware_bridge.firmware import wire  # on the host: tests and the simulator
except ImportError:  # on the Pico, where the files sit at the root of the flash
    import wire  # type: ignore[import-not-found, no-redef]

try:
    from time import ticks_diff as ticks_diff  # type: ignore[attr-defined]  # MicroPython: ticks wrap
except ImportError:

    def ticks_diff(now: int, then: int) -> int:
        return now - then


OFFLINE_AFTER_MS = 2000
EVENT_RESEND_MS = 100
MAX_EVENTS = 32
OFFLINE_COLOUR = (230, 140, 0)  # engine.lights.AMBER: "attention"

# Mirrors engine.lights (tests/firmware_bridge/test_firmware_on_host.py checks it).
BLINK_PERIOD_S = 1.0
PULSE_PERIOD_S = 2.0


def level(pattern: int, r: int, g: int, b: int, seconds: float) -> float:
    """`engine.lights.Light.level`, for a lamp given as pattern code and colour."""
    if pattern == wire.OFF or (r == 0 and g == 0 and b == 0):
        return 0.0
    if pattern == wire.STEADY:
        return 1.0
    if pattern == wire.BLINK:
        return 1.0 if (seconds % BLINK_PERIOD_S) < BLINK_PERIOD_S / 2 else 0.0
    phase = (seconds % PULSE_PERIOD_S) / PULSE_PERIOD_S
    return 0.5 - 0.5 * math.cos(2 * math.pi * phase)


def rgb(pattern: int, r: int, g: int, b: int, seconds: float) -> tuple[int, int, int]:
    """`engine.lights.Light.rgb`: the colour scaled by `level`."""
    k = level(pattern, r, g, b, seconds)
    return (round(r * k), round(g * k), round(b * k))


def valid_lights(payload: bytes) -> bool:
    if len(payload) != wire.LIGHTS_PAYLOAD_SIZE:
        return False
    return all(payload[i] <= wire.PULSE for i in range(0, len(payload), wire.LIGHT_SIZE))


class Board:
    """The firmware's protocol state.  Times are milliseconds from the caller's clock."""

    def __init__(
        self, led_count: int, firmware_version: tuple[int, int, int], board_id: bytes, boot_id: int, now: int
    ) -> None:
        self.led_count = led_count
        self.firmware_version = firmware_version
        self.board_id = (bytes(board_id) + bytes(8))[:8]
        self.boot_id = boot_id & 0xFFFFFFFF
        self.splitter = wire.Splitter()
        self.session = -1  # none yet: no lights until a host says hello
        self.applied = 0  # sequence number of the plan shown
        self.plan = b""  # its LIGHTS payload; empty: all dark
        self.shown_at = now
        self.ranges = None  # type: list[tuple[int, int]] | None  # (first LED, LED count) per lamp
        self.online = False
        self.last_heard = now
        # (seq, button, press), oldest first, until acknowledged.  Type comments, not
        # annotations, in the firmware: MicroPython ignores comments for certain.
        self.events = []  # type: list[tuple[int, int, int]]
        self.event_seq = 0  # the last one queued
        self.event_acked = 0  # the last one the host acknowledged
        self.event_sent_at = -1  # when the head of the queue went out; -1: not yet
        # Counters, read by the simulator and reported in the self-test.
        self.corrupt = 0  # damaged packets
        self.refused = 0  # undamaged frames with a payload that makes no sense
        self.retries = 0
        self.offline_count = 0
        self.dropped_events = 0
        self.on_apply = None  # the simulator's hook: on_apply(seq, payload)
        self._heard_byte = now
        self._out = bytearray()

    # -- input -------------------------------------------------------------

    def receive(self, data: bytes, now: int) -> None:
        """Bytes from the host; answers pile up for `take_output`."""
        self._heard_byte = now
        overlong = self.splitter.overlong
        for packet in self.splitter.feed(data):
            self._packet(packet, now)
        if self.splitter.overlong != overlong:
            self.corrupt += self.splitter.overlong - overlong
            self._send(wire.NAK, b"")

    def press(self, button: int, press: int) -> None:
        """Queue a debounced button event until the host acknowledges it."""
        if len(self.events) >= MAX_EVENTS:
            self.events.pop(0)  # the queue is bounded; say so rather than run out of RAM
            self.dropped_events += 1
            self.event_sent_at = -1
        self.event_seq = (self.event_seq + 1) & wire.SEQ_MASK
        self.events.append((self.event_seq, button, press))

    def tick(self, now: int) -> None:
        """The watchdog and button resends; call it every few milliseconds."""
        if self.splitter.has_partial() and ticks_diff(now, self._heard_byte) > wire.IDLE_FLUSH_MS:
            self.splitter.flush()
            self.corrupt += 1
            self._send(wire.NAK, b"")
        if self.online and ticks_diff(now, self.last_heard) > OFFLINE_AFTER_MS:
            self.online = False
            self.offline_count += 1
        if self.online and self.events and (
            self.event_sent_at < 0 or ticks_diff(now, self.event_sent_at) >= EVENT_RESEND_MS
        ):
            if self.event_sent_at >= 0:
                self.retries += 1
            self._send_event(now)

    def take_output(self) -> bytes:
        out = bytes(self._out)
        self._out = bytearray()
        return out

    # -- output ------------------------------------------------------------

    def colours(self, now: int) -> list[tuple[int, int, int]]:
        """Every LED's (r, g, b) at ``now``: the plan animated, or the offline pattern."""
        leds = [(0, 0, 0)] * self.led_count
        ranges = self.ranges
        if not self.online:
            first, count = ranges[-1] if ranges else (self.led_count - 1, 1)  # the status lamp
            seconds = ticks_diff(now, self.shown_at) / 1000
            colour = rgb(wire.PULSE, *OFFLINE_COLOUR, seconds)
            for led in range(first, first + count):
                leds[led] = colour
            return leds
        if not self.plan or ranges is None:
            return leds
        seconds = ticks_diff(now, self.shown_at) / 1000
        plan = self.plan
        for lamp in range(wire.LAMP_COUNT):
            first, count = ranges[lamp]
            i = lamp * wire.LIGHT_SIZE
            colour = rgb(plan[i], plan[i + 1], plan[i + 2], plan[i + 3], seconds)
            for led in range(first, first + count):
                leds[led] = colour
        return leds

    # -- frames ------------------------------------------------------------

    def _send(self, kind: int, payload: bytes, seq: int = -1) -> None:
        self._out += wire.pack(kind, self.event_seq if seq < 0 else seq, self.applied, payload)

    def _send_event(self, now: int) -> None:
        seq, button, press = self.events[0]
        self._send(wire.BUTTON, bytes((button, press)), seq)
        self.event_sent_at = now

    def _packet(self, packet: bytes, now: int) -> None:
        try:
            version, kind, seq, ack, payload = wire.unpack(packet)
        except ValueError:
            self.corrupt += 1
            self._send(wire.NAK, b"")
            return
        if version != wire.PROTOCOL_VERSION:
            if kind == wire.HELLO:  # tell the host which protocol this firmware speaks
                self._hello_reply(wire.STATUS_VERSION)
            else:
                self.refused += 1
            return
        if kind == wire.HELLO:
            self._hello(seq, payload, now)
            return
        if self.session < 0:
            return  # no session: the host will time out and say hello again
        self.last_heard = now
        self.online = True
        self._acked(ack, now)
        if kind == wire.LIGHTS:
            if not valid_lights(payload):
                self.refused += 1
            elif wire.newer(seq, self.applied):
                self.applied = seq
                if payload != self.plan:  # the same plan again keeps its blink phase
                    self.plan = payload
                    self.shown_at = now
                if self.on_apply is not None:
                    self.on_apply(seq, payload)
            self._send(wire.ACK, b"")
        elif kind == wire.HEARTBEAT:
            self._send(wire.ACK, b"")
        elif kind == wire.NAK and self.events:
            self.retries += 1
            self._send_event(now)

    def _hello(self, seq: int, payload: bytes, now: int) -> None:
        if len(payload) != struct.calcsize(wire.HELLO_PAYLOAD):
            self.refused += 1
            return
        fields = struct.unpack(wire.HELLO_PAYLOAD, payload)
        session, counts = fields[0], fields[1:]
        if sum(counts) > self.led_count:
            self._hello_reply(wire.STATUS_LAYOUT_TOO_BIG)
            return
        ranges = []
        first = 0
        for count in counts:
            ranges.append((first, count))
            first += count
        self.ranges = ranges
        if session != self.session:
            # A host we have not served: nothing shown belongs to it.
            self.session = session
            self.applied = seq
            self.plan = b""
        elif wire.newer(seq, self.applied):
            self.applied = seq
        self.online = True
        self.last_heard = now
        self.event_sent_at = -1
        self._hello_reply(wire.STATUS_OK)

    def _hello_reply(self, status: int) -> None:
        major, minor, patch = self.firmware_version
        payload = struct.pack(
            wire.HELLO_REPLY_PAYLOAD, wire.PROTOCOL_VERSION, major, minor, patch,
            self.led_count, self.board_id, self.boot_id, self.event_acked, status,
        )
        self._send(wire.HELLO_REPLY, payload)

    def _acked(self, ack: int, now: int) -> None:
        if not self.events or wire.newer(self.events[0][0], ack):
            return
        while self.events and not wire.newer(self.events[0][0], ack):
            self.event_acked = self.events.pop(0)[0]
        self.event_sent_at = -1
        if self.events:
            self._send_event(now)  # next one at once: no need to wait for a tick
