"""Fault injection: the host against the simulated firmware through a damaging relay.

::

    Bridge ── pty ── FaultRelay ── pty ── SimulatedBoard (firmware/main.py)

`FaultRelay` forwards whole frames and, with probability ``rate`` each, corrupts a
byte, drops a byte or sends the frame twice; `FaultRelay.unplug` closes the host's
pty and opens a new one under a new name later, as a USB re-enumeration does.  The
host finds it again through `FaultRelay.comports` by VID:PID, as on a Pi.

`run_selftest` shows ``frames`` random plans and checks, from the firmware's own
record of what it applied, that the board ends on the last plan, that states were
applied in strictly increasing order and never twice, that each applied state is
the plan shown under its number (a damaged frame the CRC missed would not be), and
that every button
event arrived exactly once and in order.
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import statistics
import threading
import time
import tty
from dataclasses import asdict, dataclass
from typing import Any

from engine.buttons import Button, ButtonEvent, Press
from engine.lights import LAMPS, Colour, Light, LightPlan, Pattern
from firmware_bridge.device import Bridge
from firmware_bridge.firmware import wire
from firmware_bridge.framing import encode_lights
from firmware_bridge.protocol import LinkConfig
from firmware_bridge.simulator import SimulatedBoard
from firmware_bridge.transport import PICO_PID, PICO_VID, Backoff, UsbOpener

SHORT_UNPLUG_S = 0.3
LONG_UNPLUG_S = 2.5  # longer than the firmware's watchdog: the board shows "offline"


@dataclass(frozen=True, slots=True)
class PortInfo:
    """The fields of pyserial's ``ListPortInfo`` that discovery reads."""

    device: str
    vid: int = PICO_VID
    pid: int = PICO_PID


@dataclass(slots=True)
class FaultCounts:
    corrupted: int = 0
    dropped: int = 0
    duplicated: int = 0
    unplugs: int = 0


class _Direction:
    """One direction of the relay: damages some of the frames passing through.

    Nothing is held back waiting for a frame's end (a cable would not), so the
    pieces of a frame split across two reads are judged separately.
    """

    def __init__(self, rate: float, rng: random.Random, counts: FaultCounts) -> None:
        self.rate = rate
        self.rng = rng
        self.counts = counts

    def pass_on(self, data: bytes) -> bytes:
        *frames, tail = data.split(b"\x00")
        out = bytearray()
        for piece in [body + b"\x00" for body in frames] + ([tail] if tail else []):
            frame = bytearray(piece)
            if self.rng.random() < self.rate:
                fault = self.rng.randrange(3)
                at = self.rng.randrange(len(frame))
                if fault == 0:
                    frame[at] ^= self.rng.randrange(1, 256)
                    self.counts.corrupted += 1
                elif fault == 1:
                    del frame[at]
                    self.counts.dropped += 1
                else:
                    frame = frame * 2
                    self.counts.duplicated += 1
            out += frame
        return bytes(out)


def _write_all(fd: int, data: bytes) -> None:
    with contextlib.suppress(OSError):  # the other end is gone or full: bytes lost, as on a cable
        os.write(fd, data)


