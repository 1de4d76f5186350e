"""One game of backgammon (or of a variant) as a pure state machine.

A :class:`Game` is immutable: every action returns the next game, so a referee
can keep the previous state to fall back to, and a journal can replay a game by
applying the same actions.  An action at the wrong moment raises
:class:`~engine.errors.IllegalActionError` naming the action and the position.

A turn may have several dice stages (see :mod:`engine.turn`); while one is in
progress the game is in phase ``MOVING`` and :attr:`Game.asks` says what it
needs: dice, a chosen doublet, or a play.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from engine.cube import CENTRED, Cube
from engine.dice import Roll
from engine.errors import IllegalActionError, IllegalPlayError
from engine.movegen import LegalPlays
from engine.play import Play
from engine.player import Player
from engine.position import Position
from engine.result import GameResult, ResultKind
from engine.turn import Ask, Turn
from engine.variants import STANDARD, Variant


class OpeningRule(Enum):
    """How the first turn is decided."""

    #: Each player rolls one die; the higher plays both numbers; a tie rolls again.
    ONE_DIE_EACH = "one-die-each"
    #: Classic Line: the starter is chosen by lot and rolls their own two dice.
    STARTER_ROLLS = "starter-rolls"


class Phase(Enum):
    OPENING = "opening"  #: nobody has moved yet; waiting for the opening roll or the starter
    ON_ROLL = "on-roll"  #: ``turn`` may double, or roll
    DOUBLED = "doubled"  #: ``turn``'s opponent must take or drop
    MOVING = "moving"  #: ``turn``'s turn is under way: see :attr:`Game.asks`
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Game:
    """The state of one game.

    >>> g = Game.new(OpeningRule.ONE_DIE_EACH).opening_roll(white=3, black=1)
    >>> g.turn, g.roll
    (<Player.WHITE: 0>, Roll(first=3, second=1))
    >>> g = g.play(Player.WHITE, "8/5 6/5")
    >>> g.phase, g.turn
    (<Phase.ON_ROLL: 'on-roll'>, <Player.BLACK: 1>)
    """

    position: Position
    phase: Phase
    opening: OpeningRule
    turn: Player | None = None
    cube: Cube = CENTRED
    #: False in the Crawford game and in variants played without a cube.
    cube_in_play: bool = True
    #: Money play only: gammons count single until the cube has been turned.
    jacoby: bool = False
    result: GameResult | None = None
    variant: Variant = STANDARD
    #: The turn under way (phase MOVING).
    progress: Turn | None = None
    #: Fixed roll: the opening roll, played by both players all game.
    fixed: Roll | None = None
    #: Open roll: the dice the player on roll already rolled during the last turn.
    announced: Roll | None = None
    #: Double vs free choice: the player who chooses their numbers instead of rolling.
    chooser: Player | None = None

    @classmethod
    def new(
        cls,
        opening: OpeningRule = OpeningRule.ONE_DIE_EACH,
        *,
        position: Position | None = None,
        cube_in_play: bool = True,
        jacoby: bool = False,
        variant: Variant = STANDARD,
        chooser: Player | None = None,
    ) -> Game:
        """A new game; ``position`` is a set-up the players laid out, checked by the variant."""
        start = variant.start_position() if position is None else variant.check_setup(position)
        if variant.free_choice and chooser is None:
            chooser = Player.WHITE
        return cls(
            position=start,
            phase=Phase.OPENING,
            opening=opening,
            cube_in_play=cube_in_play and variant.uses_cube,
            jacoby=jacoby,
            variant=variant,
            chooser=chooser if variant.free_choice else None,
        )

    @classmethod
    def at(
        cls,
        position: Position,
        turn: Player,
        *,
        variant: Variant = STANDARD,
        cube: Cube = CENTRED,
        cube_in_play: bool = True,
        opening: OpeningRule = OpeningRule.ONE_DIE_EACH,
    ) -> Game:
        """A game under way at ``position`` with ``turn`` on roll (analysis, teaching, a resumed
        game).  Only the checker count is checked, not the variant's start."""
        return cls(
            position=position.validate(variant.checkers),
            phase=Phase.ON_ROLL,
            opening=opening,
            turn=turn,
            cube=cube,
            cube_in_play=cube_in_play and variant.uses_cube,
            variant=variant,
            chooser=Player.WHITE if variant.free_choice else None,
        )

    # -- helpers -------------------------------------------------------------------

    def _refuse(self, action: str, why: str) -> IllegalActionError:
        return IllegalActionError(f"{action}: {why} (phase {self.phase.value}, {self.position.to_text()})")

    def _expect(self, action: str, phase: Phase, player: Player | None = None) -> None:
        if self.phase is not phase:
            raise self._refuse(action, f"only allowed in phase {phase.value}")
        if player is not None and player is not self.turn:
            raise self._refuse(action, f"it is {'nobody' if self.turn is None else self.turn.label}'s turn")

    @property
    def asks(self) -> Ask | None:
        """What the turn under way needs next (``None`` outside phase MOVING)."""
        return self.progress.ask if self.progress is not None else None

    @property
    def roll(self) -> Roll | None:
        """The roll being played."""
        return self.progress.roll if self.progress is not None else None

    def _begin(self, player: Player, roll: Roll) -> Game:
        turn = Turn.start(self.variant, player, chooses=self.chooser is player)
        game = replace(self, phase=Phase.MOVING, turn=player, progress=turn, announced=None)
        return game._rolled(player, roll)

    def _rolled(self, player: Player, roll: Roll) -> Game:
        assert self.progress is not None
        if self.variant.fixed_roll and self.fixed is not None:
            roll = self.fixed  # the dice are read once; after that they are ignored
        game = replace(self, progress=self.progress.rolled(roll))
        if self.variant.fixed_roll and self.fixed is None:
            game = replace(game, fixed=roll)
        return game._settle()

    def _settle(self) -> Game:
        """Pass the turn once it is done."""
        if self.progress is not None and self.progress.ask is Ask.DONE:
            assert self.turn is not None
            announced = self.progress.announced
            return replace(self, phase=Phase.ON_ROLL, turn=self.turn.opponent, progress=None,
                           announced=announced)
        return self

    # -- the opening ---------------------------------------------------------------

    def opening_roll(self, *, white: int, black: int) -> Game:
        """Each player's single die (:attr:`OpeningRule.ONE_DIE_EACH`).  A tie rolls again."""
        action = f"opening roll {white}/{black}"
        self._expect(action, Phase.OPENING)
        if self.opening is not OpeningRule.ONE_DIE_EACH:
            raise self._refuse(action, "this game opens with the starter rolling both dice")
        roll = Roll(white, black)
        if roll.is_double:
            return self  # a tie: both roll again
        return self._begin(Player.WHITE if white > black else Player.BLACK, roll)

    def choose_starter(self, player: Player) -> Game:
        """The player chosen by lot (:attr:`OpeningRule.STARTER_ROLLS`) is on roll."""
        self._expect(f"{player.label} starts", Phase.OPENING)
        if self.opening is not OpeningRule.STARTER_ROLLS:
            raise self._refuse(f"{player.label} starts", "this game opens with one die each")
        return replace(self, phase=Phase.ON_ROLL, turn=player)

    # -- the cube ------------------------------------------------------------------

    def can_double(self, player: Player) -> bool:
        return (
            self.phase is Phase.ON_ROLL
            and player is self.turn
            and self.cube_in_play
            and self.cube.can_double(player)
        )

    def double(self, player: Player) -> Game:
        """``player`` turns the cube before rolling."""
        action = f"{player.label} doubles"
        self._expect(action, Phase.ON_ROLL, player)
        if not self.cube_in_play:
            raise self._refuse(action, "the cube is not in play in this game (Crawford or variant)")
        if not self.cube.can_double(player):
            if self.cube.value >= 64:
                raise self._refuse(action, "the cube is already at 64")
            owner = self.cube.owner.label if self.cube.owner is not None else "nobody"
            raise self._refuse(action, f"only the cube's owner may redouble, and {owner} owns it")
        return replace(self, phase=Phase.DOUBLED)

    def take(self, player: Player) -> Game:
        """The doubled player accepts: the cube doubles and moves to their side."""
        action = f"{player.label} takes"
        if self.phase is not Phase.DOUBLED or self.turn is None or player is not self.turn.opponent:
            raise self._refuse(action, "only the doubled player may take, right after the double")
        return replace(self, phase=Phase.ON_ROLL, cube=self.cube.turned(player))

    def drop(self, player: Player) -> Game:
        """The doubled player refuses and loses the cube's value before the double."""
        action = f"{player.label} drops"
        if self.phase is not Phase.DOUBLED or self.turn is None or player is not self.turn.opponent:
            raise self._refuse(action, "only the doubled player may drop, right after the double")
        result = GameResult(self.turn, ResultKind.SINGLE, self.cube.value, dropped=True)
        return replace(self, phase=Phase.OVER, result=result)

    # -- rolling and playing -------------------------------------------------------

    def roll_dice(self, player: Player, roll: Roll) -> Game:
        """``player`` rolls: to start the turn (giving up doubling), or again within it."""
        action = f"{player.label} rolls {roll}"
        if self.phase is Phase.MOVING and self.asks is Ask.ROLL:
            self._expect(action, Phase.MOVING, player)
            return self._rolled(player, roll)
        self._expect(action, Phase.ON_ROLL, player)
        if self.announced is not None:
            roll = self.announced  # open roll: these dice were rolled during the last turn
        return self._begin(player, roll)

    def announce(self, player: Player, roll: Roll) -> Game:
        """Open roll: ``player`` rolls the dice for their next turn before the mover plays."""
        action = f"{player.label} rolls {roll} for the next turn"
        if self.asks is not Ask.OPPONENT_ROLL or self.turn is None or player is not self.turn.opponent:
            raise self._refuse(action, "only the opponent, after the roll of an open-roll turn")
        assert self.progress is not None
        return replace(self, progress=self.progress.opponent_rolled(roll))._settle()

    def choose_doublet(self, player: Player, value: int) -> Game:
        """``player`` picks the doublet to play (Acey Deucey's and Mexican's 1-2)."""
        action = f"{player.label} chooses {value}-{value}"
        if self.asks is not Ask.DOUBLET or player is not self.turn:
            raise self._refuse(action, "no doublet to choose now")
        assert self.progress is not None
        return replace(self, progress=self.progress.chose_doublet(value))._settle()

    def legal_plays(self) -> LegalPlays:
        if self.progress is None or self.progress.ask is not Ask.PLAY:
            raise self._refuse("legal plays", "no dice stage is waiting to be played")
        return self.progress.legal_plays(self.position)

    def play(self, player: Player, play: Play | str) -> Game:
        """The player of the current stage plays it, as a :class:`Play` or in gnubg notation."""
        action = f"{player.label} plays {play}"
        if self.phase is not Phase.MOVING or self.progress is None or self.progress.ask is not Ask.PLAY:
            raise self._refuse(action, "nothing to play now")
        if player is not self.progress.mover:
            raise self._refuse(action, f"it is {self.progress.mover.label}'s turn to play")
        plays = self.legal_plays()
        if isinstance(play, str):
            chosen = plays.parse(play)
        elif play in plays:
            chosen = play
        else:
            raise IllegalPlayError(
                f"{play} is not a legal play for {player.label} with {self.progress.stage.text} "
                f"from {self.position.to_text()}"
            )
        result = self.variant.outcome(self.position, chosen, self.cube.value)
        if result is not None:
            if self.jacoby and self.cube.is_centred and result.kind is not ResultKind.SINGLE:
                result = replace(result, kind=ResultKind.SINGLE)
            return replace(self, position=chosen.result, phase=Phase.OVER, progress=None, result=result)
        game = replace(self, position=chosen.result, progress=self.progress.played(chosen))._settle()
        if not chosen.steps and self.variant.is_dead(game.position, self.fixed):
            blocked = self.variant.blocked_result(game.position, player, self.cube.value)
            return replace(game, phase=Phase.OVER, progress=None, result=blocked)
        return game

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER
