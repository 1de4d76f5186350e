"""`pipgammon run`: the service loop over a recorded game, with its faults made real.

The camera is a folder of rendered frames played as a camera; the faults are real ones: the
folder taken away and put back, a GPIO pin another device holds (gpiozero's MockFactory),
the firmware's own code on a pty that is closed and opened again, and SIGTERM to the process.
Verdicts are checked against the game's truth, the journal against what was decided, and the
dashboard the service serves against the journal.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.buttons import Button, ButtonEvent, Press
from engine.events import Event
from pipgammon.camera import CameraLost, FolderCamera, Shot
from pipgammon.config import Config, parse_config
from pipgammon.journal import load
from pipgammon.live import CameraLoss, Live
from pipgammon.run_cli import add_parts
from pipgammon.service import Service
from vision.calibration import Calibration
from vision.synthetic_game import GameScript, script_game, write_calibrated

#: The opening and first turns of a game (as tests/cli/test_replay.py): judged plays, an illegal one.
BEATS = 90
#: Four copies of a still: the stabiliser's three agreeing frames after the one that moved.
FPS = 4
SIZE = (1280, 960)  # vision reads this game's first turns right at this size, and fast


def _judged(events: list[Event]) -> list[tuple[object, ...]]:
    kinds = ("opening", "roll", "accepted", "illegal", "no-play", "void-roll", "reroll")
    return [(e.type, e.details.get("player"), sorted(e.details.get("dice", [])), e.details.get("move"),
             e.details.get("points")) for e in events if e.type in kinds]


@dataclasses.dataclass(frozen=True)
class Game:
    script: GameScript
    frames: Path
    calibration: Calibration
    calibration_path: Path

    @property
    def truth(self) -> list[Event]:
        return [t.event for t in self.script.truth]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    folder = tmp_path_factory.mktemp("game")
    script = script_game(7, illegal_rate=0.3, tryout_rate=0.5)
    script = dataclasses.replace(script, beats=script.beats[:BEATS],
                                 truth=tuple(t for t in script.truth if t.beat < BEATS))
    frames, calibration, _ = write_calibrated(script, folder, size=SIZE)
    (folder / "calibration.json").write_text(calibration.to_json())
    return Game(script, frames, calibration, folder / "calibration.json")


def _config(game: Game, state: Path, frames: Path | None = None, extra: str = "",
            calibration: Path | None = None) -> Config:
    return parse_config(
        f'[camera]\nsource = "folder:{frames or game.frames}"\nsize = [{SIZE[0]}, {SIZE[1]}]\nfps = {FPS}\n'
        f'[calibration]\npath = "{calibration or game.calibration_path}"\n'
        f'[storage]\njournal-dir = "{state}"\nexport-dir = "{state / "exports"}"\n' + extra)


def _clock() -> Callable[[], float]:
    """Half a second a call: retries come due at once, and no test waits for a wall clock."""
    ticks = itertools.count()
    return lambda: next(ticks) * 0.5


def _service(game: Game, state: Path, frames: Path | None = None, extra: str = "",
             camera: object | None = None, calibration: Path | None = None) -> Service:
    """The service as `pipgammon run` makes it; ``calibration``: a file that is not there yet."""
    config = _config(game, state, frames, extra, calibration)
    folder = frames or game.frames
    camera = camera or FolderCamera(folder, FPS, clock=lambda: 0.0, sleep=lambda s: None)
    service = Service(config, camera, calibration=None if calibration else game.calibration,  # type: ignore[arg-type]
                      clock=_clock())
    service.exit_at_end = True
    add_parts(service, config)
    return service


def _journal(state: Path) -> tuple[Path, list[Event]]:
    (path,) = sorted(state.glob("match-*.jsonl"))
    loaded = load(path)
    assert not loaded.problems
    return path, list(loaded.events)


def test_the_service_referees_a_recorded_game_as_its_truth_says(game: Game, tmp_path: Path) -> None:
    service = _service(game, tmp_path, extra='[game]\nmode = "teach"\n[lights]\nbackend = "sim"\n')
    stats = service.run(threading.Event())
    path, events = _journal(tmp_path)
    assert _judged(events) == _judged(game.truth)
    assert any(e.type == "illegal" for e in events) and any(e.type == "accepted" for e in events)
    assert stats.events == len(events) and stats.matches == 1 and stats.faults == {}
    # The dashboard's state is the referee's: the log has every verdict, the match its journal.
    snapshot = service.live.snapshot()
    assert snapshot.journal == path.name
    assert [line.text for line in snapshot.log if line.type == "accepted"] == \
        [f"{str(e['player']).capitalize()} {'-'.join(map(str, e['dice']))}: {e['move']}  accepted"
         for e in events if e.type == "accepted"]
    assert snapshot.to_act in ("white", "black") and snapshot.frames == stats.frames
    # Stopped mid-match (the recording ended): the match so far is exported beside the journal.
    (mat,) = stats.exported
    assert mat == tmp_path / "exports" / (path.stem + ".mat")
    assert stats.unfinished == [mat]  # and it says so, on a comment line gnubg reads past
    assert mat.read_text().startswith("; unfinished: stopped in game 1 of the 1-point match, at White 0, "
                                      "Black 0\n 1 point match")


def test_a_match_begins_only_when_the_board_is_set_up(game: Game, tmp_path: Path) -> None:
    # The camera switched on in the middle of someone's game: nothing is judged, nothing journaled.
    middle = tmp_path / "middle"
    middle.mkdir()
    for still in sorted(game.frames.glob("*.jpg"))[10:14]:
        shutil.copy(still, middle / still.name)
    service = _service(game, tmp_path / "state", frames=middle)
    stats = service.run(threading.Event())
    assert stats.stable >= 1 and stats.events == 0 and not list((tmp_path / "state").glob("match-*"))
    assert service.live.snapshot().status.startswith("Set up the board")


class CutCamera:
    """A FolderCamera whose folder is renamed away after ``cut_after`` frames and put back
    after ``back_after`` failed opens: the service meets a real missing folder."""

    def __init__(self, folder: Path, cut_after: int, back_after: int) -> None:
        self.inner = FolderCamera(folder, FPS, clock=lambda: 0.0, sleep=lambda s: None)
        self.description = self.inner.description
        self.folder, self.away = folder, folder.with_name(folder.name + "-away")
        self.cut_after, self.back_after = cut_after, back_after
        self.reads = self.failed_opens = 0
        self.on_failed_open: Callable[[], None] = lambda: None

    def open(self) -> None:
        try:
            self.inner.open()
        except CameraLost:
            self.on_failed_open()
            self.failed_opens += 1
            if self.failed_opens == self.back_after:
                self.away.rename(self.folder)
            raise

    def read(self) -> Shot | None:
        self.reads += 1
        if self.reads == self.cut_after:
            self.folder.rename(self.away)
        return self.inner.read()

    def close(self) -> None:
        self.inner.close()


def test_a_camera_taken_away_and_put_back_loses_no_turn(game: Game, tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    shutil.copytree(game.frames, frames)
    camera = CutCamera(frames, cut_after=41, back_after=3)
    service = _service(game, tmp_path / "state", frames=frames, camera=camera)
    faults: list[tuple[tuple[str, str], ...]] = []
    service.on_event.append(lambda event, referee: faults.append(service.live.snapshot().faults))
    lost: list[CameraLoss | None] = []  # what the page shows while the camera is away
    camera.on_failed_open = lambda: lost.append(service.live.snapshot().camera_lost)
    stats = service.run(threading.Event())
    assert stats.camera_lost == 1 and camera.failed_opens == 3
    _, events = _journal(tmp_path / "state")
    assert _judged(events) == _judged(game.truth)
    assert service.live.snapshot().faults == ()  # back, and said so
    # Away, the page's picture is the last frame read, marked stale; back, the mark is gone.
    assert len(lost) == 3 and all(loss is not None and loss.frame == lost[0].frame for loss in lost)
    assert lost[0] is not None and lost[0].frame is not None and "frames" in lost[0].why
    assert service.live.snapshot().camera_lost is None


def test_a_lamp_driver_that_fails_is_reported_and_comes_back(game: Game, tmp_path: Path) -> None:
    from gpiozero import LED, Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from hardware.gpio_lights import GPIOLights

    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    try:
        squatter = LED(17)  # another program holds the status lamp's pin
        service = _service(game, tmp_path)
        opened: list[GPIOLights] = []

        def lights() -> GPIOLights:
            device = GPIOLights([("status", 17), ("turn-white", 27)], pwm=False)
            opened.append(device)
            return device

        part = service.add_part("lights", lights)
        seen: list[tuple[tuple[str, str], ...]] = []

        def release(event: Event, referee: object) -> None:
            seen.append(service.live.snapshot().faults)
            if event.type == "opening" and not squatter.closed:
                squatter.close()  # the other program exits: the next retry gets the pin

        service.on_event.append(release)
        stats = service.run(threading.Event())
        assert stats.faults["lights"] >= 1
        assert any(part == "lights" and "17" in why for faults in seen for part, why in faults)
        assert opened, "the lamps never opened once the pin was free"
        assert _judged(_journal(tmp_path)[1]) == _judged(game.truth)  # the referee never stopped
        assert service.live.snapshot().faults == ()
        assert part.device is None  # closed at the end
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = None


def _resume_frames(game: Game, folder: Path, first: str) -> Path:
    """The recording from ``first`` on: what a camera shows after a restart."""
    folder.mkdir()
    names = sorted(p.name for p in game.frames.glob("*.jpg"))
    for name in names[names.index(first):]:
        shutil.copy(game.frames / name, folder / name)
    presses = game.frames / "buttons.jsonl"
    if presses.exists():
        kept = [line for line in presses.read_text().splitlines()
                if line.strip() and json.loads(line)["frame"] >= first]
        (folder / "buttons.jsonl").write_text("".join(line + "\n" for line in kept))
    return folder


def test_a_restarted_service_carries_on_the_match_in_its_journal(game: Game, tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = _service(game, state)
    stop = threading.Event()
    accepted: list[Event] = []

    def stop_after_two(event: Event, referee: object) -> None:
        if event.type == "accepted":
            accepted.append(event)
            if len(accepted) == 2:
                stop.set()  # SIGTERM, or the watchdog, right after the second play

    first.on_event.append(stop_after_two)
    first.run(stop)
    path, before = _journal(state)
    # A live camera after the restart shows the board as it is now, from the next still on.
    names = sorted(p.name for p in game.frames.glob("*.jpg"))
    later = _resume_frames(game, tmp_path / "later", names[names.index(before[-1].frame) + 1])
    second = _service(game, state, frames=later)
    stats = second.run(threading.Event())
    assert stats.resumed == path.name and stats.matches == 0
    again, events = _journal(state)
    assert again == path and events[:len(before)] == before
    assert _judged(events) == _judged(game.truth)
    # The recording itself goes on from the still after the journal's last frame: played from
    # its start, it once showed the opening to a referee in the middle of the match, which then
    # journaled plays nobody made.
    path.write_bytes(b"".join(line + b"\n" for line in path.read_bytes().splitlines()[:len(before)]))
    third = _service(game, state)
    stats = third.run(threading.Event())
    assert stats.resumed == path.name and stats.matches == 0
    again, events = _journal(state)
    assert again == path and events[:len(before)] == before
    assert _judged(events) == _judged(game.truth)


def test_a_journal_that_cannot_be_resumed_is_kept_and_the_table_refereed_anew(game: Game,
                                                                             tmp_path: Path) -> None:
    # Found by a review: one play in the newest journal that the referee could not follow
    # stopped the service at every start, so under systemd it never refereed again.
    state = tmp_path / "state"
    first = _service(game, state)
    stop = threading.Event()
    first.on_event.append(lambda event, referee: stop.set() if event.type == "accepted" else None)
    first.run(stop)
    path, events = _journal(state)
    damaged = path.read_text().replace(f'"move": "{events[-1]["move"]}"', '"move": "24/1"')
    path.write_text(damaged)
    log = io.StringIO()
    second = _service(game, state)
    second.log = log
    stats = second.run(threading.Event())
    assert stats.resumed is None and stats.matches == 1
    assert path.read_text() == damaged  # kept as it is, for a person or `pipgammon export`
    told = [line for line in log.getvalue().splitlines() if "cannot be resumed" in line]
    assert len(told) == 1 and told[0].startswith(f"pipgammon: journal: {path.name}: cannot be resumed (")
    assert told[0].endswith("kept as it is, and a new match begins at the next set-up")
    (new,) = (p for p in state.glob("match-*.jsonl") if p != path)
    assert _judged(list(load(new).events)) == _judged(game.truth)
    assert "journal" not in dict(second.live.snapshot().faults)  # said, and cleared by the new match


def test_before_a_match_the_page_shows_the_match_the_config_will_begin(game: Game, tmp_path: Path) -> None:
    # The page showed the built-in play mode, standard game and 1 point until a match began.
    service = _service(game, tmp_path, extra='[game]\nvariant = "eureka"\nmatch-to = 3\nmode = "teach"\n')
    stop = threading.Event()
    stop.set()
    service.run(stop)
    snapshot = service.live.snapshot()
    assert (snapshot.mode, snapshot.variant, snapshot.match_to) == ("teach", "eureka", 3)
    assert snapshot.status.startswith("Set up the board")


def test_the_led_bridge_unplugged_and_plugged_in_again(game: Game, tmp_path: Path) -> None:
    from firmware_bridge.simulator import SimulatedBoard

    port = tmp_path / "ttyPIPGAMMON"  # as the udev rule's symlink: the name stays, the pty changes
    board = SimulatedBoard()
    port.symlink_to(board.path)
    service = _service(game, tmp_path / "state",
                       extra=f'[lights]\nbackend = "bridge"\n[bridge]\nport = "{port}"\n')
    stop = threading.Event()
    runner = threading.Thread(target=lambda: service.run(stop))
    service.camera = FolderCamera(game.frames, FPS, loop=True)  # real time: the link needs it
    runner.start()
    try:
        _wait(lambda: board.board.applied > 0, "the board never showed a plan")
        _wait(lambda: any(e.type == "opening" for e in _events(tmp_path / "state")), "no match began")
        board.press(ButtonEvent(Button.MODE, Press.SHORT))
        _wait(lambda: any(e.type == "mode" for e in _events(tmp_path / "state")),
              "a press on the board never reached the referee")
        board.close()  # unplugged
        _wait(lambda: dict(service.live.snapshot().faults).get("bridge", "").startswith("the LED board"),
              "an unplugged board was not reported")
        board = SimulatedBoard(boot_id=0x0BAD)
        port.unlink()
        port.symlink_to(board.path)
        _wait(lambda: "bridge" not in dict(service.live.snapshot().faults),
              "the board plugged in again was not found")
        _wait(lambda: board.board.applied > 0, "the board plugged in again got no plan")
    finally:
        stop.set()
        runner.join(timeout=30)
        board.close()
    assert not runner.is_alive()


def _events(state: Path) -> list[Event]:
    return [e for path in sorted(state.glob("match-*.jsonl")) for e in load(path).events]


def _wait(condition: Callable[[], bool], failure: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(failure)


@pytest.fixture()
def notify_socket(tmp_path: Path) -> Iterator[tuple[socket.socket, Path]]:
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(0.2)
    yield sock, path
    sock.close()


def test_pipgammon_run_tells_systemd_and_stops_cleanly_on_sigterm(
        game: Game, tmp_path: Path, notify_socket: tuple[socket.socket, Path]) -> None:
    sock, address = notify_socket
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    with socket.socket() as probe:  # a free port for the dashboard
        probe.bind(("127.0.0.1", 0))
        web_port = probe.getsockname()[1]
    config.write_text(f'[camera]\nsource = "folder:{game.frames}"\nsize = [{SIZE[0]}, {SIZE[1]}]\n'
                      f'fps = {FPS}\n[calibration]\npath = "{game.calibration_path}"\n'
                      f'[web]\nport = {web_port}\n'
                      f'[storage]\njournal-dir = "{state}"\nexport-dir = "{state / "exports"}"\n')
    env = {**os.environ, "NOTIFY_SOCKET": str(address), "WATCHDOG_USEC": "2000000",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    env.pop("WATCHDOG_PID", None)
    command = [sys.executable, "-m", "pipgammon", "run", "--config", str(config)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    messages: list[tuple[float, str]] = []
    began = time.monotonic()
    try:
        while time.monotonic() - began < 90:
            with contextlib.suppress(TimeoutError):
                messages.append((time.monotonic(), sock.recv(4096).decode()))
            if sum(m.count("WATCHDOG=1") for _, m in messages) >= 6 and \
                    any(e.type == "accepted" for e in _events(state)):
                break
        # The dashboard the service serves shows the match it journals.
        with urllib.request.urlopen(f"http://127.0.0.1:{web_port}/api/state", timeout=10) as reply:
            page = json.load(reply)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
        while True:
            try:
                messages.append((time.monotonic(), sock.recv(4096).decode()))
            except TimeoutError:
                break
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    texts = [m for _, m in messages]
    assert texts[0].startswith("READY=1\nSTATUS=")
    pings = [at for at, m in messages if "WATCHDOG=1" in m]
    assert len(pings) >= 6 and max(b - a for a, b in itertools.pairwise(pings)) < 2.0  # WATCHDOG_USEC
    assert any(m.startswith("STATUS=") and "to play" in m for m in texts)
    assert any(m.startswith("STOPPING=1") for m in texts)
    path, events = _journal(state)
    assert any(e.type == "accepted" for e in events)
    judged = _judged(events)
    assert judged == _judged(game.truth)[:len(judged)]  # every line decided, each one right
    mat = state / "exports" / (path.stem + ".mat")
    assert mat.read_text().startswith("; unfinished: ")  # written on SIGTERM, mid-match
    assert f"exported: {mat} (unfinished: stopped mid-match)" in out
    assert "stopped after" in out and "events journaled" in out
    assert page["journal"] == path.name and page["log"] and "<svg" in page["svg"]
    assert f"dashboard: http://127.0.0.1:{web_port}" in out


def test_a_live_state_is_kept_for_a_page_that_connects_late() -> None:
    from engine.referee import Referee

    live = Live()
    referee = Referee()
    live.referee(referee, referee.start("f0"))
    assert live.wait(0, timeout=0.01).version == 1
    started = time.monotonic()
    assert live.wait(1, timeout=0.2).version == 1 and time.monotonic() - started >= 0.2


def test_a_service_with_no_calibration_is_calibrated_from_the_set_up_board(game: Game,
                                                                            tmp_path: Path) -> None:
    # The players set the board up and wait (the first still, held for a few seconds) while
    # someone presses "capture" on the dashboard's calibration page.
    frames = tmp_path / "frames"
    shutil.copytree(game.frames, frames)
    for copy in range(4):
        shutil.copy(frames / "00001.jpg", frames / f"00000-{copy}.jpg")
    calibration = tmp_path / "state" / "calibration.json"
    calibration.parent.mkdir()
    calibration.write_text("{ not json")  # refused at start-up: kept aside when the new one is saved
    service = _service(game, tmp_path / "state", frames=frames, calibration=calibration)
    answers: list[tuple[bool, str]] = []

    class Capture(FolderCamera):
        def read(self) -> Shot | None:
            shot = super().read()
            if service.stats.frames == 2 and not answers:  # a frame is there: the button is pressed
                answers.append(service.calibrate_now())
            return shot

    service.camera = Capture(frames, FPS, clock=lambda: 0.0, sleep=lambda s: None)
    faults: list[dict[str, str]] = []
    service.on_event.append(lambda event, referee: faults.append(dict(service.live.snapshot().faults)))
    service.run(threading.Event())
    assert answers and answers[0][0], answers
    assert calibration.exists() and str(calibration) in answers[0][1]
    assert Calibration.from_json(calibration.read_text()).frame_size == game.calibration.frame_size
    assert calibration.with_name("calibration.json.refused").read_text() == "{ not json"
    _, events = _journal(tmp_path / "state")
    assert _judged(events) == _judged(game.truth)
    assert "calibration" not in faults[0] and service.live.calibration is not None


def test_a_recording_waits_on_its_frame_until_the_board_is_calibrated(game: Game, tmp_path: Path) -> None:
    # Found by a review: played on while nobody had calibrated, a recording's start went by
    # unjudged, and calibrating from the page never began a match.
    calibration = tmp_path / "state" / "calibration.json"
    service = _service(game, tmp_path / "state", calibration=calibration)
    service.exit_at_end = False  # a service, not a test run to the recording's end
    stop = threading.Event()
    runner = threading.Thread(target=service.run, args=(stop,))
    runner.start()
    try:
        _wait(lambda: service.stats.frames >= 8, "the held frame was not shown again")
        assert service.live.camera_view()[1].frame == "00001.jpg"  # type: ignore[union-attr]
        ok, message = service.calibrate_now()
        assert ok, message
        _wait(lambda: service.stats.matches == 1, "no match began once calibrated")
    finally:
        stop.set()
        runner.join(60)
    assert not runner.is_alive()


def test_pipgammon_run_says_what_is_wrong_in_one_line(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from pipgammon.cli import main

    assert main(["run", "--config", str(tmp_path / "nowhere.toml")]) == 2
    assert capsys.readouterr().err.startswith(f"pipgammon: {tmp_path / 'nowhere.toml'}: ")
    config = tmp_path / "config.toml"
    config.write_text('[storage]\njournal-dir = "/proc/pipgammon"\n[camera]\nsource = "usb:63"\n')
    # Bad input, exit 2 as everywhere (CONTRACT.md); it was 1, as for a service that cannot start.
    assert main(["run", "--config", str(config), "--no-web", "--until-end"]) == 2
    assert "/proc/pipgammon: cannot make the journal folder" in capsys.readouterr().err
    # A recording that cannot be opened will not come by waiting: --until-end once hung silently.
    config.write_text(f'[camera]\nsource = "folder:{tmp_path / "no-frames"}"\n'
                      f'[storage]\njournal-dir = "{tmp_path / "state"}"\n')
    assert main(["run", "--config", str(config), "--no-web", "--until-end"]) == 2
    err = capsys.readouterr().err
    assert err == f"pipgammon: camera: {tmp_path / 'no-frames'}: not a folder of frames\n"
    # A recording played in a loop has no end to wait for: --until-end once ran until SIGTERM.
    config.write_text(f'[camera]\nsource = "folder:{tmp_path}"\nloop = true\n'
                      f'[storage]\njournal-dir = "{tmp_path / "state"}"\n')
    assert main(["run", "--config", str(config), "--no-web", "--until-end"]) == 2
    assert "plays it in a loop (camera.loop = true), which has none" in capsys.readouterr().err


@pytest.mark.parametrize("content, message", [
    (b"{ not json", "not JSON"),
    (b'{"version": 2, "corners": [[0, 0], [1, 0], [1, 1], [0, 1]], "frame_size": [Infinity, 1520]}',
     "'frame_size' malformed"),
    (b'{"version": 2, "x": "\xe9"}', "not UTF-8 text"),
])
def test_pipgammon_run_names_a_refused_calibration_and_runs_on_without_it(
        content: bytes, message: str, game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A refused calibration once stopped `pipgammon run` (exit 1): under systemd at every restart,
    # and the dashboard that makes a new one never ran.
    from pipgammon.cli import main

    broken = tmp_path / "calibration.json"
    broken.write_bytes(content)
    frames = tmp_path / "frames"
    frames.mkdir()
    shutil.copy(game.frames / "00001.jpg", frames)
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "folder:{frames}"\nsize = [{SIZE[0]}, {SIZE[1]}]\nfps = 10\n'
                      f'[calibration]\npath = "{broken}"\n[storage]\njournal-dir = "{tmp_path / "state"}"\n')
    assert main(["run", "--config", str(config), "--no-web", "--until-end"]) == 0
    out = capsys.readouterr().out
    told = [line for line in out.splitlines() if line.startswith("pipgammon: calibration:")]
    assert len(told) == 1 and message in told[0]
    assert told[0].startswith(f"pipgammon: calibration: {broken} refused (")
    assert told[0].endswith("capture the starting position on the dashboard's calibration page")
    assert broken.read_bytes() == content  # kept as it is until a new calibration is saved


def test_a_match_the_run_cannot_export_is_said_and_the_run_fails(
        game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Found by a review: an export folder in /proc ended with "exported: nothing", exit 0, and the
    # reason only on the dashboard.
    from pipgammon.cli import main

    frames = tmp_path / "frames"
    frames.mkdir()
    for still in sorted(game.frames.glob("*.jpg"))[:3]:  # the board set up: a match begins
        shutil.copy(still, frames)
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "folder:{frames}"\nsize = [{SIZE[0]}, {SIZE[1]}]\nfps = 4\n'
                      f'[calibration]\npath = "{game.calibration_path}"\n[storage]\n'
                      f'journal-dir = "{tmp_path / "state"}"\nexport-dir = "/proc/pipgammon-exports"\n')
    assert main(["run", "--config", str(config), "--no-web", "--until-end"]) == 2
    out, err = capsys.readouterr()
    assert "1 match started" in out and "exported: nothing" in out
    (journal,) = (tmp_path / "state").glob("match-*.jsonl")
    assert err == (f"pipgammon: not exported: {journal.name}: cannot make the export folder "
                   f"/proc/pipgammon-exports (No such file or directory): the events are in the journal; "
                   f"`pipgammon export` writes the match from it\n")


def test_a_video_source_that_gives_no_frames_ends_the_run_in_one_line(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    # Found by a review: a PNG as the video printed ffmpeg's lines, then "0 frames", exit 0.
    from pipgammon.cli import main

    text = tmp_path / "text.png"
    text.write_text("no video\n")
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "video:{text}"\n[storage]\njournal-dir = "{tmp_path / "state"}"\n')
    assert main(["run", "--config", str(config), "--no-web", "--until-end"]) == 2
    assert capfd.readouterr().err == (f"pipgammon: camera: {text}: gives no frames: not a video OpenCV "
                                      f"can read\n")
