"""The LED-bridge commands: ``bridge selftest``, ``bridge simulate`` and ``bridge show``.

pyserial and the simulator are imported only when one of them runs.  Faults in
the input, the port or the board become one `BridgeUsageError` line.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import IO

from engine.wording import plural
from pipgammon.arguments import positive_seconds, seconds
from pipgammon.plans import read_plan


class BridgeUsageError(ValueError):
    """Bad input to a bridge command, or a board that cannot be used; printed as is."""


def cmd_selftest(args: argparse.Namespace, out: IO[str]) -> int:
    from firmware_bridge.selftest import run_selftest

    if args.frames < 1:
        raise BridgeUsageError(f"bridge selftest: --frames must be at least 1, got {args.frames}")
    if not 0 <= args.faults < 1:
        raise BridgeUsageError(f"bridge selftest: --faults must be in [0, 1), got {args.faults}")
    if args.window < 1 or args.unplugs < 0 or args.press_every < 0:
        raise BridgeUsageError(
            "bridge selftest: --window must be at least 1, --unplugs and --press-every at least 0")
    report = run_selftest(args.frames, args.faults, seed=args.seed, unplugs=args.unplugs, window=args.window,
                          press_every=args.press_every)
    if args.json:
        out.write(json.dumps(report.to_dict()) + "\n")
    else:
        out.write(
            f"{plural(report.frames, 'state')} shown, {report.delivered} applied, "
            f"{report.superseded} superseded, "
            f"{report.lost} lost, {report.duplicated} applied twice or out of order, "
            f"{report.wrong} not the plan shown; "
            f"board on the last plan: {'yes' if report.converged else 'NO'}\n"
            f"{plural(report.corrupt_detected, 'damaged frame')} detected, "
            f"{plural(report.retries, 'resend')}, {plural(report.reconnects, 'reconnect')}, "
            f"offline pattern shown {plural(report.offline_shown, 'time')}\n"
            f"buttons: {report.buttons_pressed} pressed, {report.buttons_received} received, "
            f"{report.buttons_lost} lost, {report.buttons_doubled} doubled\n"
            f"show() to applied: median {report.p50_ms} ms, p99 {report.p99_ms} ms; {report.seconds} s\n"
        )
    return 0 if report.ok else 1


def cmd_simulate(args: argparse.Namespace, out: IO[str]) -> int:
    from firmware_bridge.simulator import SimulatedBoard

    with SimulatedBoard() as sim:
        out.write(f"{sim.path}\n")
        out.flush()
        try:
            if args.seconds is None:
                while True:
                    time.sleep(3600)
            time.sleep(args.seconds)
        except KeyboardInterrupt:
            pass
    return 0


def cmd_show(args: argparse.Namespace, out: IO[str]) -> int:
    from firmware_bridge.device import Bridge
    from firmware_bridge.errors import BridgeError
    from firmware_bridge.transport import PortOpener, UrlOpener, UsbOpener

    plan = read_plan(args.plan)
    opener: PortOpener = UsbOpener() if args.port == "auto" else UrlOpener(args.port)
    try:
        with Bridge(opener) as bridge:
            info = bridge.open(timeout=args.timeout)
            bridge.show(plan)
            if not bridge.wait_synced(args.timeout):
                raise BridgeUsageError(
                    f"bridge show: the board did not confirm the plan within {args.timeout:g} s")
    except BridgeError as err:
        raise BridgeUsageError(f"bridge show: {err}") from err
    out.write(f"shown on board {info.board_id} (firmware {info.firmware_version}, "
              f"{plural(info.led_count, 'LED')}): "
              f"{plural(len(list(plan.lit())), 'lamp')} lit\n")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bridge = sub.add_parser("bridge", help="the RGB-LED board on USB serial (firmware_bridge)")
    commands = bridge.add_subparsers(dest="bridge_command", required=True, parser_class=type(bridge))

    selftest = commands.add_parser("selftest", help="fault injection against the simulated firmware on a pty")
    selftest.add_argument("--frames", type=int, default=10000, help="light plans to show")
    selftest.add_argument("--faults", type=float, default=0.05,
                          help="chance that a frame is damaged, dropped from or duplicated, each way")
    selftest.add_argument("--seed", type=int, default=1)
    selftest.add_argument("--unplugs", type=int, default=2, help="simulated unplugs (every second one > 2 s)")
    selftest.add_argument("--window", type=int, default=1,
                          help="plans shown before waiting for the board's ack (1: every plan must arrive)")
    selftest.add_argument("--press-every", type=int, default=50,
                          help="press a random button once in this many plans on average (0: never)")
    selftest.add_argument("--json", action="store_true")
    selftest.set_defaults(run=cmd_selftest)

    simulate = commands.add_parser("simulate", help="run the firmware on a pty and print its path")
    simulate.add_argument("--seconds", type=seconds, default=None,
                          help="stop after this long (default: at Ctrl-C)")
    simulate.set_defaults(run=cmd_simulate)

    show = commands.add_parser("show", help="show a light plan (JSON, as LightPlan.to_dict) on the board")
    show.add_argument("--port", default="auto", help="a serial URL or path; 'auto' finds the Pico by VID:PID")
    show.add_argument("--timeout", type=positive_seconds, default=5.0)
    show.add_argument("plan", metavar="PLAN.json")
    show.set_defaults(run=cmd_show)
