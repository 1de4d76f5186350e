"""``pipgammon config check FILE [--json]``: validate a service config before the service reads it.

A good file prints ``ok`` and a summary (or the summary as JSON with ``"ok": true``); a bad one
prints its one-line `ConfigError` on stderr and exits with status 2, as all bad input does.
"""

from __future__ import annotations

import argparse
import json
from typing import IO, Any

from engine.wording import plural
from pipgammon.config import DEFAULT_PATH, ConfigError, load_config


def cmd_config_check(args: argparse.Namespace, out: IO[str]) -> int:
    config = load_config(args.file)  # ConfigError: one line on stderr, exit 2 (cli.BAD_INPUT)
    summary = config.summary()
    if args.json:
        out.write(json.dumps({"ok": True, "file": config.source, **summary}) + "\n")
        return 0
    out.write(f"ok: {config.source}\n")
    for line in _summary_lines(summary):
        out.write(f"  {line}\n")
    return 0


def _summary_lines(summary: dict[str, Any]) -> list[str]:
    camera, game, lights, web = summary["camera"], summary["game"], summary["lights"], summary["web"]
    match = "money play" if game["match-to"] == 0 else f"match to {game['match-to']}"
    wired = [f"{plural(lights['lamps'], 'lamp')} on GPIO"] if lights["lamps"] else []
    if "shift-register" in lights:
        chain = lights["shift-register"]
        wired.append(f"74HC595s on SPI0 CE{chain['device']}"
                     + (f", /OE GPIO {chain['oe']}" if chain["oe"] is not None else ""))
    wired += [f"buttons {', '.join(f'{k} GPIO {v}' for k, v in lights['buttons'].items())}"] \
        if lights["buttons"] else []
    wired += [f"buzzer GPIO {lights['buzzer']}"] if lights["buzzer"] is not None else []
    return [
        f"camera: {camera['source']} {camera['size'][0]}x{camera['size'][1]} at {camera['fps']:g} fps; "
        f"calibration {summary['calibration']['path']}",
        f"game: {game['variant']}, {match}, opening {game['opening']}, mode {game['mode']}"
        + (", Jacoby rule" if game["jacoby"] else ""),
        f"lights: {lights['backend']}" + (f" ({'; '.join(wired)})" if wired else ""),
        f"bridge: port {summary['bridge']['port']}, USB id {summary['bridge']['usb-id']}",
        f"web: http://{web['host']}:{web['port']}/" + (" with a token" if web["token"] else ""),
        f"storage: journal {summary['storage']['journal-dir']}, exports {summary['storage']['export-dir']}",
    ]


def add_commands(sub: argparse._SubParsersAction[Any]) -> None:
    """Add ``config check`` to the ``pipgammon`` parser."""
    config = sub.add_parser("config", help="check the service's config file")
    actions = config.add_subparsers(dest="config_command", required=True, parser_class=type(config))
    check = actions.add_parser("check", help="validate a config file: 'ok' and a summary, or the error")
    check.add_argument("file", nargs="?", default=str(DEFAULT_PATH),
                       help=f"the TOML file (default {DEFAULT_PATH})")
    check.add_argument("--json", action="store_true", help="the summary as one JSON object")
    check.set_defaults(run=cmd_config_check)


__all__ = ["ConfigError", "add_commands", "cmd_config_check"]
