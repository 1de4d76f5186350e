"""Dice found and read in any photo (vision/dice.py), on real photos and on synthetic boards.

The real photos in bench/data/real-dice trained the shipped networks, so the figures here
are a guard that nothing broke, not a measurement: the held-out figures come from
``tools/train_dice.py --folds`` and ``bench/dice.py --folds`` (docs/dice.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from engine.cube import CUBE_FACES
from engine.player import Player
from vision import synthetic
from vision.dice import (
    CROP,
    CUBE,
    PHOTO_CROP,
    READERS,
    STRIDE,
    DieColour,
    crop_die,
    decode_centres,
    find_dice,
    on_board,
)
from vision.dice import DATA as DATA_DIR
from vision.synthetic import DieSpec

from .conftest import Setup, script

PHOTOS = Path(__file__).resolve().parents[2] / "bench" / "data" / "real-dice"


def labelled(every: int = 10) -> list[tuple[np.ndarray, list[tuple[float, float, float, int]]]]:
    entries = sorted(json.loads((PHOTOS / "labels.json").read_text()), key=lambda e: e["file"])[::every]
    return [
        (
            cv2.imread(str(PHOTOS / "images" / e["file"])),
            [
                ((d["xmin"] + d["xmax"]) / 2, (d["ymin"] + d["ymax"]) / 2, d["xmax"] - d["xmin"], d["value"])
                for d in e["dice"]
            ],
        )
        for e in entries
    ]


def test_real_photos_are_read_die_by_die() -> None:
    total = right = found_elsewhere = 0
    for image, truth in labelled():
        dice = list(find_dice(image))
        for cx, cy, size, value in truth:
            total += 1
            near = [d for d in dice if np.hypot(d.centre[0] - cx, d.centre[1] - cy) < 0.4 * size]
            if near:
                dice.remove(near[0])
                right += near[0].value == value
        found_elsewhere += len(dice)
    assert total > 100
    assert right / total >= 0.95, f"{right}/{total} dice read right"  # 96.7 % today
    assert found_elsewhere <= total * 0.02, f"{found_elsewhere} dice where there are none"


def test_a_board_with_no_dice_shows_none() -> None:
    """Round checkers, triangles and a hand are not dice."""
    rng = random.Random(71)
    false = 0
    for _ in range(6):
        frame, _ = synthetic.render(
            synthetic.random_scene(rng), rng, style=synthetic.Style.random(rng, hand=True)
        )
        false += len(find_dice(frame))
    assert false == 0


def test_colour_of_the_face() -> None:
    """A white die with dark pips is white, a black one with light pips black, a red one other."""

    def die(face: tuple[int, int, int], pips: tuple[int, int, int]) -> np.ndarray:
        image = np.full((300, 300, 3), (120, 160, 190), np.uint8)
        cv2.rectangle(image, (120, 120), (170, 170), face, -1)
        for x, y in ((132, 132), (158, 158), (145, 145)):
            cv2.circle(image, (x, y), 4, pips, -1)
        return image

    from vision.dice import DiceConfig, face_colour

    config = DiceConfig()
    assert (
        face_colour(crop_die(die((235, 235, 235), (20, 20, 20)), (145, 145), 50), config) is DieColour.WHITE
    )
    assert (
        face_colour(crop_die(die((25, 25, 25), (240, 240, 240)), (145, 145), 50), config) is DieColour.BLACK
    )
    assert (
        face_colour(crop_die(die((30, 30, 200), (240, 240, 240)), (145, 145), 50), config) is DieColour.OTHER
    )


def test_a_black_die_in_bright_light_is_told_by_its_light_pips() -> None:
    """On the board (two colours) a black face lit to a grey of 95, past the dark split, is
    still black: between the split and a white face's brightness the pips decide."""
    from vision.dice import DiceConfig, face_colour

    config = DiceConfig(two_colours=True)
    image = np.full((300, 300, 3), (60, 80, 150), np.uint8)
    cv2.rectangle(image, (120, 120), (170, 170), (95, 95, 95), -1)
    for x, y in ((132, 132), (158, 132), (132, 158), (158, 158)):
        cv2.circle(image, (x, y), 5, (235, 235, 235), -1)
    assert face_colour(crop_die(image, (145, 145), 50), config) is DieColour.BLACK
    image[120:171, 120:171][np.all(image[120:171, 120:171] == 95, axis=2)] = 150  # a white die in shadow
    image[np.all(image == 235, axis=2)] = 40
    assert face_colour(crop_die(image, (145, 145), 50), config) is DieColour.WHITE


def _a_black_2_on_free_wood(seed: int) -> tuple[np.ndarray, synthetic.Truth, synthetic.DieTruth]:
    """A 2028×1520 board with a black 2 thrown on it, lying on free wood for seeds 41, 42 and 44."""
    rng = random.Random(seed)
    style = synthetic.Style.random(rng, hand=False)
    frame, truth = synthetic.render(synthetic.random_scene(rng, 2), rng, dice=(DieSpec(2, Player.BLACK),),
                                    style=style, size=(2028, 1520))
    (die,) = truth.dice
    assert die.resting == "", seed
    return frame, truth, die


