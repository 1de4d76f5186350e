"""Camera frames of a wooden board, drawn with known answers (like trackpy's ``artificial.py``).

Every frame comes from a seeded :class:`random.Random` and varies what a real
mount varies: perspective up to about 25°, any rotation, both mirror layouts,
wood, triangle and checker colours, light, shadows, glare, noise, JPEG
artefacts, blur, checkers touching or stacked above five, checkers on the bar,
hands and arms over the board, and dice thrown flat or cocked, some flat ones
resting against a checker, the rim, the bar or each other.  :class:`Truth`
carries the answer.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from engine.cube import CUBE_FACES
from engine.player import Player
from engine.position import CHECKERS, Position
from vision.geometry import BoardGeometry, FloatArray

Image = npt.NDArray[np.uint8]
BGR = tuple[int, int, int]

# (light, dark) pairs seen on real boards, as BGR.
TRIANGLE_PAIRS: tuple[tuple[BGR, BGR], ...] = (
    ((170, 210, 230), (40, 60, 110)),  # cream and walnut
    ((190, 220, 235), (35, 35, 150)),  # ivory and red
    ((200, 225, 230), (30, 30, 30)),  # ivory and black
    ((120, 170, 210), (30, 70, 40)),  # tan and green
    ((150, 190, 215), (60, 40, 25)),  # maple and dark oak
)
WOODS: tuple[BGR, ...] = ((60, 110, 160), (40, 80, 130), (90, 140, 185), (30, 60, 100), (75, 125, 170))
WHITE_CHECKERS: tuple[BGR, ...] = ((225, 235, 240), (200, 225, 235), (185, 215, 230), (235, 240, 240))
BLACK_CHECKERS: tuple[BGR, ...] = ((35, 35, 40), (25, 30, 45), (50, 45, 40), (20, 20, 25))
TABLES: tuple[BGR, ...] = ((70, 90, 110), (150, 150, 150), (40, 50, 60), (110, 140, 170), (200, 200, 190))
SKIN: tuple[BGR, ...] = ((120, 160, 220), (90, 130, 190), (60, 90, 140), (140, 175, 225))
#: Sleeves: navy, grey, pink, white and burgundy, as on the real photos' players.
SLEEVES: tuple[BGR, ...] = ((90, 50, 30), (60, 60, 60), (170, 140, 230), (220, 220, 215), (40, 40, 120))


@dataclass(frozen=True, slots=True)
class Style:
    """Everything random about one frame."""

    wood: BGR
    triangles: tuple[BGR, BGR]
    checkers: tuple[BGR, BGR]  # white, black
    table: BGR
    mirror: bool
    rotation: float  # degrees, any
    tilt: float  # degrees of perspective, 0..25
    fill: float  # share of the frame's short side the board spans
    brightness: float
    gradient: float
    warmth: float
    shadow: bool
    glare: int
    noise: float
    blur: float
    jpeg: int
    hand: bool
    sun: float = 135.0  # degrees: where the lamp stands, seen from above the canonical board
    #: For frame sequences: a seed for everything that stays put between frames (wood grain,
    #: lamp, shadows, glare, each checker's resting place).  ``None`` draws them anew per frame.
    grain: int | None = None
    #: The triangles' base as a share of a point's width: real boards' are often narrower (0.7).
    triangle_base: float = 1.0
    #: The bar's width as a share of its column: real bars are often narrower (0.6), board beside them.
    bar_width: float = 1.0
    #: The bar's colour; ``None`` is the wood a shade darker.  Tournament boards' bars are black.
    bar: BGR | None = None
    #: The checkers' diameter as a share of the canonical one (a fifth of a triangle's depth):
    #: on real boards often 0.85 to 1.05, touching in a row that ends short of or past the places.
    checker_size: float = 1.0

    @classmethod
    def random(cls, rng: random.Random, *, hand: bool | None = None, any_colours: bool = False) -> Style:
        """A random style; with ``any_colours`` the checkers are any two colours, one lighter."""
        light, dark = rng.choice(TRIANGLE_PAIRS)
        style = cls(
            wood=_jitter(rng, rng.choice(WOODS), 15),
            triangles=(_jitter(rng, light, 12), _jitter(rng, dark, 10)),
            checkers=(
                _jitter(rng, rng.choice(WHITE_CHECKERS), 8), _jitter(rng, rng.choice(BLACK_CHECKERS), 6)
            ),
            table=_jitter(rng, rng.choice(TABLES), 20),
            mirror=rng.random() < 0.5,
            rotation=rng.uniform(0, 360),
            tilt=rng.uniform(0, 25),
            fill=rng.uniform(0.7, 0.95),
            brightness=rng.uniform(0.65, 1.25),
            gradient=rng.uniform(-0.35, 0.35),
            warmth=rng.uniform(-0.12, 0.12),
            shadow=rng.random() < 0.4,
            glare=rng.choice((0, 0, 1, 2)),
            noise=rng.uniform(0, 7),
            blur=rng.choice((0.0, 0.0, 0.6, 1.0, 1.4)),
            jpeg=rng.randint(45, 95),
            hand=(rng.random() < 0.15) if hand is None else hand,
            sun=rng.uniform(0, 360),
        )
        if any_colours:
            lighter = tuple(rng.randint(110, 250) for _ in range(3))
            shade = rng.uniform(0.2, 0.6)
            darker = tuple(int(rng.randint(60, 250) * shade) for _ in range(3))
            style = replace(style, checkers=(lighter, darker))  # type: ignore[arg-type]
        return style

    @classmethod
    def plain(cls) -> Style:
        """A clean frame from straight above: for examples and debugging."""
        return cls(
            wood=WOODS[0], triangles=TRIANGLE_PAIRS[0], checkers=(WHITE_CHECKERS[0], BLACK_CHECKERS[0]),
            table=TABLES[0], mirror=False, rotation=0.0, tilt=0.0, fill=0.9, brightness=1.0,
            gradient=0.0, warmth=0.0, shadow=False, glare=0, noise=0.0, blur=0.0, jpeg=95, hand=False,
        )


@dataclass(frozen=True, slots=True)
class DieSpec:
    """A die to throw onto the board: its value, whose colour, and whether it lands cocked
    (tilted against a checker or the rim, so the rulebook has it rolled again)."""

    value: int
    colour: Player
    cocked: bool = False


@dataclass(frozen=True, slots=True)
class DieTruth:
    """Where a thrown die landed, in frame pixels."""

    value: int
    colour: Player
    cocked: bool
    centre: tuple[float, float]
    side: float
    #: What a flat die rests against, within `RESTING_GAP` of its side: ``"checker"``, ``"rim"``,
    #: ``"bar"`` or ``"die"`` (the other die); ``""`` on free wood, and for a cocked die.
    resting: str = ""


CUBE_PLACES = ("center", "white", "black")


@dataclass(frozen=True, slots=True)
class CubeSpec:
    """The doubling cube: the face up and where it lies (on the bar: in the middle, or at the
    end by White's edge, points 13-24, or Black's, points 1-12)."""

    face: int = 64
    place: str = "center"


def random_roll(rng: random.Random, cocked_share: float = 0.25) -> tuple[tuple[DieSpec, DieSpec], CubeSpec]:
    """A turn's two dice, of one player's colour, each cocked with probability ``cocked_share``,
    and the cube: centred showing 64, or on a player's side showing any face."""
    colour = rng.choice(list(Player))
    first, second = (DieSpec(rng.randint(1, 6), colour, rng.random() < cocked_share) for _ in range(2))
    place = rng.choice(CUBE_PLACES)
    return (first, second), CubeSpec(64 if place == "center" else rng.choice(CUBE_FACES), place)


