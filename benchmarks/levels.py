"""Each ISMCTS level's cost per decision on one core, and duplicate matches between agents.

    PYTHONPATH=src python benchmarks/levels.py                   # time each level
    PYTHONPATH=src python benchmarks/levels.py --games 40 --agents expert,ismcts:normal

Timing: every level searches the same mid-game positions (heuristic self-play, decisions
with at least three actions) on this process alone; it prints CPU seconds per decision
(median, p95, max), iterations and how often the safety cap stopped a search; and the
microseconds of one leaf evaluation of each kind.

A match is in duplicate format: each deal is played twice with the sides swapped, and the
pair is one unit for the interval (``rebelspace.lab.stats.unit_rate``). Agents are the
registry's names, or ``ismcts:N@EVAL`` / ``ismcts:LEVEL@EVAL`` for a search with another
leaf evaluation (``race``: the damage-only evaluation the unit values replaced).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from multiprocessing import get_context
from typing import Any

from rebelspace.agents import Agent
from rebelspace.agents.heuristic import heuristic_action
from rebelspace.agents.ismcts import LEVELS, Budget, ISMCTSAgent
from rebelspace.agents.registry import make_agent
from rebelspace.engine import GameContext, GameState, new_game
from rebelspace.lab.stats import unit_rate
from rebelspace.play import play_out
from rebelspace.play.match import match_seed
from rebelspace.seeds import DEAL, derive_seed


def build(spec: str, ctx: GameContext, seed: int) -> Agent:
    """A registry agent, or an ISMCTS level or iteration count with another evaluation."""
    base, _, evaluation = spec.partition("@")
    if not evaluation:
        return make_agent(spec, ctx, seed)
    name, _, level = base.partition(":")
    if name != "ismcts":
        raise SystemExit(f"only ismcts takes @EVAL, got {spec!r}")
    budget = LEVELS[level] if level in LEVELS else Budget(iterations=int(level or 250))
    return ISMCTSAgent(ctx, seed, dataclasses.replace(budget, evaluation=evaluation))


# ----------------------------------------------------------------------------- timing


def positions(count: int, seed: int) -> list[GameState]:
    """Mid-game decisions with at least three actions, from heuristic self-play."""
    out: list[GameState] = []
    game_seed = seed
    while len(out) < count:
        game = new_game(game_seed, log=False)
        taken = 0
        while not game.is_over and taken < 6:
            legal = game.legal_actions()
            if game.turn >= 3 and len(legal) >= 3 and game.turn % 3 == taken % 3:
                out.append(game.clone())
                taken += 1
            game.apply(heuristic_action(game, legal))
        game_seed += 1
    return out[:count]


def time_level(spec: str, states: Sequence[GameState]) -> dict[str, Any]:
    seconds: list[float] = []
    iterations: list[int] = []
    capped = 0
    for i, state in enumerate(states):
        agent = build(spec, state.ctx, i)
        start = time.process_time()
        agent.act(state.view(state.to_move), state.legal_actions())
        seconds.append(time.process_time() - start)
        if isinstance(agent, ISMCTSAgent):
            iterations.append(agent.last_iterations)
            capped += agent.capped
    seconds.sort()
    return {
        "agent": spec,
        "decisions": len(seconds),
        "median_s": round(statistics.median(seconds), 4),
        "p95_s": round(seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))], 4),
        "max_s": round(seconds[-1], 4),
        "iterations_median": statistics.median(iterations) if iterations else None,
        "capped": capped,
    }


def time_evaluations(states: Sequence[GameState], rounds: int = 100) -> dict[str, float]:
    """Microseconds per leaf evaluation of each evaluation, on ``states``."""
    from rebelspace.agents.evaluate import evaluate, race_score
    from rebelspace.agents.value import learnt_value

    def race(s: GameState, p: int) -> float:
        return evaluate(s, p, 0.0, race_score)

    out = {}
    for name, value in (("units", evaluate), ("race", race), ("learnt", learnt_value)):
        value(states[0], 0)  # the learnt model reads its weights once
        start = time.process_time()
        for _ in range(rounds):
            for s in states:
                value(s, s.to_move)
        out[f"{name}_us"] = round((time.process_time() - start) / (rounds * len(states)) * 1e6, 2)
    return out


# ----------------------------------------------------------------------------- matches


def play_pair(job: tuple[str, str, int]) -> dict[str, Any]:
    """One deal played twice, ``a`` as the Rebel first; a's wins, decision times, caps."""
    a, b, game_seed = job
    wins: list[bool] = []
    think = {a: 0.0, b: 0.0}
    longest = {a: 0.0, b: 0.0}
    decisions = {a: 0, b: 0}
    capped = {a: 0, b: 0}
    times: dict[str, list[float]] = {a: [], b: []}
    for a_side in (0, 1):
        game = new_game(game_seed, log=False)
        specs = (a, b) if a_side == 0 else (b, a)
        agents = [build(s, game.ctx, match_seed(game_seed, i)) for i, s in enumerate(specs)]
        timed = [_Timed(agent) for agent in agents]
        play_out(game, timed)
        assert game.outcome is not None
        wins.append(game.outcome.winner == a_side)
        for spec, t in zip(specs, timed, strict=True):
            think[spec] += t.seconds
            longest[spec] = max(longest[spec], t.longest)
            decisions[spec] += t.decisions
            capped[spec] += getattr(t.agent, "capped", 0)
            times[spec].extend(round(x, 4) for x in t.times)
    return {
        "seed": game_seed,
        "wins": wins,
        "think": think,
        "longest": longest,
        "decisions": decisions,
        "capped": capped,
        "times": times,
    }


