"""The MicroPython firmware, run unchanged under CPython with stub hardware modules."""

from __future__ import annotations

import ast
import struct
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.lights import BLUE, GREEN, LAMPS, Colour, Light, LightPlan, Pattern
from firmware_bridge.firmware import board, wire
from firmware_bridge.framing import encode_lights
from firmware_bridge.layout import StripLayout
from firmware_bridge.simulator import SimulatedBoard, StubNeoPixel, StubPin, load_firmware

FIRMWARE = Path(board.__file__).parent
PATTERN_CODES = {Pattern.OFF: wire.OFF, Pattern.STEADY: wire.STEADY, Pattern.BLINK: wire.BLINK,
                 Pattern.PULSE: wire.PULSE}
COLOURS = [Colour(0, 0, 0), GREEN, BLUE, Colour(255, 255, 255), Colour(1, 0, 0)]
# What MicroPython on the RP2040 can import, and the host path of our own modules.
MICROPYTHON_MODULES = {"math", "struct", "sys", "time", "os", "select", "machine", "micropython", "neopixel",
                       "binascii", "firmware_bridge.firmware", "wire", "board"}


@pytest.mark.parametrize("pattern", list(Pattern))
@pytest.mark.parametrize("colour", COLOURS)
def test_firmware_pattern_timing_equals_light_level(pattern: Pattern, colour: Colour) -> None:
    light = Light(pattern, colour)
    for ms in range(0, 6000, 7):
        seconds = ms / 1000
        args = (PATTERN_CODES[pattern], colour.r, colour.g, colour.b, seconds)
        assert board.level(*args) == light.level(seconds), (pattern, colour, seconds)
        assert board.rgb(*args) == light.rgb(seconds)


@given(st.sampled_from(list(Pattern)), st.floats(0, 1e6, allow_nan=False))
def test_firmware_level_equals_light_level_at_any_time(pattern: Pattern, seconds: float) -> None:
    assert board.level(PATTERN_CODES[pattern], 230, 140, 0, seconds) == Light(pattern, Colour(230, 140, 0)
                                                                                ).level(seconds)


def test_firmware_lamp_count_and_default_strip_match_the_host() -> None:
    assert len(LAMPS) == wire.LAMP_COUNT
    assert StripLayout.standard().led_count == load_firmware().LED_COUNT


@pytest.mark.parametrize("name", ["wire.py", "board.py", "main.py"])
def test_firmware_uses_only_what_micropython_has(name: str) -> None:
    tree = ast.parse((FIRMWARE / name).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert {alias.name for alias in node.names} <= MICROPYTHON_MODULES, ast.dump(node)
        elif isinstance(node, ast.ImportFrom):
            assert node.module in MICROPYTHON_MODULES, node.module
        # Annotations on names and attributes are where MicroPython ports differ: use type comments.
        assert not isinstance(node, ast.AnnAssign), f"{name}:{node.lineno}"


def press_for(buttons: Any, pin: StubPin, start: int, held_ms: int) -> list[tuple[int, int]]:
    events = []
    for now in range(start, start + held_ms + 100, 5):
        pin.value(0 if now < start + held_ms else 1)
        events += buttons.poll(now)
    return events


def test_buttons_are_debounced_and_long_presses_told_apart() -> None:
    main = load_firmware()
    pin = StubPin(15)
    buttons = main.Buttons([(wire.BUTTON_END_TURN, pin)], 0)
    assert press_for(buttons, pin, 0, 15) == []  # a bounce, shorter than DEBOUNCE_MS
    assert press_for(buttons, pin, 1000, 120) == [(wire.BUTTON_END_TURN, wire.PRESS_SHORT)]
    assert press_for(buttons, pin, 3000, main.LONG_PRESS_MS + 50) == [(wire.BUTTON_END_TURN, wire.PRESS_LONG)]


class ListPort:
    def __init__(self) -> None:
        self.inbox = b""
        self.sent = b""

    def read_available(self) -> bytes:
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data: bytes) -> None:
        self.sent += data


def test_main_loop_drives_the_strip_from_frames() -> None:
    main = load_firmware()
    port, strip = ListPort(), StubNeoPixel(None, main.LED_COUNT)
    firmware = main.Firmware(port, strip, main.Buttons([], main.ticks_ms()), b"id", 1)
    plan = LightPlan.dark().with_lamps({"status": Light.steady(BLUE)})
    hello = struct.pack(wire.HELLO_PAYLOAD, 5, *StripLayout.standard().counts)
    port.inbox = wire.pack(wire.HELLO, 0, 0, hello) + wire.pack(wire.LIGHTS, 1, 0, encode_lights(plan))
    firmware.step()
    time.sleep(main.FRAME_MS / 1000 + 0.005)
    firmware.step()
    assert [wire.unpack(p)[1] for p in port.sent.split(b"\x00")[:-1]] == [wire.HELLO_REPLY, wire.ACK]
    assert strip.shown[-1] == (0, 90, 230) and set(strip.shown[:-1]) == {(0, 0, 0)}
    writes = strip.writes
    time.sleep(main.FRAME_MS / 1000 + 0.005)
    firmware.step()
    assert strip.writes == writes  # unchanged colours are not written again


def test_main_turns_off_ctrl_c_before_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    main = load_firmware()
    calls: list[object] = []

    class Stop(Exception):
        pass

    class FakeFirmware:
        def __init__(self, *args: object) -> None:
            calls.append("firmware")

        def step(self) -> None:
            raise Stop

    monkeypatch.setattr(main.micropython, "kbd_intr", calls.append)
    monkeypatch.setattr(main, "Firmware", FakeFirmware)
    monkeypatch.setattr(main, "UsbPort", lambda: None)
    with pytest.raises(Stop):
        main.main()
    assert calls == [-1, "firmware"]


def test_simulated_board_shows_the_plan_on_its_leds(sim: SimulatedBoard) -> None:
    from firmware_bridge.device import Bridge
    from firmware_bridge.transport import UrlOpener

    plan = LightPlan.dark().with_points({1: Light.steady(GREEN), 24: Light.steady(BLUE)})
    with Bridge(UrlOpener(sim.path)) as bridge:
        bridge.open(timeout=5.0)
        bridge.show(plan)
        assert bridge.wait_synced(5.0)
        time.sleep(0.1)  # a few animation frames
    with sim.lock:
        shown = list(sim.strip.shown)
    assert shown[0:2] == [(0, 200, 0)] * 2 and shown[46:48] == [(0, 90, 230)] * 2
    assert set(shown[2:46]) == {(0, 0, 0)}