class Centred(Protocol):
    @property
    def centre(self) -> tuple[float, float]: ...


Seen = TypeVar("Seen", bound=Centred)


def pair_dice(thrown: Sequence[DieTruth], found: Sequence[Seen]) -> tuple[list[tuple[DieTruth, Seen | None]],
                                                                       list[Seen]]:
    """Each thrown die with the first die ``found`` within a side of its centre (each found die
    paired once, or ``None``), and the found dice left over: seen where no die lies."""
    left = list(found)
    pairs: list[tuple[DieTruth, Seen | None]] = []
    for die in thrown:
        hit = next((d for d in left
                    if math.hypot(d.centre[0] - die.centre[0], d.centre[1] - die.centre[1]) < die.side), None)
        if hit is not None:
            left.remove(hit)
        pairs.append((die, hit))
    return pairs, left


@dataclass(frozen=True, slots=True)
class CubeTruth:
    face: int
    place: str
    centre: tuple[float, float]
    side: float


@dataclass(frozen=True, slots=True)
class Truth:
    """What a rendered frame shows."""

    position: Position
    #: Camera pixels of the playing area's corners in the numbering frame: the corners next to
    #: points 13, 24, 1 and 12 (TL, TR, BR, BL of CONTRACT.md's corners mode).
    corners: FloatArray = field(repr=False)
    mirror: bool
    occluded: bool
    stacked: bool
    #: Where the hand and arm cover the frame (255), or ``None`` without a hand.
    hand: Image | None = field(default=None, repr=False)
    dice: tuple[DieTruth, ...] = ()
    cube: CubeTruth | None = None


def _shade(colour: BGR, factor: float) -> BGR:
    b, g, r = (int(min(255, v * factor)) for v in colour)
    return (b, g, r)


def _jitter(rng: random.Random, colour: BGR, spread: int) -> BGR:
    return tuple(int(min(255, max(0, c + rng.randint(-spread, spread)))) for c in colour)  # type: ignore[return-value]


GEOMETRY = BoardGeometry()
#: The wooden frame around the playing area, and the bear-off tray on one side, in canonical px.
BORDER = 60.0
TRAY = 150.0


def _canvas_size() -> tuple[int, int]:
    return round(GEOMETRY.width + 2 * BORDER + TRAY), round(GEOMETRY.height + 2 * BORDER)


def _wood(rng: random.Random, shape: tuple[int, int], colour: BGR) -> Image:
    """A wood-grain texture: the base colour with long, wavy stripes."""
    phase = rng.uniform(0, 6.28)
    across, along, fine = rng.uniform(9, 25), rng.uniform(80, 200), rng.uniform(2.5, 4.5)
    return _wood_texture(shape, colour, phase, across, along, fine).copy()


# Frame sequences (Style.grain) draw the same wood and light every frame: computed once.
@functools.lru_cache(maxsize=8)
def _wood_texture(shape: tuple[int, int], colour: BGR, phase: float, across: float, along: float,
                  fine_width: float) -> Image:
    height, width = shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    wave = np.sin(xs / across + np.sin(ys / along) * 3 + phase)
    fine = np.sin(xs / fine_width + ys / 300.0)
    shade = 1.0 + 0.07 * wave + 0.03 * fine
    base = np.array(colour, np.float32)[None, None, :]
    texture: Image = np.clip(base * shade[:, :, None], 0, 255).astype(np.uint8)
    texture.flags.writeable = False
    return texture


def _drop_shadow(image: Image, centre: tuple[float, float], radius: float, strength: float) -> None:
    x, y = centre
    pad = int(radius * 1.6)
    x0, y0 = max(0, int(x) - pad), max(0, int(y) - pad)
    x1, y1 = min(image.shape[1], int(x) + pad), min(image.shape[0], int(y) + pad)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    centre = (round((x - x0) * 16), round((y - y0) * 16))
    cv2.circle(mask, centre, round(radius * 16), 1.0, -1, cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), radius * 0.12)
    region = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = (region * (1 - strength * mask)[:, :, None]).astype(np.uint8)


