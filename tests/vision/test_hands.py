"""Hands over the board: the palm detector on a real photo, on rendered hands and boards, and
a photo with a hand read `occluded`."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from vision import synthetic
from vision.hands import ANCHORS, HandConfig, HandModelError, find_palms, hand_reading, palms_over
from vision.images import load
from vision.observation import observe_corners

DICE_PHOTOS = Path(__file__).resolve().parents[2] / "bench" / "data" / "real-dice" / "images"
#: A real photo (BSD-3, bench/data/real-dice) of fingers holding a die at its bottom-left edge.
FINGERS = DICE_PHOTOS / "IMG_20191208_112623.jpg"


def rendered(seed: int, hand: bool) -> tuple[np.ndarray, synthetic.Truth]:
    rng = random.Random(seed)
    style = synthetic.Style.random(rng, hand=hand)
    return synthetic.render(synthetic.random_scene(rng), rng, style=style)


def test_the_anchors_are_in_the_networks_output_order() -> None:
    assert ANCHORS.shape == (2016, 2)
    # The 24 x 24 grid, two anchors a cell, row by row; then the 12 x 12 grid, six a cell.
    assert np.allclose(ANCHORS[:3], [[1 / 48, 1 / 48], [1 / 48, 1 / 48], [3 / 48, 1 / 48]])
    assert np.allclose(ANCHORS[2 * 24], [1 / 48, 3 / 48])
    assert np.allclose(ANCHORS[1152:1158], [[1 / 24, 1 / 24]] * 6)
    assert np.allclose(ANCHORS[-1], [23 / 24, 23 / 24])


def test_real_fingers_are_a_palm_where_they_are_and_other_real_photos_show_none() -> None:
    photo = load(FINGERS)
    palms = find_palms(photo, HandConfig().min_score)
    assert len(palms) == 1
    x, y = palms[0].centre
    assert x < 260 and y > 480, palms[0]  # the fingers, not the die in the middle of the photo
    for other in sorted(DICE_PHOTOS.glob("*.jpg"))[:12]:
        assert find_palms(load(other), HandConfig().min_score) == [], other.name


def test_a_palm_counts_over_the_playing_area_or_reaching_into_it() -> None:
    """The photo asked is the whole photo each time (the playing area grown by its margin);
    the fingers' palm, about 85 px a side, is centred about 600 px down."""
    photo = load(FINGERS)

    def down_to(bottom: float) -> np.ndarray:
        return np.array([[0, 20], [640, 20], [640, bottom], [0, bottom]], np.float64)

    assert len(palms_over(photo, down_to(640))) == 1  # over the playing area
    assert len(palms_over(photo, down_to(590))) == 1  # outside by a seventh of its side: reaching in
    assert palms_over(photo, down_to(570)) == ()  # outside by over a third of it: beside the board


@pytest.mark.parametrize("seed", [73, 79, 81])
def test_a_rendered_hand_is_a_palm_and_a_photo_with_it_is_occluded(seed: int) -> None:
    """The renderer's hand has a palm, fingers and a thumb: the detector, trained on real hands,
    sees it (about half of them at least as surely as these: bench/hands.py)."""
    frame, truth = rendered(seed, hand=True)
    assert truth.occluded
    palms = palms_over(frame, truth.corners)
    assert palms and palms[0].score > 0.9
    seen = observe_corners(frame, truth.corners)
    assert seen.status == "occluded" and seen.dice == ()
    assert seen.reading.reason.startswith("a hand over the board: a palm near ")
    assert observe_corners(frame, truth.corners, hands=False).status != "occluded"


def test_clear_rendered_boards_show_no_palm() -> None:
    for seed in range(5):
        frame, truth = rendered(seed, hand=False)
        assert palms_over(frame, truth.corners) == (), seed


def test_the_reason_names_the_point_under_the_palm_and_counts_the_others() -> None:
    frame, truth = rendered(81, hand=True)
    palms = palms_over(frame, truth.corners)
    reading = hand_reading(palms + palms, truth.corners)
    assert reading.status == "occluded" and reading.points == (0,) * 24
    assert "and 1 more" in reading.reason and (" point " in reading.reason or "the bar" in reading.reason)


def test_a_missing_or_broken_palm_model_is_a_clear_error(tmp_path: Path) -> None:
    picture = np.zeros((240, 320, 3), np.uint8)
    with pytest.raises(HandModelError, match="missing: reinstall pipgammon"):
        find_palms(picture, 0.5, path=tmp_path / "gone.tflite")
    broken = tmp_path / "broken.tflite"
    broken.write_bytes(b"not a model")
    with pytest.raises(HandModelError, match="cannot be loaded"):
        find_palms(picture, 0.5, path=broken)
