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
from engine.game import Game, OpeningRule, Phase
from engine.gnubg_id import position_id
from engine.match import Match
from engine.play import Play
from engine.player import Player
from engine.position import Position
from engine.result import GameResult
from engine.turn import Ask
from engine.variants import STANDARD, Variant


def score_play(play: Play, variant: Variant = STANDARD) -> float:
    """Higher is better for the player who made ``play``."""
    position, me = play.result, play.player
    them = me.opponent
    sign = 1 if me is Player.WHITE else -1
    mine = [count * sign for count in position.points]
    made = sum(1 for count in mine if count >= 2)
    blots = sum(1 for count in mine if count == 1)
    # Moving backwards (Rückwärts) is allowed but rarely wise: it keeps games from ending.
    backwards = sum(1 for step in play.steps if 0 < step.start < step.end <= 24)
    return (
        variant.pips(position, them)
        - variant.pips(position, me)
        + 8 * position.bar[them]
        + 2 * made
        - 3 * blots
        + 4 * position.off[me]
        - 10 * backwards
    )


def choose_play(
    plays: list[Play], rng: random.Random, variant: Variant = STANDARD, wander: float = 0.1
) -> Play:
    """The best play by :func:`score_play`; with chance ``wander`` any legal play, so that
    games with fixed dice cannot cycle for ever."""
    if rng.random() < wander:
        return rng.choice(plays)
    scores = [score_play(p, variant) for p in plays]
    best = max(scores)
    return rng.choice([p for p, score in zip(plays, scores, strict=True) if score == best])


def _race_lead(position: Position, player: Player) -> float:
    mine, theirs = position.pip_count(player), position.pip_count(player.opponent)
    return (theirs - mine) / max(mine, 1)


@dataclass(frozen=True, slots=True)
class Action:
    """One step of self-play, for printing or recording."""

    number: int
    player: Player
    #: "opening", "double", "take", "drop", "roll", "announce", "doublet" or "play".
    kind: str
    roll: Roll | None = None
    play: Play | None = None
    #: The dice stage a play was made with ("6-4", "4×3 (bottom faces)", ...).
    stage: str = ""
    #: The position after a play: its gnubg Position ID (seen by the player to move next)
    #: where the variant fits one, else the position text.
    position: str = ""
    match_id: str = ""
    result: GameResult | None = None


class Unfinished(RuntimeError):
    """Self-play ran past its action limit without a result."""


def _random_roll(rng: random.Random, chooses: bool) -> Roll:
    while True:
        roll = Roll(rng.randint(1, 6), rng.randint(1, 6))
        if not (chooses and roll.is_double):
            return roll


def _actual(game: Game, roll: Roll) -> Roll:
    """The roll that counts: a fixed roll or dice already rolled (open roll) replace the throw."""
    if game.variant.fixed_roll and game.fixed is not None:
        return game.fixed
    if game.phase is Phase.ON_ROLL and game.announced is not None:
        return game.announced
    return roll


