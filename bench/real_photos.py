"""Score corners mode on real photographs against labels written by looking at them.

    python bench/real_photos.py FOLDER [--labels bench/data/real_boards.json]

``FOLDER`` holds the images; the labels (written by looking at each photo) are a list of
``{"image", "corners": [[x, y] x 4], "points": [24 ints], "bar": {"white", "black"}, "notes",
"source"}`` (corners TL, TR, BR, BL with point 13 at TL; lighter checkers positive), and
``"tuned_on": false`` on the photos labelled after corners mode's rules were tuned on the
others: their figures are printed apart too, as the honest ones.  The
photos are not in the repository: they are frames of tournament streams and a Wikipedia
photo kept in a GPL project, whose licence does not clearly cover them.  Each label's
``source`` says where to fetch its photo.  For a labelled start position the
outline finder and calibration are tried too.  Prints per image the points
read wrong, then exact frames, per-point and bar accuracy and the median time; then the
points and bars as `pipgammon read --corners` reads them: a photo with a hand over the board
`occluded` (`vision.hands`), the dice found first on the others.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from engine.position import Position
from vision.calibration import CalibrationError, calibrate
from vision.corners import read_corners
from vision.images import ImageError, load
from vision.observation import observe_corners
from vision.outline import OutlineError, find_corners

START = [Position.start().at(p) for p in range(1, 25)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--labels", type=Path, default=Path(__file__).parent / "data" / "real_boards.json")
    args = parser.parse_args()
    labels = json.loads(args.labels.read_text())
    exact = points_right = bars_right = 0
    unseen = {"photos": 0, "exact": 0, "points": 0, "bars": 0}  # the photos never tuned on
    times = []
    # As `pipgammon read --corners` reads: a photo with a hand over the board is `occluded`; else
    # the dice first, and no checker under a flat one.
    cli_points = cli_bars = found_dice = 0
    occluded: list[str] = []
    for label in labels:
        name = label["image"]
        try:
            frame = load(args.folder / name)
        except ImageError as err:
            print(f"{name}: {err}")
            continue
        reading = read_corners(frame, np.array(label["corners"], np.float64))
        times.append(reading.ms)
        truth = label["points"]
        wrong = [(p + 1, reading.points[p], truth[p]) for p in range(24) if reading.points[p] != truth[p]]
        bar = (label["bar"]["white"], label["bar"]["black"])
        points_right += 24 - len(wrong)
        bars_right += reading.bar == bar
        exact += not wrong and reading.bar == bar
        if not label.get("tuned_on", True):
            unseen["photos"] += 1
            unseen["exact"] += not wrong and reading.bar == bar
            unseen["points"] += 24 - len(wrong)
            unseen["bars"] += reading.bar == bar
        print(f"{name}: {24 - len(wrong)}/24 points right"
              + (f"; wrong (point, read, truth): {wrong}" if wrong else "")
              + ("" if reading.bar == bar else f"; bar read {reading.bar}, truth {bar}"))
        seen = observe_corners(frame, np.array(label["corners"], np.float64))
        if seen.status == "occluded":
            occluded.append(name)
            print(f"{name}: read `occluded`: {seen.reading.reason}")
        else:
            cli_points += sum(int(seen.reading.points[p] == truth[p]) for p in range(24))
            cli_bars += seen.reading.bar == bar
            found_dice += len(seen.dice)
        if truth == START:
            try:
                calibrate(frame, find_corners(frame))
                print(f"{name}: the outline was found and the start position calibrated")
            except (OutlineError, CalibrationError) as err:
                print(f"{name}: calibration from the photo alone refused: {err}")
    count = len(times)
    print(f"exact frames {exact}/{count}; points right {points_right}/{24 * count} "
          f"({100 * points_right / max(1, 24 * count):.1f} %); bar right {bars_right}/{count}; "
          f"median {statistics.median(times):.1f} ms per image")
    if unseen["photos"]:
        share = 100 * unseen["points"] / (24 * unseen["photos"])
        print(f"of them never tuned on: exact frames {unseen['exact']}/{unseen['photos']}; points right "
              f"{unseen['points']}/{24 * unseen['photos']} ({share:.1f} %); "
              f"bar right {unseen['bars']}/{unseen['photos']}")
    read = count - len(occluded)
    print(f"as `pipgammon read --corners` reads, hands looked for and the dice read first: "
          f"{len(occluded)} photos `occluded` ({', '.join(name[:2] for name in occluded) or 'none'}); "
          f"on the {read} others, points right {cli_points}/{24 * read} "
          f"({100 * cli_points / max(1, 24 * read):.1f} %), bar right {cli_bars}/{read}; "
          f"{found_dice} dice found (the labels do not list dice)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
