"""`pipgammon run`: the service loop that referees the table, frame by frame, until SIGTERM.

One thread does the refereeing, in order: a camera frame, vision (`Observer`), the
stabiliser, the referee, the journal (one fsynced line per event, before anything is shown),
then the lamps, the buzzer and the dashboard's `Live` state.  Button presses from GPIO or
the LED bridge arrive on their own threads and wait in a queue for the loop.

What may fail, and what the service does then (it never stops refereeing for it):

- the camera goes away: reported as a fault, opened again every `RETRY_S` until it is back;
- the lamps, the buzzer or the buttons raise: reported, closed and opened again later, and
  the referee goes on (the web page and the journal still have every verdict);
- the LED bridge is unplugged: `firmware_bridge.Bridge` finds it again by itself; the
  service reports it as a fault meanwhile;
- no calibration yet: frames are shown on the dashboard until its calibration page (or
  ``pipgammon calibrate``) makes one.

Matches: each has its own journal, ``match-YYYYMMDD-HHMMSS.jsonl`` in ``storage.journal-dir``.
A match starts when the board is seen set up at the starting position with no dice on it;
when it is over it is exported to ``storage.export-dir`` (``.mat``, or ``.txt`` for
variants) and the next one starts at the next set-up.  At start-up a journal whose match is
not over is resumed, so a restart (a crash, the watchdog, a power cut) loses nothing.

systemd hears READY once the loop runs, a WATCHDOG ping at least every half
``WatchdogSec=`` from the loop itself (so a stuck camera read or a stuck referee is
restarted), and a STATUS line whenever the status or the faults change.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Generic, TypeVar

from engine.buttons import Button, ButtonEvent
from engine.errors import EngineError
from engine.events import Event
from engine.position import Position
from engine.referee import Mode, OpeningChoice, Referee, RefereeConfig
from engine.scene import Scene
from engine.variants import find_variant
from pipgammon.camera import Camera, CameraLost, Recording, Shot, live_name, still_copies
from pipgammon.config import Config
from pipgammon.journal import Journal, JournalError, JournalLockedError, load
from pipgammon.live import Live
from pipgammon.notify import Notifier

#: Seconds between attempts to bring a failed part (camera, lamps, buttons) back.
RETRY_S = 2.0
#: Seconds between STATUS lines at most (systemd keeps the last one).
STATUS_S = 1.0
#: Seconds between showings of a recording's frame held until the board is calibrated.
HOLD_S = 0.25
#: The suffix a refused calibration file is kept under when a new calibration is saved.
REFUSED = ".refused"
#: What the log says when a fault of these goes, where "working again" would not fit.
CLEARED = {"calibration": "calibrated", "journal": "a new match began"}
JOURNAL_GLOB = "match-*.jsonl"

T = TypeVar("T")


class ServiceError(RuntimeError):
    """The service cannot start: the journal folder cannot be written, or a journal is locked."""


class ServiceInputError(ServiceError, ValueError):
    """The config names what can never work as it is: a journal folder that cannot be made or
    opened, a recording that cannot be opened at all (with ``exit_at_end``).  Bad input: exit
    status 2 as everywhere else (CONTRACT.md), where a journal locked by another referee is 1."""


@dataclass
class ServiceStats:
    frames: int = 0
    stable: int = 0  # scenes given to the referee
    events: int = 0  # events journaled by this run
    matches: int = 0  # matches started by this run (a resumed one not counted)
    exported: list[Path] = field(default_factory=list)
    unfinished: list[Path] = field(default_factory=list)  # of those, matches written before their end
    # Journal name -> why its match could not be written (the dashboard shows it too, but a run
    # that ends must say it: "exported: nothing" with no reason once hid an export folder in /proc).
    not_exported: dict[str, str] = field(default_factory=dict)
    camera_lost: int = 0  # times the camera went away
    faults: dict[str, int] = field(default_factory=dict)  # part -> times it failed
    resumed: str | None = None  # the journal resumed at start-up


class Part(Generic[T]):
    """A piece of hardware the referee can do without: opened by ``factory``, used through `use`,
    and after any failure closed, reported to ``live`` and opened again `RETRY_S` later."""

    def __init__(self, name: str, factory: Callable[[], T], live: Live, stats: ServiceStats,
                 clock: Callable[[], float]) -> None:
        self.name, self.factory, self.live, self.stats, self.clock = name, factory, live, stats, clock
        self.device: T | None = None
        self.retry_at = 0.0

    def ensure(self) -> T | None:
        if self.device is None and self.clock() >= self.retry_at:
            try:
                self.device = self.factory()
            except Exception as err:  # any driver error: the part is out, the referee is not
                self.failed(err)
            else:
                self.live.fault(self.name, None)
        return self.device

    def use(self, action: Callable[[T], object]) -> None:
        device = self.ensure()
        if device is None:
            return
        try:
            action(device)
        except Exception as err:  # as above: reported, retried, never fatal
            self.failed(err)

    def failed(self, err: BaseException) -> None:
        self.stats.faults[self.name] = self.stats.faults.get(self.name, 0) + 1
        self.live.fault(self.name, f"{type(err).__name__}: {err}" if str(err) else type(err).__name__)
        self.close()
        self.retry_at = self.clock() + RETRY_S

    def close(self) -> None:
        device, self.device = self.device, None
        closer = getattr(device, "close", None)
        if closer is not None:
            with contextlib.suppress(Exception):  # closing a broken device may fail again; dropped anyway
                closer()


def referee_config(config: Config) -> RefereeConfig:
    game = config.game
    return RefereeConfig(variant=find_variant(game.variant), match_to=game.match_to,
                         opening=OpeningChoice(game.opening.value), mode=Mode(game.mode.value),
                         jacoby=game.jacoby)


def _same_match(event: Event, config: RefereeConfig) -> bool:
    """Does a journal's ``match`` event describe the match this config would start?"""
    d = event.details
    return (event.type == "match" and d.get("variant") == config.variant.name
            and d.get("length") == config.match_to and d.get("opening") == config.opening.value
            and bool(d.get("jacoby", False)) == config.jacoby)


