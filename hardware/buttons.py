"""The three buttons, debounced, with a long press, as `engine.buttons.ButtonEvent`s.

`PressTracker` is the pure part: it turns timed edges into events and is where the
debounce and the long press are decided.  `BoardButtons` wires gpiozero's callbacks to
one tracker per button and hands every event to a callback (``queue.put`` works).

>>> tracker = PressTracker(Button.END_TURN, debounce_s=0.05, long_press_s=1.0)
>>> tracker.press(10.0), tracker.release(10.01), tracker.release(10.3)  # 10 ms chatter ignored
(None, None, ButtonEvent(button=<Button.END_TURN: 'end-turn'>, press=<Press.SHORT: 'short'>))
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gpiozero import Button as GPIOButton
from gpiozero.pins import Factory

from engine.buttons import Button, ButtonEvent, Press
from hardware.errors import HardwareError
from hardware.lights import Clock

# Typical tactile switches bounce for under 10 ms; 50 ms is far below a deliberate
# double press.  A second is long enough that nobody holds a button that long by accident.
DEBOUNCE_S = 0.05
LONG_PRESS_S = 1.0


@dataclass(slots=True)
class PressTracker:
    """One button's press, from timed edges.  Trusts that ``now`` never goes backwards.

    An edge within ``debounce_s`` of the last accepted edge is contact bounce and is
    ignored.  A press held for ``long_press_s`` is LONG, reported once: as soon as `hold`
    sees it (gpiozero's ``when_held``), or at release if the hold came late.
    Anything shorter is SHORT, reported at release.
    """

    button: Button
    debounce_s: float = DEBOUNCE_S
    long_press_s: float = LONG_PRESS_S
    _down_at: float | None = field(default=None, init=False)
    _last_edge: float = field(default=float("-inf"), init=False)
    _long_sent: bool = field(default=False, init=False)

    def press(self, now: float) -> ButtonEvent | None:
        if self._down_at is not None or now - self._last_edge < self.debounce_s:
            return None
        self._down_at, self._last_edge, self._long_sent = now, now, False
        return None

    def hold(self, now: float) -> ButtonEvent | None:
        if self._down_at is None or self._long_sent or now - self._down_at < self.long_press_s:
            return None
        self._long_sent = True
        return ButtonEvent(self.button, Press.LONG)

    def release(self, now: float) -> ButtonEvent | None:
        if self._down_at is None or now - self._last_edge < self.debounce_s:
            return None
        event = None if self._long_sent else self.hold(now) or ButtonEvent(self.button, Press.SHORT)
        self._down_at, self._last_edge = None, now
        return event


class BoardButtons:
    """The end-turn, take-back and mode buttons on GPIO, wired to ground (internal pull-ups).

    ``on_event`` is called once per press, from gpiozero's callback threads; the mode
    button only reports itself, and the referee cycles play / teach / record-only.
    """

    def __init__(
        self,
        pins: Sequence[tuple[str, int]],
        on_event: Callable[[ButtonEvent], None],
        *,
        debounce_s: float = DEBOUNCE_S,
        long_press_s: float = LONG_PRESS_S,
        clock: Clock = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        self._on_event = on_event
        self._clock = clock
        self._lock = threading.Lock()
        self._devices: list[GPIOButton] = []
        try:
            for name, pin in pins:
                try:
                    button = Button(name)
                except ValueError:
                    raise HardwareError(f"no button called {name!r}") from None
                tracker = PressTracker(button, debounce_s, long_press_s)
                # Debounce lives in PressTracker alone (bounce_time=None), where it is tested;
                # gpiozero's hold thread only prompts the tracker to check the time.
                device = GPIOButton(pin, pull_up=True, bounce_time=None, hold_time=long_press_s,
                                    pin_factory=pin_factory)
                device.when_pressed = self._handler(tracker.press)
                device.when_released = self._handler(tracker.release)
                device.when_held = self._handler(tracker.hold)
                self._devices.append(device)
        except Exception:
            self.close()
            raise

    def _handler(self, edge: Callable[[float], ButtonEvent | None]) -> Callable[[], None]:
        def handle() -> None:
            with self._lock:
                event = edge(self._clock())
            if event is not None:
                self._on_event(event)

        return handle

    def close(self) -> None:
        for device in self._devices:
            device.close()
        self._devices.clear()

    def __enter__(self) -> BoardButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
