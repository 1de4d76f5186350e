"""The soak run: `pipgammon run` for half an hour on a replayed game, with faults, measured.

    python bench/soak.py [--minutes 30] [--seed 7] [--work DIR] [--report soak.json]

The service runs as systemd would run it, as a separate process with ``$NOTIFY_SOCKET`` and
``$WATCHDOG_USEC`` (the unit's ``WatchdogSec=30``), on a config this script writes:

- the camera is the embedded sample game (the demo's seed) rendered at 2028x1520, played as
  a camera at 10 fps and in a loop: each lap ends the match, and the next lap sets the
  board up again, so a new match starts (one journal each);
- the lamps are the LED bridge on a pty, with the firmware's own code on the far end
  (`firmware_bridge.simulator.SimulatedBoard`), found through a symlink as the udev rule's
  ``/dev/pipgammon-bridge``; buttons and buzzer on gpiozero's mock pins;
- the web dashboard is served; this script keeps a page's event stream open, and fetches the
  state and the camera view every few seconds, as a tablet on the table would.

Faults, at a third and at a half of the run: the frame folder is taken away for 30 s (the
camera is unplugged) and put back; the bridge's pty is closed (the board unplugged) and a
new one opened under the same symlink 10 s later.

Measured and printed: the service's RSS at start (after the first minute) and at the end,
and its largest (target <= 300 MB); every watchdog ping's gap (must stay under 30 s); the
faults the dashboard reported during each fault and that they cleared; and, for every match
journaled, its verdicts on turns (accepted, no play, illegal, the cube, the game's end) against
the game's truth: a finished lap must equal it and the lap cut by SIGTERM must be a prefix of it
(no lost turn, no wrong one).  The other decisions (rolls, re-rolls, void rolls) are compared
too and their differences listed, and every lap must have decided exactly what the others did
(the camera cut and the unplugged board fall in different laps).  Then SIGTERM, which must end
the service with status 0, its journal whole and the match so far exported.

``--score`` scores the matches of an earlier run's ``--work`` folder again, without running.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import itertools
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from firmware_bridge.simulator import SimulatedBoard  # noqa: E402
from pipgammon.demo import DEMO_SEED, DEMO_SIZE  # noqa: E402
from pipgammon.journal import load  # noqa: E402

WATCHDOG_S = 30  # systemd/pipgammon.service's WatchdogSec=
TARGET_RSS_MB = 300
#: The verdicts on turns: one lost, added or different is a lost or wrong turn.
TURNS = ("accepted", "no-play", "illegal", "double", "take", "drop", "game-over", "match-over")
#: The other decisions, counted as differences: a re-roll called for a flat die seen cocked, say.
# ("corrected" is left out: the truth writes a correction to the legal play as the play accepted.)
OTHERS = ("opening", "roll", "void-roll", "reroll")


def judged(events: list[Any], kinds: tuple[str, ...] = TURNS + OTHERS) -> list[tuple[Any, ...]]:
    """The decisions of a match, to compare with the truth (frame names and lap prefix aside)."""
    out = []
    for e in events:
        d = e if isinstance(e, dict) else {"type": e.type, **e.details}
        if d["type"] in kinds:
            points = d.get("points")  # an illegal play's points; a game's points won
            # A cocked die shows no number that counts: a re-roll is judged by who must throw again.
            dice = () if d["type"] == "reroll" else tuple(sorted(d.get("dice", [])))
            out.append((d["type"], d.get("player"), dice, d.get("move"),
                        tuple(points) if isinstance(points, list) else points, d.get("cube")))
    return out


def render(seed: int, size: tuple[int, int], folder: Path) -> tuple[Path, Path, list[dict[str, Any]]]:
    """The sample game's frames, calibration and truth; rendered once per seed and size."""
    frames, calibration, truth = folder / "frames", folder / "calibration.json", folder / "truth.jsonl"
    if not (frames.is_dir() and calibration.exists() and truth.exists()):
        from vision.synthetic_game import script_game, write_calibrated

        script = script_game(seed, match_to=1, illegal_rate=0.15, tryout_rate=0.4, cocked_rate=0.06,
                             void_rate=0.05, button_rate=0.1)  # as pipgammon demo
        print(f"rendering seed {seed} at {size[0]}x{size[1]}: {len(script.stills)} stills ...", flush=True)
        _, made, _ = write_calibrated(script, folder, size=size)
        calibration.write_text(made.to_json() + "\n")
    lines = [json.loads(line) for line in truth.read_text().splitlines() if line.strip()]
    return frames, calibration, lines


