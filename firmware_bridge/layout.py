"""Which LEDs of the strip light each lamp: `StripLayout`.

The host owns the layout and sends it in the hello; the firmware only knows how
many LEDs its strip has and refuses a layout that needs more.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.lights import LAMPS, POINT_LAMPS
from firmware_bridge.errors import LayoutError


@dataclass(frozen=True, slots=True)
class StripLayout:
    """How many consecutive LEDs each lamp of `LAMPS` has, in that order along the strip.

    >>> layout = StripLayout.standard()
    >>> layout.led_count, layout.ranges()[0], layout.ranges()[-1]
    (57, (0, 2), (56, 1))
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != len(LAMPS):
            raise LayoutError(f"a strip layout needs an LED count for each of {len(LAMPS)} lamps, "
                              f"got {len(self.counts)}")
        for lamp, count in zip(LAMPS, self.counts, strict=True):
            if not isinstance(count, int) or not 0 <= count <= 255:
                raise LayoutError(f"lamp {lamp}: {count!r} LEDs is not an integer in 0..255")

    @classmethod
    def standard(cls, per_point: int = 2) -> StripLayout:
        """``per_point`` LEDs under each point, 2 for the bar and each tray, 1 per status lamp."""
        extra = {"bar": 2, "off-white": 2, "off-black": 2}
        return cls(tuple(per_point if lamp in POINT_LAMPS else extra.get(lamp, 1) for lamp in LAMPS))

    @property
    def led_count(self) -> int:
        return sum(self.counts)

    def ranges(self) -> tuple[tuple[int, int], ...]:
        """``(first LED, LED count)`` for each lamp."""
        firsts: list[int] = []
        first = 0
        for count in self.counts:
            firsts.append(first)
            first += count
        return tuple(zip(firsts, self.counts, strict=True))
