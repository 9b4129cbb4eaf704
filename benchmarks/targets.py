"""Issue 17's strength targets, each measured in duplicate format with a 95% interval.

    PYTHONPATH=src python benchmarks/targets.py                       # every match target
    PYTHONPATH=src python benchmarks/targets.py --only distilled --deals 500
    PYTHONPATH=src python benchmarks/targets.py --only expert-heuristic --deals 100 --json

Each match is the arena's (``rebelspace.play.arena``: deal ``k`` twice, sides swapped, agents
seeded from the deal, no time cap), on every local core; the interval treats each deal as one
unit (``rebelspace.lab.stats.unit_rate``). A target is met only when the interval's lower bound
clears the target itself (70% is met by 70.1% to 80%, not by 66% to 76%; issue 29), or, for
"easy < heuristic", its upper bound stays below 50% (``is_met``). ``distilled`` also prints the
policy's decisions per CPU second on one core, against the 200 of the target.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, NamedTuple

from rebelspace.agents import Agent
from rebelspace.agents.heuristic import heuristic_action
from rebelspace.agents.registry import make_agent
from rebelspace.engine import GameState, new_game
from rebelspace.lab.stats import unit_rate
from rebelspace.play import Decider, run_game
from rebelspace.play.arena import run_tasks, tasks
from rebelspace.play.pool import local_cores
from rebelspace.play.stats import deal_counts


class Target(NamedTuple):
    a: str
    b: str
    wanted: str  # how the issue states it
    bound: float  # the target: the lower bound must exceed it (the upper stay below, if below)
    below: bool = False


TARGETS = {
    "expert-normal": Target("ismcts:expert", "ismcts:normal", ">= 70%", 0.70),
    "expert-heuristic": Target("ismcts:expert", "heuristic", ">= 90%", 0.90),
    "hard-normal": Target("ismcts:hard", "ismcts:normal", "> 50%", 0.50),
    "easy-heuristic": Target("ismcts:easy", "heuristic", "< 50%", 0.50, below=True),
    "normal-heuristic": Target("ismcts:normal", "heuristic", "(reference)", 0.0),
    "distilled": Target("distilled", "heuristic", ">= 70%", 0.70),
    # Equal CPU time per decision, not equal iterations: OpenSpiel's ISMCTSBot (with the rl
    # extra) given the simulations that cost what expert's 700 iterations cost on one core
    # (benchmarks/levels.py over 12 positions: expert 0.194 s median, the bot 0.170 s at
    # 100 simulations, so 115 simulations).
    "expert-openspiel": Target("ismcts:expert", "openspiel-ismcts:115", "(equal CPU)", 0.0),
}


def match(target: Target, deals: int, seed: int, workers: int) -> dict[str, Any]:
    """``deals`` deals of ``target.a`` against ``target.b``: the rate with its interval."""
    per_deal: dict[int, list[bool]] = defaultdict(list)
    for r in run_tasks(tasks([target.a, target.b], 2 * deals, seed), workers=workers):
        per_deal[r.task.game_seed].append(r.a_won)
    units = list(per_deal.values())
    rate = unit_rate(units)
    return {
        "a": target.a,
        "b": target.b,
        "games": rate.games,
        "deals": rate.units,
        "a_wins": rate.wins,
        "a_win_rate": round(rate.wins / rate.games, 4),
        "ci95": [round(rate.low, 4), round(rate.high, 4)],
        **deal_counts(units).to_dict(),
        "target": target.wanted,
        "met": is_met(target, rate.low, rate.high),
    }


def is_met(target: Target, low: float, high: float) -> bool | None:
    """Whether the 95% interval ``low``..``high`` shows ``target`` met: its lower bound above the
    target itself (its upper bound below it, for a target to stay below); None for a reference
    match, which has no target."""
    if not target.bound:
        return None
    return high < target.bound if target.below else low > target.bound


def decisions_per_second(spec: str, games: int = 20, seed: int = 1) -> float:
    """``spec``'s decisions (two or more legal actions) per CPU second on this one core,
    against the heuristic."""
    clock = [0.0, 0.0]  # CPU seconds spent, decisions made

    def timed(agent: Agent, me: int) -> Decider:
        def decide(game: GameState, legal: Sequence[int]) -> int:
            if len(legal) == 1:
                return legal[0]
            start = time.process_time()
            action = agent.act(game.view(me), legal)
            clock[0] += time.process_time() - start
            clock[1] += 1
            return action

        return decide

    for g in range(games):
        game = new_game(seed + g, log=False)
        deciders: list[Decider] = [heuristic_action, heuristic_action]
        deciders[g % 2] = timed(make_agent(spec, game.ctx, g), g % 2)
        run_game(game, deciders)
    return clock[1] / clock[0]


def _verdict(met: bool | None) -> str:
    return "-" if met is None else "met" if met else "not met"


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--only", default=",".join(TARGETS), help="targets, comma-separated")
    p.add_argument("--deals", type=int, default=200, help="deals per match (games: twice)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--speed-games", type=int, default=20, help="games timed for the speed")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        p.error(f"unknown targets {unknown}; known: {', '.join(TARGETS)}")
    workers = args.workers or local_cores()
    out = []
    for name in names:
        started = time.monotonic()
        result = {"name": name, **match(TARGETS[name], args.deals, args.seed, workers)}
        if name == "distilled":
            speed = decisions_per_second("distilled", args.speed_games)
            result["decisions_per_s"] = round(speed, 1)
            speed = decisions_per_second("heuristic", args.speed_games)
            result["heuristic_decisions_per_s"] = round(speed, 1)
        result["seconds"] = round(time.monotonic() - started, 1)
        out.append(result)
        if not args.json:
            lo, hi = result["ci95"]
            speed = (
                f"  {result['decisions_per_s']:.0f} decisions/s"
                f" (heuristic {result['heuristic_decisions_per_s']:.0f})"
                if "decisions_per_s" in result
                else ""
            )
            print(
                f"{result['a']:>14} vs {result['b']:<14} {result['a_win_rate']:6.1%}"
                f" ({lo:.1%}-{hi:.1%}) over {result['deals']} deals (won both"
                f" {result['won_both']}, lost both {result['lost_both']}, split {result['split']})"
                f"  target {result['target']:<11} {_verdict(result['met'])}{speed}",
                flush=True,
            )
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
