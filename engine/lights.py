"""What every light on the board should show: the referee's `LightPlan`.

The referee decides *what* to show; the backends in ``hardware/`` (GPIO, a 74HC595
chain, the simulator) and ``firmware_bridge/`` (the RGB strip) decide *how*.  So that
a blink looks the same on every backend, the timing of each pattern lives here, as the
pure function `Light.level`.

>>> plan = LightPlan.dark().with_points({8: Light.steady(GREEN), 6: Light.blink(RED)})
>>> plan.point(8)
Light(pattern=<Pattern.STEADY: 'steady'>, colour=Colour(r=0, g=200, b=0))
>>> LightPlan.from_dict(plan.to_dict()) == plan
True
>>> [lamp for lamp, light in plan.lit()]
['point-6', 'point-8']
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.errors import EngineError


class LightPlanError(EngineError, ValueError):
    """A light plan or one of its parts was given a value it cannot hold."""


class Pattern(Enum):
    """How a lamp changes over time."""

    OFF = "off"
    STEADY = "steady"
    BLINK = "blink"
    PULSE = "pulse"


# Half a second on, half a second off reads as "look here" without being frantic;
# the two-second pulse reads as "waiting" and is slow enough for PWM on a 595 chain.
BLINK_PERIOD_S = 1.0
PULSE_PERIOD_S = 2.0


@dataclass(frozen=True, slots=True)
class Colour:
    """An sRGB colour, 0..255 per channel."""

    r: int
    g: int
    b: int

    def __post_init__(self) -> None:
        for name, value in (("r", self.r), ("g", self.g), ("b", self.b)):
            if not isinstance(value, int) or not 0 <= value <= 255:
                raise LightPlanError(f"colour channel {name}={value!r} is not an integer in 0..255")

    def hex(self) -> str:
        """``'#rrggbb'``, the form the JSON and the web page use."""
        return f"#{self.r:02x}{self.g:02x}{self.b:02x}"

    @classmethod
    def from_hex(cls, text: str) -> Colour:
        if len(text) != 7 or text[0] != "#":
            raise LightPlanError(f"colour {text!r} is not of the form '#rrggbb'")
        try:
            return cls(int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))
        except ValueError as err:
            raise LightPlanError(f"colour {text!r} is not of the form '#rrggbb'") from err


# The referee's vocabulary.  Single-colour LEDs cannot show these, so their backends map
# a colour to a pattern instead (see hardware/).
BLACKOUT = Colour(0, 0, 0)
GREEN = Colour(0, 200, 0)  # a legal move: a point that can move, or a legal destination
RED = Colour(220, 0, 0)  # an error: a point that differs from every legal result
AMBER = Colour(230, 140, 0)  # attention: re-roll, not your turn, occluded camera
BLUE = Colour(0, 90, 230)  # information: whose turn it is, a checker lifted
WHITE = Colour(255, 255, 255)  # confirmation flash after an accepted play

#: Hue ranges in degrees (from, to) that read as each of the referee's colours; its own colours
#: sit inside them (red 0, amber 37, green 120, blue 217).
_HUES = ((RED, 345.0, 15.0), (AMBER, 25.0, 50.0), (GREEN, 90.0, 150.0), (BLUE, 195.0, 245.0))


def looks_like(colour: Colour) -> Colour | None:
    """The referee's colour that ``colour`` looks like, by its hue (`WHITE` for a bright grey), or
    None for any other (or one too dark to show a hue).  A light plan file's ``#ff0000`` means
    what the referee's red means: a single-colour LED blinks it, the simulator writes it ``R``.

    >>> looks_like(Colour.from_hex("#ff0000")) == RED, looks_like(Colour(20, 0, 0))
    (True, None)
    """
    if colour in (RED, AMBER, GREEN, BLUE, WHITE):
        return colour
    hue, saturation, value = colorsys.rgb_to_hsv(colour.r / 255, colour.g / 255, colour.b / 255)
    if value < 0.2:
        return None
    if saturation < 0.2:
        return WHITE if value >= 0.8 else None
    degrees = hue * 360
    for named, start, end in _HUES:
        if start <= degrees <= end or (start > end and (degrees >= start or degrees <= end)):
            return named
    return None


@dataclass(frozen=True, slots=True)
class Light:
    """One lamp's state: a pattern and a colour."""

    pattern: Pattern = Pattern.OFF
    colour: Colour = BLACKOUT

    @classmethod
    def steady(cls, colour: Colour) -> Light:
        return cls(Pattern.STEADY, colour)

    @classmethod
    def blink(cls, colour: Colour) -> Light:
        return cls(Pattern.BLINK, colour)

    @classmethod
    def pulse(cls, colour: Colour) -> Light:
        return cls(Pattern.PULSE, colour)

    @property
    def is_on(self) -> bool:
        return self.pattern is not Pattern.OFF and self.colour != BLACKOUT

    def level(self, seconds: float) -> float:
        """Brightness in 0..1 at ``seconds`` after the plan was shown.

        A blink starts on; a pulse starts dark and rises, so a newly shown pulse
        fades in rather than flashing.
        """
        if not self.is_on:
            return 0.0
        if self.pattern is Pattern.STEADY:
            return 1.0
        if self.pattern is Pattern.BLINK:
            return 1.0 if (seconds % BLINK_PERIOD_S) < BLINK_PERIOD_S / 2 else 0.0
        phase = (seconds % PULSE_PERIOD_S) / PULSE_PERIOD_S
        return 0.5 - 0.5 * math.cos(2 * math.pi * phase)

    def rgb(self, seconds: float) -> tuple[int, int, int]:
        """The colour scaled by `level`: what an RGB LED shows at that moment."""
        k = self.level(seconds)
        return (round(self.colour.r * k), round(self.colour.g * k), round(self.colour.b * k))


