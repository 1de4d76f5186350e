"""The synthetic renderer: seeded, varied, and its answers line up with what it draws."""

from __future__ import annotations

import collections
import dataclasses
import random

import cv2
import numpy as np
import pytest

from engine.player import Player
from engine.position import Position
from vision import synthetic
from vision.geometry import BoardGeometry
from vision.synthetic import Style, render

GEOMETRY = BoardGeometry()
MIXED = Position.from_text("W 1:2 12:3 17:1 19:7 bar:1 off:1 | B 24:2 13:5 8:3 6:4 off:1")


def to_canonical(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The playing area warped back to the canonical view with the frame's true corners."""
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), GEOMETRY.corners().astype(np.float32))
    return cv2.warpPerspective(frame, warp, GEOMETRY.size)


def slot_brightness(canonical: np.ndarray, point: int, slot: int) -> float:
    x, y = GEOMETRY.slot_centre(point, slot)
    r = int(GEOMETRY.checker * 0.2)
    patch = canonical[int(y) - r:int(y) + r, int(x) - r:int(x) + r]
    return float(cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).mean())


def test_rendering_is_seeded_and_non_square() -> None:
    first, truth = render(MIXED, random.Random(5), size=(1280, 960))
    again, truth_again = render(MIXED, random.Random(5), size=(1280, 960))
    assert first.shape == (960, 1280, 3) and np.array_equal(first, again)
    assert np.allclose(truth.corners, truth_again.corners)
    other, _ = render(MIXED, random.Random(6), size=(1280, 960))
    assert not np.array_equal(first, other)


def test_plain_frame_shows_the_start_position_where_the_truth_says() -> None:
    frame, truth = render(Position.start(), random.Random(1), style=Style.plain())
    canonical = to_canonical(frame, truth.corners)
    for point in range(1, 25):
        count = Position.start().at(point)
        for slot in range(abs(count)):
            brightness = slot_brightness(canonical, point, slot)
            assert (brightness > 170) if count > 0 else (brightness < 80), (point, slot, brightness)


@pytest.mark.parametrize("seed", range(12))
def test_truth_corners_follow_rotation_perspective_and_mirroring(seed: int) -> None:
    """Whatever the style, white checkers are brighter than black ones at the true slots.

    (One of each may sit under a glare spot or a shadow: the second brightest black and the second
    darkest white are compared.)"""
    rng = random.Random(seed)
    style = Style.random(rng, hand=False)
    frame, truth = render(Position.start(), rng, style=style)
    assert truth.mirror == style.mirror and not truth.occluded
    canonical = to_canonical(frame, truth.corners)
    whites = [slot_brightness(canonical, p, s) for p in (1, 12, 17, 19) for s in range(2)]
    blacks = [slot_brightness(canonical, p, s) for p in (24, 13, 8, 6) for s in range(2)]
    assert sorted(whites)[1] > sorted(blacks)[-2] + 30


