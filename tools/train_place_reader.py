"""Train the place reader (vision/place_reader.py) on rendered frames, and save it as ONNX.

    pip install torch==2.13.0 onnx      # training only
    python tools/train_place_reader.py --setups 400 --frames 12 --cache /tmp/places.npz \
        -o vision/data/place_reader.onnx

Each set-up is rendered as `bench/vision.py` renders its own: a board, a mount and a lamp,
calibrated by `pipgammon calibrate`'s code from its start frame (so the places lie where a
real calibration puts them, corners and checker pitch measured), then frames of random scenes
under changing light, one in five with smaller checkers.  Every point place of every frame
gives a patch (`vision.place_reader.patches`) and what it holds.  Set-ups use seeds from
1,200,000 up, which neither the tests, `bench/vision.py` nor the slot model's training use.
The last ``--held-out`` set-ups (by seed) are kept out of training and scored.  Rendering takes
some 15 minutes for 400 set-ups on two cores, training 12,000 steps as long; ``--cache`` keeps
the patches, so training again skips the rendering.
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
from vision.calibration import CalibrationError, calibrate
from vision.dice import normalise
from vision.outline import find_corners
from vision.place_reader import CLASSES, SIDE, patches
from vision.slot_model import SlotModel
from vision.templates import labels_for
from vision.view import BAR_START, canonical, observe

SEED_BASE = 1_200_000
SMALL_SHARE = 0.2


def setup_patches(seed: int, frames: int) -> dict[str, np.ndarray]:
    """One set-up's patches (frames * 120, SIDE, SIDE, 3), what each place holds, its slot and
    the slot model's probabilities for it (for choosing where the reader is asked)."""
    rng = random.Random(SEED_BASE + seed)
    style = synthetic.Style.random(rng, hand=False)
    if random.Random(-(SEED_BASE + seed)).random() < SMALL_SHARE:
        style = dataclasses.replace(style, checker_size=rng.uniform(0.8, 0.95))
    mount = synthetic.camera(style, rng, (1280, 960))
    image, _ = synthetic.render(Position.start(), rng, size=(1280, 960), style=style, mount=mount)
    try:
        calibration = calibrate(image, find_corners(image))
    except (CalibrationError, ValueError):
        return {}
    model = SlotModel.load()
    places = np.arange(BAR_START)
    out: dict[str, list[np.ndarray]] = {"x": [], "y": [], "slot": [], "p": []}
    for _ in range(frames):
        lit = dataclasses.replace(style, brightness=style.brightness * rng.uniform(0.85, 1.15))
        position = synthetic.random_scene(rng, most=rng.choice((5, 5, 5, 7)))
        frame, _ = synthetic.render(position, rng, size=(1280, 960), style=lit, mount=mount)
        view = canonical(frame, calibration.corners)
        described = observe(view, calibration.layout)[2]
        probabilities = model.probabilities(calibration.templates.inputs(described))
        out["x"].append(patches(view, calibration.layout, places))
        out["y"].append(labels_for(position)[:BAR_START])
        out["slot"].append(places % 5)
        out["p"].append(probabilities[:BAR_START])
    return {key: np.concatenate(value) for key, value in out.items()}


def render(first: int, setups: int, frames: int, jobs: int) -> dict[str, np.ndarray]:
    started = time.time()
    parts = []
    with Pool(jobs) as pool:
        # In seed order, so the held-out set-ups and the batches drawn are the same on every run.
        for done, part in enumerate(pool.imap(_one, [(first + s, frames) for s in range(setups)])):
            if part:
                parts.append(part)
            if done % 20 == 19:
                print(f"  {done + 1}/{setups} set-ups rendered, {time.time() - started:.0f} s", flush=True)
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def _one(args: tuple[int, int]) -> dict[str, np.ndarray]:
    return setup_patches(*args)


