"""Direct GPIO: one LED (and its resistor) per lamp, on gpiozero's `LEDBoard`.

A Pi has too few pins for all 30 lamps plus the buttons, so a small build wires some
of them (see hardware/pins.example.toml); the rest stay dark.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from gpiozero import LEDBoard
from gpiozero.pins import Factory

from engine.lights import LAMPS
from hardware.errors import HardwareError
from hardware.lights import Clock, TimedLights


class GPIOLights(TimedLights):
    """Lamps on GPIO pins.  With ``pwm`` each is a `PWMLED` and a pulse fades; without it a
    lamp is on while its level is at least one half, so a pulse shows as a slow blink."""

    def __init__(
        self,
        lamps: Sequence[tuple[str, int]],
        *,
        pwm: bool = True,
        clock: Clock = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        for lamp, _ in lamps:
            if lamp not in LAMPS:
                raise HardwareError(f"no lamp called {lamp!r}")
        if not lamps:
            raise HardwareError("the GPIO backend needs at least one lamp in hardware.lamps")
        self.lamps = tuple(lamps)
        self._pwm = pwm
        self._board = LEDBoard(*(pin for _, pin in lamps), pwm=pwm, pin_factory=pin_factory)
        self._indices = tuple(LAMPS.index(lamp) for lamp, _ in lamps)
        # Last value written per LED: writing only changes keeps software PWM undisturbed.
        self._written: list[float | None] = [None] * len(lamps)
        super().__init__(clock)

    def _write(self, levels: tuple[float, ...]) -> None:
        for slot, (index, led) in enumerate(zip(self._indices, self._board, strict=True)):
            level = levels[index]
            value = level if self._pwm else float(level >= 0.5)
            if value != self._written[slot]:
                led.value = value
                self._written[slot] = value

    def _release(self) -> None:
        self._board.close()