def test_a_die_is_read_where_it_lies_not_where_the_detector_guessed() -> None:
    """A place a third of a side off a 2 (the detector's worst are half a side off) cuts into
    its corner pip, and the 2 is read with doubt; the reader's own sense of "a die here" brings
    the place back onto the die, and the 2 is read as a 2.  A place on bare board is no die and
    is not looked round.  (Seeds where the 2 lies on free wood: one resting against the bar, seed
    40, is read a 2 at 0.85.)"""
    from vision.dice import DiceConfig, _doubtful, centre_on_dice, read_places

    config = DiceConfig(two_colours=True, crop=CROP)  # the board's reader
    for seed in (41, 42, 44):
        frame, truth, die = _a_black_2_on_free_wood(seed)
        (x, y), side = die.centre, die.side
        off = [(x + 0.3 * side, y - 0.2 * side, side)]
        assert _doubtful(read_places(frame, off, config)[1][0], config)
        (moved,) = centre_on_dice(frame, off, config)
        # Within a step of the search (a quarter of a side) of the die's centre.
        assert np.hypot(moved[0] - x, moved[1] - y) < 0.25 * side, (seed, moved, die.centre)
        _, p = read_places(frame, [moved], config)
        assert int(np.argmax(p[0])) == 2 and p[0][2] > 0.9, (seed, np.round(p[0], 2))
        assert centre_on_dice(frame, off, DiceConfig(recentre=())) == off
        bare = [(truth.corners[0][0] * 0.5 + truth.corners[2][0] * 0.5, 20.0, side)]
        assert not _doubtful(read_places(frame, bare, config)[1][0], config)


def test_a_die_far_off_the_detectors_place_is_followed_onward() -> None:
    """A place half a side off a 2 (game 16 of the referee bench had one 0.6 sides off, read as
    a 1): one step of the search a quarter of a side towards the die still leaves a third of a
    side, and the die is read with doubt.  The search then goes on the way it went (the three
    places onward only), ends within a seventh of a side, and the 2 is read as a 2."""
    from dataclasses import replace

    from vision.dice import NOT_A_DIE, DiceConfig, _read_board_places, centre_on_dice

    config = DiceConfig(two_colours=True, crop=CROP)
    for seed in (41, 42, 44):
        frame, _, die = _a_black_2_on_free_wood(seed)
        (x, y), side = die.centre, die.side
        for ox, oy in ((0.55, 0.0), (0.0, 0.55)):
            off = (x + ox * side, y + oy * side, side)
            (first,) = centre_on_dice(frame, [off], config)
            assert np.hypot(first[0] - x, first[1] - y) > 0.25 * side
            heading = ((first[0] - off[0]) / side, (first[1] - off[1]) / side)
            (onward,) = centre_on_dice(frame, [first], config, heading=[heading])
            step = (onward[0] - first[0], onward[1] - first[1])
            assert step[0] * heading[0] + step[1] * heading[1] > 0, (seed, heading, step)
            assert np.hypot(onward[0] - x, onward[1] - y) < 0.15 * side, (seed, onward, die.centre)

            def sides(points: list[tuple[float, float]], side: float = side) -> np.ndarray:
                return np.full(len(points), side)

            for steps, near in ((1, False), (2, True)):
                places = [off]
                _, p, _ = _read_board_places(frame, places, sides, replace(config, search_steps=steps),
                                             DATA_DIR)
                assert bool(np.hypot(places[0][0] - x, places[0][1] - y) < 0.15 * side) is near, (seed, steps)
            assert p[0][NOT_A_DIE] < 0.1 and int(np.argmax(p[0])) == 2 and p[0][2] > 0.9, (seed, p[0])


def test_a_die_the_search_found_cocked_is_not_followed_onward() -> None:
    """Two white dice cocked on synthetic boards, the search started a third of a side off: its
    first step finds each cocked.  Followed onward as a flat die read with doubt is, both were
    read flat, and a cocked roll would have been played (the referee bench's game 1 lost a black
    die's colour so)."""
    from dataclasses import replace

    from vision.dice import DiceConfig, _face, _read_board_places

    board = DiceConfig()
    config = DiceConfig(two_colours=True, crop=CROP, cocked_odds=board.board_cocked_odds,
                        sure=board.board_sure)
    for seed, (ox, oy) in ((216, (-0.3, 0.0)), (228, (-0.25, -0.25))):
        rng = random.Random(seed)
        style = synthetic.Style.random(rng, hand=False)
        frame, truth = synthetic.render(synthetic.random_scene(rng, 5), rng, style=style, size=(1280, 960),
                                        dice=(DieSpec(rng.randint(1, 6), Player.WHITE, True),))
        (die,) = truth.dice
        (x, y), side = die.centre, die.side

        def sides(points: list[tuple[float, float]], side: float = side) -> np.ndarray:
            return np.full(len(points), side)

        for steps in (1, config.search_steps):
            _, p, _ = _read_board_places(frame, [(x + ox * side, y + oy * side, side)], sides,
                                         replace(config, search_steps=steps), DATA_DIR)
            assert _face(p[0], config)[1], (seed, steps, np.round(p[0], 2))