def _draw_checker(image: Image, centre: tuple[float, float], radius: float, colour: BGR,
                  shadow: tuple[float, float]) -> None:
    x, y = centre
    scale = 16  # sub-pixel precision for cv2's fixed-point drawing
    c = (round(x * scale), round(y * scale))
    r = round(radius * scale)
    rim = tuple(max(0, int(v * 0.72)) for v in colour)
    cv2.circle(image, c, r, rim, -1, cv2.LINE_AA, 4)
    # The bevel catches the light on the side facing it.
    lit = tuple(min(255, int(v * 1.15) + 10) for v in colour)
    angle = math.degrees(math.atan2(-shadow[1], -shadow[0]))
    cv2.ellipse(image, c, (r, r), angle, -60, 60, lit, max(1, round(radius * 0.06)),
                cv2.LINE_AA, 4)
    cv2.circle(image, c, round(radius * 0.9 * scale), colour, -1, cv2.LINE_AA, 4)
    groove = tuple(max(0, int(v * 0.85)) for v in colour)
    cv2.circle(image, c, round(radius * 0.55 * scale), groove, max(1, round(radius * 0.05)), cv2.LINE_AA, 4)
    shine = tuple(min(255, int(v * 1.08) + 6) for v in colour)
    cv2.circle(image, c, round(radius * 0.35 * scale), shine, -1, cv2.LINE_AA, 4)


def _checker_radius(style: Style) -> float:
    return GEOMETRY.checker / 2 * 0.97 * style.checker_size


def _lay_checkers(position: Position, style: Style, rng: random.Random,
                  origin: tuple[float, float] = (0.0, 0.0)) -> list[tuple[tuple[float, float], BGR, bool]]:
    """(centre, colour, raised) of every checker, in the order they are laid down: on the points,
    a second layer above five, and on the bar; on the playing area moved to ``origin``."""
    g = GEOMETRY
    ox, oy = origin

    def nudge(place: int) -> random.Random:
        # Where a checker rests on its slot: fixed per place in a sequence, so moving one
        # checker does not shift the others.
        return rng if style.grain is None else random.Random(style.grain * 1000 + place)

    laid: list[tuple[tuple[float, float], BGR, bool]] = []
    for point in range(1, 25):
        count = position.at(point)
        colour = style.checkers[0] if count > 0 else style.checkers[1]
        n = abs(count)
        for slot in range(min(n, 5)):
            cx, cy = g.slot_centre(point, slot)
            # A row of smaller or larger checkers still starts at the point's edge.
            edge = 0.0 if g.is_top(point) else g.height
            cy = edge + (cy - edge) * style.checker_size
            at = nudge(point * 8 + slot)
            laid.append(((cx + ox + at.uniform(-3, 3), cy + oy + at.uniform(-3, 3)), colour, False))
        for slot in range(n - 5):
            cx, cy = g.slot_centre(point, slot % 5)
            laid.append(((cx + ox + 8, cy + oy + 8), colour, True))
    for player, top in ((Player.WHITE, True), (Player.BLACK, False)):
        colour = style.checkers[player]
        for slot in range(position.bar[player]):
            # Smaller checkers stand closer on the bar too, a row of them out from its middle.
            cx, cy = g.sized(g.checker * style.checker_size).bar_slot(top, slot % 4)
            at = nudge(200 + 20 * int(player) + slot)
            laid.append(((cx + ox + at.uniform(-3, 3), cy + oy + at.uniform(-3, 3)), colour, slot >= 4))
    return laid


Thrown = tuple[DieSpec, tuple[float, float], float, str]  # a die, its centre and angle, what it rests against


def draw_board(position: Position, style: Style, rng: random.Random, dice: tuple[DieSpec, ...] = (),
               landing: tuple[tuple[float, float, float], ...] | None = None,
               cube: tuple[CubeSpec, tuple[float, float], float] | None = None,
               ) -> tuple[Image, tuple[Thrown, ...]]:
    """The board from straight above, on a canvas with the frame and tray (numbering frame),
    with ``dice`` thrown on top (at ``landing``: (x, y, angle) each on the playing area, or
    where `_throw` puts them among the checkers as laid), and the dice as thrown."""
    width, height = _canvas_size()
    fixed = rng if style.grain is None else random.Random(style.grain)
    canvas = _wood(fixed, (height, width), style.wood)
    g = GEOMETRY
    ox, oy = BORDER, BORDER
    lighter = _shade(style.wood, 1.1)
    inner = _wood(fixed, (int(g.height), int(g.width)), lighter)
    canvas[int(oy):int(oy) + inner.shape[0], int(ox):int(ox) + inner.shape[1]] = inner
    for point in range(1, 25):
        tri = g.triangle(point)
        tri[:2, 0] = tri[2, 0] + (tri[:2, 0] - tri[2, 0]) * style.triangle_base
        tri = tri + np.array([ox, oy])
        colour = style.triangles[g.parity(point)]
        cv2.fillConvexPoly(canvas, np.round(tri * 16).astype(np.int32), colour, cv2.LINE_AA, 4)
    bx0, by0, bx1, by1 = g.bar_box()
    narrower = (bx1 - bx0) * (1 - style.bar_width) / 2
    bx0, bx1 = bx0 + narrower, bx1 - narrower
    bar = _shade(style.wood, 0.75) if style.bar is None else style.bar
    cv2.rectangle(canvas, (int(ox + bx0), int(oy + by0)), (int(ox + bx1), int(oy + by1)), bar, -1)
    radius = _checker_radius(style)
    placed = _lay_checkers(position, style, rng, (ox, oy))
    if landing is None:
        thrown = _throw(dice, [(cx - ox, cy - oy) for (cx, cy), _, _ in placed], radius, rng)
    else:
        thrown = tuple((spec, (x, y), angle, "") for spec, (x, y, angle) in zip(dice, landing, strict=True))
    # A wooden disc ~9 mm thick casts a soft shadow away from the lamp; shadows fall on the board
    # first, then on the layer below a raised checker.
    sun = math.radians(style.sun)
    shadow = (-math.cos(sun) * radius * 0.16, -math.sin(sun) * radius * 0.16)
    for layer in (False, True):
        for (cx, cy), _, raised in placed:
            if raised is layer:
                _drop_shadow(canvas, (cx + shadow[0], cy + shadow[1]), radius, 0.55 if raised else 0.4)
        for (cx, cy), colour, raised in placed:
            if raised is layer:
                _draw_checker(canvas, (cx, cy), radius, colour, shadow)
    # Borne-off checkers stand on edge in the tray: thin bars.
    tray_x = ox + g.width + BORDER
    for player in Player:
        colour = style.checkers[player]
        for index in range(position.off[player]):
            y = oy + (20 + index * 14 if player is Player.WHITE else g.height - 20 - index * 14)
            top_left, bottom_right = (int(tray_x + 15), int(y)), (int(tray_x + TRAY - 45), int(y + 11))
            cv2.rectangle(canvas, top_left, bottom_right, colour, -1)
    for spec, (x, y), angle, _ in thrown:
        _draw_die(canvas, (x + ox, y + oy), g.die, spec, angle, sun, rng)
    if style.mirror:
        canvas = np.ascontiguousarray(canvas[:, ::-1])
    if cube is not None:  # after the mirror: its number must read the right way round
        face, (x, y), angle = cube
        x = x + ox if not style.mirror else width - (x + ox)
        _draw_cube(canvas, (x, y + oy), face, angle, sun, rng)
    return canvas, thrown


