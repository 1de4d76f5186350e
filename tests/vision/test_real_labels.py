"""The real board photos' labels (bench/data/real_boards.json, real_hands.json) are written by
looking; `bench/real_photos.py` and `bench/hands.py` score against them, so a typo would skew
their figures without a word.  Each label must be a board that can be: corners that go round the
playing area as the command line asks, and no more than 15 checkers a side."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision.calibration import goes_round_in_order

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
BOARDS: list[dict[str, Any]] = json.loads((DATA / "real_boards.json").read_text())
HANDS: dict[str, Any] = json.loads((DATA / "real_hands.json").read_text())


def test_every_photo_is_named_once() -> None:
    names = [label["image"] for label in BOARDS]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("label", BOARDS, ids=lambda label: label["image"])
def test_a_label_is_a_board_that_can_be(label: dict[str, Any]) -> None:
    corners = np.asarray(label["corners"], np.float64)
    assert corners.shape == (4, 2)
    assert goes_round_in_order(corners), f"{label['image']}: corners not TL, TR, BR, BL round a convex area"
    points = label["points"]
    assert len(points) == 24 and all(isinstance(count, int) for count in points)
    bar = label["bar"]
    white = sum(count for count in points if count > 0) + bar["white"]
    black = -sum(count for count in points if count < 0) + bar["black"]
    assert white <= 15 and black <= 15, f"{label['image']}: {white} white and {black} black checkers"
    assert label["notes"].strip()
    assert {"repository", "path"} <= set(label["source"]), "each photo says where to fetch it"
    assert isinstance(label.get("tuned_on", True), bool)


def test_every_board_photo_says_whether_a_hand_is_over_it() -> None:
    hands = {photo["image"]: photo for photo in HANDS["photos"]}
    assert {label["image"] for label in BOARDS} <= set(hands)
    for name, photo in hands.items():
        assert isinstance(photo["hand"], bool)
        # The stream frames only real_hands.json lists carry their own corners and source.
        assert name in {label["image"] for label in BOARDS} or {"corners", "source"} <= set(photo)