def train(x: np.ndarray, y: np.ndarray, steps: int, seed: int, width: int) -> object:
    """A small network, Adam on cross-entropy, batches of 256; each patch flipped left-right at
    random (a checker is as likely either side of its place; the edge stays at the top)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    gen = np.random.default_rng(seed)
    net = nn.Sequential(
        nn.Conv2d(3, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),            # 16
        nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),    # 8
        nn.Conv2d(2 * width, 4 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),  # 4
        nn.Flatten(), nn.Linear(16 * 4 * width, 64), nn.ReLU(), nn.Linear(64, CLASSES))
    optimiser = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-5)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=2e-3, total_steps=steps)
    loss_fn = nn.CrossEntropyLoss()
    started = time.time()
    for step in range(steps):
        batch = gen.integers(0, len(x), 256)
        images = x[batch]
        flip = gen.random(len(batch)) < 0.5
        images[flip] = images[flip][:, :, ::-1]
        inputs = torch.from_numpy(normalise(images))  # as the shipped reader's input is made
        loss = loss_fn(net(inputs), torch.from_numpy(y[batch]))
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        if step % 1000 == 999:
            print(f"  step {step + 1}: loss {loss.item():.4f}, {time.time() - started:.0f} s", flush=True)
    return net


def export(net: object, path: Path) -> None:
    import torch

    net.eval()  # type: ignore[attr-defined]
    torch.onnx.export(net, torch.zeros(1, 3, SIDE, SIDE), str(path), input_names=["patches"],
                      output_names=["logits"], dynamic_axes={"patches": {0: "n"}, "logits": {0: "n"}},
                      opset_version=17, dynamo=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setups", type=int, default=300)
    parser.add_argument("--first", type=int, default=0, help="the first set-up (seed 1,200,000 plus this)")
    parser.add_argument("--frames", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", type=Path, action="append", default=[],
                        help="patch files: those that exist are read, a missing one is rendered into")
    parser.add_argument("--steps", type=int, default=12000)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--held-out", type=int, default=30, help="set-ups' worth of patches kept to score")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path)
    args = parser.parse_args()
    parts = []
    missing = [path for path in args.cache if not path.exists()]
    for path in args.cache:
        if path.exists():
            with np.load(path) as data:
                parts.append({key: data[key] for key in data.files})
    if missing or not args.cache:
        data = render(args.first, args.setups, args.frames, args.jobs)
        if missing:
            np.savez(missing[0], **data)
        parts.append(data)
    data = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    held = args.held_out * args.frames * BAR_START
    x, y = data["x"][:-held], data["y"][:-held]
    print(f"{len(x)} patches to learn, {held} held out", flush=True)
    net = train(x, y, args.steps, args.seed, args.width)
    score(net, {key: value[-held:] for key, value in data.items()})
    if args.output:
        export(net, args.output)
        print(f"saved {args.output}")


def score(net: object, data: dict[str, np.ndarray]) -> None:
    """Places misread on the held-out set-ups: all, at the point's edge, and where the slot model
    reads under 0.99 (where `vision.reading.looked_again` asks the reader), beside the slot model's."""
    import torch

    net.eval()  # type: ignore[attr-defined]
    with torch.no_grad():
        read = np.concatenate([net(torch.from_numpy(normalise(data["x"][i:i + 4096]))).argmax(1).numpy()  # type: ignore[operator]
                               for i in range(0, len(data["x"]), 4096)])
    wrong = read != data["y"]
    model = data["p"].argmax(1) != data["y"]
    edge = data["slot"] == 0
    unsure = data["p"].max(1) < 0.99
    print(f"held out: places misread {wrong.sum()} of {len(wrong)} (slot model {model.sum()}); "
          f"at the edge {wrong[edge].sum()} of {edge.sum()} (slot model {model[edge].sum()}); "
          f"where the slot model is under 0.99: {wrong[unsure].sum()} of {unsure.sum()} "
          f"(slot model {model[unsure].sum()})")


if __name__ == "__main__":
    main()
