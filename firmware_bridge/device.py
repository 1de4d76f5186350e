"""The device API: `Bridge.show(plan)`, `Bridge.on_button(callback)`, `Bridge.close()`.

`show` and `close` are the lights interface of ``hardware/`` (issue 7), so a Bridge
plugs in wherever the referee's lights go.  `show` does not wait for the board (it
hands one frame to the OS, with a 1 s write timeout if the port is jammed) and
never raises because the board is unplugged: the newest plan is kept and shown as
soon as the board is back.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.buttons import ButtonEvent
from engine.lights import LightPlan
from firmware_bridge.errors import BadTimeoutError, BridgeError, BridgeTimeoutError, HandshakeError
from firmware_bridge.framing import FirmwareInfo, encode_lights
from firmware_bridge.layout import StripLayout
from firmware_bridge.protocol import Event, HostProtocol, LinkConfig, Lost, Phase, Pressed, Ready, Refused
from firmware_bridge.transport import Backoff, PortOpener, SerialLink

ButtonCallback = Callable[[ButtonEvent], None]


def _check_timeout(timeout: float) -> None:
    # Condition.wait_for waits for ever on nan and raises OverflowError past TIMEOUT_MAX.
    if not (math.isfinite(timeout) and 0 <= timeout <= threading.TIMEOUT_MAX):
        raise BadTimeoutError(f"a timeout of {timeout:g} s: expected a finite number of seconds, 0 or more")


@dataclass(frozen=True, slots=True)
class BridgeStats:
    state: int  # the newest state's sequence number
    acked: int  # the newest state the board confirmed showing
    frames: int  # good frames received
    corrupt: int  # damaged frames received and dropped
    retries: int
    buttons: int
    button_duplicates: int
    buttons_missed: int
    connections: int
    links_lost: int


class Bridge:
    """An RGB-LED board on a serial port, found again after every unplug."""

    def __init__(
        self,
        opener: PortOpener,
        layout: StripLayout | None = None,
        config: LinkConfig | None = None,
        *,
        session: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        backoff: Backoff | None = None,
    ) -> None:
        self._clock = clock
        session = random.getrandbits(32) if session is None else session
        self._protocol = HostProtocol(layout or StripLayout.standard(), session, config)
        self._changed = threading.Condition()
        self._callbacks: list[ButtonCallback] = []
        self._refusal: HandshakeError | None = None
        self.last_error: BaseException | None = None
        self._link = SerialLink(opener, self, backoff)

    # -- the device API ----------------------------------------------------------

    def open(self, timeout: float = 5.0) -> FirmwareInfo:
        """Start the link and wait for the hello reply; raise if it does not come."""
        _check_timeout(timeout)
        self._link.start()
        with self._changed:
            ready = self._changed.wait_for(
                lambda: self._protocol.info is not None or self._refusal is not None, timeout)
        if self._refusal is not None:
            self.close()
            raise self._refusal
        if not ready or self._protocol.info is None:
            self.close()
            why = f" (last error: {self.last_error})" if self.last_error else ""
            raise BridgeTimeoutError(f"no hello reply from the board within {timeout:g} s{why}")
        return self._protocol.info

    def start(self) -> None:
        """Start the link without waiting for the board: the service keeps refereeing whether or
        not the board is plugged in, and the board gets the newest plan whenever it answers."""
        self._link.start()

    @property
    def connected(self) -> bool:
        """True while the board is plugged in and has said hello on this connection."""
        with self._changed:
            return self._link.is_connected and self._protocol.phase is Phase.READY

    def show(self, plan: LightPlan) -> None:
        """Make ``plan`` the board's state; it is sent now, or when the board is back."""
        payload = encode_lights(plan)
        with self._changed:
            self._protocol.show(payload, self._clock())
            self._link.write(self._protocol.data_to_send())

    def on_button(self, callback: ButtonCallback) -> None:
        """Call ``callback(event)`` for each button event, once, on the reader thread."""
        self._callbacks.append(callback)

    def wait_synced(self, timeout: float) -> bool:
        """Wait until the board shows the newest plan; False on timeout."""
        _check_timeout(timeout)
        with self._changed:
            return self._changed.wait_for(lambda: self._protocol.is_synced, timeout)

    @property
    def info(self) -> FirmwareInfo | None:
        return self._protocol.info

    @property
    def state(self) -> int:
        """The sequence number of the newest `show`."""
        return self._protocol.seq

    def stats(self) -> BridgeStats:
        with self._changed:
            protocol = self._protocol
            counters = protocol.counters
            return BridgeStats(
                protocol.seq, protocol.acked, protocol.deframer.stats.frames, protocol.deframer.stats.corrupt,
                counters.retries, counters.buttons, counters.button_duplicates, counters.buttons_missed,
                self._link.connections, counters.lost,
            )

    def close(self) -> None:
        self._link.close()

    def __enter__(self) -> Bridge:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- LinkHandler: called on the reader thread ---------------------------------

    def connection_made(self, link: SerialLink) -> None:
        with self._changed:
            self._protocol.connect(self._clock())
            link.write(self._protocol.data_to_send())

    def data_received(self, data: bytes) -> None:
        with self._changed:
            events = self._protocol.receive(data, self._clock())
            self._link.write(self._protocol.data_to_send())
            self._changed.notify_all()
        self._handle(events)

    def tick(self) -> None:
        with self._changed:
            events = self._protocol.poll(self._clock())
            self._link.write(self._protocol.data_to_send())
        self._handle(events)

    def connection_lost(self, error: BaseException | None) -> None:
        if error is not None:
            self.last_error = error
        with self._changed:
            self._protocol.disconnected()
            self._changed.notify_all()

    def open_failed(self, error: Exception) -> None:
        self.last_error = error

    def _handle(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Pressed):
                for callback in self._callbacks:
                    callback(event.event)
            elif isinstance(event, Lost):
                self.last_error = BridgeError(event.reason)
                self._link.drop()
            elif isinstance(event, Refused):
                with self._changed:
                    self._refusal = event.error
                    self._changed.notify_all()
                self.last_error = event.error
                self._link.drop()
            elif isinstance(event, Ready):
                with self._changed:
                    self._changed.notify_all()
