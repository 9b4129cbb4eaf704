"""What seeing everything is worth: an all-seeing search against the same search playing fair.

    PYTHONPATH=src python benchmarks/ceiling.py                       # normal, 100 deals
    PYTHONPATH=src python benchmarks/ceiling.py --level expert --against normal --deals 50 --json

The all-seeing player is the searching agent at ``--level`` searching the true state at every
decision: the opponent's hand, the order of both decks and the engine's seed, so it knows
even its own future draws. Its opponent is a searching level (``--against``, by default the
same one) choosing from its own view, as every agent does. Each deal is played twice with the
sides swapped (the arena's deals and seeding, no time cap) and the 95% interval treats each
deal as one unit (``rebelspace.lab.stats.unit_rate``).

Why: issue 17 asks for a level that beats ``normal`` 70% of the time. The rate printed here
is what perfect knowledge of every hidden card and every future shuffle is worth to a search
against ``normal``; a fair level reaching 70% would have to gain more than that from better
play alone. It is a measurement only: the all-seeing agent breaks R5 by design and is never
offered as a player.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from rebelspace.agents.ismcts import ISMCTSAgent
from rebelspace.engine import GameState, new_game
from rebelspace.lab.stats import unit_rate
from rebelspace.play import Decider, run_game
from rebelspace.play.arena import Task, tasks
from rebelspace.play.match import bulk_agent, decider_for, match_seed
from rebelspace.play.pool import batches, local_cores, parallel_map


class AllSeeing(ISMCTSAgent):
    """The search run on the true state: every iteration starts from an exact copy of it."""

    def _determinize(self, root_state: GameState, me: int) -> GameState:  # noqa: ARG002
        return root_state.clone()


def play(job: tuple[str, str, list[Task]]) -> list[tuple[int, bool]]:
    """Each task's game, the all-seeing agent as the task's first agent: (deal, it won)."""
    level, against, todo = job
    out = []
    for task in todo:
        game = new_game(task.game_seed, log=False)
        side = 0 if task.a_is_rebel else 1
        seer = AllSeeing(game.ctx, match_seed(task.game_seed, side), level)
        seer.drop_time_cap()
        fair = bulk_agent(f"ismcts:{against}", game.ctx, match_seed(task.game_seed, 1 - side))
        deciders: list[Decider] = [seer.search, seer.search]
        deciders[1 - side] = decider_for(fair, 1 - side)
        run_game(game, deciders)
        assert game.outcome is not None
        out.append((task.game_seed, game.outcome.winner == side))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--level", default="normal", help="a searching level: normal, hard, expert")
    p.add_argument("--against", default=None, help="the fair level (default: --level)")
    p.add_argument("--deals", type=int, default=100, help="deals (games: twice as many)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    workers = args.workers or local_cores()
    against = args.against or args.level
    started = time.monotonic()
    todo = tasks(["all-seeing", against], 2 * args.deals, args.seed)
    per_deal: dict[int, list[bool]] = defaultdict(list)
    jobs = [(args.level, against, batch) for batch in batches(todo, workers)]
    for results in parallel_map(play, jobs, workers=workers):
        for deal, won in results:
            per_deal[deal].append(won)
    rate = unit_rate(list(per_deal.values()))
    result: dict[str, Any] = {
        "level": args.level,
        "against": against,
        "deals": rate.units,
        **rate.to_dict(),  # the all-seeing agent's wins, games, rate and interval
        "seed": args.seed,
        "seconds": round(time.monotonic() - started, 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        lo, hi = result["ci95"]
        print(
            f"all-seeing {args.level} against {against}: {rate.wins} of {rate.games} games,"
            f" {100 * rate.rate:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%),"
            f" {rate.units} deals, seed {args.seed}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
