"""Play random games of variants through the engine and check they end, keeping every checker.

    python bench/random_games.py [--games 300] [--seed 0] [--any-play 0.25] [VARIANT ...]

Every action is random and legal (engine.selfplay.random_game): the opening rule, the rolls,
doubles, takes and drops, chosen doublets and the plays.  After each action both sides must
still have all their checkers (on the board, the bar, in the pool or off), and each game must
end with a result within the play limit.  Rückwärts draws its play from all legal plays with
chance --any-play only, and otherwise from those that move no checker backwards: drawn from
all of them every time, its checkers walk back as often as forward, and random games there
were still going after ten minutes.  Default variants: eureka, backwards, fixed-roll, snake; "all" for
every variant.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.player import Player
from engine.selfplay import random_game
from engine.variants import VARIANTS, find_variant

DEFAULT = ("eureka", "backwards", "fixed-roll", "snake")


def run(name: str, games: int, seed: int, any_play: float) -> bool:
    variant = find_variant(name)
    started = time.perf_counter()
    lengths: list[int] = []
    results: Counter[str] = Counter()
    for number in range(games):
        actions = 0
        game = None
        for game in random_game(random.Random(seed * 100_000 + number), variant, any_play=any_play):
            actions += 1
            for player in Player:
                kept = game.position.in_play(player) + game.position.off[player]
                if kept != variant.checkers:
                    print(f"{name} game {number}: {player.label} has {kept} checkers after action "
                          f"{actions}: {game.position.to_text()}")
                    return False
        assert game is not None and game.result is not None
        lengths.append(actions)
        result = game.result
        results[f"{result.kind.name.lower()}{' dropped' if result.dropped else ''}"
                f"{' (' + result.reason.split(' at ')[0] + ')' if result.reason else ''}"] += 1
    seconds = time.perf_counter() - started
    lengths.sort()
    print(f"{name}: {games} games in {seconds:.1f} s; actions median {lengths[len(lengths) // 2]}, "
          f"max {lengths[-1]}; {dict(results.most_common())}")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="*", default=list(DEFAULT))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--any-play", type=float, default=0.25)
    args = parser.parse_args(argv)
    names = list(VARIANTS) if args.variants == ["all"] else args.variants
    return 0 if all(run(name, args.games, args.seed, args.any_play) for name in names) else 1


if __name__ == "__main__":
    sys.exit(main())
