"""``pipgammon lights``: walk every lamp and report the buttons, or show a plan.

``--test`` is for checking the wiring on a real Pi; with ``GPIOZERO_PIN_FACTORY=mock``
it runs on any machine.  gpiozero is imported only when the command runs, and its errors
become one `LightsUsageError` line.
"""

from __future__ import annotations

import argparse
import os
import queue
import time
import warnings
from contextlib import ExitStack
from pathlib import Path
from typing import IO

from engine.buttons import ButtonEvent
from engine.lights import LAMPS, WHITE, Light, LightPlan
from hardware.errors import HardwareError
from hardware.lights import BoardLights
from hardware.pins import DEFAULT_PIN_MAP, Backend, PinMap, load_pin_map
from pipgammon.arguments import seconds
from pipgammon.plans import read_plan

#: How long `--test` lights each lamp unless told.
SECONDS_PER_LAMP = 0.5


class LightsUsageError(ValueError):
    """Bad input to ``pipgammon lights``, or hardware that is not there; printed as is."""


def _png_path(text: str) -> str:
    # cv2 picks its writer by the suffix and raises (not returns False) on one it has none for.
    if Path(text).suffix.lower() != ".png":
        raise argparse.ArgumentTypeError(f"expected a file name ending .png, got {text!r}")
    if Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; give a file name in it, such as board.png")
    return text


