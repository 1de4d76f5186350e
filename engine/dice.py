"""A roll of two dice."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import DiceError

_ROLL_TEXT = re.compile(r"\s*([1-6])\s*[-x,/ ]?\s*([1-6])\s*")


@dataclass(frozen=True, slots=True)
class Roll:
    """Two dice as they fell.  ``Roll(6, 1)`` and ``Roll(1, 6)`` are different throws
    but allow the same plays; :attr:`high` and :attr:`low` sort them.

    >>> Roll.parse("6-4").dice, Roll(3, 3).dice
    ((6, 4), (3, 3, 3, 3))
    """

    first: int
    second: int

    def __post_init__(self) -> None:
        for die in (self.first, self.second):
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise DiceError(f"a die shows 1..6, got {die!r}")

    @classmethod
    def parse(cls, text: str) -> Roll:
        """Read ``"6-4"``, ``"64"``, ``"6x4"`` or ``"6,4"``."""
        match = _ROLL_TEXT.fullmatch(text)
        if not match:
            raise DiceError(f"not a roll: {text!r} (expected two dice 1..6 such as 6-4)")
        return cls(int(match.group(1)), int(match.group(2)))

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def high(self) -> int:
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        return min(self.first, self.second)

    @property
    def dice(self) -> tuple[int, ...]:
        """The numbers to play: two, or four of the same for a double."""
        if self.is_double:
            return (self.first,) * 4
        return (self.high, self.low)

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"