def test_a_doubtful_die_sized_far_under_the_photos_other_dice_is_read_at_their_size() -> None:
    """The detector sized this white 2 (a real photo's, labelled 43 px) at 22 px, and the crop
    cut there shows one pip: read as a 1.  The photo's other dice are about 40 px, and read at
    that size it is a 2.  A die read as surely at its own size as at theirs keeps its reading."""
    from vision.dice import DiceConfig, Die

    image = cv2.imread(str(PHOTOS / "images" / "IMG_20191209_100051.jpg"))

    def split(dice: tuple[Die, ...]) -> tuple[Die, list[Die]]:
        near = [np.hypot(d.centre[0] - 383, d.centre[1] - 245) < 20 for d in dice]
        assert sum(near) == 1
        return dice[near.index(True)], [d for d, here in zip(dice, near, strict=True) if not here]

    unsized, unsized_others = split(find_dice(image, DiceConfig(photo_size=None)))
    assert unsized.value == 1 and unsized.box[2] - unsized.box[0] < 30
    sized, others = split(find_dice(image))
    assert sized.value == 2
    assert others == unsized_others and len(others) >= 3


def test_a_die_read_surer_at_its_own_size_keeps_that_reading() -> None:
    """Photos mix die sizes.  This marbled 3 (a real photo's) is sized at 26 px among dice of
    about 36, and read with doubt; at their size it reads as a 1, less surely, so it stays a 3."""
    from vision.dice import DiceConfig, _value_confidence, read_places

    image = cv2.imread(str(PHOTOS / "images" / "IMG_20191209_095533.jpg"))
    (die,) = [d for d in find_dice(image) if np.hypot(d.centre[0] - 368, d.centre[1] - 313) < 15]
    assert die.value == 3
    side = die.box[2] - die.box[0]
    _, own = read_places(image, [(*die.centre, side)], DiceConfig())
    _, larger = read_places(image, [(*die.centre, 36.0)], DiceConfig())
    assert side < 0.85 * 36.0 and own[0, 1:7].argmax() + 1 == 3
    assert larger[0, 1:7].argmax() + 1 == 1 and _value_confidence(larger[0]) < _value_confidence(own[0])


#: Crops of frames of the referee bench's games (bench/referee.py, rendered by
#: vision/synthetic_game.py), each with the die's place (centre x, y and side, in pixels) as
#: `on_board` found it, and its value.
FIXTURES = Path(__file__).parent / "data" / "dice"
FLAT_BY_A_STRIPE = (("flat-1-by-a-dark-point.png", (51.9, 51.87, 34.56), 1),  # game 16, frame 477
                    ("flat-3-on-a-pale-point.png", (53.01, 53.21, 35.2), 3))  # game 1, frame 98
COCKED_ON_A_CHECKER = ("cocked-on-a-checker.png", (52.92, 53.29, 35.28))  # game 16, frame 476
FAINT_OFF_ITS_PLACE = ("faint-2-on-a-pale-point.png", (63.51, 63.93, 33.21), 2)  # game 15, frame 105


def test_a_flat_die_by_a_stripe_of_the_board_is_not_called_cocked() -> None:
    """The edge of a dark point beside a black die, or a pale point under a white one, looks
    like a cocked die's second face in the reader's crop (v4's reader called both cocked).  Read
    again from a narrower crop, such a die is flat with its value; a die leaning on a checker
    stays cocked."""
    from vision.dice import COCKED, DiceConfig, _face, confirm_cocked, read_places

    config = DiceConfig(two_colours=True, crop=CROP)  # the board's reader
    for name, place, value in FLAT_BY_A_STRIPE:
        crop = cv2.imread(str(FIXTURES / name))
        _, p = read_places(crop, [place], config)
        # The first reading called cocked, whatever this reader makes of the wider crop.
        called = p.copy()
        called[0, COCKED] = 100 * called[0].sum()
        called[0] /= called[0].sum()
        assert _face(called[0], config)[1], name
        for first in (called, p):
            confirm_cocked(crop, {0: place}, first, config)
            assert _face(first[0], config) == (value, False), name
    name, place = COCKED_ON_A_CHECKER
    crop = cv2.imread(str(FIXTURES / name))
    _, p = read_places(crop, [place], config)
    assert _face(p[0], config)[1]
    confirm_cocked(crop, {0: place}, p, config)
    assert _face(p[0], config)[1]


