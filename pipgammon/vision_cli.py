"""The camera commands: ``calibrate`` and ``read`` (CONTRACT.md, "Vision").

OpenCV is imported only when one of them runs, so the rules commands stay quick.
Every fault in an image, a calibration file or the corners becomes one
:class:`UsageError` line naming the file.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import IO, Any

import numpy as np


class VisionUsageError(ValueError):
    """Bad input to a camera command; the message is printed as is."""


def parse_corners(text: str) -> np.ndarray:
    """``TLx,TLy,TRx,TRy,BRx,BRy,BLx,BLy`` as a (4, 2) array, checked for what needs no image:
    finite numbers within a frame's reach, going round a convex area in order.  Each image then
    checks the rest (`corners_on_frame`).  Before the order was checked here, corners whose sides
    cross read a frame as "ok" with no checker on the board, and `calibrate --corners` named the
    checker colours, not the corners."""
    from vision.calibration import NOT_IN_ORDER, goes_round_in_order
    from vision.images import MAX_PIXELS, MIN_SIDE

    parts = text.replace(" ", "").split(",")
    try:
        values = [float(p) for p in parts]
    except ValueError as err:
        raise VisionUsageError(f"--corners: {text!r} is not 8 numbers separated by commas") from err
    if len(values) != 8:
        raise VisionUsageError(
            f"--corners: want 8 numbers TLx,TLy,TRx,TRy,BRx,BRy,BLx,BLy, got {len(values)}")
    names = [f"{corner}{axis}" for corner in CORNER_NAMES for axis in "xy"]
    bad = [f"{name} is {part}" for name, part, value in zip(names, parts, values, strict=True)
           if not np.isfinite(value)]
    if bad:
        raise VisionUsageError(f"--corners: {', '.join(bad)}: every corner must be a finite number of pixels")
    # No frame pipgammon reads has a longer side (`vision.images`); a corner farther out than that
    # is outside every image, and the area's products would overflow (numpy warned of it).
    reach = (1 + OUTSIDE) * MAX_PIXELS / MIN_SIDE
    far = [f"{name} is {part}" for name, part, value in zip(names, parts, values, strict=True)
           if abs(value) > reach]
    if far:
        raise VisionUsageError(f"--corners: {', '.join(far)}: outside any frame pipgammon reads (a side "
                               f"is at most {MAX_PIXELS // MIN_SIDE} px)")
    corners = np.array(values, np.float64).reshape(4, 2)
    if not goes_round_in_order(corners):
        shown = ", ".join(f"{label} ({x:g}, {y:g})"
                          for label, (x, y) in zip(CORNER_NAMES, corners, strict=True))
        raise VisionUsageError(f"--corners: {shown} {NOT_IN_ORDER}")
    return corners


#: How far a corner may lie outside the image, as a share of its larger side: a corner clicked on
#: the image's edge lands a pixel or two beyond it.
OUTSIDE = 0.01
CORNER_NAMES = ("TL", "TR", "BR", "BL")


def corners_on_frame(corners: np.ndarray, frame: np.ndarray, name: str) -> None:
    """Raise :class:`VisionUsageError` when a corner of ``corners`` lies outside ``frame`` (the
    image ``name``), since the reader would read what lies beyond the image as the board, or when
    they enclose too little of it for a board (`vision.calibration.too_small`)."""
    from vision.calibration import too_small

    height, width = frame.shape[:2]
    slack = OUTSIDE * max(width, height)
    for label, (x, y) in zip(CORNER_NAMES, corners, strict=True):
        if not (-slack <= x <= width - 1 + slack and -slack <= y <= height - 1 + slack):
            raise VisionUsageError(
                f"{name}: --corners: the {label} corner ({x:g}, {y:g}) lies outside the {width}x{height} "
                "image; give the playing area's corners in this image's pixels")
    if small := too_small(corners, (width, height)):
        raise VisionUsageError(f"{name}: --corners {small}")


def cmd_calibrate(args: argparse.Namespace, out: IO[str]) -> int:
    from pipgammon.outputs import OutputError, check_outputs, write_all
    from vision.calibration import CalibrationError, calibrate
    from vision.images import ImageError, load
    from vision.outline import OutlineError, find_corners
    from vision.view import GEOMETRY, in_frame

    corners = parse_corners(args.corners) if args.corners else None
    output = Path(args.output)
    try:
        # As an export's: not over the frame, a folder, a FIFO or a device, and found out first.
        check_outputs({"-o": output}, {"image": Path(args.image)})
    except OutputError as err:
        raise VisionUsageError(f"calibrate: {err}") from err
    try:
        frame = load(Path(args.image))
        if corners is not None:
            corners_on_frame(corners, frame, args.image)
        else:
            corners = find_corners(frame)
        calibration = calibrate(frame, corners)
    except ImageError as err:
        raise VisionUsageError(str(err)) from err
    except (OutlineError, CalibrationError) as err:
        raise VisionUsageError(f"{args.image}: {err}") from err
    try:
        # Whole or not at all: a full disk mid-write would leave the calibration it replaces cut short.
        write_all([("-o", output, calibration.to_json() + "\n")])
    except OutputError as err:
        raise VisionUsageError(f"calibrate {err}: the calibration was not saved") from err
    tl, tr, br, bl = (f"({x:.0f}, {y:.0f})" for x, y in calibration.corners)
    print(f"calibrated {args.image}: playing area TL {tl}, TR {tr}, BR {br}, BL {bl} "
          f"(point 13 at TL, point 1 at BR); saved {args.output}", file=out)
    if calibration.checker != GEOMETRY.checker:
        print(f"the checkers measure {calibration.checker / GEOMETRY.checker:.2f} of a fifth of a triangle's "
              "length: every frame is read with the places laid out for them", file=out)
    if calibration.fittings:
        # The start frame has no dice: what reads as one is the board's own, or a die left on it.
        spots = in_frame(calibration.corners, calibration.fittings)
        where = ", ".join(f"({x:.0f}, {y:.0f})" for x, y in spots)
        print(f"read as dice on the start frame, and taken for the board's own fittings (a hinge, a "
              f"printed logo), so no die is read there: {where}; if a die lay there, take it off "
              "the board and calibrate again", file=out)
    return 0


def cmd_read(args: argparse.Namespace, out: IO[str]) -> int:
    from vision.images import ImageError, load
    from vision.observation import observe, observe_corners

    if bool(args.calibration) == bool(args.corners):
        raise VisionUsageError("read: give exactly one of --calibration FILE or --corners ...")
    calibration = None
    corners = np.zeros((4, 2))
    if args.calibration:
        calibration = _load_calibration(args.calibration)
    else:
        corners = parse_corners(args.corners)
    for name in args.images:
        try:
            frame = load(Path(name))
        except ImageError as err:
            raise VisionUsageError(str(err)) from err
        started = time.perf_counter()
        if calibration is not None:
            seen = observe(frame, calibration, hands=True)
        else:
            corners_on_frame(corners, frame, name)
            seen = observe_corners(frame, corners)
        entry: dict[str, Any] = {"image": name, **seen.to_json()}
        entry["ms"] = round((time.perf_counter() - started) * 1000, 2)
        if args.json:
            print(json.dumps(entry), file=out, flush=True)
        else:
            print(_describe(entry), file=out, flush=True)
    return 0


def cmd_dice(args: argparse.Namespace, out: IO[str]) -> int:
    from vision.dice import timed_find_dice
    from vision.images import ImageError, load

    for name in args.images:
        try:
            frame = load(Path(name))
        except ImageError as err:
            raise VisionUsageError(str(err)) from err
        dice, ms = timed_find_dice(frame)
        if args.json:
            entry = {"image": name, "dice": [die.to_json() for die in dice], "ms": round(ms, 2)}
            print(json.dumps(entry), file=out, flush=True)
        else:
            found = ", ".join(f"{d.colour.value} {d.value}{' (cocked)' if d.cocked else ''}" for d in dice)
            print(f"{name}: {found or 'no dice'}  ({ms:.1f} ms)", file=out, flush=True)
    return 0


def _load_calibration(path: str) -> Any:
    from vision.calibration import Calibration, CalibrationError

    try:
        return Calibration.from_json(Path(path).read_bytes())
    except OSError as err:
        raise VisionUsageError(f"{path}: cannot read it ({err.strerror})") from err
    except CalibrationError as err:
        raise VisionUsageError(f"{path}: {err}") from err


def cmd_camera_check(args: argparse.Namespace, out: IO[str]) -> int:
    """Exit 0 when the mount passes every check, 1 when one fails (the advice says why)."""
    from vision.camera_check import check_camera
    from vision.images import ImageError, load

    calibration = _load_calibration(args.calibration)
    try:
        frame = load(Path(args.image))
    except ImageError as err:
        raise VisionUsageError(str(err)) from err
    if (frame.shape[1], frame.shape[0]) != tuple(calibration.frame_size):
        width, height = calibration.frame_size
        raise VisionUsageError(f"{args.image}: the frame is {frame.shape[1]}x{frame.shape[0]} but "
                               f"{args.calibration} was made at {width}x{height}; calibrate this mount again")
    checks = check_camera(frame, calibration)
    if args.json:
        print(json.dumps({"image": args.image, "ok": all(c.passed for c in checks),
                          "checks": [c.to_json() for c in checks]}), file=out)
    else:
        for c in checks:
            verdict = "ok  " if c.passed else "FAIL"
            print(f"{verdict} {c.name}: {c.value:.3g} (want {c.target}) {c.advice}", file=out)
    return 0 if all(c.passed for c in checks) else 1


CUBE_PLACES = {"center": "in the middle", "white": "on White's side", "black": "on Black's side"}


def _describe(entry: dict[str, Any]) -> str:
    """One line of `pipgammon read`'s text output: what the JSON says, for a person."""
    if entry["status"] in ("occluded", "no-board"):
        return f"{entry['image']}: {entry['status']} - {entry.get('reason', '')}"
    points = " ".join(f"{p}:{c:+d}" for p, c in enumerate(entry["points"], 1) if c)
    parts = [points or "no checker on a point", f"bar W{entry['bar']['white']} B{entry['bar']['black']}"]
    if entry["stacked"]:
        # A second layer is counted as the best estimate; the referee settles it by the rules.
        parts.append("stacked (a second layer, best estimate) on " + ", ".join(map(str, entry["stacked"])))
    dice = ", ".join(f"{d['color']} {d['value']}{' cocked' if d['cocked'] else ''}" for d in entry["dice"])
    parts.append(f"dice {dice}" if dice else "no dice")
    cube = entry["cube"]
    if cube is not None:
        parts.append(f"cube {cube['value']} {CUBE_PLACES.get(cube['position'], cube['position'])}")
    head = f"{entry['image']}: "
    if entry["status"] == "cocked":
        head += "cocked - a die is cocked: both dice are thrown again; "
    return head + "  ".join(parts) + f"  ({entry['ms']:.1f} ms)"