def use_mock_pwm_pins() -> None:
    """Under ``GPIOZERO_PIN_FACTORY=mock``, make the mock pins PWM-capable: gpiozero's default
    mock pin cannot dim, and the PWMLEDs, /OE and the tonal buzzer all need to."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    if (os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock"
            and "GPIOZERO_MOCK_PIN_CLASS" not in os.environ and Device.pin_factory is None):
        Device.pin_factory = MockFactory(pin_class=MockPWMPin)


Wired = list[tuple[str, str]]  # (lamp, where it is wired)


def open_lights(backend: Backend, pins: PinMap) -> tuple[BoardLights, Wired]:
    """The lights, running (the caller closes them), and the lamps they have with where each is
    wired.  `pipgammon run` opens them the same way."""
    if backend is Backend.SIM:
        from hardware.sim import SimLights

        return SimLights(), [(lamp, "simulated") for lamp in LAMPS]
    if backend is Backend.GPIO:
        from hardware.gpio_lights import GPIOLights

        gpio = GPIOLights(pins.lamps, pwm=pins.pwm)
        gpio.start()
        return gpio, [(lamp, f"GPIO {pin}") for lamp, pin in pins.lamps]
    from hardware.shift_register import ShiftRegisterLights, output_of

    chain = ShiftRegisterLights(device=pins.spi_device, output_enable=pins.output_enable)
    chain.start()
    return chain, [(lamp, output_of(lamp)) for lamp in LAMPS]


def _open_lights(backend: Backend, pins: PinMap, stack: ExitStack) -> tuple[BoardLights, Wired]:
    lights, wired = open_lights(backend, pins)
    stack.callback(lights.close)
    return lights, wired


def _run_test(args: argparse.Namespace, backend: Backend, pins: PinMap, out: IO[str]) -> None:
    with ExitStack() as stack:
        lights, lamps = _open_lights(backend, pins, stack)
        for number, (lamp, where) in enumerate(lamps, 1):
            lights.show(LightPlan.dark().with_lamps({lamp: Light.steady(WHITE)}))
            out.write(f"lamp {number:>2}/{len(lamps)}: {lamp:<10} {where}\n")
            out.flush()
            time.sleep(SECONDS_PER_LAMP if args.seconds_per_lamp is None else args.seconds_per_lamp)
        lights.show(LightPlan.dark())
        if backend is Backend.SIM:
            return
        if pins.buzzer is not None:
            from hardware.buzzer import BoardBuzzer, Sound

            with BoardBuzzer(pins.buzzer, tonal=pins.tonal_buzzer) as buzzer:
                buzzer.play(Sound.ACCEPT)
            out.write(f"buzzer: played {Sound.ACCEPT.value} on GPIO {pins.buzzer}\n")
        if not pins.buttons or args.duration <= 0:
            return
        from hardware.buttons import BoardButtons

        events: queue.Queue[ButtonEvent] = queue.Queue()
        stack.enter_context(BoardButtons(pins.buttons, events.put))
        names = ", ".join(f"{name} (GPIO {pin})" for name, pin in pins.buttons)
        out.write(f"press each button: {names}; listening for {args.duration:g} s\n")
        out.flush()
        deadline = time.monotonic() + args.duration
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = events.get(timeout=left)
            except queue.Empty:
                break
            out.write(f"button {event}\n")
            out.flush()


def _run_show(args: argparse.Namespace, backend: Backend, pins: PinMap, out: IO[str]) -> None:
    plan = read_plan(args.show)
    if args.png is not None and backend is not Backend.SIM:
        raise LightsUsageError("lights: --png draws the simulated board; use it with --backend sim")
    if backend is Backend.SIM:
        import cv2

        from hardware.sim import render_image, render_text

        out.write(render_text(plan) + "\n")
        if args.png is not None:
            # Encoded here and written by Python, so a failed write says why (cv2.imwrite only says no).
            _, png = cv2.imencode(".png", render_image(plan, args.at or 0.0))
            try:
                Path(args.png).write_bytes(png.tobytes())
            except OSError as err:
                raise LightsUsageError(
                    f"{args.png}: cannot write the picture ({err.strerror or err})") from err
        return
    with ExitStack() as stack:
        lights, _ = _open_lights(backend, pins, stack)
        lights.show(plan)
        time.sleep(args.duration)


def cmd_lights(args: argparse.Namespace, out: IO[str]) -> int:
    from gpiozero import GPIOZeroError, PinFactoryFallback

    if args.test and args.png is not None:
        raise LightsUsageError("lights: --png draws the plan of --show; --test has no picture to draw")
    # An option the mode does not use would be ignored, and the user left thinking it acted.
    if args.show is not None and args.seconds_per_lamp is not None:
        raise LightsUsageError("lights: --seconds-per-lamp paces --test; --show keeps its plan lit "
                               "for --duration")
    if args.at is not None and args.png is None:
        raise LightsUsageError("lights: --at is the moment --png draws; give --png OUT.png with it")
    try:
        # gpiozero warns once per pin library it fails to load; the error below says it all.
        warnings.simplefilter("ignore", PinFactoryFallback)
        pins = load_pin_map(Path(args.pins)) if args.pins else DEFAULT_PIN_MAP
        backend = Backend(args.backend) if args.backend else pins.backend
        if backend is Backend.GPIO and not pins.lamps:
            raise LightsUsageError("lights: the gpio backend needs [hardware.lamps] in --pins FILE")
        use_mock_pwm_pins()
        if args.test:
            _run_test(args, backend, pins, out)
        else:
            _run_show(args, backend, pins, out)
    except HardwareError as err:
        raise LightsUsageError(str(err)) from err
    except GPIOZeroError as err:
        raise LightsUsageError(
            f"lights: {err} (on a machine without GPIO, set GPIOZERO_PIN_FACTORY=mock)") from err
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    lights = sub.add_parser("lights", help="check the LED and button wiring, or show a light plan")
    what = lights.add_mutually_exclusive_group(required=True)
    what.add_argument("--test", action="store_true",
                      help="light every lamp in turn, beep, then report each button pressed")
    what.add_argument("--show", metavar="PLAN.json", help="show a LightPlan (its to_dict JSON form)")
    lights.add_argument("--backend", choices=[b.value for b in Backend],
                        help="default: the pin map's backend (595)")
    lights.add_argument("--pins", metavar="FILE.toml",
                        help="a [hardware] pin map (default: the Pi 4/5 defaults)")
    lights.add_argument("--seconds-per-lamp", type=seconds, metavar="S",
                        help=f"--test: seconds each lamp is lit (default {SECONDS_PER_LAMP})")
    lights.add_argument("--duration", type=seconds, default=30.0, metavar="S",
                        help="--test: seconds to listen for buttons (0: none); "
                        "--show: seconds to keep it lit")
    lights.add_argument("--png", type=_png_path, metavar="OUT.png",
                        help="--show --backend sim: also draw the board")
    lights.add_argument("--at", type=seconds, metavar="S",
                        help="--png: draw the lamps S seconds after the plan was shown (default 0)")
    lights.set_defaults(run=cmd_lights)