def test_a_die_read_faintly_half_a_side_off_is_looked_for_and_found() -> None:
    """A white 2 on a pale point, its detected place half a side off: read there it is under
    `min_read` a die (it was dropped, and the referee saw the throw only with a checker lifted).
    It is faint enough to be looked for (`search_min`), and where the search puts it, it reads
    as a flat 2 surely enough to count (`search_read`)."""
    from vision.dice import NOT_A_DIE, DiceConfig, _face, centre_on_dice, read_places

    config = DiceConfig(two_colours=True, crop=CROP)  # the board's reader
    name, place, value = FAINT_OFF_ITS_PLACE
    crop = cv2.imread(str(FIXTURES / name))
    _, p = read_places(crop, [place], config)
    assert config.search_min <= 1.0 - p[0, NOT_A_DIE] < config.min_read
    (moved,) = centre_on_dice(crop, [place], config)
    _, p = read_places(crop, [moved], config)
    assert 1.0 - p[0, NOT_A_DIE] >= config.search_read and _face(p[0], config) == (value, False)


@pytest.mark.parametrize("side", sorted(READERS))
def test_crop_is_square_round_the_centre(side: int) -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    cv2.rectangle(image, (100, 50), (139, 89), (255, 255, 255), -1)  # a 40 px square at (119.5, 69.5)
    crop = crop_die(image, (119.5, 69.5), 40, side)
    assert crop.shape == (side, side, 3)
    bright = np.argwhere(crop[..., 0] > 128)
    assert abs(bright.mean(axis=0) - (side - 1) / 2).max() < 1.0
    assert 0.45 < len(bright) / side**2 < 0.58  # 1 / CROP_SPAN² of the crop


def test_a_crop_no_reader_reads_is_refused_by_its_side() -> None:
    from vision.dice import mean_log_probabilities

    with pytest.raises(ValueError, match="no dice reader reads 40-px crops"):
        mean_log_probabilities(np.zeros((1, 40, 40, 3), np.uint8))


def test_decoding_keeps_touching_centres_apart() -> None:
    out = np.full((4, 20, 20), -9.0, np.float32)
    out[1:3] = 0.0
    out[3] = np.log(10.0)
    out[0, 5, 5] = out[0, 5, 7] = 3.0  # two peaks two cells apart
    out[0, 5, 6] = 1.0
    found = decode_centres(out, 0.3)
    centres = sorted((x, y) for _, x, y, _ in found)
    assert centres == [(5.5 * STRIDE, 5.5 * STRIDE), (7.5 * STRIDE, 5.5 * STRIDE)]
    assert all(size == pytest.approx(10.0 * STRIDE) for *_, size in found)


def test_dice_on_a_calibrated_board(setup_factory: Callable[..., Setup]) -> None:
    """Flat dice are read with their value and colour; cocked ones are flagged.

    A guard at today's level: every flat die, and at least half the cocked ones (the target is
    all of them; bench/dice.py measures it on 30 frames per resolution)."""
    setup = setup_factory(31)
    right = total = flagged = cocked = 0
    for k in range(6):
        dice = (DieSpec(1 + k, Player.WHITE if k % 2 else Player.BLACK, cocked=k in (1, 4)),
                DieSpec(6 - k, Player.WHITE if k % 2 else Player.BLACK))
        frame, truth = synthetic.render(synthetic.random_scene(setup.rng), setup.rng, style=setup.style,
                                        mount=setup.mount, dice=dice)
        found, _ = on_board(frame, setup.calibration.corners)
        assert len(found) == 2
        for die in truth.dice:
            x, y = die.centre
            seen = min(found, key=lambda d: np.hypot(d.centre[0] - x, d.centre[1] - y))
            if die.cocked:
                cocked += 1
                flagged += seen.cocked
            else:
                total += 1
                colour = DieColour.WHITE if die.colour is Player.WHITE else DieColour.BLACK
                right += (seen.value, seen.colour, seen.cocked) == (die.value, colour, False)
    assert right == total
    assert flagged >= cocked / 2


def test_places_are_sorted_at_a_dice_size_and_only_dice_and_the_cube_read_again(
        setup_factory: Callable[..., Setup]) -> None:
    """The first reading of a place is at a die's true size, so a die whose detector size is
    half its side (read at that size, some have 0.05 of being a die at all) is still taken for
    one and read again in all its views, with its value; a place on the board where nothing lies
    is not read again; the cube is read in its turns."""
    from vision.dice import NOT_A_DIE, DiceConfig, _sort_places, local_die_sides

    setup = setup_factory(31)
    config = DiceConfig(two_colours=True, crop=CROP)  # the board's reader
    corners = setup.calibration.corners
    middle = np.mean(corners, axis=0)

    def sides(points: list[tuple[float, float]]) -> np.ndarray:
        return local_die_sides(corners, points)

    for k in range(4):
        rng = random.Random(k)
        dice = (DieSpec(rng.randint(1, 6), Player.WHITE), DieSpec(rng.randint(1, 6), Player.BLACK))
        frame, truth = synthetic.render(synthetic.random_scene(setup.rng), setup.rng, style=setup.style,
                                        mount=setup.mount, dice=dice, cube=synthetic.CubeSpec(8, "white"))
        assert truth.cube is not None
        halved = [(*d.centre, 0.5 * d.side) for d in truth.dice]
        cube = [(*truth.cube.centre, truth.cube.side)]
        step = 0.8 * truth.dice[0].side
        # Two places on the bare strip between the rows, either side of the middle.
        bare = [(float(middle[0]), float(middle[1]) + j * step, step) for j in (-3, 3)]
        _, p, kept, read_at = _sort_places(frame, halved + cube + bare, sides, config, DATA_DIR)
        assert kept == [0, 1], k
        assert [round(s) for _, _, s in read_at] == [round(s) for s in sides([(x, y) for x, y, _ in halved])]
        assert [int(np.argmax(p[i, 1:7])) + 1 for i in kept] == [d.value for d in truth.dice]
        assert int(np.argmax(p[2])) == CUBE + CUBE_FACES.index(8)
        assert all(1.0 - p[i, NOT_A_DIE] < config.reread_min for i in (3, 4))


