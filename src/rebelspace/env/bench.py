"""Speed of the environments in random play on one core (`rebelspace bench`: env_steps_per_second).

Each loop is what a user's loop does: read the observation and action mask, pick a random
legal action from the mask, step. So a step's cost includes encoding the observation (the AEC
``last()`` encodes it at every step) and building the mask. For the Gymnasium environment a
step is one learner decision plus the random opponent's decisions until the learner's next
one (about two engine decisions in all), so it is also given as engine decisions per second:
that is the figure to hold against the engine's own ``decisions_per_second``.

The loops find the mask's legal ids through a bool view of the int8 mask: numpy's
``nonzero`` on an int8 array of 2,933 entries takes ~5 us, on the same bytes viewed as bool
under 1 us, and that is the loop's cost, not the environment's. Times are wall-clock
(``time.perf_counter``), as the engine's figures in ``play.bench`` are.
"""

from __future__ import annotations

import random
import time
from typing import Any

import gymnasium
import numpy as np

from rebelspace.engine import RulesOptions

from . import GYM_ID
from .aec import env as aec_env
from .aec import raw_env
from .encoding import encoder_for
from .gym_env import RebelSpaceEnv

ENV_BENCH_SECONDS = 3.0


def _more(start: float, seconds: float, played: int, games: int | None) -> bool:
    if games is not None:
        return played < games
    return played == 0 or time.perf_counter() - start < seconds


def bench_aec(
    seconds: float = ENV_BENCH_SECONDS,
    seed: int = 0,
    *,
    games: int | None = None,
    wrapped: bool = True,
    options: RulesOptions | None = None,
) -> float:
    """AEC steps per second (``env()``, or ``raw_env`` when not ``wrapped``), random play:
    ``games`` games if given, else games until ``seconds`` have passed."""
    e = aec_env(options=options) if wrapped else raw_env(options=options)
    rng = random.Random(seed)
    steps = 0
    game = 0
    start = time.perf_counter()
    while _more(start, seconds, game, games):
        e.reset(seed=seed + game)
        game += 1
        for _agent in e.agent_iter():
            obs, _reward, term, trunc, _info = e.last()
            if term or trunc:
                e.step(None)
                continue
            legal = obs["action_mask"].view(np.bool_).nonzero()[0]  # see the module doc
            e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps / (time.perf_counter() - start)


def bench_gym(
    seconds: float = ENV_BENCH_SECONDS,
    seed: int = 0,
    *,
    games: int | None = None,
    options: RulesOptions | None = None,
) -> tuple[float, float]:
    """(learner steps, engine decisions) per second of ``RebelSpace-v0`` against ``random``."""
    e = gymnasium.make(GYM_ID, side="alternate", opponent="random", options=options)
    inner = e.unwrapped
    assert isinstance(inner, RebelSpaceEnv)
    rng = random.Random(seed)
    steps = decisions = 0
    game = 0
    start = time.perf_counter()
    while _more(start, seconds, game, games):
        e.reset(seed=seed + game if game == 0 else None)
        game += 1
        done = False
        while not done:
            legal = inner.action_masks().nonzero()[0]
            _obs, _r, done, _trunc, _info = e.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
        assert inner.game is not None and inner.game.history is not None
        decisions += len(inner.game.history)
    elapsed = time.perf_counter() - start
    return steps / elapsed, decisions / elapsed


def observation_us(seed: int = 0, samples: int = 20) -> float:
    """Mean microseconds to encode one observation (``Encoder.observation``), mid-game states."""
    from rebelspace.play.bench import sample_states

    states = sample_states(4, seed)
    enc = encoder_for(states[0].ctx)
    start = time.perf_counter()
    for _ in range(samples):
        for s in states:
            enc.observation(s, s.to_move)
    return (time.perf_counter() - start) / (samples * len(states)) * 1e6


def bench_env(
    seconds: float = ENV_BENCH_SECONDS,
    seed: int = 0,
    *,
    games: int | None = None,
    options: RulesOptions | None = None,
) -> dict[str, Any]:
    """The figures ``rebelspace bench`` adds: steps per second of ``env()`` (with PettingZoo's
    classic checks), of ``raw_env`` and of ``RebelSpace-v0``, and the encoder's cost."""
    kw: dict[str, Any] = {"games": games, "options": options}
    gym_steps, gym_decisions = bench_gym(seconds, seed, **kw)
    return {
        "env_steps_per_second": {
            "aec": round(bench_aec(seconds, seed, **kw)),
            "aec_raw": round(bench_aec(seconds, seed, wrapped=False, **kw)),
            "gym": round(gym_steps),
            "gym_engine_decisions": round(gym_decisions),
        },
        "env_observation_us": round(observation_us(seed), 2),
    }