def add_commands(sub: Any) -> None:
    calibrate = sub.add_parser("calibrate", help="learn the board from a frame of the starting position")
    calibrate.add_argument("image")
    calibrate.add_argument("-o", "--output", required=True, metavar="CALIBRATION.json")
    calibrate.add_argument("--corners", metavar="TLx,TLy,TRx,TRy,BRx,BRy,BLx,BLy",
                           help="the playing area's corners in any order round the board, if the outline "
                           "is not found by itself")
    calibrate.set_defaults(run=cmd_calibrate)

    read = sub.add_parser("read", help="read the checkers in frames")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--calibration", metavar="CALIBRATION.json")
    read.add_argument("--corners", metavar="TLx,TLy,TRx,TRy,BRx,BRy,BLx,BLy",
                      help="no calibration: the playing area's corners, point 13 at TL, point 1 at BR")
    read.add_argument("--json", action="store_true", help="one JSON object per image and line")
    read.set_defaults(run=cmd_read)

    dice = sub.add_parser("dice", help="find and read every die in photos, no calibration needed")
    dice.add_argument("images", nargs="+", metavar="IMAGE")
    dice.add_argument("--json", action="store_true", help="one JSON object per image and line")
    dice.set_defaults(run=cmd_dice)

    check = sub.add_parser("camera-check", help="is the mount good enough: pixels per die, focus, glare")
    check.add_argument("image", metavar="IMAGE")
    check.add_argument("--calibration", required=True, metavar="CALIBRATION.json")
    check.add_argument("--json", action="store_true")
    check.set_defaults(run=cmd_camera_check)