def score(state: Path, truth: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, bool]]:
    """Every match journaled in ``state`` against the game's truth: the verdicts on turns must
    equal it (the match cut by SIGTERM: a prefix of it); other differences are counted."""
    want_turns, want_all = judged(truth, TURNS), judged(truth)
    matches = []
    journals = sorted(state.glob("match-*.jsonl"))
    laps: list[list[tuple[Any, ...]]] = []
    for number, path in enumerate(journals):
        loaded = load(path)
        events = list(loaded.events)
        turns, decided = judged(events, TURNS), judged(events)
        finished = any(e.type == "match-over" for e in events)
        cut = number == len(journals) - 1 and not finished
        right = turns == (want_turns[:len(turns)] if cut else want_turns)
        opcodes = difflib.SequenceMatcher(None, decided, want_all, autojunk=False).get_opcodes()
        if cut and opcodes and opcodes[-1][0] == "insert" and opcodes[-1][1] == len(decided):
            opcodes.pop()  # the rest of the game, after SIGTERM
        others = [(tag, decided[i1:i2], want_all[j1:j2]) for tag, i1, i2, j1, j2 in opcodes if tag != "equal"]
        laps.append(decided)
        matches.append({"journal": path.name, "finished": finished, "turns": sum(
            1 for t in turns if t[0] in ("accepted", "no-play")), "verdicts_as_the_truth": right,
            "other_differences": [f"{tag}: journal {got} / truth {wanted}" for tag, got, wanted in others],
            "problems": [str(p) for p in loaded.problems]})
    checks = {
        "every turn's verdict as the truth (no lost or wrong turn)": bool(matches) and all(
            m["verdicts_as_the_truth"] and not m["problems"] for m in matches),
        # The camera cut and the unplugged bridge fell in different laps: neither changed a decision.
        "every lap decided the same": all(lap == laps[0][:len(lap)] for lap in laps[1:]) if laps else False,
    }
    return matches, checks


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Notifications:
    """systemd's side of sd_notify: a datagram socket, every message with its arrival time."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.unlink(missing_ok=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.settimeout(0.5)
        self.messages: list[tuple[float, str]] = []
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                self.messages.append((time.monotonic(), self.sock.recv(4096).decode()))

    def close(self) -> None:
        self._stop.set()
        self.thread.join()
        self.sock.close()


class Dashboard:
    """A tablet on the table: one event stream kept open, the state and the camera view polled."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.events = 0
        self.polls = 0
        self.errors: list[str] = []
        self.faults_seen: set[str] = set()
        self._stop = threading.Event()
        self.threads = [threading.Thread(target=self._stream, daemon=True),
                        threading.Thread(target=self._poll, daemon=True)]
        for thread in self.threads:
            thread.start()

    def _stream(self) -> None:
        while not self._stop.is_set():
            try:
                with urllib.request.urlopen(self.url + "/events", timeout=60) as stream:
                    for raw in stream:
                        if raw.startswith(b"data:"):
                            self.events += 1
                        if self._stop.is_set():
                            return
            except OSError as err:
                if not self._stop.is_set():
                    self.errors.append(f"/events: {err}")
                    self._stop.wait(2)

    def _poll(self) -> None:
        while not self._stop.wait(3):
            try:
                with urllib.request.urlopen(self.url + "/api/state", timeout=10) as reply:
                    state = json.load(reply)
                self.faults_seen.update(state.get("faults", {}))
                with urllib.request.urlopen(self.url + "/camera.jpg", timeout=10) as reply:
                    reply.read()
                self.polls += 1
            except OSError as err:
                self.errors.append(f"poll: {err}")

    def faults(self) -> dict[str, str]:
        with urllib.request.urlopen(self.url + "/api/state", timeout=10) as reply:
            return dict(json.load(reply).get("faults", {}))

    def close(self) -> None:
        self._stop.set()


