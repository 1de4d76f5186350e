"""One game of backgammon as a pure state machine.

A :class:`Game` is immutable: every action returns the next game, so a referee
can keep the previous state to fall back to, and a journal can replay a game by
applying the same actions.  An action at the wrong moment raises
:class:`~engine.errors.IllegalActionError` naming the action and the position.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum, IntEnum

from engine.cube import CENTRED, Cube
from engine.dice import Roll
from engine.errors import IllegalActionError, IllegalPlayError
from engine.movegen import LegalPlays, legal_plays
from engine.play import Play
from engine.player import Player
from engine.position import Position


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
    MOVING = "moving"  #: ``turn`` has rolled ``roll`` and must play it
    OVER = "over"


class ResultKind(IntEnum):
    """The multiplier of a win."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class GameResult:
    winner: Player
    kind: ResultKind
    cube: int
    dropped: bool = False

    @property
    def points(self) -> int:
        """What the winner scores: the kind times the cube."""
        return int(self.kind) * self.cube

    def __str__(self) -> str:
        how = "by a dropped double" if self.dropped else self.kind.name.lower()
        return f"{self.winner.label} wins {self.points} point{'s' * (self.points != 1)} ({how})"


def result_kind(position: Position, winner: Player) -> ResultKind:
    """Single, gammon (the loser bore nothing off) or backgammon (and still has a
    checker on the bar or in the winner's home board).

    >>> result_kind(Position.from_points({6: -15}, off=(15, 0)), Player.WHITE)
    <ResultKind.GAMMON: 2>
    >>> result_kind(Position.from_points({20: -1, 6: -14}, off=(15, 0)), Player.WHITE)
    <ResultKind.BACKGAMMON: 3>
    """
    loser = winner.opponent
    if position.off[loser] > 0:
        return ResultKind.SINGLE
    in_winner_home = any(position.count(loser, p) for p in position.home_points(winner))
    if position.bar[loser] or in_winner_home:
        return ResultKind.BACKGAMMON
    return ResultKind.GAMMON


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
    roll: Roll | None = None
    cube: Cube = CENTRED
    #: False in the Crawford game and in games played without a cube.
    cube_in_play: bool = True
    #: Money play only: gammons count single until the cube has been turned.
    jacoby: bool = False
    result: GameResult | None = None

    @classmethod
    def new(
        cls,
        opening: OpeningRule = OpeningRule.ONE_DIE_EACH,
        *,
        position: Position | None = None,
        cube_in_play: bool = True,
        jacoby: bool = False,
    ) -> Game:
        return cls(
            position=position or Position.start(),
            phase=Phase.OPENING,
            opening=opening,
            cube_in_play=cube_in_play,
            jacoby=jacoby,
        )

    # -- helpers -------------------------------------------------------------------

    def _refuse(self, action: str, why: str) -> IllegalActionError:
        return IllegalActionError(f"{action}: {why} (phase {self.phase.value}, {self.position.to_text()})")

    def _expect(self, action: str, phase: Phase, player: Player | None = None) -> None:
        if self.phase is not phase:
            raise self._refuse(action, f"only allowed in phase {phase.value}")
        if player is not None and player is not self.turn:
            raise self._refuse(action, f"it is {'nobody' if self.turn is None else self.turn.label}'s turn")

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
        starter = Player.WHITE if white > black else Player.BLACK
        return replace(self, phase=Phase.MOVING, turn=starter, roll=roll)

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
        """``player`` rolls (and so gives up doubling this turn)."""
        self._expect(f"{player.label} rolls {roll}", Phase.ON_ROLL, player)
        return replace(self, phase=Phase.MOVING, roll=roll)

    def legal_plays(self) -> LegalPlays:
        if self.phase is not Phase.MOVING or self.turn is None or self.roll is None:
            raise self._refuse("legal plays", "nobody has rolled")
        return legal_plays(self.position, self.turn, self.roll)

    def play(self, player: Player, play: Play | str) -> Game:
        """``player`` plays the roll, given as a :class:`Play` or in gnubg notation."""
        self._expect(f"{player.label} plays {play}", Phase.MOVING, player)
        plays = self.legal_plays()
        if isinstance(play, str):
            chosen = plays.parse(play)
        elif play in plays:
            chosen = play
        else:
            raise IllegalPlayError(
                f"{play} is not a legal play for {player.label} with {self.roll} "
                f"from {self.position.to_text()}"
            )
        position = chosen.result
        if position.checkers_on_board(player) + position.bar[player] == 0:
            kind = result_kind(position, player)
            if self.jacoby and self.cube.is_centred:
                kind = ResultKind.SINGLE
            result = GameResult(player, kind, self.cube.value)
            return replace(self, position=position, phase=Phase.OVER, roll=None, result=result)
        return replace(self, position=position, phase=Phase.ON_ROLL, turn=player.opponent, roll=None)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER
