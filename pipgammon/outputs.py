"""Files the commands write: never over a file they read, and a set of them all or none.

A mistyped output name must not lose a record: ``pipgammon export J.jsonl --mat J.jsonl``
once replaced the journal by the .mat, and ``replay ... --export C.json`` the calibration.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

#: A journal's suffix: no export is ever written under it, whoever's journal it is.
JOURNAL_SUFFIX = ".jsonl"


class OutputError(ValueError):
    """An output that would overwrite an input or a journal, or that cannot be written."""


def check_outputs(outputs: Mapping[str, Path], inputs: Mapping[str, Path]) -> None:
    """Refuse ``outputs`` (by flag) that name an input (by what it is), a journal, a folder,
    each other, or a place that cannot be written; checked before anything is read or written."""
    seen: dict[Path, str] = {}
    for flag, output in outputs.items():
        where = output.resolve()
        for what, source in inputs.items():
            if where == source.resolve():
                raise OutputError(f"{flag} {output}: that is the {what} too; writing there would "
                                  f"lose it: give another file name")
        if output.suffix.lower() == JOURNAL_SUFFIX:
            raise OutputError(f"{flag} {output}: {JOURNAL_SUFFIX} is a journal's suffix, and no export "
                              f"is written over a journal: give another file name")
        if output.is_dir():
            raise OutputError(f"{flag} {output}: is a folder: give a file name")
        # Found out before the work, not after it (a replay's journal would be begun for nothing).
        folder = output.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            raise OutputError(f"{flag} {output}: cannot write in {folder}: "
                              f"{'no such folder' if not folder.is_dir() else 'not allowed'}")
        if where in seen:
            raise OutputError(f"{flag} {output}: {seen[where]} writes there too: give each its own file")
        seen[where] = flag


def write_all(files: Sequence[tuple[str, Path, str]]) -> None:
    """Write each ``(flag, path, text)``, all of them or, if one cannot be written, none: each
    goes to a temporary file beside its target first, and only when all are written are they
    renamed into place (a rename within a folder is atomic, so no half-written file is left
    either)."""
    temporaries: list[tuple[str, str, Path]] = []
    try:
        for flag, path, text in files:
            try:
                fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
                temporaries.append((temporary, flag, path))
                with os.fdopen(fd, "w", encoding="utf-8") as handle:
                    # mkstemp makes a private file; an export is as readable as any file written.
                    os.fchmod(handle.fileno(), path.stat().st_mode & 0o777 if path.exists() else 0o644)
                    handle.write(text)
            except OSError as err:
                raise OutputError(f"{flag}: cannot write {path} ({err.strerror or err})") from err
        for temporary, flag, path in temporaries:
            try:
                os.replace(temporary, path)
            except OSError as err:
                raise OutputError(f"{flag}: cannot write {path} ({err.strerror or err})") from err
    finally:
        for temporary, _, _ in temporaries:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
