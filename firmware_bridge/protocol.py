"""The host's end of the protocol: hello, sequence and ack, retransmits, heartbeat.

`HostProtocol` does no I/O and reads no clock: it is fed bytes and times, and
hands back bytes to write (`data_to_send`) and events.  The rules, in brief (the
full table is in docs/firmware_bridge.md):

* Every `show` is a complete state with the next sequence number; the newest
  unacknowledged one is resent after ``retransmit_after``, or at once when the
  board reports a damaged frame (NAK) or a damaged frame arrives from it.  Older
  states are never resent: the newest replaces them on the board.
* After ``max_tries`` sends without an ack the link is declared `Lost`; the device
  layer then reconnects and says hello again, and the newest state is sent again.
* Each frame's ``ack`` acknowledges the other side's stream: the newest state
  shown (board to host), the last button event received (host to board).
* With nothing else to send, a HEARTBEAT goes out every ``heartbeat_every``; a
  board silent for ``silent_limit`` is `Lost`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.buttons import ButtonEvent
from firmware_bridge.errors import FrameError, HandshakeError, ProtocolVersionError
from firmware_bridge.firmware import wire
from firmware_bridge.framing import (
    Deframer,
    FirmwareInfo,
    Frame,
    FrameType,
    decode_button,
    decode_hello_reply,
    encode_frame,
    encode_hello,
)
from firmware_bridge.layout import StripLayout


@dataclass(frozen=True, slots=True)
class LinkConfig:
    """Timings in seconds.  The board's watchdog (2 s) outlasts ``silent_limit``."""

    retransmit_after: float = 0.05
    max_tries: int = 8
    heartbeat_every: float = 0.5
    silent_limit: float = 1.5
    # NAKs (and damaged frames) repeat the newest state at most once in this long,
    # so one burst of damage does not become a burst of copies.
    nak_holdoff: float = 0.002


class Phase(Enum):
    IDLE = "idle"  # not connected
    HELLO = "hello"  # hello sent, no reply yet
    READY = "ready"
    LOST = "lost"  # given up; the device layer reconnects


@dataclass(frozen=True, slots=True)
class Ready:
    info: FirmwareInfo


@dataclass(frozen=True, slots=True)
class Pressed:
    event: ButtonEvent
    seq: int


@dataclass(frozen=True, slots=True)
class Refused:
    """The board answered but cannot serve this host; reconnecting will not help."""

    error: HandshakeError


@dataclass(frozen=True, slots=True)
class Lost:
    reason: str


Event = Ready | Pressed | Refused | Lost


@dataclass(slots=True)
class LinkCounters:
    retries: int = 0
    timeouts: int = 0  # retries the timer made, not a NAK
    naks_sent: int = 0
    buttons: int = 0
    button_duplicates: int = 0
    buttons_missed: int = 0  # gaps in the board's numbering: its queue overflowed
    lost: int = 0


