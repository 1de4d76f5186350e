"""A play: everything a player does with one roll."""

from __future__ import annotations

from dataclasses import dataclass

from engine.notation import Paths, format_steps
from engine.player import Player
from engine.position import Position
from engine.step import Step


@dataclass(frozen=True, slots=True)
class Play:
    """A whole turn: the steps in the order played and the position they lead to.

    Two plays are the same play when they lead to the same position, whatever
    the order of their steps (gnubg tells moves apart the same way).
    """

    player: Player
    steps: tuple[Step, ...]
    result: Position
    #: How the steps group into checkers for :attr:`notation`: apart where no checker may use
    #: two numbers (Puff while checkers are still to enter).
    paths: Paths = Paths.JOINED

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.player == other.player and self.result == other.result

    def __hash__(self) -> int:
        return hash((self.player, self.result))

    @property
    def notation(self) -> str:
        """gnubg's notation, e.g. ``"24/18 13/10"``; an empty play is ``""``."""
        return format_steps(self.steps, self.paths)

    @property
    def hits(self) -> int:
        return sum(step.hit for step in self.steps)

    def __str__(self) -> str:
        return self.notation or "(no move)"