def self_play(
    rng: random.Random,
    length: int = 1,
    opening: OpeningRule = OpeningRule.ONE_DIE_EACH,
    variant: Variant = STANDARD,
    max_actions: int = 20_000,
) -> Iterator[tuple[Action, Match]]:
    """Play a whole match against itself, yielding each action and the match after it."""
    match = Match.new(length, opening, variant=variant)
    number = 0
    while not match.is_over:
        number += 1
        if number > max_actions:
            raise Unfinished(f"{variant.name}: no result after {max_actions} actions")
        game = match.game
        if game.phase is Phase.OPENING:
            if opening is OpeningRule.ONE_DIE_EACH:
                white, black = rng.randint(1, 6), rng.randint(1, 6)
                match = match.opening_roll(white=white, black=black)
                yield Action(number, Player.WHITE, "opening", Roll(white, black)), match
            else:
                starter = Player(rng.randint(0, 1))
                match = match.choose_starter(starter)
                yield Action(number, starter, "opening"), match
            continue
        assert game.turn is not None
        player = game.turn
        if game.phase is Phase.ON_ROLL:
            # A cube already worth the match to the doubler is dead: no point turning it.
            live = match.length == 0 or game.cube.value < match.away(player)
            if live and game.can_double(player) and _race_lead(game.position, player) > 0.12:
                match = match.double(player)
                yield Action(number, player, "double"), match
                continue
            roll = _random_roll(rng, game.chooser is player)
            match = match.roll_dice(player, roll)
            yield Action(number, player, "roll", _actual(game, roll)), match
        elif game.phase is Phase.DOUBLED:
            taker = player.opponent
            if _race_lead(game.position, taker) > -0.25:
                match = match.take(taker)
                yield Action(number, taker, "take", match_id=match.match_id()), match
            else:
                match = match.drop(taker)
                yield Action(number, taker, "drop", result=match.results[-1]), match
        elif game.asks is Ask.ROLL:
            roll = _random_roll(rng, game.chooser is player)
            match = match.roll_dice(player, roll)
            yield Action(number, player, "roll", _actual(game, roll)), match
        elif game.asks is Ask.OPPONENT_ROLL:
            roll = _random_roll(rng, game.chooser is player.opponent)
            match = match.announce(player.opponent, roll)
            yield Action(number, player.opponent, "announce", roll), match
        elif game.asks is Ask.DOUBLET:
            value = rng.randint(1, 6)
            match = match.choose_doublet(player, value)
            yield Action(number, player, "doublet", Roll(value, value)), match
        else:
            assert game.progress is not None
            mover, stage = game.progress.mover, game.progress.stage.text
            chosen = choose_play(list(game.legal_plays()), rng, variant)
            after = match.play(mover, chosen)
            result = after.results[-1] if len(after.results) > len(match.results) else None
            if variant.fits_position_id:
                shown = position_id(chosen.result, mover.opponent)
            else:
                shown = chosen.result.to_text()
            yield Action(number, mover, "play", game.roll, chosen, stage, shown, after.match_id(),
                         result), after
            match = after


def random_game(
    rng: random.Random,
    variant: Variant = STANDARD,
    *,
    any_play: float = 1.0,
    double: float = 0.02,
    max_plays: int = 20_000,
) -> Iterator[Game]:
    """One game of random legal actions, yielding the game after each: a random opening rule
    and rolls, a double with chance ``double`` where the cube may turn, a random take or drop,
    a random doublet where one is chosen, and a random legal play.

    ``any_play`` is the chance of drawing the play from all legal plays; otherwise it is drawn
    from those that move no checker backwards, where there are any.  Only Rückwärts has others:
    drawn from all of them every time, its checkers walk back as often as forward, and a game
    there need not end.
    """
    opening = OpeningRule.ONE_DIE_EACH if rng.random() < 0.5 else OpeningRule.STARTER_ROLLS
    game = Game.new(opening, variant=variant)
    plays = 0
    while not game.is_over:
        if game.phase is Phase.OPENING:
            if opening is OpeningRule.ONE_DIE_EACH:
                game = game.opening_roll(white=rng.randint(1, 6), black=rng.randint(1, 6))
            else:
                game = game.choose_starter(Player(rng.randint(0, 1)))
            yield game
            continue
        player = game.turn
        assert player is not None
        if game.phase is Phase.DOUBLED:
            game = game.take(player.opponent) if rng.random() < 0.5 else game.drop(player.opponent)
        elif game.phase is Phase.ON_ROLL and game.can_double(player) and rng.random() < double:
            game = game.double(player)
        elif game.phase is Phase.ON_ROLL or game.asks is Ask.ROLL:
            game = game.roll_dice(player, _random_roll(rng, game.chooser is player))
        elif game.asks is Ask.OPPONENT_ROLL:
            game = game.announce(player.opponent, _random_roll(rng, game.chooser is player.opponent))
        elif game.asks is Ask.DOUBLET:
            game = game.choose_doublet(player, rng.randint(1, 6))
        else:
            assert game.progress is not None
            plays += 1
            if plays > max_plays:
                raise Unfinished(f"{variant.name}: no result after {max_plays} plays")
            legal = list(game.legal_plays())
            forward = [p for p in legal if not any(0 < s.start < s.end <= 24 for s in p.steps)]
            pool = legal if rng.random() < any_play or not forward else forward
            game = game.play(game.progress.mover, rng.choice(pool))
        yield game
