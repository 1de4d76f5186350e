"""Corners mode: any board, any two checker colours, from the four corners alone."""

from __future__ import annotations

import dataclasses
import random

import numpy as np

from vision import synthetic
from vision.corners import (
    at_most_fifteen,
    colour_bar,
    colour_unsure_points,
    mixed_unsure,
    past_fifth,
    plain_rows,
    read_corners,
    without_hinges,
)
from vision.discs import Rows
from vision.reading import count
from vision.templates import BLACK, EMPTY, WHITE, Templates
from vision.view import BAR_SLOTS, BAR_START, GRID, PLACES, SLOTS, bar_index, place_index


def test_random_boards_read_from_their_corners() -> None:
    """A regression guard (bench/vision.py gives the figure): 12 boards, each its own style."""
    exact = 0
    for seed in range(500, 512):
        rng = random.Random(seed)
        position = synthetic.random_scene(rng)
        frame, truth = synthetic.render(position, rng, style=synthetic.Style.random(rng, hand=False))
        reading = read_corners(frame, truth.corners)
        exact += list(reading.points) == [position.at(p) for p in range(1, 25)] and reading.bar == (
            position.bar[0], position.bar[1])
    assert exact >= 11


def test_the_lighter_colour_is_white_whatever_the_colours() -> None:
    rng = random.Random(520)
    style = synthetic.Style.random(rng, hand=False)
    # Red and green checkers: neither is white or black, the lighter one is read as white.
    style = dataclasses.replace(style, checkers=((90, 200, 120), (40, 40, 170)))
    position = synthetic.random_scene(rng)
    frame, truth = synthetic.render(position, rng, style=style)
    reading = read_corners(frame, truth.corners)
    assert list(reading.points) == [position.at(p) for p in range(1, 25)]


def test_boards_with_narrow_triangles_read_their_bare_points_as_bare() -> None:
    """Real boards' triangles are often narrower than a point (0.7 of it).  The triangle colour was
    once sampled a quarter of a point off the axis, on the board beside a narrow triangle, and
    bare dark triangles were read as dark checkers: 1 of these 12 boards exact, 215 of 288 points."""
    exact = 0
    for seed in range(530, 542):
        rng = random.Random(seed)
        style = dataclasses.replace(synthetic.Style.random(rng, hand=False), triangle_base=0.7)
        position = synthetic.random_scene(rng)
        frame, truth = synthetic.render(position, rng, style=style)
        reading = read_corners(frame, truth.corners)
        exact += list(reading.points) == [position.at(p) for p in range(1, 25)] and reading.bar == (
            position.bar[0], position.bar[1])
    assert exact >= 10


def test_a_narrow_black_bar_is_not_read_as_checkers() -> None:
    """A tournament board's bar is black and narrower than a point, with the board beside it.  Each
    place is divided by the light where it stands, which in the bar is the bar's own colour, so the
    board and any checker in a bar place look far brighter than their colours alone.  Drawn
    without that, the bar was read wrong on 7 of these 12 boards; with the board but not the
    checkers brightened, on 3 (white checkers on the bar read as empty)."""
    bars = 0
    for seed in range(540, 552):
        rng = random.Random(seed)
        style = dataclasses.replace(synthetic.Style.random(rng, hand=False), bar_width=0.6, bar=(25, 25, 25))
        position = synthetic.random_scene(rng)
        frame, truth = synthetic.render(position, rng, style=style)
        bars += read_corners(frame, truth.corners).bar == (position.bar[0], position.bar[1])
    assert bars >= 11


