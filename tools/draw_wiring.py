"""Draw docs/hardware-wiring.svg: the Pi, the 74HC595 chain, the buttons and the buzzer.

Run ``python tools/draw_wiring.py`` after changing the default pin map; the pins come
from `hardware.pins.DEFAULT_PIN_MAP`, so the picture cannot drift from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.lights import LAMPS
from hardware.pins import DEFAULT_PIN_MAP

OUT = Path(__file__).parents[1] / "docs" / "hardware-wiring.svg"


def box(x: int, y: int, w: int, h: int, title: str, fill: str) -> str:
    return (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{fill}" stroke="#333"/>'
            f'<text x="{x + w / 2}" y="{y + 18}" text-anchor="middle" font-weight="bold" font-size="13">'
            f'{title}</text>')


def note(x: int, y: int, text: str, size: int = 11) -> str:
    return f'<text x="{x}" y="{y}" text-anchor="middle" font-size="{size}">{text}</text>'


def wire(points: list[tuple[int, int]], colour: str, label: str = "") -> str:
    path = " ".join(f"{x},{y}" for x, y in points)
    text = ""
    if label:
        (x0, y0), (x1, _) = points[0], points[1]
        text = f'<text x="{(x0 + x1) / 2}" y="{y0 - 4}" text-anchor="middle" font-size="11">{label}</text>'
    return f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>{text}'


def draw() -> str:
    pins = DEFAULT_PIN_MAP
    parts = [box(20, 40, 170, 330, "Raspberry Pi 4 / 5", "#cfe8cf")]
    # The Pi's pins used, one per row.
    rows = [("GPIO 10 MOSI", "#1f77b4"), ("GPIO 11 SCLK", "#ff7f0e"), ("GPIO 8 CE0", "#2ca02c"),
            (f"GPIO {pins.output_enable} /OE (PWM)", "#9467bd")]
    rows += [(f"GPIO {pin} {name}", "#8c564b") for name, pin in pins.buttons]
    rows += [(f"GPIO {pins.buzzer} buzzer (PWM)", "#d62728"), ("5V, 3V3, GND", "#555")]
    for i, (label, _) in enumerate(rows):
        parts.append(f'<text x="30" y="{75 + 30 * i}" font-size="12">{label}</text>')
    # Four chips.
    for chip in range(4):
        x = 300 + chip * 165
        first, last = LAMPS[chip * 8], LAMPS[min(chip * 8 + 7, len(LAMPS) - 1)]
        parts.append(box(x, 40, 120, 120, f"74HC595 #{chip}", "#e8e0f0"))
        parts.append(f'<text x="{x + 60}" y="80" text-anchor="middle" font-size="11">QA {first}</text>')
        parts.append(f'<text x="{x + 60}" y="98" text-anchor="middle" font-size="11">…</text>')
        parts.append(f'<text x="{x + 60}" y="116" text-anchor="middle" font-size="11">'
                     f'{"QF" if chip == 3 else "QH"} {last}</text>')
        parts.append(f'<text x="{x + 60}" y="150" text-anchor="middle" font-size="10">8 × LED + 470 Ω</text>')
        if chip < 3:
            parts.append(wire([(x + 120, 60), (x + 165, 60)], "#1f77b4"))
            parts.append(note(x + 142, 76, "QH′→", 9))
            parts.append(note(x + 142, 87, "SER", 9))
    parts.append(wire([(190, 71), (300, 71)], "#1f77b4", "SER"))
    parts.append(wire([(190, 101), (260, 101), (260, 175), (895, 175), (895, 160)], "#ff7f0e"))
    parts.append(note(580, 190, "SRCLK to every chip"))
    parts.append(wire([(190, 131), (250, 131), (250, 205), (903, 205), (903, 160)], "#2ca02c"))
    parts.append(note(580, 220, "RCLK (latch) to every chip"))
    parts.append(wire([(190, 161), (240, 161), (240, 235), (911, 235), (911, 160)], "#9467bd"))
    parts.append(note(580, 250, "/OE to every chip (10 kΩ pull-up to 5 V)"))
    # Buttons and buzzer.
    for i, (name, _) in enumerate(pins.buttons):
        y = 191 + 30 * i
        parts.append(wire([(190, y), (330 + 10 * i, y), (330 + 10 * i, 300 + 22 * i), (420, 300 + 22 * i)],
                          "#8c564b"))
        parts.append(f'<text x="425" y="{304 + 22 * i}" font-size="12">button “{name}” to GND</text>')
    y = 75 + 30 * (4 + len(pins.buttons))
    parts.append(wire([(190, y - 4), (300, y - 4), (300, 372), (620, 372)], "#d62728"))
    parts.append('<text x="625" y="376" font-size="12">'
                 'NPN (1 kΩ base) → passive buzzer → 5 V, flyback diode</text>')
    body = "\n".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="400" font-family="sans-serif">\n'
            f'<rect width="1000" height="400" fill="white"/>\n{body}\n</svg>\n')


def main() -> int:
    OUT.write_text(draw())
    print(f"wrote {OUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
