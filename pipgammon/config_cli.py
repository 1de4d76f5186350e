"""``pipgammon config check FILE [--json]``: validate a service config before the service reads it.

A good file prints ``ok`` and a summary (or the summary as JSON with ``"ok": true``); a bad one
prints its one-line `ConfigError` on stderr and exits with status 2, as all bad input does.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import IO, Any

from engine.wording import plural
from pipgammon.config import DEFAULT_PATH, Config, ConfigError, SourceKind, load_config
from pipgammon.frames import FrameSourceError, stills


class ConfigPathError(ConfigError):
    """A well-formed config naming a path that can never work: a journal folder that is a file,
    a calibration that is a folder, a recording that is neither folder nor video."""


def _blocked(path: Path) -> Path | None:
    """The file in the way of making the folder ``path`` (itself or one above it), if any."""
    for where in (path, *path.parents):
        if where.exists():
            return None if where.is_dir() else where
    return None


def check_paths(config: Config) -> list[str]:
    """What the config's paths are now: `ConfigPathError` for one that can never work, and a
    warning line for each the service works round (a calibration not made yet, or refused, which
    the dashboard's calibration page replaces; a recording not there, waited for as a camera
    unplugged).  The file alone once said ok to a journal folder that was /etc/passwd."""
    from vision.calibration import Calibration, CalibrationError

    warnings: list[str] = []
    for key, folder in (("storage.journal-dir", config.storage.journal_dir),
                        ("storage.export-dir", config.storage.export_dir)):
        blocked = _blocked(folder)
        if blocked is not None:
            where = "is a file, not a folder" if blocked == folder else f"cannot be made: {blocked} is a file"
            raise ConfigPathError(f"{config.source}: {key}: {folder} {where}")
    calibration = config.calibration.path
    if calibration.is_dir():
        raise ConfigPathError(f"{config.source}: calibration.path: {calibration} is a folder; give the "
                              f"calibration file's path (the dashboard saves a new one there)")
    blocked = _blocked(calibration.parent)
    if blocked is not None:
        raise ConfigPathError(f"{config.source}: calibration.path: {calibration} cannot be saved: "
                              f"{blocked} is a file")
    if not calibration.exists():
        warnings.append(f"calibration.path: {calibration} is not there yet: the service runs without it "
                        f"until the dashboard's calibration page (or pipgammon calibrate) makes it")
    else:
        try:
            Calibration.from_json(calibration.read_bytes())
        except (OSError, CalibrationError) as err:
            why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            warnings.append(f"calibration.path: {calibration} is refused ({why}): the service runs "
                            f"without it until a new one is captured on the dashboard")
    camera = config.camera
    if camera.path is not None:
        wanted_folder = camera.kind is SourceKind.FOLDER
        if camera.path.exists() and camera.path.is_dir() != wanted_folder:
            what = "a file, not a folder of stills" if wanted_folder else "a folder, not a video"
            raise ConfigPathError(f"{config.source}: camera.source: {camera.path} is {what}")
        if not camera.path.exists():
            warnings.append(f"camera.source: {camera.path} is not there: the service waits for it as "
                            f"for a camera unplugged (run --until-end stops at once)")
        elif wanted_folder:
            try:
                stills(camera.path)
            except FrameSourceError as err:
                warnings.append(f"camera.source: {err}: the service waits for stills as for a camera "
                                f"unplugged (run --until-end stops at once)")
    return warnings


def cmd_config_check(args: argparse.Namespace, out: IO[str]) -> int:
    config = load_config(args.file)  # ConfigError: one line on stderr, exit 2 (cli.BAD_INPUT)
    warnings = check_paths(config)
    summary = config.summary()
    if args.json:
        out.write(json.dumps({"ok": True, "file": config.source, **summary, "warnings": warnings}) + "\n")
        return 0
    out.write(f"ok: {config.source}\n")
    for line in _summary_lines(summary):
        out.write(f"  {line}\n")
    for line in warnings:
        out.write(f"warning: {line}\n")
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


__all__ = ["ConfigError", "ConfigPathError", "add_commands", "check_paths", "cmd_config_check"]