#: Pip places on a face of side 1 centred at 0, per value.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-0.26, -0.26), (0.26, 0.26)),
    3: ((-0.26, -0.26), (0, 0), (0.26, 0.26)),
    4: ((-0.26, -0.26), (0.26, -0.26), (-0.26, 0.26), (0.26, 0.26)),
    5: ((-0.26, -0.26), (0.26, -0.26), (0, 0), (-0.26, 0.26), (0.26, 0.26)),
    6: ((-0.26, -0.28), (0.26, -0.28), (-0.26, 0), (0.26, 0), (-0.26, 0.28), (0.26, 0.28)),
}
DIE_FACES: dict[Player, tuple[BGR, BGR]] = {  # face, pips
    Player.WHITE: ((232, 238, 240), (25, 25, 30)),
    Player.BLACK: ((30, 30, 34), (235, 235, 235)),
}


def _draw_face(image: Image, centre: tuple[float, float], axes: FloatArray, value: int, face: BGR,
               pip: BGR) -> None:
    """One die face: a parallelogram spanned by ``axes`` (two half-side vectors) with its pips."""
    u, v = axes
    c = np.array(centre)
    corners = np.array([c - u - v, c + u - v, c + u + v, c - u + v])
    cv2.fillConvexPoly(image, np.round(corners * 16).astype(np.int32), face, cv2.LINE_AA, 4)
    edge = _shade(face, 0.8) if sum(face) > 300 else _shade(face, 1.8)
    cv2.polylines(image, [np.round(corners * 16).astype(np.int32)], True, edge, 1, cv2.LINE_AA, 4)
    # Pips are a fifth of a side across (0.2 of a half side, in 1/16 px), foreshortened with the face.
    pip_axes = (max(1, round(3.2 * float(np.linalg.norm(u)))), max(1, round(3.2 * float(np.linalg.norm(v)))))
    angle = math.degrees(math.atan2(u[1], u[0]))
    for px, py in PIPS[value]:
        at = c + 2 * (px * u + py * v)
        cv2.ellipse(image, (round(at[0] * 16), round(at[1] * 16)), pip_axes, angle, 0, 360, pip, -1,
                    cv2.LINE_AA, 4)


#: The faces next to each face (a standard die: opposite faces add up to 7).
NEIGHBOURS = {
    1: (2, 3, 5, 4), 2: (1, 3, 6, 4), 3: (1, 2, 6, 5), 4: (1, 2, 6, 5), 5: (1, 3, 6, 4), 6: (2, 3, 5, 4),
}


def _draw_die(image: Image, centre: tuple[float, float], side: float, spec: DieSpec, angle: float,
              sun: float, rng: random.Random) -> None:
    face, pip = DIE_FACES[spec.colour]
    half = side / 2
    u = np.array([math.cos(angle), math.sin(angle)]) * half
    v = np.array([-math.sin(angle), math.cos(angle)]) * half
    shadow = np.array([-math.cos(sun), -math.sin(sun)]) * side * 0.25
    _drop_shadow(image, (centre[0] + shadow[0], centre[1] + shadow[1]), half * 1.2, 0.45)
    if not spec.cocked:
        _draw_face(image, centre, np.array([u, v]), spec.value, face, pip)
        return
    # Tilted about the u axis: the top face shortens along v and the side face it rose from shows.
    tilt = rng.uniform(0.35, 0.75)
    top_v = v * math.cos(tilt)
    side_v = v * math.sin(tilt)
    c = np.array(centre)
    side_face = _shade(face, 0.7) if sum(face) > 300 else _shade(face, 1.6)
    rise = c + top_v + side_v
    _draw_face(image, (float(rise[0]), float(rise[1])), np.array([u, side_v]),
               rng.choice(NEIGHBOURS[spec.value]), side_face, pip)
    _draw_face(image, centre, np.array([u, top_v]), spec.value, face, pip)


#: The cube's side as a share of a checker's diameter (a 20 mm cube beside 16 mm dice).
CUBE_SIDE = 0.6


def _cube_spot(cube: CubeSpec, rng: random.Random) -> tuple[float, float]:
    """Where the cube lies on the canonical playing area: on the bar, by its place."""
    g = GEOMETRY
    bx0, _, bx1, _ = g.bar_box()
    side = g.checker * CUBE_SIDE
    x = (bx0 + bx1) / 2 + rng.uniform(-0.15, 0.15) * side
    y = {"center": g.height / 2, "white": side * 0.9, "black": g.height - side * 0.9}[cube.place]
    return x, y + rng.uniform(-0.15, 0.15) * side


def cube_pose(cube: CubeSpec, rng: random.Random) -> tuple[float, float, float]:
    """Where the cube lies and how it is turned, as :func:`render`'s ``cube_at``."""
    x, y = _cube_spot(cube, rng)
    return x, y, rng.uniform(0, 360)


