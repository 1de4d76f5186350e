"""The doubling cube."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import IllegalActionError
from engine.player import Player

MAX_CUBE = 64
#: The numbers on the cube's six faces; a centred cube shows 64 and counts 1.
CUBE_FACES = (2, 4, 8, 16, 32, 64)


@dataclass(frozen=True, slots=True)
class Cube:
    """Its value (1 while centred and never turned, up to 64) and its owner (``None``: centred).

    >>> Cube().can_double(Player.BLACK), Cube(2, Player.WHITE).can_double(Player.BLACK)
    (True, False)
    >>> Cube().turned(Player.BLACK)
    Cube(value=2, owner=<Player.BLACK: 1>)
    """

    value: int = 1
    owner: Player | None = None

    def __post_init__(self) -> None:
        if self.value not in (1, 2, 4, 8, 16, 32, 64):
            raise IllegalActionError(f"cube value {self.value} is not one of 1, 2, 4, ..., {MAX_CUBE}")
        if self.value == 1 and self.owner is not None:
            raise IllegalActionError("a cube at 1 has never been turned, so nobody owns it")

    @property
    def is_centred(self) -> bool:
        return self.owner is None

    def can_double(self, player: Player) -> bool:
        """Only the owner redoubles (anyone while centred), and never past 64."""
        return self.value < MAX_CUBE and self.owner in (None, player)

    def turned(self, taker: Player) -> Cube:
        """The cube after ``taker`` accepts a double: twice the value, on the taker's side."""
        return Cube(self.value * 2, taker)


#: The cube at the start of every game.
CENTRED = Cube()
