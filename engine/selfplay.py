"""A small, deterministic self-play bot: enough to drive demos and property tests.

It is not a strong player.  It prefers plays that race ahead, hit, make points
and leave few blots, and it doubles and takes on a simple pip-count rule.
Pure: the caller passes the :class:`random.Random` that rolls the dice.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from engine.dice import Roll
from engine.game import GameResult, OpeningRule, Phase
from engine.gnubg_id import position_id
from engine.match import Match
from engine.play import Play
from engine.player import Player
from engine.position import Position


def score_play(play: Play) -> float:
    """Higher is better for the player who made ``play``."""
    position, me = play.result, play.player
    them = me.opponent
    made = sum(1 for p in range(1, 25) if position.count(me, p) >= 2)
    blots = sum(1 for p in range(1, 25) if position.count(me, p) == 1)
    return (
        position.pip_count(them)
        - position.pip_count(me)
        + 8 * position.bar[them]
        + 2 * made
        - 3 * blots
        + 4 * position.off[me]
    )


def choose_play(plays: list[Play], rng: random.Random) -> Play:
    best = max(score_play(p) for p in plays)
    return rng.choice([p for p in plays if score_play(p) == best])


def _race_lead(position: Position, player: Player) -> float:
    mine, theirs = position.pip_count(player), position.pip_count(player.opponent)
    return (theirs - mine) / max(mine, 1)


@dataclass(frozen=True, slots=True)
class Turn:
    """What happened in one step of self-play, for printing or recording."""

    number: int
    player: Player
    action: str  # "roll", "double", "take", "drop", "opening"
    roll: Roll | None = None
    play: Play | None = None
    position_id: str = ""
    match_id: str = ""
    result: GameResult | None = None


def self_play(
    rng: random.Random, length: int = 1, opening: OpeningRule = OpeningRule.ONE_DIE_EACH
) -> Iterator[tuple[Turn, Match]]:
    """Play a whole match against itself, yielding each action and the match after it."""
    match = Match.new(length, opening)
    number = 0
    while not match.is_over:
        game = match.game
        number += 1
        if game.phase is Phase.OPENING:
            if opening is OpeningRule.ONE_DIE_EACH:
                white, black = rng.randint(1, 6), rng.randint(1, 6)
                match = match.opening_roll(white=white, black=black)
                yield Turn(number, Player.WHITE, "opening", Roll(white, black)), match
            else:
                starter = Player(rng.randint(0, 1))
                match = match.choose_starter(starter)
                yield Turn(number, starter, "opening"), match
            continue
        assert game.turn is not None
        player = game.turn
        if game.phase is Phase.ON_ROLL:
            # A cube already worth the match to the doubler is dead: no point turning it.
            live = match.length == 0 or game.cube.value < match.away(player)
            if live and game.can_double(player) and _race_lead(game.position, player) > 0.12:
                match = match.double(player)
                yield Turn(number, player, "double"), match
                continue
            roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
            match = match.roll_dice(player, roll)
        elif game.phase is Phase.DOUBLED:
            taker = player.opponent
            if _race_lead(game.position, taker) > -0.25:
                match = match.take(taker)
                yield Turn(number, taker, "take", match_id=match.match_id()), match
            else:
                ended = match.drop(taker)
                yield Turn(number, taker, "drop", result=ended.results[-1]), ended
                match = ended
            continue
        game = match.game
        assert game.roll is not None
        chosen = choose_play(list(game.legal_plays()), rng)
        after = match.play(player, chosen)
        result = after.results[-1] if len(after.results) > len(match.results) else None
        # gnubg shows a position from the side of the player to move next.
        seen_by = position_id(chosen.result, player.opponent)
        yield Turn(number, player, "roll", game.roll, chosen, seen_by, after.match_id(), result), after
        match = after
