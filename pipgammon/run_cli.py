"""``pipgammon run --config FILE``: the service, with its parts and dashboard built from the config.

This is the I/O shell around `pipgammon.service.Service`: it reads the config, opens the
calibration, makes each part's factory (lamps, LED bridge, buttons, buzzer), starts the web
dashboard, turns SIGTERM and SIGINT into a graceful stop, and prints what was done.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from engine.wording import plural
from pipgammon.config import DEFAULT_PATH, Config, ConfigError, LightsBackend, load_config
from pipgammon.service import Service, ServiceError, ServiceInputError

#: A run whose match could not be written where the config says (its journal holds it): the
#: config's fault, so the exit status of bad input (CONTRACT.md).
EXIT_NOT_EXPORTED = 2


class RunError(RuntimeError):
    """The service cannot start for a reason not in its input (a journal another referee holds):
    exit status 1, and systemd restarts it."""


def _calibration(config: Config) -> tuple[Any | None, str | None]:
    """The saved calibration, or None when there is none yet (the dashboard makes one), and why
    a file that is there was refused.  A refused file does not stop the service: under systemd
    it would stop at every restart, and the dashboard that makes a new one would never run."""
    from vision.calibration import Calibration, CalibrationError

    path = config.calibration.path
    if not path.exists():
        return None, None
    try:
        return Calibration.from_json(path.read_bytes()), None
    except OSError as err:
        return None, f"cannot read it ({err.strerror or err})"
    except CalibrationError as err:
        return None, str(err)


def add_parts(service: Service, config: Config) -> None:
    """Register the hardware the config names; each is opened (and reopened) by the service."""
    from hardware.pins import Backend

    pins = config.lights.pins
    if pins is not None and os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock":
        from pipgammon.lights_cli import use_mock_pwm_pins

        use_mock_pwm_pins()
    backend = config.lights.backend
    if backend in (LightsBackend.SIM, LightsBackend.GPIO, LightsBackend.SHIFT_REGISTER):
        from hardware.pins import DEFAULT_PIN_MAP
        from pipgammon.lights_cli import open_lights

        lamp_pins = pins or DEFAULT_PIN_MAP
        service.add_part("lights", lambda: open_lights(Backend(backend.value), lamp_pins)[0])
    if backend is LightsBackend.BRIDGE:
        from firmware_bridge.device import Bridge
        from firmware_bridge.transport import UrlOpener, UsbOpener

        bridge = config.bridge

        def open_bridge() -> Bridge:
            opener = UsbOpener(bridge.vid, bridge.pid) if bridge.port == "auto" else UrlOpener(bridge.port)
            device = Bridge(opener)
            device.on_button(service.presses.put)
            device.start()  # never waits: the board is found whenever it is plugged in
            return device

        service.add_part("bridge", open_bridge)
    if pins is not None and pins.buttons:
        from hardware.buttons import BoardButtons

        service.add_part("buttons", lambda: BoardButtons(pins.buttons, service.presses.put))
    if pins is not None and pins.buzzer is not None:
        from hardware.buzzer import BoardBuzzer

        buzzer_pin = pins.buzzer
        service.add_part("buzzer", lambda: BoardBuzzer(buzzer_pin, tonal=pins.tonal_buzzer))


def _start_web(service: Service, config: Config, out: IO[str]) -> Any | None:
    """The dashboard; a port in use is a fault on the page's absence, not the referee's end."""
    from pipgammon.web.app import create_app
    from pipgammon.web.server import WebError, WebServer

    app = create_app(service.live, exports=config.storage.export_dir, token=config.web.token,
                     calibrate=service.calibrate_now)
    server = WebServer(app, config.web.host, config.web.port)
    try:
        server.start()
    except WebError as err:
        why = str(err).removeprefix("web: ")  # the fault is shown under "web" already
        service.live.fault("web", why)
        print(f"pipgammon: web dashboard not started: {why}", file=out, flush=True)
        return None
    print(f"dashboard: {server.url}", file=out, flush=True)
    return server


def cmd_run(args: argparse.Namespace, out: IO[str]) -> int:
    from pipgammon.camera import open_camera

    config = load_config(Path(args.config))
    if args.until_end and config.camera.loop:
        raise ConfigError(f"run: --until-end waits for a recording's end, and {args.config} plays it "
                          "in a loop (camera.loop = true), which has none")
    calibration, refused = _calibration(config)
    service = Service(config, open_camera(config.camera), calibration=calibration, log=out,
                      calibration_refused=refused)
    service.exit_at_end = args.until_end
    add_parts(service, config)
    stop = threading.Event()
    previous = {number: signal.signal(number, lambda *_: stop.set())
                for number in (signal.SIGTERM, signal.SIGINT)}
    server = None if args.no_web else _start_web(service, config, out)
    began = time.monotonic()
    print(f"refereeing {config.game.variant}, match to {config.game.match_to}, from {config.camera.source}; "
          f"journals in {config.storage.journal_dir}", file=out, flush=True)
    try:
        stats = service.run(stop)
    except ServiceInputError:
        raise  # bad input: one line and exit 2 (cli.BAD_INPUT)
    except ServiceError as err:
        raise RunError(str(err)) from err
    finally:
        if server is not None:
            server.stop()
        for number, handler in previous.items():  # `main` may be called again in this process
            signal.signal(number, handler)
    resumed = f"resumed {stats.resumed}; " if stats.resumed else ""
    print(f"stopped after {time.monotonic() - began:.0f} s: {resumed}{plural(stats.frames, 'frame')}, "
          f"{plural(stats.stable, 'scene')} judged, {plural(stats.events, 'event')} journaled, "
          f"{plural(stats.matches, 'match', 'matches')} started, "
          f"camera lost {plural(stats.camera_lost, 'time')}; "
          f"exported: {', '.join(_exported(p, stats.unfinished) for p in stats.exported) or 'nothing'}",
          file=out, flush=True)
    if stats.faults:
        print("faults: " + ", ".join(f"{part} {n}x" for part, n in sorted(stats.faults.items())), file=out)
    if stats.not_exported:
        # The events are safe in the journal, but the match file the run was for is not there.
        why = "; ".join(f"{journal}: {err}" for journal, err in stats.not_exported.items())
        print(f"pipgammon: not exported: {why}", file=sys.stderr, flush=True)
        return EXIT_NOT_EXPORTED
    return 0


def _exported(path: Path, unfinished: list[Path]) -> str:
    return f"{path} (unfinished: stopped mid-match)" if path in unfinished else str(path)


def add_commands(sub: Any) -> None:
    run = sub.add_parser("run", help="the referee service: camera, vision, referee, lights, journal, web")
    run.add_argument("--config", default=str(DEFAULT_PATH), metavar="FILE.toml",
                     help=f"the service's config (default {DEFAULT_PATH})")
    run.add_argument("--until-end", action="store_true",
                     help="stop when a folder or video source has given its last frame (tests, demos)")
    run.add_argument("--no-web", action="store_true", help="do not serve the dashboard")
    run.set_defaults(run=cmd_run)
