"""The buzzer's three sounds, as data, played on gpiozero's `TonalBuzzer` or `Buzzer`.

A passive buzzer (``tonal = true``) plays the notes; an active one can only sound or
not, so it beeps the same rhythm.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Mapping
from enum import Enum

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone


class Sound(Enum):
    ACCEPT = "accept"  # a play was accepted
    ERROR = "error"  # an illegal play, or a roll out of turn
    GAME_OVER = "game-over"


Note = tuple[float | None, float]  # (pitch in Hz, or None for a rest; seconds)

# Rising means yes, a low double buzz means no, a falling run means the end.  Every pitch
# lies in A4..A6 (440..1760 Hz), the range `TonalBuzzer` is built for below.
TUNES: Mapping[Sound, tuple[Note, ...]] = {
    Sound.ACCEPT: ((1046.5, 0.08), (1318.5, 0.12)),  # C6 E6
    Sound.ERROR: ((440.0, 0.25), (None, 0.1), (440.0, 0.25)),  # A4, rest, A4
    Sound.GAME_OVER: ((1318.5, 0.15), (1174.7, 0.15), (1046.5, 0.15), (880.0, 0.45)),  # E6 D6 C6 A5
}

Sleep = Callable[[float], None]


class BoardBuzzer:
    """Plays a `Sound`: `play` blocks (tests pass a fake ``sleep``), `sound` queues it for a
    worker thread so the referee never waits for a tune to end."""

    def __init__(
        self,
        pin: int,
        *,
        tonal: bool = True,
        sleep: Sleep = time.sleep,
        pin_factory: Factory | None = None,
    ) -> None:
        self._sleep = sleep
        self._device: TonalBuzzer | Buzzer
        if tonal:
            self._device = TonalBuzzer(pin, mid_tone=Tone.from_frequency(880.0), octaves=1,
                                       pin_factory=pin_factory)
        else:
            self._device = Buzzer(pin, pin_factory=pin_factory)
        self._queue: queue.Queue[Sound | None] = queue.Queue()
        self._worker: threading.Thread | None = None

    def play(self, sound: Sound) -> None:
        """Play ``sound`` to its end, then fall silent."""
        try:
            for pitch, seconds in TUNES[sound]:
                if pitch is None:
                    self._silence()
                elif isinstance(self._device, TonalBuzzer):
                    self._device.play(Tone.from_frequency(pitch))
                else:
                    self._device.on()
                self._sleep(seconds)
        finally:
            self._silence()

    def sound(self, sound: Sound) -> None:
        """Queue ``sound`` and return at once; sounds play one after another."""
        if self._worker is None:
            self._worker = threading.Thread(target=self._run, name="buzzer", daemon=True)
            self._worker.start()
        self._queue.put(sound)

    def _run(self) -> None:
        while (sound := self._queue.get()) is not None:
            self.play(sound)

    def _silence(self) -> None:
        if isinstance(self._device, TonalBuzzer):
            self._device.stop()
        else:
            self._device.off()

    def close(self) -> None:
        """Finish the sounds already queued, then release the pin."""
        if self._worker is not None:
            self._queue.put(None)
            self._worker.join()
            self._worker = None
        self._device.close()

    def __enter__(self) -> BoardBuzzer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

