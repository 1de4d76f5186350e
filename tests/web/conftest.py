"""A short synthetic match, rendered and calibrated once for all the web tests."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pipgammon.live import Live
from vision.synthetic_game import GameRenderer, GameScript, script_game, write_calibrated

SEED = 3
#: Small enough to render the whole match in a few seconds, large enough to read reliably.
SIZE = (960, 720)


@dataclass(frozen=True)
class Rendered:
    script: GameScript
    frames: Path
    calibration: Any
    start: np.ndarray  # the calibration frame: the starting position, no dice


@pytest.fixture(scope="session")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    script = script_game(SEED, match_to=1, illegal_rate=0.2, tryout_rate=0.0, cocked_rate=0.0, void_rate=0.0,
                         lift_rate=0.0, pause_rate=0.0)
    frames, calibration, _ = write_calibrated(script, tmp_path_factory.mktemp("game"), size=SIZE)
    return Rendered(script, frames, calibration, GameRenderer(SEED, SIZE).start())


def calibrate_from(live: Live, path: Path) -> tuple[bool, str]:
    """What the service's capture button runs (`pipgammon.service.capture_calibration`)."""
    from pipgammon.service import capture_calibration

    calibration, message = capture_calibration(live, path)
    return calibration is not None, message
