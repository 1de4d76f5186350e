"""Direct-GPIO lamps: each pattern's whole pin history, driven at chosen times."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from gpiozero.pins.mock import MockFactory

from engine.lights import AMBER, BLUE, GREEN, RED, WHITE, Colour, Light, LightPlan, Pattern
from hardware.errors import HardwareError
from hardware.gpio_lights import GPIOLights
from hardware.lights import BoardLights, lamp_levels, single_colour

History = Callable[[MockFactory, int], list[float]]
TIMES = (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0)
WIRED = (("point-1", 4), ("point-2", 17), ("point-3", 27), ("status", 22))


def shown(lights: GPIOLights, changes: dict[str, Light]) -> None:
    lights.show(LightPlan.dark().with_lamps(changes), now=0.0)
    for now in TIMES[1:]:
        lights.refresh(now)


def test_every_pattern_on_pwm_pins(pwm_factory: MockFactory, history: History) -> None:
    with GPIOLights(WIRED, pin_factory=pwm_factory, clock=lambda: 0.0) as lights:
        assert isinstance(lights, BoardLights)
        shown(lights, {"point-1": Light.steady(GREEN), "point-2": Light.blink(GREEN),
                       "point-3": Light.pulse(BLUE)})
    # The first state is the pin before gpiozero made it an output; the last comes from close().
    assert history(pwm_factory, 4) == [0.0, 1.0, 0.0]  # steady: on at once, off at close
    assert history(pwm_factory, 17) == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]  # on at 0, off 0.5, on 1.0...
    h = 0.5 - 0.5 ** 0.5 / 2  # the pulse's level an eighth of the way round: 1 - cos(45°), halved
    assert history(pwm_factory, 27) == pytest.approx([0.0, h, 0.5, 1 - h, 1.0, 1 - h, 0.5, h, 0.0])
    assert history(pwm_factory, 22) == [0.0]  # the status lamp was never lit


def test_single_colour_leds_blink_red_and_pulse_amber_whatever_the_plan_said(
    pwm_factory: MockFactory, history: History
) -> None:
    with GPIOLights(WIRED, pin_factory=pwm_factory, clock=lambda: 0.0) as lights:
        shown(lights, {"point-1": Light.steady(RED), "point-2": Light.steady(AMBER),
                       "point-3": Light.blink(WHITE), "status": Light(Pattern.STEADY, BLUE)})
    assert history(pwm_factory, 4) == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    assert history(pwm_factory, 17)[:3] == pytest.approx([0.0, 0.5 - 0.5 ** 0.5 / 2, 0.5])
    assert history(pwm_factory, 27) == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    assert history(pwm_factory, 22) == [0.0, 1.0, 0.0]


def test_a_plan_files_own_red_and_amber_blink_and_pulse_as_the_referees_do() -> None:
    # A light plan file (`pipgammon lights --show`) names colours by hand: #ff0000 is an error's
    # red to whoever wrote it, and a single-colour LED that showed it steady looked like a move.
    assert single_colour(Light.steady(Colour.from_hex("#ff0000"))).pattern is Pattern.BLINK
    assert single_colour(Light.steady(Colour.from_hex("#ffa500"))).pattern is Pattern.PULSE
    assert single_colour(Light.steady(Colour.from_hex("#00ff00"))).pattern is Pattern.STEADY
    assert single_colour(Light.steady(Colour(30, 0, 0))).pattern is Pattern.STEADY  # too dark to be red


def test_without_pwm_a_pulse_is_a_slow_blink(mock_factory: MockFactory, history: History) -> None:
    with GPIOLights(WIRED, pwm=False, pin_factory=mock_factory, clock=lambda: 0.0) as lights:
        plan = LightPlan.dark().with_lamps({"point-1": Light.pulse(GREEN), "point-2": Light.blink(GREEN)})
        lights.show(plan, now=0.0)
        for now in (0.4, 0.6, 1.4, 1.6, 2.4, 2.6):
            lights.refresh(now)
    # A pulse is at least half bright from 0.5 s to 1.5 s of its 2 s period: on at 0.6 and
    # 1.4, off at 1.6 and 2.4, on again at 2.6, off at close.
    assert history(mock_factory, 4) == [0.0, 1.0, 0.0, 1.0, 0.0]
    # A blink is on in the first half of each second: on at 0, 1.4 and 2.4, off at .6, 1.6 and 2.6.
    assert history(mock_factory, 17) == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]


def test_showing_the_same_plan_again_keeps_the_blink_phase(
    pwm_factory: MockFactory, history: History
) -> None:
    plan = LightPlan.dark().with_points({1: Light.blink(GREEN)})
    with GPIOLights(WIRED, pin_factory=pwm_factory, clock=lambda: 0.0) as lights:
        lights.show(plan, now=0.0)
        lights.show(plan, now=0.6)  # the referee repeats itself: the lamp goes off on time
        lights.show(plan.with_points({2: Light.steady(GREEN)}), now=0.7)  # a new plan restarts the phase
    assert history(pwm_factory, 4) == [0.0, 1.0, 0.0, 1.0, 0.0]
    assert history(pwm_factory, 17) == [0.0, 1.0, 0.0]


def test_the_background_ticker_blinks_in_real_time(pwm_factory: MockFactory, history: History) -> None:
    lights = GPIOLights(WIRED, pin_factory=pwm_factory)
    lights.show(LightPlan.dark().with_points({1: Light.blink(GREEN)}))
    lights.start(hz=100)
    time.sleep(0.65)
    lights.close()
    assert history(pwm_factory, 4) == [0.0, 1.0, 0.0]  # on for half a second, then off; close adds nothing
    with pytest.raises(HardwareError, match="closed"):
        lights.show(LightPlan.dark())


def test_unknown_lamps_and_empty_maps_are_refused(pwm_factory: MockFactory) -> None:
    with pytest.raises(HardwareError, match="no lamp called 'point-25'"):
        GPIOLights([("point-25", 4)], pin_factory=pwm_factory)
    with pytest.raises(HardwareError, match="at least one lamp"):
        GPIOLights([], pin_factory=pwm_factory)


def test_levels_follow_the_shared_pattern_timing() -> None:
    plan = LightPlan.dark().with_points({6: Light.blink(GREEN), 8: Light.steady(RED)})
    for seconds in TIMES:
        levels = lamp_levels(plan, seconds)
        assert levels[5] == plan.point(6).level(seconds)
        assert levels[7] == single_colour(plan.point(8)).level(seconds) == Light.blink(RED).level(seconds)
        assert sum(levels) == levels[5] + levels[7]
