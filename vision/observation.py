"""One frame of the board read whole: the checkers, the dice and the cube.

This is what `pipgammon read` prints and what the stabiliser is fed.  The dice are read
first because a place under a flat die holds no checker (`read`'s ``flat_dice``); a
cocked die makes an ``ok`` frame ``cocked``, since the rulebook has that roll thrown again;
a die read flat on or against a checker is cocked (`vision.reading.cocked_on_checkers`); once
the checkers are read, a die called cocked with nothing to lean on lies flat, and one resting on
something is cocked if its first reading found that as likely as any value (`propped`).
A photo is first asked for a real hand over the board (`vision.hands`); a live camera asks
it only of a board at rest, before the stabiliser could trust it (`Observer`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.calibration import Calibration
from vision.corners import read_corners
from vision.dice import CubeOnBoard, DiceConfig, Die, on_board
from vision.geometry import BoardGeometry
from vision.hands import HandConfig, hands_over, near
from vision.reading import Reading, read
from vision.stabiliser import Scene, StabiliserConfig, motion, shrink, what_counts
from vision.view import GEOMETRY, SLOTS, Image, canonical, on_board_units

#: A point read with less confidence than this is `Scene.unsure`: its count may be one off.
#: Measured on 5,952 points of 250 synthetic frames at 1280x960 (seeds 2,700,000+): 8 of the 9
#: misread points were below 0.9, and 1.2 % of the points read right.
UNSURE_BELOW = 0.9
#: How a hand over the board is told (`vision.hands`).
HANDS = HandConfig()
#: A die called cocked further than this many of its sides from everything it could lean on is
#: read as lying flat (`propped`).
LEANS_WITHIN = 1.25
#: A die whose centre is nearer than this many of its sides to the edge of something it could rest
#: on is cocked when its first reading found that at least as likely as any value (`propped`):
#: a flat die touching a checker face on has its centre half a side from the checker's edge.
RESTS_WITHIN = 0.5
#: A die the reader calls cocked this surely (its probability of "cocked") stays cocked over a
#: place's disc, though nothing is read there to lean on (`propped`).
SURELY_COCKED = 0.95


@dataclass(frozen=True, slots=True)
class Observation:
    reading: Reading
    dice: tuple[Die, ...] = ()
    cube: CubeOnBoard | None = None

    @property
    def status(self) -> str:
        if self.reading.status == "ok" and any(d.cocked for d in self.dice):
            return "cocked"
        return self.reading.status

    def scene(self) -> Scene:
        """What the stabiliser compares from frame to frame."""
        dice = tuple(sorted((d.colour.value, d.value, d.cocked) for d in self.dice))
        cube = None if self.cube is None else (self.cube.value, self.cube.position)
        unsure = tuple(point for point, sure in enumerate(self.reading.confidence, 1) if sure < UNSURE_BELOW)
        return Scene(self.reading.points, self.reading.bar, dice, self.reading.stacked, cube, unsure)

    def to_json(self) -> dict[str, Any]:
        """CONTRACT.md's keys of `pipgammon read`, without ``image`` and ``ms``."""
        return {
            **self.reading.to_json(),
            "status": self.status,
            "dice": [{"color": d.colour.value, "value": d.value, "cocked": d.cocked} for d in self.dice],
            "cube": None if self.cube is None else self.cube.to_json(),  # null: no cube on the board
        }


def observe(frame: Image, calibration: Calibration, hands: bool = False,
            dice_config: DiceConfig | None = None) -> Observation:
    """Read a frame from the calibrated mount; with ``hands``, a frame with a hand over the
    board is `occluded` (a still or a photo: a live frame is asked at rest, by `Observer`).
    ``dice_config``: the dice reader's settings, if not the shipped ones (to compare them:
    `bench/dice.py --try`)."""
    if (frame.shape[1], frame.shape[0]) != tuple(calibration.frame_size):
        return Observation(read(frame, calibration))  # no-board, with the reason
    if hands and (hand := _hand_over(frame, calibration.corners)) is not None:
        return hand
    # One warp of the frame serves the dice and the checkers.
    view = canonical(frame, calibration.corners)
    dice, cube = on_board(frame, calibration.corners, dice_config or DiceConfig(), view=view,
                          fittings=calibration.fittings)
    flat = [d for d in dice if not d.cocked]
    reading = read(frame, calibration, flat_dice=[d.centre for d in flat],
                   cocked_dice=[d.centre for d in dice if d.cocked], view=view,
                   doubtful=[i for i, d in enumerate(flat) if d.first_cocked is not None])
    if reading.status == "no-board":
        return Observation(reading)
    # A "die" lying on two checkers is the gap between them (`vision.reading.on_checkers`); one
    # read flat on or against a checker is cocked (`vision.reading.cocked_on_checkers`).
    ghosts = [flat[i] for i in reading.dice_on_checkers]
    on_a_checker = [flat[i] for i in reading.dice_cocked]
    dice = tuple(d for d in dice if d not in ghosts)
    settled = propped(dice, reading, calibration.corners, calibration.layout.geometry)
    # Tilted after `propped`: the checker such a die sits on is what it leans on, though the
    # places round it may read bare (the die hides the middle of its checker; tuning seed
    # 5,000,023 frame 7 read the nearest checker 1.27 sides off, and the die was laid flat again).
    return Observation(reading, tuple(d.tilted() if d in on_a_checker else s
                                      for d, s in zip(dice, settled, strict=True)), cube)


