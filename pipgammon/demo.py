"""`pipgammon demo`, the README's main job: a whole refereed game with no camera, Pi or network.

The sample game is embedded as a seed: engine self-play scripted as the camera sees it
(vision/synthetic_game.py) with tried-and-taken-back moves, a lifted checker, an illegal
play and its correction, a cocked die, a roll out of turn and the cube.  Its frames are
rendered, a calibration is learned from the first one, and then everything runs as on the
table: vision reads each frame, the referee judges (in teaching mode, so the legal moves
light up), the LEDs are simulated, every event is journaled, and the match is exported.

One folder holds it all: the frames, the calibration, the journal, the `.mat`, a picture
per verdict (the camera's frame beside the simulated LEDs) and ``index.html``, which shows
the board as the referee saw it at each turn, with its lights, and the turn log.
"""

from __future__ import annotations

import argparse
import html
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine.events import Event
from engine.lights import PULSE_PERIOD_S, LightPlan
from engine.player import Player
from engine.position import Position
from engine.referee import Mode, OpeningChoice, Referee, RefereeConfig
from engine.scene import Scene
from engine.variants import find_variant
from engine.wording import plural
from pipgammon.gnubg import find_gnubg
from pipgammon.turn_log import SHOWN, describe

#: The embedded sample game: a 1-point standard game with every kind of event in it.
DEMO_SEED = 7
#: The Raspberry Pi HQ camera's binned video mode.
DEMO_SIZE = (2028, 1520)
#: When the pictures draw the LEDs, in seconds after the plan was shown: a pulse at its brightest
#: and a blink on.  A pulse starts dark, so drawn at 0 s a re-roll's amber status lamp looked unlit.
LEDS_AT_S = PULSE_PERIOD_S / 2
#: The file that marks a folder the demo made.  The demo writes only into a new or empty folder,
#: or one with this mark: it once cleared and rewrote any folder it was given (`--out ""` the
#: current one), journal, match and calibration included.
MARK = ".pipgammon-demo"
#: What the demo writes at the top of its folder, cleared before a run: a link there is removed,
#: not written through (`calibration.json` linked to a service's would replace that one).
WRITTEN = ("events.jsonl", "match.mat", "calibration.json", "index.html", "turns.log", "game", "turns")


class DemoUsageError(ValueError):
    """Bad input to `pipgammon demo`; the message is printed as is."""


@dataclass(frozen=True, slots=True)
class Moment:
    event: Event
    status: str
    plan: LightPlan
    position: Position
    scene: Scene | None


def _still_image(frames: Path, name: str) -> Any:
    import cv2

    return cv2.imread(str(frames / name)) if name else None


