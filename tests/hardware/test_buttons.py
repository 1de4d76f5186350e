"""Buttons: a mock press gives exactly one event; chatter is ignored; a hold is LONG."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.pins.mock import MockFactory

from engine.buttons import Button, ButtonEvent, Press
from hardware.buttons import BoardButtons, PressTracker
from hardware.errors import HardwareError
from hardware.pins import DEFAULT_PIN_MAP

END_TURN = ButtonEvent(Button.END_TURN)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_mock_press_of_end_turn_yields_exactly_one_event(mock_factory: MockFactory) -> None:
    events: queue.Queue[ButtonEvent] = queue.Queue()
    clock = Clock()
    with BoardButtons(DEFAULT_PIN_MAP.buttons, events.put, clock=clock, pin_factory=mock_factory):
        pin = mock_factory.pin(DEFAULT_PIN_MAP.button_pin(Button.END_TURN))
        pin.drive_low()
        clock.now += 0.2
        pin.drive_high()
        assert events.get_nowait() == END_TURN
        assert events.empty()


def test_contact_bounce_is_one_press(mock_factory: MockFactory) -> None:
    events: list[ButtonEvent] = []
    clock = Clock()
    with BoardButtons([("take-back", 6)], events.append, clock=clock, pin_factory=mock_factory):
        pin = mock_factory.pin(6)
        for step in (0.0, 0.002, 0.004, 0.006, 0.15, 0.152, 0.154):  # press bounces, release bounces
            clock.now = 100.0 + step
            (pin.drive_low if pin.state else pin.drive_high)()
        clock.now = 100.3
        pin.drive_high()  # settles released
        clock.now = 100.5
        pin.drive_low()  # a second, separate press
        clock.now = 100.6
        pin.drive_high()
    assert events == [ButtonEvent(Button.TAKE_BACK), ButtonEvent(Button.TAKE_BACK)]


def test_a_long_hold_is_one_long_press_reported_at_release(mock_factory: MockFactory) -> None:
    events: list[ButtonEvent] = []
    clock = Clock()
    with BoardButtons(DEFAULT_PIN_MAP.buttons, events.append, clock=clock, pin_factory=mock_factory):
        pin = mock_factory.pin(16)
        pin.drive_low()
        clock.now += 1.5  # gpiozero's own hold thread waits real seconds, so only the release sees it
        pin.drive_high()
    assert events == [ButtonEvent(Button.MODE, Press.LONG)]


def test_gpiozero_hold_thread_reports_long_while_still_held(mock_factory: MockFactory) -> None:
    events: list[ButtonEvent] = []
    with BoardButtons([("end-turn", 5)], events.append, long_press_s=0.1, pin_factory=mock_factory):
        pin = mock_factory.pin(5)
        pin.drive_low()
        deadline = time.monotonic() + 2.0
        while not events and time.monotonic() < deadline:
            time.sleep(0.01)
        assert events == [ButtonEvent(Button.END_TURN, Press.LONG)]  # before the release
        pin.drive_high()
    assert events == [ButtonEvent(Button.END_TURN, Press.LONG)]  # and nothing more at release


def test_unknown_button_names_are_refused(mock_factory: MockFactory) -> None:
    with pytest.raises(HardwareError, match="no button called 'undo'"):
        BoardButtons([("end-turn", 5), ("undo", 6)], print, pin_factory=mock_factory)
    assert not mock_factory.pin(5).when_changed  # the first button was closed again


@pytest.mark.parametrize(
    ("edges", "expected"),
    [
        ([("press", 0.0), ("release", 0.2)], [Press.SHORT]),
        ([("press", 0.0), ("release", 0.99)], [Press.SHORT]),
        ([("press", 0.0), ("hold", 1.0), ("release", 3.0)], [Press.LONG]),
        ([("press", 0.0), ("hold", 0.5), ("release", 0.6)], [Press.SHORT]),  # an early hold is nothing
        ([("press", 0.0), ("release", 0.01)], []),  # a 10 ms blip is bounce; it stays pressed...
        ([("press", 0.0), ("release", 0.01), ("release", 0.3)], [Press.SHORT]),  # ...until a real release
        ([("release", 0.0), ("hold", 2.0)], []),  # nothing was pressed
        ([("press", 0.0), ("release", 0.2), ("press", 0.21), ("release", 0.5)], [Press.SHORT]),
        ([("press", 0.0), ("release", 0.2), ("press", 0.3), ("release", 0.5)], [Press.SHORT, Press.SHORT]),
    ],
)
def test_press_tracker(edges: list[tuple[str, float]], expected: list[Press]) -> None:
    tracker = PressTracker(Button.END_TURN, debounce_s=0.05, long_press_s=1.0)
    events = [getattr(tracker, edge)(now) for edge, now in edges]
    assert [e.press for e in events if e is not None] == expected
    assert all(e.button is Button.END_TURN for e in events if e is not None)


def test_a_mock_press_of_end_turn_ends_the_turn_in_the_referee(mock_factory: MockFactory) -> None:
    """The whole edge: a gpiozero pin pressed and released, the debounced event, the referee."""
    from engine import Player, Position, Roll, legal_plays
    from engine.game import Phase
    from engine.referee import Referee
    from engine.scene import Scene

    referee = Referee()
    referee.start()
    dice = (("white", 3, False), ("black", 1, False))
    referee.see(Scene.of(Position.start(), dice=dice), "opening.png")
    moved = legal_plays(Position.start(), Player.WHITE, Roll(3, 1)).parse("8/5 6/5").result
    assert referee.see(Scene.of(moved, dice=dice), "moved.png") == []  # dice still down: not judged
    decided = []
    clock = Clock()
    with BoardButtons(DEFAULT_PIN_MAP.buttons, lambda e: decided.extend(referee.press(e, "moved.png")),
                      clock=clock, pin_factory=mock_factory):
        pin = mock_factory.pin(DEFAULT_PIN_MAP.button_pin(Button.END_TURN))
        pin.drive_low()
        clock.now += 0.2
        pin.drive_high()
    assert [(e.type, e["move"]) for e in decided] == [("accepted", "8/5 6/5")]
    assert referee.match.game.turn is Player.BLACK and referee.match.game.phase is Phase.ON_ROLL