@pytest.mark.parametrize("shrink", [1.0, 0.75])
@pytest.mark.parametrize("mirrored", [False, True])
def test_the_detector_sees_the_board_upright_and_its_places_map_back_to_the_frame(mirrored: bool,
                                                                                  shrink: float) -> None:
    """On a board the detector sees the checker reader's upright view of the playing area, in
    whole cells, turned back where the board's numbering runs mirrored, and shrunk for the
    board's detector; a place it finds there is where a spot drawn in the frame is, to a tenth
    of a pixel, and a die-sized place there is a die's side in the frame."""
    from vision.dice import board_detector_input, local_die_sides
    from vision.geometry import BoardGeometry
    from vision.view import SCALE, canonical

    turn = np.deg2rad(35)
    half = np.array([[-300, -240], [300, -200], [280, 220], [-320, 240]], np.float64)
    corners = half @ np.array([[np.cos(turn), np.sin(turn)], [-np.sin(turn), np.cos(turn)]]) + (640, 480)
    if mirrored:
        corners = corners[[1, 0, 3, 2]]  # TL, TR, BR, BL of a board numbered the other way round
    frame = np.zeros((960, 1280, 3), np.uint8)
    die = BoardGeometry().die * SCALE * shrink  # a die's side in what the detector sees
    for sx, sy in [(640.0, 480.0), (700.25, 420.5), *(0.8 * c + 0.2 * np.array([640, 480]) for c in corners)]:
        # A spot of light, its centre at (sx, sy) with pixel edges at whole numbers (drawn 16x finer).
        frame[:] = 0
        cv2.circle(frame, (round((sx - 0.5) * 16), round((sy - 0.5) * 16)), 6 * 16, (255, 255, 255), -1,
                   cv2.LINE_AA, shift=4)
        seen = board_detector_input(frame, corners, 0.9, canonical(frame, corners), shrink)
        assert seen is not None and seen.image.shape[0] % STRIDE == seen.image.shape[1] % STRIDE == 0
        grey = seen.image[:, :, 0].astype(np.float64)
        ys, xs = np.mgrid[0:grey.shape[0], 0:grey.shape[1]]
        cx, cy = (grey * (xs + 0.5)).sum() / grey.sum(), (grey * (ys + 0.5)).sum() / grey.sum()
        (x, y, side), = seen.places([(1.0, cx, cy, die)])
        assert (x, y) == pytest.approx((sx, sy), abs=0.1)
        assert side == pytest.approx(float(local_die_sides(corners, [(x, y)])[0]), rel=0.02)


def test_the_cube_is_placed_by_where_it_lies_on_the_board() -> None:
    """Middle third: centred (64 counts 1); otherwise the nearer edge's player owns it."""
    from vision.dice import Cube, CubeOnBoard, cube_on_board
    from vision.geometry import BoardGeometry

    g = BoardGeometry()
    # A frame where the playing area is turned a quarter: TL of the numbering frame at the top right.
    corners = np.array([[900.0, 100.0], [900.0, 900.0], [200.0, 900.0], [200.0, 100.0]])
    warp = cv2.getPerspectiveTransform(g.corners().astype(np.float32), corners.astype(np.float32))

    def cube_at(y: float, face: int) -> Cube:
        x, yy = np.asarray(cv2.perspectiveTransform(np.array([[[g.width / 2, y]]]), warp)).reshape(2)
        return Cube(face, (x - 10, yy - 10, x + 10, yy + 10), 1.0)

    assert cube_on_board(cube_at(g.height / 2, 64), corners) == CubeOnBoard(1, "center")
    assert cube_on_board(cube_at(40, 4), corners) == CubeOnBoard(4, "white")  # by points 13-24
    assert cube_on_board(cube_at(g.height - 40, 64), corners) == CubeOnBoard(64, "black")


