"""Transport: a reader thread on a pyserial port that reconnects after an unplug.

Shaped like pyserial's ``serial.threaded.ReaderThread``: the thread reads and
hands bytes to a handler (`LinkHandler`), and the handler writes back through the
link.  Unlike ReaderThread it does not end when the port goes away: it closes
it, waits (`Backoff`) and opens a new one from its `PortOpener`, which can find
the board again by USB VID:PID under whatever name the kernel gave it this time.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import serial
from serial.tools import list_ports

from firmware_bridge.errors import DeviceNotFoundError, TransportError

PICO_VID = 0x2E8A  # Raspberry Pi
PICO_PID = 0x0005  # MicroPython on the RP2040
BAUDRATE = 115200  # USB CDC ignores it; a UART bridge would not
READ_TIMEOUT_S = 0.005  # how often the handler's timers run when nothing arrives
STABLE_AFTER_S = 1.0  # a connection that lasted this long resets the backoff


class Port(Protocol):
    """The part of ``serial.Serial`` the link uses."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


PortOpener = Callable[[], Port]


def open_url(url: str, baudrate: int = BAUDRATE) -> Port:
    """``serial_for_url``: a device path, ``loop://``, a pty path, ``socket://``..."""
    try:
        port: Port = serial.serial_for_url(url, baudrate=baudrate, timeout=READ_TIMEOUT_S, write_timeout=1.0)
    except (serial.SerialException, OSError, ValueError) as err:
        raise TransportError(f"cannot open {url}: {err}") from err
    return port


def find_ports(vid: int = PICO_VID, pid: int = PICO_PID,
               comports: Callable[[], Sequence[Any]] = list_ports.comports) -> list[str]:
    """Device names of the plugged-in serial ports with this USB VID:PID, sorted."""
    return sorted(info.device for info in comports() if info.vid == vid and info.pid == pid)


@dataclass(frozen=True, slots=True)
class UrlOpener:
    """Opens one fixed URL or path."""

    url: str
    baudrate: int = BAUDRATE

    def __call__(self) -> Port:
        return open_url(self.url, self.baudrate)


@dataclass(frozen=True, slots=True)
class UsbOpener:
    """Opens the first port with the board's VID:PID, whatever it is called now."""

    vid: int = PICO_VID
    pid: int = PICO_PID
    comports: Callable[[], Sequence[Any]] = list_ports.comports

    def __call__(self) -> Port:
        devices = find_ports(self.vid, self.pid, self.comports)
        if not devices:
            raise DeviceNotFoundError(f"no serial port with USB id {self.vid:04X}:{self.pid:04X} "
                                      "(is the Pico plugged in and flashed?)")
        return open_url(devices[0])


@dataclass(frozen=True, slots=True)
class Backoff:
    """Waits between reconnect attempts: first, then doubling up to limit."""

    first: float = 0.05
    limit: float = 1.0

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield delay
            delay = min(delay * 2, self.limit)


class LinkHandler(Protocol):
    """What the reader thread calls; all calls come from that one thread."""

    def connection_made(self, link: SerialLink) -> None: ...

    def data_received(self, data: bytes) -> None: ...

    def tick(self) -> None: ...

    def connection_lost(self, error: BaseException | None) -> None: ...

    def open_failed(self, error: Exception) -> None: ...


class SerialLink:
    """Keeps a port open for ``handler`` until `close`: reads, and reconnects."""

    def __init__(self, opener: PortOpener, handler: LinkHandler, backoff: Backoff | None = None) -> None:
        self._opener = opener
        self._handler = handler
        self._backoff = backoff or Backoff()
        self._stop = threading.Event()
        self._drop = threading.Event()
        self._lock = threading.Lock()
        self._port: Port | None = None
        self._thread = threading.Thread(target=self._run, name="firmware-bridge-reader", daemon=True)
        self.connections = 0

    def start(self) -> None:
        self._thread.start()

    @property
    def is_connected(self) -> bool:
        return self._port is not None

    def write(self, data: bytes) -> bool:
        """Write to the current port; False if there is none or it just failed."""
        with self._lock:
            if self._port is None or not data:
                return self._port is not None
            try:
                self._port.write(data)
            except (serial.SerialException, OSError):
                self._drop.set()  # the reader thread reconnects
                return False
            return True

    def drop(self) -> None:
        """Close the port and open a new one (the handler gave up on this one)."""
        self._drop.set()

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout=2.0)

    def __enter__(self) -> SerialLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self) -> None:
        delays = self._backoff.delays()
        while not self._stop.is_set():
            try:
                port = self._opener()
            except (TransportError, DeviceNotFoundError) as err:
                self._handler.open_failed(err)
                self._stop.wait(next(delays))
                continue
            opened_at = time.monotonic()
            self._drop.clear()
            with self._lock:
                self._port = port
            self.connections += 1
            error: BaseException | None = None
            try:
                self._handler.connection_made(self)
                self._serve(port)
            except (serial.SerialException, OSError) as err:
                error = err  # unplugged: the next pass opens it again
            finally:
                with self._lock:
                    self._port = None
                with contextlib.suppress(serial.SerialException, OSError):
                    port.close()  # if it is not already gone
            self._handler.connection_lost(error)
            if time.monotonic() - opened_at > STABLE_AFTER_S:
                delays = self._backoff.delays()  # it worked for a while: start again quickly
            # Wait even after a clean drop: a board that refuses the hello would
            # otherwise be asked again at once, forever.
            self._stop.wait(next(delays))

    def _serve(self, port: Port) -> None:
        while not self._stop.is_set() and not self._drop.is_set():
            data = port.read(port.in_waiting or 1)
            if data:
                self._handler.data_received(data)
            self._handler.tick()
