"""The hardware layer's errors: one root, narrow subclasses of builtins (STYLE.md 6)."""

from __future__ import annotations


class HardwareError(Exception):
    """Something in the hardware layer (pin map, LEDs, buttons, buzzer) went wrong."""


class PinMapError(HardwareError, ValueError):
    """A pin map in the config is malformed, names a bad pin, or uses one pin twice."""
