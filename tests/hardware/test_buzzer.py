"""The buzzer: each sound's whole tone history, with a fake sleep so nothing waits."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buzzer import TUNES, BoardBuzzer, Sound


class Recorder:
    """A fake `sleep` that records what the pin does during each note."""

    def __init__(self, factory: MockFactory, pin: int) -> None:
        self.pin = factory.pin(pin)
        self.heard: list[tuple[float | None, float, float]] = []  # (Hz, duty, seconds)

    def __call__(self, seconds: float) -> None:
        self.heard.append((self.pin.frequency, float(self.pin.state), seconds))


@pytest.mark.parametrize(
    ("sound", "heard"),
    [
        (Sound.ACCEPT, [(1046.5, 0.5, 0.08), (1318.5, 0.5, 0.12)]),
        (Sound.ERROR, [(440.0, 0.5, 0.25), (None, 0.0, 0.1), (440.0, 0.5, 0.25)]),
        (Sound.GAME_OVER,
         [(1318.5, 0.5, 0.15), (1174.7, 0.5, 0.15), (1046.5, 0.5, 0.15), (880.0, 0.5, 0.45)]),
    ],
)
def test_each_sound_on_a_tonal_buzzer(pwm_factory: MockFactory, sound: Sound, heard: list[object]) -> None:
    recorder = Recorder(pwm_factory, 13)
    with BoardBuzzer(13, sleep=recorder, pin_factory=pwm_factory) as buzzer:
        buzzer.play(sound)
        assert recorder.heard == heard
        assert recorder.pin.frequency is None  # silent after the tune
    # Duty 0.5 while sounding, 0 in rests; the frequency alone changes between notes.
    rests = sum(1 for pitch, _ in TUNES[sound] if pitch is None)
    assert [s.state for s in recorder.pin.states] == [0.0] + [0.5, 0.0] * (rests + 1)


def test_an_active_buzzer_beeps_the_same_rhythm(mock_factory: MockFactory) -> None:
    recorder = Recorder(mock_factory, 13)
    with BoardBuzzer(13, tonal=False, sleep=recorder, pin_factory=mock_factory) as buzzer:
        buzzer.play(Sound.ERROR)
    assert recorder.heard == [(None, 1.0, 0.25), (None, 0.0, 0.1), (None, 1.0, 0.25)]
    assert [s.state for s in recorder.pin.states] == [False, True, False, True, False]


def test_sound_queues_for_the_worker_and_close_waits_for_it(pwm_factory: MockFactory) -> None:
    recorder = Recorder(pwm_factory, 13)
    buzzer = BoardBuzzer(13, sleep=recorder, pin_factory=pwm_factory)
    started = time.monotonic()
    buzzer.sound(Sound.ACCEPT)
    buzzer.sound(Sound.ERROR)
    buzzer.close()
    assert time.monotonic() - started < 1.0  # the fake sleep never waited
    assert [pitch for pitch, _, _ in recorder.heard] == [1046.5, 1318.5, 440.0, None, 440.0]