def capture_calibration(live: Live, path: Path) -> tuple[Any | None, str]:
    """Learn a calibration from the newest frame ``live`` shows, which must be the starting
    position, save it at ``path`` and publish it; the calibration (None if refused) and a line
    for the page."""
    from vision.calibration import CalibrationError, calibrate
    from vision.outline import OutlineError, find_corners

    _, view = live.camera_view()
    if view is None:
        return None, "not calibrated: no camera frame yet (is the camera connected?)"
    try:
        calibration = calibrate(view.image, find_corners(view.image))
    except (OutlineError, CalibrationError) as err:
        return None, f"not calibrated: frame {view.frame}: {err}"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".new")
        partial.write_text(calibration.to_json() + "\n")
        _keep_if_refused(path)
        partial.replace(path)  # a crash mid-write must not leave half a calibration
    except OSError as err:
        where = f": {err.filename}" if err.filename and str(err.filename) != str(path) else ""
        return None, f"not calibrated: {path}: cannot save the calibration ({err.strerror}{where})"
    live.calibrated(calibration)
    width, height = calibration.frame_size
    return calibration, f"calibrated on frame {view.frame} ({width}x{height}); saved {path}"


def _keep_if_refused(path: Path) -> None:
    """Move a calibration file that cannot be read as one aside (`REFUSED`), for a person to look
    at: a new calibration replaces only a good one."""
    from vision.calibration import Calibration, CalibrationError

    if not path.is_file():
        return
    try:
        Calibration.from_json(path.read_bytes())
    except CalibrationError:
        path.replace(path.with_name(path.name + REFUSED))


def _is_set_up(scene: Scene) -> bool:
    """The board at the starting position, no dice thrown: a match can begin."""
    return not scene.dice and not any(scene.bar) and tuple(scene.points) == _START


_START = tuple(Position.start().at(point) for point in range(1, 25))


