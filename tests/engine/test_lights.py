"""The LightPlan: complete states, shared pattern timing, a JSON form that round-trips."""

import pytest

from engine import LAMPS, Colour, Light, LightPlan, LightPlanError, Pattern
from engine.lights import BLINK_PERIOD_S, GREEN, PULSE_PERIOD_S, RED


def test_dark_plan_has_every_lamp_off() -> None:
    plan = LightPlan.dark()
    assert [lamp for lamp, _ in plan.items()] == list(LAMPS)
    assert list(plan.lit()) == []
    assert len(LAMPS) == 30 and LAMPS[:2] == ("point-1", "point-2")


def test_points_are_numbered_like_the_rulebook() -> None:
    plan = LightPlan.dark().with_points({1: Light.steady(GREEN), 24: Light.blink(RED)})
    assert plan["point-1"] == Light(Pattern.STEADY, GREEN)
    assert plan.point(24).pattern is Pattern.BLINK
    with pytest.raises(LightPlanError, match="point 25"):
        plan.with_points({25: Light.steady(GREEN)})
    with pytest.raises(LightPlanError, match="no lamp called 'point-0'"):
        plan["point-0"]


def test_round_trip_through_json_form() -> None:
    plan = LightPlan.dark().with_lamps({"bar": Light.pulse(Colour(1, 2, 3)), "status": Light.steady(RED)})
    data = plan.to_dict()
    assert data == {
        "bar": {"pattern": "pulse", "colour": "#010203"},
        "status": {"pattern": "steady", "colour": "#dc0000"},
    }
    assert LightPlan.from_dict(data) == plan


@pytest.mark.parametrize(
    "data",
    [
        {"bar": {"pattern": "disco", "colour": "#000000"}},
        {"bar": {"pattern": "steady"}},
        {"bar": "on"},
        {"bar": {"pattern": "steady", "colour": "red"}},
        {"moon": {"pattern": "steady", "colour": "#ffffff"}},
    ],
)
def test_bad_json_form_is_refused_with_the_lamp(data: dict) -> None:
    with pytest.raises(LightPlanError):
        LightPlan.from_dict(data)


def test_colour_channels_are_checked() -> None:
    with pytest.raises(LightPlanError, match="g=256"):
        Colour(0, 256, 0)


def test_pattern_timing() -> None:
    blink, pulse = Light.blink(GREEN), Light.pulse(GREEN)
    assert blink.level(0.0) == 1.0 and blink.level(BLINK_PERIOD_S * 0.75) == 0.0
    assert blink.level(BLINK_PERIOD_S * 1.25) == 1.0
    assert pulse.level(0.0) == 0.0 and pulse.level(PULSE_PERIOD_S / 2) == pytest.approx(1.0)
    assert Light.steady(GREEN).rgb(123.4) == (0, 200, 0)
    assert Light(Pattern.STEADY, Colour(0, 0, 0)).is_on is False
    assert Light().level(0.3) == 0.0


def test_button_events_round_trip_and_refuse_unknown_names() -> None:
    from engine import Button, ButtonError, ButtonEvent, Press

    for button in Button:
        for press in Press:
            event = ButtonEvent(button, press)
            assert ButtonEvent.parse(str(event)) == event
    with pytest.raises(ButtonError, match="'undo'"):
        ButtonEvent.parse("undo")
    with pytest.raises(ButtonError, match="'mode:double'"):
        ButtonEvent.parse("mode:double")
