"""Heuristic against a uniformly random player, fast: both play on the true state.

That is fair because ``heuristic_action`` reads only what its player may know (the hidden
information test in ``test_heuristic.py`` checks it). Run as a script for the numbers:

    .venv/bin/python tests/agents/heuristic_bench.py [games per side] [first seed]
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass

from rebelspace.agents.heuristic import heuristic_action
from rebelspace.engine import new_game


@dataclass(frozen=True)
class BenchResult:
    games: int
    wins: int
    wins_as: tuple[int, int]  # (as Rebel, as Imperial)
    decisions: int
    seconds_in_heuristic: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    @property
    def micros_per_decision(self) -> float:
        return 1e6 * self.seconds_in_heuristic / max(self.decisions, 1)


def play_vs_random(games_per_side: int, first_seed: int = 0) -> BenchResult:
    """The heuristic plays ``games_per_side`` games as each side against a random player."""
    wins = [0, 0]
    decisions = 0
    spent = 0.0
    clock = time.perf_counter
    for side in (0, 1):
        for k in range(games_per_side):
            seed = first_seed + k
            game = new_game(seed=seed, log=False)
            rng = random.Random(seed * 2 + side)
            while game.to_move >= 0:
                legal = game.legal_actions()
                if game.to_move == side:
                    t0 = clock()
                    a = heuristic_action(game, legal)
                    spent += clock() - t0
                    decisions += 1
                else:
                    a = legal[rng.randrange(len(legal))]
                game.apply(a)
            wins[side] += game.winner == side
    return BenchResult(2 * games_per_side, sum(wins), (wins[0], wins[1]), decisions, spent)


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    r = play_vs_random(n, first)
    print(
        f"{r.wins}/{r.games} wins ({100 * r.win_rate:.1f}%): as Rebel {r.wins_as[0]}/{n}, "
        f"as Imperial {r.wins_as[1]}/{n}; {r.micros_per_decision:.1f} us per decision "
        f"over {r.decisions} decisions"
    )
