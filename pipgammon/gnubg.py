"""Where GNU Backgammon is.  pipgammon only ever runs it as a separate program (GPL-3)."""

from __future__ import annotations

import shutil


def find_gnubg() -> str | None:
    """gnubg's path, or ``None``: Debian installs it in /usr/games, which is not always on PATH."""
    return shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
