"""Every rule set pipgammon referees, in one registry, found by name.

>>> find_variant("Standard").title
'Backgammon'
>>> len(VARIANTS)
25
"""

from __future__ import annotations

from engine.errors import UnknownVariantError
from engine.variants.base import Variant

STANDARD = Variant()


def _registry() -> dict[str, Variant]:
    from engine.variants.catch_me import CatchMe
    from engine.variants.classic import CLASSIC_VARIANTS
    from engine.variants.doublets import Doublets
    from engine.variants.french2 import French2
    from engine.variants.ludus import LudusLumbadorum

    # The rulebook's order (VARIANTS.md), after the standard game.
    order = (
        "eureka", "puff", "long-puff", "russian-puff", "long-russian-puff", "french-1", "russian",
        "gioul", "french-2", "acey-deucey", "mexican", "old-britain", "pin", "catch-me", "doublets",
        "ludus-lumbadorum", "backwards", "straight", "fixed-roll", "no-hitting", "open-roll",
        "reverse", "snake", "double-vs-free-choice",
    )
    classes: tuple[type[Variant], ...] = (*CLASSIC_VARIANTS, CatchMe, Doublets, French2, LudusLumbadorum)
    found = {cls.name: cls() for cls in classes}
    return {"standard": STANDARD, **{name: found[name] for name in order}}


VARIANTS: dict[str, Variant] = _registry()


def find_variant(name: str) -> Variant:
    """The registered variant called ``name`` (its slug, any case)."""
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}") from None


__all__ = ["STANDARD", "VARIANTS", "Variant", "find_variant"]
