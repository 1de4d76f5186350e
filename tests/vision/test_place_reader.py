"""The place reader: its patches, and what it reads of a rendered board's places."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from engine.position import Position
from tests.vision.conftest import Setup
from vision.place_reader import SIDE, patches, read_places
from vision.templates import BLACK, EMPTY, WHITE, labels_for
from vision.view import BAR_START, CANONICAL, canonical, place_index


def test_a_patch_has_its_points_edge_at_the_top_in_either_half() -> None:
    """A bright bar drawn across the view just inside each half's rim shows at the top of the
    patches of slot 1 of a top point and of a bottom one alike."""
    view = np.zeros((550, 690, 3), np.uint8)
    for point in (3, 22):
        y = int(CANONICAL.centres[place_index(point, 0)][1])
        rim = y - 20 if point > 12 else y + 20
        view[rim - 2:rim + 3] = 255
    for point in (3, 22):
        patch = patches(view, CANONICAL, [place_index(point, 0)])[0]
        assert patch.shape == (SIDE, SIDE, 3)
        rows = patch.mean(axis=(1, 2))
        assert rows[: SIDE // 2].max() > 50 and rows[SIDE // 2:].max() == 0, (point, rows)


def test_only_points_places_are_read() -> None:
    view = np.zeros((550, 690, 3), np.uint8)
    with pytest.raises(ValueError, match="points' places"):
        patches(view, CANONICAL, [BAR_START])
    assert read_places(view, CANONICAL, []).shape == (0, 3)


@pytest.mark.parametrize(("seed", "size"), [(31, 1.0), (40, 0.85)])
def test_the_reader_reads_a_rendered_boards_places(setup_factory: Callable[..., Setup], seed: int,
                                                   size: float) -> None:
    """Every point's places of a fresh board (and one of smaller checkers) as rendered: nearly all
    read as they hold, and no checker read where there is none with any confidence."""
    setup = setup_factory(seed, checker_size=size)
    position = Position.from_text("W 1:2 4:1 12:5 17:3 19:4 | B 24:2 21:1 13:5 8:3 6:4")
    frame, _ = setup.frame(position)
    view = canonical(frame, setup.calibration.corners)
    probabilities = read_places(view, setup.calibration.layout, np.arange(BAR_START))
    truth = labels_for(position)[:BAR_START]
    assert (probabilities.argmax(axis=1) == truth).mean() >= 0.99
    assert probabilities[truth == EMPTY][:, [WHITE, BLACK]].max() < 0.9
