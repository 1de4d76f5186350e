"""The journal: every event the referee decides, one JSON line each, appended and synced.

Crash safety, in short (docs/records.md says more):

- :meth:`Journal.append` writes the whole line with one ``write`` on a file opened for
  appending, then ``fsync``; when it returns, the event survives a crash or a power cut.
  The directory is synced too when the journal is created, so the file's name survives.
- Recorded lines are never rewritten or truncated.  A power cut can leave a *torn* last
  line (no newline, half a JSON object).  :func:`load` reports it in ``problems`` with its
  line number and reads on.  Before the next append, :meth:`Journal.open` ends the torn
  line with a newline, so the torn bytes stay on disk as a line of their own (reported by
  every later :func:`load`) and can never glue onto the next event.
- A damaged line in the middle (not JSON, not an event) is reported likewise and skipped:
  one bad line never loses the match.
- ``fcntl.flock`` keeps a second referee from writing the same journal.

>>> import tempfile, os
>>> from engine.events import Event
>>> path = os.path.join(tempfile.mkdtemp(), "match.jsonl")
>>> with Journal.open(path) as journal:
...     journal.append(Event("roll", "f1.png", {"player": "white", "dice": [3, 1]}))
>>> load(path).events[0]["dice"]
[3, 1]
"""

from __future__ import annotations

import fcntl
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import BinaryIO

from engine.events import Event, EventError


class JournalError(OSError):
    """A journal that cannot be opened, read or written; the message names the path."""


class JournalLockedError(JournalError):
    """Another process (a second referee) is writing this journal."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A line that is not an event: its number (from 1), why, and the start of its text."""

    line: int
    why: str
    text: str = ""

    def __str__(self) -> str:
        return f"line {self.line}: {self.why}"


@dataclass(frozen=True, slots=True)
class Loaded:
    """The events of a journal in order, the lines that were not events, and the line (from 1)
    each event was read from, so a later complaint about an event can name its line."""

    events: tuple[Event, ...]
    problems: tuple[Problem, ...]
    lines: tuple[int, ...] = ()

    def summary(self, most: int = 5) -> list[str]:
        """The problems as lines to show a person: the first ``most``, then how many more.  A
        file that is no journal at all (a photo given by mistake) has thousands."""
        shown = [str(problem) for problem in self.problems[:most]]
        if len(self.problems) > most:
            shown.append(f"... and {len(self.problems) - most} more lines that are not events")
        return shown


def _line_event(raw: bytes, number: int, last: bool) -> Event | Problem:
    torn = " (the last line, cut short: a crash while it was written?)" if last else ""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        shown = raw[:80].decode("utf-8", "replace")
        return Problem(number, f"not UTF-8 text at byte {err.start}{torn}", shown)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        return Problem(number, f"not JSON ({err.msg}: column {err.colno}){torn}", text[:80])
    except RecursionError:  # brackets nested thousands deep: damage, not an event
        return Problem(number, f"not JSON (nested too deeply){torn}", text[:80])
    try:
        return Event.from_json(data)
    except EventError as err:
        return Problem(number, f"not an event: {err}", text[:80])


def read_events(handle: BinaryIO) -> Loaded:
    """Events from a journal opened by the caller in binary mode (so a torn UTF-8 character
    cannot stop the reading).  Blank lines are skipped; every other line that is not an
    event becomes a :class:`Problem`, and reading goes on."""
    data = handle.read()
    lines = data.split(b"\n")
    complete = data.endswith(b"\n") or not data
    if complete:
        lines.pop()  # what follows the final newline: nothing
    events: list[Event] = []
    problems: list[Problem] = []
    numbers: list[int] = []
    for number, raw in enumerate(lines, 1):
        last = number == len(lines) and not complete
        if not raw.strip():
            continue
        found = _line_event(raw, number, last)
        if isinstance(found, Event):
            events.append(found)
            numbers.append(number)
            if last:
                # The whole event is there, only its newline is missing: keep it, but say so.
                problems.append(Problem(number, "no newline at the end (read anyway; the next "
                                                "append ends it)"))
        else:
            problems.append(found)
    return Loaded(tuple(events), tuple(problems), tuple(numbers))


def load(path: str | os.PathLike[str]) -> Loaded:
    """Read a journal file (see :func:`read_events`); :class:`JournalError` if it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return read_events(handle)
    except IsADirectoryError as err:
        raise JournalError(f"{path}: is a directory, not a journal") from err
    except OSError as err:
        raise JournalError(f"{path}: cannot read the journal ({err.strerror or err})") from err


def _sync_directory(path: Path) -> None:
    """Make a new file's name durable: its directory entry is data of the directory."""
    fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Journal:
    """An append-only journal file held by one writer.  Use :meth:`open`; close it (or use
    ``with``) to release the lock."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Journal:
        """Open ``path`` for appending, creating it (and syncing its directory) if needed.

        Raises :class:`JournalLockedError` when another process holds it, and
        :class:`JournalError` when it cannot be opened."""
        where = Path(path)
        try:
            created = not where.exists()
            fd = os.open(where, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as err:
            raise JournalError(f"{where}: cannot open the journal for writing "
                               f"({err.strerror or err})") from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as err:
            os.close(fd)
            raise JournalLockedError(f"{where}: another process (a second referee?) is writing "
                                     "this journal") from err
        journal = cls(where, fd)
        try:
            if created:
                _sync_directory(where)
            journal._end_torn_line()
        except OSError as err:
            journal.close()
            raise JournalError(f"{where}: cannot prepare the journal ({err.strerror or err})") from err
        return journal

    def _end_torn_line(self) -> None:
        """If a crash left the last line without its newline, end it, so the torn bytes
        stay a line of their own and the next event starts on a fresh line."""
        assert self._fd is not None
        size = os.fstat(self._fd).st_size
        if not size:
            return
        with open(self.path, "rb") as reader:
            reader.seek(size - 1)
            if reader.read(1) != b"\n":
                self._write(b"\n")

    def _write(self, data: bytes) -> None:
        assert self._fd is not None
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]
        os.fsync(self._fd)

    def append(self, event: Event) -> None:
        """Write ``event`` as one line and sync it to the disk before returning."""
        if self._fd is None:
            raise JournalError(f"{self.path}: the journal is closed")
        try:
            line = json.dumps(event.to_json(), ensure_ascii=False)
        except (TypeError, ValueError) as err:
            raise ValueError(f"{event.type} event cannot be written as JSON: {err}") from err
        try:
            self._write(line.encode("utf-8") + b"\n")
        except OSError as err:
            raise JournalError(f"{self.path}: cannot append ({err.strerror or err})") from err

    def extend(self, events: Iterable[Event]) -> None:
        for event in events:
            self.append(event)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