def observe_corners(frame: Image, corners: np.ndarray, hands: bool = True) -> Observation:
    """Read a photo from the corners of its playing area: a hand over it makes it `occluded`
    (unless not ``hands``); else the dice and the cube first, then the checkers, with no checker
    under a flat die."""
    if hands and (hand := _hand_over(frame, corners)) is not None:
        return hand
    view = canonical(frame, corners)
    # No start frame shows a photo's fittings, and a folding board's hinges lie on its bar.
    dice, cube = on_board(frame, corners, view=view, on_bar=False)
    reading = read_corners(frame, corners, flat_dice=[d.centre for d in dice if not d.cocked], view=view)
    if reading.status == "no-board":
        return Observation(reading)
    return Observation(reading, propped(dice, reading, corners), cube)


def propped(dice: Sequence[Die], reading: Reading, corners: np.ndarray,
            g: BoardGeometry = GEOMETRY) -> tuple[Die, ...]:
    """``dice`` with each die called cocked that has nothing to lean on read as lying flat, and
    each resting on something whose first reading found it cocked at least as likely as any value
    read as cocked.

    A die stays tilted only against something: a checker, the rim, the bar's side or the other
    die.  A flat die by a stripe of the board (the edge of a dark point beside a black die, a pale
    point's tip under a white one) looks to the reader like a cocked die's second face, and the
    referee then asks for a throw that was fine.  On the referee bench's 20 games each of the 71
    cocked dice called cocked lay within 0.98 of a die's side of a checker's edge (the checkers
    as read, where their places are), the rim or the bar, and 5 of the 6 flat dice called cocked
    1.36 sides or more from all of them (the sixth 1.14 from the rim).  A die called cocked
    within `LEANS_WITHIN` sides of one stays cocked: a cocked die taken for flat is a roll judged
    that the rulebook has thrown again.

    The other way round, a die lying flat cannot have its centre within half a side of a
    checker's edge or the rim: it would lie on them.  Of the games' cocked dice, two (tilted on a
    checker, 0.34 sides inside its edge, and against the rim, 0.47 sides from it) were called
    cocked by the first reading, then read flat by the search round them, which centred each on
    its top face; a third, 0.25 sides from a checker's edge, had first odds of cocked of 1.5,
    under `DiceConfig.cocked_odds`.  A die whose first reading found cocked at least as likely
    as any value (`Die.first_cocked`) within `RESTS_WITHIN` sides of something is cocked: of the
    3,170 flat dice of the games, 2 lay that near (the checkers being where their places are,
    not where they lie), with first odds of cocked of 0.24 and 0.21, and the 17 flat dice called
    cocked at first then read flat lay 0.85 sides or more from everything.  But those games never
    landed a flat die nearer than 0.75 sides to a checker, as a real throw often does.  On 120
    frames with every flat die's centre 0.5 to 0.75 sides from a checker (some dice's corners over
    its rim), a first doubt within 0.6 sides called 11 of 240 flat dice cocked, and within the
    half side of a die touching face on, 2; with the dice resting against the checkers without
    overlapping them, neither called any.  The same cocked dice of the games and the benchmark
    are flagged either way.  (The synthetic throw now lands flat dice against things too:
    `vision.synthetic.RESTING_SHARE`.)  The checkers stand where ``g`` lays them out (for the
    board's own checkers' size).

    Nothing read to lean on is not nothing there, though, where the die lies over a place a
    checker may stand on: the checkers under and beside a die are the ones the checker reader sees
    worst.  A cocked white 2 sat between two black checkers on a dark point whose places read bare
    (game 15 of the referee bench, frame 68), and one on a white checker of a pale point that read
    bare too (tuning seed 5,000,030 frame 4): both were laid flat, and the roll was taken.  The
    reader called each cocked at 0.97, and on the games and 1,024 rendered frames with a roll (the
    benchmark's at both sizes, the tuning boards, the unseen range and 240 with half the dice
    cocked) they were the only dice this rule laid flat.  So a die called cocked with
    `SURELY_COCKED` stays cocked with its centre over a place's disc (within half a checker and
    half a die of the place's centre, so that a checker there would be under it): those two lay
    1.0 and 1.3 sides from a place's centre, where that reach is 1.6.  A flat black 4 on a real
    photo, its side in view through the camera's angle, was called cocked at 0.92 and lies 1.8
    sides from the nearest place (`bench/data/real_boards.json`, 13-pinetti-pearl): it is still
    laid flat."""
    asked = [i for i, die in enumerate(dice) if die.cocked or die.first_cocked is not None]
    if not asked:
        return tuple(dice)
    checkers = [g.slot_centre(point, slot) for point in range(1, 25)
                for slot in range(min(abs(reading.points[point - 1]), SLOTS))]
    centres = on_board_units(corners, [die.centre for die in dice])
    bar0, _, bar1, _ = g.bar_box()
    out = list(dice)
    for i in asked:
        x, y = centres[i]
        gap = min([min(x, y, g.width - x, g.height - y), abs(x - bar0), abs(x - bar1),
                   *(np.hypot(x - cx, y - cy) - g.checker / 2 for cx, cy in checkers),
                   *(np.hypot(x - ox, y - oy) - g.die / 2 for k, (ox, oy) in enumerate(centres) if k != i)])
        if dice[i].cocked and gap > LEANS_WITHIN * g.die:
            places = np.array([g.slot_centre(point, slot) for point in range(1, 25) for slot in range(SLOTS)])
            over_a_place = np.hypot(*(places - (x, y)).T).min() < (g.checker + g.die) / 2
            if not (dice[i].confidence >= SURELY_COCKED and over_a_place):
                out[i] = dice[i].lying_flat()
        elif not dice[i].cocked and gap < RESTS_WITHIN * g.die:
            out[i] = dice[i].tilted()
    return tuple(out)