class _Timed:
    """An agent whose decisions are timed in CPU seconds."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.seconds = 0.0
        self.longest = 0.0
        self.decisions = 0
        self.times: list[float] = []

    def act(self, view: Any, legal: Sequence[int]) -> int:
        start = time.process_time()
        action = self.agent.act(view, legal)
        spent = time.process_time() - start
        self.seconds += spent
        self.longest = max(self.longest, spent)
        self.decisions += 1
        self.times.append(spent)
        return action


def match(
    a: str, b: str, pairs: int, seed: int, workers: int, log: str | None = None
) -> dict[str, Any]:
    """``pairs`` deals, each played twice; with ``log``, each pair's result as a JSON line
    as it comes (a long match can be read before it ends), and a match run again with the
    same log plays only the deals the log lacks (a long match in resumable chunks: stop it
    at any time; the summary is of every pair in the log)."""
    results: list[dict[str, Any]] = _logged(log, a, b) if log else []
    done = {r["seed"] for r in results}
    jobs = [(a, b, s) for i in range(pairs) if (s := derive_seed(seed, DEAL + i)) not in done]
    with get_context("spawn").Pool(max(1, workers)) as pool:
        for r in pool.imap(play_pair, jobs, chunksize=1):
            results.append(r)
            if log:
                with open(log, "a", encoding="utf-8") as f:
                    f.write(json.dumps(r) + "\n")
            won = sum(sum(x["wins"]) for x in results)
            print(
                f"\r{len(results)}/{pairs} pairs, {a} won {won}/{2 * len(results)}",
                end="",
                file=sys.stderr,
                flush=True,
            )
    print(file=sys.stderr)
    return summary(a, b, seed, results)


def _read_log(log: str) -> list[dict[str, Any]]:
    """Every pair's result in a ``--log`` file (none if it does not exist)."""
    if not os.path.exists(log):
        return []
    with open(log, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _logged(log: str, a: str, b: str) -> list[dict[str, Any]]:
    """The pairs of ``a`` against ``b`` already in ``log``."""
    return [r for r in _read_log(log) if list(r["think"]) == [a, b]]


def summary(a: str, b: str, seed: int, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A's win rate over the pairs played, the pair as the unit; costs per decision."""
    pairs = len(results)
    rate = unit_rate([r["wins"] for r in results])
    split = [sum(r["wins"]) for r in results]
    out: dict[str, Any] = {
        "a": a,
        "b": b,
        "seed": seed,
        "pairs": pairs,
        "games": 2 * pairs,
        "a_wins": rate.wins,
        "a_rate": round(rate.wins / rate.games, 4),
        "ci95": [round(rate.low, 4), round(rate.high, 4)],
        "pairs_2_1_0": [split.count(2), split.count(1), split.count(0)],
    }
    for spec in (a, b):
        n = sum(r["decisions"][spec] for r in results)
        out[f"{spec} s/decision"] = round(sum(r["think"][spec] for r in results) / max(1, n), 4)
        out[f"{spec} capped"] = sum(r["capped"][spec] for r in results)
        out[f"{spec} longest s"] = round(
            max(r.get("longest", {}).get(spec, 0.0) for r in results), 3
        )
        spent = sorted(t for r in results for t in r.get("times", {}).get(spec, []))
        if spent:  # CPU seconds of each decision (logs written before times were kept lack them)
            out[f"{spec} s/decision median, p95, max"] = [
                round(statistics.median(spent), 4),
                round(spent[min(len(spent) - 1, int(0.95 * len(spent)))], 4),
                round(spent[-1], 4),
            ]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--levels", default="ismcts:easy,ismcts:normal,ismcts:hard,ismcts:expert")
    p.add_argument("--positions", type=int, default=30, help="decisions timed per level")
    p.add_argument("--games", type=int, default=0, help="games of a match (0: time only)")
    p.add_argument("--agents", default="ismcts:expert,ismcts:normal", help="A,B for --games")
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--no-time", action="store_true", help="skip the timing")
    p.add_argument("--log", help="append each pair's result to this file (JSON lines)")
    p.add_argument("--summarize", metavar="LOG", help="summarize a --log file and stop")
    args = p.parse_args(argv)
    if args.summarize:
        results = _read_log(args.summarize)
        a, b = list(results[0]["think"])
        # The log does not keep the match's seed: the summary shows the --seed given.
        print(json.dumps(summary(a, b, args.seed, results)))
        return 0
    if not args.no_time:
        states = positions(args.positions, args.seed)
        print(json.dumps({"evaluation": time_evaluations(states)}), flush=True)
        for spec in args.levels.split(","):
            print(json.dumps(time_level(spec, states)), flush=True)
    if args.games:
        a, b = args.agents.split(",")
        workers = min(args.workers, os.cpu_count() or 1)
        pairs = (args.games + 1) // 2
        print(json.dumps(match(a, b, pairs, args.seed, workers, args.log)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
