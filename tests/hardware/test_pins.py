"""The pin map: defaults, and one clear line for every way a config can be wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.buttons import Button
from hardware.errors import PinMapError
from hardware.pins import (
    DEFAULT_CONFIG,
    DEFAULT_PIN_MAP,
    Backend,
    load_pin_map,
    pin_map_from_config,
)

EXAMPLE = Path(__file__).parents[2] / "hardware" / "pins.example.toml"


def test_defaults_drive_a_595_chain_on_spi0_with_three_buttons_and_a_tonal_buzzer() -> None:
    assert DEFAULT_PIN_MAP.backend is Backend.SHIFT_REGISTER
    assert DEFAULT_PIN_MAP.buttons == (("end-turn", 5), ("take-back", 6), ("mode", 16))
    assert DEFAULT_PIN_MAP.button_pin(Button.MODE) == 16
    assert (DEFAULT_PIN_MAP.buzzer, DEFAULT_PIN_MAP.tonal_buzzer) == (13, True)
    assert (DEFAULT_PIN_MAP.spi_device, DEFAULT_PIN_MAP.output_enable) == (0, 12)


def test_the_shipped_example_is_the_default_and_its_small_build_is_valid() -> None:
    assert load_pin_map(EXAMPLE) == DEFAULT_PIN_MAP
    import tomllib

    small = tomllib.loads(EXAMPLE.read_text())["small-build"]["hardware"]
    pins = pin_map_from_config(small)
    assert pins.backend is Backend.GPIO
    assert len(pins.lamps) == 18


def test_a_pin_used_twice_is_rejected_naming_both_roles() -> None:
    config = {**DEFAULT_CONFIG, "buttons": {"end-turn": 5, "take-back": 13}}
    with pytest.raises(PinMapError) as caught:
        pin_map_from_config(config)
    assert str(caught.value) == "hardware.buttons.take-back and hardware.buzzer.pin both use GPIO 13"


def test_a_lamp_and_a_button_on_one_pin_are_rejected() -> None:
    config = {"backend": "gpio", "lamps": {"point-3": 5}, "buttons": {"end-turn": 5}}
    with pytest.raises(PinMapError) as caught:
        pin_map_from_config(config)
    assert str(caught.value) == "hardware.lamps.point-3 and hardware.buttons.end-turn both use GPIO 5"


@pytest.mark.parametrize(
    ("bus", "pin", "what"),
    [("i2c", 3, "I2C1's SCL"), ("spi", 9, "SPI0's MISO"), ("spi", 7, "SPI0's CE1"),
     ("uart", 14, "UART0's TXD")],
)
def test_pins_of_an_enabled_bus_are_reserved(bus: str, pin: int, what: str) -> None:
    config = {"backend": "gpio", "buses": [bus], "lamps": {"status": pin}}
    with pytest.raises(PinMapError) as caught:
        pin_map_from_config(config)
    assert str(caught.value) == (
        f"hardware.lamps.status: GPIO {pin} is {what}, and {bus!r} is in hardware.buses")
    # The same pin is free while its bus is off.
    assert pin_map_from_config({"backend": "gpio", "lamps": {"status": pin}}).lamps == (("status", pin),)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"colour": 1}, "hardware.colour: unknown key"),
        ({"backend": "neopixel"}, "hardware.backend: 'neopixel' is not one of gpio, 595, sim"),
        ({"backend": "sim", "buses": ["can"]}, "hardware.buses: unknown bus 'can'"),
        ({"backend": "sim", "buses": "spi"}, "hardware.buses: expected a list"),
        ({"backend": "sim", "lamps": {"point-25": 4}}, "hardware.lamps.point-25: unknown key"),
        ({"backend": "sim", "buttons": {"undo": 4}}, "hardware.buttons.undo: unknown key"),
        ({"backend": "sim", "buttons": {"mode": "GPIO4"}},
         "hardware.buttons.mode: 'GPIO4' is not a BCM GPIO"),
        ({"backend": "sim", "buttons": {"mode": True}}, "hardware.buttons.mode: True is not a BCM GPIO"),
        ({"backend": "sim", "buttons": {"mode": 1}}, "hardware.buttons.mode: GPIO 1 is not on the header"),
        ({"backend": "sim", "buttons": {"mode": 28}}, "hardware.buttons.mode: GPIO 28 is not on the header"),
        ({"backend": "sim", "buzzer": {"pin": 13, "tonal": "yes"}}, "hardware.buzzer.tonal: expected true"),
        ({"backend": "sim", "lamps": [4]}, "hardware.lamps: expected a table"),
        ({"backend": "sim", "pwm": 1}, "hardware.pwm: expected true or false"),
        ({"backend": "595", "buses": ["i2c"]}, "hardware.buses: the 595 backend drives SPI0"),
        ({"backend": "595", "buses": ["spi"], "shift-register": {"device": 2}},
         "hardware.shift-register.device: 2 is not SPI0's CE0"),
        ({"backend": "595", "buses": ["spi"], "shift-register": {"device": 1.0}},
         "hardware.shift-register.device: 1.0 is not SPI0's CE0"),
    ],
)
def test_bad_configs_give_one_line_naming_the_key(config: dict[str, Any], message: str) -> None:
    with pytest.raises(PinMapError) as caught:
        pin_map_from_config(config)
    assert str(caught.value).startswith(message)
    assert "\n" not in str(caught.value)


def test_a_file_error_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "pins.toml"
    bad.write_text('[hardware]\nbackend = "gpio"\nlamps = { bar = 4 }\nbuttons = { mode = 4 }\n')
    with pytest.raises(PinMapError, match=r"pins.toml: hardware.lamps.bar and hardware.buttons.mode both"):
        load_pin_map(bad)
    bad.write_text("[hardware\n")
    with pytest.raises(PinMapError, match="not TOML"):
        load_pin_map(bad)
    bad.write_bytes(b'[hardware]\nbackend = "gpio" # \xff\n')
    with pytest.raises(PinMapError, match=r"pins.toml: not UTF-8 text \(at byte offset 30\)"):
        load_pin_map(bad)
    bad.write_text("a = " + "[" * 100000 + "]" * 100000)
    with pytest.raises(PinMapError, match=r"pins.toml: not TOML \(nested too deeply\)"):
        load_pin_map(bad)
    with pytest.raises(PinMapError, match="cannot read it"):
        load_pin_map(tmp_path / "missing.toml")
    (tmp_path / "empty.toml").write_text("")
    with pytest.raises(PinMapError, match=r"no \[hardware\] table"):
        load_pin_map(tmp_path / "empty.toml")
