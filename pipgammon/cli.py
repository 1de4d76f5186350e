"""The ``pipgammon`` command line (the contract is ../shared/design/CONTRACT.md).

``main(argv) -> int`` is what tests call.  Bad input ends as one line on
stderr and exit status 2; a traceback means a bug in pipgammon.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any

from engine.dice import Roll
from engine.errors import EngineError
from engine.game import OpeningRule
from engine.gnubg_id import position_from_id, position_id
from engine.player import Player
from engine.position import Position
from engine.selfplay import self_play
from engine.turn import Ask
from engine.variants import VARIANTS, Variant, find_variant
from engine.wording import plural
from pipgammon import __version__
from pipgammon.arguments import match_length
from pipgammon.bridge_cli import BridgeUsageError
from pipgammon.bridge_cli import add_commands as add_bridge_commands
from pipgammon.config import ConfigError
from pipgammon.config_cli import add_commands as add_config_commands
from pipgammon.demo import DemoUsageError
from pipgammon.demo import add_commands as add_demo_commands
from pipgammon.frames import FrameSourceError
from pipgammon.lights_cli import LightsUsageError
from pipgammon.lights_cli import add_commands as add_lights_commands
from pipgammon.plans import PlanFileError
from pipgammon.records_cli import RecordsUsageError
from pipgammon.records_cli import add_commands as add_records_commands
from pipgammon.replay import ReplayError
from pipgammon.replay import add_commands as add_replay_commands
from pipgammon.run_cli import RunError
from pipgammon.run_cli import add_commands as add_run_commands
from pipgammon.service import ServiceInputError
from pipgammon.vision_cli import VisionUsageError
from pipgammon.vision_cli import add_commands as add_vision_commands

EXIT_BAD_INPUT = 2


class UsageError(ValueError):
    """Bad command-line input; the message is printed as is."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # The message is printed after "pipgammon: ", so only a subcommand is named again.
        command = self.prog.removeprefix("pipgammon").strip()
        if message.endswith(": expected one argument"):
            # argparse takes a value that begins with '-' ("--corners -5,880,...") for an option
            # and says only that the value is missing.
            option = message.removeprefix("argument ").split(":")[0].split("/")[-1]
            message += f" (if its value begins with '-', write {option}=VALUE)"
        raise UsageError(f"{command}: {message}" if command else message)


def _parse_position(text: str, variant: Variant, player: Player) -> Position:
    if text.strip().lower() == "start":
        return variant.start_position()
    if _looks_like_text(text):
        return Position.from_text(text, checkers=variant.checkers)
    if not variant.fits_position_id:
        raise UsageError(
            f"variant {variant.name} has boards a gnubg Position ID cannot hold; give the position "
            f"as text, e.g. {variant.start_position().to_text()!r}"
        )
    return position_from_id(text, player)


def _looks_like_text(text: str) -> bool:
    """Whether ``--position`` is meant as position text rather than a Position ID.

    A Position ID is 14 base64 characters, so a '|', a ':' or a space inside it, or a first word
    W/B/White/Black with more after it, means text: such input is refused with what its text
    lacks, not called "not a gnubg Position ID"."""
    words = text.split()
    return (
        "|" in text
        or ":" in text
        or len(words) > 1
        or (len(words) == 1 and words[0].upper() in ("W", "B", "WHITE", "BLACK"))
    )


def _player(text: str) -> Player:
    try:
        return Player.from_label(text)
    except ValueError as err:  # argparse prints it after "argument --player: "
        raise argparse.ArgumentTypeError(str(err)) from err


def _show(position: Position, variant: Variant, player: Player) -> str:
    """A position as output: its Position ID where the variant fits one, else its text."""
    return position_id(position, player) if variant.fits_position_id else position.to_text()


def _parse_dice(value: object, where: str) -> Roll:
    if isinstance(value, str):
        return Roll.parse(value)
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(d, int) and not isinstance(d, bool) for d in value)
    ):
        return Roll(value[0], value[1])
    raise UsageError(f"{where}: dice must be [A, B] or \"A-B\", got {value!r}")


def _moves_entry(variant: Variant, position_text: str, roll: Roll, player: Player) -> dict[str, Any]:
    position = _parse_position(position_text, variant, player)
    legal = variant.legal_plays(position, player, roll)
    plays = [
        {"moves": play.notation, "position": _show(play.result, variant, player)}
        for play in legal
        if play.steps  # no legal play: an empty list says so
    ]
    return {
        "position": position_text if position_text.strip().lower() != "start"
        else _show(position, variant, player),
        "dice": [roll.first, roll.second],
        "variant": variant.name,
        # What this listing covers: the roll itself, or the first stage it sets in motion.
        "stage": legal.moves.label,
        "plays": plays,
    }