def test_a_checker_at_the_bars_end_with_none_inside_it_is_a_hinge() -> None:
    """With no frame of the empty board, a folding board's metal hinges at the ends of the bar
    look like checkers (7 of the 10 real photos have them).  Checkers on the bar stack from its
    middle, so the end place counts only with the place inside it held too."""
    kinds = np.full(len(PLACES), EMPTY)
    kinds[bar_index(0, BAR_SLOTS - 1)] = BLACK  # a hinge at the top end
    kinds[bar_index(1, BAR_SLOTS - 1)] = WHITE  # and at the bottom end
    kinds[bar_index(1, 0)] = WHITE  # a white checker in the middle of the bar
    kept = without_hinges(kinds)
    assert kept[bar_index(0, BAR_SLOTS - 1)] == EMPTY and kept[bar_index(1, BAR_SLOTS - 1)] == EMPTY
    assert kept[bar_index(1, 0)] == WHITE
    assert kinds[bar_index(0, BAR_SLOTS - 1)] == BLACK  # not changed in place
    full = np.full(len(PLACES), EMPTY)
    full[[bar_index(0, slot) for slot in range(BAR_SLOTS)]] = BLACK  # four on the bar reach its end
    assert (without_hinges(full) == full).all()


def test_a_side_seen_more_than_fifteen_times_loses_its_unsure_bar_checkers_first() -> None:
    """A side has 15 checkers.  On a real photo two burgundy checkers were read, unsure, on a bare
    bar beside 15 on the points: the bar's drawn looks are where phantoms stand most often."""
    kinds = np.full(len(PLACES), EMPTY)
    certainty = np.ones(len(PLACES))
    for point in (6, 8, 13):
        kinds[[place_index(point, slot) for slot in range(SLOTS)]] = BLACK  # 15 black on the points
    kinds[[bar_index(1, 0), bar_index(1, 1), bar_index(1, 2)]] = BLACK  # and three on the bar
    certainty[[bar_index(1, 0), bar_index(1, 1), bar_index(1, 2)]] = 0.7, 0.8, 0.9
    kinds[bar_index(0, 0)] = WHITE  # White's one on the bar is no phantom: 1 of 15
    certainty[bar_index(0, 0)] = 0.5
    kept = at_most_fifteen(kinds, certainty)
    assert (kept[BAR_START:] == EMPTY).sum() == len(PLACES) - BAR_START - 1
    assert kept[bar_index(0, 0)] == WHITE and (kept[:BAR_START] == kinds[:BAR_START]).all()
    # Only one too many: the outermost goes, the two inside it stay.
    kinds[bar_index(1, 2)] = EMPTY
    kinds[place_index(6, 4)] = EMPTY
    kept = at_most_fifteen(kinds, certainty)
    assert kept[bar_index(1, 1)] == EMPTY and kept[bar_index(1, 0)] == BLACK
    # Bar checkers read surely go last, from the ends inwards: a gold board's phantoms on its bar
    # were read sure.
    certainty[[bar_index(1, 0), bar_index(1, 1)]] = 1.0
    kinds[place_index(6, 4)] = BLACK
    kept = at_most_fifteen(kinds, certainty)
    assert kept[bar_index(1, 1)] == EMPTY and kept[bar_index(1, 0)] == EMPTY
    assert (kept[:BAR_START] == kinds[:BAR_START]).all()


