"""Train the slot model (vision/slot_model.py) on synthetic frames, and save its weights.

    python tools/train_slot_model.py --setups 200 --frames 10 -o vision/data/slot_model.npz
    python tools/train_slot_model.py --mode corners --setups 200 --frames 10 -o vision/data/corners_model.npz

Set-ups use seeds from 1,000,000 up, which neither the tests nor bench/vision.py use.
Each set-up is a board, a mount and a lamp: one calibration frame of the start
position, then frames of random scenes under changing light, read with corners
that are a little off (as a detected outline is) but the same for every frame.
A third of the frames have a hand over the board: the places it hides are
labelled COVERED.
Half the set-ups borrow every look from another place, as the calibration's
self-check does, so the model knows both.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.position import Position
from vision import synthetic
from vision.corners import observe_corners
from vision.corners import templates as corner_templates
from vision.slot_model import SlotModel
from vision.templates import COVERED, Templates, covered_places, labels_for
from vision.view import canonical, observe

SEED_BASE = 1_000_000


def setup_samples(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    seed, frames = args
    rng = random.Random(SEED_BASE + seed)
    style = synthetic.Style.random(rng, hand=False)
    mount = synthetic.camera(style, rng)
    image, truth = synthetic.render(Position.start(), rng, style=style, mount=mount)
    corners = truth.corners + np.array([[rng.gauss(0, 3), rng.gauss(0, 3)] for _ in range(4)])
    view = canonical(image, corners)
    # Half the set-ups borrow every look from other places, as the calibration's self-check does.
    templates = Templates.learn(observe(view)[2],
                                labels_for(Position.start()), borrow_all=rng.random() < 0.5)
    inputs, labels = [], []
    for _ in range(frames):
        lit = dataclasses.replace(style, brightness=style.brightness * rng.uniform(0.85, 1.15),
                                  hand=rng.random() < 0.3)
        position = synthetic.random_scene(rng, most=rng.choice((5, 5, 5, 7)))
        frame, truth = synthetic.render(position, rng, style=lit, mount=mount)
        view = canonical(frame, corners)
        inputs.append(templates.inputs(observe(view)[2]))
        labels.append(_labels(position, truth, corners))
    return np.concatenate(inputs), np.concatenate(labels)


def _labels(position: Position, truth: synthetic.Truth, corners: np.ndarray) -> np.ndarray:
    """What every place shows: its checker or none, or COVERED where a hand hides it."""
    labels = labels_for(position)
    if truth.hand is not None:
        labels[covered_places(truth.hand, corners)] = COVERED
    return labels


def corner_samples(args: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Corners mode: every frame its own board (two in five with checkers of any two colours),
    read from its true corners a little off."""
    seed, frames = args
    rng = random.Random(SEED_BASE + 500_000 + seed)
    inputs, labels = [], []
    for _ in range(frames):
        position = synthetic.random_scene(rng, most=rng.choice((5, 5, 5, 7)))
        style = synthetic.Style.random(rng, hand=False, any_colours=rng.random() < 0.4)
        frame, truth = synthetic.render(position, rng, style=style)
        corners = truth.corners + np.array([[rng.gauss(0, 3), rng.gauss(0, 3)] for _ in range(4)])
        small, middle, described = observe_corners(frame, corners)
        inputs.append(corner_templates(small, middle, described).inputs(described))
        labels.append(labels_for(position))
    return np.concatenate(inputs), np.concatenate(labels)


def train(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int) -> SlotModel:
    """Plain Adam on cross-entropy, mini-batches of 512."""
    gen = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    xs = ((x - mean) / scale).astype(np.float32)
    n, d = xs.shape
    classes = int(y.max()) + 1
    params = [gen.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32), np.zeros(hidden, np.float32),
              gen.normal(0, np.sqrt(1 / hidden), (hidden, classes)).astype(np.float32),
              np.zeros(classes, np.float32)]
    moments = [(np.zeros_like(p), np.zeros_like(p)) for p in params]
    step, rate, decay = 0, 1e-3, 1e-4
    for epoch in range(epochs):
        order = gen.permutation(n)
        loss_sum = 0.0
        for start in range(0, n, 512):
            batch = order[start:start + 512]
            xb, yb = xs[batch], y[batch]
            w1, b1, w2, b2 = params
            pre = xb @ w1 + b1
            h = np.maximum(pre, 0)
            logits = h @ w2 + b2
            logits -= logits.max(axis=1, keepdims=True)
            p = np.exp(logits)
            p /= p.sum(axis=1, keepdims=True)
            loss_sum += float(-np.log(p[np.arange(len(yb)), yb] + 1e-9).sum())
            grad = p
            grad[np.arange(len(yb)), yb] -= 1
            grad /= len(yb)
            gw2 = h.T @ grad + decay * w2
            gb2 = grad.sum(axis=0)
            gh = grad @ w2.T
            gh[pre <= 0] = 0
            gw1 = xb.T @ gh + decay * w1
            gb1 = gh.sum(axis=0)
            step += 1
            for i, g in enumerate((gw1, gb1, gw2, gb2)):
                m, v = moments[i]
                m *= 0.9
                m += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                params[i] -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if epoch == epochs * 2 // 3:
            rate /= 5
        print(f"epoch {epoch + 1}: loss {loss_sum / n:.5f}", flush=True)
    w1, b1, w2, b2 = params
    return SlotModel(mean.astype(np.float32), scale.astype(np.float32), (w1, b1), (w2, b2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", type=int, default=240)
    parser.add_argument("--frames", type=int, default=12)
    parser.add_argument("--hidden", type=int, default=48)
    parser.add_argument("--epochs", type=int, default=18)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--mode", choices=("calibrated", "corners"), default="calibrated",
                        help="the model for reading with a calibration, or for corners mode")
    parser.add_argument("-o", "--output", type=Path, default=Path("vision/data/slot_model.npz"))
    args = parser.parse_args()
    started = time.perf_counter()
    with Pool(args.jobs) as pool:
        source = setup_samples if args.mode == "calibrated" else corner_samples
        parts = pool.map(source, [(seed, args.frames) for seed in range(args.setups)])
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    took = time.perf_counter() - started
    print(f"{len(y)} places from {args.setups * args.frames} frames in {took:.0f} s; "
          f"{np.bincount(y, minlength=4).tolist()} empty/white/black/covered", flush=True)
    model = train(x, y, args.hidden, args.epochs, seed=1)
    predicted = model.probabilities(x).argmax(axis=1)
    print(f"training error {np.mean(predicted != y):.5f}")
    model.save(args.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