def _picture(frames: Path, moment: Moment, path: Path) -> None:
    """The camera's frame beside the simulated LEDs, with the log line under them."""
    import cv2
    import numpy as np

    from hardware.sim import render_image

    leds = render_image(moment.plan, LEDS_AT_S)
    camera = _still_image(frames, moment.event.frame)
    height = leds.shape[0]
    if camera is None:
        camera = np.zeros((height, height * 4 // 3, 3), np.uint8)
    camera = cv2.resize(camera, (camera.shape[1] * height // camera.shape[0], height),
                        interpolation=cv2.INTER_AREA)
    strip = np.full((44, camera.shape[1] + leds.shape[1], 3), 24, np.uint8)
    cv2.putText(strip, f"{moment.event.frame}  {describe(moment.event)}"[:110], (12, 29),
                cv2.FONT_HERSHEY_SIMPLEX, 0.7, (235, 235, 235), 1, cv2.LINE_AA)
    cv2.imwrite(str(path), np.vstack([np.hstack([camera, leds]), strip]), [cv2.IMWRITE_JPEG_QUALITY, 85])


def _page(moments: list[Moment], pictures: list[str], mat: Path, title: str) -> str:
    from pipgammon.board_svg import board_svg

    rows = []
    for moment, picture in zip(moments, pictures, strict=True):
        scene = moment.scene
        # Numbered from the side of the player the section's line is about, as their play is written.
        player = moment.event.details.get("player")
        side = Player.from_label(player) if isinstance(player, str) else None
        svg = board_svg(moment.position, moment.plan, dice=scene.dice if scene else (),
                        cube=scene.cube if scene else None, caption=describe(moment.event), side=side)
        css = "illegal" if moment.event.type == "illegal" else ""
        rows.append(f'<section class="{css}"><h2>{html.escape(describe(moment.event))}</h2>'
                    f'<p class="status">{html.escape(moment.status)} &middot; frame '
                    f'{html.escape(moment.event.frame)}</p><div class="pair">{svg}'
                    f'<img src="{html.escape(picture)}" alt="camera frame and LEDs" loading="lazy"></div>'
                    f"</section>")
    return (f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>"
            "<style>body{font:15px sans-serif;background:#1b1b1b;color:#eee;margin:2em}"
            "section{border-top:1px solid #444;padding:1em 0}.illegal h2{color:#f66}"
            ".pair{display:flex;gap:1em;flex-wrap:wrap;align-items:flex-start}.pair img{max-width:760px}"
            ".status{color:#aaa}a{color:#8cf}</style>"
            f"<h1>{html.escape(title)}</h1><p>The match as GNU Backgammon imports it: "
            f'<a href="{html.escape(mat.name)}">{html.escape(mat.name)}</a>. Each section is one moment the '
            "referee decided something: the board as the referee knows it, with the LEDs it lights "
            "(blinking and pulsing as on the table; its points numbered from the side of the player "
            "the line is about, as their plays are written), and the camera frame beside the simulated "
            "LEDs.</p>"
            + "".join(rows) + "</html>")


def _gnubg_check(mat: Path) -> str:
    """What GNU Backgammon says of the .mat, when it is installed (run as a separate program)."""
    gnubg = find_gnubg()
    if gnubg is None:
        return "gnubg is not installed: the .mat was not test-imported"
    try:
        done = subprocess.run([gnubg, "-t", "-q", "-r"], input=f'import mat "{mat}"\nshow score\n',
                              capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"gnubg could not be run ({err})"
    said = [line for line in done.stdout.splitlines() if "score" in line.lower() or "match" in line.lower()]
    return "gnubg imported it: " + (said[-1].strip() if said else "(no score printed)")


def _listing(names: list[str]) -> str:
    shown = ", ".join(names[:3])
    return shown if len(names) <= 3 else f"{shown} and {len(names) - 3} more"


def demo_folder(out: str) -> Path:
    """The folder ``--out`` names, made or found fit for the demo: with its mark, and without the
    files a run before wrote at its top (`WRITTEN`).  Refused (`DemoUsageError`) when it holds
    anything and has no mark: the demo never removes or replaces a file it did not write."""
    if not out:
        # Most likely an unset variable: the current folder is nobody's demo folder.
        raise DemoUsageError("demo --out '': an empty name: give the folder for the demo's output")
    folder = Path(os.path.realpath(out))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        mark = folder / MARK
        held = sorted(path.name for path in folder.iterdir())
    except OSError as err:
        # mkdir says "File exists" or "Not a directory" when a file holds the name or a parent's.
        in_the_way = isinstance(err, FileExistsError | NotADirectoryError)
        why = "a file is in the way" if in_the_way else err.strerror
        raise DemoUsageError(f"demo --out {out}: cannot make the folder ({why})") from err
    if held and not (mark.is_file() and not mark.is_symlink()):
        raise DemoUsageError(f"demo --out {out}: {folder} holds {_listing(held)} and is not a folder the "
                             f"demo made (no {MARK} in it): give a new or empty folder")
    try:
        if not held:
            mark.write_text("Made by `pipgammon demo`: the next `pipgammon demo --out` here replaces "
                            "what the demo wrote in it.\n")
        for name in WRITTEN:
            path = folder / name
            if path.is_symlink() or path.is_file():
                path.unlink()
    except OSError as err:
        raise DemoUsageError(f"demo --out {out}: cannot clear the last demo's files in {folder} "
                             f"({err.strerror}: {err.filename})") from err
    return folder


def cmd_demo(args: argparse.Namespace, out: IO[str]) -> int:
    from hardware.sim import SimLights
    from pipgammon.replay import Replay, export
    from vision.synthetic_game import script_game, write_calibrated

    began = time.perf_counter()
    folder = demo_folder(args.out)
    script = script_game(args.seed, match_to=1, illegal_rate=0.15, tryout_rate=0.4, cocked_rate=0.06,
                         void_rate=0.05, button_rate=0.1)
    print(f"rendering the sample game (seed {args.seed}): {plural(len(script.stills), 'still moment')} ...",
          file=out, flush=True)
    frames, calibration, _ = write_calibrated(script, folder / "game", size=DEMO_SIZE)
    (folder / "calibration.json").write_text(calibration.to_json() + "\n")
    config = RefereeConfig(variant=find_variant("standard"), match_to=1, opening=OpeningChoice.AUTO,
                           mode=Mode.TEACH)
    lights = SimLights()
    moments: list[Moment] = []
    log: list[str] = []

    def seen(event: Event, referee: Referee) -> None:
        lights.show(referee.lights)
        if event.type in SHOWN:
            moments.append(Moment(event, referee.status, referee.lights, referee.match.game.position,
                                  replay.last_scene))
            log.append(f"{event.frame:>9}  {describe(event)}")
            print(log[-1], file=out, flush=True)

    with Replay(calibration, config, folder / "events.jsonl", on_event=seen) as replay:
        replay.run_stills(frames)
        replay.finish()
        events = replay.events
    mat = export(events, folder / "match.mat", "standard")
    shots = folder / "turns"
    shots.mkdir(exist_ok=True)
    pictures = []
    for number, moment in enumerate(moments, 1):
        name = f"turns/{number:03d}-{moment.event.type}.jpg"
        _picture(frames, moment, folder / name)
        pictures.append(name)
    (folder / "index.html").write_text(_page(moments, pictures, mat, "pipgammon demo: a refereed game"))
    (folder / "turns.log").write_text("\n".join(log) + "\n")
    if not args.keep_frames:
        # A quarter of a gigabyte of rendered camera frames: the pictures above keep what matters.
        shutil.rmtree(frames)
    stats = replay.stats
    print(f"\n{plural(stats.frames, 'frame')} read ({stats.read} clear), "
          f"{plural(stats.stable, 'scene')} judged, {plural(len(events), 'event')} journaled "
          f"in {time.perf_counter() - began:.0f} s", file=out)
    print(_gnubg_check(mat), file=out)
    print(f"status: {replay.referee.status}", file=out)
    print(f"demo output: {folder}  (open {folder / 'index.html'}; the match is {mat})", file=out)
    return 0


def add_commands(sub: Any) -> None:
    demo = sub.add_parser("demo", help="referee an embedded sample game end to end, LEDs simulated")
    demo.add_argument("--out", default="demo-output",
                      help="the folder for everything it writes: new, empty, or made by the demo before")
    demo.add_argument("--seed", type=int, default=DEMO_SEED, help="another sample game")
    demo.add_argument("--keep-frames", action="store_true",
                      help="keep the rendered camera frames (game/frames/), e.g. to try pipgammon replay")
    demo.set_defaults(run=cmd_demo)
