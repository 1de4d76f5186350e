"""Narrow errors of the rules engine.

Every error subclasses a builtin (``ValueError``), so callers that only know
Python still catch them, and each names the bad input and, where there is one,
the position it was applied to.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Root of every error the rules engine raises."""


class PositionError(EngineError):
    """A position that cannot exist: wrong checker counts, both colours on a point."""


class NotationError(EngineError):
    """Text that is not a valid Position ID, Match ID, move or position text."""


class DiceError(EngineError):
    """Dice values outside 1..6 or a malformed roll."""


class IllegalPlayError(EngineError):
    """A play that the rules do not allow from the given position and roll."""


class IllegalActionError(EngineError):
    """A game or match action at the wrong moment (doubling after rolling, ...)."""


class UnknownVariantError(EngineError, LookupError):
    """A variant name that is not in the registry."""
