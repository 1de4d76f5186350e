"""One interface for every way of lighting the board, and the timing the lamp backends share.

The referee hands over a complete `LightPlan`; a backend shows it until the next one.
`BoardLights` is the whole contract, so the serial RGB strip in ``firmware_bridge/`` can
implement it without importing this package.

Backends with single-colour LEDs cannot show a colour, so the colours that carry a
warning become a pattern instead (`SINGLE_COLOUR_PATTERNS`, also in docs/hardware.md):

>>> from engine.lights import GREEN, RED, Light
>>> single_colour(Light.steady(RED))
Light(pattern=<Pattern.BLINK: 'blink'>, colour=Colour(r=220, g=0, b=0))
>>> single_colour(Light.steady(GREEN)).pattern
<Pattern.STEADY: 'steady'>
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Protocol, Self, runtime_checkable

from engine.lights import AMBER, LAMPS, RED, Colour, Light, LightPlan, Pattern, looks_like
from hardware.errors import HardwareError

Clock = Callable[[], float]


@runtime_checkable
class BoardLights(Protocol):
    """Anything that can show the referee's plan: GPIO, a 595 chain, the RGB strip, the simulator."""

    def show(self, plan: LightPlan) -> None:
        """Show ``plan`` from now until the next call; the same plan again changes nothing."""

    def close(self) -> None:
        """Turn every lamp off and release the hardware."""


# A single-colour LED shows where, not what: so a red (error) lamp always blinks and an
# amber (attention) lamp always pulses, whatever pattern the plan gave it, and the other
# colours keep the plan's pattern.  An error thus never looks like a legal move.
SINGLE_COLOUR_PATTERNS: Mapping[Colour, Pattern] = {
    RED: Pattern.BLINK,
    AMBER: Pattern.PULSE,
}


def single_colour(light: Light) -> Light:
    """What ``light`` becomes on a single-colour LED (`SINGLE_COLOUR_PATTERNS`, by the referee's
    colour it looks like: a plan file's ``#ff0000`` blinks as the referee's red does)."""
    if not light.is_on:
        return light
    named = looks_like(light.colour)
    pattern = SINGLE_COLOUR_PATTERNS.get(named, light.pattern) if named is not None else light.pattern
    return Light(pattern, light.colour)


def lamp_levels(plan: LightPlan, seconds: float) -> tuple[float, ...]:
    """Each lamp's brightness (in `LAMPS` order) on single-colour LEDs, ``seconds`` after showing."""
    return tuple(single_colour(light).level(seconds) for light in plan.lights)


class TimedLights:
    """The clock half of a lamp backend: it remembers when the plan was shown.

    Subclasses implement `_write(levels)`.  Time is injected: tests call `refresh(now)` at
    chosen moments, and `start(hz)` runs a background ticker for real use.
    """

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._plan = LightPlan.dark()
        self._shown_at = clock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        self._closed = False

    @property
    def plan(self) -> LightPlan:
        return self._plan

    def show(self, plan: LightPlan, now: float | None = None) -> None:
        """Show ``plan``.  Showing the plan already shown keeps its phase, so a referee that
        repeats its plan every frame does not freeze a blink in its "on" half."""
        with self._lock:
            self._check_open()
            if plan != self._plan:
                self._plan = plan
                self._shown_at = self._clock() if now is None else now
        self.refresh(now)

    def refresh(self, now: float | None = None) -> None:
        """Bring every lamp to its level at ``now`` (default: the clock)."""
        with self._lock:
            if self._closed:
                return
            seconds = (self._clock() if now is None else now) - self._shown_at
            self._write(lamp_levels(self._plan, seconds))

    def start(self, hz: float = 50.0) -> None:
        """Refresh ``hz`` times a second on a daemon thread until `close`."""
        if hz <= 0:
            raise HardwareError(f"refresh rate {hz} Hz is not positive")
        if self._ticker is not None:
            return
        period = 1.0 / hz

        def tick() -> None:
            while not self._stop.wait(period):
                self.refresh()

        self._ticker = threading.Thread(target=tick, name=f"{type(self).__name__}-ticker", daemon=True)
        self._ticker.start()

    def close(self) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None
        with self._lock:
            if not self._closed:
                self._write((0.0,) * len(LAMPS))
                self._closed = True
        self._release()

    def _check_open(self) -> None:
        if self._closed:
            raise HardwareError(f"{type(self).__name__} is closed")

    def _write(self, levels: tuple[float, ...]) -> None:
        raise NotImplementedError

    def _release(self) -> None:
        """Free the devices after the lamps went dark."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