def _draw_cube(image: Image, centre: tuple[float, float], cube: CubeSpec, angle: float, sun: float,
               rng: random.Random) -> None:
    """The cube from above: a rounded face with its number, turned ``angle`` degrees."""
    side = GEOMETRY.checker * CUBE_SIDE
    dark = rng.random() < 0.3
    face, ink = ((40, 40, 45), (60, 190, 220)) if dark else ((215, 232, 240), (30, 30, 150))
    shadow = (centre[0] - math.cos(sun) * side * 0.2, centre[1] - math.sin(sun) * side * 0.2)
    _drop_shadow(image, shadow, side * 0.6, 0.45)
    n = int(side * 2)
    patch = np.zeros((n, n, 3), np.uint8)
    mask = np.zeros((n, n), np.uint8)
    a, b = int(n / 2 - side / 2), int(n / 2 + side / 2)
    cv2.rectangle(patch, (a, a), (b, b), face, -1)
    cv2.rectangle(mask, (a, a), (b, b), 255, -1)
    cv2.rectangle(patch, (a, a), (b, b), _shade(face, 0.8) if not dark else _shade(face, 1.6), 1)
    text = str(cube.face)
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = side * (0.55 if len(text) == 1 else 0.75) / tw
    (tw, th), _ = cv2.getTextSize(text, font, scale, 2)
    cv2.putText(patch, text, (int(n / 2 - tw / 2), int(n / 2 + th / 2)), font, scale, ink, 2, cv2.LINE_AA)
    turn = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
    turned = np.asarray(cv2.warpAffine(patch, turn, (n, n)), np.uint8)
    covered = np.asarray(cv2.warpAffine(mask, turn, (n, n))) > 127
    x0, y0 = int(centre[0] - n / 2), int(centre[1] - n / 2)
    h, w = image.shape[:2]
    if x0 < 0 or y0 < 0 or x0 + n > w or y0 + n > h:
        return
    region = image[y0:y0 + n, x0:x0 + n]
    region[covered] = turned[covered]


#: The share of flat dice thrown to rest against something: a checker, the rim, the bar or the
#: other die.  A real throw ends there often on a crowded board, and the reader must not take
#: such a die for one leaning there cocked (docs/dice.md, *Flat dice beside a checker*).
RESTING_SHARE = 0.3
#: A flat die rests against something when it is less than this share of its side clear of it;
#: a die thrown onto free wood is at least that clear of everything.
RESTING_GAP = 0.15


def _square_to_disc(centre: tuple[float, float], angle: float, disc: tuple[float, float],
                    radius: float) -> float:
    """How far a die of side `GEOMETRY.die` at ``centre``, turned ``angle``, is clear of a disc
    (negative where they overlap): the distance from the disc's centre to the square, less its radius."""
    dx, dy = disc[0] - centre[0], disc[1] - centre[1]
    c, s = math.cos(angle), math.sin(angle)
    half = GEOMETRY.die / 2
    qx, qy = abs(dx * c + dy * s) - half, abs(-dx * s + dy * c) - half
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - radius


def _reach(angle: float) -> float:
    """How far a die turned ``angle`` reaches from its centre along the board's x or y axis (or,
    turned ``angle`` from any axis, along that axis)."""
    return GEOMETRY.die / 2 * (abs(math.cos(angle)) + abs(math.sin(angle)))


def _squares_gap(a: tuple[float, float], a_angle: float, b: tuple[float, float], b_angle: float) -> float:
    """How far two dice are clear of each other along the axis that parts them best (their
    sides' four directions): negative exactly when they overlap, else at most their distance."""
    gap = -math.inf
    for angle in (a_angle, a_angle + math.pi / 2, b_angle, b_angle + math.pi / 2):
        apart = abs((b[0] - a[0]) * math.cos(angle) + (b[1] - a[1]) * math.sin(angle))
        gap = max(gap, apart - _reach(a_angle - angle) - _reach(b_angle - angle))
    return gap


def _throw(dice: tuple[DieSpec, ...], checkers: Sequence[tuple[float, float]], radius: float,
           rng: random.Random) -> tuple[Thrown, ...]:
    """Where each die lands on the playing area among ``checkers`` (discs of ``radius``), and
    what it rests against.

    A flat die never overlaps a checker, the rim, the bar or the other die: it would lie on it,
    tilted.  `RESTING_SHARE` of them come to rest against one of those, the others on free wood.
    The bar is its whole column, where a narrower bar is drawn too: the cube on it stays clear.
    A cocked die leans on a checker (its centre within half a side of the disc's edge, or over
    it) or on the rim, never on the bar nor near the other die."""
    g = GEOMETRY
    side = g.die
    bx0, _, bx1, _ = g.bar_box()
    thrown: list[Thrown] = []
    for spec in dice:
        resting = not spec.cocked and rng.random() < RESTING_SHARE
        for _ in range(5000):
            angle = rng.uniform(0, math.pi / 2)
            if spec.cocked:
                x, y = rng.uniform(side, g.width - side), rng.uniform(side, g.height - side)
                if bx0 - side < x < bx1 + side:
                    continue
                nearest = min((math.hypot(x - cx, y - cy) - radius for cx, cy in checkers), default=math.inf)
                rim = min(x, y, g.width - x, g.height - y)
                if not (nearest < side * 0.5 or rim < side * 0.9):
                    continue
                if any(math.hypot(x - sx, y - sy) < side * 1.6 for _, (sx, sy), _, _ in thrown):
                    continue
                thrown.append((spec, (x, y), angle, ""))
                break
            reach = _reach(angle)
            x, y = rng.uniform(reach, g.width - reach), rng.uniform(reach, g.height - reach)
            to_dice = {k: _squares_gap((x, y), angle, at, turn)
                       for k, (other, at, turn, _) in enumerate(thrown) if not other.cocked}
            gaps = {
                "checker": min((_square_to_disc((x, y), angle, disc, radius) for disc in checkers),
                               default=math.inf),
                "rim": min(x, y, g.width - x, g.height - y) - reach,
                "bar": max(bx0 - x, x - bx1) - reach,
                "die": min(to_dice.values(), default=math.inf),
            }
            # A cocked die's side face reaches beyond its square: keep clear of it as before.
            if any(other.cocked and math.hypot(x - ox, y - oy) < side * 1.6
                   for other, (ox, oy), _, _ in thrown):
                continue
            against = min(gaps, key=lambda kind: gaps[kind])
            if gaps[against] < 0 or (gaps[against] < RESTING_GAP * side) is not resting:
                continue
            if resting and against == "die":  # the die it rests against rests against it too
                for k, gap in to_dice.items():
                    other, at, turn, was = thrown[k]
                    if not was and gap < RESTING_GAP * side:
                        thrown[k] = (other, at, turn, "die")
            thrown.append((spec, (x, y), angle, against if resting else ""))
            break
        else:
            raise ValueError(f"no room on this board for the die {spec}")
    return tuple(thrown)


