"""Small helpers for the variant rule tests."""

from __future__ import annotations

from engine.dice import Roll
from engine.game import Game
from engine.player import Player
from engine.position import Position
from engine.variants import Variant, find_variant

W, B = Player.WHITE, Player.BLACK


def board(variant: str, text: str) -> Position:
    return Position.from_text(text, checkers=find_variant(variant).checkers)


def plays(variant: str, text: str, player: Player, roll: str) -> set[str]:
    """The notations of the legal plays of the first stage the roll sets in motion."""
    v = find_variant(variant)
    return {p.notation for p in v.legal_plays(board(variant, text), player, Roll.parse(roll))}


def results(variant: str, text: str, player: Player, roll: str) -> set[str]:
    v = find_variant(variant)
    return {p.result.to_text() for p in v.legal_plays(board(variant, text), player, Roll.parse(roll))}


def game(variant: str, text: str | None, player: Player) -> Game:
    """A game of ``variant`` at ``text`` (default: its start) with ``player`` on roll."""
    v: Variant = find_variant(variant)
    position = v.start_position() if text is None else board(variant, text)
    return Game.at(position, player, variant=v)


def rolled(variant: str, text: str | None, player: Player, roll: str) -> Game:
    return game(variant, text, player).roll_dice(player, Roll.parse(roll))
