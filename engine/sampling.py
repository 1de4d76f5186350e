"""Random but valid positions for cross-checks, property tests and benchmarks.

Pure: the caller passes a seeded :class:`random.Random`.
"""

from __future__ import annotations

import random
from enum import Enum

from engine.dice import Roll
from engine.player import Player
from engine.position import CHECKERS, Position
from engine.step import board_point


class Kind(Enum):
    """The families of positions the legal-play generator must get right."""

    MIDGAME = "midgame"
    BAR = "bar"
    BEAROFF = "bearoff"
    CONTACT_BEAROFF = "contact-bearoff"


def random_position(rng: random.Random, kind: Kind, mover: Player = Player.WHITE) -> Position:
    """A valid position of ``kind`` in which ``mover`` is to play and nobody has won yet."""
    while True:
        position = _attempt(rng, kind, mover)
        if position is not None and not position.is_over():
            return position


def random_roll(rng: random.Random, doubles: float | None = None) -> Roll:
    """A fair roll, or with ``doubles`` the chance of a double forced to that fraction."""
    if doubles is not None:
        if rng.random() < doubles:
            die = rng.randint(1, 6)
            return Roll(die, die)
        high = rng.randint(2, 6)
        return Roll(high, rng.randint(1, high - 1))
    return Roll(rng.randint(1, 6), rng.randint(1, 6))


def _attempt(rng: random.Random, kind: Kind, mover: Player) -> Position | None:
    opponent = mover.opponent
    board = [0] * 24
    bar = [0, 0]
    off = [0, 0]

    def place(player: Player, own_points: list[int], count: int) -> bool:
        sign = 1 if player is Player.WHITE else -1
        for _ in range(count):
            free = [p for p in own_points if board[board_point(p, player) - 1] * sign >= 0]
            if not free:
                return False
            point = board_point(rng.choice(free), player)
            board[point - 1] += sign
        return True

    if kind is Kind.MIDGAME:
        for player in (mover, opponent):
            bar[player] = rng.choice((0, 0, 0, 0, 1, 2))
            off[player] = rng.choice((0, 0, 0, 0, 1, 3))
            spread = rng.sample(range(1, 25), rng.randint(3, 9))
            if not place(player, spread, CHECKERS - bar[player] - off[player]):
                return None
    elif kind is Kind.BAR:
        bar[mover] = rng.randint(1, 4)
        # The opponent builds points in the mover's entry zone (the opponent's home).
        made = rng.sample(range(1, 7), rng.randint(1, 6))
        for point in made:
            board[board_point(point, opponent) - 1] = 2 if opponent is Player.WHITE else -2
        used = 2 * len(made)
        bar[opponent] = rng.choice((0, 0, 1))
        rest = CHECKERS - used - bar[opponent]
        if rest < 0 or not place(opponent, rng.sample(range(1, 25), 5), rest):
            return None
        off[mover] = rng.choice((0, 0, 2))
        if not place(mover, rng.sample(range(1, 25), 6), CHECKERS - bar[mover] - off[mover]):
            return None
    else:
        off[mover] = rng.randint(0, 13)
        if kind is Kind.CONTACT_BEAROFF and rng.random() < 0.3:
            bar[mover] = 1  # a hit checker must come home before bearing off resumes
        on_board = CHECKERS - off[mover] - bar[mover]
        home = rng.sample(range(1, 7), rng.randint(1, 6))
        if kind is Kind.CONTACT_BEAROFF:
            # Opponent blots and points inside the mover's home board.
            for point in rng.sample(range(1, 7), rng.randint(1, 3)):
                board[board_point(point, mover) - 1] = rng.choice((1, 1, 2)) * (
                    1 if opponent is Player.WHITE else -1
                )
        if not place(mover, home, on_board):
            return None
        used = sum(abs(c) for c in board if (c > 0) == (opponent is Player.WHITE) and c != 0)
        off[opponent] = rng.randint(0, 5)
        rest = CHECKERS - used - off[opponent]
        if rest < 1 or not place(opponent, rng.sample(range(1, 25), 6), rest):
            return None
    position = Position(tuple(board), (bar[0], bar[1]), (off[0], off[1]))
    try:
        return position.validate()
    except ValueError:
        return None
