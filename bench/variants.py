"""Time the legal plays of every dice stage of every variant, and report the worst.

    python bench/variants.py [--games 4] [--positions 40] [--seed 7] [--repeat 2]

Positions come from seeded self-play games of each variant (seeds the tests do
not use).  At each sampled position, every stage the 21 rolls set in motion is
timed (the bottom faces, Gioul's chain of doubles up to 6-6, a double vs free
choice roll...), and for variants with chosen doublets every doublet 1-1..6-6
too (Acey Deucey with checkers still to enter, Mexican).  A stage's time is
the generation of its distinct legal plays.  Targets: worst stage ≤ 50 ms,
median ≤ 2 ms.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.dice import Roll
from engine.game import OpeningRule
from engine.movegen import LegalPlays
from engine.player import Player
from engine.position import Position
from engine.rules import Stage
from engine.selfplay import self_play
from engine.turn import Turn
from engine.variants import VARIANTS, Variant

ROLLS = [Roll(a, b) for a in range(1, 7) for b in range(1, a + 1)]


def sample_positions(variant: Variant, games: int, wanted: int, seed: int) -> list[tuple[Position, Player]]:
    seen: list[tuple[Position, Player]] = []
    for game in range(games):
        rng = random.Random(seed * 1000 + game)
        for _action, match in self_play(rng, 1, OpeningRule.STARTER_ROLLS, variant, max_actions=20_000):
            turn = match.game.turn
            if turn is not None and not match.game.is_over:
                seen.append((match.game.position, turn))
    rng = random.Random(seed)
    return rng.sample(seen, min(wanted, len(seen)))


def stages_at(variant: Variant, player: Player) -> list[Stage]:
    found: list[Stage] = []
    for roll in ROLLS:
        program = variant.program(Turn.start(variant, player), roll)
        found.extend(program.stages)
        if program.then_doublet:
            for value in range(1, 7):
                found.extend(variant.doublet_program(player, value).stages)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="self-play games per variant")
    parser.add_argument("--positions", type=int, default=40, help="positions sampled per variant")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=2, help="timings per stage (fastest kept)")
    args = parser.parse_args(argv)

    print(f"legal plays per dice stage; {args.positions} positions per variant from {args.games} "
          f"self-play games (seed {args.seed}); every stage of all 21 rolls (and chosen doublets); "
          f"best of {args.repeat} runs each")
    print(f"{'variant':<22} {'stages':>7} {'median ms':>10} {'p99 ms':>8} {'worst ms':>9}  worst stage")
    medians, worsts = [], []
    for variant in VARIANTS.values():
        times: list[tuple[float, str]] = []
        for position, player in sample_positions(variant, args.games, args.positions, args.seed):
            for stage in stages_at(variant, player):
                elapsed, count = float("inf"), 0
                for _ in range(args.repeat):  # the fastest of a few runs: the machine is shared
                    start = time.perf_counter()
                    count = LegalPlays(position, stage.player, variant.moves_for(stage)).count()
                    elapsed = min(elapsed, time.perf_counter() - start)
                times.append((elapsed, f"{stage.text}, {count} plays, {position.to_text()}"))
        ordered = sorted(times)
        median = statistics.median(t for t, _ in ordered) * 1e3
        p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))][0] * 1e3
        worst, where = ordered[-1]
        medians.append(median)
        worsts.append(worst * 1e3)
        print(f"{variant.name:<22} {len(ordered):>7} {median:>10.3f} {p99:>8.2f} {worst * 1e3:>9.2f}  "
              f"{where[:90]}")
    print(f"all variants: largest median {max(medians):.3f} ms, worst stage {max(worsts):.2f} ms "
          "(targets: median <= 2 ms, worst <= 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
