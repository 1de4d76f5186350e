"""Quantise the board's dice reader to 8-bit integers for ONNX Runtime.

    pip install onnx onnxruntime        # tools only; the shipped file runs on onnxruntime alone
    python tools/quantise_reader.py                     # writes vision/data/dice_reader_int8.onnx

The reader (`vision.dice.READER_FILE`) reads some 80 patches of each frame with a roll and is
most of that frame's time.  Its 8-bit copy (weights per channel, activations per tensor, as
quantise/dequantise pairs) runs about 1.6 times as fast on one core here, which has VNNI
dot-product instructions; 64-bit ARM's NEON has 8-bit kernels in ONNX Runtime too.

The activations' ranges are calibrated on the patches the reader really gets: every batch
`vision.observation.observe` hands it on synthetic frames with a roll, rendered from
``--first-seed`` on (5,100,000 by default, a range no benchmark, tuning board or test uses),
four rolls on each of ``--boards`` boards.  Minimum and maximum ranges, not percentiles: a
die's pips are the brightest or darkest pixels of its patch, and clipping them is what loses
a value.

The patches of ``--check-boards`` further boards are then read by both readers, and how often
their likeliest classes agree is printed with their times, side by side in this process.
Whether the copy reads dice as well is for bench/vision.py, bench/dice.py and the referee
bench's games to say (docs/dice.md).  OpenCV's dnn reads a quantised file differently (a
class in eight disagreed in a trial), so `vision.dice` keeps the float reader for it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import onnxruntime
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)
from onnxruntime.quantization.shape_inference import quant_pre_process

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.dice as dice
from engine.position import Position
from vision import synthetic
from vision.calibration import calibrate
from vision.observation import observe
from vision.outline import find_corners

SIZE = (1280, 960)
BATCH = 64


def reader_batches(first_seed: int, boards: int) -> np.ndarray:
    """Every normalised batch the board's reader gets while `observe` reads four synthetic
    frames with a roll on each of ``boards`` boards, stacked (N, 3, `CROP`, `CROP`)."""
    seen: list[np.ndarray] = []
    run = dice._net

    def recording(path: Path, runtime: str = "") -> dice.Network:
        network = run(path, runtime)
        if path.name != dice.READER_FILE:
            return network

        def read(batch: np.ndarray) -> np.ndarray:
            seen.append(batch.copy())
            return network(batch)
        return read

    # `find_objects` looks the network up by name on each call, so recording it here sees
    # exactly what the product's own path reads, with no hook in vision/.  The float reader
    # routes the patches (which dice are doubtful, where the search looks), so the copy made
    # does not depend on a copy already in the folder.
    dice._net = recording  # type: ignore[assignment]
    quantised = dict(dice.QUANTISED)
    dice.QUANTISED.clear()
    try:
        for seed in range(first_seed, first_seed + boards):
            rng = random.Random(seed)
            style = synthetic.Style.random(rng, hand=False)
            mount = synthetic.camera(style, rng, SIZE)
            image, _ = synthetic.render(Position.start(), rng, size=SIZE, style=style, mount=mount)
            calibration = calibrate(image, find_corners(image))
            for roll in range(4):
                position = synthetic.random_scene(rng, most=5)
                thrown = random.Random(f"{seed} {roll} thrown")
                rolled, cube = synthetic.random_roll(thrown, cocked_share=0.1)
                frame, _ = synthetic.render(position, thrown, size=SIZE, style=style, mount=mount,
                                            dice=rolled, cube=cube)
                observe(frame, calibration)
    finally:
        dice._net = run  # type: ignore[assignment]
        dice.QUANTISED.update(quantised)
    return np.concatenate(seen)


class Patches(CalibrationDataReader):  # type: ignore[misc]
    """The calibration patches, in batches, as ONNX Runtime's calibrator asks for them."""

    def __init__(self, name: str, patches: np.ndarray) -> None:
        self._batches: Iterator[dict[str, np.ndarray]] = iter(
            {name: patches[i:i + BATCH]} for i in range(0, len(patches), BATCH))

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._batches, None)


def session(path: Path) -> tuple[onnxruntime.InferenceSession, str]:
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    options.log_severity_level = 3
    run = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    return run, run.get_inputs()[0].name


def compare(float_path: Path, int8_path: Path, patches: np.ndarray) -> None:
    """Print how often the two readers' likeliest classes agree on ``patches``, and their
    median times a patch in batches of 20, alternating so both see the same machine."""
    readers = {"float": session(float_path), "int8": session(int8_path)}
    outputs = {k: np.concatenate([run.run(None, {name: patches[i:i + BATCH]})[0]
                                  for i in range(0, len(patches), BATCH)])
               for k, (run, name) in readers.items()}
    differ = outputs["float"].argmax(axis=1) != outputs["int8"].argmax(axis=1)
    print(f"likeliest class the same on {1 - differ.mean():.2%} of {len(patches)} patches")
    if differ.any():
        # A patch here is one view of one place; the views of a die are averaged after.
        surest = dice.softmax(outputs["float"][differ].astype(np.float64)).max(axis=1).max()
        print(f"  where they differ, the float reader gave its likeliest class {surest:.2f} at most")
    times: dict[str, list[float]] = {k: [] for k in readers}
    for start in range(0, min(len(patches), 20 * 200), 20):
        for k, (run, name) in readers.items():
            began = time.perf_counter()
            run.run(None, {name: patches[start:start + 20]})
            times[k].append((time.perf_counter() - began) * 1000 / 20)
    print("median ms a patch: " + ", ".join(f"{k} {statistics.median(v):.4f}" for k, v in times.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first-seed", type=int, default=5_100_000)
    parser.add_argument("--boards", type=int, default=25)
    parser.add_argument("--check-boards", type=int, default=10)
    parser.add_argument("--out", type=Path, default=dice.DATA / dice.QUANTISED[dice.READER_FILE])
    args = parser.parse_args(argv)
    if args.boards < 1 or args.check_boards < 1:
        parser.error(f"--boards {args.boards} --check-boards {args.check_boards}: want at least one of each")
    if not args.out.parent.is_dir():
        parser.error(f"--out {args.out}: no folder {args.out.parent}")
    source = dice.DATA / dice.READER_FILE
    began = time.perf_counter()
    patches = reader_batches(args.first_seed, args.boards)
    check = reader_batches(args.first_seed + args.boards, args.check_boards)
    print(f"{len(patches)} calibration and {len(check)} check patches ({time.perf_counter() - began:.0f} s)")
    prepared = args.out.with_suffix(".pre.onnx")
    quant_pre_process(str(source), str(prepared))
    try:
        quantize_static(str(prepared), str(args.out), Patches(session(source)[1], patches),
                        quant_format=QuantFormat.QDQ, per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, calibrate_method=CalibrationMethod.MinMax)
    finally:
        prepared.unlink(missing_ok=True)
    print(f"wrote {args.out}")
    compare(source, args.out, check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