class FaultRelay:
    """A damaging cable between the host's pty and the board's pty."""

    def __init__(self, board_path: str, rate: float, rng: random.Random) -> None:
        self.counts = FaultCounts()
        self._board = os.open(board_path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self._board)
        self._to_board = _Direction(rate, rng, self.counts)
        self._to_host = _Direction(rate, rng, self.counts)
        self._host: tuple[int, int] | None = None
        self.path: str | None = None
        self._plug_in()
        self._unplug_for: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="fault-relay", daemon=True)
        self._thread.start()

    def comports(self) -> list[PortInfo]:
        """What ``serial.tools.list_ports.comports()`` would list: the board, if plugged in."""
        path = self.path
        return [] if path is None else [PortInfo(path)]

    def unplug(self, seconds: float) -> None:
        """Pull the cable now and plug it back in ``seconds`` later."""
        self._unplug_for = seconds

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)
        self._pull_out()
        os.close(self._board)

    def __enter__(self) -> FaultRelay:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _plug_in(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # kept open so the pty lives until the host opens it
        os.set_blocking(master, False)
        self._host = (master, slave)
        self.path = os.ttyname(slave)

    def _pull_out(self) -> None:
        if self._host is not None:
            self.path = None
            for fd in self._host:
                os.close(fd)
            self._host = None

    def _run(self) -> None:
        back_at = 0.0
        while not self._stop.is_set():
            if self._unplug_for is not None:
                back_at = time.monotonic() + self._unplug_for
                self._unplug_for = None
                self._pull_out()
                self.counts.unplugs += 1
            if self._host is None and time.monotonic() >= back_at:
                self._plug_in()
            fds = [self._board] if self._host is None else [self._board, self._host[0]]
            ready, _, _ = select.select(fds, [], [], 0.005)
            if self._board in ready:
                data = self._read(self._board)
                if self._host is not None:
                    _write_all(self._host[0], self._to_host.pass_on(data))
            if self._host is not None and self._host[0] in ready:
                _write_all(self._board, self._to_board.pass_on(self._read(self._host[0])))

    @staticmethod
    def _read(fd: int) -> bytes:
        try:
            return os.read(fd, 4096)
        except OSError:
            return b""


def random_plan(rng: random.Random) -> LightPlan:
    patterns = list(Pattern)
    return LightPlan(tuple(
        Light(rng.choice(patterns), Colour(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
        if rng.random() < 0.3 else Light() for _ in LAMPS
    ))


@dataclass(frozen=True, slots=True)
class StateCounts:
    """What became of the states shown, from the firmware's record."""

    delivered: int
    lost: int
    duplicated: int
    superseded: int
    wrong: int
    p50_ms: float
    p99_ms: float


@dataclass(frozen=True, slots=True)
class SelftestReport:
    frames: int
    delivered: int
    lost: int
    duplicated: int
    corrupt_detected: int
    retries: int
    p50_ms: float
    p99_ms: float
    superseded: int
    wrong: int
    converged: bool
    buttons_pressed: int
    buttons_received: int
    buttons_lost: int
    buttons_doubled: int
    reconnects: int
    offline_shown: int
    faults_injected: dict[str, int]
    seconds: float

    @property
    def ok(self) -> bool:
        return (self.converged and self.lost == 0 and self.duplicated == 0 and self.wrong == 0
                and self.buttons_lost == 0 and self.buttons_doubled == 0)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def run_selftest(frames: int, faults: float, seed: int = 1, unplugs: int = 2, window: int = 1,
                 press_every: int = 50, config: LinkConfig | None = None) -> SelftestReport:
    """Show ``frames`` plans over a relay that damages ``faults`` of the frames each way.

    With ``window`` 1 each plan waits for the board's ack before the next is shown,
    so every state must reach the board; a larger window lets newer plans replace
    unacknowledged ones, which the report counts as ``superseded``.  Unplugs are
    spread evenly; every second one outlasts the firmware's watchdog.
    """
    rng = random.Random(seed)
    applied: list[tuple[int, float, bytes]] = []
    pressed: list[ButtonEvent] = []
    received: list[ButtonEvent] = []
    shown: list[tuple[float, bytes]] = []
    started = time.perf_counter()
    unplug_at = {frames * (k + 1) // (unplugs + 1): LONG_UNPLUG_S if k % 2 else SHORT_UNPLUG_S
                 for k in range(unplugs)}
    with (SimulatedBoard() as sim, FaultRelay(sim.path, faults, random.Random(seed + 1)) as relay,
          Bridge(UsbOpener(comports=relay.comports), config=config, session=rng.getrandbits(32),
                 backoff=Backoff(first=0.02, limit=0.2)) as bridge):
        sim.board.on_apply = lambda seq, payload: applied.append((seq, time.perf_counter(), payload))
        bridge.on_button(received.append)
        bridge.open(timeout=10.0)
        first_state = bridge.state
        last_plan = LightPlan.dark()
        for i in range(frames):
            last_plan = random_plan(rng)
            payload = encode_lights(last_plan)
            shown.append((time.perf_counter(), payload))
            bridge.show(last_plan)
            if i in unplug_at:
                relay.unplug(unplug_at[i])
            if press_every and rng.randrange(press_every) == 0:
                event = ButtonEvent(rng.choice(list(Button)), rng.choice(list(Press)))
                pressed.append(event)
                sim.press(event)
            if (i + 1) % window == 0:
                bridge.wait_synced(timeout=10.0)
        converged = bridge.wait_synced(timeout=10.0)
        deadline = time.monotonic() + 10.0
        while len(received) < len(pressed) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.1)  # a late duplicate, if there were one, would show up now
        with sim.lock:
            board = sim.board
            converged = converged and board.online and board.plan == encode_lights(last_plan)
            stats = bridge.stats()
            corrupt = stats.corrupt + board.corrupt
            retries = stats.retries + board.retries
            offline = board.offline_count
        faults_injected = asdict(relay.counts)
    states = _judge(frames, first_state, applied, shown)
    matched = 0  # the longest in-order match, taken greedily: each press once, in order
    for event in received:
        if matched < len(pressed) and event == pressed[matched]:
            matched += 1
    return SelftestReport(
        frames=frames, delivered=states.delivered, lost=states.lost, duplicated=states.duplicated,
        corrupt_detected=corrupt, retries=retries, p50_ms=states.p50_ms, p99_ms=states.p99_ms,
        superseded=states.superseded, wrong=states.wrong, converged=converged,
        buttons_pressed=len(pressed), buttons_received=len(received),
        buttons_lost=len(pressed) - matched, buttons_doubled=len(received) - matched,
        reconnects=stats.connections - 1, offline_shown=offline, faults_injected=faults_injected,
        seconds=round(time.perf_counter() - started, 2),
    )


def _judge(frames: int, first_state: int, applied: list[tuple[int, float, bytes]],
           shown: list[tuple[float, bytes]]) -> StateCounts:
    """Count from the firmware's record of applied states (16-bit numbers, unwrapped)."""
    index = 0  # states are numbered first_state + 1, + 2, ...: index 1 is the first shown
    seen: set[int] = set()
    duplicated = 0
    latencies: list[float] = []
    wrong = 0
    for seq, at, payload in applied:
        step = (seq - first_state - index) & wire.SEQ_MASK
        if step == 0 or step >= 0x8000:
            duplicated += 1  # applied again, or after a newer state
            continue
        index += step
        if not 1 <= index <= frames or payload != shown[index - 1][1]:
            wrong += 1  # a state this host never showed under that number
        elif index not in seen:
            seen.add(index)
            latencies.append((at - shown[index - 1][0]) * 1000)
    last = max(seen, default=0)
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [0.0] * 99
    return StateCounts(
        delivered=len(seen),
        lost=frames - last,  # after the last state applied, nothing newer reached the board
        duplicated=duplicated,
        superseded=last - len(seen),  # never shown, but a newer state was
        wrong=wrong,
        p50_ms=round(statistics.median(latencies), 3) if latencies else 0.0,
        p99_ms=round(cuts[98], 3),
    )
