"""Fixtures: the real firmware on a pty, and an in-memory link between host and board."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_bridge.simulator import SimulatedBoard


@pytest.fixture
def sim() -> Iterator[SimulatedBoard]:
    with SimulatedBoard() as board:
        yield board
