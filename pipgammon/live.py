"""What the service knows right now, for the web dashboard: the one meeting point of two threads.

The service loop (one thread) publishes: the referee after every decision, the newest camera
frame with what vision read in it, faults of its parts, and a camera lost (its last picture is
then stale).  The web server (another thread,
its own event loop) reads `Live.snapshot` and waits for a newer `version`.  Everything the web
side gets is an immutable value, so it never sees a referee half-way through a decision.

>>> from engine.referee import Mode, Referee
>>> live = Live()
>>> referee = Referee()
>>> live.referee(referee, referee.start("f0"))
>>> snap = live.snapshot()
>>> snap.version, snap.status, snap.score
(1, "Opening: one die each, or the starter's two", (0, 0))
>>> live.fault("lights", "GPIO 17 busy"); live.snapshot().faults
(('lights', 'GPIO 17 busy'),)
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from engine.events import Event
from engine.lights import LightPlan
from engine.position import Position
from engine.referee import Mode, Referee
from engine.scene import Scene
from pipgammon.turn_log import SHOWN, describe

#: Lines of the turn log kept for the page (a long match has ~400; the journal has them all).
LOG_LINES = 500


@dataclass(frozen=True, slots=True)
class LogLine:
    frame: str
    type: str  # the event type: "accepted", "illegal", ...
    text: str  # `turn_log.describe`

    def to_json(self) -> dict[str, str]:
        return {"frame": self.frame, "type": self.type, "text": self.text}


def clock(when: float) -> str:
    """``HH:MM:SS`` on the service's clock, as the camera picture's banner gives its frame's time."""
    return time.strftime("%H:%M:%S", time.localtime(when))


@dataclass(frozen=True, slots=True)
class CameraLoss:
    """The camera gives no frames since ``since`` (time.time()): the picture the page has is the
    last one, of ``frame`` taken at ``taken`` (None: there was none), and it is stale."""

    since: float
    why: str
    frame: str | None = None
    taken: float | None = None

    def to_json(self) -> dict[str, str | None]:
        return {"since": clock(self.since), "why": self.why, "frame": self.frame,
                "taken": None if self.taken is None else clock(self.taken)}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The referee's state as the players see it, at one `version`."""

    version: int = 0
    status: str = "Starting"
    mode: str = "play"
    to_act: str | None = None  # "white", "black" or None
    score: tuple[int, int] = (0, 0)
    match_to: int = 1
    crawford: bool = False
    game: int = 0  # games finished so far + 1
    variant: str = "standard"
    position: Position = field(default_factory=Position.start)
    plan: LightPlan = field(default_factory=LightPlan.dark)
    dice: tuple[tuple[str, int, bool], ...] = ()  # as the referee last saw them
    cube: tuple[int, str] | None = None
    legal: tuple[str, ...] = ()  # the teaching list: legal plays of the stage being played, teach mode only
    log: tuple[LogLine, ...] = ()
    faults: tuple[tuple[str, str], ...] = ()  # (part, what is wrong), sorted by part
    journal: str = ""  # the file name of the match's journal
    frames: int = 0  # camera frames read since the service started
    camera_lost: CameraLoss | None = None  # None while the camera gives frames

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version, "status": self.status, "mode": self.mode, "to_act": self.to_act,
            "score": list(self.score), "match_to": self.match_to, "crawford": self.crawford,
            "game": self.game, "variant": self.variant,
            "dice": [{"color": c, "value": v, "cocked": k} for c, v, k in self.dice],
            "cube": None if self.cube is None else {"value": self.cube[0], "place": self.cube[1]},
            "legal": list(self.legal), "log": [line.to_json() for line in self.log],
            "faults": {part: why for part, why in self.faults}, "journal": self.journal,
            "frames": self.frames,
            "camera_lost": None if self.camera_lost is None else self.camera_lost.to_json(),
        }


@dataclass(frozen=True, slots=True)
class CameraView:
    """The newest camera frame and what vision made of it (None: not read, e.g. a hand)."""

    image: Any  # BGR uint8 array; never written to after publishing
    observation: Any | None  # vision.observation.Observation
    frame: str
    taken: float  # time.time() when it was read