class HostProtocol:
    """One host's session with one board, kept across reconnects."""

    def __init__(self, layout: StripLayout, session: int, config: LinkConfig | None = None) -> None:
        self.layout = layout
        self.session = session & 0xFFFFFFFF
        self.config = config or LinkConfig()
        self.phase = Phase.IDLE
        self.info: FirmwareInfo | None = None
        self.deframer = Deframer()
        self.counters = LinkCounters()
        self.seq = 0  # the newest state's number
        self.acked = 0  # the newest state the board has shown
        self._latest: bytes | None = None  # the newest LIGHTS payload
        self._pending: bytes | None = None  # the frame awaiting an answer
        self._sent_at = 0.0
        self._tries = 0
        self._last_sent = 0.0
        self._last_heard = 0.0
        self._last_byte = 0.0
        self._last_nak = self._last_repeat = float("-inf")
        self._boot_id: int | None = None
        self._last_button = 0  # the last button event received on this boot
        self._out = bytearray()

    @property
    def is_synced(self) -> bool:
        """Whether the board shows the newest state."""
        return self.phase is Phase.READY and (self._latest is None or self.acked == self.seq)

    # -- calls from the device layer -------------------------------------------

    def connect(self, now: float) -> None:
        """A port was (re)opened: say hello, holding back lights until the reply."""
        self.deframer.reset()  # half a frame from the last port means nothing on this one
        self._out = bytearray()
        self.phase = Phase.HELLO
        # The hello's number is where the board's numbering (re)starts in a new
        # session: one before the newest state, so that state is shown next.
        start = (self.seq - 1) & wire.SEQ_MASK if self._latest is not None else self.seq
        frame = Frame(FrameType.HELLO, start, 0, encode_hello(self.session, self.layout))
        self._transmit(encode_frame(frame), now, first=True)
        self._last_heard = now

    def disconnected(self) -> None:
        self.phase = Phase.IDLE
        self._pending = None

    def show(self, payload: bytes, now: float) -> int:
        """A new complete state; its number.  Sent at once if the link is up."""
        self.seq = (self.seq + 1) & wire.SEQ_MASK
        self._latest = payload
        if self.phase is Phase.READY:
            self._send_latest(now)
        return self.seq

    def receive(self, data: bytes, now: float) -> list[Event]:
        corrupt = self.deframer.stats.corrupt
        self._last_byte = now
        events: list[Event] = []
        for frame in self.deframer.feed(data):
            self._last_heard = now
            events.extend(self._frame(frame, now))
        if self.deframer.stats.corrupt != corrupt:
            self._damaged(now)
        return events

    def poll(self, now: float) -> list[Event]:
        """Timers: retransmit, heartbeat, silence.  Call it every few milliseconds."""
        if self.phase not in (Phase.HELLO, Phase.READY):
            return []
        if now - self._last_byte >= wire.IDLE_FLUSH_MS / 1000 and self.deframer.flush():
            self._damaged(now)
        if self._pending is not None and now - self._sent_at >= self.config.retransmit_after:
            if self._tries >= self.config.max_tries:
                what = "hello" if self.phase is Phase.HELLO else f"state {self.seq}"
                return [self._lose(f"no answer to {what} after {self._tries} tries")]
            self.counters.timeouts += 1
            self._resend(now)
        if self.phase is Phase.READY:
            if now - self._last_heard >= self.config.silent_limit:
                return [self._lose(f"board silent for {now - self._last_heard:.1f} s")]
            if now - self._last_sent >= self.config.heartbeat_every:
                self._out += self._control(FrameType.HEARTBEAT)
                self._last_sent = now
        return []

    def data_to_send(self) -> bytes:
        out = bytes(self._out)
        self._out = bytearray()
        return out

    # -- frames ----------------------------------------------------------------

    def _frame(self, frame: Frame, now: float) -> list[Event]:
        if frame.kind is FrameType.HELLO_REPLY:
            return self._hello_reply(frame, now) if self.phase is Phase.HELLO else []
        if self.phase is not Phase.READY:
            return []
        self._ack(frame.ack)
        if frame.kind is FrameType.NAK:
            self._repeat(now)
        elif frame.kind is FrameType.BUTTON:
            return self._button(frame)
        return []

    def _hello_reply(self, frame: Frame, now: float) -> list[Event]:
        try:
            info = decode_hello_reply(frame.payload)
        except FrameError:
            self.deframer.stats.count("payload")
            return []
        if frame.version != wire.PROTOCOL_VERSION or info.status == wire.STATUS_VERSION:
            return [self._refuse(ProtocolVersionError(
                f"the board's firmware speaks protocol {frame.version} (firmware {info.firmware_version}), "
                f"this host speaks {wire.PROTOCOL_VERSION}: flash firmware_bridge/firmware "
                "(docs/firmware_bridge.md)"))]
        if info.status == wire.STATUS_LAYOUT_TOO_BIG or info.led_count < self.layout.led_count:
            return [self._refuse(HandshakeError(
                f"the strip layout needs {self.layout.led_count} LEDs, the board drives {info.led_count}: "
                "give a StripLayout that fits, or set LED_COUNT in the firmware's main.py"))]
        if info.boot_id != self._boot_id:
            # A board we have not heard since it booted: its numbering is its own.
            self._boot_id = info.boot_id
            self._last_button = info.event_base
        self.info = info
        self.phase = Phase.READY
        self._pending = None
        self.acked = frame.ack
        if self._latest is not None and self.acked != self.seq:
            self._send_latest(now)
        return [Ready(info)]

    def _ack(self, ack: int) -> None:
        if self._latest is None or not wire.newer(ack, self.acked) or wire.newer(ack, self.seq):
            return  # old news, or a number this host never sent
        self.acked = ack
        if ack == self.seq:
            self._pending = None

    def _button(self, frame: Frame) -> list[Event]:
        events: list[Event] = []
        if wire.newer(frame.seq, self._last_button):
            try:
                event = decode_button(frame.payload)
            except FrameError:
                self.deframer.stats.count("payload")
                return []
            self.counters.buttons_missed += ((frame.seq - self._last_button) & wire.SEQ_MASK) - 1
            self._last_button = frame.seq
            self.counters.buttons += 1
            events.append(Pressed(event, frame.seq))
        else:
            self.counters.button_duplicates += 1
        self._out += self._control(FrameType.ACK)  # acknowledge it, new or repeated
        return events

    # -- sending ---------------------------------------------------------------

    def _control(self, kind: FrameType) -> bytes:
        return encode_frame(Frame(kind, self.seq, self._last_button))

    def _send_latest(self, now: float) -> None:
        assert self._latest is not None
        self._transmit(encode_frame(Frame(FrameType.LIGHTS, self.seq, self._last_button, self._latest)), now,
                       first=True)

    def _transmit(self, frame: bytes, now: float, first: bool) -> None:
        self._pending = frame
        if first:
            self._last_repeat = float("-inf")  # the holdoff is per frame
        self._tries = 1 if first else self._tries + 1
        self._sent_at = self._last_sent = now
        self._out += frame

    def _resend(self, now: float) -> None:
        assert self._pending is not None
        self.counters.retries += 1
        self._transmit(self._pending, now, first=False)

    def _repeat(self, now: float) -> None:
        if self._pending is not None and now - self._last_repeat >= self.config.nak_holdoff:
            self._last_repeat = now
            self._resend(now)

    def _damaged(self, now: float) -> None:
        """Something from the board was damaged: maybe the ack we wait for, maybe a
        button event.  Ask for the latter and repeat the former."""
        if self.phase is not Phase.READY:
            return
        if now - self._last_nak >= self.config.nak_holdoff:
            self._last_nak = now
            self.counters.naks_sent += 1
            self._out += self._control(FrameType.NAK)
        self._repeat(now)

    def _lose(self, reason: str) -> Lost:
        self.phase = Phase.LOST
        self._pending = None
        self.counters.lost += 1
        return Lost(reason)

    def _refuse(self, error: HandshakeError) -> Refused:
        self.phase = Phase.LOST
        self._pending = None
        return Refused(error)
