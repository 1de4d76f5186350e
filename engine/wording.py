"""Wording shared by the messages people read: a count with the noun that agrees with it.

>>> plural(1, "legal play"), plural(11, "legal play"), plural(0, "match", "matches")
('1 legal play', '11 legal plays', '0 matches')
"""

from __future__ import annotations


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and ``noun``, or ``nouns`` (default ``noun`` + "s") unless the count is one."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