def landing_spots(position: Position, dice: tuple[DieSpec, ...], rng: random.Random,
                  style: Style) -> tuple[tuple[float, float, float], ...]:
    """Where ``dice`` land, as :func:`render`'s ``landing``: clear of ``position``'s checkers as
    ``style`` lays them (pass a position holding every checker the dice must stay clear of while
    they lie).  The style must fix where each checker rests (`Style.grain`), or the frames would
    lay them elsewhere."""
    if style.grain is None:
        raise ValueError("dice can be laid ahead of the frames only for a style with a grain")
    checkers = [centre for centre, _, _ in _lay_checkers(position, style, rng)]
    thrown = _throw(dice, checkers, _checker_radius(style), rng)
    return tuple((x, y, angle) for _, (x, y), angle, _ in thrown)


def _playing_area_corners(mirror: bool) -> FloatArray:
    """Canvas coordinates of the numbering frame's TL, TR, BR, BL corners."""
    width, _ = _canvas_size()
    corners = GEOMETRY.corners() + np.array([BORDER, BORDER])
    if mirror:
        corners = corners.copy()
        corners[:, 0] = width - corners[:, 0]
    return np.asarray(corners, np.float64)


def _camera_quad(style: Style, size: tuple[int, int], rng: random.Random) -> FloatArray:
    """Where the canvas's four corners land in the camera frame."""
    width, height = size
    cw, ch = _canvas_size()
    span = style.fill * min(width, height) / max(cw, ch) * 1.25
    half = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]], np.float64) / 2 * span
    # Perspective: the far edge shrinks as the camera tilts.
    shrink = 1 - math.sin(math.radians(style.tilt)) * 0.6
    direction = rng.random() < 0.5
    factors = np.array([shrink, shrink, 1.0, 1.0]) if direction else np.array([1.0, 1.0, shrink, shrink])
    half[:, 0] *= factors
    angle = math.radians(style.rotation)
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    quad = half @ turn.T
    # Keep the whole board in view, then place it anywhere that still fits.
    quad -= quad.min(axis=0)
    extent = quad.max(axis=0)
    scale = min(1.0, (width - 20) / extent[0], (height - 20) / extent[1])
    quad *= scale
    extent = quad.max(axis=0)
    offset = np.array([rng.uniform(10, max(10, width - 10 - extent[0])),
                       rng.uniform(10, max(10, height - 10 - extent[1]))])
    return np.asarray(quad + offset, np.float64)


def _light(image: Image, style: Style, rng: random.Random) -> Image:
    height, width = image.shape[:2]
    angle = rng.uniform(0, 2 * math.pi)
    gain = _gain((height, width), angle, style.brightness, style.gradient)
    out = image.astype(np.float32) * gain[:, :, None]
    out *= np.array([1 - style.warmth, 1.0, 1 + style.warmth], np.float32)
    if style.shadow:
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        pts = tuple((int(cx + rng.uniform(-0.4, 0.4) * width), int(cy + rng.uniform(-0.4, 0.4) * height))
                    for _ in range(5))
        soft = _shadow((height, width), pts)
        out *= (1 - rng.uniform(0.2, 0.45) * soft)[:, :, None]
    for _ in range(style.glare):
        centre = (rng.randint(0, width), rng.randint(0, height))
        axes = (rng.randint(20, 90), rng.randint(10, 50))
        soft_spot = _glare((height, width), centre, axes, rng.uniform(0, 180))
        out += (soft_spot * rng.uniform(60, 140))[:, :, None]
    lit: Image = np.clip(out, 0, 255).astype(np.uint8)
    return lit


@functools.lru_cache(maxsize=8)
def _gain(shape: tuple[int, int], angle: float, brightness: float,
          gradient: float) -> npt.NDArray[np.float32]:
    """The lamp's brightness across the frame: a ramp at ``angle``."""
    height, width = shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = ((xs / width - 0.5) * math.cos(angle) + (ys / height - 0.5) * math.sin(angle))
    gain: npt.NDArray[np.float32] = brightness * (1 + gradient * 2 * ramp)
    gain.flags.writeable = False
    return gain


@functools.lru_cache(maxsize=8)
def _shadow(shape: tuple[int, int], corners: tuple[tuple[int, int], ...]) -> npt.NDArray[np.float32]:
    """A soft shadow over the frame (1 inside the hull of ``corners``)."""
    mask = np.zeros(shape, np.float32)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.array(corners, np.int32)), 1.0)
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), 25), np.float32)
    soft.flags.writeable = False
    return soft


@functools.lru_cache(maxsize=8)
def _glare(shape: tuple[int, int], centre: tuple[int, int], axes: tuple[int, int],
           angle: float) -> npt.NDArray[np.float32]:
    """A soft glint of the lamp, 1 at its middle."""
    spot = np.zeros(shape, np.float32)
    cv2.ellipse(spot, centre, axes, angle, 0, 360, 1.0, -1)
    soft_spot = np.asarray(cv2.GaussianBlur(spot, (0, 0), 12), np.float32)
    soft_spot.flags.writeable = False
    return soft_spot


