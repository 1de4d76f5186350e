"""The referee over whole synthetic games: wrong verdicts, flagged errors, latency, crash safety.

    python bench/referee.py [--games 20] [--kills 100] [--keep DIR]
    # or split over cores, then report and crash-test what was kept:
    python bench/referee.py --start 0 --games 10 --keep DIR --no-report &
    python bench/referee.py --start 10 --games 10 --keep DIR --no-report
    python bench/referee.py --games 0 --keep DIR
    # referee the kept frames again with today's code (no rendering), then report:
    python bench/referee.py --kept --games 20 --keep DIR --no-report

Each game (seeds from 6,000,000: no test uses them) is engine self-play scripted as the
camera sees it, with injected illegal plays and their corrections, tried-and-taken-back
moves, lifted checkers, cocked dice, rolls out of turn, the cube and end-turn presses
(vision/synthetic_game.py).  The script's truth is the list of events a perfect referee
emits.  Each game is refereed twice:

- **logic**: the script's stable scenes straight into the referee (no camera), which
  measures the referee alone;
- **pipeline**: the frames rendered and written to disk, then `pipgammon replay`'s pipeline
  (vision, referee, journal, export) over them, which is what the issue's target is about.

Printed per pass: turns judged, wrong verdicts (an illegal play accepted, a legal play
rejected, a play recorded with another move than the one made), injected errors flagged
with the right points, other differences from the truth, and for standard games whether
GNU Backgammon imports the `.mat` with every move and the final score.  Then the latency
from the stable end-of-turn scene to the journaled verdict (median and p99; target
<= 150 ms), and the crash test: `pipgammon replay` killed with SIGKILL at ``--kills``
random moments and resumed with ``--resume`` each time; every journal must load, hold a
prefix of the uninterrupted run's events (nothing lost, nothing written twice), and end
equal to it.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2

from engine.dice import Roll
from engine.events import Event
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import Position
from engine.referee import Mode, OpeningChoice, Referee, RefereeConfig
from engine.variants import find_variant
from pipgammon.gnubg import find_gnubg
from pipgammon.journal import load
from pipgammon.replay import Replay, export
from vision.calibration import Calibration
from vision.synthetic_game import GameScript, Press, ScriptError, Still, script_game, write_calibrated

ORACLE = Path(__file__).resolve().parents[1] / "tests" / "oracle"
SIDE = {Player.WHITE: "X", Player.BLACK: "O"}  # gnubg's left and right columns
FIRST_SEED = 6_000_000
KILL_WINDOW_S = 6.0
#: (variant, match length, opening) in turn: standard matches with both openings, and the
#: variants the synthetic games can show (not Backwards: its races run past a thousand stills).
PLAN = [("standard", 1, "one-die-each"), ("standard", 3, "starter-rolls"), ("eureka", 1, "one-die-each"),
        ("standard", 3, "one-die-each"), ("standard", 1, "one-die-each"), ("standard", 1, "starter-rolls"),
        ("straight", 1, "one-die-each"), ("no-hitting", 1, "one-die-each"), ("reverse", 1, "one-die-each"),
        ("old-britain", 1, "one-die-each")]
#: The events compared with the truth, and what of each is compared.
JUDGED = ("opening", "starter", "roll", "no-play", "accepted", "illegal", "corrected", "reroll", "void-roll",
          "double", "take", "drop", "game-over", "match-over")


def judged(event: Event) -> bool:
    """Compared with the truth: a "corrected" to a legal result only says what the "accepted"
    after it says too (the scripts' truth names the corrections back to the turn's start)."""
    return event.type in JUDGED and not (event.type == "corrected" and event.details.get("to") == "legal")


def key(event: Event) -> tuple[Any, ...]:
    d = event.details
    dice = tuple(sorted(d.get("dice", []), reverse=True))
    if event.type == "accepted":
        return ("accepted", d["player"], dice, d["move"])
    if event.type == "illegal":
        return ("illegal", d["player"], dice, tuple(d["points"]))
    if event.type in ("game-over", "match-over"):
        return (event.type, d["winner"], d.get("points"), d.get("kind"))
    if event.type == "opening":
        return ("opening", d["white"], d["black"])
    if event.type in ("double", "take", "drop"):
        return (event.type, d["player"], d["cube"])
    if event.type == "reroll":  # a cocked die's top face is no value: only whose roll is thrown again
        return ("reroll", d["player"])
    return (event.type, d.get("player"), dice)


def compare(truth: list[Event], got: list[Event]) -> Counter[str]:
    """Wrong verdicts and other differences between the truth and what the referee said."""
    want = [key(e) for e in truth if judged(e)]
    said = [key(e) for e in got if judged(e)]
    counts: Counter[str] = Counter()
    counts["turns"] = sum(k[0] in ("accepted", "no-play") for k in want)
    counts["injected"] = sum(k[0] == "illegal" for k in want)
    matcher = difflib.SequenceMatcher(a=want, b=said, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            counts["flagged"] += sum(k[0] == "illegal" for k in want[a0:a1])
            continue
        for k in said[b0:b1]:
            if k[0] == "accepted":
                counts["wrong: accepted a play not made, or an illegal one"] += 1
            elif k[0] == "illegal":
                counts["wrong: rejected a legal play"] += 1
            else:
                counts[f"extra {k[0]}"] += 1
        for k in want[a0:a1]:
            if k[0] not in ("accepted", "illegal"):
                counts[f"missing {k[0]}"] += 1
            elif k[0] == "illegal":
                counts["injected error not flagged"] += 1
    counts["wrong verdicts"] = (counts["wrong: accepted a play not made, or an illegal one"]
                                + counts["wrong: rejected a legal play"])
    return counts


def config_of(script: GameScript, mode: Mode = Mode.PLAY) -> RefereeConfig:
    return RefereeConfig(variant=find_variant(script.variant), match_to=script.match_to,
                         opening=OpeningChoice(script.opening), mode=mode)


def logic(script: GameScript) -> list[Event]:
    """The script's stable scenes and presses straight into the referee."""
    referee = Referee(config_of(script))
    events = referee.start("")
    last = None
    for i, beat in enumerate(script.beats):
        if isinstance(beat, Still):
            if beat.scene != last:
                events += referee.see(beat.scene, str(i))
            last = beat.scene
        elif isinstance(beat, Press):
            events += referee.press(beat.button, str(i))
    return events


