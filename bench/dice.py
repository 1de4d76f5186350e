"""Score `pipgammon dice` on labelled real photos.

    python bench/dice.py                                  # the shipped networks, every photo
    python bench/dice.py --models /tmp/dice --folds 5     # held-out folds from tools/train_dice.py
    python bench/dice.py --crop 32 --synthetic 0          # the photos read by the board's reader
    python bench/dice.py --synthetic 0 --games DIR        # every roll of bench/referee.py's kept games
    python bench/dice.py --synthetic 30 --runtimes        # ONNX Runtime against OpenCV's dnn, timed
    python bench/dice.py --synthetic 30 --view            # the detector on the board's view or box, timed
    python bench/dice.py --synthetic 30 --int8            # the board's reader in 8 bits or in floats, timed
    python bench/dice.py --synthetic 60 --games DIR --try "board_sure=0.95"   # against other settings

With ``--folds K`` the folder holds ``fold0 .. fold{K-1}``, each trained without the photos
i with i mod K == fold, and each photo is scored by the networks that never saw it: the
figures a new board can expect.  Without it the shipped networks score every photo,
which they were trained on, so those figures are only a check that nothing broke.

Printed: detection recall and precision (a detection matches a labelled die when its
centre lies within 0.4 die sizes of the label's, one to one), value accuracy on the
matched dice, value accuracy of the reader alone on the labelled boxes, the share of
all labelled dice found *and* read right, and the time per photo.

``--games DIR`` reads the dice of every roll in the games `bench/referee.py --keep DIR`
rendered (the frame where the script's truth says the roll lies still), through
`pipgammon read`'s whole path with the game's calibration: the dice in context, on
points, beside checkers, under the game's light, as the referee gets them.

``--try "FIELD=VALUE ..."`` (repeatable) reads the synthetic boards and the games with
`vision.dice.DiceConfig`'s fields changed too, beside the shipped settings: on the boards frame by
frame in one process, alternating which reads first, with each way's median time and the paired
median difference; on the games, each way's rolls read right.  A value is a Python literal
(0.9, None, (1.0, 1.15), "opencv").
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.events import Event
from engine.player import Player
from vision import synthetic
from vision.dice import (
    CROP,
    DATA,
    PHOTO_CROP,
    READERS,
    CubeOnBoard,
    DiceConfig,
    Die,
    DieColour,
    crop_die,
    find_dice,
    on_board,
    read_crops,
)

PHOTOS = Path(__file__).resolve().parent / "data" / "real-dice"


Truth = tuple[float, float, float, int]  # a labelled die: centre x, y, size (its box's longer side), value


def labelled_dice(photos: Path, corrected: bool = False) -> list[tuple[str, list[Truth]]]:
    """The photos' file names and labelled dice, by file name.  ``corrected``: with the values
    of ``corrections.json`` (dice whose published label is wrong beyond doubt, each with its
    reason), where there is one."""
    entries = sorted(json.loads((photos / "labels.json").read_text()), key=lambda e: e["file"])
    fixes: dict[tuple[str, tuple[float, ...]], int] = {}
    path = photos / "corrections.json"
    if corrected and path.is_file():
        for fix in json.loads(path.read_text()):
            fixes[(fix["file"], tuple(fix["box"]))] = int(fix["value"])
    used = set()
    out = []
    for entry in entries:
        dice = []
        for d in entry["dice"]:
            key = (entry["file"], (d["xmin"], d["ymin"], d["xmax"], d["ymax"]))
            used.add(key)
            dice.append(
                (
                    (d["xmin"] + d["xmax"]) / 2,
                    (d["ymin"] + d["ymax"]) / 2,
                    max(d["xmax"] - d["xmin"], d["ymax"] - d["ymin"]),
                    fixes.get(key, int(d["value"])),
                )
            )
        out.append((entry["file"], dice))
    if unknown := set(fixes) - used:
        raise ValueError(f"{path}: no labelled die with file and box {sorted(unknown)[0]}")
    return out


def score(photos: Path, models_for: dict[int, Path], folds: int, config: DiceConfig,
          corrected: bool = False) -> dict[str, float]:
    labels = labelled_dice(photos, corrected)
    truth_n = found = read_right = boxes_right = detections = photos_n = 0
    plain = plain_right = 0  # dice whose face reads white or black: the Classic Line's kinds
    times: list[float] = []
    confusions: list[str] = []
    for i, (name, truth) in enumerate(labels):
        if i % folds not in models_for:
            continue
        models = models_for[i % folds]
        photos_n += 1
        image = cv2.imread(str(photos / "images" / name))
        start = time.perf_counter()
        dice = find_dice(image, config, models)
        times.append((time.perf_counter() - start) * 1000)
        detections += len(dice)
        truth_n += len(truth)
        free = list(dice)
        for cx, cy, size, value in truth:
            near = [d for d in free if np.hypot(d.centre[0] - cx, d.centre[1] - cy) < 0.4 * size]
            if not near:
                confusions.append(f"{name}: missed a {value} at ({cx:.0f}, {cy:.0f})")
                continue
            best = min(near, key=lambda d: np.hypot(d.centre[0] - cx, d.centre[1] - cy))
            free.remove(best)
            found += 1
            read_right += best.value == value
            if best.colour is not DieColour.OTHER:
                plain += 1
                plain_right += best.value == value
            if best.value != value:
                confusions.append(f"{name}: read a {value} as {best.value} at ({cx:.0f}, {cy:.0f})")
        for d in free:
            confusions.append(
                f"{name}: a die where there is none at {tuple(round(c) for c in d.centre)}"
            )
        crops = np.stack([crop_die(image, (cx, cy), size, config.crop) for cx, cy, size, _ in truth])
        values = read_crops(crops, models, config.mirrored)[:, 1:7].argmax(axis=1) + 1
        boxes_right += int(sum(int(v) == t[3] for v, t in zip(values, truth, strict=True)))
    for line in confusions:
        print("  " + line)
    return {
        "photos": photos_n,
        "dice": truth_n,
        "recall": found / truth_n,
        "precision": found / max(1, detections),
        "value_of_found": read_right / max(1, found),
        "value_of_plain": plain_right / max(1, plain),
        "plain": plain,
        "value_on_labelled_boxes": boxes_right / truth_n,
        "found_and_right": read_right / truth_n,
        "median_ms": statistics.median(times),
        "p95_ms": float(np.percentile(times, 95)),
    }


def synthetic_board(seed: int, size: tuple[int, int]) -> tuple[np.ndarray, synthetic.Truth, CubeOnBoard]:
    """A board from vision.synthetic with two dice of one colour thrown on it, one in four
    cocked, and the cube (centred showing 64, or on a player's side showing any face); what it
    shows, and the cube as `on_board` should give it."""
    rng = random.Random(seed)
    dice, cube = synthetic.random_roll(rng)
    position = synthetic.random_scene(rng)  # before the style: the seeds' boards stay those of earlier runs
    style = synthetic.Style.random(rng, hand=False)
    frame, truth = synthetic.render(position, rng, size=size, dice=dice, style=style, cube=cube)
    return frame, truth, CubeOnBoard.showing(cube.face, cube.place)


def compare_configs(frames: int, size: tuple[int, int], configs: dict[str, DiceConfig],
                    first_seed: int = 3_000_000) -> dict[str, float]:
    """The dice and cube of the synthetic boards read with each of two ``configs`` in turn, frame
    by frame in one process (so both see the same load), which reads first alternating (so neither
    always finds the frame as the other left the cache): the median ms of each, the median of the second's
    time less the first's on the same frame (``paired``), and the frames where they found different
    dice (value, colour, cocked, or centres a quarter of a side apart) or a different cube."""
    ms: dict[str, list[float]] = {name: [] for name in configs}
    differ = 0
    for seed in range(first_seed, first_seed + frames):
        frame, truth, _ = synthetic_board(seed, size)
        seen: dict[str, tuple[tuple[Die, ...], CubeOnBoard | None]] = {}
        for name in list(configs) if seed % 2 == 0 else list(reversed(configs)):
            start = time.perf_counter()
            seen[name] = on_board(frame, truth.corners, configs[name])
            ms[name].append((time.perf_counter() - start) * 1000)
        (one, one_cube), (other, other_cube) = (seen[name] for name in configs)
        differ += one_cube != other_cube or len(one) != len(other) or any(
            (a.value, a.colour, a.cocked) != (b.value, b.colour, b.cocked)
            or np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) > (a.box[2] - a.box[0]) / 4
            for a, b in zip(one, other, strict=True))
    first, second = (np.array(v) for v in ms.values())
    return ({"frames": frames, "differ": differ, "paired": float(np.median(second - first))}
            | {k: statistics.median(v) for k, v in ms.items()})


#: How `parse_setting` names the kind of value a field wants.
KINDS = {bool: "True or False", int: "a whole number", float: "a number", str: "a quoted string",
         tuple: "a tuple, like (1.0,)"}


def parse_setting(text: str) -> dict[str, object]:
    """``--try``'s "FIELD=VALUE ..." as `DiceConfig` fields and values; ValueError saying what is
    wrong with which pair."""
    fields = {f.name: f for f in dataclasses.fields(DiceConfig)}
    changes: dict[str, object] = {}
    for pair in text.split():
        name, equals, value = pair.partition("=")
        if not equals or not name or not value:
            raise ValueError(f"{pair!r}: want FIELD=VALUE, like board_sure=0.9")
        if name not in fields:
            raise ValueError(f"{pair!r}: DiceConfig has no field {name!r} (it has {', '.join(fields)})")
        try:
            changes[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise ValueError(f"{pair!r}: {value!r} is not a Python literal (a number, None, a tuple, "
                             "a quoted string)") from None
        default = getattr(DiceConfig(), name)
        wanted = (int, float) if isinstance(default, float) else type(default)
        if default is not None and changes[name] is not None and not isinstance(changes[name], wanted):
            kind = KINDS.get(type(default), type(default).__name__)
            raise ValueError(f"{pair!r}: {name} is {kind}, like {default!r}")
    if not changes:
        raise ValueError(f"{text!r}: no FIELD=VALUE pair")
    return changes


def score_synthetic(frames: int, size: tuple[int, int], models: Path, config: DiceConfig,
                    first_seed: int = 3_000_000) -> dict[str, float]:
    """The boards of `synthetic_board` (seeds from 3,000,000: no test shares them) read by
    `on_board`, against what they show."""
    flat = flat_right = flat_cocked = cocked = cocked_flagged = false = cube_right = 0
    times = []
    for seed in range(first_seed, first_seed + frames):
        frame, truth, want_cube = synthetic_board(seed, size)
        start = time.perf_counter()
        seen, seen_cube = on_board(frame, truth.corners, config, models)
        times.append((time.perf_counter() - start) * 1000)
        cube_right += seen_cube == want_cube
        if seen_cube != want_cube:
            print(f"  seed {seed}: the cube {want_cube} read as {seen_cube}")
        pairs, found = synthetic.pair_dice(truth.dice, seen)
        for die, hit in pairs:
            if die.cocked:
                cocked += 1
                cocked_flagged += bool(hit and hit.cocked)
            else:
                flat += 1
                flat_cocked += bool(hit and hit.cocked)
                want = "white" if die.colour is Player.WHITE else "black"
                flat_right += bool(
                    hit and hit.value == die.value and not hit.cocked and hit.colour.value == want
                )
        false += len(found)
        for d in found:
            print(f"  seed {seed}: a {d.colour.value} {d.value} where there is no die, at "
                  f"{tuple(round(c) for c in d.centre)}")
    return {
        "frames": frames,
        "flat": flat,
        "flat_right": flat_right / max(1, flat),
        "flat_cocked": flat_cocked,
        "cocked": cocked,
        "cocked_flagged": cocked_flagged / max(1, cocked),
        "false": false,
        "cube_right": cube_right / frames,
        "median_ms": statistics.median(times),
        "p95_ms": float(np.percentile(times, 95)),
    }


def score_games(work: Path, config: DiceConfig | None = None) -> dict[str, int]:
    """The dice of every thrown roll in the kept games of `bench/referee.py` against the truth,
    read with ``config`` if not the shipped settings."""
    from vision.calibration import Calibration
    from vision.images import load
    from vision.observation import observe

    counts = dict.fromkeys(("games", "flat rolls", "flat rolls right", "flat dice", "flat dice right",
                            "flat rolls called cocked", "cocked rolls", "cocked rolls flagged"), 0)
    for folder in sorted(work.glob("game-*")):
        if not (folder / "truth.jsonl").is_file() or not (folder / "calibration.json").is_file():
            continue
        counts["games"] += 1
        calibration = Calibration.from_json((folder / "calibration.json").read_text())
        for line in (folder / "truth.jsonl").read_text().splitlines():
            event = Event.from_json(json.loads(line))
            if event.type not in ("roll", "reroll") or event.details.get("source", "dice") != "dice":
                continue
            seen = observe(load(folder / "frames" / event.frame), calibration, dice_config=config)
            mine = [d for d in seen.dice if d.colour.value == event["player"]]
            called = any(d.cocked for d in mine)
            if event.type == "reroll":
                counts["cocked rolls"] += 1
                counts["cocked rolls flagged"] += called
                if not called:
                    print(f"  {folder.name} {event.frame}: {event['player']} cocked roll {event['dice']} "
                          f"not flagged, read {sorted((d.value, round(d.confidence, 2)) for d in mine)}")
                continue
            want = sorted(event["dice"])
            flat = [d.value for d in mine if not d.cocked]
            right = sum(min(flat.count(v), want.count(v)) for v in set(want))
            counts["flat rolls"] += 1
            counts["flat dice"] += 2
            counts["flat dice right"] += right
            counts["flat rolls right"] += right == 2 and len(mine) == 2
            counts["flat rolls called cocked"] += called
            if not (right == 2 and len(mine) == 2):
                print(f"  {folder.name} {event.frame}: {event['player']} {want} read "
                      f"{sorted((d.value, d.cocked, round(d.confidence, 2)) for d in mine)}")
    return counts


def print_synthetic(syn: dict[str, float]) -> None:
    print(f"  flat dice read right (value, colour) {syn['flat_right']:.2%} of {syn['flat']}   (target 100%)")
    print(f"  flat dice taken for cocked: {syn['flat_cocked']}   (target 0)")
    print(f"  cocked dice flagged  {syn['cocked_flagged']:.2%} of {syn['cocked']}   (target 100%)")
    print(f"  dice where there are none: {syn['false']}")
    print(f"  cube value and position right: {syn['cube_right']:.2%}   (target 100%)")
    ms = f"median {syn['median_ms']:.1f} ms, p95 {syn['p95_ms']:.1f} ms"
    print(f"  dice per frame (playing area only): {ms}")


def print_side_by_side(both: dict[str, float], ways: dict[str, DiceConfig]) -> None:
    one, other = ways
    print(f"  the same side by side, frame by frame: {one} median {both[one]:.2f} ms, {other} "
          f"{both[other]:.2f} ms (paired median {both['paired']:+.2f} ms); "
          f"frames read differently {both['differ']} of {both['frames']}")


def print_games(games: dict[str, int]) -> None:
    print(f"  {games['games']} games: flat rolls read right (both dice, none called cocked) "
          f"{games['flat rolls right']} of {games['flat rolls']}; flat dice read right "
          f"{games['flat dice right']} of {games['flat dice']}")
    print(f"  flat rolls with a die called cocked: {games['flat rolls called cocked']}   (target 0)")
    print(f"  cocked rolls flagged {games['cocked rolls flagged']} of {games['cocked rolls']}   (target all)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--photos", type=Path, default=PHOTOS)
    parser.add_argument("--crop", type=int, choices=sorted(READERS), default=PHOTO_CROP,
                        help=f"the reader the photos are read with, by its input side ({CROP}: the board's)")
    parser.add_argument("--models", type=Path, default=DATA)
    parser.add_argument("--folds", type=int, default=0, help="score held-out folds fold0..fold{K-1}")
    parser.add_argument("--only-fold", type=int, help="with --folds: score that fold's photos only")
    parser.add_argument(
        "--synthetic",
        type=int,
        default=40,
        metavar="N",
        help="also score N synthetic board frames per resolution (0: none)",
    )
    parser.add_argument("--first-seed", type=int, default=3_000_000,
                        help="the synthetic boards' first seed (5000000: the tuning boards)")
    parser.add_argument("--no-mirror", action="store_true",
                        help="the reader reads the four quarter turns only, not their mirror images too")
    parser.add_argument("--corrected", action="store_true",
                        help="score with the values of corrections.json (label errors beyond doubt)")
    parser.add_argument("--games", type=Path, metavar="DIR",
                        help="also read every roll of the games bench/referee.py kept in DIR "
                             "(with the networks in vision/data, as `pipgammon read` does)")
    parser.add_argument("--runtimes", action="store_true",
                        help="with --synthetic: also read each board with ONNX Runtime and with OpenCV's dnn "
                             "in turn, and print both times")
    parser.add_argument("--view", action="store_true",
                        help="with --synthetic: also read each board with the detector on the board's "
                             "upright view and on the frame's box round it in turn, and print both times")
    parser.add_argument("--int8", action="store_true",
                        help="with --synthetic: also read each board with the board reader's 8-bit copy and "
                             "with the float reader in turn, and print both times")
    parser.add_argument("--try", dest="tries", action="append", default=[], metavar='"FIELD=VALUE ..."',
                        help="also read the synthetic boards (side by side, timed) and the games with these "
                             "DiceConfig fields changed, beside the shipped settings (repeatable)")
    parser.add_argument("--spans", default="1", metavar="K,K",
                        help="read each die from crops cut at these multiples of its size (DiceConfig.spans)")
    args = parser.parse_args(argv)
    if args.games and not args.games.is_dir():
        parser.error(f"--games {args.games}: not a folder (want bench/referee.py's --keep DIR)")
    if (args.runtimes or args.view or args.int8) and not args.synthetic:
        parser.error("--runtimes, --view and --int8 time the synthetic boards: give --synthetic N with N > 0")
    if args.tries and not (args.synthetic or args.games):
        parser.error("--try compares settings on the synthetic boards or the games: "
                     "give --synthetic N or --games DIR")
    tries: dict[str, dict[str, object]] = {}
    for text in args.tries:
        try:
            tries[text] = parse_setting(text)
        except ValueError as error:
            parser.error(f"--try {error}")
    if not (args.photos / "labels.json").is_file():
        parser.error(f"--photos {args.photos}: no labels.json there (want images/ and labels.json)")
    cv2.setNumThreads(1)
    if args.folds:
        folds = [args.only_fold] if args.only_fold is not None else range(args.folds)
        models_for = {k: args.models / f"fold{k}" for k in folds}
        missing = [str(p) for p in models_for.values() if not p.is_dir()]
        if missing:
            parser.error(
                f"no trained fold in {', '.join(missing)}: run tools/train_dice.py --folds {args.folds}"
            )
    else:
        models_for = {0: args.models}
    try:
        spans = tuple(float(k) for k in args.spans.split(","))
    except ValueError:
        parser.error(f"--spans {args.spans}: want numbers separated by commas, like 1,1.15")
    config = DiceConfig(mirrored=not args.no_mirror, spans=spans, crop=args.crop)
    result = score(args.photos, models_for, max(1, args.folds), config, args.corrected)
    kind = f"held-out, {args.folds} folds" if args.folds else "shipped networks, photos seen in training"
    labels = "corrected labels" if args.corrected else "labels as published"
    print(f"real dice photos ({kind}, {labels}): {result['photos']} photos, {result['dice']} dice")
    print(f"  detection recall     {result['recall']:.2%}   precision {result['precision']:.2%}")
    print(f"  value, found dice    {result['value_of_found']:.2%}   (target >= 99.5%)")
    print(f"  value, labelled box  {result['value_on_labelled_boxes']:.2%}")
    print(f"  value, found dice with a white or black face (the Classic Line's kinds, {result['plain']}): "
          f"{result['value_of_plain']:.2%}")
    print(f"  found and read right {result['found_and_right']:.2%}")
    ms = f"median {result['median_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms"
    print(f"  time per 640x640 photo: {ms} (one thread)")
    models = next(iter(models_for.values()))
    for size in ((1280, 960), (2028, 1520)) if args.synthetic else ():
        print(f"synthetic boards {size[0]}x{size[1]}: {args.synthetic} frames")
        print_synthetic(score_synthetic(args.synthetic, size, models, config, args.first_seed))
        if args.runtimes:
            both = compare_configs(args.synthetic, size, {runtime: replace(config, runtime=runtime)
                                                          for runtime in ("onnxruntime", "opencv")},
                                   args.first_seed)
            fast, stand_in = both["onnxruntime"], both["opencv"]
            print(f"  the same side by side, frame by frame: ONNX Runtime median {fast:.1f} ms, "
                  f"OpenCV's dnn {stand_in:.1f} ms ({stand_in / fast:.1f} times); "
                  f"frames read differently {both['differ']} of {both['frames']}")
        side_by_side = {  # flag: each way's name and config
            "view": {"the detector on the board's upright view": config,
                     "on the frame's box round it": replace(config, on_view=False)},
            "int8": {"the board's reader in 8 bits": config, "in floats": replace(config, int8=False)},
        }
        for flag, ways in side_by_side.items():
            if getattr(args, flag):
                print_side_by_side(compare_configs(args.synthetic, size, ways, args.first_seed), ways)
        for text, changes in tries.items():
            tried = replace(config, **changes)
            print(f"  with --try {text!r}:")
            print_synthetic(score_synthetic(args.synthetic, size, models, tried, args.first_seed))
            ways = {"the shipped settings": config, "those": tried}
            print_side_by_side(compare_configs(args.synthetic, size, ways, args.first_seed), ways)
    if args.games:
        print(f"the referee bench's games in {args.games}:")
        print_games(score_games(args.games))
        for text, changes in tries.items():
            print(f"  with --try {text!r}:")
            print_games(score_games(args.games, replace(DiceConfig(), **changes)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