def _hand(image: Image, style: Style, area: FloatArray, rng: random.Random) -> tuple[bool, Image]:
    """An arm from a frame edge reaching over the board, with a hand at its end: whether it
    covers the playing area, and where (the mask of hand and arm).

    The hand has a palm, four fingers, a thumb, creases where the fingers touch, a rounded
    shading and a shadow on the board; the arm is bare or in a sleeve.  A flat blob of skin
    colour taught the checker reader's *covered* class, but the palm detector trained on real
    hands (`vision.hands`) took none of those for a palm; the hand networks find 19 of the
    checker benchmark's 30 of these."""
    height, width = image.shape[:2]
    target = area.mean(axis=0) + rng.uniform(-0.3, 0.3) * (area.max(axis=0) - area.min(axis=0))
    edge = rng.choice(((target[0], height + 40), (target[0], -40), (-40, target[1]), (width + 40, target[1])))
    skin = _jitter(rng, rng.choice(SKIN), 15)
    drawn = rng.randint(70, 120)
    # The flat arm drew its blob's angle here: drawn still, it seeds the hand's shape, so the
    # frame's generator makes the same draws as before and the frames after it are unchanged.
    shape = random.Random(int(rng.uniform(0, 180) * 1_000_003) + drawn)
    # A hand is as wide as two checkers or so whatever the camera's resolution: the sizes drawn
    # are a 1280-px frame's.
    thickness = drawn * width / 1280
    along = np.subtract(target, edge)
    along /= np.linalg.norm(along)
    across = np.array([-along[1], along[0]]) * shape.choice((1, -1))  # the thumb's side: either hand
    palm_width = thickness * shape.uniform(0.95, 1.15)
    palm_length = palm_width * shape.uniform(0.95, 1.1)
    centre = np.asarray(target, np.float64)
    wrist = centre - along * palm_length * 0.5
    knuckles = centre + along * palm_length * 0.45
    skin_mask = np.zeros((height, width), np.uint8)
    palm = [wrist + across * palm_width * 0.42, wrist - across * palm_width * 0.42,
            knuckles - across * palm_width * 0.5, knuckles + across * palm_width * 0.5]
    cv2.fillConvexPoly(skin_mask, np.round(palm).astype(np.int32), 255, cv2.LINE_AA)
    cv2.ellipse(skin_mask, _pixel(centre), (int(palm_length * 0.55), int(palm_width * 0.5)),
                math.degrees(math.atan2(along[1], along[0])), 0, 360, 255, -1, cv2.LINE_AA)
    finger_width = palm_width / 4.4
    fingers = []
    # Index to little finger: where each leaves the knuckles (share of the palm's width), its length.
    for offset, length, thin in ((-0.375, 0.8, 1.0), (-0.125, 0.92, 1.0), (0.125, 0.88, 1.0),
                                 (0.375, 0.68, 0.85)):
        curled = shape.random() < 0.2
        angle = shape.uniform(-0.12, 0.12) + offset * shape.uniform(0, 0.5)  # spread a little
        pointing = along * math.cos(angle) + across * math.sin(angle)
        base = knuckles + across * palm_width * offset - along * finger_width * 0.3
        tip = base + pointing * palm_length * length * (0.45 if curled else 1.0) * shape.uniform(0.9, 1.1)
        fingers.append((base, tip, finger_width * thin))
    angle = shape.uniform(0.6, 1.0)
    pointing = along * math.cos(angle) + across * math.sin(angle)
    base = wrist + across * palm_width * 0.35 + along * palm_length * 0.1
    joint = base + pointing * palm_length * 0.55
    nail = joint + (pointing * 0.7 + along * 0.3) * palm_length * 0.3  # the thumb's tip bends in
    for start, end, thick in ((base, joint, palm_width / 3.6), (joint, nail, palm_width / 4.2), *fingers):
        cv2.line(skin_mask, _pixel(start), _pixel(end), 255, max(1, int(thick)), cv2.LINE_AA)
    sleeve_mask = np.zeros((height, width), np.uint8)
    if shape.random() < 0.35:  # a bare forearm, a little narrower than the hand
        cv2.line(skin_mask, _pixel(edge), _pixel(wrist), 255, int(palm_width * 0.8), cv2.LINE_AA)
    else:
        cuff = wrist - along * palm_length * shape.uniform(0.2, 0.5)
        cv2.line(sleeve_mask, _pixel(edge), _pixel(cuff), 255, int(palm_width * 1.25), cv2.LINE_AA)
        cv2.line(skin_mask, _pixel(cuff), _pixel(wrist), 255, int(palm_width * 0.75), cv2.LINE_AA)
        skin_mask[sleeve_mask > 0] = 0
    whole = np.maximum(skin_mask, sleeve_mask)
    # The lamp is above and to one side: the hand's shadow falls beside it on the board.
    shift = np.array([[1, 0, palm_width * 0.25], [0, 1, palm_width * 0.3]], np.float32)
    shadow = cv2.GaussianBlur(cv2.warpAffine(whole, shift, (width, height)).astype(np.float32) / 255,
                              (0, 0), palm_width * 0.15)
    out = image.astype(np.float32) * (1 - 0.45 * shadow)[:, :, None]
    out = _paint(out, skin_mask, np.array(skin, np.float32), finger_width * 0.5)
    if sleeve_mask.any():
        cloth = np.array(_jitter(shape, shape.choice(SLEEVES), 20), np.float32)
        out = _paint(out, sleeve_mask, cloth, palm_width * 0.4)
    # The edges of each finger are darker: where two touch, a crease shows.
    creases = np.zeros((height, width), np.uint8)
    for start, end, thick in fingers:
        finger = np.zeros((height, width), np.uint8)
        cv2.line(finger, _pixel(start), _pixel(end), 255, max(1, int(thick)), cv2.LINE_AA)
        creases = np.maximum(creases, cv2.morphologyEx(finger, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)))
    dark = cv2.GaussianBlur(creases.astype(np.float32) / 255, (0, 0), 1.2) * (skin_mask > 0)
    out *= (1 - 0.35 * dark)[:, :, None]
    image[:] = np.clip(out, 0, 255).astype(np.uint8)
    board = np.zeros((height, width), np.uint8)
    cv2.fillConvexPoly(board, np.round(area).astype(np.int32), 255)
    return bool(np.count_nonzero(whole & board)), whole


def _pixel(point: FloatArray | tuple[float, float]) -> tuple[int, int]:
    return int(point[0]), int(point[1])


def _paint(image: npt.NDArray[np.float32], mask: Image, colour: npt.NDArray[np.float32],
           depth: float) -> npt.NDArray[np.float32]:
    """``image`` with ``colour`` laid over ``mask``, lit as a rounded thing: darker towards its
    edges over ``depth`` pixels."""
    inside = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 5)
    lit = 0.72 + 0.33 * np.sqrt(np.clip(inside / max(depth, 1.0), 0, 1))
    alpha = (mask.astype(np.float32) / 255)[:, :, None]
    return np.asarray(image * (1 - alpha) + colour[None, None, :] * lit[:, :, None] * alpha, np.float32)


