"""The two sides of the board."""

from __future__ import annotations

from enum import IntEnum


class Player(IntEnum):
    """White moves 1→24 and bears off from 19..24; Black moves 24→1 (rulebook numbering).

    The integer values match gnubg's player numbers in a Match ID (White is 0).
    """

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> Player:
        return Player.BLACK if self is Player.WHITE else Player.WHITE

    @property
    def label(self) -> str:
        """Lower-case name, as used in JSON output."""
        return self.name.lower()

    @classmethod
    def from_label(cls, text: str) -> Player:
        """``"white"``/``"w"`` or ``"black"``/``"b"``, any case."""
        key = text.strip().lower()
        if key in ("white", "w"):
            return cls.WHITE
        if key in ("black", "b"):
            return cls.BLACK
        raise ValueError(f"not a player: {text!r} (expected 'white' or 'black')")