def test_a_side_seen_more_than_fifteen_times_loses_lone_checkers_with_no_rim_in_sight() -> None:
    """On a board with textured triangles five lone pearl "checkers" stood on bare cream
    triangles, read sure, beside more than 15 pearl checkers: the circle finder saw no rim there.
    Only as many go as the side has too many, least sure first; a lone checker whose rim the
    finder sees stays, and so does every checker of a side with 15 or fewer."""
    kinds = np.full(len(PLACES), EMPTY)
    certainty = np.ones(len(PLACES))
    for point in (12, 13, 19):
        kinds[[place_index(point, slot) for slot in range(SLOTS)]] = WHITE  # 15 white in rows
    for point in (3, 7, 9):
        kinds[place_index(point, 0)] = WHITE  # and three alone: three too many
    certainty[[place_index(3, 0), place_index(7, 0), place_index(9, 0)]] = 1.0, 0.995, 0.999
    kinds[place_index(1, 0)] = BLACK  # Black's lone checker: its side has one
    rims = np.zeros(24, np.int64)
    rims[9 - 1] = 1  # the finder sees a disc on point 9 only
    asked: list[list[int]] = []

    def discs(points: list[int]) -> Rows:
        asked.append(points)
        return Rows(rims.copy(), np.zeros(24, np.bool_))

    kept = at_most_fifteen(kinds, certainty, discs)
    assert kept[place_index(7, 0)] == EMPTY and kept[place_index(3, 0)] == EMPTY
    assert kept[place_index(9, 0)] == WHITE and kept[place_index(1, 0)] == BLACK
    assert asked == [[3, 7, 9]]  # only the over-counted side's lone checkers are looked at
    # One too many: the less sure of the two unseen goes.
    kinds[[place_index(19, 3), place_index(19, 4)]] = EMPTY
    kept = at_most_fifteen(kinds, certainty, discs)
    assert kept[place_index(7, 0)] == EMPTY and kept[place_index(3, 0)] == WHITE
    # Not told of the finder, the points stay as read.
    assert (at_most_fifteen(kinds, certainty)[:BAR_START] == kinds[:BAR_START]).all()
    # A sure checker on the bar goes only after the lone ones with no rim in sight.
    kinds[bar_index(0, 0)] = WHITE
    kept = at_most_fifteen(kinds, certainty, discs)
    assert kept[bar_index(0, 0)] == WHITE
    assert kept[place_index(7, 0)] == EMPTY and kept[place_index(3, 0)] == EMPTY


def test_a_point_read_empty_takes_a_plain_row_of_discs_in_the_nearer_colour() -> None:
    """The corners model read black checkers with a metal rim on black triangles as empty, sure
    to 0.99, while the circle finder found them.  A point read empty takes the row of discs whose
    first plainly shows its rim, in the colour its faces are nearer; it is then given as unsure."""
    features = GRID * GRID * 3
    looks = Templates(np.stack([np.zeros((len(PLACES), features)), np.ones((len(PLACES), features)),
                                -np.ones((len(PLACES), features))]).astype(np.float32))
    described = np.zeros((len(PLACES), features), np.float32)
    described[[place_index(4, 0), place_index(4, 1)]] = -0.8  # nearer the black look
    described[place_index(9, 0)] = 0.7  # nearer the white look
    kinds = np.full(len(PLACES), EMPTY)
    kinds[place_index(15, 0)] = WHITE
    certainty = np.ones(len(PLACES))
    rows = np.zeros(24, np.int64)
    rows[[4 - 1, 9 - 1, 15 - 1]] = 2, 1, 3
    asked: list[list[int]] = []

    def discs(points: list[int]) -> Rows:
        asked.append(points)
        return Rows(rows, np.zeros(24, np.bool_))

    kinds_now, certainty_now = plain_rows(kinds, certainty, discs, looks, described)
    assert asked == [[p for p in range(1, 25) if p != 15]]  # only the points read empty
    assert list(kinds_now[[place_index(4, slot) for slot in range(SLOTS)]]) == [BLACK, BLACK] + [EMPTY] * 3
    assert list(kinds_now[[place_index(9, slot) for slot in range(SLOTS)]]) == [WHITE] + [EMPTY] * 4
    assert list(kinds_now[[place_index(15, slot) for slot in range(SLOTS)]]) == [WHITE] + [EMPTY] * 4
    assert certainty_now[place_index(4, 1)] == 0.5 and certainty_now[place_index(4, 2)] == 1.0
    assert (kinds == EMPTY).sum() == len(PLACES) - 1  # not changed in place


