"""The registry, and a property over many seeds: every variant plays to a legal result."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import UnknownVariantError
from engine.game import OpeningRule
from engine.movegen import LegalPlays
from engine.player import Player
from engine.selfplay import self_play
from engine.variants import VARIANTS, find_variant
from pipgammon.cli import main

SLUGS = (
    "standard", "eureka", "puff", "long-puff", "russian-puff", "long-russian-puff", "french-1",
    "russian", "gioul", "french-2", "acey-deucey", "mexican", "old-britain", "pin", "catch-me",
    "doublets", "ludus-lumbadorum", "backwards", "straight", "fixed-roll", "no-hitting", "open-roll",
    "reverse", "snake", "double-vs-free-choice",
)


def test_the_registry_holds_exactly_the_25_slugs() -> None:
    assert tuple(VARIANTS) == SLUGS
    for name in SLUGS:
        variant = find_variant(name.upper())
        assert variant.name == name and variant.title and len(variant.summary) > 40
        assert len(variant.source) > 30  # the rulebook's own sentences
    with pytest.raises(UnknownVariantError, match="unknown variant 'chess'"):
        find_variant("chess")


def test_variants_json_lists_all_25(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["variants", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert tuple(v["name"] for v in listed) == SLUGS
    assert all({"name", "title", "summary", "source"} <= set(v) for v in listed)


@pytest.mark.parametrize("name", SLUGS)
def test_moves_works_for_every_variant_from_its_start(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "--variant", name, "--position", "start", "--dice", "6-1", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["variant"] == name and isinstance(answer["plays"], list)


@pytest.mark.parametrize("name", SLUGS)
def test_every_variant_plays_to_a_legal_result(name: str) -> None:
    """Self-play over seeds: each game ends with a result, every play is legal where it was made,
    and no checker is ever created or lost."""
    variant = find_variant(name)
    for seed in range(6):
        opening = OpeningRule.ONE_DIE_EACH if seed % 2 else OpeningRule.STARTER_ROLLS
        previous = None
        last = None
        for _action, match in self_play(random.Random(seed), 1, opening, variant, max_actions=6000):
            game = match.game
            for player in Player:
                position = game.position
                total = position.in_play(player) + position.off[player]
                assert total == variant.checkers
            if previous is not None and previous.progress is not None and _action.play is not None:
                stage = previous.progress.stages[0]
                legal = LegalPlays(previous.position, stage.player, variant.moves_for(stage))
                assert _action.play in legal
            previous = game
            last = match
        assert last is not None and last.is_over
        result = last.results[-1]
        assert result.points >= 1 and result.winner in Player