def test_both_mirror_layouts_and_all_rotations_occur() -> None:
    styles = [Style.random(random.Random(seed)) for seed in range(60)]
    assert {s.mirror for s in styles} == {True, False}
    quadrants = {int(s.rotation // 90) for s in styles}
    assert quadrants == {0, 1, 2, 3}
    assert max(s.tilt for s in styles) > 20 and any(s.hand for s in styles)


def test_hands_are_reported_as_occlusion() -> None:
    flags = []
    for seed in range(8):
        rng = random.Random(seed)
        _, truth = render(MIXED, rng, style=Style.random(rng, hand=True))
        flags.append(truth.occluded)
    assert sum(flags) >= 6


def test_stacks_above_five_are_flagged() -> None:
    _, truth = render(MIXED, random.Random(2))
    assert truth.stacked
    _, plain = render(Position.start(), random.Random(2))
    assert not plain.stacked


def test_a_fixed_mount_keeps_the_board_where_it_was() -> None:
    """Calibration relies on a fixed camera: frames from one mount share their corners."""
    from vision.synthetic import camera

    rng = random.Random(9)
    style = Style.random(rng, hand=False)
    mount = camera(style, rng)
    _, first = render(Position.start(), rng, style=style, mount=mount)
    _, later = render(MIXED, rng, style=style, mount=mount)
    assert np.allclose(first.corners, later.corners)


def test_dice_land_on_the_playing_area_with_their_truth() -> None:
    rng = random.Random(17)
    dice = (synthetic.DieSpec(6, Player.WHITE), synthetic.DieSpec(2, Player.BLACK, cocked=True))
    style = synthetic.Style.random(rng, hand=False)
    frame, truth = synthetic.render(synthetic.random_scene(rng), rng, style=style, dice=dice)
    thrown = [(d.value, d.colour, d.cocked) for d in truth.dice]
    assert thrown == [(6, Player.WHITE, False), (2, Player.BLACK, True)]
    area = truth.corners.astype(np.float32).reshape(-1, 1, 2)
    for die in truth.dice:
        assert cv2.pointPolygonTest(area, die.centre, False) > 0
        assert 10 < die.side < 40
    # Most of a face round its centre is the face's colour, not pips.
    white, black = (np.median(frame[int(d.centre[1] - d.side / 4):int(d.centre[1] + d.side / 4),
                                    int(d.centre[0] - d.side / 4):int(d.centre[0] + d.side / 4)])
                    for d in truth.dice)
    assert white > black + 80
    # Without dice the frame is what it was: no dice, no change to the random stream.
    rng_a, rng_b = random.Random(5), random.Random(5)
    bare, _ = synthetic.render(Position.start(), rng_a, style=style)
    again, _ = synthetic.render(Position.start(), rng_b, style=style, dice=())
    assert np.array_equal(bare, again)


class _Window:
    """A raster `SCALE` times finer than the canonical board, three die sides across round a point."""

    SCALE = 4
    SIDE = GEOMETRY.die * SCALE

    def __init__(self, x: float, y: float) -> None:
        self.size = int(3 * self.SIDE)
        self.left, self.top = x * self.SCALE - self.size / 2, y * self.SCALE - self.size / 2

    def at(self, x: float, y: float) -> tuple[int, int]:
        return round(x * self.SCALE - self.left), round(y * self.SCALE - self.top)

    def blank(self, fill: int = 0) -> np.ndarray:
        return np.full((self.size, self.size), fill, np.uint8)

    def square(self, centre: tuple[float, float], angle: float) -> np.ndarray:
        mask = self.blank()
        corners = cv2.boxPoints((self.at(*centre), (self.SIDE, self.SIDE), float(np.degrees(angle))))
        cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 255)
        return mask


def _touching(die: np.ndarray, others: dict[str, np.ndarray], by: int) -> set[str]:
    """Which of ``others`` the ``die``'s mask grown by ``by`` pixels touches."""
    grown = cv2.dilate(die, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * by + 1, 2 * by + 1)))
    return {kind for kind, mask in others.items() if (grown & mask).any()}


def test_flat_dice_rest_against_checkers_the_rim_the_bar_or_each_other_but_never_on_them() -> None:
    """Checked on a raster four times finer than the board, apart from the throw's own geometry:
    a flat die's square shares no pixel with a checker's disc, the bar, the other die or what lies
    beyond the rim.  One said to rest against something touches that when grown by
    `RESTING_GAP` of a side (and a pixel); one on free wood touches nothing so grown."""
    near = int(synthetic.RESTING_GAP * _Window.SIDE)
    kinds: collections.Counter[str] = collections.Counter()
    for seed in range(40):
        rng = random.Random(seed)
        style = dataclasses.replace(synthetic.Style.random(rng, hand=False), grain=seed)
        position = synthetic.random_scene(rng)
        dice = tuple(synthetic.DieSpec(rng.randint(1, 6), Player.WHITE) for _ in range(2))
        _, thrown = synthetic.draw_board(position, style, rng, dice)
        bx0, _, bx1, _ = GEOMETRY.bar_box()
        for i, (_, centre, angle, resting) in enumerate(thrown):
            window = _Window(*centre)
            checkers, radius = window.blank(), round(synthetic._checker_radius(style) * window.SCALE)
            for disc, _, _ in synthetic._lay_checkers(position, style, rng):
                cv2.circle(checkers, window.at(*disc), radius, 255, -1)
            bar, beyond = window.blank(), window.blank(255)
            bar[:, max(0, window.at(bx0, 0)[0]):max(0, window.at(bx1, 0)[0])] = 255
            (x0, y0), (x1, y1) = window.at(0, 0), window.at(*GEOMETRY.size)
            beyond[max(0, y0):max(0, y1), max(0, x0):max(0, x1)] = 0
            _, other, turn, _ = thrown[1 - i]
            others = {"checker": checkers, "bar": bar, "rim": beyond, "die": window.square(other, turn)}
            die = window.square(centre, angle)
            inner = cv2.erode(die, np.ones((3, 3), np.uint8))
            assert not any((inner & mask).any() for mask in others.values()), (seed, i)
            if resting:
                assert resting in _touching(die, others, near + 2), (seed, i, resting)
            else:
                assert not _touching(die, others, near - 2), (seed, i)
            kinds[resting] += 1
    assert 0.15 < 1 - kinds[""] / 80 < 0.45 and {"checker", "rim", "bar"} <= set(kinds), kinds


