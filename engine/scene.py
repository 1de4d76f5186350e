"""What the referee is told about the board: one stable scene from the camera.

Vision reads frames and the stabiliser lets a scene through only when it has held
still; the referee never sees a frame.  A scene is plain numbers in the rulebook's
numbering, so the engine stays free of cameras and images, and tests write scenes by
hand or take them from self-play.

>>> from engine.position import Position
>>> Scene.of(Position.start(), dice=(("white", 3, False), ("white", 1, False))).dice_of("white")
(1, 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.errors import EngineError
from engine.position import Position

#: Where the doubling cube lies: in the middle (value 1, showing 64) or on a player's side,
#: meaning that player owns it (CONTRACT.md's ``cube.position``).
CUBE_PLACES = ("center", "white", "black")
#: "other": a die vision could not tell the colour of; the referee attributes it to nobody.
DICE_COLOURS = ("white", "black", "other")


class SceneError(EngineError):
    """A scene that no board can show: wrong number of points, bad dice or cube."""


@dataclass(frozen=True, slots=True)
class Scene:
    """The board as the camera sees it when nothing moves.

    ``points`` are 24 counts (+White, -Black) for points 1..24, ``bar`` is (white, black).
    ``dice`` are (colour, value, cocked) sorted, so two scenes with the same dice compare
    equal whatever order vision found them in.  ``cube`` is (value, place) or ``None``
    when no cube is on the board.  ``stacked`` lists the points whose count is a lower
    bound: checkers in a second layer the camera cannot count.  ``unsure`` lists the points
    whose count the camera read with low confidence: it may be one off (a checker half hidden
    by a die or a glint).  It is a hint to the referee, who resolves it with the rules, and
    not part of what the scene shows: scenes that differ only in it are equal, so a
    confidence that flickers does not stop the board from being stable.
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    dice: tuple[tuple[str, int, bool], ...] = ()
    stacked: tuple[int, ...] = ()
    cube: tuple[int, str] | None = None
    unsure: tuple[int, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise SceneError(f"a scene has 24 points, not {len(self.points)}")
        if len(self.bar) != 2 or min(self.bar) < 0:
            raise SceneError(f"scene bar {self.bar!r} is not (white, black) counts >= 0")
        for colour, value, _ in self.dice:
            if colour not in DICE_COLOURS or not 1 <= value <= 6:
                raise SceneError(f"scene die ({colour!r}, {value!r}) is not a white, black or other 1..6")
        if tuple(sorted(self.dice)) != self.dice:
            object.__setattr__(self, "dice", tuple(sorted(self.dice)))
        for name, points in (("stacked", self.stacked), ("unsure", self.unsure)):
            for point in points:
                if not 1 <= point <= 24:
                    raise SceneError(f"{name} point {point} is not in 1..24")
        if self.cube is not None:
            value, place = self.cube
            if value not in (1, 2, 4, 8, 16, 32, 64) or place not in CUBE_PLACES:
                raise SceneError(f"scene cube {self.cube!r} is not (a power of two 1..64, a place in "
                                 f"{', '.join(CUBE_PLACES)})")

    @classmethod
    def of(cls, position: Position, *, dice: tuple[tuple[str, int, bool], ...] = (),
           cube: tuple[int, str] | None = None) -> Scene:
        """The scene a camera would see of ``position`` (tests, self-play, synthetic games)."""
        return cls(tuple(position.points), tuple(position.bar), tuple(sorted(dice)), (), cube)  # type: ignore[arg-type]

    def dice_of(self, colour: str) -> tuple[int, ...]:
        """The values of the flat dice of one colour, in the order sorted."""
        return tuple(value for c, value, cocked in self.dice if c == colour and not cocked)

    @property
    def any_cocked(self) -> bool:
        return any(cocked for _, _, cocked in self.dice)

    def without_dice(self) -> Scene:
        return Scene(self.points, self.bar, (), self.stacked, self.cube, self.unsure)
