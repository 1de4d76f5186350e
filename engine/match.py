"""A match to N points with the Crawford rule, as a pure state machine over games."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.dice import Roll
from engine.errors import IllegalActionError
from engine.game import Game, OpeningRule, Phase
from engine.gnubg_id import GameStage, MatchKey
from engine.play import Play
from engine.player import Player
from engine.result import GameResult, ResultKind  # noqa: F401
from engine.variants import STANDARD, Variant


@dataclass(frozen=True, slots=True)
class Match:
    """A match to ``length`` points (0: an unlimited money session).

    The Crawford rule: the first game after either player comes within one
    point of winning is played without the cube; later games ("post-Crawford")
    use it again.

    >>> m = Match.new(3)
    >>> m = m.with_result(GameResult(Player.WHITE, ResultKind.GAMMON, 1))  # 2-0
    >>> m.score, m.is_crawford
    ((2, 0), True)
    """

    length: int
    game: Game
    opening: OpeningRule = OpeningRule.ONE_DIE_EACH
    score: tuple[int, int] = (0, 0)
    is_crawford: bool = False
    is_post_crawford: bool = False
    results: tuple[GameResult, ...] = ()
    #: Money play only (length 0): gammons count single until the cube is turned.
    jacoby: bool = False

    @classmethod
    def new(
        cls,
        length: int,
        opening: OpeningRule = OpeningRule.ONE_DIE_EACH,
        *,
        jacoby: bool = False,
        variant: Variant = STANDARD,
    ) -> Match:
        if length < 0:
            raise IllegalActionError(f"a match length is 0 (money) or more points, not {length}")
        if jacoby and length:
            raise IllegalActionError("the Jacoby rule applies to money play only (match length 0)")
        game = Game.new(opening, jacoby=jacoby, variant=variant)
        return cls(length=length, game=game, opening=opening, jacoby=jacoby)

    @property
    def winner(self) -> Player | None:
        if self.length == 0:
            return None
        for player in Player:
            if self.score[player] >= self.length:
                return player
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def away(self, player: Player) -> int:
        """Points ``player`` still needs (0 in money play)."""
        return max(self.length - self.score[player], 0) if self.length else 0

    def with_result(self, result: GameResult) -> Match:
        """Score a finished game and set up the next one (Crawford included)."""
        if self.is_over:
            raise IllegalActionError(f"the match is over: {self.score[0]}-{self.score[1]}")
        score = list(self.score)
        score[result.winner] += result.points
        match = replace(self, score=(score[0], score[1]), results=(*self.results, result))
        if match.is_over:
            return replace(match, game=replace(self.game, phase=Phase.OVER, result=result))
        crawford = False
        post = self.is_post_crawford or self.is_crawford
        if self.length and not post and any(s == self.length - 1 for s in score):
            crawford = True
        game = Game.new(self.opening, cube_in_play=not crawford, jacoby=self.jacoby,
                        variant=self.game.variant, chooser=self.game.chooser)
        return replace(match, game=game, is_crawford=crawford, is_post_crawford=post)

    def _step(self, game: Game) -> Match:
        if game.result is not None:
            return replace(self, game=game).with_result(game.result)
        return replace(self, game=game)

    def _check_open(self, action: str) -> None:
        if self.is_over:
            raise IllegalActionError(f"{action}: the match is over at {self.score[0]}-{self.score[1]}")

    # Each action forwards to the game and scores it once it ends.
    def opening_roll(self, *, white: int, black: int) -> Match:
        self._check_open("opening roll")
        return self._step(self.game.opening_roll(white=white, black=black))

    def choose_starter(self, player: Player) -> Match:
        self._check_open("choose starter")
        return self._step(self.game.choose_starter(player))

    def double(self, player: Player) -> Match:
        self._check_open("double")
        return self._step(self.game.double(player))

    def take(self, player: Player) -> Match:
        self._check_open("take")
        return self._step(self.game.take(player))

    def drop(self, player: Player) -> Match:
        self._check_open("drop")
        return self._step(self.game.drop(player))

    def roll_dice(self, player: Player, roll: Roll) -> Match:
        self._check_open("roll")
        return self._step(self.game.roll_dice(player, roll))

    def play(self, player: Player, play: Play | str) -> Match:
        self._check_open("play")
        return self._step(self.game.play(player, play))

    def announce(self, player: Player, roll: Roll) -> Match:
        self._check_open("announce")
        return self._step(self.game.announce(player, roll))

    def choose_doublet(self, player: Player, value: int) -> Match:
        self._check_open("choose doublet")
        return self._step(self.game.choose_doublet(player, value))

    def key(self) -> MatchKey:
        """The gnubg Match ID fields of the current moment."""
        game = self.game
        turn = game.turn if game.turn is not None else Player.WHITE
        deciding = turn.opponent if game.phase is Phase.DOUBLED else turn
        stage = {
            Phase.OPENING: GameStage.NONE,
            Phase.OVER: GameStage.DROPPED
            if game.result is not None and game.result.dropped
            else GameStage.OVER,
        }.get(game.phase, GameStage.PLAYING)
        dice = (game.roll.first, game.roll.second) if game.roll is not None else (0, 0)
        return MatchKey(
            cube_value=game.cube.value,
            cube_owner=game.cube.owner,
            dice_owner=turn,
            crawford=self.is_crawford,
            stage=stage,
            turn=deciding,
            doubled=game.phase is Phase.DOUBLED,
            dice=dice,
            length=self.length,
            score=self.score,
            jacoby=self.jacoby,
        )

    def match_id(self) -> str:
        return self.key().encode()
