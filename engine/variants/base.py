"""The standard game as the base class of every rule set.

As in python-chess's ``chess/variant.py``: one class per variant, its
differences stated as class attributes (its :class:`~engine.rules.Rules`, the
start, the cube) and overridable hooks (how a roll is played, how a game ends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from engine.dice import Roll
from engine.errors import IllegalActionError, PositionError
from engine.movegen import LegalPlays, Moves, StandardMoves
from engine.play import Play
from engine.player import Player
from engine.position import CHECKERS, Position
from engine.result import GameResult, ResultKind, result_kind
from engine.rules import STANDARD_RULES, HitRule, Rules, Stage, StageMoves, Usage
from engine.turn import Program

if TYPE_CHECKING:
    from engine.turn import Turn


def roll_stage(player: Player, roll: Roll, usage: Usage = Usage.MOST) -> Stage:
    """A roll played the standard way: both numbers in either order, a double four times."""
    return Stage(player, roll.dice, usage=usage)


def doublet_stage(player: Player, value: int, label: str = "") -> Stage:
    return Stage(player, (value,) * 4, label=label)


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
    rules: ClassVar[Rules] = STANDARD_RULES
    checkers: ClassVar[int] = CHECKERS
    uses_cube: ClassVar[bool] = True
    #: Checkers start off the board, in the pool, and enter by the dice.
    enters_from_pool: ClassVar[bool] = False
    #: Before the mover plays, the opponent rolls the dice for their next turn.
    open_roll: ClassVar[bool] = False
    #: The opening roll is the roll of both players for the whole game.
    fixed_roll: ClassVar[bool] = False
    #: One player chooses any non-doublet numbers; the other rolls twice a turn.
    free_choice: ClassVar[bool] = False

    @property
    def fits_position_id(self) -> bool:
        """Whether a gnubg Position ID can hold this variant's boards."""
        return (
            self.rules.opposite_directions
            and not self.enters_from_pool
            and self.rules.hit is not HitRule.PIN
            and self.checkers == CHECKERS
        )

    # -- the start -------------------------------------------------------------------

    def start_position(self) -> Position:
        """The documented start (its source is in the class docstring)."""
        return Position.start()

    def check_setup(self, position: Position) -> Position:
        """A set-up laid out by the players, if it meets the variant's start; else PositionError."""
        position.validate(self.checkers)
        if position != self.start_position():
            raise PositionError(
                f"{self.name} starts from {self.start_position().to_text()}, not {position.to_text()}"
            )
        return position

    # -- turns -----------------------------------------------------------------------

    def program(self, turn: Turn, roll: Roll) -> Program:
        """What a roll sets in motion: by default, play it once."""
        return Program((roll_stage(turn.player, roll),))

    def doublet_program(self, player: Player, value: int) -> Program:
        raise IllegalActionError(f"{self.name} has no chosen doublets")

    def moves_for(self, stage: Stage) -> Moves:
        """The generator for a stage; the standard roll takes the fast path."""
        dice = stage.dice
        is_roll = (len(dice) == 2 and dice[0] != dice[1]) or (len(dice) == 4 and len(set(dice)) == 1)
        fast = self.rules == STANDARD_RULES and not self.enters_from_pool
        if fast and is_roll and not stage.in_order and stage.usage is Usage.MOST:
            return StandardMoves(Roll(dice[0], dice[1]))
        return StageMoves(stage, self.rules)

    def legal_plays(self, position: Position, player: Player, roll: Roll) -> LegalPlays:
        """The plays of the first stage ``roll`` sets in motion (what ``pipgammon moves`` lists)."""
        from engine.turn import Turn

        program = self.program(Turn.start(self, player), roll)
        if program.stages:
            return LegalPlays(position, player, self.moves_for(program.stages[0]))
        # The roll moves nothing by itself: say what comes instead.
        if program.then_doublet:
            label = f"{roll}: no numbers to play; a doublet is chosen next"
        elif program.roll_again:
            label = f"{roll}: nothing to play; roll again"
        else:
            label = f"{roll}: nothing to play with this roll"
        return LegalPlays(position, player, StageMoves(Stage(player, (), label=label), self.rules))

    # -- the end ---------------------------------------------------------------------

    def pips(self, position: Position, player: Player) -> int:
        """What ``player`` still has to travel, along this variant's track."""
        return position.pip_count(player, self.rules.track(player), self.rules.length + 1)

    def is_dead(self, position: Position, fixed: Roll | None = None) -> bool:
        """No player can ever move again: no roll (or only ``fixed``) gives either a legal play."""
        rolls = [fixed] if fixed is not None else [Roll(a, b) for a in range(1, 7) for b in range(1, a + 1)]
        return not any(
            self.legal_plays(position, player, roll).can_move for player in Player for roll in rolls
        )

    def blocked_result(self, position: Position, last: Player, cube: int) -> GameResult:
        """The result of a game nobody can move in any more (pipgammon's rule; the rulebook
        is silent): the fewer pips wins a single game; equal pips, the player who moved last."""
        pips = {player: self.pips(position, player) for player in Player}
        winner = last if pips[last] <= pips[last.opponent] else last.opponent
        return GameResult(winner, ResultKind.SINGLE, cube,
                          reason=f"blocked for good at {pips[Player.WHITE]}-{pips[Player.BLACK]} pips")

    def outcome(self, before: Position, play: Play, cube: int) -> GameResult | None:
        """The result if ``play`` ends the game, else ``None``."""
        after = play.result
        if after.in_play(play.player):
            return None
        return GameResult(play.player, self.result_kind(after, play.player), cube)

    def result_kind(self, position: Position, winner: Player) -> ResultKind:
        """Single, gammon or backgammon, with the winner's home board on this variant's track."""
        # On a shared track both homes are the same points: only the bar or the pool is "behind".
        # (Ludus travels half a board each way with its own tracks: its homes are apart, and a
        # backgammon there once scored as a gammon.)
        home = self.rules.track(winner)[:6] if self.rules.homes_apart else ()
        return result_kind(position, winner, home)

    def describe(self) -> dict[str, str | bool]:
        """The fields ``pipgammon variants --json`` prints."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "source": self.source,
            "cube": self.uses_cube,
            "position_id": self.fits_position_id,
        }

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"
