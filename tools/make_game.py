"""Write a synthetic game (engine self-play with injected errors) to disk, for `pipgammon replay`.

    python tools/make_game.py --seed 7 --variant standard --match-to 3 --out /tmp/game7 [--video]
        [--check [--show]] [--opening starter-rolls] [--setup "W 19:5 21:5 24:5 | B 1:5 3:5 6:5"]

Writes OUT/start.png (the calibration frame), OUT/frames/00001.jpg ... (one per still
moment, with OUT/frames/buttons.jsonl), OUT/truth.jsonl (the events the referee must emit,
``frame`` naming the still) and OUT/script.txt (every beat, for reading).  ``--video`` also
writes OUT/game.avi (MJPG, every frame incl. hands and tumbling dice) with
game.start.png, game.truth.jsonl and game.buttons.jsonl beside it (frames by index).
``--check`` calibrates on start.png, reads every still with vision and prints how many read
exactly as their truth (`vision.synthetic_game.reads_as`).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.scene import Scene
from vision.synthetic_game import (
    SUPPORTED,
    Motion,
    Press,
    ScriptError,
    Still,
    script_game,
    write_stills,
    write_video,
)


def describe(script) -> str:  # type: ignore[no-untyped-def]
    """One line per beat: still number, note, scene; motions and presses as arrows."""
    lines = []
    number = 0
    for i, beat in enumerate(script.beats):
        if isinstance(beat, Still):
            number += 1
            scene = beat.scene
            lines.append(f"{i:5d} still {number:05d} {beat.note:24s} points={list(scene.points)} "
                         f"bar={list(scene.bar)} dice={list(scene.dice)} cube={scene.cube}")
        elif isinstance(beat, Motion):
            lines.append(f"{i:5d}   ~ {beat.kind} ({beat.frames} frames)")
        elif isinstance(beat, Press):
            lines.append(f"{i:5d}   ! {beat.button}")
    for truth in script.truth:
        lines.append(f"truth @{truth.beat}: {truth.event.to_json()}")
    return "\n".join(lines) + "\n"


def check(out: Path, script, show: bool = False) -> Counter[str]:  # type: ignore[no-untyped-def]
    """Read every still of a written game with vision: counts of ``exact`` stills, of all
    ``stills``, and of each way a read went wrong (a still can go wrong in several)."""
    import cv2

    from vision.calibration import calibrate
    from vision.observation import observe
    from vision.outline import find_corners
    from vision.synthetic_game import reads_as

    start = cv2.imread(str(out / "start.png"))
    calibration = calibrate(start, find_corners(start))
    stills = [script.beats[i] for i in script.stills]
    found: Counter[str] = Counter()
    for number, beat in enumerate(stills, start=1):
        frame = cv2.imread(str(out / "frames" / f"{number:05d}.jpg"))
        seen = observe(frame, calibration)
        scene, truth = seen.scene(), beat.scene
        found["stills"] += 1
        if seen.status not in ("ok", "cocked"):
            found[f"status {seen.status}"] += 1
        elif reads_as(scene, truth):
            found["exact"] += 1
            continue
        else:
            if not reads_as(Scene(scene.points, scene.bar, truth.dice, scene.stacked, truth.cube), truth):
                found["checkers"] += 1
            if len(scene.dice) != len(truth.dice):
                found["dice missed or extra"] += 1
            elif scene.dice != truth.dice:
                cocked = [d[2] for d in scene.dice] != [d[2] for d in truth.dice]
                found["dice cocked flag" if cocked else "dice value or colour"] += 1
            if scene.cube != truth.cube:
                found["cube"] += 1
        if show:
            print(f"  {number:05d} ({beat.note}) {seen.status}: read {scene}\n        truth {truth}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--variant", default="standard", help=f"one of {', '.join(SUPPORTED)}")
    parser.add_argument("--match-to", type=int, default=1)
    parser.add_argument("--opening", default="one-die-each", choices=("one-die-each", "starter-rolls"))
    parser.add_argument("--illegal-rate", type=float, default=0.1)
    parser.add_argument("--no-cube", action="store_true", help="nobody doubles")
    parser.add_argument("--setup", help="a set-up for the first game, as position text (Eureka)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--video", action="store_true", help="also every frame as OUT/game.avi")
    parser.add_argument("--check", action="store_true", help="read the stills with vision and compare")
    parser.add_argument("--show", action="store_true", help="with --check: print every still read wrong")
    args = parser.parse_args(argv)
    try:
        script = script_game(args.seed, variant=args.variant, match_to=args.match_to, opening=args.opening,
                             illegal_rate=args.illegal_rate, cube=not args.no_cube, setup=args.setup)
    except ScriptError as err:
        print(f"make_game: {err}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "script.txt").write_text(describe(script))
    began = time.perf_counter()
    write_stills(script, args.out)
    stills = len(script.stills)
    ms = (time.perf_counter() - began) * 1000 / max(stills, 1)
    print(f"{args.out}: {stills} stills ({ms:.0f} ms each), {len(script.truth)} truth events, "
          f"injected {dict(sorted(script.counts.items()))}")
    if args.video:
        began = time.perf_counter()
        write_video(script, args.out / "game.avi")
        frames = sum(b.hold if isinstance(b, Still) else b.frames for b in script.beats
                     if not isinstance(b, Press))
        print(f"{args.out / 'game.avi'}: {frames} frames "
              f"({(time.perf_counter() - began) * 1000 / frames:.0f} ms each)")
    if args.check:
        found = check(args.out, script, show=args.show)
        exact, total = found.pop("exact", 0), found.pop("stills")
        print(f"vision reads {exact} of {total} stills exactly ({100 * exact / max(total, 1):.1f} %); "
              f"wrong: {dict(found.most_common())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
