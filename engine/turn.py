"""A turn as a sequence of dice stages, for variants whose turns are more than one roll.

The standard turn is one roll played once.  Variants add stages: the bottom
faces after a double (Puff, French 1, Russian), the ascending doubles of Gioul
(whose remainder the opponent may have to play), a doublet the player chooses
(Acey Deucey, Mexican), a second roll (Double vs free choice), or "roll again".
A :class:`Turn` says what it needs next (:class:`Ask`): dice to be read, a
doublet to be chosen, or a stage to be played, so the referee knows to ask for
the dice again between stages.

>>> from engine.variants import find_variant
>>> turn = Turn.start(find_variant("french-1"), Player.WHITE).rolled(Roll(6, 6))
>>> turn.ask, turn.stage.text
(<Ask.PLAY: 'play'>, '4×6 (top faces)')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from engine.dice import Roll
from engine.errors import IllegalActionError
from engine.player import Player
from engine.rules import Stage

if TYPE_CHECKING:
    from engine.movegen import LegalPlays
    from engine.play import Play
    from engine.position import Position
    from engine.variants.base import Variant


class Ask(Enum):
    """What a turn needs next."""

    ROLL = "roll"  #: the player rolls (again); the referee reads the dice
    OPPONENT_ROLL = "opponent-roll"  #: open roll: the opponent rolls for their next turn
    DOUBLET = "doublet"  #: the player chooses a doublet to play
    PLAY = "play"  #: ``stage.player`` plays ``stage``
    DONE = "done"  #: the turn is over


class Incomplete(Enum):
    """What happens when a stage cannot be played in full."""

    LOSE_REST = "lose-rest"  #: the rest of the turn is lost
    CONTINUE = "continue"  #: the next stage is played anyway (French 1)
    HAND_OVER = "hand-over"  #: the opponent plays the remaining stages (Gioul)


@dataclass(frozen=True, slots=True)
class Program:
    """What a roll (or a chosen doublet) sets in motion."""

    stages: tuple[Stage, ...] = ()
    on_incomplete: Incomplete = Incomplete.LOSE_REST
    #: After the stages, the player chooses a doublet (Acey Deucey's 1-2).
    then_doublet: bool = False
    #: After everything, the player rolls again (unless the turn was cut short).
    roll_again: bool = False


@dataclass(frozen=True, slots=True)
class Turn:
    """One player's turn in progress."""

    variant: Variant = field(repr=False, compare=False)
    player: Player
    ask: Ask
    stages: tuple[Stage, ...] = ()
    on_incomplete: Incomplete = Incomplete.LOSE_REST
    then_doublet: bool = False
    roll_again: bool = False
    #: Rolls taken so far this turn, and the last of them.
    rolls: int = 0
    roll: Roll | None = None
    #: Open roll: the dice the opponent rolled for their next turn.
    announced: Roll | None = None
    #: Double vs free choice: this player sets their numbers by hand instead of rolling.
    chooses: bool = False

    @classmethod
    def start(cls, variant: Variant, player: Player, *, chooses: bool = False) -> Turn:
        """A new turn for ``player``, waiting for the dice."""
        return cls(variant, player, Ask.ROLL, chooses=chooses)

    @property
    def stage(self) -> Stage:
        if self.ask is not Ask.PLAY:
            raise IllegalActionError(f"no stage to play: the turn asks for {self.ask.value}")
        return self.stages[0]

    @property
    def mover(self) -> Player:
        """Who acts now: the stage's player (the opponent, in Gioul's hand-over)."""
        return self.stages[0].player if self.ask is Ask.PLAY else self.player

    def _refuse(self, action: str) -> IllegalActionError:
        return IllegalActionError(f"{action}: the turn of {self.player.label} asks for {self.ask.value}")

    def _run(self, program: Program) -> Turn:
        turn = replace(
            self,
            stages=program.stages,
            on_incomplete=program.on_incomplete,
            then_doublet=program.then_doublet,
            roll_again=program.roll_again,
        )
        return turn._next()

    def _next(self) -> Turn:
        if self.stages:
            return replace(self, ask=Ask.PLAY)
        if self.then_doublet:
            return replace(self, ask=Ask.DOUBLET, then_doublet=False)
        if self.roll_again:
            return replace(self, ask=Ask.ROLL, roll_again=False)
        return replace(self, ask=Ask.DONE)

    def rolled(self, roll: Roll) -> Turn:
        """The player's dice have been read."""
        if self.ask is not Ask.ROLL:
            raise self._refuse(f"{self.player.label} rolls {roll}")
        turn = replace(self, rolls=self.rolls + 1, roll=roll)
        program = self.variant.program(turn, roll)
        if self.variant.open_roll and self.rolls == 0:
            return replace(turn._run(program), ask=Ask.OPPONENT_ROLL)
        return turn._run(program)

    def opponent_rolled(self, roll: Roll) -> Turn:
        """Open roll: the opponent's dice for their next turn, rolled before this one moves."""
        if self.ask is not Ask.OPPONENT_ROLL:
            raise self._refuse(f"{self.player.opponent.label} rolls {roll} for the next turn")
        return replace(self, announced=roll)._next()

    def chose_doublet(self, value: int) -> Turn:
        if self.ask is not Ask.DOUBLET:
            raise self._refuse(f"{self.player.label} chooses doublet {value}")
        if not 1 <= value <= 6:
            raise IllegalActionError(f"a doublet is 1-1 .. 6-6, not {value}-{value}")
        return self._run(self.variant.doublet_program(self.player, value))

    def legal_plays(self, position: Position) -> LegalPlays:
        from engine.movegen import LegalPlays

        stage = self.stage
        return LegalPlays(position, stage.player, self.variant.moves_for(stage))

    def played(self, play: Play) -> Turn:
        """The current stage was played as ``play`` (already checked to be legal)."""
        stage = self.stage
        rest = self.stages[1:]
        if len(play.steps) == len(stage.dice) or (not rest and not self.roll_again and not self.then_doublet):
            return replace(self, stages=rest)._next()
        # The stage could not be played in full.
        if self.on_incomplete is Incomplete.CONTINUE:
            return replace(self, stages=rest)._next()
        if self.on_incomplete is Incomplete.HAND_OVER and stage.player is self.player and rest:
            handed = tuple(replace(s, player=self.player.opponent) for s in rest)
            return replace(
                self, stages=handed, on_incomplete=Incomplete.LOSE_REST, roll_again=False,
                then_doublet=False,
            )._next()
        return replace(self, stages=(), then_doublet=False, roll_again=False, ask=Ask.DONE)