def test_a_grained_style_keeps_the_scene_still_between_frames() -> None:
    """With Style.grain the wood, lamp and resting places stay put; moving one checker moves only it."""
    rng = random.Random(23)
    style = dataclasses.replace(synthetic.Style.random(rng, hand=False), grain=99, noise=0.0)
    mount = synthetic.camera(style, rng)
    before = Position.from_text("W 1:2 12:5 | B 24:2 13:5")
    after = Position.from_text("W 1:1 2:1 12:5 | B 24:2 13:5")
    a, _ = synthetic.render(before, random.Random(1), style=style, mount=mount)
    b, _ = synthetic.render(before, random.Random(2), style=style, mount=mount)
    c, _ = synthetic.render(after, random.Random(3), style=style, mount=mount)
    assert np.abs(a.astype(int) - b.astype(int)).max() <= 2  # JPEG of the same picture
    changed = np.abs(a.astype(int) - c.astype(int)).max(axis=2) > 40
    assert 0 < changed.mean() < 0.01  # one checker's worth of pixels


def test_the_cube_lies_on_the_bar_with_its_face_and_place() -> None:
    rng = random.Random(29)
    style = synthetic.Style.random(rng, hand=False)
    for place in synthetic.CUBE_PLACES:
        _, truth = synthetic.render(Position.start(), rng, style=style, cube=synthetic.CubeSpec(16, place))
        assert truth.cube is not None and (truth.cube.face, truth.cube.place) == (16, place)
        warp = cv2.getPerspectiveTransform(truth.corners.astype(np.float32),
                                           GEOMETRY.corners().astype(np.float32))
        x, y = np.asarray(cv2.perspectiveTransform(np.array([[truth.cube.centre]]), warp)).reshape(2)
        bx0, _, bx1, _ = GEOMETRY.bar_box()
        assert bx0 < x < bx1
        third = {"white": 0, "center": 1, "black": 2}[place]
        assert third * GEOMETRY.height / 3 < y < (third + 1) * GEOMETRY.height / 3


def test_a_roll_is_two_dice_of_one_colour_and_the_cube() -> None:
    rng = random.Random(5)
    for _ in range(50):
        (first, second), cube = synthetic.random_roll(rng, cocked_share=0.5)
        assert first.colour == second.colour and 1 <= first.value <= 6 and 1 <= second.value <= 6
        assert cube.place in synthetic.CUBE_PLACES and (cube.place != "center" or cube.face == 64)


def test_each_thrown_die_is_paired_with_one_die_read_within_a_side() -> None:
    white = synthetic.DieTruth(3, Player.WHITE, False, (100.0, 100.0), 20.0)
    black = synthetic.DieTruth(5, Player.BLACK, True, (200.0, 100.0), 20.0)
    near_white = synthetic.DieTruth(3, Player.WHITE, False, (110.0, 105.0), 20.0)
    stray = synthetic.DieTruth(1, Player.WHITE, False, (400.0, 300.0), 20.0)
    pairs, left = synthetic.pair_dice((white, black), [stray, near_white])
    assert pairs == [(white, near_white), (black, None)] and left == [stray]
    # A die read once is paired once, with the first thrown die it lies near.
    pairs, left = synthetic.pair_dice((white, white), [near_white])
    assert pairs == [(white, near_white), (white, None)] and left == []
