"""Lamps on a chain of 74HC595 shift registers, clocked over SPI0.

Wiring (docs/hardware.md): SPI0 MOSI (GPIO 10) to the first chip's SER, SCLK (GPIO 11)
to every SRCLK, CE0 (GPIO 8) to every RCLK, each chip's QH' to the next chip's SER.
CE0 goes high when a transfer ends, and that rising edge is what latches the new bits
onto the outputs, so the lamps change all at once and never show the bits passing by.

Bit order, the one fact both ends must agree on: lamp ``i`` (in `LAMPS` order) is output
Q(A + i % 8) of chip ``i // 8``, chip 0 being the one wired to the Pi.  Bits travel
through the chain, so the *last* chip's byte goes first on the wire, and each byte goes
most significant bit (QH) first, as SPI mode 0 sends it.

>>> encode((True,) + (False,) * 29).hex()  # point-1: chip 0, QA, the last bit sent
'00000001'
>>> encode((False,) * 29 + (True,)).hex()  # status, lamp 29: chip 3, QF, in the first byte
'20000000'
>>> decode(encode((True, False, True) + (False,) * 27))[:3]
(True, False, True)

Brightness: a 595 output is on or off.  Rather than re-shift hundreds of times a second
to fake per-lamp PWM, a pulse is shown on/off like a slow blink (on while its level is at
least one half), and the optional /OE pin, driven as PWM, dims the whole chain at once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from gpiozero import PWMOutputDevice, SPIDevice
from gpiozero.pins import Factory

from engine.lights import LAMPS
from hardware.errors import HardwareError
from hardware.lights import Clock, TimedLights

CHIPS = (len(LAMPS) + 7) // 8  # four 74HC595 for 30 lamps; the last two outputs are spare


def encode(states: Sequence[bool], chips: int = CHIPS) -> bytes:
    """The bytes to send for lamp ``states`` (on/off per output, chip 0's QA first)."""
    if len(states) > 8 * chips:
        raise HardwareError(f"{len(states)} outputs do not fit on {chips} chips")
    word = sum(1 << i for i, on in enumerate(states) if on)
    return word.to_bytes(chips, "big")  # big-endian: the last chip's byte first


def output_of(lamp: str) -> str:
    """Where ``lamp`` is wired, e.g. ``'chip 3 QA'`` for the bar."""
    index = LAMPS.index(lamp)
    return f"chip {index // 8} Q{'ABCDEFGH'[index % 8]}"


def decode(data: bytes) -> tuple[bool, ...]:
    """The inverse of `encode`: every output, chip 0's QA first."""
    word = int.from_bytes(data, "big")
    return tuple(bool(word >> i & 1) for i in range(8 * len(data)))


class ShiftRegister(SPIDevice):  # type: ignore[misc]  # gpiozero has no type hints
    """A chain of ``chips`` 74HC595s, on gpiozero's `SPIDevice` (port 0, CE ``device``)."""

    def __init__(self, chips: int = CHIPS, *, device: int = 0, pin_factory: Factory | None = None) -> None:
        self.chips = chips
        super().__init__(port=0, device=device, pin_factory=pin_factory)

    def write(self, states: Sequence[bool]) -> None:
        """Shift ``states`` in and latch them onto the outputs."""
        self._spi.transfer(list(encode(states, self.chips)))


class ShiftRegisterLights(TimedLights):
    """All 30 lamps on a `ShiftRegister` chain, with the chain's brightness on /OE."""

    def __init__(
        self,
        *,
        device: int = 0,
        output_enable: int | None = None,
        brightness: float = 1.0,
        clock: Clock = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        self._chain = ShiftRegister(device=device, pin_factory=pin_factory)
        self._enable: PWMOutputDevice | None = None
        try:
            if output_enable is not None:
                # /OE is active low: a duty cycle of 1 on this active-low device means lamps fully on.
                self._enable = PWMOutputDevice(output_enable, active_high=False, initial_value=0.0,
                                               pin_factory=pin_factory)
            self._sent: tuple[bool, ...] | None = None
            super().__init__(clock)
            self.refresh()  # a 595 powers up with random bits: clear them before enabling the outputs
            self.brightness = brightness
        except Exception:
            self._chain.close()
            raise

    @property
    def brightness(self) -> float:
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        if not 0.0 <= value <= 1.0:
            raise HardwareError(f"brightness {value} is not in 0..1")
        self._brightness = value
        if self._enable is not None:
            self._enable.value = value

    def _write(self, levels: tuple[float, ...]) -> None:
        states = tuple(level >= 0.5 for level in levels)
        if states != self._sent:  # shift only changes: the SPI bus is shared with other chips
            self._chain.write(states)
            self._sent = states

    def _release(self) -> None:
        if self._enable is not None:
            self._enable.close()
        self._chain.close()