def _print_moves(entry: dict[str, Any], as_json: bool, out: IO[str]) -> None:
    if as_json:
        out.write(json.dumps(entry) + "\n")
        return
    variant = f" ({entry['variant']})"
    # Acey-deucey's 1-2 is itself called the acey-deucey, and its stage says so: once is enough.
    stage = entry["stage"].removesuffix(variant)
    out.write(f"{entry['position']} {stage}{variant}: {plural(len(entry['plays']), 'legal play')}\n")
    if not entry["plays"]:
        out.write("  no legal play\n")
    for play in entry["plays"]:
        out.write(f"  {play['moves']:<28} {play['position']}\n")


def _read_batch(name: str) -> Iterable[tuple[int, str]]:
    try:
        handle = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
    except OSError as err:
        raise UsageError(f"cannot read batch file {name}: {err.strerror}") from err
    with handle:
        # Decoded line by line, so a bad byte is named by its line (a text handle decodes in chunks).
        for number, data in enumerate(handle, 1):
            try:
                yield number, data.decode("utf-8")
            except UnicodeDecodeError as err:
                raise UsageError(f"{name}:{number}: not UTF-8 text ({err.reason})") from err


class _DuplicateKeyError(ValueError):
    """A JSON object that gives one key twice; `cmd_moves` adds the line."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json keeps the last of a repeated key, so a line could mean two cases and answer one.
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _DuplicateKeyError(key)
        seen.add(key)
    return dict(pairs)


#: Keys a batch line might carry that would change its answer, but that are the command's
#: (CONTRACT.md: a line is {"position", "dice"}), with the option that sets each.
_BATCH_OPTIONS = {"variant": "--variant NAME", "player": "--player white|black"}


def _refuse_options_in_line(case: dict[str, Any], where: str) -> None:
    # Ignored, such a key was answered as if it were not there: a line's "variant" was once
    # listed under the standard game's rules without a word.  Other keys (a caller's own
    # labels or expected answers) change nothing and are left alone.
    named = [key for key in case if key in _BATCH_OPTIONS]
    if named:
        options = " and ".join(_BATCH_OPTIONS[key] for key in named)
        raise UsageError(f"{where}: {', '.join(json.dumps(key) for key in named)} cannot be given per "
                         f"line: give {options} for the whole batch")


def cmd_moves(args: argparse.Namespace, out: IO[str]) -> int:
    variant = find_variant(args.variant)
    player: Player = args.player
    if args.batch is not None:
        if args.position is not None or args.dice is not None:
            raise UsageError("moves: give --batch FILE or --position ID and --dice A-B, not both")
        for number, line in _read_batch(args.batch):
            if not line.strip():
                continue
            where = f"{args.batch}:{number}"
            try:
                case = json.loads(line, object_pairs_hook=_unique_keys)
            except json.JSONDecodeError as err:
                raise UsageError(f"{where}: not JSON ({err.msg})") from err
            except _DuplicateKeyError as err:
                raise UsageError(f"{where}: {json.dumps(str(err))} is given twice; which is meant?") from err
            except RecursionError:  # json recurses into nested arrays and objects
                raise UsageError(f"{where}: not JSON (nested too deeply)") from None
            if not isinstance(case, dict) or "position" not in case or "dice" not in case:
                raise UsageError(f'{where}: expected {{"position": ID, "dice": [A, B]}}')
            _refuse_options_in_line(case, where)
            if not isinstance(case["position"], str):
                raise UsageError(f"{where}: position must be a string")
            try:
                entry = _moves_entry(variant, case["position"], _parse_dice(case["dice"], where), player)
            except EngineError as err:
                raise UsageError(f"{where}: {err}") from err
            _print_moves(entry, True, out)
        return 0
    if args.position is None or args.dice is None:
        raise UsageError("moves: give --position ID and --dice A-B, or --batch FILE")
    entry = _moves_entry(variant, args.position, Roll.parse(args.dice), player)
    _print_moves(entry, args.json, out)
    return 0


def cmd_variants(args: argparse.Namespace, out: IO[str]) -> int:
    described = [variant.describe() for variant in VARIANTS.values()]
    if args.json:
        out.write(json.dumps(described, ensure_ascii=False, indent=1) + "\n")
    else:
        for entry in described:
            out.write(f"{entry['name']:<24} {entry['title']}\n")
        out.write(f"{len(described)} rule sets; 'pipgammon variants --json' adds summaries and sources\n")
    return 0


def cmd_selfplay(args: argparse.Namespace, out: IO[str]) -> int:
    """Play and print a whole game (or match) of the engine against itself."""
    variant = find_variant(args.variant)
    rng = random.Random(args.seed)
    opening = OpeningRule(args.opening)
    out.write(
        f"pipgammon self-play: {variant.title} ({variant.name}), seed {args.seed}, "
        f"match to {args.match_to}, opening {opening.value}\n"
    )
    out.write(variant.start_position().diagram() + "\n\n")
    where = "Position ID" if variant.fits_position_id else "Position"
    game_number = 1
    last = None
    moves = 0
    for action, match in self_play(rng, args.match_to, opening, variant):
        who = action.player.label.capitalize()
        if action.kind not in ("opening", "roll"):
            moves += 1
        number = f"{moves:>4}."
        if action.kind == "opening":
            if action.roll is not None:
                out.write(f"Opening roll: White {action.roll.first}, Black {action.roll.second}")
                out.write(" (tie, roll again)\n" if action.roll.is_double else "\n")
            else:
                out.write(f"{who} is chosen by lot to start\n")
        elif action.kind == "double":
            out.write(f"{number} {who} doubles to {match.game.cube.value * 2}\n")
        elif action.kind == "take":
            out.write(f"{number} {who} takes (cube {match.game.cube.value})\n")
        elif action.kind == "drop":
            out.write(f"{number} {who} drops\n")
        elif action.kind == "announce":
            out.write(f"{number} {who} rolls {action.roll} for the next turn (open roll)\n")
        elif action.kind == "doublet":
            out.write(f"{number} {who} chooses the doublet {action.roll}\n")
        elif action.kind == "roll":
            if match.game.asks not in (Ask.PLAY, Ask.DOUBLET, Ask.OPPONENT_ROLL):
                moves += 1
                out.write(f"{moves:>4}. {who:<5} {action.roll}: nothing to play\n")
        else:
            assert action.play is not None
            play = action.play.notation or "(no legal play)"
            ids = f"{where} {action.position}"
            if variant.fits_position_id:
                ids += f"  Match ID {action.match_id}"
            out.write(f"{number} {who:<5} {action.stage}: {play:<26} {ids}\n")
        if action.result is not None:
            out.write(f"\nGame {game_number}: {action.result}. Score White {match.score[0]}, "
                      f"Black {match.score[1]}\n")
            out.write(match.game.position.diagram() + "\n\n" if not match.is_over else "")
            game_number += 1
        last = match
    assert last is not None
    out.write(match_summary(last.score, last.length, last.results[-1].winner) + "\n")
    return 0


def match_summary(score: tuple[int, int], length: int, winner: Player) -> str:
    return (
        f"Result: {winner.label.capitalize()} wins the {length}-point match "
        f"{score[winner]}-{score[winner.opponent]}"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pipgammon", description="A referee for a real backgammon board.")
    parser.add_argument("--version", action="version", version=f"pipgammon {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    moves = sub.add_parser("moves", help="list the legal plays of a position and roll")
    moves.add_argument("--position", help="gnubg Position ID (player on roll's view), 'start', "
                       "or position text 'W 1:2 ... | B 24:2 ...'")
    moves.add_argument("--dice", help="the roll, e.g. 6-4")
    moves.add_argument("--batch", metavar="FILE",
                       help='JSON lines {"position": ID, "dice": [A, B]}; - for stdin')
    moves.add_argument("--variant", default="standard")
    moves.add_argument("--player", type=_player, default="white",
                       help="who is on roll when --position is position text (default white)")
    moves.add_argument("--json", action="store_true")
    moves.set_defaults(run=cmd_moves)

    variants = sub.add_parser("variants", help="list the rule sets")
    variants.add_argument("--json", action="store_true")
    variants.set_defaults(run=cmd_variants)

    selfplay = sub.add_parser("selfplay", help="let the engine play itself and print the game")
    selfplay.add_argument("--seed", type=int, default=1)
    selfplay.add_argument("--variant", default="standard")
    # 1 at least: a money session never ends, so it would never print a result.
    selfplay.add_argument("--match-to", type=match_length(1), default=1)
    selfplay.add_argument("--opening", choices=[r.value for r in OpeningRule],
                          default=OpeningRule.ONE_DIE_EACH.value)
    selfplay.set_defaults(run=cmd_selfplay)
    add_vision_commands(sub)
    add_lights_commands(sub)
    add_bridge_commands(sub)
    add_config_commands(sub)
    add_records_commands(sub)
    add_replay_commands(sub)
    add_demo_commands(sub)
    add_run_commands(sub)
    return parser


#: What a command raises for bad input: each becomes one line on stderr and exit status 2.
BAD_INPUT = (UsageError, EngineError, VisionUsageError, LightsUsageError, BridgeUsageError, PlanFileError,
             ConfigError, RecordsUsageError, ReplayError, FrameSourceError, DemoUsageError,
             ServiceInputError)


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    out = out or sys.stdout
    try:
        args = build_parser().parse_args(argv)
        return int(args.run(args, out))
    except BAD_INPUT as err:
        print(f"pipgammon: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RunError as err:  # not the input's fault: systemd restarts the service (exit 1)
        print(f"pipgammon: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
