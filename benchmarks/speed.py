"""Issue 30's speed figures for the build that is running (pure or compiled), on one core.

    PYTHONPATH=src python benchmarks/speed.py                  # every figure, JSON on stdout
    PYTHONPATH=src python benchmarks/speed.py --only random,ismcts
    PYTHONPATH=src python benchmarks/speed.py --profile ismcts  # cProfile one workload

Every figure is CPU time of this process (``time.process_time``), not wall time: the machines
this project is measured on are shared, and a busy neighbour should not make the engine look
slow. Run it once with the pure build and once with the compiled one (``make fast``; or
``REBELSPACE_PURE=1`` and an editable install for pure) and compare: ``build`` says which one
ran. The workloads:

- ``random``: random-vs-random full games through the public API (``rebelspace bench``'s loop),
  decisions a second, and ``clone()`` in microseconds;
- ``ismcts``: ISMCTS iterations a second at normal's settings (``play.bench.bench_ismcts``);
- ``heuristic``: heuristic self-play on the true state, as bulk play runs it, decisions a second;
- ``distilled``: the distilled policy's self-play through its views, decisions a second;
- ``env``: PettingZoo and Gymnasium steps a second (``env.bench``, the rl extra);
- ``lab``: the balance lab's games a minute at each rung of the default ladder
  (``lab.games.play_game``, mirror games, the ladder's own seeds).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import pstats
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from rebelspace.build import build_kind
from rebelspace.engine import new_game
from rebelspace.play import run_game

WORKLOADS = ("random", "ismcts", "heuristic", "distilled", "env", "lab")
LAB_RUNGS = {"random": 40, "heuristic": 10, "distilled": 6, "ismcts:easy": 4, "ismcts:100": 1}


def _cpu() -> float:
    return time.process_time()


def random_play(seconds: float, seed: int, clones: int = 100_000) -> dict[str, Any]:
    """``rebelspace bench``'s games and clones (``play.bench``), timed in CPU seconds."""
    from rebelspace.play.bench import _random_player, sample_states

    rng = random.Random(seed)
    pick = _random_player(rng)
    new_game(seed, log=False)  # builds the shared context untimed
    decisions = games = 0
    start = _cpu()
    while games == 0 or _cpu() - start < seconds:
        decisions += run_game(new_game(seed + games, log=False), (pick, pick))
        games += 1
    spent = _cpu() - start
    states = sample_states(4, seed)
    reps = max(1, clones // len(states))
    gc.disable()  # as play.bench.time_clones: no collection inside the timed copies
    try:
        start = _cpu()
        for state in states:
            clone = state.clone
            for _ in range(reps):
                clone()
        clone_us = (_cpu() - start) / (reps * len(states)) * 1e6
    finally:
        gc.enable()
    return {
        "random_decisions_per_second": round(decisions / spent),
        "random_games": games,
        "clone_us": round(clone_us, 3),
    }


def ismcts(seed: int, positions: int = 6, iterations: int = 600) -> dict[str, Any]:
    """``play.bench.bench_ismcts`` (normal's rollouts, ``iterations`` a search, the same
    positions), timed in CPU seconds."""
    from dataclasses import replace

    from rebelspace.agents.heuristic import heuristic_action
    from rebelspace.agents.ismcts import LEVELS, ISMCTSAgent
    from rebelspace.seeds import BENCH_AGENT, BENCH_POSITION, agent_seed, derive_seed

    budget = replace(LEVELS["normal"], iterations=iterations, seconds=None)
    done = 0
    spent = 0.0
    for k in range(positions):
        game = new_game(derive_seed(seed, BENCH_POSITION + k), log=False)
        while not game.is_over and (game.turn < 12 or len(game.legal_actions()) < 3):
            game.apply(heuristic_action(game, game.legal_actions()))
        if game.is_over:
            continue
        agent = ISMCTSAgent(game.ctx, agent_seed(seed, BENCH_AGENT + k), budget)
        view, legal = game.view(game.to_move), game.legal_actions()
        start = _cpu()
        agent.act(view, legal)
        spent += _cpu() - start
        done += agent.last_iterations
    return {"ismcts_iterations_per_second": round(done / spent)}


def _self_play(decide: Callable[[int], Any], games: int, seed: int) -> tuple[int, float]:
    """``games`` games where ``decide(game_index)`` gives both sides' deciders."""
    decisions = 0
    spent = 0.0
    for i in range(games):
        game = new_game(seed + i, log=False)
        deciders = decide(i)
        start = _cpu()
        decisions += run_game(game, deciders)
        spent += _cpu() - start
    return decisions, spent


def heuristic(games: int, seed: int) -> dict[str, Any]:
    from rebelspace.agents.heuristic import heuristic_action

    decisions, spent = _self_play(lambda _i: (heuristic_action, heuristic_action), games, seed)
    return {"heuristic_decisions_per_second": round(decisions / spent)}


def distilled(games: int, seed: int) -> dict[str, Any]:
    from rebelspace.agents.distilled import DistilledAgent
    from rebelspace.play.match import through_view

    ctx = new_game(seed, log=False).ctx

    def deciders(i: int) -> Any:
        return [through_view(DistilledAgent(ctx, seed=seed + 2 * i + p), p) for p in (0, 1)]

    decisions, spent = _self_play(deciders, games, seed)
    return {"distilled_decisions_per_second": round(decisions / spent)}


def env(seconds: float, seed: int) -> dict[str, Any]:
    """``env.bench``'s figures, which are wall-clock, turned into CPU seconds by this call's
    ratio of wall time to CPU time (the loops run in this process and thread only)."""
    try:
        from rebelspace.env.bench import bench_env
    except ImportError:
        return {"env": "omitted: the rl extra is not installed"}
    wall, cpu = time.perf_counter(), _cpu()
    out = bench_env(seconds=seconds, seed=seed)
    scale = (time.perf_counter() - wall) / (_cpu() - cpu)
    steps = out["env_steps_per_second"]
    out["env_steps_per_second"] = {k: round(v * scale) for k, v in steps.items()}
    return out


def lab(seed: int, scale: float) -> dict[str, Any]:
    from rebelspace.lab.games import play_game
    from rebelspace.lab.settings import RunSettings

    out: dict[str, Any] = {}
    for rung, games in LAB_RUNGS.items():
        n = max(1, round(games * scale))
        settings = RunSettings.build((rung, rung), seed)
        start = _cpu()
        for i in range(n):
            play_game(settings, i)
        out[rung] = round(n / (_cpu() - start) * 60, 1)
    return {"lab_games_per_minute": out}


def run(name: str, args: argparse.Namespace) -> dict[str, Any]:
    if name == "random":
        # Under the profiler, few clones: the profile is of the games.
        return random_play(args.seconds, args.seed, 1000 if args.profile else 100_000)
    if name == "ismcts":
        return ismcts(args.seed)
    if name == "heuristic":
        return heuristic(args.games, args.seed)
    if name == "distilled":
        return distilled(max(1, args.games // 4), args.seed)
    if name == "env":
        return env(args.seconds / 2, args.seed)
    if name == "lab":
        return lab(args.seed, args.lab_scale)
    raise SystemExit(f"unknown workload {name!r}; known: {', '.join(WORKLOADS)}")


def _area(filename: str) -> str:
    """Where a profiled function lives: ``engine/rules``, ``agents/heuristic``, ..."""
    if "rebelspace/" not in filename:
        return "builtins" if filename == "~" else "python (stdlib, other)"
    parts = filename.split("rebelspace/", 1)[1].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0].removesuffix(".py")


def profile(name: str, args: argparse.Namespace, top: int) -> str:
    """The workload under cProfile: each area's share of the time spent in its own code,
    then the ``top`` functions by their own time."""
    prof = cProfile.Profile()
    prof.enable()
    run(name, args)
    prof.disable()
    text = io.StringIO()
    stats = pstats.Stats(prof, stream=text)
    areas: dict[str, float] = {}
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (filename, _line, _func), (_cc, _nc, tottime, _ct, _callers) in raw.items():
        areas[_area(filename)] = areas.get(_area(filename), 0.0) + tottime
    total = sum(areas.values()) or 1.0
    text.write(f"own time by area (of {total:.2f} s under the profiler):\n")
    for area, spent in sorted(areas.items(), key=lambda kv: -kv[1]):
        text.write(f"  {area:<28} {spent / total:6.1%}\n")
    stats.sort_stats("tottime").print_stats(top)
    return text.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join(WORKLOADS), help="workloads, comma-separated")
    parser.add_argument("--seconds", type=float, default=6.0, help="random play's time box")
    parser.add_argument("--games", type=int, default=40, help="heuristic games (distilled: /4)")
    parser.add_argument("--lab-scale", type=float, default=1.0, help="scales the lab's games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", metavar="WORKLOAD", help="cProfile one workload instead")
    parser.add_argument("--top", type=int, default=30, help="functions the profile lists")
    args = parser.parse_args(argv)
    if args.profile:
        print(f"build: {build_kind()}")
        print(profile(args.profile, args, args.top))
        return 0
    result: dict[str, Any] = {"build": build_kind()}
    random.seed(args.seed)
    for name in args.only.split(","):
        result.update(run(name.strip(), args))
    json.dump(result, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
