"""gpiozero's own mock pins, one fresh factory per test (STYLE.md 8)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin


def _installed(pin_class: type[MockPin]) -> Iterator[MockFactory]:
    # Every device here gets its factory passed in, but gpiozero 2.0's software SPI bus
    # builds itself on the *default* factory, so that is the mock too while a test runs.
    factory = MockFactory(pin_class=pin_class)
    previous, Device.pin_factory = Device.pin_factory, factory
    yield factory
    Device.pin_factory = previous
    factory.reset()
    factory.close()


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """Plain mock pins: on/off only, as on a build without PWM."""
    yield from _installed(MockPin)


@pytest.fixture
def pwm_factory() -> Iterator[MockFactory]:
    """Mock pins that record PWM duty cycles and frequencies."""
    yield from _installed(MockPWMPin)


History = Callable[[MockFactory, int], list[float]]


@pytest.fixture
def history() -> History:
    """A pin's whole state history; gpiozero records a state only when it changes."""

    def states(factory: MockFactory, pin: int) -> list[float]:
        return [float(state.state) for state in factory.pin(pin).states]

    return states
