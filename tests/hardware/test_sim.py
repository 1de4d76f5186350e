"""The simulator: text that names each lit lamp, and a picture whose lamps glow where they should."""

from __future__ import annotations

import io

import numpy as np
import pytest

from engine.lights import AMBER, BLUE, GREEN, RED, WHITE, Colour, Light, LightPlan
from hardware.errors import HardwareError
from hardware.lights import BoardLights
from hardware.sim import HEIGHT, WIDTH, SimLights, _geometry, render_image, render_text


def lamp_colour(image: np.ndarray, centre: tuple[int, int]) -> tuple[int, int, int]:
    """The RGB at a lamp's centre."""
    b, g, r = (int(v) for v in image[centre[1], centre[0]])
    return (r, g, b)


def point_centre(point: int) -> tuple[int, int]:
    x0, x1, base, is_top = _geometry()[0][point]
    return ((x0 + x1) // 2, base + 16 if is_top else base - 16)


def test_text_marks_colour_and_pattern_in_board_order() -> None:
    plan = LightPlan.dark().with_points({13: Light.pulse(AMBER), 1: Light.steady(GREEN)}).with_lamps(
        {"status": Light.blink(Colour(1, 2, 3)), "turn-black": Light.steady(BLUE)})
    lines = render_text(plan).splitlines()
    assert lines[1].split("|")[0].split() == ["A~", ".", ".", ".", ".", "."]  # 13..18
    assert lines[3].split("|")[2].split() == [".", ".", ".", ".", ".", "G"]  # 6..1
    assert lines[2].endswith("status *!")
    assert lines[3].endswith("B")
    assert render_text(LightPlan.dark()).count(".") == 30


@pytest.mark.parametrize(
    ("colour", "letter"),
    [(RED, "R"), ("#ff0000", "R"), ("#ff0033", "R"), (GREEN, "G"), ("#00ff00", "G"), (AMBER, "A"),
     ("#ffa500", "A"), (BLUE, "B"), ("#0000ff", "B"), (WHITE, "W"), ("#f0f0f0", "W"),
     ("#800080", "*"), ("#808080", "*"), ("#00ffff", "*"), ("#ffff00", "*"), ("#080000", "*")],
)
def test_text_names_a_colour_by_the_legend_letter_it_looks_like(colour: Colour | str, letter: str) -> None:
    """A plan file's pure red was "*" (other), though the legend lists R red."""
    light = Light.steady(Colour.from_hex(colour) if isinstance(colour, str) else colour)
    assert render_text(LightPlan.dark().with_lamps({"status": light})).splitlines()[2].endswith(
        f"status {letter}")


def test_the_picture_shows_each_lamp_at_its_level() -> None:
    plan = LightPlan.dark().with_points({8: Light.steady(GREEN), 6: Light.blink(RED), 19: Light.pulse(BLUE)})
    on = render_image(plan, 0.0)
    assert on.shape == (HEIGHT, WIDTH, 3)
    assert lamp_colour(on, point_centre(8)) == (0, 200, 0)
    assert lamp_colour(on, point_centre(6)) == (220, 0, 0)  # a blink starts on
    assert lamp_colour(on, point_centre(19)) == (30, 30, 30)  # a pulse starts dark: the bare socket
    assert lamp_colour(on, point_centre(7)) == (30, 30, 30)
    later = render_image(plan, 1.0 + 0.75)  # blink off; pulse at 7/8 of its period is near half
    assert lamp_colour(later, point_centre(6)) == (30, 30, 30)
    assert lamp_colour(later, point_centre(19)) == Light.pulse(BLUE).rgb(1.75)
    # Every lit lamp shows, and nothing glows where the plan has no light.
    assert int(np.abs(on.astype(int) - render_image(LightPlan.dark()).astype(int)).sum()) > 0
    assert np.array_equal(render_image(LightPlan.dark(), 0.0), render_image(LightPlan.dark(), 5.0))


def test_sim_lights_print_each_new_plan_once_and_keep_its_phase() -> None:
    out = io.StringIO()
    now = [10.0]
    plan = LightPlan.dark().with_points({6: Light.blink(RED)})
    with SimLights(out, clock=lambda: now[0]) as lights:
        assert isinstance(lights, BoardLights)
        lights.show(plan)
        now[0] = 10.6
        lights.show(plan)
        assert out.getvalue().count("R!") == 1
        assert lamp_colour(lights.image(), point_centre(6)) == (30, 30, 30)  # 0.6 s in: off
        assert lamp_colour(lights.image(11.0), point_centre(6)) == (220, 0, 0)
    with pytest.raises(HardwareError, match="closed"):
        lights.show(plan)
