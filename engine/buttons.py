"""The buttons a player presses, as the referee hears them.

The hardware layers (gpiozero buttons, the RP2040's buttons over serial) turn edges
into these values after debouncing; the referee never sees a pin.

>>> ButtonEvent(Button.END_TURN)
ButtonEvent(button=<Button.END_TURN: 'end-turn'>, press=<Press.SHORT: 'short'>)
>>> ButtonEvent.parse("take-back:long").press
<Press.LONG: 'long'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.errors import EngineError


class ButtonError(EngineError, ValueError):
    """A button event's text names no button or no kind of press."""


class Button(Enum):
    END_TURN = "end-turn"  # the turn is over (as when the dice are picked up)
    TAKE_BACK = "take-back"  # undo the last accepted play while the opponent has not rolled
    MODE = "mode"  # cycle play / teach / record-only


class Press(Enum):
    SHORT = "short"
    LONG = "long"  # held past the long-press time: a second meaning per button


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    button: Button
    press: Press = Press.SHORT

    def __str__(self) -> str:
        return f"{self.button.value}:{self.press.value}"

    @classmethod
    def parse(cls, text: str) -> ButtonEvent:
        """``'end-turn'`` or ``'end-turn:long'``: the inverse of `str`."""
        name, _, press = text.partition(":")
        try:
            return cls(Button(name), Press(press or "short"))
        except ValueError:
            buttons = ", ".join(b.value for b in Button)
            raise ButtonError(
                f"button event {text!r}: want BUTTON[:short|long] with BUTTON one of {buttons}"
            ) from None
