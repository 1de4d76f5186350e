"""Synthetic frame sequences of a game being played, for the stabiliser's tests and bench.

One camera mount and one lamp (`synthetic.Style.grain`), so frames of a still scene
differ only by sensor noise.  Between still spells a hand moves a checker (the frames
are covered) or dice are thrown (they land somewhere new each frame until they settle).
Every frame carries the scene the referee may be told, or ``None`` while something moves.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from engine.player import Player
from engine.position import Position
from vision import synthetic
from vision.stabiliser import Scene
from vision.view import Image


@dataclass(frozen=True, slots=True)
class SequenceFrame:
    image: Image
    #: The scene if the board is still in this frame, ``None`` while a hand or a die moves.
    truth: Scene | None


def scene_of(position: Position, dice: tuple[synthetic.DieSpec, ...]) -> Scene:
    colour = {Player.WHITE: "white", Player.BLACK: "black"}
    return Scene(position.points, position.bar,
                 tuple(sorted((colour[d.colour], d.value, d.cocked) for d in dice)))


def move_one(position: Position, rng: random.Random) -> Position:
    """The position with one checker moved to a point that is empty or its own colour's."""
    points = list(position.points)
    sign = rng.choice((1, -1))
    sources = [i for i, c in enumerate(points) if c * sign > 0]
    targets = [i for i, c in enumerate(points) if c * sign >= 0 and abs(c) < 5]
    source = rng.choice(sources)
    target = rng.choice([t for t in targets if t != source])
    points[source] -= sign
    points[target] += sign
    return dataclasses.replace(position, points=tuple(points))


class SequenceMaker:
    """Frames of one board under one mount; `still`, `hand` and `throw` append spells."""

    def __init__(self, seed: int, size: tuple[int, int] = (1280, 960), noise: float = 2.0) -> None:
        self.rng = random.Random(seed)
        style = synthetic.Style.random(self.rng, hand=False)
        # Noise is added per frame below; a glare spot stays where the lamp puts it.
        self.style = dataclasses.replace(style, grain=self.rng.randrange(2**31), noise=0.0,
                                         glare=min(style.glare, 1))
        self.size = size
        self.mount = synthetic.camera(self.style, self.rng, size)
        self.noise = noise

    def _render(self, position: Position, dice: tuple[synthetic.DieSpec, ...], seed: int,
                hand: bool = False) -> Image:
        style = dataclasses.replace(self.style, hand=hand)
        image, _ = synthetic.render(position, random.Random(seed), self.size, style, self.mount, dice)
        noise = np.random.default_rng(self.rng.randrange(2**31)).normal(0, self.noise, image.shape)
        return np.clip(image + noise, 0, 255).astype(np.uint8)

    def start_frame(self) -> Image:
        return self._render(Position.start(), (), seed=0)

    def still(self, position: Position, dice: tuple[synthetic.DieSpec, ...], frames: int,
              ) -> Iterator[SequenceFrame]:
        """The scene held still: the dice lie where they landed (same throw seed every frame)."""
        landing = self.rng.randrange(2**31)
        truth = scene_of(position, dice)
        for _ in range(frames):
            yield SequenceFrame(self._render(position, dice, landing), truth)

    def hand(self, position: Position, frames: int) -> Iterator[SequenceFrame]:
        """A hand and arm over the board, somewhere new each frame."""
        for _ in range(frames):
            yield SequenceFrame(self._render(position, (), self.rng.randrange(2**31), hand=True), None)

    def throw(self, position: Position, dice: tuple[synthetic.DieSpec, ...], frames: int,
              ) -> Iterator[SequenceFrame]:
        """Dice tumbling: a new landing place and face every frame until they settle."""
        for _ in range(frames):
            tumbling = tuple(dataclasses.replace(d, value=self.rng.randint(1, 6)) for d in dice)
            yield SequenceFrame(self._render(position, tumbling, self.rng.randrange(2**31)), None)


def game_sequence(seed: int, turns: int = 3, hold: int = 5, size: tuple[int, int] = (1280, 960),
                  ) -> tuple[Image, list[SequenceFrame]]:
    """The start frame to calibrate with, and ``turns`` turns: dice thrown and settling, a hand
    moving a checker (dice still on the board), the dice picked up.  One throw in four is cocked."""
    maker = SequenceMaker(seed, size)
    rng = maker.rng
    position = synthetic.random_scene(rng)
    frames = list(maker.still(position, (), hold))
    for turn in range(turns):
        colour = Player.WHITE if turn % 2 == 0 else Player.BLACK
        cocked = rng.random() < 0.25
        dice = (synthetic.DieSpec(rng.randint(1, 6), colour, cocked),
                synthetic.DieSpec(rng.randint(1, 6), colour))
        frames += maker.throw(position, dice, 2)
        frames += maker.still(position, dice, hold)
        frames += maker.hand(position, 2)
        position = move_one(position, rng)
        frames += maker.still(position, dice, hold)
        frames += maker.hand(position, 1)
        frames += maker.still(position, (), hold)
    return maker.start_frame(), frames