def expected_games(events: list[Event]) -> list[list[tuple[Any, ...]]]:
    """Each game's moves (side, sorted dice, sorted steps) and cube actions, from our events, the
    steps found by parsing each accepted move from the position before it."""
    games: list[list[tuple[Any, ...]]] = []
    position = Position.start()
    before = position  # the position an undo returns to
    for event in events:
        d = event.details
        if event.type == "game":
            games.append([])
            position = Position.start()
        elif event.type == "undo":  # the last play (or no-play) taken back: one per roll in a standard game
            games[-1].pop()
            position = before
        elif event.type in ("accepted", "no-play"):
            before = position
            player = Player.from_label(d["player"])
            dice = sorted(d["dice"])
            steps: list[tuple[int, int]] = []
            if event.type == "accepted" and d["move"]:
                play = legal_plays(position, player, Roll(*d["dice"])).parse(d["move"])
                steps = sorted((step.start, step.end) for step in play.steps)
                position = play.result
            games[-1].append((SIDE[player], "move", dice, steps))
        elif event.type in ("double", "take", "drop"):
            games[-1].append((SIDE[Player.from_label(d["player"])], event.type))
    return games


def gnubg_round_trip(mat: Path, events: list[Event], work: Path) -> str:
    """'ok' when gnubg, run as a separate program, imports the .mat with every move, cube action
    and the final score of our events; else what differs."""
    binary = find_gnubg()
    if binary is None:
        return "gnubg is not installed"
    source, sink = work / "gnubg.in", work / "gnubg.out"
    source.write_text(json.dumps({"path": str(mat), "format": "mat", "jacoby": False}) + "\n")
    env = dict(os.environ, PIPGAMMON_ORACLE_IN=str(source), PIPGAMMON_ORACLE_OUT=str(sink), HOME=str(work))
    done = subprocess.run([binary, "-t", "-q", "-p", str(ORACLE / "gnubg_import_match.py")], env=env,
                          cwd=work, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0 or not sink.exists():
        return f"gnubg failed: {done.stderr[-300:]}"
    case = json.loads(sink.read_text())
    if case["match"] is None:
        return f"gnubg imported nothing ({case.get('error')})"
    imported = case["match"]["games"]
    ours = expected_games(events)
    if len(imported) != len(ours):
        return f"gnubg read {len(imported)} games, we recorded {len(ours)}"
    for number, (theirs, mine) in enumerate(zip(imported, ours, strict=True), 1):
        read = [(a["player"], "move", sorted(a["dice"]), sorted((s, e) for s, e in a["move"]))
                if a["action"] == "move" else (a["player"], a["action"]) for a in theirs["game"]]
        if read != mine:
            return f"game {number}: gnubg read other actions than we recorded"
    last = imported[-1]["info"]
    score = [last["score-X"], last["score-O"]]
    if last["winner"] is not None:  # an unfinished last game has no winner yet
        score["XO".index(last["winner"])] += last["points-won"]
    over = [e for e in events if e.type == "game-over"]
    ours = list(over[-1]["score"]) if over else [0, 0]
    if score != ours:
        return f"gnubg ends at {score}, we at {ours}"
    return "ok"


def pipeline(script: GameScript, folder: Path, size: tuple[int, int] = (2028, 1520), *, render: bool = True,
             ) -> tuple[list[Event], list[float], Path, Path, Path, int]:
    """The game rendered under a mount calibration accepts, replayed; and how many mounts
    calibration refused first (a user would move the camera).  Without ``render`` the frames
    and calibration kept in ``folder`` are replayed again (``refused`` is then 0)."""
    if render:
        frames, calibration, refused = write_calibrated(script, folder, size)
        (folder / "calibration.json").write_text(calibration.to_json() + "\n")
    else:
        frames, refused = folder / "frames", 0
        calibration = Calibration.from_json((folder / "calibration.json").read_text())
    journal = folder / "events.jsonl"
    journal.unlink(missing_ok=True)
    with Replay(calibration, config_of(script), journal) as replay:
        replay.run_stills(frames)
        replay.finish()
        events = list(replay.events)
    mat = export(events, folder / "match.mat", script.variant)
    return events, replay.stats.verdict_ms, frames, folder / "calibration.json", mat, refused


def replay_command(frames: Path, calibration: Path, script: GameScript, journal: Path,
                   resume: bool) -> list[str]:
    command = [sys.executable, "-m", "pipgammon", "replay", str(frames), "--calibration", str(calibration),
               "--variant", script.variant, "--match-to", str(script.match_to), "--opening", script.opening,
               "--events", str(journal), "--export", str(journal.with_suffix(".mat"))]
    return command + (["--resume"] if resume else [])


def kill_test(games: list[tuple[GameScript, Path, Path, list[Event]]], kills: int, rng: random.Random,
              work: Path) -> Counter[str]:
    """SIGKILL `pipgammon replay` at random moments, resume, and check the journal every time.

    ``kills`` is the number of kills that land, spread over ``games``.  A run that finishes
    before its kill has nothing more to lose: its journal is checked whole, and the game starts
    again from an empty journal, its later kills drawn within the length of a whole run, so
    they keep falling all through the game."""
    counts: Counter[str] = Counter()
    per_game = max(1, -(-kills // len(games)))
    for number, (script, frames, calibration, whole) in enumerate(games):
        journal = work / f"kill-{number}.jsonl"
        journal.unlink(missing_ok=True)
        resume, landed, window = False, 0, KILL_WINDOW_S
        for _ in range(4 * per_game):  # (a bound: a machine so fast every run finishes first)
            if landed == per_game or counts["kills"] == kills:
                break
            started = time.monotonic()
            process = subprocess.Popen(replay_command(frames, calibration, script, journal, resume),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            # Within the first seconds of each run (starting up, resuming, then judging): each
            # resume goes further, so the kills fall all through the game.
            time.sleep(rng.uniform(0.1, window))
            finished = process.poll() is not None
            if not finished:
                process.send_signal(signal.SIGKILL)
                process.wait()
                counts["kills"] += 1
                landed += 1
            loaded = load(journal) if journal.exists() else None
            events = list(loaded.events) if loaded else []
            counts["journal problems (torn last line)"] += len(loaded.problems) if loaded else 0
            if events != whole[:len(events)]:
                counts["journal not a prefix of the uninterrupted run"] += 1
            if finished:
                counts["finished before the kill"] += 1
                counts["finished runs ending equal"] += events == whole
                if not resume:  # a whole run from the start: the game's length on this machine
                    window = max(0.2, time.monotonic() - started)
                journal.unlink()
                resume = False
            else:
                resume = True
        done = subprocess.run(replay_command(frames, calibration, script, journal, resume),
                              capture_output=True, text=True)
        if done.returncode != 0:
            counts["resume failed"] += 1
            print(f"  kill test game {number}: {done.stderr.strip()}")
        final = list(load(journal).events)
        counts["games ending equal"] += final == whole
        counts["games"] += 1
    return counts


def play_game(number: int, work: Path, render: bool = True) -> None:
    """Referee game ``number`` through the pipeline; its journal, match and figures stay in
    ``work/game-NN`` (``result.json``) for `report`.  Without ``render`` the frames kept there
    are refereed again (the same game, the code of today)."""
    variant, length, opening = PLAN[number % len(PLAN)]
    seed = FIRST_SEED + number
    for _ in range(5):
        try:
            script = script_game(seed, variant=variant, match_to=length, opening=opening)
            break
        except ScriptError as err:  # a game the synthetic script cannot draw: the next seed
            print(f"game {number:2d} seed {seed}: not scripted ({err}); seed {seed + 100_000} instead")
            seed += 100_000
    else:
        raise RuntimeError(f"game {number}: five seeds in a row not scripted")
    folder = work / f"game-{number:02d}"
    if not render:
        refused = json.loads((folder / "result.json").read_text())["refused"]
    events, verdict_ms, _, _, mat, refused_now = pipeline(script, folder, render=render)
    refused = refused_now if render else refused
    gnubg = gnubg_round_trip(mat, events, folder) if variant == "standard" else "not standard"
    (folder / "result.json").write_text(json.dumps({"number": number, "seed": seed, "verdict_ms": verdict_ms,
                                                    "refused": refused, "gnubg": gnubg}))
    result = compare([t.event for t in script.truth], events)
    print(f"game {number:2d} {variant:12s} to {length} {opening:14s} seed {seed}: "
          f"{result['turns']} turns, {result['wrong verdicts']} wrong, "
          f"{result['flagged']}/{result['injected']} injected flagged; gnubg: {gnubg}", flush=True)


def report(work: Path) -> list[tuple[GameScript, Path, Path, list[Event]]]:
    """The totals over every game kept in ``work``; returns the standard games for the kill test."""
    totals = {"logic": Counter[str](), "pipeline": Counter[str]()}
    latency: list[float] = []
    gnubg: Counter[str] = Counter()
    refused = 0
    standard = []
    folders = sorted(f for f in work.glob("game-*") if (f / "result.json").exists())
    for folder in folders:
        kept = json.loads((folder / "result.json").read_text())
        variant, length, opening = PLAN[kept["number"] % len(PLAN)]
        seed = kept.get("seed", FIRST_SEED + kept["number"])
        script = script_game(seed, variant=variant, match_to=length, opening=opening)
        truth = [t.event for t in script.truth]
        events = list(load(folder / "events.jsonl").events)
        totals["logic"] += compare(truth, logic(script))
        totals["pipeline"] += compare(truth, events)
        latency += kept["verdict_ms"]
        refused += kept["refused"]
        if variant == "standard":
            gnubg["ok" if kept["gnubg"] == "ok" else "failed"] += 1
            standard.append((script, folder / "frames", folder / "calibration.json", events))
    for name, counts in totals.items():
        print(f"\n{name}: {len(folders)} games, {counts['turns']} turns judged")
        print(f"  wrong verdicts: {counts['wrong verdicts']} (target 0)")
        print(f"  injected illegal plays flagged with the right points: "
              f"{counts['flagged']}/{counts['injected']}")
        shown = ("turns", "injected", "flagged", "wrong verdicts")
        for what, count in sorted((k, v) for k, v in counts.items() if k not in shown and v):
            print(f"  {what}: {count}")
    print(f"\ncamera mounts refused by calibration and replaced: {refused}")
    print(f"gnubg imports the .mat with every move and the final score: "
          f"{gnubg['ok']}/{sum(gnubg.values())} standard games")
    if latency:
        latency.sort()
        p99 = latency[min(len(latency) - 1, int(0.99 * len(latency)))]
        print(f"latency from the stable end-of-turn scene to the journaled verdict: median "
              f"{statistics.median(latency):.1f} ms, p99 {p99:.1f} ms over {len(latency)} verdicts "
              f"(target <= 150)")
    return standard


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--start", type=int, default=0, help="the first game's number (to split runs)")
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--kill-games", type=int, default=4, help="standard games the kills are spread over")
    parser.add_argument("--keep", type=Path, help="keep the rendered games and journals here")
    parser.add_argument("--no-report", action="store_true", help="play the games only (a split run)")
    parser.add_argument("--kept", action="store_true",
                        help="referee the frames kept in --keep again instead of rendering them")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    work = args.keep or Path(tempfile.mkdtemp(prefix="pipgammon-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    if args.kept and not args.keep:
        parser.error("--kept needs --keep DIR with the games of an earlier run")
    for number in range(args.start, args.start + args.games):
        play_game(number, work, render=not args.kept)
    if args.no_report:
        return 0
    standard = report(work)
    if args.kills and standard:
        kills = kill_test(standard[:args.kill_games], args.kills, random.Random(FIRST_SEED), work)
        print(f"\nSIGKILL: {kills['kills']} kills landed over {kills['games']} games "
              f"({kills['finished before the kill']} runs finished before their kill, "
              f"{kills['finished runs ending equal']} of them equal to the uninterrupted run; each then "
              "started again)")
        print(f"  journals not a prefix of the uninterrupted run: "
              f"{kills['journal not a prefix of the uninterrupted run']} (target 0); "
              f"torn last lines reported: {kills['journal problems (torn last line)']}")
        print(f"  resumes that failed: {kills['resume failed']}; replays ending equal to the uninterrupted "
              f"run: {kills['games ending equal']}/{kills['games']}")
    print(f"\ngames and journals in {work}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
