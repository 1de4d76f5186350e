"""Rule sets, one class each, in one registry (as python-chess's ``chess/variant.py``).

A variant states its differences from the standard game as class attributes
and overridable hooks.  Only the standard game is registered so far; the
Classic Line variants join the same registry.
"""

from __future__ import annotations

from typing import ClassVar

from engine.dice import Roll
from engine.errors import UnknownVariantError
from engine.movegen import LegalPlays, legal_plays
from engine.player import Player
from engine.position import Position


class Variant:
    """The standard game; subclasses override what their rulebook text changes."""

    name: ClassVar[str] = "standard"
    title: ClassVar[str] = "Backgammon"
    summary: ClassVar[str] = (
        "The standard game: 15 checkers each, White from 1 to 24 and Black from 24 to 1. "
        "Both dice must be played if they can be, else the higher one; doubles are played "
        "four times; checkers on the bar enter first; a blot is hit onto the bar; all 15 must be "
        "home before bearing off. Doubling cube up to 64; gammon 2, backgammon 3, times the cube."
    )
    #: The rulebook sentences the rules come from (Classic Line, German original).
    source: ClassVar[str] = (
        "Die Spieler versuchen alle 15 eigenen Steine in ihr Heimfeld zu ziehen und sie als "
        "erster aus dem Feld heraus zu würfeln. Der Spieler, der das als erster geschafft hat, "
        "gewinnt das Spiel. (Classic Line, Ziel des Spiels)"
    )
    uses_cube: ClassVar[bool] = True
    #: Whether a gnubg Position ID can hold this variant's board.
    fits_position_id: ClassVar[bool] = True

    def start_position(self) -> Position:
        return Position.start()

    def legal_plays(self, position: Position, player: Player, roll: Roll) -> LegalPlays:
        return legal_plays(position, player, roll)

    def describe(self) -> dict[str, str]:
        """The fields ``pipgammon variants --json`` prints."""
        return {"name": self.name, "title": self.title, "summary": self.summary, "source": self.source}

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


Standard = Variant

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (Standard(),)}


def find_variant(name: str) -> Variant:
    """The registered variant called ``name`` (its slug, any case).

    >>> find_variant("Standard").title
    'Backgammon'
    """
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}") from None
