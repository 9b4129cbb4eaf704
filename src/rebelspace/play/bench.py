"""``rebelspace bench``: the engine's own speed, on one core.

It measures the engine, so its players are as cheap as possible: one seeded ``random.Random``
picking straight from ``legal_actions()`` on the true state, no views, no log; the games go
through the same runner as every other game (``play.match.run_game``).
"""

from __future__ import annotations

import gc
import platform
import random
import time
from collections.abc import Sequence
from typing import Any

from rebelspace.build import build_kind
from rebelspace.engine import CardDB, GameState, RulesOptions, new_game
from rebelspace.seeds import BENCH_AGENT, BENCH_POSITION, BENCH_SAMPLE, agent_seed, derive_seed

from .match import Decider, run_game

BENCH_SECONDS = 10.0  # default time budget of the game-playing part
BENCH_CLONES = 100_000  # clones timed for copy_us
BENCH_SAMPLE_GAMES = 4  # games that provide the mid-game states copy_us is measured on
BENCH_SAMPLE_EVERY = 7  # keep every 7th decision's state of those games


def _random_player(rng: random.Random) -> Decider:
    choice = rng.choice

    def pick(_game: GameState, legal: Sequence[int]) -> int:
        return choice(legal)

    return pick


def _random_game(
    seed: int, rng: random.Random, options: RulesOptions | None, cards: CardDB | None
) -> tuple[GameState, int]:
    """One full game of cheap random play; returns the final state and its decisions."""
    game = new_game(seed, options=options, cards=cards, log=False)
    pick = _random_player(rng)
    return game, run_game(game, (pick, pick))


def sample_states(
    games: int,
    seed: int,
    *,
    every: int = BENCH_SAMPLE_EVERY,
    options: RulesOptions | None = None,
    cards: CardDB | None = None,
) -> list[GameState]:
    """Mid-game states (past the opening turn, not over) from ``games`` random games."""
    pick = _random_player(random.Random(derive_seed(seed, BENCH_SAMPLE)))
    states: list[GameState] = []
    decisions = 0  # of the game being played

    def keep_some(state: GameState, _action: int) -> None:
        nonlocal decisions
        if decisions % every == 0 and state.turn > 2:
            states.append(state.clone())
        decisions += 1

    for i in range(games):
        decisions = 0
        run_game(
            new_game(seed + i, options=options, cards=cards, log=False),
            (pick, pick),
            observe=keep_some,
        )
    return states


def time_clones(states: Sequence[GameState], clones: int = BENCH_CLONES) -> float:
    """Mean microseconds of ``state.clone()`` over ``clones`` clones spread over ``states``.

    The garbage collector is off while timing, as ``timeit`` does, so that a collection
    triggered by the copies does not land in one sample at random.
    """
    if not states:
        raise ValueError("no states to clone")
    reps = max(1, clones // len(states))
    total = 0.0
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for state in states:
            clone = state.clone
            start = time.perf_counter()
            for _ in range(reps):
                clone()
            total += time.perf_counter() - start
    finally:
        if was_enabled:
            gc.enable()
    return total / (reps * len(states)) * 1e6


def bench(
    *,
    games: int | None = None,
    seconds: float = BENCH_SECONDS,
    clones: int = BENCH_CLONES,
    seed: int = 0,
    options: RulesOptions | None = None,
    cards: CardDB | None = None,
) -> dict[str, Any]:
    """Random-vs-random full games on one core, then ``clone()`` timing.

    Plays exactly ``games`` games if given, else games until ``seconds`` have passed (at least
    one). Everything runs in this process and thread, so the figures are for one core.
    """
    if games is not None and games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    rng = random.Random(seed)
    new_game(seed, options=options, cards=cards, log=False)  # builds the shared context untimed
    played = decisions = turns = 0
    start = time.perf_counter()
    elapsed = 0.0
    while True:
        game, n = _random_game(seed + played, rng, options, cards)
        played += 1
        decisions += n
        turns += game.turn
        elapsed = time.perf_counter() - start
        if (played >= games) if games is not None else (elapsed >= seconds):
            break
    states = sample_states(BENCH_SAMPLE_GAMES, seed, options=options, cards=cards)
    copy_us = time_clones(states, clones)
    return {
        "build": build_kind(),  # compiled (mypyc) or pure: rebelspace.build
        "games": played,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "games_per_second": round(played / elapsed, 2),
        "decisions_per_second": round(decisions / elapsed),
        "mean_turns": round(turns / played, 2),
        "copy_us": round(copy_us, 3),
        "copy_states": len(states),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
    }


def bench_ismcts(
    *, positions: int = 6, iterations: int = 600, seed: int = 0, level: str = "normal"
) -> dict[str, Any]:
    """ISMCTS iterations per second at typical mid-game decisions, on one core.

    The positions come from heuristic self-play: the first decision with at least three legal
    actions from turn 12 on, in ``positions`` games. Each search runs ``iterations`` iterations
    with the rollouts of ``level`` and no time cap.
    """
    from dataclasses import replace

    from rebelspace.agents.heuristic import heuristic_action
    from rebelspace.agents.ismcts import LEVELS, ISMCTSAgent

    budget = replace(LEVELS[level], iterations=iterations, seconds=None)
    done = 0
    elapsed = 0.0
    for k in range(positions):
        game = new_game(derive_seed(seed, BENCH_POSITION + k), log=False)
        while not game.is_over and (game.turn < 12 or len(game.legal_actions()) < 3):
            game.apply(heuristic_action(game, game.legal_actions()))
        if game.is_over:
            continue
        agent = ISMCTSAgent(game.ctx, agent_seed(seed, BENCH_AGENT + k), budget)
        view, legal = game.view(game.to_move), game.legal_actions()
        start = time.perf_counter()
        agent.act(view, legal)
        elapsed += time.perf_counter() - start
        done += agent.last_iterations
    return {
        "ismcts_iterations_per_second": round(done / elapsed) if elapsed else 0,
        "ismcts_level": level,
    }
