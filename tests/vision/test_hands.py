"""Hands over the board: the two hand networks on real photos, on rendered hands and boards, and
a photo with a hand read `occluded`."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import synthetic
from vision.hands import (
    ANCHORS,
    HandConfig,
    HandModelError,
    confirm,
    find_palms,
    hands_in,
    hands_over,
    near,
)
from vision.images import load
from vision.observation import observe_corners
from vision.view import PLACE_CENTRES, PLACES, board_matrix

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


def test_real_fingers_are_a_hand_where_they_are_and_other_real_photos_show_none() -> None:
    photo = load(FINGERS)
    hands = hands_in(photo)
    assert len(hands) == 1 and hands[0].presence > 0.9
    x, y = hands[0].centre
    assert x < 260 and y > 480, hands[0]  # the fingers, not the die in the middle of the photo
    for other in sorted(DICE_PHOTOS.glob("*.jpg"))[:12]:
        assert hands_in(load(other)) == (), other.name


def test_the_landmark_model_sees_no_hand_round_palms_proposed_where_there_is_none() -> None:
    """Asked for palms scored down to 0.05, the detector proposes some on dice photos with no
    hand; cropped and turned round them, the landmark model sees no hand, and it sees the
    fingers' hand surely."""
    asked = 0
    for name in ("IMG_20191208_111246.jpg", "IMG_20191208_111352.jpg", "IMG_20191208_111446.jpg"):
        photo = load(DICE_PHOTOS / name)
        proposed = find_palms(photo, 0.05)
        assert proposed and all(palm.score < 0.3 for palm in proposed), name
        assert all(confirm(photo, palm).presence < 0.1 for palm in proposed), name
        asked += len(proposed)
    assert asked >= 5
    photo = load(FINGERS)
    assert confirm(photo, find_palms(photo, 0.3)[0]).presence > 0.9


def test_a_palm_counts_over_the_playing_area_or_reaching_into_it() -> None:
    """The photo asked is the whole photo each time (the playing area grown by its margin);
    the fingers' palm, about 85 px a side, is centred about 600 px down, and the thumb's tip,
    the highest of its fingertips, lies about 561 px down."""
    photo = load(FINGERS)

    def down_to(bottom: float) -> np.ndarray:
        return np.array([[0, 20], [640, 20], [640, bottom], [0, bottom]], np.float64)

    (palm,) = hands_over(photo, down_to(640))  # over the playing area
    assert len(palm.tips) == 5 and all(x < 260 and 540 < y < 680 for x, y in palm.tips), palm.tips
    assert min(y for _, y in palm.tips) == pytest.approx(561, abs=8)
    assert len(hands_over(photo, down_to(590))) == 1  # the palm outside by a seventh of its side
    assert len(hands_over(photo, down_to(560))) == 1  # the palm by half its side, the thumb at the edge
    assert hands_over(photo, down_to(520)) == ()  # every fingertip outside by 40 px: beside the board


@pytest.mark.parametrize("seed", [141, 173])
def test_a_hand_resting_beside_the_playing_area_with_its_fingers_on_it_is_over_it(seed: int) -> None:
    """Rendered hands whose palms lie outside the playing area by most of a palm's side, on
    the board's frame, with fingers reaching in over the checkers: the reader's covered places
    missed such hands, and the palm's centre alone put them beside the board."""
    frame, truth = rendered(seed, hand=True)
    (palm,) = hands_over(frame, truth.corners)
    area = np.asarray(truth.corners, np.float32).reshape(-1, 1, 2)
    assert cv2.pointPolygonTest(area, palm.centre, True) < -palm.side / 2
    x, y = max(palm.tips, key=lambda tip: cv2.pointPolygonTest(area, tip, True))
    assert cv2.pointPolygonTest(area, (x, y), True) > 10
    assert truth.hand is not None and truth.hand[int(y), int(x)]  # a finger the renderer drew
    seen = observe_corners(frame, truth.corners)
    assert seen.status == "occluded" and seen.reading.reason.startswith("a hand over the board near point ")


@pytest.mark.parametrize("seed", [60, 73, 82])
def test_a_rendered_hand_is_found_and_a_photo_with_it_is_occluded(seed: int) -> None:
    """The renderer's hand has a palm, fingers and a thumb: the networks, trained on real hands,
    find it (19 of the checker benchmark's 30: bench/hands.py)."""
    frame, truth = rendered(seed, hand=True)
    assert truth.occluded
    palms = hands_over(frame, truth.corners)
    assert len(palms) == 1 and palms[0].presence >= HandConfig().min_presence
    seen = observe_corners(frame, truth.corners)
    assert seen.status == "occluded" and seen.dice == ()
    assert seen.reading.reason.startswith("a hand over the board near ")
    assert observe_corners(frame, truth.corners, hands=False).status != "occluded"


def test_clear_rendered_boards_show_no_hand() -> None:
    for seed in range(5):
        frame, truth = rendered(seed, hand=False)
        assert hands_over(frame, truth.corners) == (), seed


def test_a_hand_is_named_by_the_point_under_it() -> None:
    frame, truth = rendered(82, hand=True)
    (palm,) = hands_over(frame, truth.corners)
    name = near(palm, truth.corners)
    assert name.startswith("point ") or name == "the bar"
    named = [i for i, place in enumerate(PLACES)
             if (place.on_bar and name == "the bar") or f"point {place.point}" == name]
    to_frame = np.linalg.inv(board_matrix(truth.corners))
    centres = cv2.perspectiveTransform(PLACE_CENTRES[named].reshape(-1, 1, 2).astype(np.float64), to_frame)
    gaps = np.hypot(*(centres.reshape(-1, 2) - palm.centre).T)
    assert gaps.min() < palm.side  # a place of the point named lies under the palm
    assert truth.hand is not None and truth.hand[int(palm.centre[1]), int(palm.centre[0])]


def test_two_threads_asking_at_once_get_what_each_would_alone() -> None:
    """The service's loop and the dashboard's calibration may ask the networks at the same time."""
    from concurrent.futures import ThreadPoolExecutor

    photos = [load(FINGERS), load(DICE_PHOTOS / "IMG_20191208_111246.jpg")]
    alone = [hands_in(photo, HandConfig(min_score=0.05, min_presence=0.0)) for photo in photos]
    every = HandConfig(min_score=0.05, min_presence=0.0)
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(lambda i: hands_in(photos[i % 2], every), range(16)))
    assert all(result == alone[i % 2] for i, result in enumerate(together))


def test_a_missing_or_broken_hand_network_is_a_clear_error(tmp_path: Path) -> None:
    picture = np.zeros((240, 320, 3), np.uint8)
    with pytest.raises(HandModelError, match="missing: reinstall pipgammon"):
        find_palms(picture, 0.5, data=tmp_path)
    (tmp_path / "palm_detection_full.tflite").write_bytes(b"not a model")
    with pytest.raises(HandModelError, match="cannot be loaded"):
        find_palms(picture, 0.5, data=tmp_path)