OFF_LIGHT = Light()

POINT_LAMPS: tuple[str, ...] = tuple(f"point-{n}" for n in range(1, 25))
# Every lamp a board has, in the order backends wire them: the 24 points, the bar, the
# two bear-off trays and three status lamps (whose turn it is, and a referee status).
LAMPS: tuple[str, ...] = (
    *POINT_LAMPS,
    "bar",
    "off-white",
    "off-black",
    "turn-white",
    "turn-black",
    "status",
)
_INDEX = {lamp: i for i, lamp in enumerate(LAMPS)}


def point_lamp(point: int) -> str:
    """The lamp under board point ``point`` (1..24, the rulebook's numbering)."""
    if not 1 <= point <= 24:
        raise LightPlanError(f"point {point} is not a board point 1..24")
    return POINT_LAMPS[point - 1]


@dataclass(frozen=True, slots=True)
class LightPlan:
    """A `Light` for every lamp in `LAMPS`, in that order.

    Plans are complete states, never changes: showing the same plan twice, or a late
    one, cannot leave a lamp in a stale state.
    """

    lights: tuple[Light, ...]

    def __post_init__(self) -> None:
        if len(self.lights) != len(LAMPS):
            raise LightPlanError(f"a light plan needs {len(LAMPS)} lights, got {len(self.lights)}")

    @classmethod
    def dark(cls) -> LightPlan:
        return cls((OFF_LIGHT,) * len(LAMPS))

    def __getitem__(self, lamp: str) -> Light:
        try:
            return self.lights[_INDEX[lamp]]
        except KeyError:
            raise LightPlanError(f"no lamp called {lamp!r}; lamps are {', '.join(LAMPS)}") from None

    def point(self, point: int) -> Light:
        return self[point_lamp(point)]

    def with_lamps(self, changes: Mapping[str, Light]) -> LightPlan:
        lights = list(self.lights)
        for lamp, light in changes.items():
            if lamp not in _INDEX:
                raise LightPlanError(f"no lamp called {lamp!r}; lamps are {', '.join(LAMPS)}")
            lights[_INDEX[lamp]] = light
        return LightPlan(tuple(lights))

    def with_points(self, changes: Mapping[int, Light]) -> LightPlan:
        return self.with_lamps({point_lamp(point): light for point, light in changes.items()})

    def items(self) -> Iterator[tuple[str, Light]]:
        return zip(LAMPS, self.lights, strict=True)

    def lit(self) -> Iterator[tuple[str, Light]]:
        return ((lamp, light) for lamp, light in self.items() if light.is_on)

    def to_dict(self) -> dict[str, dict[str, str]]:
        """The lamps that are on, as ``{lamp: {"pattern": ..., "colour": "#rrggbb"}}``."""
        return {
            lamp: {"pattern": light.pattern.value, "colour": light.colour.hex()} for lamp, light in self.lit()
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LightPlan:
        """The inverse of `to_dict`; lamps not named are off."""
        changes: dict[str, Light] = {}
        for lamp, entry in data.items():
            try:
                pattern = Pattern(entry["pattern"])
                colour = Colour.from_hex(entry["colour"])
            except (KeyError, TypeError, ValueError) as err:
                raise LightPlanError(
                    f"lamp {lamp!r}: {entry!r} is not a pattern ({', '.join(p.value for p in Pattern)}) "
                    f"and a colour ('#rrggbb')") from err
            changes[lamp] = Light(pattern, colour)
        return cls.dark().with_lamps(changes)