class Service:
    """The loop; `run` until ``stop`` is set.  Parts are injected (see `pipgammon.run_cli`)."""

    def __init__(self, config: Config, camera: Camera, *, live: Live | None = None,
                 notifier: Notifier | None = None, calibration: Any | None = None,
                 clock: Callable[[], float] = time.monotonic, log: IO[str] | None = None,
                 calibration_refused: str | None = None) -> None:
        self.config = config
        #: Why the calibration file at start-up was refused, if it was: the service runs without
        #: one, says why, and the dashboard makes a new one (the refused file kept beside it).
        self.calibration_refused = calibration_refused
        #: Where each fault is written as it comes and goes (``pipgammon run``: its output, which
        #: systemd keeps in its journal): without a dashboard nothing else would say it.
        self.log = log
        self._faults_told: dict[str, str] = {}
        self.camera = camera
        self.live = live or Live()
        self.notifier = notifier or Notifier()
        self.clock = clock
        self.stats = ServiceStats()
        self.referee_config = referee_config(config)
        self.presses: queue.Queue[ButtonEvent] = queue.Queue()
        self.parts: dict[str, Part[Any]] = {}
        self.on_event: list[Callable[[Event, Referee], None]] = []
        self.exit_at_end = False
        self._calibration: Any = None  # vision.calibration.Calibration, once there is one
        self._pending_calibration: Any | None = calibration
        self._observer: Any = None
        self._stabiliser: Any = None
        self._referee: Referee | None = None
        self._journal: Journal | None = None
        self._journal_path: Path | None = None
        self._camera_open = False
        self._camera_opened = False  # ever
        self._camera_retry = 0.0
        self._index = 0
        self._ended = False  # a recording has given its last frame
        self._held: Shot | None = None  # a recording's frame shown again until calibrated
        self._held_more = 0  # showings of it still due once calibrated
        self._said = ("", "")
        self._said_at = -STATUS_S
        self._pinged_at = -1e9

    # -- parts -------------------------------------------------------------------

    def add_part(self, name: str, factory: Callable[[], Any]) -> Part[Any]:
        part: Part[Any] = Part(name, factory, self.live, self.stats, self.clock)
        self.parts[name] = part
        return part

    def _show(self) -> None:
        """The lamps just published to the page, on whatever shows them (lamps, LED bridge): the
        plan is worked out once, by `Live.referee` (dark between matches)."""
        plan = self.live.snapshot().plan
        for name in ("lights", "bridge"):
            if name in self.parts:
                self.parts[name].use(lambda device: device.show(plan))

    def _sound(self, events: list[Event]) -> None:
        if "buzzer" not in self.parts:
            return
        from hardware.buzzer import Sound

        kinds = {e.type for e in events}
        sound = (Sound.GAME_OVER if kinds & {"game-over", "match-over"} else Sound.ERROR if "illegal" in kinds
                 else Sound.ACCEPT if "accepted" in kinds else None)
        if sound is not None:
            self.parts["buzzer"].use(lambda buzzer: buzzer.sound(sound))

    def _check_parts(self) -> None:
        """Open parts that failed, and notice an unplugged bridge (its link reconnects by itself)."""
        for name, part in self.parts.items():
            device = part.ensure()
            if name == "bridge" and device is not None:
                self.live.fault("bridge", None if device.connected else
                                "the LED board is not answering (unplugged?); reconnecting")

    # -- matches -------------------------------------------------------------------

    def _journal_dir(self) -> Path:
        folder = self.config.storage.journal_dir
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            in_the_way = isinstance(err, FileExistsError | NotADirectoryError)
            why = "a file is in the way" if in_the_way else err.strerror
            raise ServiceInputError(f"{folder}: cannot make the journal folder ({why})") from err
        return folder

    def _resume(self) -> None:
        """Carry on the newest match whose journal is not over, if this config would play it."""
        journals = sorted(self._journal_dir().glob(JOURNAL_GLOB))
        if not journals:
            return
        path = journals[-1]
        try:
            loaded = load(path)
        except JournalError as err:
            self.live.fault("journal", f"{err}; not resumed, and a new match begins at the next set-up")
            return
        for problem in loaded.problems:
            self.live.fault("journal", f"{path.name}: {problem}")
        events = list(loaded.events)
        if not events or any(e.type == "match-over" for e in events):
            return
        if not _same_match(events[0], self.referee_config):
            self.live.fault("journal", f"{path.name}: an unfinished match of another kind (variant, length "
                                       f"or opening changed in the config); kept as it is, not resumed")
            return
        try:
            referee = Referee.resume(self.referee_config, events)
        except EngineError as err:
            # A journal the referee cannot follow (a line damaged into another event, a hand
            # edit) must not stop the service at every restart: it is kept as it is, for
            # `pipgammon export` or a person to mend, and the table is refereed anew.
            self.live.fault("journal", f"{path.name}: cannot be resumed ({err}); kept as it is, and a new "
                                       f"match begins at the next set-up")
            return
        if isinstance(self.camera, Recording):
            # A recording played again from its start would show the opening to a referee in
            # the middle of the match, which then journaled plays nobody made.
            self.camera.carry_on_after(events[-1].frame)
        self._open_journal(path)
        self._referee = referee
        self.stats.resumed = path.name
        self.live.new_match(path.name)
        self.live.referee(referee, events)

    def _open_journal(self, path: Path) -> None:
        try:
            self._journal = Journal.open(path)
        except JournalLockedError as err:  # another referee: not the config's fault
            raise ServiceError(str(err)) from err
        except JournalError as err:
            raise ServiceInputError(str(err)) from err
        self._journal_path = path

    def _new_match(self, frame: str) -> None:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        folder = self._journal_dir()
        path = folder / f"match-{stamp}.jsonl"
        serial = 1
        while path.exists():  # two matches in one second: a set-up seen right after a match
            serial += 1
            path = folder / f"match-{stamp}-{serial}.jsonl"
        self._open_journal(path)
        self._referee = Referee(self.referee_config)
        self.stats.matches += 1
        self.live.fault("journal", None)  # a journal kept at start-up is said; a new match moves on
        self.live.new_match(path.name)
        self._record(self._referee.start(frame))

    def _record(self, events: list[Event], scene: Scene | None = None) -> None:
        """Journal what the referee decided, then show it; export a match that is over."""
        referee = self._referee
        assert referee is not None and self._journal is not None
        for event in events:
            self._journal.append(event)  # fsynced before any lamp shows it
            self.stats.events += 1
        self.live.referee(referee, events, scene)
        for event in events:  # listeners (tests, the bench) see the page's state with the event
            for listener in self.on_event:
                listener(event, referee)
        if events:
            self._show()
            self._sound(events)
        if any(e.type == "match-over" for e in events):
            self._end_match()

    def _cycle_mode(self) -> None:
        modes = list(Mode)
        mode = modes[(modes.index(self.referee_config.mode) + 1) % len(modes)]
        self.referee_config = replace(self.referee_config, mode=mode)
        self.live.mode(mode.value)

    def _end_match(self) -> None:
        assert self._referee is not None
        # The mode the players chose with the button stays theirs for the next match.
        self.referee_config = replace(self.referee_config, mode=self._referee.mode)
        match = self._referee.match
        self._export()
        self._close_journal()
        self._referee = None
        won = ""
        if match.winner is not None:
            winner = match.winner
            won = f"{winner.label.capitalize()} won {match.score[winner]}-{match.score[winner.opponent]}; "
        self._waiting(f"Match over: {won}set up the board for the next match")

    def _waiting(self, status: str) -> None:
        """No match in play: ``status``, and the next match as the config and the mode button make it."""
        config = self.referee_config
        self.live.referee_waiting(status, mode=config.mode.value, variant=config.variant.name,
                                  match_to=config.match_to)

    def _export(self) -> None:
        """The match so far as .mat (or .txt for variants) beside the others, named as its journal."""
        if self._referee is None or self._journal_path is None:
            return
        from engine.records import RecordError, read_record
        from pipgammon.replay import ReplayError, export

        folder = self.config.storage.export_dir
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            self._not_exported(f"cannot make the export folder {folder} ({err.strerror or err}): the "
                               f"events are in the journal; `pipgammon export` writes the match from it")
            return
        try:
            target = export(self._referee.events, folder / (self._journal_path.stem + ".mat"),
                            self.referee_config.variant.name)
        except (OSError, ReplayError, RecordError) as err:
            self._not_exported(str(err))
            return
        self.stats.not_exported.pop(self._journal_path.name, None)
        if target not in self.stats.exported:
            self.stats.exported.append(target)
        # As the export's own note has it (a money session stopped between games is whole); a
        # match resumed and finished after a stop is written again, whole.
        if read_record(self._referee.events).is_finished:
            if target in self.stats.unfinished:
                self.stats.unfinished.remove(target)
        elif target not in self.stats.unfinished:
            self.stats.unfinished.append(target)

    def _not_exported(self, why: str) -> None:
        assert self._journal_path is not None
        self.live.fault("export", f"{self._journal_path.name}: {why}")
        self.stats.not_exported[self._journal_path.name] = why

    def _close_journal(self) -> None:
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    # -- calibration (called from the web's thread) ----------------------------------

    def calibrate_now(self) -> tuple[bool, str]:
        """The dashboard's capture button: calibrate on the newest frame; the loop takes it next."""
        calibration, message = capture_calibration(self.live, self.config.calibration.path)
        if calibration is not None:
            self._pending_calibration = calibration
        return calibration is not None, message

    def _use_calibration(self) -> None:
        calibration, self._pending_calibration = self._pending_calibration, None
        if calibration is None:
            return
        from vision.observation import HANDS, Observer
        from vision.stabiliser import Stabiliser

        self._calibration = calibration
        self._stabiliser = Stabiliser()
        self._observer = Observer(calibration, self._stabiliser.config,
                                  HANDS if self.config.camera.hands else None)
        self.live.calibrated(calibration)
        self.live.fault("calibration", None)

    # -- the loop ------------------------------------------------------------------

    def run(self, stop: threading.Event) -> ServiceStats:
        """Referee until ``stop`` is set (SIGTERM), or a recording ends with `exit_at_end`."""
        self._resume()
        if self._referee is None:
            self._waiting("Set up the board at the starting position to begin a match")
        self._use_calibration()
        if self._calibration is None:
            path = self.config.calibration.path
            problem = f"no calibration at {path}" if self.calibration_refused is None else (
                f"{path} refused ({self.calibration_refused}; it is kept as {path.name}{REFUSED} when a new "
                f"one is saved)")
            self.live.fault("calibration", f"{problem}: capture the starting position on the dashboard's "
                                           f"calibration page")
        for part in self.parts.values():
            part.ensure()
        self._show()
        self.notifier.ready(self._status_line())
        checked = self.clock()
        try:
            while not stop.is_set():
                self._ping()
                if self.clock() - checked >= RETRY_S:
                    self._check_parts()
                    checked = self.clock()
                self._use_calibration()
                shot = self._next_shot(stop)
                if self._ended and self.exit_at_end:
                    break
                if shot is not None:
                    self._frame(shot)
                self._buttons(shot)
                self._say_status()
        finally:
            self._shutdown()
        return self.stats

    def _ping(self) -> None:
        interval = self.notifier.watchdog_interval
        now = self.clock()
        # Twice as often as systemd asks: a slow frame must not make a ping late.
        if interval is not None and now - self._pinged_at >= interval / 2:
            self.notifier.watchdog()
            self._pinged_at = now

    def _next_shot(self, stop: threading.Event) -> Shot | None:
        """The next frame, or None when there is none now (see ``_ended``)."""
        if self._held is not None:
            # A recording waits on its frame while nobody has calibrated, as players wait while
            # someone captures the start on the page: played on, its start went by unjudged and
            # no match ever began.  Once calibrated, the frame is shown as long as a still is, so
            # the stabiliser can pass the board on.  (Not with `exit_at_end`: a test or a demo
            # runs to the recording's end.)
            if self._calibration is None:
                stop.wait(HOLD_S)
                self._held_more = still_copies(0.0)  # the fewest copies the stabiliser needs
                return replace(self._held, presses=())
            if self._held_more > 0:
                self._held_more -= 1
                return replace(self._held, presses=())
            self._held = None
        if not self._camera_open:
            if self.clock() < self._camera_retry:
                stop.wait(0.1)
                return None
            try:
                self.camera.open()
            except CameraLost as err:
                if self.exit_at_end and not self._camera_opened:
                    # A recording played to its end (tests, demos) that cannot be opened at all
                    # will not appear by itself, as a camera plugged in again would: waiting for
                    # it hung, silently.
                    raise ServiceInputError(f"camera: {err}") from err
                self.live.camera_lost(str(err))
                self._camera_retry = self.clock() + RETRY_S
                return None
            self._camera_open = self._camera_opened = True
            self.live.fault("camera", None)
        try:
            shot = self.camera.read()
        except CameraLost as err:
            self.stats.camera_lost += 1
            self.live.camera_lost(str(err))
            self.camera.close()
            self._camera_open = False
            self._camera_retry = self.clock() + RETRY_S
            return None
        self._ended = shot is None
        if shot is not None and self._calibration is None and not self.exit_at_end \
                and isinstance(self.camera, Recording):
            self._held = shot
        if shot is None:
            if self.exit_at_end:
                return None
            self.live.camera_lost(f"{self.camera.description}: the recording has ended")
            stop.wait(0.5)
            return None
        return shot

    def _frame(self, shot: Shot) -> None:
        self.stats.frames += 1
        if self._observer is None:
            self.live.camera(shot.image, None, shot.name)
            return
        size = (shot.image.shape[1], shot.image.shape[0])
        wanted = tuple(self._calibration.frame_size)
        # Said as the camera's fault; cleared as soon as the sizes agree (a new calibration).
        self.live.fault("camera", None if size == wanted else
                        f"frames are {size[0]}x{size[1]} but the calibration is for {wanted[0]}x{wanted[1]}: "
                        f"set camera.size, or calibrate again")
        seen, moved = self._observer.observe(shot.image)
        self.live.camera(shot.image, seen, shot.name)
        readable = seen.status in ("ok", "cocked")
        self._index += 1
        stable = self._stabiliser.push(self._index, self.clock() * 1000, seen.status,
                                       seen.scene() if readable else None, moved)
        if stable is not None:
            self.stats.stable += 1
            self._scene(stable.scene, shot.name)

    def _scene(self, scene: Scene, frame: str) -> None:
        if self._referee is None:
            if not _is_set_up(scene):
                return
            self._new_match(frame)
        assert self._referee is not None
        self._record(self._referee.see(scene, frame), scene)

    def _buttons(self, shot: Shot | None) -> None:
        """Presses recorded with a replayed frame, then the ones from GPIO or the LED bridge."""
        frame = shot.name if shot is not None else live_name()
        presses = list(shot.presses) if shot is not None else []
        while True:
            try:
                presses.append(self.presses.get_nowait())
            except queue.Empty:
                break
        for press in presses:
            if self._referee is not None:
                self._record(self._referee.press(press, frame))
            elif press.button is Button.MODE:  # between matches: the next one starts in it
                self._cycle_mode()

    def _status_line(self) -> str:
        snapshot = self.live.snapshot()
        faults = "; ".join(f"{part}: {why}" for part, why in snapshot.faults)
        return snapshot.status + (f" | degraded: {faults}" if faults else "")

    def _tell_faults(self) -> None:
        """Write each fault to `log` when it comes, changes or goes."""
        if self.log is None:
            return
        now = dict(self.live.snapshot().faults)
        for part in sorted(now.keys() | self._faults_told.keys()):
            if part not in now:
                print(f"pipgammon: {part}: {CLEARED.get(part, 'working again')}", file=self.log, flush=True)
            elif self._faults_told.get(part) != now[part]:
                print(f"pipgammon: {part}: {now[part]}", file=self.log, flush=True)
        self._faults_told = now

    def _say_status(self) -> None:
        self._tell_faults()
        now = self.clock()
        snapshot = self.live.snapshot()
        said = (snapshot.status, repr(snapshot.faults))
        if said != self._said and now - self._said_at >= STATUS_S:
            self.notifier.status(self._status_line())
            self._said, self._said_at = said, now

    def _shutdown(self) -> None:
        """SIGTERM or the end: tell systemd, export the match so far, close everything."""
        self._tell_faults()
        self.notifier.stopping("stopping: journal flushed, exporting the match so far")
        if self._referee is not None:
            self._export()
            self._tell_faults()  # an export that failed just now is told as the others were
        self._close_journal()
        self.camera.close()
        for part in self.parts.values():
            part.close()
