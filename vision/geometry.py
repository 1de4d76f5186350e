"""The board seen straight from above: where every point, the bar and the trays lie.

Everything in vision/ that needs a layout works in this *canonical* view: the
playing area (bar included) as an upright rectangle, 12 point columns and the
bar column across, with the rulebook's corner convention (CONTRACT.md, corners
mode): points 1..12 along the bottom edge from right to left, 13..24 along the
top edge from left to right, the bar in the middle.  A calibration maps camera
pixels to this view with one homography.

>>> g = BoardGeometry()
>>> g.column(1), g.column(12), g.column(13), g.column(24)
(11, 0, 0, 11)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Sizes in canonical pixels.  A point column is ``point_width`` wide; its triangle reaches
    ``point_depth`` in from the edge.  The checkers are ``checker`` across and stand in a row
    from the edge: the canonical board's (92 across) fill a triangle five to a row, a board
    whose checkers are smaller (`BoardGeometry.sized`) has its rows end short of the tips."""

    point_width: float = 100.0
    bar_width: float = 100.0
    checker: float = 92.0
    gap: float = 100.0
    point_depth: float = 460.0

    def sized(self, checker: float) -> BoardGeometry:
        """The same board with checkers ``checker`` across (canonical px)."""
        return replace(self, checker=checker)

    @property
    def die(self) -> float:
        """A Classic Line die's side: 0.45 of the diameter of a checker that fills a fifth of a
        triangle (the set's extra-large checkers), whatever this board's checkers measure."""
        return 0.09 * self.point_depth

    def die_pixels(self, corners: FloatArray) -> tuple[float, float]:
        """The smallest and the mean die side in frame pixels, for a playing area whose frame
        corners are ``corners`` (TL, TR, BR, BL): each edge's frame px per canonical px.  The
        smallest is at the far edge of a tilted view."""
        tl, tr, br, bl = np.asarray(corners, np.float64)
        scales = [float(np.linalg.norm(tr - tl)) / self.width, float(np.linalg.norm(br - bl)) / self.width,
                  float(np.linalg.norm(bl - tl)) / self.height, float(np.linalg.norm(br - tr)) / self.height]
        return min(scales) * self.die, sum(scales) / 4 * self.die

    @property
    def width(self) -> float:
        return 12 * self.point_width + self.bar_width

    @property
    def height(self) -> float:
        return 2 * self.point_depth + self.gap

    @property
    def size(self) -> tuple[int, int]:
        """``(width, height)`` of the canonical image, in whole pixels."""
        return round(self.width), round(self.height)

    def corners(self) -> FloatArray:
        """The playing area's corners TL, TR, BR, BL (the order CONTRACT.md uses)."""
        return np.array(
            [[0.0, 0.0], [self.width, 0.0], [self.width, self.height], [0.0, self.height]]
        )

    @staticmethod
    def column(point: int) -> int:
        """Column 0..11 from the left: bottom row 12..1, top row 13..24."""
        if point <= 12:
            return 12 - point
        return point - 13

    @staticmethod
    def is_top(point: int) -> bool:
        return point >= 13

    @staticmethod
    def parity(point: int) -> int:
        """Which of the two triangle colours a point has (neighbours and opposites differ)."""
        return (BoardGeometry.column(point) + BoardGeometry.is_top(point)) % 2

    def column_x(self, column: int) -> float:
        """The x of a column's centre (the bar sits between columns 5 and 6)."""
        x = (column + 0.5) * self.point_width
        return x + self.bar_width if column >= 6 else x

    def slot_centre(self, point: int, slot: int) -> tuple[float, float]:
        """Centre of the ``slot``-th checker (0 at the edge) on ``point``."""
        x = self.column_x(self.column(point))
        offset = (slot + 0.5) * self.checker
        return (x, offset) if self.is_top(point) else (x, self.height - offset)

    def triangle(self, point: int) -> FloatArray:
        """The point's triangle: base on the edge, tip towards the middle."""
        x = self.column_x(self.column(point))
        half = self.point_width / 2
        if self.is_top(point):
            return np.array([[x - half, 0.0], [x + half, 0.0], [x, self.point_depth]])
        bottom = self.height
        return np.array([[x - half, bottom], [x + half, bottom], [x, bottom - self.point_depth]])

    def bar_box(self) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)`` of the bar column."""
        x0 = 6 * self.point_width
        return (x0, 0.0, x0 + self.bar_width, self.height)

    def bar_slot(self, top_half: bool, slot: int) -> tuple[float, float]:
        """Checkers on the bar stand in the bar column, from the middle outwards."""
        x = 6 * self.point_width + self.bar_width / 2
        offset = self.gap / 2 + (slot + 0.5) * self.checker
        middle = self.height / 2
        return (x, middle - offset) if top_half else (x, middle + offset)
