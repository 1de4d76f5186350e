"""The protocol: the host's HostProtocol against the firmware's Board, in memory, on a fake clock."""

from __future__ import annotations

import struct

import pytest

from engine.buttons import Button, ButtonEvent, Press
from engine.lights import AMBER, GREEN, Light, LightPlan
from firmware_bridge.errors import HandshakeError, ProtocolVersionError
from firmware_bridge.firmware import wire
from firmware_bridge.firmware.board import OFFLINE_AFTER_MS, Board, rgb
from firmware_bridge.framing import Deframer, FrameType, encode_button, encode_lights
from firmware_bridge.layout import StripLayout
from firmware_bridge.protocol import Event, HostProtocol, LinkConfig, Lost, Phase, Pressed, Ready, Refused

CONFIG = LinkConfig()
PLAN = LightPlan.dark().with_points({6: Light.steady(GREEN)})


class Link:
    """A host and a board joined by a cable we control, on one clock in seconds."""

    def __init__(self, board: Board | None = None, session: int = 42) -> None:
        self.now = 0.0
        self.host = HostProtocol(StripLayout.standard(), session, CONFIG)
        self.board = board or Board(57, (1, 0, 0), b"board", boot_id=9, now=0)
        self.applied: list[int] = []
        self.board.on_apply = lambda seq, payload: self.applied.append(seq)
        self.cut = False  # True: bytes in both directions are lost
        self.sent_to_board: list[FrameType] = []

    @property
    def ms(self) -> int:
        return round(self.now * 1000)

    def exchange(self) -> list[Event]:
        events: list[Event] = []
        for _ in range(10):
            out = self.host.data_to_send()
            self.sent_to_board += [f.kind for f in Deframer().feed(out)]
            if not self.cut:
                self.board.receive(out, self.ms)
            back = self.board.take_output()
            if not out and not back:
                break
            if not self.cut:
                events += self.host.receive(back, self.now)
        return events

    def advance(self, seconds: float, step: float = 0.005) -> list[Event]:
        events: list[Event] = []
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now += step
            events += self.host.poll(self.now)
            self.board.tick(self.ms)
            events += self.exchange()
        return events

    def connect(self) -> list[Event]:
        self.host.connect(self.now)
        return self.exchange()

    def show(self, plan: LightPlan = PLAN) -> list[Event]:
        self.host.show(encode_lights(plan), self.now)
        return self.exchange()


def test_handshake_agrees_on_the_layout_and_shows_the_plan() -> None:
    link = Link()
    [ready] = link.connect()
    assert isinstance(ready, Ready) and ready.info.led_count == 57 and ready.info.firmware_version == "1.0.0"
    assert link.board.ranges[0] == (0, 2) and link.board.ranges[-1] == (56, 1)
    link.show()
    assert link.board.plan == encode_lights(PLAN) and link.host.is_synced
    colours = link.board.colours(link.ms)
    assert colours[10] == colours[11] == (0, 200, 0)  # point 6 is LEDs 10 and 11
    assert colours[9] == colours[12] == (0, 0, 0)


def test_version_mismatch_is_a_clear_error() -> None:
    link = Link()
    link.host.connect(0.0)
    reply = struct.pack(wire.HELLO_REPLY_PAYLOAD, 2, 2, 0, 0, 57, b"x" * 8, 1, 0, wire.STATUS_OK)
    [refused] = link.host.receive(wire.pack(wire.HELLO_REPLY, 0, 0, reply, version=2), 0.001)
    assert isinstance(refused, Refused) and isinstance(refused.error, ProtocolVersionError)
    assert "speaks protocol 2 (firmware 2.0.0), this host speaks 1: flash" in str(refused.error)
    assert link.host.phase is Phase.LOST


def test_firmware_answers_a_hello_of_another_version_with_its_own() -> None:
    board = Board(57, (1, 0, 0), b"b", 1, now=0)
    board.receive(wire.pack(wire.HELLO, 0, 0, b"", version=7), 0)
    version, kind, _, _, payload = wire.unpack(board.take_output()[:-1])
    assert (version, kind, payload[0], payload[-1]) == (1, wire.HELLO_REPLY, 1, wire.STATUS_VERSION)
    assert board.session == -1


def test_a_layout_larger_than_the_strip_is_refused() -> None:
    link = Link(Board(30, (1, 0, 0), b"b", 1, now=0))
    [refused] = link.connect()
    assert isinstance(refused, Refused) and type(refused.error) is HandshakeError
    assert "needs 57 LEDs, the board drives 30" in str(refused.error)


def test_a_lost_frame_is_resent_after_the_timeout() -> None:
    link = Link()
    link.connect()
    link.cut = True
    link.show()
    link.cut = False
    assert link.advance(CONFIG.retransmit_after * 0.8) == [] and link.applied == []
    link.advance(CONFIG.retransmit_after * 0.4)
    assert link.applied == [link.host.seq] and link.host.is_synced
    assert (link.host.counters.retries, link.host.counters.timeouts) == (1, 1)


def test_a_damaged_frame_is_nacked_and_resent_at_once() -> None:
    link = Link()
    link.connect()
    link.host.show(encode_lights(PLAN), link.now)
    frame = bytearray(link.host.data_to_send())
    frame[20] ^= 0x55
    link.board.receive(bytes(frame), link.ms)
    link.host.receive(link.board.take_output(), link.now)  # the NAK, with no time passing
    link.exchange()
    assert link.host.is_synced and link.board.corrupt == 1
    assert (link.host.counters.retries, link.host.counters.timeouts) == (1, 0)


