"""``pipgammon export``: a journal's match as Jellyfish .mat, gnubg SGF and readable text.

Lines of the journal that are not events (a crash's torn last line, a damaged line) are
named on stderr and skipped; a stream the exports cannot follow ends as one
`RecordsUsageError` line naming the event.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

from engine.records import RecordError, to_mat, to_sgf, to_text
from pipgammon.arguments import name
from pipgammon.journal import JournalError, Loaded, load
from pipgammon.outputs import OutputError, check_outputs, write_all


class RecordsUsageError(ValueError):
    """Bad input to ``pipgammon export``; printed as is."""


Export = Callable[..., str]


def cmd_export(args: argparse.Namespace, out: IO[str]) -> int:
    wanted: list[tuple[str, Export, Path]] = [
        (flag, export, Path(path)) for flag, export, path in (
            ("--mat", to_mat, args.mat), ("--sgf", to_sgf, args.sgf), ("--text", to_text, args.text))
        if path is not None
    ]
    if not wanted:
        raise RecordsUsageError("export: give at least one of --mat OUT.mat, --sgf OUT.sgf, --text OUT.txt")
    journal = Path(args.journal)
    try:
        check_outputs({flag: path for flag, _, path in wanted}, {"journal": journal})
        loaded = load(journal)
    except (OutputError, JournalError) as err:
        raise RecordsUsageError(f"export: {err}") from err
    if loaded.problems and not loaded.events:
        raise RecordsUsageError(f"export: {journal}: not a journal: none of its lines is an event "
                                f"({loaded.problems[0]})")
    for line in loaded.summary():
        print(f"pipgammon: {journal}: {line} (skipped)", file=sys.stderr)
    players = (args.white, args.black)
    texts = [(flag, path, _export(export, loaded, players, journal)) for flag, export, path in wanted]
    # Written only once every export has worked, and all or none: a refused stream or an
    # unwritable folder leaves no half of a set.
    try:
        write_all(texts)
    except OutputError as err:
        raise RecordsUsageError(f"export {err}") from err
    for _, path, _ in texts:
        out.write(f"wrote {path}\n")
    return 0


def _export(export: Export, loaded: Loaded, players: tuple[str, str], journal: Path) -> str:
    try:
        return export(loaded.events, players=players)
    except RecordError as err:
        if err.index is None or not 0 <= err.index < len(loaded.lines):
            raise RecordsUsageError(f"export: {journal}: {err.why}") from err
        line = loaded.lines[err.index]
        # A line skipped before the event, or before the one after it (the event may only be
        # found wrong by what follows it), is the likelier culprit: without it the stream cannot
        # follow, and mending that line (or taking it out) makes the match export.
        following = loaded.lines[err.index + 1] if err.index + 1 < len(loaded.lines) else line + 1
        skipped = [problem.line for problem in loaded.problems if problem.line < following]
        hint = (f" (line {skipped[-1]}, skipped, may hold the event missing here: mend it "
                f"or take it out)") if skipped else ""
        if err.other is not None and 0 <= err.other < len(loaded.lines):
            hint += f" (the other of the two is line {loaded.lines[err.other]})"
        raise RecordsUsageError(f"export: {journal}:{line}: {err.why}{hint}") from err


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    export = sub.add_parser("export", help="write a journal's match as .mat (gnubg), SGF or text")
    export.add_argument("journal", metavar="JOURNAL.jsonl", help="the referee's journal of events")
    export.add_argument("--mat", metavar="OUT.mat", help="Jellyfish match file (standard game only)")
    export.add_argument("--sgf", metavar="OUT.sgf", help="GNU Backgammon SGF (standard game only)")
    export.add_argument("--text", metavar="OUT.txt", help="readable record (any variant)")
    export.add_argument("--white", type=name, default="White", help="White's name in the record")
    export.add_argument("--black", type=name, default="Black", help="Black's name in the record")
    export.set_defaults(run=cmd_export)