def camera(style: Style, rng: random.Random, size: tuple[int, int] = (1280, 960)) -> FloatArray:
    """A camera mount: where the board's canvas corners land in the frame."""
    return _camera_quad(style, size, rng)


def render(
    position: Position,
    rng: random.Random,
    size: tuple[int, int] = (1280, 960),
    style: Style | None = None,
    mount: FloatArray | None = None,
    dice: tuple[DieSpec, ...] = (),
    cube: CubeSpec | None = None,
    landing: tuple[tuple[float, float, float], ...] | None = None,
    cube_at: tuple[float, float, float] | None = None,
) -> tuple[Image, Truth]:
    """A camera frame of ``position`` and what it shows.  ``size`` is ``(width, height)``;
    ``mount`` (from :func:`camera`) keeps the camera where an earlier frame had it;
    ``dice`` are thrown onto free places of the playing area, or lie at ``landing``: one
    (x, y, angle) per die on the canonical playing area (from :func:`landing_spots`), so
    dice stay put while checkers move round them; ``cube_at`` likewise keeps the cube where
    :func:`cube_pose` put it."""
    style = style or Style.random(rng)
    if cube is None:
        placed_cube = None
    elif cube_at is None:
        placed_cube = (cube, _cube_spot(cube, rng), rng.uniform(0, 360))
    else:
        placed_cube = (cube, (cube_at[0], cube_at[1]), cube_at[2])
    board, thrown = draw_board(position, style, rng, dice, landing, placed_cube)
    ch, cw = board.shape[:2]
    source = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64)
    quad = _camera_quad(style, size, rng) if mount is None else mount
    warp = cv2.getPerspectiveTransform(source.astype(np.float32), quad.astype(np.float32))
    width, height = size
    fixed = rng if style.grain is None else random.Random(style.grain + 1)
    table = _wood(fixed, (height, width), style.table)
    frame: Image = np.asarray(
        cv2.warpPerspective(board, warp, (width, height), dst=table, borderMode=cv2.BORDER_TRANSPARENT,
                            flags=cv2.INTER_AREA),
        np.uint8,
    )
    corners: FloatArray = np.asarray(cv2.perspectiveTransform(
        _playing_area_corners(style.mirror).reshape(-1, 1, 2).astype(np.float64), warp
    ), np.float64).reshape(4, 2)
    frame = _light(frame, style, fixed)
    occluded, hand = _hand(frame, style, corners, rng) if style.hand else (False, None)
    if style.blur:
        frame = np.asarray(cv2.GaussianBlur(frame, (0, 0), style.blur), np.uint8)
    if style.noise:
        noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, style.noise, frame.shape)
        frame = np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, style.jpeg])
    decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else None
    if decoded is not None:
        frame = np.asarray(decoded, np.uint8)
    stacked = any(abs(position.at(p)) > 5 for p in range(1, 25))
    seen = np.asarray(warp, np.float64)
    return frame, Truth(position, corners, style.mirror, occluded, stacked, hand,
                        _dice_truth(thrown, style.mirror, seen), _cube_truth(placed_cube, style.mirror, seen))


def _seen(x: float, y: float, side: float, mirror: bool,
          warp: FloatArray) -> tuple[tuple[float, float], float]:
    """A square's centre and side in the frame, from its canonical centre and side."""
    width, _ = _canvas_size()
    cx = x + BORDER
    if mirror:
        cx = width - cx
    ends = np.array([[cx - side / 2, y + BORDER], [cx + side / 2, y + BORDER]], np.float64)
    seen = np.asarray(cv2.perspectiveTransform(ends.reshape(-1, 1, 2), warp), np.float64).reshape(2, 2)
    centre = seen.mean(axis=0)
    return (float(centre[0]), float(centre[1])), float(np.linalg.norm(seen[1] - seen[0]))


def _cube_truth(cube: tuple[CubeSpec, tuple[float, float], float] | None, mirror: bool,
                warp: FloatArray) -> CubeTruth | None:
    if cube is None:
        return None
    spec, (x, y), _ = cube
    centre, side = _seen(x, y, GEOMETRY.checker * CUBE_SIDE, mirror, warp)
    return CubeTruth(spec.face, spec.place, centre, side)


def _dice_truth(thrown: tuple[Thrown, ...], mirror: bool, warp: FloatArray) -> tuple[DieTruth, ...]:
    out = []
    for spec, (x, y), _, resting in thrown:
        centre, side = _seen(x, y, GEOMETRY.die, mirror, warp)
        out.append(DieTruth(spec.value, spec.colour, spec.cocked, centre, side, resting))
    return tuple(out)


def random_scene(rng: random.Random, most: int = 5) -> Position:
    """A position as it may stand mid-game, at most ``most`` checkers a point and four per side on the bar.

    Not necessarily reachable in play: vision must read any board it is shown.
    """
    while True:
        points = [0] * 24
        order = list(range(24))
        rng.shuffle(order)
        owned = (order[: rng.randint(2, 9)], order[12 : 12 + rng.randint(2, 9)])
        text = []
        for points_owned, sign in zip(owned, (1, -1), strict=True):
            off = rng.choice((0, 0, 0, rng.randint(1, 10)))
            bar = rng.choice((0, 0, 0, 1, 2, rng.randint(0, 4)))
            left = CHECKERS - off - bar
            room = sum(most for _ in points_owned)
            if left > room:
                break
            while left:
                point = rng.choice(points_owned)
                if abs(points[point]) < most:
                    points[point] += sign
                    left -= 1
            text.append((bar, off))
        else:
            white = " ".join(f"{p + 1}:{c}" for p, c in enumerate(points) if c > 0)
            black = " ".join(f"{p + 1}:{-c}" for p, c in enumerate(points) if c < 0)
            (wbar, woff), (bbar, boff) = text
            return Position.from_text(f"W {white} bar:{wbar} off:{woff} | B {black} bar:{bbar} off:{boff}")