def test_an_unsure_point_takes_the_colour_of_the_group_its_faces_are_nearer() -> None:
    """Drawn looks pulled off by one odd colour made the corners model read whole points of gold
    checkers as the pearl ones.  The board's points split into two groups by their faces; an
    unsure point takes its group's colour, the lighter group is white, and a sure point keeps
    the colour it was read in."""
    features = GRID * GRID * 3
    described = np.zeros((len(PLACES), features), np.float32)
    kinds = np.full(len(PLACES), EMPTY)
    certainty = np.ones(len(PLACES))

    def put(point: int, checkers: int, colour: int, face: float, sure: float = 1.0) -> None:
        places = [place_index(point, slot) for slot in range(checkers)]
        kinds[places], described[places], certainty[places] = colour, face, sure

    put(1, 5, WHITE, 0.5)
    put(6, 3, WHITE, 0.45)
    put(12, 5, BLACK, -1.5)
    put(19, 4, BLACK, -1.4)
    put(8, 2, WHITE, -1.3, sure=0.6)  # read white, dark as the black checkers, unsure
    put(13, 1, BLACK, 0.4, sure=0.7)  # read black, light as the white checkers, unsure
    put(17, 2, WHITE, -1.45, sure=1.0)  # read surely: kept as read

    colours = colour_unsure_points(kinds, certainty, described)

    def on(point: int) -> list[int]:
        return [int(k) for k in colours[[place_index(point, slot) for slot in range(SLOTS)]]]

    assert on(8) == [BLACK] * 2 + [EMPTY] * 3
    assert on(13) == [WHITE] + [EMPTY] * 4
    assert on(17) == [WHITE] * 2 + [EMPTY] * 3
    assert on(1) == [WHITE] * 5 and on(12) == [BLACK] * 5
    assert kinds[place_index(8, 0)] == WHITE  # not changed in place
    # With one colour on the points there are no two groups to choose between.
    only_white = np.where(kinds == EMPTY, EMPTY, WHITE)
    assert (colour_unsure_points(only_white, certainty * 0.5, described) == only_white).all()


def test_a_checkers_hue_counts_as_much_as_its_brightness() -> None:
    """Red and charcoal checkers: a grey marble point under a lamp is as bright as the red ones,
    read unsure as red, and goes with the charcoal ones by its hue."""
    features = GRID * GRID * 3
    described = np.zeros((len(PLACES), features), np.float32)
    kinds = np.full(len(PLACES), EMPTY)
    certainty = np.ones(len(PLACES))

    def put(point: int, checkers: int, colour: int, bgr: tuple[float, ...], sure: float = 1.0) -> None:
        places = [place_index(point, slot) for slot in range(checkers)]
        kinds[places], certainty[places] = colour, sure
        described[places] = np.tile(np.log(bgr), GRID * GRID)

    put(1, 5, WHITE, (0.2, 0.25, 0.75))  # red, the lighter colour
    put(12, 3, WHITE, (0.2, 0.25, 0.75))
    put(6, 5, BLACK, (0.15, 0.15, 0.15))  # charcoal
    put(19, 2, BLACK, (0.15, 0.15, 0.15))
    put(18, 2, WHITE, (0.42, 0.42, 0.42), sure=0.7)
    colours = colour_unsure_points(kinds, certainty, described)
    assert list(colours[[place_index(18, slot) for slot in range(SLOTS)]]) == [BLACK] * 2 + [EMPTY] * 3
    assert (colours[[place_index(1, slot) for slot in range(SLOTS)]] == WHITE).all()


def test_a_checker_on_the_bar_takes_the_colour_of_the_points_checkers_its_face_is_nearer() -> None:
    """A dark bar read a white checker on it as black on two real tournament boards: the bar's
    checkers are coloured by the two groups of the points' checkers, when there are both."""
    features = GRID * GRID * 3
    described = np.zeros((len(PLACES), features), np.float32)
    kinds = np.full(len(PLACES), EMPTY)

    def put(places: list[int], colour: int, face: float) -> None:
        kinds[places], described[places] = colour, face

    put([place_index(1, slot) for slot in range(3)], WHITE, 0.5)
    put([place_index(12, slot) for slot in range(3)], BLACK, -1.5)
    put([bar_index(0, 0)], BLACK, 0.4)  # read black, as light as the white checkers
    put([bar_index(1, 0)], WHITE, -1.4)  # read white, as dark as the black ones
    colours = colour_bar(kinds, described)
    assert (colours[bar_index(0, 0)], colours[bar_index(1, 0)]) == (WHITE, BLACK)
    assert (colours[:BAR_START] == kinds[:BAR_START]).all()  # the points as they were
    # Too few checkers of one colour on the points to know its face: the bar is left as read.
    kinds[place_index(12, 2)] = EMPTY
    assert (colour_bar(kinds, described) == kinds).all()