def test_a_cube_the_detector_sizes_twice_too_wide_is_read_at_a_cubes_size(
        setup_factory: Callable[..., Setup]) -> None:
    """The detector sizes a cube from 0.8 to 2 die sides: cut twice as wide as it is, a 32's
    numerals are small in the crop and may read as a 16.  Read at a cube's usual size too, and
    the surer reading kept, every face reads right."""
    from dataclasses import replace

    from vision.dice import DiceConfig, _sort_places, local_die_sides, read_places

    setup = setup_factory(31)
    config = DiceConfig(two_colours=True, crop=CROP)
    corners = setup.calibration.corners
    wrong_as_sized = 0
    for k, face in enumerate([32, 16, 32, 2, 32, 4, 32, 8]):
        cube = synthetic.CubeSpec(face, ("white", "black")[k % 2])
        frame, truth = synthetic.render(synthetic.random_scene(setup.rng), setup.rng, style=setup.style,
                                        mount=setup.mount, cube=cube)
        assert truth.cube is not None
        wide = [(*truth.cube.centre, 2 * truth.cube.side)]
        _, p, _, _ = _sort_places(frame, wide, lambda at: local_die_sides(corners, at), config, DATA_DIR)
        assert int(np.argmax(p[0, CUBE:])) == CUBE_FACES.index(face), (k, face)
        as_sized = read_places(frame, wide, replace(config, mirrored=False), DATA_DIR)[1][0, CUBE:]
        wrong_as_sized += int(np.argmax(as_sized)) != CUBE_FACES.index(face)
    assert wrong_as_sized > 0  # read only as the detector sized it, some face is misread


def test_the_cube_on_a_calibrated_board(setup_factory: Callable[..., Setup]) -> None:
    setup = setup_factory(33)
    from vision.dice import CubeOnBoard

    for face, place in ((64, "center"), (2, "white"), (16, "black"), (8, "white")):
        frame, _ = synthetic.render(synthetic.random_scene(setup.rng), setup.rng, style=setup.style,
                                    mount=setup.mount, cube=synthetic.CubeSpec(face, place))
        _, cube = on_board(frame, setup.calibration.corners)
        assert cube == CubeOnBoard(1 if place == "center" else face, place)


def test_dice_that_cannot_lie_on_the_board_at_once_are_dropped_surest_first() -> None:
    from vision.dice import Cube, Die, DieColour, physical
    from vision.geometry import BoardGeometry

    g = BoardGeometry()
    corners = g.corners()  # the canonical board itself: frame pixels are canonical units
    side = g.die

    def die(x: float, y: float, colour: DieColour, confidence: float, value: int = 3) -> Die:
        return Die(value, colour, False, (x - side / 2, y - side / 2, x + side / 2, y + side / 2), confidence)

    twice = [die(200, 200, DieColour.WHITE, 0.9), die(200 + 0.5 * side, 200, DieColour.WHITE, 0.4, 1)]
    assert [d.confidence for d in physical(twice, None, corners)] == [0.9]  # one die, two peaks
    touching = [die(200, 200, DieColour.WHITE, 0.9), die(200 + side, 200, DieColour.WHITE, 0.8)]
    assert len(physical(touching, None, corners)) == 2  # two dice side by side are two dice
    three = [die(100 + 100 * i, 300, DieColour.BLACK, 0.5 + i / 10) for i in range(3)]
    assert [d.confidence for d in physical(three, None, corners)] == [0.6, 0.7]  # the set has two
    cube = Cube(2, (180, 180, 220, 220), 0.9)
    assert physical([die(200, 200, DieColour.WHITE, 0.9)], cube, corners) == ()


def real_die_crops(side: int = CROP) -> np.ndarray:
    """Reader crops of the labelled dice of a few real photos."""
    photos = labelled(every=50)
    return np.stack([crop_die(image, (cx, cy), size, side) for image, truth in photos
                     for cx, cy, size, _ in truth])


@pytest.mark.parametrize("side", sorted(READERS))
def test_a_die_reads_the_same_turned_or_mirrored(side: int) -> None:
    """The reader averages a crop's eight quarter turns and mirror images, so a die's reading
    cannot depend on how it lies; the cube's faces (numerals have a handedness) only on its turns."""
    from vision.dice import CUBE, mean_log_probabilities, read_crops

    crops = real_die_crops(side)
    assert len(crops) > 20
    turned = np.ascontiguousarray(np.rot90(crops, 1, axes=(1, 2)))
    mirrored = np.ascontiguousarray(crops[:, :, ::-1])
    np.testing.assert_allclose(read_crops(turned), read_crops(crops), atol=1e-5)
    logp = mean_log_probabilities(crops)
    np.testing.assert_allclose(mean_log_probabilities(mirrored)[:, :CUBE], logp[:, :CUBE], atol=1e-4)
    # Without the mirror images a mirrored die does read differently: the test above can fail.
    four = mean_log_probabilities(crops, mirrored=False)
    assert np.abs(mean_log_probabilities(mirrored, mirrored=False)[:, :CUBE] - four[:, :CUBE]).max() > 1e-2


