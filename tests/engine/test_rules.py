"""The rule-driven stage generator: first, that it is the standard game on standard rules."""

from __future__ import annotations

import random

from engine.dice import Roll
from engine.movegen import LegalPlays, legal_plays
from engine.player import Player
from engine.position import Position
from engine.rules import STANDARD_RULES, Rules, Stage, StageMoves, Usage
from engine.sampling import Kind, random_position, random_roll


def stage_results(position: Position, player: Player, roll: Roll, rules: Rules = STANDARD_RULES,
                  **stage: object) -> set[str]:
    moves = StageMoves(Stage(player, roll.dice, **stage), rules)  # type: ignore[arg-type]
    return {p.result.to_text() for p in LegalPlays(position, player, moves)}


def test_generic_generator_equals_the_fast_one_on_standard_rules() -> None:
    rng = random.Random(17)
    for kind in Kind:
        for _ in range(250):
            player = Player(rng.randint(0, 1))
            position = random_position(rng, kind, player)
            roll = random_roll(rng, doubles=0.3)
            fast = {p.result.to_text() for p in legal_plays(position, player, roll)}
            assert stage_results(position, player, roll) == fast, (position.to_text(), roll)


def test_generic_notation_equals_the_fast_one() -> None:
    rng = random.Random(23)
    for _ in range(200):
        position = random_position(rng, Kind.MIDGAME)
        roll = random_roll(rng, doubles=0.3)
        fast = {p.notation for p in legal_plays(position, Player.WHITE, roll)}
        moves = StageMoves(Stage(Player.WHITE, roll.dice), STANDARD_RULES)
        assert {p.notation for p in LegalPlays(position, Player.WHITE, moves)} == fast


def test_all_or_nothing_loses_a_roll_that_cannot_be_fully_played() -> None:
    position = Position.from_text("W 1:1 24:14 | B 9:2 6:13")
    assert stage_results(position, Player.WHITE, Roll(6, 2)) == {"W 7:1 24:14 | B 9:2 6:13"}
    assert stage_results(position, Player.WHITE, Roll(6, 2), usage=Usage.ALL_OR_NOTHING) == {
        position.to_text()
    }
