"""The pin map: which BCM GPIO drives which lamp, button and buzzer, read from TOML.

`pin_map_from_config` is pure: it takes the already-parsed ``[hardware]`` table and
either returns a `PinMap` or raises one `PinMapError` line naming the key.  Only
`load_pin_map` touches the filesystem.

>>> pins = pin_map_from_config({"buses": ["spi"], "buttons": {"end-turn": 5}})
>>> pins.buttons
(('end-turn', 5),)
>>> pin_map_from_config({"buses": ["spi"], "buzzer": {"pin": 10}})
Traceback (most recent call last):
...
hardware.errors.PinMapError: hardware.buzzer.pin: GPIO 10 is SPI0's MOSI, and 'spi' is in hardware.buses
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from engine.buttons import Button
from engine.lights import LAMPS
from hardware.errors import PinMapError

# The 40-pin header of a Raspberry Pi 4 and 5 brings out BCM GPIO 0..27.  GPIO 0 and 1
# are the HAT ID EEPROM's I2C bus (ID_SD, ID_SC): the firmware probes them at boot, so
# they are never handed out.
FIRST_PIN, LAST_PIN = 2, 27

# The pins each bus takes when it is enabled in config.txt (dtparam=i2c_arm=on, spi=on,
# enable_uart=1).  Wiring a lamp to one of them fights the bus's driver.
BUS_PINS: Mapping[str, Mapping[int, str]] = {
    "i2c": {2: "I2C1's SDA", 3: "I2C1's SCL"},
    "spi": {7: "SPI0's CE1", 8: "SPI0's CE0", 9: "SPI0's MISO", 10: "SPI0's MOSI", 11: "SPI0's SCLK"},
    "uart": {14: "UART0's TXD", 15: "UART0's RXD"},
}


class Backend(Enum):
    """Which `BoardLights` drives the lamps."""

    GPIO = "gpio"  # one GPIO per lamp: a small build
    SHIFT_REGISTER = "595"  # a 74HC595 chain on SPI0
    SIM = "sim"  # the terminal and a picture, no hardware


@dataclass(frozen=True, slots=True)
class PinMap:
    """A validated pin map; its fields are (role, BCM pin) pairs in `LAMPS`/`Button` order."""

    backend: Backend
    buses: frozenset[str]
    lamps: tuple[tuple[str, int], ...]  # direct-GPIO lamps only; unwired lamps stay dark
    buttons: tuple[tuple[str, int], ...]
    buzzer: int | None
    tonal_buzzer: bool  # a passive buzzer that can play tones (TonalBuzzer) or an active one
    pwm: bool  # direct-GPIO lamps can dim (PWMLED); without it a pulse shows as a slow blink
    spi_device: int  # the 595 chain's chip select on SPI0: CE0 or CE1, which also latches it
    output_enable: int | None  # the 595s' /OE, driven as PWM for the whole chain's brightness

    def button_pin(self, button: Button) -> int | None:
        return dict(self.buttons).get(button.value)


_TOP_KEYS = {"backend", "buses", "pwm", "lamps", "buttons", "buzzer", "shift-register"}


def _pin(value: object, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PinMapError(f"{key}: {value!r} is not a BCM GPIO number")
    if not FIRST_PIN <= value <= LAST_PIN:
        raise PinMapError(f"{key}: GPIO {value} is not on the header; use BCM {FIRST_PIN}..{LAST_PIN}")
    return value


def _table(section: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = section.get(name, {})
    if not isinstance(value, Mapping):
        raise PinMapError(f"hardware.{name}: expected a table, got {value!r}")
    return value


def _check_keys(table: Mapping[str, Any], allowed: Collection[str], where: str) -> None:
    for key in table:
        if key not in allowed:
            raise PinMapError(f"{where}.{key}: unknown key; expected one of {', '.join(allowed)}")


def pin_map_from_config(section: Mapping[str, Any]) -> PinMap:
    """Validate the ``[hardware]`` table of the config.  Pure: no I/O.

    Errors name the key (``hardware.buttons.mode``) and, for a pin used twice, both keys.
    """
    _check_keys(section, _TOP_KEYS, "hardware")
    try:
        backend = Backend(section.get("backend", Backend.SHIFT_REGISTER.value))
    except ValueError:
        names = ", ".join(b.value for b in Backend)
        raise PinMapError(f"hardware.backend: {section.get('backend')!r} is not one of {names}") from None
    buses_value = section.get("buses", [])
    if not isinstance(buses_value, list) or not all(isinstance(b, str) for b in buses_value):
        raise PinMapError(f"hardware.buses: expected a list such as [\"i2c\", \"spi\"], got {buses_value!r}")
    for bus in buses_value:
        if bus not in BUS_PINS:
            raise PinMapError(f"hardware.buses: unknown bus {bus!r}; expected some of {', '.join(BUS_PINS)}")
    buses = frozenset(buses_value)
    pwm = section.get("pwm", True)
    if not isinstance(pwm, bool):
        raise PinMapError(f"hardware.pwm: expected true or false, got {pwm!r}")

    used: dict[int, str] = {}  # pin -> the key that took it first

    def claim(value: object, key: str) -> int:
        pin = _pin(value, key)
        if pin in used:
            raise PinMapError(f"{used[pin]} and {key} both use GPIO {pin}")
        for bus in sorted(buses):
            if pin in BUS_PINS[bus]:
                raise PinMapError(
                    f"{key}: GPIO {pin} is {BUS_PINS[bus][pin]}, and {bus!r} is in hardware.buses")
        used[pin] = key
        return pin

    lamps_table = _table(section, "lamps")
    _check_keys(lamps_table, LAMPS, "hardware.lamps")
    lamps = tuple((lamp, claim(lamps_table[lamp], f"hardware.lamps.{lamp}")) for lamp in LAMPS
                  if lamp in lamps_table)

    buttons_table = _table(section, "buttons")
    button_names = [b.value for b in Button]
    _check_keys(buttons_table, button_names, "hardware.buttons")
    buttons = tuple((name, claim(buttons_table[name], f"hardware.buttons.{name}")) for name in button_names
                    if name in buttons_table)

    buzzer_table = _table(section, "buzzer")
    _check_keys(buzzer_table, {"pin", "tonal"}, "hardware.buzzer")
    buzzer = claim(buzzer_table["pin"], "hardware.buzzer.pin") if "pin" in buzzer_table else None
    tonal = buzzer_table.get("tonal", True)
    if not isinstance(tonal, bool):
        raise PinMapError(f"hardware.buzzer.tonal: expected true or false, got {tonal!r}")

    chain = _table(section, "shift-register")
    _check_keys(chain, {"device", "oe"}, "hardware.shift-register")
    device = chain.get("device", 0)
    if type(device) is not int or device not in (0, 1):  # 1.0 == 1 and True == 1: neither is a device
        raise PinMapError(f"hardware.shift-register.device: {device!r} is not SPI0's CE0 (0) or CE1 (1)")
    oe = claim(chain["oe"], "hardware.shift-register.oe") if "oe" in chain else None
    if backend is Backend.SHIFT_REGISTER and "spi" not in buses:
        raise PinMapError("hardware.buses: the 595 backend drives SPI0, so 'spi' must be in hardware.buses")
    return PinMap(backend, buses, lamps, buttons, buzzer, tonal, pwm, device, oe)


def load_pin_map(path: Path) -> PinMap:
    """Read ``[hardware]`` from a TOML file; errors name the file."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PinMapError(f"{path}: cannot read it ({err.strerror})") from err
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise PinMapError(f"{path}: not UTF-8 text (at byte offset {err.start})") from None
    except tomllib.TOMLDecodeError as err:
        raise PinMapError(f"{path}: not TOML ({err})") from err
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise PinMapError(f"{path}: not TOML (nested too deeply)") from None
    section = document.get("hardware")
    if not isinstance(section, Mapping):
        raise PinMapError(f"{path}: no [hardware] table")
    try:
        return pin_map_from_config(section)
    except PinMapError as err:
        raise PinMapError(f"{path}: {err}") from None


# The defaults, the same on a Pi 4 and a Pi 5: both have the same 40-pin header and BCM
# numbering, with hardware PWM on 12/18 (PWM0) and 13/19 (PWM1).  gpiozero picks lgpio on
# both (the Pi 5's RP1 has no RPi.GPIO support).  Kept in step with pins.example.toml.
DEFAULT_CONFIG: Mapping[str, Any] = {
    "backend": "595",
    "buses": ["i2c", "spi"],
    "buttons": {"end-turn": 5, "take-back": 6, "mode": 16},
    "buzzer": {"pin": 13, "tonal": True},
    "shift-register": {"device": 0, "oe": 12},
}
DEFAULT_PIN_MAP = pin_map_from_config(DEFAULT_CONFIG)
