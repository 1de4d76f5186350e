"""Time pipgammon's legal-play generator against OpenSpiel's C++ backgammon, side by side.

    python bench/legal_plays.py [--games 80] [--seed 1] [--repeat 3]

Positions come from random OpenSpiel games (its state cannot be set to an
arbitrary board), so both generators see exactly the same positions.  Each
position is timed ``--repeat`` times per generator and the fastest run is
kept; the figures are the median and p99 of those per-position times, by
family: mid-game, bar (the mover has a checker on the bar), bear-off (every
checker home) and doubles (any position with a double roll).

OpenSpiel (``pip install open-spiel``) is the speed anchor.  Without it the
script still times pipgammon on positions from pipgammon's own sampler.
Caveat printed with the figures: for a double, OpenSpiel's ``legal_actions``
covers only the first two of the four moves (it splits a double into two
decisions), while pipgammon lists every distinct four-move play; the row
``doubles-whole`` times OpenSpiel over both halves of the turn instead.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.dice import Roll
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import Position
from engine.sampling import Kind, random_position, random_roll

FAMILIES = ("mid-game", "bar", "bear-off", "doubles")


def family(position: Position, mover: Player, roll: Roll) -> str:
    if roll.is_double:
        return "doubles"
    if position.bar[mover]:
        return "bar"
    home = position.home_points(mover)
    if all(position.count(mover, p) == 0 for p in range(1, 25) if p not in home):
        return "bear-off"
    return "mid-game"


def best_of(repeat: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def openspiel_cases(games: int, seed: int) -> list[tuple[Position, Player, Roll, Any]]:
    """Every decision point of ``games`` random OpenSpiel games, with our own Position for it."""
    import pyspiel

    game = pyspiel.load_game("backgammon")
    rng = random.Random(seed)
    cases = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcome, _ = rng.choice(state.chance_outcomes())
                state.apply_action(outcome)
                continue
            text = state.to_string()
            fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
            dice = fields["Dice"].strip()
            # OpenSpiel's player 0 ('x') is White in the rulebook numbering: board(0, i) is point i+1.
            mover = Player(state.current_player())
            points = tuple(state.board(0, i) - state.board(1, i) for i in range(24))
            bar_text = fields["Bar"]
            bar = (bar_text.count("x"), bar_text.count("o"))
            scores = fields["Scores, X"].split(",")
            off = (int(scores[0]), int(scores[1].split(":")[1]))
            position = Position(points, bar, off).validate()
            is_second_half = fields["Extra turn"].strip() != "0" or len(dice) != 2
            if len(dice) == 2 and not is_second_half:
                cases.append((position, mover, Roll(int(dice[0]), int(dice[1])), state.clone()))
            state.apply_action(rng.choice(state.legal_actions()))
    return cases


def openspiel_whole_turn(state: Any) -> int:
    """Every two-move action of a double's first half, then each one's second half."""
    total = 0
    for action in state.legal_actions():
        child = state.child(action)
        total += len(child.legal_actions()) if child.is_player_node() else 1
    return total


def sampled_cases(count: int, seed: int) -> list[tuple[Position, Player, Roll, Any]]:
    rng = random.Random(seed)
    cases = []
    for index in range(count):
        kind = list(Kind)[index % len(Kind)]
        mover = Player(index % 2)
        cases.append((random_position(rng, kind, mover), mover, random_roll(rng, doubles=0.25), None))
    return cases


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def summarise(times: list[float]) -> tuple[float, float, float]:
    """Median, p99 and worst, in milliseconds."""
    return statistics.median(times) * 1e3, p99(times) * 1e3, max(times) * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=80, help="random OpenSpiel games to sample")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="timings per position (fastest kept)")
    args = parser.parse_args(argv)

    try:
        cases = openspiel_cases(args.games, args.seed)
        anchor = True
        source = f"{args.games} random OpenSpiel games (seed {args.seed})"
    except ImportError:
        cases = sampled_cases(4000, args.seed)
        anchor = False
        source = f"pipgammon's sampler (seed {args.seed}); OpenSpiel not installed: pip install open-spiel"

    ours: dict[str, list[float]] = defaultdict(list)
    theirs: dict[str, list[float]] = defaultdict(list)
    ratios: dict[str, list[float]] = defaultdict(list)
    for position, mover, roll, state in cases:
        name = family(position, mover, roll)
        mine = best_of(args.repeat, lambda p=position, m=mover, r=roll: legal_plays(p, m, r).count())
        ours[name].append(mine)
        ours["all"].append(mine)
        if state is not None:
            other = best_of(args.repeat, state.legal_actions)
            theirs[name].append(other)
            theirs["all"].append(other)
            ratios[name].append(mine / other)
            ratios["all"].append(mine / other)
            if roll.is_double:
                # The fair comparison for a double: OpenSpiel's whole turn, both halves.
                whole = best_of(args.repeat, lambda state=state: openspiel_whole_turn(state))
                theirs["doubles-whole"].append(whole)
                ours["doubles-whole"].append(mine)
                ratios["doubles-whole"].append(mine / whole)

    print(f"legal plays per position; positions from {source}; best of {args.repeat} runs each")
    header = f"{'family':<13} {'n':>6}  {'pipgammon median':>16} {'p99':>8} {'max':>8}"
    if anchor:
        header += f"   {'OpenSpiel median':>16} {'p99':>8}   {'ratio median':>12} {'p99':>6}"
    print(header + "   (ms; ratio = pipgammon / OpenSpiel on the same position)")
    for name in (*FAMILIES, "all", "doubles-whole"):
        if not ours[name]:
            continue
        median, tail, worst = summarise(ours[name])
        line = f"{name:<13} {len(ours[name]):>6}  {median:>16.3f} {tail:>8.3f} {worst:>8.3f}"
        if anchor:
            o_median, o_p99, _ = summarise(theirs[name])
            ratio = ratios[name]
            line += f"   {o_median:>16.3f} {o_p99:>8.3f}"
            line += f"   {statistics.median(ratio):>12.2f} {p99(ratio):>6.2f}"
        print(line)
    if anchor:
        print("note: for doubles OpenSpiel's legal_actions lists only the first two of four moves;")
        print("      pipgammon lists every distinct four-move play. 'doubles-whole' times OpenSpiel")
        print("      over the whole turn (first half, then the second half after each action).")
    print("targets: median <= 1 ms per position with doubles included; within 3x of OpenSpiel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