def test_a_point_read_in_two_colours_is_left_unsure() -> None:
    """A point holds one colour.  The corners model read the fourth and fifth checkers of a
    tournament board's black row of six as white, sure to 0.997; such a point is made unsure,
    so that its discs recount it and the colour groups colour it."""
    kinds = np.full(len(PLACES), EMPTY)
    kinds[[place_index(9, slot) for slot in range(SLOTS)]] = [BLACK, BLACK, BLACK, WHITE, WHITE]
    kinds[[place_index(8, slot) for slot in range(3)]] = WHITE
    certainty = np.full(len(PLACES), 0.997)
    kinds_now, certainty_now = mixed_unsure(kinds, certainty)
    assert (kinds_now == kinds).all()
    assert (certainty_now[[place_index(9, slot) for slot in range(SLOTS)]] == 0.5).all()
    assert (np.delete(certainty_now, [place_index(9, slot) for slot in range(SLOTS)]) == 0.997).all()
    assert (certainty == 0.997).all()  # not changed in place


def test_a_row_longer_than_five_is_counted_to_its_end() -> None:
    """On a board whose checkers are smaller than a fifth of its triangle a sixth in a row still
    lies on the triangle, where the discs find it: it is counted, and with all fifteen of a
    colour in view nothing is stacked.  Only full points are asked about; a row of five whose
    discs go no further, or a second layer hidden under the first, stays five and stacked."""
    kinds = np.full(len(PLACES), EMPTY)
    kinds[[place_index(9, slot) for slot in range(SLOTS)]] = BLACK
    kinds[[place_index(6, slot) for slot in range(SLOTS)]] = WHITE
    kinds[[place_index(13, slot) for slot in range(SLOTS)]] = BLACK
    kinds[[place_index(17, slot) for slot in range(4)]] = BLACK
    kinds[[place_index(1, slot) for slot in range(3)]] = WHITE
    rows = np.zeros(24, np.int64)
    rows[[9 - 1, 6 - 1, 13 - 1, 17 - 1]] = 6, 5, 5, 7
    asked: list[list[int]] = []

    def discs(points: list[int]) -> Rows:
        asked.append(points)
        return Rows(rows, np.zeros(24, np.bool_))

    beyond = past_fifth(kinds, discs)
    assert asked == [[6, 9, 13]]
    assert list(np.flatnonzero(beyond) + 1) == [9] and beyond[9 - 1] == 1
    reading = count(kinds, np.ones(len(PLACES)), beyond)
    assert (reading.points[9 - 1], reading.points[6 - 1], reading.points[13 - 1]) == (-6, 5, -5)
    assert reading.stacked == (6,)  # 8 white in view: a full white point may hide more
    kinds[[place_index(1, slot) for slot in range(3, SLOTS)]] = WHITE
    kinds[[place_index(2, slot) for slot in range(SLOTS)]] = WHITE
    kinds[[place_index(17, slot) for slot in range(4)]] = EMPTY
    kinds[[place_index(20, slot) for slot in range(4)]] = BLACK
    whole = count(kinds, np.ones(len(PLACES)), past_fifth(kinds, discs))
    assert whole.points.count(5) == 3 and whole.points[9 - 1] == -6
    assert whole.stacked == () and whole.off == (0, 0)
