"""The board: 24 points, the bar and the checkers borne off, for both sides.

Numbering is the Classic Line rulebook's (ARCHITECTURE.md): White moves from
point 1 to 24 and bears off from 19..24, Black moves from 24 to 1 and bears off
from 1..6.  A point holds a signed count: positive for White, negative for Black.

Two things only some variants use: a *pool* of checkers not yet entered (the
Puff family and Acey Deucey enter every checker by the dice) and *pins* (in
Pin, a checker landing on a lone opponent traps it underneath).  A pinned
checker stands on a point whose signed count shows the checker on top.

Inside the engine, move generation works on a *relative* board seen by the
player to move (gnubg's view): index 1..24 is the mover's own point number
(1 = the point next to bearing off), 25 is the mover's bar, 0 the mover's
checkers off, 26 the opponent's bar, 27 and 28 the two pools, 29 a bit
mask of the own points holding a pinned checker, 30 a bit mask of the points
whose checkers stand stacked in a tower (Doublets), and 31/32 the two sides'
progress counters (Doublets' phase).  Mover checkers count
positive, opponent checkers negative.  ``to_relative``/``from_relative``
convert at that edge, so the rest of the engine never flips numbers by hand.
Which way a player travels is an argument, because variants change it: a
:data:`Track` lists the rulebook point of each own point 1..24.  White's
standard track is :data:`ASCENDING` (own k is rulebook point 25 - k), Black's
:data:`DESCENDING` (own k is point k).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.errors import PositionError
from engine.player import Player

POINTS = 24
CHECKERS = 15

#: Index of the mover's bar, the mover's off tray and the opponent's bar in a relative board.
REL_BAR = 25
REL_OFF = 0
REL_OPP_BAR = 26
REL_POOL = 27
REL_OPP_POOL = 28
REL_PINS = 29
REL_TOWERS = 30
REL_PROGRESS = 31
REL_OPP_PROGRESS = 32

#: Why a board with no checker of either side in play is refused, by position text and Position ID
#: alike: the game ends when the first side is off, so no play or replay can reach it.
BOTH_SIDES_OFF = "both sides have borne off every checker, which no game reaches"

RelativeBoard = tuple[int, ...]
Track = tuple[int, ...]

#: Travelling from point 1 towards 24 (White in the standard game): own k is point 25 - k.
ASCENDING: Track = tuple(range(24, 0, -1))
#: Travelling from point 24 towards 1 (Black in the standard game): own k is point k.
DESCENDING: Track = tuple(range(1, 25))


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable board position.

    ``points[i]`` is rulebook point ``i + 1``.  ``bar``, ``off`` and ``pool``
    are ``(white, black)`` counts; ``pins`` holds the rulebook points where a
    checker of the other colour lies pinned under the one counted in ``points``.

    >>> Position.start().pip_count(Player.WHITE)
    167
    >>> Position.start().at(1), Position.start().at(24)
    (2, -2)
    """

    points: tuple[int, ...]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    pool: tuple[int, int] = (0, 0)
    pins: frozenset[int] = frozenset()
    #: Doublets: points whose checkers stand stacked in a tower.
    towers: frozenset[int] = frozenset()
    #: A per-side counter for variants with phases (Doublets: unstack, restack, bear off).
    progress: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        if len(self.points) != POINTS:
            raise PositionError(f"a position needs {POINTS} points, got {len(self.points)}")
        pairs = (self.bar, self.off, self.pool)
        if any(len(pair) != 2 or min(pair) < 0 for pair in pairs):
            raise PositionError(
                f"bar, off and pool must be two non-negative counts: {self.bar} {self.off} {self.pool}"
            )
        for point in self.pins:
            if not 1 <= point <= POINTS or abs(self.points[point - 1]) != 1:
                raise PositionError(f"a pin needs exactly one checker on top of it, not on point {point}")

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
        pool: tuple[int, int] = (0, 0),
        pins: frozenset[int] = frozenset(),
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
            pinned = [0, 0]
            for point in pins:
                if 1 <= point <= POINTS and board[point - 1]:
                    pinned[1 if board[point - 1] > 0 else 0] += 1
            placed = (
                sum(c for c in board if c > 0) + bar[0] + pool[0] + pinned[0],
                -sum(c for c in board if c < 0) + bar[1] + pool[1] + pinned[1],
            )
            for player in Player:
                if placed[player] > checkers:
                    raise PositionError(
                        f"{player.label} has {placed[player]} checkers on the board and bar, "
                        f"at most {checkers}"
                    )
            off = (checkers - placed[0], checkers - placed[1])
        position = cls(tuple(board), bar, off, pool, frozenset(pins))
        position.validate(checkers)
        return position

    @classmethod
    def _trusted(
        cls,
        points: tuple[int, ...],
        bar: tuple[int, int],
        off: tuple[int, int],
        pool: tuple[int, int] = (0, 0),
        pins: frozenset[int] = frozenset(),
        towers: frozenset[int] = frozenset(),
        progress: tuple[int, int] = (0, 0),
    ) -> Position:
        """Build without checks: only for positions derived from valid ones by legal steps."""
        position = object.__new__(cls)
        object.__setattr__(position, "points", points)
        object.__setattr__(position, "bar", bar)
        object.__setattr__(position, "off", off)
        object.__setattr__(position, "pool", pool)
        object.__setattr__(position, "pins", pins)
        object.__setattr__(position, "towers", towers)
        object.__setattr__(position, "progress", progress)
        return position

    def validate(self, checkers: int = CHECKERS) -> Position:
        """Check each side has exactly ``checkers`` checkers; returns ``self`` for chaining."""
        for player in Player:
            total = self.checkers_on_board(player) + self.bar[player] + self.off[player] + self.pool[player]
            if total != checkers:
                raise PositionError(
                    f"{player.label} has {total} checkers (points, bar, pool and off), expected {checkers}"
                )
        return self

    # -- queries ----------------------------------------------------------------------

    def at(self, point: int) -> int:
        """Signed count on rulebook point ``point`` (1..24)."""
        return self.points[point - 1]

    def count(self, player: Player, point: int) -> int:
        """How many of ``player``'s checkers stand on ``point`` (a pinned one included)."""
        value = self.points[point - 1]
        mine = max(value, 0) if player is Player.WHITE else max(-value, 0)
        if point in self.pins and not mine:
            return 1
        return mine

    def checkers_on_board(self, player: Player) -> int:
        if player is Player.WHITE:
            top = sum(c for c in self.points if c > 0)
        else:
            top = -sum(c for c in self.points if c < 0)
        # A pinned checker is the other colour from the one on top of it.
        pinned = sum(1 for p in self.pins if (self.points[p - 1] > 0) != (player is Player.WHITE))
        return top + pinned

    def in_play(self, player: Player) -> int:
        """Checkers not yet borne off: on the points, on the bar or waiting to enter."""
        return self.checkers_on_board(player) + self.bar[player] + self.pool[player]

    def pip_count(self, player: Player, track: Track | None = None, entry: int = 25) -> int:
        """Pips ``player`` needs to bear everything off along ``track`` (default: the standard
        game's); a checker on the bar or still to enter needs ``entry``."""
        sign = 1 if player is Player.WHITE else -1
        if track is None:
            track = ASCENDING if player is Player.WHITE else DESCENDING
        pips = 0
        for own, point in enumerate(track, 1):
            count = self.points[point - 1] * sign
            if count > 0:
                pips += own * count
            elif count < 0 and point in self.pins:
                pips += own  # ours, pinned under the opponent's
        return pips + entry * (self.bar[player] + self.pool[player])

    def home_points(self, player: Player) -> range:
        """The rulebook points of ``player``'s home board."""
        return range(19, 25) if player is Player.WHITE else range(1, 7)

    def is_over(self) -> bool:
        """True once either side has borne off every checker it has."""
        return any(self.in_play(p) == 0 for p in Player)

    def winner(self) -> Player | None:
        for player in Player:
            if self.in_play(player) == 0:
                return player
        return None

    def swap_colours(self) -> Position:
        """The same layout with White and Black exchanged and the board turned round."""
        return Position(
            tuple(-c for c in reversed(self.points)),
            (self.bar[1], self.bar[0]),
            (self.off[1], self.off[0]),
            (self.pool[1], self.pool[0]),
            frozenset(25 - p for p in self.pins),
        )

    # -- relative boards (the engine's internal view) -----------------------------------

    def to_relative(
        self, mover: Player, track: Track | None = None, *, compact: bool = False
    ) -> RelativeBoard:
        """The 33-slot board seen by ``mover`` (see the module docstring), along ``track``
        (default: the standard game's, White ascending and Black descending).

        ``compact`` stops after the opponent's bar (27 slots) when no pool, pin, tower or
        progress is set: the standard generator copies boards thousands of times a roll.
        """
        opponent = mover.opponent
        if track is None:
            track = ASCENDING if mover is Player.WHITE else DESCENDING
        if track is ASCENDING or track == ASCENDING:
            body = self.points[::-1]
        elif track is DESCENDING or track == DESCENDING:
            body = self.points
        else:
            body = tuple(self.points[point - 1] for point in track)
        if mover is Player.BLACK:
            body = tuple(-c for c in body)
        if compact and not (self.pins or self.towers or any(self.pool) or any(self.progress)):
            return (self.off[mover], *body, self.bar[mover], self.bar[opponent])
        pins = towers = 0
        if self.pins or self.towers:
            for point in self.pins:
                pins |= 1 << (track.index(point) + 1)
            for point in self.towers:
                towers |= 1 << (track.index(point) + 1)
        return (
            self.off[mover], *body, self.bar[mover], self.bar[opponent],
            self.pool[mover], self.pool[opponent], pins, towers,
            self.progress[mover], self.progress[opponent],
        )

    @classmethod
    def from_relative(
        cls, board: RelativeBoard, mover: Player, opponent_off: int, track: Track | None = None
    ) -> Position:
        """Inverse of :meth:`to_relative`; trusts ``board`` (it came from a valid one)."""
        if track is None:
            track = ASCENDING if mover is Player.WHITE else DESCENDING
        if track == ASCENDING:
            body = board[24:0:-1]
        elif track == DESCENDING:
            body = board[1:25]
        else:
            cells = [0] * POINTS
            for own, point in enumerate(track, 1):
                cells[point - 1] = board[own]
            body = tuple(cells)
        points = body if mover is Player.WHITE else tuple(-c for c in body)
        off, bar = (board[REL_OFF], opponent_off), (board[REL_BAR], board[REL_OPP_BAR])
        if len(board) == REL_POOL:  # a compact board: nothing past the bars
            if mover is Player.BLACK:
                off, bar = (off[1], off[0]), (bar[1], bar[0])
            return cls._trusted(points, bar, off)
        pins: frozenset[int] = frozenset()
        towers: frozenset[int] = frozenset()
        if board[REL_PINS]:
            pins = frozenset(track[p - 1] for p in range(1, 25) if board[REL_PINS] >> p & 1)
        if board[REL_TOWERS]:
            towers = frozenset(track[p - 1] for p in range(1, 25) if board[REL_TOWERS] >> p & 1)
        pool = (board[REL_POOL], board[REL_OPP_POOL])
        progress = (board[REL_PROGRESS], board[REL_OPP_PROGRESS])
        if mover is Player.BLACK:
            off, bar, pool = (off[1], off[0]), (bar[1], bar[0]), (pool[1], pool[0])
            progress = (progress[1], progress[0])
        return cls._trusted(points, bar, off, pool, pins, towers, progress)

    # -- text forms -------------------------------------------------------------------

    def to_text(self) -> str:
        """The project's own readable form; :meth:`from_text` reads it back.

        >>> Position.start().to_text()
        'W 1:2 12:5 17:3 19:5 | B 24:2 13:5 8:3 6:5'
        """
        parts = []
        for player, order in ((Player.WHITE, range(1, 25)), (Player.BLACK, range(24, 0, -1))):
            tokens = [player.name[0]]
            sign = 1 if player is Player.WHITE else -1
            tokens += [f"{p}:{self.points[p - 1] * sign}" for p in order if self.points[p - 1] * sign > 0]
            tokens += [f"pin:{p}" for p in order if p in self.pins and self.points[p - 1] * sign < 0]
            tokens += [f"tower:{p}" for p in order if p in self.towers and self.points[p - 1] * sign > 0]
            if self.progress[player]:
                tokens.append(f"phase:{self.progress[player]}")
            for name, pair in (("bar", self.bar), ("pool", self.pool), ("off", self.off)):
                if pair[player]:
                    tokens.append(f"{name}:{pair[player]}")
            parts.append(" ".join(tokens))
        return " | ".join(parts)

    @classmethod
    def from_text(cls, text: str, checkers: int = CHECKERS) -> Position:
        """Parse :meth:`to_text`'s form.  Checkers not placed are taken to be off.

        ``pool:n`` counts checkers waiting to enter; ``pin:p``, in a player's list,
        is that player's checker pinned on point ``p`` under an opposing one.

        >>> Position.from_text("W 19:15 | B 6:14 bar:1").bar
        (0, 1)
        """
        sides = text.split("|")
        if len(sides) == 1:
            # One side alone is the likeliest slip (a side with every checker off still needs its
            # letter), so name the side that is missing rather than only the form.
            first = sides[0].split(maxsplit=1)[:1]
            missing = {"W": "B", "WHITE": "B", "B": "W", "BLACK": "W"}.get(first[0].upper() if first else "")
            part = f"no '| {missing} ...' part" if missing else "no '|' between the sides"
            raise PositionError(
                f"position text {text!r} has {part}: it needs both sides, 'W ... | B ...' "
                f"(a side with every checker off is the letter alone, as in 'W 19:2 | B')"
            )
        if len(sides) != 2:
            raise PositionError(f"position text needs 'W ... | B ...' with one '|', got {text!r}")
        board: dict[int, int] = {}
        bar = [0, 0]
        pool = [0, 0]
        pins: dict[int, Player] = {}
        towers: dict[int, Player] = {}
        progress = [0, 0]
        off: list[int | None] = [None, None]
        placed = [0, 0]
        seen = set()
        for side in sides:
            # ASCII whitespace only: str.split() would also split on a no-break or ideographic
            # space, so a token could hide one.
            tokens = [token for token in _SPACE.split(side) if token]
            if not tokens or tokens[0].upper() not in ("W", "B", "WHITE", "BLACK"):
                raise PositionError(f"each side must start with W or B: {side.strip(' ')!r}")
            player = Player.WHITE if tokens[0].upper().startswith("W") else Player.BLACK
            if player in seen:
                raise PositionError(f"{player.label} is given twice in {text!r}")
            seen.add(player)
            sign = 1 if player is Player.WHITE else -1
            named: dict[str, str] = {}
            for token in tokens[1:]:
                match = _TOKEN.fullmatch(token.lower())
                if not match:
                    raise PositionError(f"bad token {token!r} in {text!r} (expected POINT:COUNT)")
                where, count = match.group(1), int(match.group(2))
                # A repeat would be added (points) or would replace the first (bar, off, ...):
                # neither reading is sure to be what was meant.
                key = f"point {int(where)}" if where.isdigit() else where
                if where in ("pin", "tower"):
                    key = f"{where}:{count}"
                if key in named:
                    raise PositionError(
                        f"{player.label} names {key} twice ({named[key]!r} and {token!r}) in {text!r}"
                    )
                named[key] = token
                if where == "bar":
                    bar[player] = count
                elif where == "pool":
                    pool[player] = count
                elif where == "pin":
                    pins[count] = player
                elif where == "tower":
                    towers[count] = player
                elif where == "phase":
                    progress[player] = count
                elif where == "off":
                    off[player] = count
                else:
                    point = int(where)
                    if not 1 <= point <= POINTS:
                        raise PositionError(f"point {point} is outside 1..{POINTS}: {token!r} in {text!r}")
                    if not count:
                        raise PositionError(f"{token!r} puts no checker on point {point} in {text!r}")
                    if board.get(point, 0) * sign < 0:
                        raise PositionError(f"point {point} has both colours: {token!r} in {text!r}")
                    board[point] = sign * count
                if where in ("bar", "pool", "pin") or where.isdigit():
                    placed[player] += 1 if where == "pin" else count
                    if placed[player] > checkers:
                        raise PositionError(
                            f"{player.label} has {placed[player]} checkers on the board, bar and pool "
                            f"by {token!r}, at most {checkers}, in {text!r}"
                        )
        for point, player in pins.items():
            if not 1 <= point <= POINTS or board.get(point, 0) != (-1 if player is Player.WHITE else 1):
                raise PositionError(
                    f"pin:{point} needs one {player.opponent.label} checker on top of "
                    f"{player.label}'s, in {text!r}"
                )
        for point, player in towers.items():
            if not 1 <= point <= POINTS or board.get(point, 0) * (1 if player is Player.WHITE else -1) <= 0:
                raise PositionError(
                    f"tower:{point} needs {player.label} checkers on point {point}, in {text!r}"
                )
        if not any(placed):
            raise PositionError(f"{BOTH_SIDES_OFF}: {text!r}")
        position = cls.from_points(
            board, bar=(bar[0], bar[1]), pool=(pool[0], pool[1]), pins=frozenset(pins), checkers=checkers
        )
        if towers or any(progress):
            position = replace(position, towers=frozenset(towers), progress=(progress[0], progress[1]))
        for player in Player:
            given = off[player]
            if given is not None and given != position.off[player]:
                raise PositionError(
                    f"{player.label} off:{given} does not make {checkers} checkers "
                    f"(the board implies off:{position.off[player]})"
                )
        return position

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


# [0-9], not \d: \d and int() also take other scripts' digits ("１:2" read as 1:2).
_TOKEN = re.compile(r"(bar|off|pool|pin|tower|phase|[0-9]{1,2}):([0-9]{1,2})")
_SPACE = re.compile(r"[ \t\n\r\f\v]+")

_START = Position.from_points({1: 2, 12: 5, 17: 3, 19: 5, 24: -2, 13: -5, 8: -3, 6: -5})
