"""Whole games of self-play end in a legal result (a property over many seeds)."""

from __future__ import annotations

import random

import pytest

from engine.game import OpeningRule, Phase
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import Position


@pytest.mark.parametrize("seed", range(12))
def test_self_played_matches_end_legally(seed: int) -> None:
    from engine.selfplay import self_play

    opening = OpeningRule.STARTER_ROLLS if seed % 2 else OpeningRule.ONE_DIE_EACH
    position = Position.start()
    last = None
    for action, match in self_play(random.Random(seed), length=3, opening=opening):
        if action.play is not None:
            assert action.roll is not None
            # Every play the bot made is one of the legal plays of the position it faced.
            assert action.play in legal_plays(position, action.player, action.roll)
            position = action.play.result
        if match.game.phase is Phase.OPENING or action.result is not None:
            position = Position.start()
        for player in Player:
            total = (match.game.position.checkers_on_board(player) + match.game.position.bar[player]
                     + match.game.position.off[player])
            assert total == 15
        last = match
    assert last is not None and last.is_over
    assert max(last.score) >= 3
    assert sum(r.points for r in last.results) == sum(last.score)
