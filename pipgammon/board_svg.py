"""The board as SVG, drawn from the referee's state: checkers, dice, cube and lit lamps.

The demo's HTML page and the web dashboard show this instead of a photograph, so a
player sees what the referee believes.  The layout follows the rulebook's numbering as
the camera's corners mode does: points 13..24 along the top edge from left to right,
points 12..1 along the bottom, the bar in the middle and the off trays on the right
(White's on top, beside its home 19..24).  Each point's lamp sits at the edge, under
the point, where the LED strip runs.  Blink and pulse are CSS animations with the
periods of `engine.lights`, so a browser shows them as the LEDs do.

The labels may instead count the points from one player's side (``side``), as that player's
plays and an illegal play's points are written, with a caption saying whose side: the
dashboard labels the board so while a player is to act, so that "check points 13, 11
(numbered from White's side)" names the labels by the blinking lamps.

>>> from engine import LightPlan, Position
>>> svg = board_svg(Position.start(), LightPlan.dark())
>>> svg.startswith("<svg") and svg.count('class="checker white"') == 15
True
>>> import re
>>> from engine.player import Player
>>> white = board_svg(Position.start(), LightPlan.dark(), side=Player.WHITE)
>>> re.findall(r'class="label"[^>]*>([0-9]+)<', white)[:3]  # rulebook points 1, 2, 3
['24', '23', '22']
>>> "points numbered from White's side" in white
True
"""

from __future__ import annotations

from html import escape

from engine.lights import BLINK_PERIOD_S, PULSE_PERIOD_S, Light, LightPlan, Pattern
from engine.player import Player
from engine.position import Position, Track
from engine.step import own_point

WIDTH, HEIGHT = 760, 520
FRAME = 20
TRAY = 60
BAR = 40
POINT_W = (WIDTH - 2 * FRAME - TRAY - BAR) / 12
TRIANGLE_H = 190
#: Five checkers fit between the lamp and the middle of the board without touching the other side's.
CHECKER_R = min(POINT_W / 2 - 2, 20.0)
LAMP_R = 7

_STYLE = f"""
.wood {{ fill: #8a5a2b; }} .felt {{ fill: #2f5d3a; }} .tray {{ fill: #5e3b1a; }}
.tri0 {{ fill: #e8d3a8; }} .tri1 {{ fill: #6b2f1f; }}
.checker {{ stroke: #222; stroke-width: 1.5; }}
.white {{ fill: #f4efe4; }} .black {{ fill: #1d1d1d; stroke: #777; }}
.count {{ font: bold 13px sans-serif; text-anchor: middle; }} .label {{ font: 11px sans-serif; fill: #eee;
 text-anchor: middle; }}
.numbering {{ font: italic 12px sans-serif; fill: #e8e8e8; fill-opacity: 0.8; text-anchor: middle; }}
.die {{ stroke: #333; stroke-width: 1.5; }} .pip {{ stroke: none; }}
.cube {{ fill: #f6f1e0; stroke: #333; }} .cubetext {{ font: bold 16px sans-serif; text-anchor: middle; }}
.socket {{ fill: #262626; }}
@keyframes blink {{ 0%, 49.9% {{ opacity: 1; }} 50%, 100% {{ opacity: 0; }} }}
@keyframes pulse {{ 0%, 100% {{ opacity: 0.15; }} 50% {{ opacity: 1; }} }}
.blink {{ animation: blink {BLINK_PERIOD_S}s infinite; }}
.pulse {{ animation: pulse {PULSE_PERIOD_S}s infinite ease-in-out; }}
"""


def point_x(point: int) -> float:
    """The centre x of a point's column."""
    column = point - 13 if point >= 13 else 12 - point  # 0..11 from the left
    x = FRAME + column * POINT_W + POINT_W / 2
    return x + BAR if column >= 6 else x


def _lamp(x: float, y: float, light: Light, name: str) -> str:
    socket = f'<circle class="socket" cx="{x:.1f}" cy="{y:.1f}" r="{LAMP_R + 2}"/>'
    if light.pattern is Pattern.OFF:
        return socket
    animation = {Pattern.BLINK: ' class="blink"', Pattern.PULSE: ' class="pulse"'}.get(light.pattern, "")
    return (f'{socket}<circle{animation} cx="{x:.1f}" cy="{y:.1f}" r="{LAMP_R}" fill="{light.colour.hex()}">'
            f"<title>{escape(name)}: {light.pattern.value}</title></circle>")


def _stack(x: float, edge: float, downwards: bool, count: int, colour: str) -> list[str]:
    """Up to five checkers drawn from the edge, and the count on the last when more."""
    parts = []
    step = 2 * CHECKER_R + 1
    y = edge
    for i in range(min(count, 5)):
        y = edge + (i * step + CHECKER_R + 2) * (1 if downwards else -1)
        parts.append(f'<circle class="checker {colour}" cx="{x:.1f}" cy="{y:.1f}" r="{CHECKER_R:.1f}"/>')
    if count > 5:  # the fifth checker carries the count, as players write it
        ink = "#000" if colour == "white" else "#fff"
        parts.append(f'<text class="count" x="{x:.1f}" y="{y + 5:.1f}" fill="{ink}">{count}</text>')
    return parts


_PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
         4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
         6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def _die(x: float, y: float, colour: str, value: int, cocked: bool) -> str:
    face, pip = ("#f4efe4", "#111") if colour == "white" else ("#1d1d1d", "#eee")
    turn = f' transform="rotate(20 {x:.1f} {y:.1f})"' if cocked else ""
    parts = [f'<g{turn}><rect class="die" x="{x - 14:.1f}" y="{y - 14:.1f}" width="28" height="28" rx="5" '
             f'fill="{face}"/>']
    parts += [f'<circle class="pip" cx="{x + dx * 7:.1f}" cy="{y + dy * 7:.1f}" r="2.8" fill="{pip}"/>'
              for dx, dy in _PIPS[value]]
    parts.append("</g>")
    return "".join(parts)


