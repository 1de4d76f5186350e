"""How a game ends and what it is worth."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from engine.player import Player
from engine.position import Position
from engine.wording import plural


class ResultKind(IntEnum):
    """The multiplier of a win."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class GameResult:
    """Who won, how, and for how much: ``base × kind × cube`` points.

    ``base`` is 1 in the standard game; variants that score pips or checkers
    left (Pin, Acey Deucey) set it.  ``reason`` says why a game ended early.
    """

    winner: Player
    kind: ResultKind
    cube: int
    dropped: bool = False
    base: int = 1
    reason: str = ""

    @property
    def points(self) -> int:
        return self.base * int(self.kind) * self.cube

    def __str__(self) -> str:
        how = "by a dropped double" if self.dropped else self.kind.name.lower()
        if self.reason:
            how = f"{how}: {self.reason}"
        return f"{self.winner.label} wins {plural(self.points, 'point')} ({how})"


def result_kind(position: Position, winner: Player, home: Iterable[int] | None = None) -> ResultKind:
    """Single, gammon (the loser bore nothing off) or backgammon (and still has a
    checker on the bar, still to enter, or in the winner's home board: ``home``, by
    default the standard game's).

    >>> result_kind(Position.from_points({6: -15}, off=(15, 0)), Player.WHITE)
    <ResultKind.GAMMON: 2>
    >>> result_kind(Position.from_points({20: -1, 6: -14}, off=(15, 0)), Player.WHITE)
    <ResultKind.BACKGAMMON: 3>
    """
    loser = winner.opponent
    if position.off[loser] > 0:
        return ResultKind.SINGLE
    points = position.home_points(winner) if home is None else home
    in_winner_home = any(position.count(loser, p) for p in points)
    if position.bar[loser] or position.pool[loser] or in_winner_home:
        return ResultKind.BACKGAMMON
    return ResultKind.GAMMON