class Live:
    """Thread-safe: the service publishes, the web reads (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._snapshot = Snapshot()
        self._log: deque[LogLine] = deque(maxlen=LOG_LINES)
        self._faults: dict[str, str] = {}
        self._camera: CameraView | None = None
        self._camera_version = 0
        self._scene: Scene | None = None
        self._calibration: Any | None = None

    # -- the service's side ------------------------------------------------------

    def referee(self, referee: Referee, events: Iterable[Event] = (), scene: Scene | None = None,
                journal: str | None = None) -> None:
        """The referee after it decided ``events`` (on ``scene``, if one was seen)."""
        match = referee.match
        with self._lock:
            if scene is not None:
                self._scene = scene
            for event in events:
                if event.type in SHOWN:
                    self._log.append(LogLine(event.frame, event.type, describe(event)))
            to_act = referee.to_act
            self._replace(
                # `Player.WHITE` is 0, so "is not None": White to act is falsy.
                status=referee.status, mode=referee.mode.value,
                to_act=to_act.label if to_act is not None else None,
                score=match.score, match_to=match.length, crawford=match.is_crawford,
                game=len(match.results) + (0 if match.is_over else 1), variant=referee.config.variant.name,
                position=match.game.position, plan=referee.lights,
                dice=self._scene.dice if self._scene is not None else (),
                cube=self._scene.cube if self._scene is not None else None,
                # Only teaching shows the plays: in play and record mode the players find their own.
                legal=referee.legal_plays if referee.mode is Mode.TEACH else (), log=tuple(self._log),
                journal=self._snapshot.journal if journal is None else journal)

    def referee_waiting(self, status: str, mode: str | None = None, variant: str | None = None,
                        match_to: int | None = None) -> None:
        """No match in play (before the first, between two): what the players should do, and
        what the next match will be (the page showed the built-in defaults until one began)."""
        with self._lock:
            upcoming = {key: value for key, value in (("mode", mode), ("variant", variant),
                                                       ("match_to", match_to)) if value is not None}
            self._replace(status=status, to_act=None, legal=(), plan=LightPlan.dark(), **upcoming)

    def mode(self, mode: str) -> None:
        """The mode button pressed while no match is in play."""
        with self._lock:
            self._replace(mode=mode)

    def new_match(self, journal: str) -> None:
        """A new match's journal: the log starts empty."""
        with self._lock:
            self._log.clear()
            self._scene = None
            self._replace(log=(), journal=journal, dice=(), cube=None)

    def fault(self, part: str, why: str | None) -> None:
        """``part`` ("camera", "lights", "bridge", "buttons", "web") is failing, or recovered (None)."""
        with self._lock:
            if why is None:
                if self._faults.pop(part, None) is None:
                    return
            elif self._faults.get(part) == why:
                return
            else:
                self._faults[part] = why
            self._replace(faults=tuple(sorted(self._faults.items())))

    def camera(self, image: Any, observation: Any | None, frame: str) -> None:
        """The newest frame; the page's camera view redraws from it on request."""
        with self._lock:
            self._camera = CameraView(image, observation, frame, time.time())
            self._camera_version += 1
            if self._snapshot.camera_lost is not None:  # back: the pages drop their stale mark
                self._replace(frames=self._snapshot.frames + 1, camera_lost=None)
                return
            # Not a new snapshot version: a frame a tenth of a second must not wake every page.
            self._snapshot = replace(self._snapshot, frames=self._snapshot.frames + 1)

    def camera_lost(self, why: str) -> None:
        """The camera gives no frames (unplugged, cannot be opened, its recording ended): a fault,
        and the picture the pages show is the last one, from before.  It stays lost until the
        next frame comes (`camera`); the fault, until the service clears it."""
        with self._lock:
            lost = self._snapshot.camera_lost
            if lost is not None and self._faults.get("camera") == why:
                return  # the same again, at every retry: no news for the pages
            if lost is None:
                view = self._camera
                lost = CameraLoss(time.time(), why, None if view is None else view.frame,
                                  None if view is None else view.taken)
            else:
                lost = replace(lost, why=why)
            self._faults["camera"] = why
            self._replace(faults=tuple(sorted(self._faults.items())), camera_lost=lost)

    def calibrated(self, calibration: Any | None) -> None:
        """The calibration vision reads with now (vision.calibration.Calibration), or None."""
        with self._lock:
            self._calibration = calibration
            self._replace()

    # -- the web's side ----------------------------------------------------------

    @property
    def calibration(self) -> Any | None:
        with self._lock:
            return self._calibration

    def snapshot(self) -> Snapshot:
        with self._lock:
            return self._snapshot

    def camera_view(self) -> tuple[int, CameraView | None]:
        """The newest frame and a number that changes with each new frame."""
        with self._lock:
            return self._camera_version, self._camera

    def wait(self, after: int, timeout: float) -> Snapshot:
        """The snapshot once its version is past ``after``, or the current one after ``timeout`` s.

        Blocks: call it from a worker thread (``anyio.to_thread``), never on the event loop."""
        with self._lock:
            self._lock.wait_for(lambda: self._snapshot.version > after, timeout)
            return self._snapshot

    def _replace(self, **changes: Any) -> None:
        self._snapshot = replace(self._snapshot, version=self._snapshot.version + 1, **changes)
        self._lock.notify_all()
