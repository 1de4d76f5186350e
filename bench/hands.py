"""Measure the hand networks that make a photo with a hand over the board `occluded`.

    python bench/hands.py [FOLDER] [--pictures DIR] [--setups 30] [--seed 2000000]

* ``FOLDER`` (left out: this part is skipped) holds the real board photos of
  ``bench/data/real_boards.json`` and ``bench/data/real_hands.json`` (each label's ``source``
  says where to fetch it); the latter says, by looking, which show a hand over the playing area.
  Printed: each photo's best palm over its playing area (the palm detector's score, and the
  landmark model's presence of a hand), the hands caught and the clear photos called `occluded`.
* ``--pictures`` (default: the 200 real dice photos): every picture with a hand found
  anywhere, so that a user can look at them; those ``real_hands.json`` lists as showing a
  hand are marked.  The rest are things taken for a hand.
* Synthetic boards (``--setups`` of the checker benchmark's seeds, ten frames each, the last
  with the renderer's hand and arm): hands found over clear frames, and the rendered hands seen.
* The median and p95 time of `hands_over` per picture (both networks, as a photo is read), on
  the photos and at 1280x960.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision import synthetic
from vision.hands import HandConfig, hands_in, hands_over
from vision.images import ImageError, load

DATA = Path(__file__).parent / "data"


#: Every palm proposed over the board, confirmed or not, to print how sure each stage was.
ALL = HandConfig(min_presence=0.0)


def timed_palms(frame: np.ndarray, corners: np.ndarray, times: list[float]) -> tuple[float, float]:
    """The best palm over the playing area: its detector score and hand presence (0, 0 with
    none proposed), timed."""
    started = time.perf_counter()
    palms = hands_over(frame, corners, ALL)
    times.append((time.perf_counter() - started) * 1000)
    best = max(palms, key=lambda palm: palm.presence, default=None)
    return (0.0, 0.0) if best is None else (best.score, best.presence)


def real_photos(folder: Path, threshold: float, times: list[float]) -> None:
    boards = {label["image"]: label for label in json.loads((DATA / "real_boards.json").read_text())}
    caught = hands = called = clear = 0
    for photo in json.loads((DATA / "real_hands.json").read_text())["photos"]:
        name = photo["image"]
        corners = np.array(photo.get("corners") or boards[name]["corners"], np.float64)
        try:
            frame = load(folder / name)
        except ImageError as err:
            print(f"{name}: {err}")
            continue
        score, presence = timed_palms(frame, corners, times)
        occluded = presence >= threshold
        hands += photo["hand"]
        caught += photo["hand"] and occluded
        clear += not photo["hand"]
        called += not photo["hand"] and occluded
        verdict = ("caught" if occluded else "MISSED") if photo["hand"] else (
            "CALLED OCCLUDED" if occluded else "clear")
        print(f"{name:30s} {'hand ' if photo['hand'] else 'clear'} palm {score:.2f} presence {presence:.3f}  "
              f"{verdict}")
    print(f"real photos: hands over the board caught {caught}/{hands}; "
          f"clear photos called occluded {called}/{clear}")


def pictures(folder: Path, threshold: float, times: list[float]) -> None:
    if not folder.is_dir():
        print(f"{folder}: no such folder of pictures")
        return
    known = set(json.loads((DATA / "real_hands.json").read_text())["pictures_with_a_hand"])
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    flagged = []
    for path in files:
        frame = load(path)
        started = time.perf_counter()
        hands = hands_in(frame)
        times.append((time.perf_counter() - started) * 1000)
        if hands:
            flagged.append(path.name)
            print(f"{path.name}: a hand, sure to {hands[0].presence:.3f}"
                  f"{' (shows a hand)' if path.name in known else ' (NOT a hand, by the labels)'}")
    wrong = [name for name in flagged if name not in known]
    print(f"{len(files)} pictures in {folder}: a hand found in {len(flagged)}, "
          f"{len(flagged) - len(wrong)} of them showing a hand; things taken for a hand: {len(wrong)}")


def synthetic_boards(setups: int, first_seed: int, threshold: float, times: list[float]) -> None:
    clear = false = arms = seen = 0
    for seed in range(first_seed, first_seed + setups):
        rng = random.Random(seed)
        style = synthetic.Style.random(rng, hand=False)
        mount = synthetic.camera(style, rng, (1280, 960))
        for index in range(10):
            hand = index == 9
            lit = dataclasses.replace(style, brightness=style.brightness * rng.uniform(0.85, 1.15), hand=hand)
            frame, truth = synthetic.render(synthetic.random_scene(rng), rng, size=(1280, 960),
                                            style=lit, mount=mount)
            _, presence = timed_palms(frame, truth.corners, times)
            if hand and truth.occluded:
                arms += 1
                seen += presence >= threshold
            elif not hand:
                clear += 1
                false += presence >= threshold
    print(f"synthetic 1280x960 (seeds {first_seed:,} on): clear frames with a hand found over the board "
          f"{false}/{clear}; rendered hands found {seen}/{arms}")


def spread(label: str, times: list[float]) -> None:
    if times:
        ordered = sorted(times)
        print(f"{label}: median {statistics.median(ordered):.1f} ms, "
              f"p95 {ordered[int(0.95 * (len(ordered) - 1))]:.1f} ms over {len(ordered)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, nargs="?", help="the real board photos (the labels' sources)")
    parser.add_argument("--pictures", type=Path, default=DATA / "real-dice" / "images")
    parser.add_argument("--setups", type=int, default=30)
    parser.add_argument("--seed", type=int, default=2_000_000)
    args = parser.parse_args()
    cv2.setNumThreads(1)  # one core, as the checkers' figures are measured
    threshold = HandConfig().min_presence
    print(f"palms proposed from a score of {HandConfig().min_score}; "
          f"a hand counts from a presence of {threshold}")
    photo_ms: list[float] = []
    picture_ms: list[float] = []
    board_ms: list[float] = []
    if args.folder is not None:
        real_photos(args.folder, threshold, photo_ms)
    pictures(args.pictures, threshold, picture_ms)
    synthetic_boards(args.setups, args.seed, threshold, board_ms)
    spread("hands_over, real photos", photo_ms)
    spread("hands_in, whole pictures", picture_ms)
    spread("hands_over, synthetic 1280x960", board_ms)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
