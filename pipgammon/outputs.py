"""Files the commands write: never over a file they read, and a set of them all or none.

A mistyped output name must not lose a record: ``pipgammon export J.jsonl --mat J.jsonl``
once replaced the journal by the .mat, and ``replay ... --export C.json`` the calibration.
An output is written where it leads: through a symbolic link to the file it names (the link
stays), and never over a FIFO, a device or a socket, which a rename would replace by a file
(``--export /dev/full`` once replaced the device, and a FIFO's reader got nothing).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

#: A journal's suffix: no export is ever written under it, whoever's journal it is.
JOURNAL_SUFFIX = ".jsonl"


class OutputError(ValueError):
    """An output that would overwrite an input or a journal, or that cannot be written."""


def _real(path: Path) -> Path:
    """Where a write to ``path`` lands: through every symbolic link on the way (a loop of links is
    left unresolved; `_not_a_file` refuses it)."""
    return Path(os.path.realpath(path))


def _not_a_file(path: Path) -> str | None:
    """What ``path`` leads to when that exists and is not a regular file: a write renamed into
    place would replace it, so no output goes there.  None for a file or nothing.  The kernel
    follows the links here, not `_real`: ``/dev/stdout`` leads through ``/proc`` to a pipe or a
    terminal that no path names."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as err:
        return ("a loop of symbolic links" if err.errno == errno.ELOOP
                else f"out of reach ({err.strerror})")
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a file"
    return "a device, not a file"


def _trial_file(flag: str, shown: str, folder: Path) -> None:
    """Refuse an output whose ``folder`` takes no new file, by making one there and removing it:
    `os.access` says yes to root even on /proc, where a replay then ran to its end to fail,
    leaving a journal the corrected command had to ``--resume``."""
    try:
        fd, trial = tempfile.mkstemp(prefix=".pipgammon-trial.", dir=folder)
    except OSError as err:
        raise OutputError(f"{flag} {shown}: cannot write in {folder} ({err.strerror or err})") from err
    os.close(fd)
    os.unlink(trial)


def check_outputs(outputs: Mapping[str, Path], inputs: Mapping[str, Path]) -> None:
    """Refuse ``outputs`` (by flag) that name an input (by what it is), a journal, a folder,
    each other, something other than a file (a FIFO, a device), or a place that cannot be
    written; checked before anything is read or written.  A symbolic link is judged by the file
    it leads to."""
    seen: dict[Path, str] = {}
    for flag, output in outputs.items():
        where = _real(output)
        shown = f"{output} (a link to {where})" if output.is_symlink() else str(output)
        for what, source in inputs.items():
            if where == _real(source):
                raise OutputError(f"{flag} {shown}: that is the {what} too; writing there would "
                                  f"lose it: give another file name")
        if JOURNAL_SUFFIX in (output.suffix.lower(), where.suffix.lower()):
            raise OutputError(f"{flag} {shown}: {JOURNAL_SUFFIX} is a journal's suffix, and no export "
                              f"is written over a journal: give another file name")
        kind = _not_a_file(output)
        if kind is not None:
            raise OutputError(f"{flag} {shown}: is {kind}: give a file name")
        # Found out before the work, not after it (a replay's journal would be begun for nothing).
        # The file is written beside the one a link leads to, so that folder is the one to check.
        folder = where.parent
        if not folder.is_dir():
            raise OutputError(f"{flag} {shown}: cannot write in {folder}: no such folder")
        _trial_file(flag, shown, folder)
        if where in seen:
            raise OutputError(f"{flag} {shown}: {seen[where]} writes there too: give each its own file")
        seen[where] = flag


def write_all(files: Sequence[tuple[str, Path, str]]) -> None:
    """Write each ``(flag, path, text)``, all of them or, if one cannot be written, none: each
    goes to a temporary file beside its target first, and only when all are written are they
    renamed into place (a rename within a folder is atomic, so no half-written file is left
    either).  A symbolic link is written through: the file it leads to is replaced, the link
    stays.  A path that is not a file (a FIFO, a device) is refused before anything is written,
    here too, for the callers that write without `check_outputs` (the service's exports)."""
    temporaries: list[tuple[str, str, Path]] = []
    try:
        for flag, path, text in files:
            target = _real(path)
            kind = _not_a_file(path)
            if kind is not None:
                raise OutputError(f"{flag}: cannot write {path}: it is {kind}")
            try:
                fd, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
                temporaries.append((temporary, flag, target))
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    # mkstemp makes a private file; an export is as readable as any file written.
                    os.fchmod(handle.fileno(), target.stat().st_mode & 0o777 if target.exists() else 0o644)
                    handle.write(text)
            except OSError as err:
                raise OutputError(f"{flag}: cannot write {path} ({err.strerror or err})") from err
        for temporary, flag, target in temporaries:
            try:
                os.replace(temporary, target)
            except OSError as err:
                raise OutputError(f"{flag}: cannot write {target} ({err.strerror or err})") from err
    finally:
        for temporary, _, _ in temporaries:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
