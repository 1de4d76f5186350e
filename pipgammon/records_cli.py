"""``pipgammon export``: a journal's match as Jellyfish .mat, gnubg SGF and readable text.

Lines of the journal that are not events (a crash's torn last line, a damaged line) are
named on stderr and skipped; a stream the exports cannot follow ends as one
`RecordsUsageError` line naming the event.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import IO

from engine.events import Event
from engine.records import RecordError, to_mat, to_sgf, to_text
from pipgammon.arguments import name
from pipgammon.journal import JournalError, load


class RecordsUsageError(ValueError):
    """Bad input to ``pipgammon export``; printed as is."""


Export = Callable[..., str]


def cmd_export(args: argparse.Namespace, out: IO[str]) -> int:
    wanted: list[tuple[str, Export, str]] = [
        (flag, export, path) for flag, export, path in (
            ("--mat", to_mat, args.mat), ("--sgf", to_sgf, args.sgf), ("--text", to_text, args.text))
        if path is not None
    ]
    if not wanted:
        raise RecordsUsageError("export: give at least one of --mat OUT.mat, --sgf OUT.sgf, --text OUT.txt")
    try:
        loaded = load(args.journal)
    except JournalError as err:
        raise RecordsUsageError(f"export: {err}") from err
    for problem in loaded.problems:
        print(f"pipgammon: {args.journal}: {problem} (skipped)", file=sys.stderr)
    players = (args.white, args.black)
    texts = [(flag, path, _export(export, loaded.events, players, args.journal))
             for flag, export, path in wanted]
    # Written only once every export has worked: a refused stream leaves no half of a set.
    for flag, path, text in texts:
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as err:
            raise RecordsUsageError(f"export {flag}: cannot write {path} ({err.strerror or err})") from err
        out.write(f"wrote {path}\n")
    return 0


def _export(export: Export, events: Iterable[Event], players: tuple[str, str], journal: str) -> str:
    try:
        return export(events, players=players)
    except RecordError as err:
        raise RecordsUsageError(f"export: {journal}: {err}") from err


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    export = sub.add_parser("export", help="write a journal's match as .mat (gnubg), SGF or text")
    export.add_argument("journal", metavar="JOURNAL.jsonl", help="the referee's journal of events")
    export.add_argument("--mat", metavar="OUT.mat", help="Jellyfish match file (standard game only)")
    export.add_argument("--sgf", metavar="OUT.sgf", help="GNU Backgammon SGF (standard game only)")
    export.add_argument("--text", metavar="OUT.txt", help="readable record (any variant)")
    export.add_argument("--white", type=name, default="White", help="White's name in the record")
    export.add_argument("--black", type=name, default="Black", help="Black's name in the record")
    export.set_defaults(run=cmd_export)
