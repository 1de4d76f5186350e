"""The board: 24 points, the bar and the checkers borne off, for both sides.

Numbering is the Classic Line rulebook's (ARCHITECTURE.md): White moves from
point 1 to 24 and bears off from 19..24, Black moves from 24 to 1 and bears off
from 1..6.  A point holds a signed count: positive for White, negative for Black.

Inside the engine, move generation works on a *relative* board seen by the
player to move (gnubg's view): index 1..24 is the mover's own point number
(1 = the point next to bearing off), 25 is the mover's bar, 0 the mover's
checkers off, and 26 the opponent's bar.  Mover checkers count positive,
opponent checkers negative.  ``to_relative``/``from_relative`` convert at that
edge, so the rest of the engine never flips numbers by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import PositionError
from engine.player import Player

POINTS = 24
CHECKERS = 15

#: Index of the mover's bar, the mover's off tray and the opponent's bar in a relative board.
REL_BAR = 25
REL_OFF = 0
REL_OPP_BAR = 26

RelativeBoard = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable board position.

    ``points[i]`` is rulebook point ``i + 1``.  ``bar`` and ``off`` are
    ``(white, black)`` counts.

    >>> Position.start().pip_count(Player.WHITE)
    167
    >>> Position.start().at(1), Position.start().at(24)
    (2, -2)
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if len(self.points) != POINTS:
            raise PositionError(f"a position needs {POINTS} points, got {len(self.points)}")
        if len(self.bar) != 2 or len(self.off) != 2 or min(*self.bar, *self.off) < 0:
            raise PositionError(f"bar and off must be two non-negative counts: {self.bar} {self.off}")

    # -- construction -----------------------------------------------------------------

    @classmethod
    def start(cls) -> Position:
        """The standard starting position (White 2 on 1, 5 on 12, 3 on 17, 5 on 19)."""
        return _START

    @classmethod
    def from_points(
        cls,
        points: dict[int, int],
        *,
        bar: tuple[int, int] = (0, 0),
        off: tuple[int, int] | None = None,
        checkers: int = CHECKERS,
    ) -> Position:
        """Build from ``{point: signed count}``; the checkers off default to what makes 15.

        >>> Position.from_points({19: 15, 6: -15}).off
        (0, 0)
        >>> Position.from_points({24: 1, 1: -2}).off
        (14, 13)
        """
        board = [0] * POINTS
        for point, count in points.items():
            if not 1 <= point <= POINTS:
                raise PositionError(f"point {point} is outside 1..{POINTS}")
            board[point - 1] = count
        if off is None:
            placed = (sum(c for c in board if c > 0) + bar[0], -sum(c for c in board if c < 0) + bar[1])
            for player in Player:
                if placed[player] > checkers:
                    raise PositionError(
                        f"{player.label} has {placed[player]} checkers on the board and bar, "
                        f"at most {checkers}"
                    )
            off = (checkers - placed[0], checkers - placed[1])
        position = cls(tuple(board), bar, off)
        position.validate(checkers)
        return position

    @classmethod
    def _trusted(cls, points: tuple[int, ...], bar: tuple[int, int], off: tuple[int, int]) -> Position:
        """Build without checks: only for positions derived from valid ones by legal steps."""
        position = object.__new__(cls)
        object.__setattr__(position, "points", points)
        object.__setattr__(position, "bar", bar)
        object.__setattr__(position, "off", off)
        return position

    def validate(self, checkers: int = CHECKERS) -> Position:
        """Check each side has exactly ``checkers`` checkers; returns ``self`` for chaining."""
        for player in Player:
            total = self.checkers_on_board(player) + self.bar[player] + self.off[player]
            if total != checkers:
                raise PositionError(
                    f"{player.label} has {total} checkers (points, bar and off), expected {checkers}"
                )
        return self

    # -- queries ----------------------------------------------------------------------

    def at(self, point: int) -> int:
        """Signed count on rulebook point ``point`` (1..24)."""
        return self.points[point - 1]

    def count(self, player: Player, point: int) -> int:
        """How many of ``player``'s checkers stand on ``point``."""
        value = self.points[point - 1]
        return max(value, 0) if player is Player.WHITE else max(-value, 0)

    def checkers_on_board(self, player: Player) -> int:
        if player is Player.WHITE:
            return sum(c for c in self.points if c > 0)
        return -sum(c for c in self.points if c < 0)

    def pip_count(self, player: Player) -> int:
        """Pips ``player`` needs to bear everything off (a checker on the bar needs 25)."""
        if player is Player.WHITE:
            pips = sum((25 - p) * c for p, c in enumerate(self.points, 1) if c > 0)
        else:
            pips = sum(p * -c for p, c in enumerate(self.points, 1) if c < 0)
        return pips + 25 * self.bar[player]

    def home_points(self, player: Player) -> range:
        """The rulebook points of ``player``'s home board."""
        return range(19, 25) if player is Player.WHITE else range(1, 7)

    def is_over(self) -> bool:
        """True once either side has borne off every checker it has."""
        return any(self.checkers_on_board(p) + self.bar[p] == 0 for p in Player)

    def winner(self) -> Player | None:
        for player in Player:
            if self.checkers_on_board(player) + self.bar[player] == 0:
                return player
        return None

    def swap_colours(self) -> Position:
        """The same layout with White and Black exchanged and the board turned round."""
        return Position(
            tuple(-c for c in reversed(self.points)),
            (self.bar[1], self.bar[0]),
            (self.off[1], self.off[0]),
        )

    # -- relative boards (the engine's internal view) -----------------------------------

    def to_relative(self, mover: Player) -> RelativeBoard:
        """The 27-slot board seen by ``mover`` (see the module docstring)."""
        opponent = mover.opponent
        # White's own point k is rulebook point 25 - k; Black's is k, with the signs flipped.
        body = self.points[::-1] if mover is Player.WHITE else tuple(-c for c in self.points)
        return (self.off[mover], *body, self.bar[mover], self.bar[opponent])

    @classmethod
    def from_relative(cls, board: RelativeBoard, mover: Player, opponent_off: int) -> Position:
        """Inverse of :meth:`to_relative`; trusts ``board`` (it came from a valid one)."""
        if mover is Player.WHITE:
            points = board[24:0:-1]
            return cls._trusted(points, (board[REL_BAR], board[REL_OPP_BAR]), (board[REL_OFF], opponent_off))
        points = tuple(-c for c in board[1:25])
        return cls._trusted(points, (board[REL_OPP_BAR], board[REL_BAR]), (opponent_off, board[REL_OFF]))

    # -- text forms -------------------------------------------------------------------

    def to_text(self) -> str:
        """The project's own readable form; :meth:`from_text` reads it back.

        >>> Position.start().to_text()
        'W 1:2 12:5 17:3 19:5 | B 24:2 13:5 8:3 6:5'
        """
        parts = []
        for player, order in ((Player.WHITE, range(1, 25)), (Player.BLACK, range(24, 0, -1))):
            tokens = [player.name[0]]
            tokens += [f"{p}:{self.count(player, p)}" for p in order if self.count(player, p)]
            if self.bar[player]:
                tokens.append(f"bar:{self.bar[player]}")
            if self.off[player]:
                tokens.append(f"off:{self.off[player]}")
            parts.append(" ".join(tokens))
        return " | ".join(parts)

    @classmethod
    def from_text(cls, text: str, checkers: int = CHECKERS) -> Position:
        """Parse :meth:`to_text`'s form.  Checkers not placed are taken to be off.

        >>> Position.from_text("W 19:15 | B 6:14 bar:1").bar
        (0, 1)
        """
        sides = [s.strip() for s in text.split("|")]
        if len(sides) != 2:
            raise PositionError(f"position text needs 'W ... | B ...', got {text!r}")
        board: dict[int, int] = {}
        bar = [0, 0]
        off: list[int | None] = [None, None]
        seen = set()
        for side in sides:
            tokens = side.split()
            if not tokens or tokens[0].upper() not in ("W", "B", "WHITE", "BLACK"):
                raise PositionError(f"each side must start with W or B: {side!r}")
            player = Player.WHITE if tokens[0].upper().startswith("W") else Player.BLACK
            if player in seen:
                raise PositionError(f"{player.label} is given twice in {text!r}")
            seen.add(player)
            sign = 1 if player is Player.WHITE else -1
            for token in tokens[1:]:
                match = _TOKEN.fullmatch(token.lower())
                if not match:
                    raise PositionError(f"bad token {token!r} in {text!r} (expected POINT:COUNT)")
                where, count = match.group(1), int(match.group(2))
                if where == "bar":
                    bar[player] = count
                elif where == "off":
                    off[player] = count
                else:
                    point = int(where)
                    if not 1 <= point <= POINTS:
                        raise PositionError(f"point {point} is outside 1..{POINTS} in {text!r}")
                    if board.get(point, 0) * sign < 0:
                        raise PositionError(f"point {point} has both colours in {text!r}")
                    board[point] = board.get(point, 0) + sign * count
        placed = cls.from_points(board, bar=(bar[0], bar[1]), checkers=checkers)
        for player in Player:
            given = off[player]
            if given is not None and given != placed.off[player]:
                raise PositionError(
                    f"{player.label} off:{given} does not make {checkers} checkers "
                    f"(the board implies off:{placed.off[player]})"
                )
        return placed

    def diagram(self) -> str:
        """A text picture: points 13..24 along the top, 12..1 along the bottom.

        >>> print(Position.start().diagram().splitlines()[1])
         5B  .  .  . 3W  . |   | 5W  .  .  .  . 2B
        """
        def cell(count: int) -> str:
            return "  ." if count == 0 else f"{abs(count):>2}{'W' if count > 0 else 'B'}"

        def row(points: list[int]) -> str:
            return "".join(cell(self.at(p)) for p in points[:6]) + " |   |" + "".join(
                cell(self.at(p)) for p in points[6:]
            )

        def numbers(points: list[int]) -> str:
            return "".join(f"{p:>3}" for p in points[:6]) + " |BAR|" + "".join(f"{p:>3}" for p in points[6:])

        top, bottom = list(range(13, 25)), list(range(12, 0, -1))
        return "\n".join(
            [
                numbers(top),
                row(top),
                row(bottom),
                numbers(bottom),
                f"bar W:{self.bar[0]} B:{self.bar[1]}   off W:{self.off[0]} B:{self.off[1]}",
            ]
        )

    def __str__(self) -> str:
        return self.to_text()


_TOKEN = re.compile(r"(bar|off|\d{1,2}):(\d{1,2})")

_START = Position.from_points({1: 2, 12: 5, 17: 3, 19: 5, 24: -2, 13: -5, 8: -3, 6: -5})