def test_the_eight_views_of_a_crop() -> None:
    from vision.dice import dihedral

    batch = np.arange(2 * 1 * 3 * 3).reshape(2, 1, 3, 3)  # two one-channel 3 x 3 images, as (N, C, H, W)
    views = dihedral(batch)
    assert views.shape == (16, 1, 3, 3)
    np.testing.assert_array_equal(views[2], np.rot90(batch[0], axes=(1, 2)))  # view 1 (a quarter turn) of 0
    np.testing.assert_array_equal(views[9], batch[1, :, :, ::-1])  # view 4 (the mirror image) of image 1
    assert len({v.tobytes() for v in views[::2]}) == 8  # all eight differ for an asymmetric image
    assert dihedral(batch, mirrored=False).shape == (8, 1, 3, 3)


def test_the_views_are_turned_after_normalising_to_the_same_values() -> None:
    from vision.dice import dihedral, normalise

    crops = np.random.default_rng(3).integers(0, 256, (5, 32, 32, 3), dtype=np.uint8)
    turned_first = [np.rot90(crops, k, axes=(1, 2)) for k in range(4)]
    before = normalise(np.concatenate(turned_first + [t[:, :, ::-1] for t in turned_first]))
    np.testing.assert_array_equal(dihedral(normalise(crops)), before)


def test_both_runtimes_run_the_networks_alike() -> None:
    """ONNX Runtime (the default where it is installed) and OpenCV's dnn (its stand-in) give the
    reader's and the detector's outputs alike; an unknown runtime is named in the error."""
    pytest.importorskip("onnxruntime")
    from vision.dice import BOARD_DETECTOR_FILE, DATA, DETECTOR_FILE, READER_FILE, _net

    rng = np.random.default_rng(7)
    shapes = [(name, (6, 3, side, side)) for side, name in READERS.items()]
    detectors = [(name, (1, 3, 8 * STRIDE, 12 * STRIDE)) for name in (DETECTOR_FILE, BOARD_DETECTOR_FILE)]
    for name, shape in (*shapes, *detectors):
        batch = rng.uniform(-0.5, 0.5, shape).astype(np.float32)
        fast, stand_in = _net(DATA / name, "onnxruntime")(batch), _net(DATA / name, "opencv")(batch)
        assert fast.shape == stand_in.shape and fast.size >= 6 * 14
        np.testing.assert_allclose(fast, stand_in, atol=1e-4)
    with pytest.raises(ValueError, match="'tensorflow'"):
        _net(DATA / READER_FILE, "tensorflow")


def test_onnx_runtime_reads_the_boards_crops_with_the_8_bit_reader(tmp_path: Path) -> None:
    """The board's reader runs as its 8-bit copy on ONNX Runtime only: OpenCV's dnn, a config
    that turns it off, the photos' reader and a folder without the copy get the float network."""
    pytest.importorskip("onnxruntime")
    from vision.dice import QUANTISED, READER_FILE, reader_path

    int8 = DATA_DIR / QUANTISED[READER_FILE]
    assert int8.is_file()
    assert reader_path(DATA_DIR, CROP) == reader_path(DATA_DIR, CROP, "onnxruntime") == int8
    assert reader_path(DATA_DIR, CROP, "opencv") == DATA_DIR / READER_FILE
    assert reader_path(DATA_DIR, CROP, int8=False) == DATA_DIR / READER_FILE
    assert reader_path(DATA_DIR, PHOTO_CROP) == DATA_DIR / READERS[PHOTO_CROP]
    assert reader_path(tmp_path, CROP) == tmp_path / READER_FILE


def test_the_8_bit_reader_reads_a_boards_dice_and_cube_as_the_float_one(
        setup_factory: Callable[..., Setup]) -> None:
    """Thrown rolls (some cocked) and the cube on one synthetic board, read through `on_board`
    with each reader: the same dice, values, colours, cocked calls and cube."""
    pytest.importorskip("onnxruntime")
    from dataclasses import replace

    from vision.dice import DiceConfig

    setup = setup_factory(37)
    config = DiceConfig()
    for k in range(8):
        thrown = random.Random(f"int8 {k}")
        dice, cube = synthetic.random_roll(thrown, cocked_share=0.25)
        frame, _ = synthetic.render(synthetic.random_scene(setup.rng), thrown, style=setup.style,
                                    mount=setup.mount, dice=dice, cube=cube)
        corners = setup.calibration.corners
        (fast, fast_cube), (slow, slow_cube) = [on_board(frame, corners, replace(config, int8=i))
                                                for i in (True, False)]
        assert [(d.value, d.colour, d.cocked) for d in fast] == [(d.value, d.colour, d.cocked)
                                                                 for d in slow], k
        assert fast_cube == slow_cube, k