def test_retries_are_bounded_then_the_link_is_lost() -> None:
    link = Link()
    link.connect()
    link.cut = True
    link.show()
    events = link.advance(CONFIG.retransmit_after * (CONFIG.max_tries + 1))
    assert events == [Lost(f"no answer to state {link.host.seq} after {CONFIG.max_tries} tries")]
    assert link.sent_to_board.count(FrameType.LIGHTS) == CONFIG.max_tries
    assert link.host.phase is Phase.LOST


def test_heartbeats_keep_an_idle_link_alive() -> None:
    link = Link()
    link.connect()
    link.show()
    assert link.advance(10.0) == []
    assert link.sent_to_board.count(FrameType.HEARTBEAT) == pytest.approx(10 / CONFIG.heartbeat_every, abs=1)
    assert link.board.online and link.board.offline_count == 0


def test_a_silent_board_is_lost() -> None:
    link = Link()
    link.connect()
    link.cut = True
    events = link.advance(CONFIG.silent_limit + 0.1)
    assert len(events) == 1 and isinstance(events[0], Lost) and "board silent" in events[0].reason


def test_board_watchdog_shows_offline_after_two_seconds_of_silence() -> None:
    link = Link()
    link.connect()
    link.show(LightPlan.dark().with_lamps({"status": Light.steady(GREEN), "bar": Light.steady(GREEN)}))
    board = link.board
    silent_from = link.ms
    board.tick(silent_from + OFFLINE_AFTER_MS)
    assert board.online
    board.tick(silent_from + OFFLINE_AFTER_MS + 1)
    assert not board.online and board.offline_count == 1
    at = silent_from + OFFLINE_AFTER_MS + 500
    colours = board.colours(at)
    pulse = rgb(wire.PULSE, AMBER.r, AMBER.g, AMBER.b, (at - board.shown_at) / 1000)
    assert colours[56] == pulse != (0, 0, 0)  # the status lamp pulses amber...
    assert set(colours[:56]) == {(0, 0, 0)}  # ...and the plan, bar included, is off
    board.receive(wire.pack(wire.HEARTBEAT, 0, 0), at)
    assert board.online and board.colours(at)[48] == (0, 200, 0)  # the bar is back


def test_repeated_and_late_states_are_not_applied_again() -> None:
    link = Link()
    link.connect()
    board = link.board
    frames = {seq: wire.pack(wire.LIGHTS, seq, 0, encode_lights(PLAN)) for seq in (5, 6)}
    for seq in (5, 6, 6, 5, 6):
        board.receive(frames[seq], link.ms)
    assert link.applied == [5, 6] and board.applied == 6


def test_sequence_numbers_wrap() -> None:
    link = Link()
    link.host.seq = 0xFFFF - 5
    link.connect()
    for n in range(12):
        link.show(LightPlan.dark().with_points({1 + n: Light.steady(GREEN)}))
    assert link.applied == [(0xFFFF - 5 + n) & 0xFFFF for n in range(1, 13)]
    assert link.host.is_synced


def test_button_events_arrive_once_even_when_the_ack_is_lost() -> None:
    link = Link()
    link.connect()
    event = ButtonEvent(Button.END_TURN, Press.LONG)
    link.board.press(*encode_button(event))
    link.board.tick(link.ms)
    [pressed] = link.host.receive(link.board.take_output(), link.now)
    assert pressed == Pressed(event, 1)
    link.host.data_to_send()  # the host's ACK is lost on the way
    events = link.advance(0.15)  # the board resends; the host drops the copy and acks again
    assert events == [] and link.host.counters.button_duplicates == 1
    assert link.board.events == [] and link.board.event_acked == 1


def test_button_events_keep_their_order_through_a_reconnect() -> None:
    link = Link()
    link.connect()
    presses = [ButtonEvent(Button.MODE), ButtonEvent(Button.TAKE_BACK), ButtonEvent(Button.END_TURN)]
    link.cut = True
    for event in presses:
        link.board.press(*encode_button(event))
    link.advance(2.5)
    link.cut = False
    events = link.connect() + link.advance(0.5)
    assert [e.event for e in events if isinstance(e, Pressed)] == presses


def test_reconnect_keeps_the_plan_but_a_new_host_starts_dark() -> None:
    link = Link()
    link.connect()
    link.show()
    link.host.disconnected()
    link.connect()
    assert link.board.plan == encode_lights(PLAN) and link.applied == [link.host.seq]
    stranger = Link(link.board, session=43)
    stranger.connect()
    assert link.board.plan == b""


def test_a_rebooted_board_gets_the_newest_plan_again() -> None:
    link = Link()
    link.connect()
    link.show()
    link.host.disconnected()
    link.board = Board(57, (1, 0, 0), b"board", boot_id=10, now=link.ms)
    link.board.press(*encode_button(ButtonEvent(Button.MODE)))
    events = link.connect() + link.advance(0.2)
    assert link.board.plan == encode_lights(PLAN)
    assert [e.seq for e in events if isinstance(e, Pressed)] == [1]  # its numbering starts again