def _hand_over(frame: Image, corners: np.ndarray, config: HandConfig = HANDS) -> Observation | None:
    """The `occluded` observation of a frame with a hand over its playing area, if it has one."""
    started = time.perf_counter()
    palms = hands_over(frame, corners, config)
    if not palms:
        return None
    best = max(palms, key=lambda palm: palm.presence)
    more = f", and {len(palms) - 1} more" if len(palms) > 1 else ""
    reason = f"a hand over the board near {near(best, corners)} (sure to {best.presence:.2f}{more})"
    return Observation(Reading("occluded", reason=reason, ms=(time.perf_counter() - started) * 1000))


class Observer:
    """Reads a stream of frames from one calibrated mount, and stops reading a board at rest.

    While the board is still, every frame is read until `StabiliserConfig.agreeing_frames`
    readings in a row agree, so a misread that depends on one frame's noise is still
    caught as by the stabiliser.  After that, a frame that differs from the last frame
    read by no more than sensor noise (`motion` under ``still``) shows the same board, and
    its observation is the one already made.  The comparison is with the last frame *read*,
    not the previous frame, so a slow drift (a checker pushed a pixel a frame, the light
    fading) adds up until the board is read afresh.  A camera at 30 fps over a board where
    a move takes seconds then spends its time on the frames where something happens.

    The hand networks (`vision.hands`) cost several frames' reading, so they are asked only
    once a board is at rest: of the fresh reading that is one short of
    `StabiliserConfig.agreeing_frames` agreeing in a row, which comes before the stabiliser
    can trust the scene.  A hand makes that frame `occluded` and starts the count again, so a
    hand resting over the board is asked about every other frame and never trusted.
    ``hands`` set to ``None`` never asks them.
    """

    def __init__(self, calibration: Calibration, config: StabiliserConfig | None = None,
                 hands: HandConfig | None = HANDS) -> None:
        self.calibration = calibration
        self.config = config or StabiliserConfig()
        self.hand_config = hands
        self._read_small: np.ndarray | None = None
        self._read: Observation | None = None
        self._agreeing = 0  # fresh readings in a row, at rest, that gave this same observation
        self._previous: np.ndarray | None = None
        self.reads = 0
        self.reused = 0
        self.hands = 0  # frames a hand over the board made `occluded`

    def observe(self, frame: Image) -> tuple[Observation, float]:
        """The frame's observation, and its motion since the previous frame (for the stabiliser)."""
        small = shrink(frame)
        moved = motion(self._previous, small)
        self._previous = small
        at_rest = self._read is not None and motion(self._read_small, small) <= self.config.still
        if at_rest and self._agreeing >= self.config.agreeing_frames:
            self.reused += 1
            assert self._read is not None
            return self._read, moved
        seen = observe(frame, self.calibration)
        self.reads += 1
        same = at_rest and self._read is not None and _agree(seen.scene(), self._read.scene())
        self._agreeing = self._agreeing + 1 if same else 1
        hands = self.hand_config
        if (hands is not None and seen.status in ("ok", "cocked")
                and self._agreeing == max(1, self.config.agreeing_frames - 1)):
            hand = _hand_over(frame, self.calibration.corners, hands)
            if hand is not None:
                seen, self._agreeing = hand, 0
                self.hands += 1
        self._read, self._read_small = seen, small
        return seen, moved


def _agree(one: Scene | None, other: Scene | None) -> bool:
    """Whether two frames' scenes agree as the stabiliser counts it (`what_counts`); two frames
    with no scene (a hand over the board) agree too."""
    if one is None or other is None:
        return one is other
    return what_counts(one) == what_counts(other)
