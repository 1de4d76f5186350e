"""Argument types the subcommands share, so a bad value is refused while the command line is
parsed: argparse puts the flag in front of the message (``argument --timeout: expected ...``).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from pipgammon.config import MAX_MATCH_LENGTH

# Long enough for any wait a person sets up by hand; far below what time.sleep and
# Condition.wait accept (an overflow there is a traceback, not a message).
MAX_SECONDS = 86400.0


def _seconds(text: str, *, zero: bool) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and (value >= 0 if zero else value > 0) and value <= MAX_SECONDS):
        span = f"from 0 to {MAX_SECONDS:g}" if zero else f"above 0 and at most {MAX_SECONDS:g}"
        raise argparse.ArgumentTypeError(f"expected seconds {span} (a day), got {text!r}")
    return value


def seconds(text: str) -> float:
    """A wait of 0 s or more (0: none), up to a day; nan, inf and negatives are refused."""
    return _seconds(text, zero=True)


def positive_seconds(text: str) -> float:
    """A wait above 0 s, up to a day: for a timeout, which at 0 could never be met."""
    return _seconds(text, zero=False)


def match_length(shortest: int) -> Callable[[str], int]:
    """The type of a ``--match-to``: from ``shortest`` (0: money play too) to the longest match
    gnubg plays, the bound the service's ``game.match-to`` has."""
    money = " (money play)" if shortest == 0 else ""

    def points(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if not shortest <= value <= MAX_MATCH_LENGTH:
            raise argparse.ArgumentTypeError(f"expected a whole number of points from {shortest}{money} "
                                             f"to {MAX_MATCH_LENGTH}, got {text!r}")
        return value

    return points


def name(text: str) -> str:
    """A player's name for a record: printable and not blank, since a newline or another
    control character in it would break the record's layout."""
    if not text.strip() or not text.isprintable():
        raise argparse.ArgumentTypeError(f"expected a name of printable characters, got {text!r}")
    return text