def board_svg(position: Position, plan: LightPlan, *, dice: tuple[tuple[str, int, bool], ...] = (),
              cube: tuple[int, str] | None = (1, "center"), caption: str = "", side: Player | None = None,
              track: Track | None = None) -> str:
    """The SVG of ``position`` with the lamps of ``plan``, the dice and the cube.  The points are
    labelled in the rulebook's numbering, or, given ``side``, as that player counts them along
    ``track`` (their variant's; default the standard game's), with a caption saying so."""
    field_right = WIDTH - FRAME - TRAY
    bar_x = FRAME + 6 * POINT_W + BAR / 2
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" '
             f'height="{HEIGHT}" role="img" aria-label="{escape(caption or "backgammon board")}">',
             f"<style>{_STYLE}</style>",
             f'<rect class="wood" width="{WIDTH}" height="{HEIGHT}" rx="8"/>',
             f'<rect class="felt" x="{FRAME}" y="{FRAME}" width="{field_right - FRAME}" '
             f'height="{HEIGHT - 2 * FRAME}"/>',
             f'<rect class="wood" x="{bar_x - BAR / 2:.1f}" y="0" width="{BAR}" height="{HEIGHT}"/>',
             f'<rect class="tray" x="{field_right + 6}" y="{FRAME}" width="{TRAY - 12}" '
             f'height="{HEIGHT / 2 - FRAME - 6:.1f}"/>',
             f'<rect class="tray" x="{field_right + 6}" y="{HEIGHT / 2 + 6:.1f}" width="{TRAY - 12}" '
             f'height="{HEIGHT / 2 - FRAME - 6:.1f}"/>']
    top, bottom = FRAME, HEIGHT - FRAME
    for point in range(1, 25):
        x = point_x(point)
        is_top = point >= 13
        edge = top if is_top else bottom
        tip = edge + TRIANGLE_H if is_top else edge - TRIANGLE_H
        half = POINT_W / 2 - 1
        parts.append(f'<polygon class="tri{point % 2}" points="{x - half:.1f},{edge} {x + half:.1f},{edge} '
                     f'{x:.1f},{tip}"/>')
        label_y = edge - 6 if is_top else edge + 14
        label = point if side is None else own_point(point, side, track)
        parts.append(f'<text class="label" x="{x:.1f}" y="{label_y}">{label}</text>')
        count = position.points[point - 1]
        if count:
            parts += _stack(x, edge + (LAMP_R * 2 + 4 if is_top else -(LAMP_R * 2 + 4)), is_top, abs(count),
                            "white" if count > 0 else "black")
        parts.append(_lamp(x, edge + (LAMP_R + 3 if is_top else -(LAMP_R + 3)), plan.point(point),
                           f"point {point}"))
    # The bar: White's checkers wait on the lower half (they enter at 1..6), Black's on the upper.
    white_bar, black_bar = position.bar
    # The centred cube sits between them, and the bar's lamp at the bar's lower end.
    parts += _stack(bar_x, HEIGHT / 2 + 20, True, white_bar, "white")
    parts += _stack(bar_x, HEIGHT / 2 - 20, False, black_bar, "black")
    parts.append(_lamp(bar_x, HEIGHT - LAMP_R - 4, plan["bar"], "bar"))
    tray_x = field_right + TRAY / 2
    for who, y in (("white", FRAME + 40), ("black", HEIGHT - FRAME - 40)):
        off = position.off[0 if who == "white" else 1]
        ink = "#fff"
        parts.append(f'<text class="count" x="{tray_x:.1f}" y="{y + (30 if who == "white" else -22):.1f}" '
                     f'fill="{ink}">{off} off</text>')
        parts.append(_lamp(tray_x, y, plan[f"off-{who}"], f"off {who}"))
    parts.append(_lamp(tray_x, HEIGHT / 2 - 40, plan["turn-white"], "white's turn"))
    parts.append(_lamp(tray_x, HEIGHT / 2 + 40, plan["turn-black"], "black's turn"))
    parts.append(_lamp(tray_x, HEIGHT / 2, plan["status"], "status"))
    if side is not None:
        # Mid-board in the left half: five checkers from either edge stop short of it, and the
        # dice lie in the right half.
        parts.append(f'<text class="numbering" x="{FRAME + 3 * POINT_W:.1f}" y="{HEIGHT / 2 + 4:.1f}">'
                     f"points numbered from {side.label.capitalize()}'s side</text>")
    # Dice lie in the right half of the field, where players throw them.
    for i, (colour, value, cocked) in enumerate(dice):
        parts.append(_die(point_x(21) - 40 + i * 36, HEIGHT / 2, colour, value, cocked))
    if cube is not None:
        value, place = cube
        cube_y = {"center": HEIGHT / 2, "white": FRAME + 30.0, "black": HEIGHT - FRAME - 30.0}[place]
        shown = 64 if value == 1 else value
        parts.append(f'<rect class="cube" x="{bar_x - 16:.1f}" y="{cube_y - 16:.1f}" width="32" '
                     f'height="32" rx="4"/>'
                     f'<text class="cubetext" x="{bar_x:.1f}" y="{cube_y + 6:.1f}">{shown}</text>')
    if caption:
        parts.append(f"<title>{escape(caption)}</title>")
    parts.append("</svg>")
    return "".join(parts)
