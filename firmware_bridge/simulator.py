"""The real firmware, run under CPython on a pseudo-terminal.

``firmware/main.py`` imports ``machine``, ``neopixel`` and ``micropython``, which
only MicroPython has.  `install_stubs` puts small stand-ins for them in
``sys.modules`` (names CPython never uses), so main.py and board.py load
unchanged; `SimulatedBoard` then runs `main.Firmware` on the master side of a pty
and the host opens the slave path like any serial port.
"""

from __future__ import annotations

import errno
import importlib
import os
import select
import sys
import threading
import tty
import types
from typing import Any

from engine.buttons import ButtonEvent
from firmware_bridge.framing import encode_button

BOARD_ID = b"SIMBOARD"


class StubPin:
    """``machine.Pin``: an input a test can pull low (pressed) or let go high."""

    IN, OUT, PULL_UP = 0, 1, 2

    def __init__(self, number: object, mode: int = 0, pull: int | None = None) -> None:
        self.number = number
        self.level = 1

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = level
        return self.level


class StubNeoPixel:
    """``neopixel.NeoPixel``: a list of colours; ``shown`` is what the last write() sent."""

    def __init__(self, pin: object, n: int) -> None:
        self.n = n
        self.buffer: list[tuple[int, int, int]] = [(0, 0, 0)] * n
        self.shown: list[tuple[int, int, int]] = list(self.buffer)
        self.writes = 0

    def __setitem__(self, index: int, colour: tuple[int, int, int]) -> None:
        self.buffer[index] = colour

    def __getitem__(self, index: int) -> tuple[int, int, int]:
        return self.buffer[index]

    def write(self) -> None:
        self.shown = list(self.buffer)
        self.writes += 1


def install_stubs() -> None:
    """Provide ``machine``, ``neopixel`` and ``micropython`` unless something already does."""
    machine = types.ModuleType("machine")
    machine.Pin = StubPin  # type: ignore[attr-defined]
    machine.unique_id = lambda: BOARD_ID  # type: ignore[attr-defined]
    neopixel = types.ModuleType("neopixel")
    neopixel.NeoPixel = StubNeoPixel  # type: ignore[attr-defined]
    micropython = types.ModuleType("micropython")
    micropython.kbd_intr = lambda chr: None  # type: ignore[attr-defined]
    for module in (machine, neopixel, micropython):
        sys.modules.setdefault(module.__name__, module)


def load_firmware() -> Any:
    """``firmware/main.py`` as a module (its ``main()`` does not run on import)."""
    install_stubs()
    return importlib.import_module("firmware_bridge.firmware.main")


class PtyPort:
    """The firmware's USB port, as the master end of a pty; never blocks."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)
        self.dropped = 0  # bytes the host was not there to take, as on a real USB port

    def read_available(self) -> bytes:
        try:
            return os.read(self.fd, 4096)
        except BlockingIOError:
            return b""
        except OSError as err:
            if err.errno == errno.EIO:  # no one has the other end open
                return b""
            raise

    def write(self, data: bytes) -> None:
        try:
            written = os.write(self.fd, data)
        except (BlockingIOError, OSError):
            written = 0
        self.dropped += len(data) - written


class SimulatedBoard:
    """The firmware on a pty; the host opens `path`.  Runs until `close`."""

    def __init__(self, boot_id: int = 0x5EED) -> None:
        firmware = load_firmware()
        self.main = firmware
        self._master, self._slave = os.openpty()
        # Raw, so 0x03, 0x0A and friends pass as data; kept open so the pty lives
        # while no host has it open (a Pico waiting on a Pi that has not booted).
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        self.strip = StubNeoPixel(None, firmware.LED_COUNT)
        self.pins = {code: StubPin(gp) for code, gp in firmware.BUTTON_PINS}
        now = firmware.ticks_ms()
        buttons = firmware.Buttons(list(self.pins.items()), now)
        self.firmware = firmware.Firmware(PtyPort(self._master), self.strip, buttons, BOARD_ID, boot_id)
        self.lock = threading.Lock()  # the firmware's state, between its loop and `press`
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="simulated-board", daemon=True)
        self._thread.start()

    @property
    def board(self) -> Any:
        """The firmware's `board.Board`: its protocol state and counters."""
        return self.firmware.board

    def press(self, event: ButtonEvent) -> None:
        """A debounced press, as the firmware's button code reports it."""
        with self.lock:
            self.board.press(*encode_button(event))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        os.close(self._master)
        os.close(self._slave)

    def __enter__(self) -> SimulatedBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            select.select([self._master], [], [], 0.002)
            with self.lock:
                self.firmware.step()
