"""pipgammon LED bridge firmware for the RP2040 (Raspberry Pi Pico), MicroPython.

Copy main.py, board.py and wire.py to the Pico (docs/firmware_bridge.md says how).
The protocol lives in board.py; this file is the I/O: USB CDC stdin/stdout, the
NeoPixel strip and the buttons.  On the host, firmware_bridge/simulator.py imports
this file unchanged with stub ``machine``, ``neopixel`` and ``micropython`` modules
and runs `Firmware` on a pseudo-terminal.
"""

import os
import sys
import time

import machine
import micropython
import neopixel

try:
    from firmware_bridge.firmware import board, wire  # on the host
except ImportError:  # on the Pico
    import board  # type: ignore[import-not-found, no-redef]
    import wire  # type: ignore[import-not-found, no-redef]

try:
    from time import ticks_ms  # type: ignore[attr-defined]  # MicroPython
except ImportError:  # CPython, for the simulator

    def ticks_ms() -> int:
        return int(time.monotonic() * 1000)


ticks_diff = board.ticks_diff


FIRMWARE_VERSION = (1, 0, 0)
# Wiring (docs/firmware_bridge.md): strip data on GP2, buttons from GP13..GP15 to GND.
STRIP_PIN = 2
LED_COUNT = 57  # StripLayout.standard(): 2 per point, 2 bar, 2+2 off, 1+1 turn, 1 status
BUTTON_PINS = ((wire.BUTTON_END_TURN, 15), (wire.BUTTON_TAKE_BACK, 14), (wire.BUTTON_MODE, 13))
DEBOUNCE_MS = 30
LONG_PRESS_MS = 800
FRAME_MS = 20  # 50 animation frames a second
READ_CHUNK = 256


class Buttons:
    """Debounced push buttons to GND with pull-ups; a press is reported on release."""

    def __init__(self, pins: list[tuple[int, object]], now: int) -> None:
        self.pins = pins  # [(button code, machine.Pin)]
        self.stable = [1] * len(pins)  # 1: released (pulled up)
        self.changed_at = [now] * len(pins)
        self.pressed_at = [now] * len(pins)

    def poll(self, now: int) -> list[tuple[int, int]]:
        """The (button, press) events completed since the last poll."""
        events = []
        for i, (code, pin) in enumerate(self.pins):
            value = pin.value()  # type: ignore[attr-defined]
            if value == self.stable[i]:
                self.changed_at[i] = now
                continue
            if ticks_diff(now, self.changed_at[i]) < DEBOUNCE_MS:
                continue
            self.stable[i] = value
            self.changed_at[i] = now
            if value == 0:
                self.pressed_at[i] = now
            else:
                held = ticks_diff(now, self.pressed_at[i])
                events.append((code, wire.PRESS_LONG if held >= LONG_PRESS_MS else wire.PRESS_SHORT))
        return events


class Firmware:
    """One board: reads the port, runs `board.Board`, drives the strip and the buttons."""

    def __init__(self, port: object, strip: object, buttons: Buttons, board_id: bytes, boot_id: int) -> None:
        self.port = port  # read_available() -> bytes, write(bytes)
        self.strip = strip  # a neopixel.NeoPixel
        self.buttons = buttons
        now = ticks_ms()
        self.board = board.Board(LED_COUNT, FIRMWARE_VERSION, board_id, boot_id, now)
        self.drawn_at = now
        self.drawn = None  # type: list[tuple[int, int, int]] | None

    def step(self) -> None:
        """One pass of the main loop."""
        now = ticks_ms()
        data = self.port.read_available()  # type: ignore[attr-defined]
        if data:
            self.board.receive(data, now)
        for code, press in self.buttons.poll(now):
            self.board.press(code, press)
        self.board.tick(now)
        out = self.board.take_output()
        if out:
            self.port.write(out)  # type: ignore[attr-defined]
        if ticks_diff(now, self.drawn_at) >= FRAME_MS:
            self.drawn_at = now
            self.draw(now)

    def draw(self, now: int) -> None:
        colours = self.board.colours(now)
        if colours == self.drawn:
            return  # the strip keeps its colours; writing it costs ~2 ms
        for led, colour in enumerate(colours):
            self.strip[led] = colour  # type: ignore[index]
        self.strip.write()  # type: ignore[attr-defined]
        self.drawn = colours


class UsbPort:
    """USB CDC as bytes: stdin with a poll so the loop never blocks, and stdout."""

    def __init__(self) -> None:
        import select

        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer

    def read_available(self) -> bytes:
        data = bytearray()
        while len(data) < READ_CHUNK and self.poll.poll(0):
            data += self.stdin.read(1)
        return bytes(data)

    def write(self, data: bytes) -> None:
        self.stdout.write(data)


def main() -> None:
    now = ticks_ms()
    pins = [(code, machine.Pin(gp, machine.Pin.IN, machine.Pin.PULL_UP)) for code, gp in BUTTON_PINS]
    if pins[0][1].value() == 0:
        # END TURN held at power-up: stay at the REPL so mpremote can reflash.
        print("pipgammon bridge: END TURN held, firmware not started")
        return
    # Ctrl-C (0x03) is data in our frames, not a KeyboardInterrupt; hence the
    # power-up escape above.
    micropython.kbd_intr(-1)
    strip = neopixel.NeoPixel(machine.Pin(STRIP_PIN), LED_COUNT)
    unique = machine.unique_id()
    # A fresh random id each boot tells the host that unacknowledged presses from
    # before a power cut are gone and its button numbering starts again.
    boot_id = int.from_bytes(os.urandom(4), "big")
    firmware = Firmware(UsbPort(), strip, Buttons(pins, now), unique, boot_id)
    while True:
        firmware.step()
        time.sleep_ms(1)  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