def test_a_die_read_at_two_spans_keeps_the_cube_from_the_first() -> None:
    """`DiceConfig.spans` averages a die's classes over crops of several sizes; the cube's come from
    the first crop only."""
    from vision.dice import CUBE, DiceConfig, mean_log_probabilities, read_places, softmax

    image, truth = labelled(every=50)[0]
    places = [(cx, cy, size) for cx, cy, size, _ in truth]
    crops, one = read_places(image, places, DiceConfig())
    assert crops.shape == (len(places), PHOTO_CROP, PHOTO_CROP, 3)
    np.testing.assert_allclose(one, softmax(mean_log_probabilities(crops)), atol=1e-9)
    _, two = read_places(image, places, DiceConfig(spans=(1.0, 1.3)))
    wide = mean_log_probabilities(np.stack([crop_die(image, (x, y), 1.3 * s, PHOTO_CROP)
                                            for x, y, s in places]))
    narrow = mean_log_probabilities(crops)
    want = softmax(np.concatenate([(narrow[:, :CUBE] + wide[:, :CUBE]) / 2, narrow[:, CUBE:]], axis=1))
    np.testing.assert_allclose(two, want, atol=1e-9)
    assert np.abs(two - one).max() > 1e-3  # the second span does change the reading


def bench_dice() -> Any:
    return script("bench/dice.py")


def test_label_corrections_change_only_the_dice_they_name(tmp_path: Path) -> None:
    bench = bench_dice()
    published = bench.labelled_dice(PHOTOS)
    corrected = bench.labelled_dice(PHOTOS, corrected=True)
    fixes = json.loads((PHOTOS / "corrections.json").read_text())
    changed = [
        (name, a[3], b[3])
        for (name, dice), (_, fixed) in zip(published, corrected, strict=True)
        for a, b in zip(dice, fixed, strict=True)
        if a != b
    ]
    assert sorted(changed) == sorted((f["file"], f["labelled"], f["value"]) for f in fixes)
    assert all(f["reason"] for f in fixes)
    # A correction naming no labelled die is an error, not silently ignored.
    (tmp_path / "labels.json").write_text((PHOTOS / "labels.json").read_text())
    wrong = dict(fixes[0], box=[1.0, 2.0, 3.0, 4.0])
    (tmp_path / "corrections.json").write_text(json.dumps([wrong]))
    with pytest.raises(ValueError, match="no labelled die"):
        bench.labelled_dice(tmp_path, corrected=True)


@pytest.mark.parametrize(("text", "wrong"), [
    ("board_sur=0.9", "no field 'board_sur'"),
    ("board_sure", "want FIELD=VALUE"),
    ("board_sure=high", "not a Python literal"),
    ("search_steps=0.5", "search_steps is a whole number, like 2"),
    ("mirrored=1", "mirrored is True or False"),
    ("  ", "no FIELD=VALUE pair"),
])
def test_bench_dice_try_says_what_is_wrong_with_a_setting(text: str, wrong: str) -> None:
    parse = bench_dice().parse_setting
    assert parse("board_sure=0.95 cube_sure=None spans=(1.0, 1.15)".replace(", ", ",")) == {
        "board_sure": 0.95, "cube_sure": None, "spans": (1.0, 1.15)}
    with pytest.raises(ValueError, match=wrong):
        parse(text)


def test_two_dice_lying_against_each_other_are_both_found() -> None:
    """The detector never saw two dice touching, and on 5 of these 8 boards it put no place on
    one of a pair lying face to face; a die found alone is looked round for the second.  On one
    (seed 67, two white dice end to end like a domino) the board's reader of round v12 reads the
    pair as one cocked die between them (v4's read a cocked 6 and a 5): the roll is thrown again,
    never taken with a wrong value."""
    import math

    from engine.position import Position
    from vision.calibration import calibrate
    from vision.dice import on_board

    from .conftest import a_mount

    side = synthetic.GEOMETRY.die
    pairs = 0
    for seed in range(60, 68):
        rng, style, mount = a_mount(seed)
        start, truth = synthetic.render(Position.start(), rng, style=style, mount=mount)
        calibration = calibrate(start, truth.corners)
        throw = random.Random(seed)
        colour = throw.choice(list(Player))
        angle = throw.uniform(0, math.pi / 2)
        x, y = throw.uniform(150, 500), throw.uniform(300, 700)  # the left half, clear of the bar
        step = 1.02 * side  # face to face
        landing = ((x, y, angle), (x + step * math.cos(angle), y + step * math.sin(angle), angle))
        dice = (DieSpec(throw.randint(1, 6), colour), DieSpec(throw.randint(1, 6), colour))
        frame, _ = synthetic.render(Position.from_text("W 19:5 17:3 | B 6:5 8:3"), rng, style=style,
                                    mount=mount, dice=dice, landing=landing)
        found, _ = on_board(frame, calibration.corners)
        pairs += len(found) == 2
        assert len(found) == 2 or [d.cocked for d in found] == [True], seed
        # The other die's edge beside a flat die can look like a second face (on 4 of the 8).
        assert all(d.cocked or d.value in [spec.value for spec in dice] for d in found), seed
    assert pairs >= 7