def wait_for(condition: Any, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError):
            if condition():
                return True
        time.sleep(0.5)
    return False


def score_only(work: Path, seed: int) -> int:
    """``--score``: the matches of an earlier run's work folder, scored again."""
    _, _, truth = render(seed, DEMO_SIZE, work / f"game-{seed}")
    matches, checks = score(work / "state", truth)
    print(json.dumps({"matches": matches, "checks": checks}, indent=1))
    return 0 if all(checks.values()) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=DEMO_SEED)
    parser.add_argument("--work", type=Path, default=Path("/tmp/pipgammon-soak"))
    parser.add_argument("--report", type=Path, help="also write the figures as JSON")
    parser.add_argument("--score", action="store_true", help="only score the matches already in --work")
    args = parser.parse_args()
    if args.score:
        return score_only(args.work.resolve(), args.seed)

    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    frames, calibration, truth = render(args.seed, DEMO_SIZE, work / f"game-{args.seed}")
    state = work / "state"
    shutil.rmtree(state, ignore_errors=True)
    state.mkdir()
    port = work / "pipgammon-bridge"
    board = SimulatedBoard()
    port.unlink(missing_ok=True)
    port.symlink_to(board.path)
    web_port = free_port()
    config = work / "config.toml"
    config.write_text(
        f'[camera]\nsource = "folder:{frames}"\nsize = [{DEMO_SIZE[0]}, {DEMO_SIZE[1]}]\n'
        f'fps = 10\nloop = true\n'
        f'[calibration]\npath = "{calibration}"\n[game]\nmode = "teach"\n'
        f'[lights]\nbackend = "bridge"\n[bridge]\nport = "{port}"\n'
        f'[hardware.buttons]\nend-turn = 5\ntake-back = 6\nmode = 16\n[hardware.buzzer]\npin = 13\n'
        f'[web]\nport = {web_port}\n[storage]\njournal-dir = "{state}"\nexport-dir = "{state / "exports"}"\n')
    notify = Notifications(work / "notify.sock")
    env = {**os.environ, "NOTIFY_SOCKET": str(notify.path), "WATCHDOG_USEC": str(WATCHDOG_S * 1_000_000),
           "GPIOZERO_PIN_FACTORY": "mock", "PYTHONPATH": str(ROOT)}
    env.pop("WATCHDOG_PID", None)
    log = (work / "service.log").open("w")
    began = time.monotonic()
    service = subprocess.Popen([sys.executable, "-m", "pipgammon", "run", "--config", str(config)],
                               env=env, stdout=log, stderr=subprocess.STDOUT)
    length = args.minutes * 60
    report: dict[str, Any] = {"minutes": args.minutes, "seed": args.seed, "size": list(DEMO_SIZE)}
    checks: dict[str, bool] = {}
    samples: list[tuple[float, float]] = []
    dashboard: Dashboard | None = None
    try:
        if not wait_for(lambda: any(m.startswith("READY=1") for _, m in notify.messages), 120):
            raise SystemExit("the service never said READY=1; see " + str(work / "service.log"))
        ready_at = time.monotonic() - began
        dashboard = Dashboard(f"http://127.0.0.1:{web_port}")
        cut_at, unplug_at = began + length / 3, began + length / 2
        cut_done = unplug_done = False
        next_sample = 0.0
        while (now := time.monotonic()) - began < length:
            if service.poll() is not None:
                raise SystemExit(f"the service died with status {service.returncode}; "
                                 f"see {work / 'service.log'}")
            if now >= next_sample:
                samples.append((now - began, rss_mb(service.pid)))
                next_sample = now + 10
            if not cut_done and now >= cut_at:
                away = frames.with_name("frames-away")
                frames.rename(away)
                seen = wait_for(lambda: "camera" in dashboard.faults(), 30)
                time.sleep(max(0.0, 30 - (time.monotonic() - now)))
                away.rename(frames)
                cleared = wait_for(lambda: "camera" not in dashboard.faults(), 30)
                checks["camera cut reported and cleared"] = seen and cleared
                report["camera_cut"] = {"at_s": round(now - began), "reported": seen, "cleared": cleared}
                cut_done = True
            if not unplug_done and now >= unplug_at:
                board.close()
                seen = wait_for(lambda: "bridge" in dashboard.faults(), 30)
                time.sleep(10)
                board = replugged = SimulatedBoard(boot_id=0x0BAD)
                port.unlink()
                port.symlink_to(board.path)
                cleared = wait_for(lambda: "bridge" not in dashboard.faults(), 30)
                shown = wait_for(lambda b=replugged: b.board.applied > 0, 30)
                checks["bridge unplug reported, cleared, plans shown again"] = seen and cleared and shown
                report["bridge_unplug"] = {"at_s": round(now - began), "reported": seen, "cleared": cleared,
                                           "states_applied_after": board.board.applied}
                unplug_done = True
            time.sleep(1)
        samples.append((time.monotonic() - began, rss_mb(service.pid)))
        dashboard.close()  # before the server goes: a refused reconnect then is no fault
        service.send_signal(signal.SIGTERM)
        status = service.wait(timeout=60)
        checks["SIGTERM: exit status 0"] = status == 0
    finally:
        if service.poll() is None:
            service.kill()
        if dashboard is not None:
            dashboard.close()
        board.close()
        time.sleep(0.6)
        notify.close()
        log.close()

    # -- memory ------------------------------------------------------------------------
    start_rss = next((mb for t, mb in samples if t >= ready_at + 60), samples[0][1])
    report["rss_mb"] = {"start": round(start_rss, 1), "end": round(samples[-1][1], 1),
                        "max": round(max(mb for _, mb in samples), 1), "samples": len(samples)}
    checks[f"RSS at most {TARGET_RSS_MB} MB"] = report["rss_mb"]["max"] <= TARGET_RSS_MB
    # -- systemd -------------------------------------------------------------------------
    messages = notify.messages
    pings = [at for at, m in messages if "WATCHDOG=1" in m]
    gaps = [b - a for a, b in itertools.pairwise(pings)]
    report["watchdog"] = {"pings": len(pings), "max_gap_s": round(max(gaps), 2) if gaps else None,
                          "median_gap_s": round(statistics.median(gaps), 2) if gaps else None}
    checks["watchdog pinged, never late"] = bool(gaps) and max(gaps) < WATCHDOG_S
    checks["READY once, STOPPING at the end"] = (sum(m.startswith("READY=1") for _, m in messages) == 1
                                                 and any(m.startswith("STOPPING=1") for _, m in messages))
    report["status_lines"] = sum("STATUS=" in m for _, m in messages)
    # -- matches -------------------------------------------------------------------------
    report["matches"], match_checks = score(state, truth)
    checks.update(match_checks)
    journals = sorted(state.glob("match-*.jsonl"))
    exports = sorted((state / "exports").glob("*")) if (state / "exports").exists() else []
    checks["every match exported"] = len(exports) == len(journals)
    if dashboard is not None:
        report["dashboard"] = {"events_streamed": dashboard.events, "polls": dashboard.polls,
                               "errors": dashboard.errors[:5], "faults_seen": sorted(dashboard.faults_seen)}
        checks["dashboard served throughout"] = dashboard.polls > 0 and dashboard.events > 0
    report["checks"] = checks
    matches = report["matches"]
    turns = sum(m["turns"] for m in matches)
    print(f"soak: {args.minutes:g} min, {len(matches)} matches ({sum(m['finished'] for m in matches)} "
          f"finished), {turns} turns; RSS {report['rss_mb']['start']} MB after the first minute, "
          f"{report['rss_mb']['end']} MB at the end, {report['rss_mb']['max']} MB at most "
          f"(target <= {TARGET_RSS_MB}); watchdog pings {report['watchdog']['pings']}, longest gap "
          f"{report['watchdog']['max_gap_s']} s (limit {WATCHDOG_S})")
    for name, ok in checks.items():
        print(f"  {'ok  ' if ok else 'FAIL'} {name}")
    print(json.dumps({k: v for k, v in report.items() if k not in ("checks",)}, indent=1))
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
