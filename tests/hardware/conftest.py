"""gpiozero's own mock pins, one fresh factory per test (STYLE.md 8)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """Plain mock pins: on/off only, as on a build without PWM."""
    factory = MockFactory()
    yield factory
    factory.reset()
    factory.close()


@pytest.fixture
def pwm_factory() -> Iterator[MockFactory]:
    """Mock pins that record PWM duty cycles and frequencies."""
    factory = MockFactory(pin_class=MockPWMPin)
    yield factory
    factory.reset()
    factory.close()


History = Callable[[MockFactory, int], list[float]]


@pytest.fixture
def history() -> History:
    """A pin's whole state history; gpiozero records a state only when it changes."""

    def states(factory: MockFactory, pin: int) -> list[float]:
        return [float(state.state) for state in factory.pin(pin).states]

    return states
