"""Derived seeds, and which stream of a seed is whose.

Whatever plays games above the engine (simulations, the arena, the lab, the terminal game, the
server's computer players, the environments) seeds its agents and deals from one seed with
``derive_seed(seed, stream)``. Every stream number in use is a named constant here, so two users
of one seed never draw the same stream by accident and a reader sees the whole map at once.
The numbers are fixed: changing one changes every game played from it.

Streams of a *game's* seed (the seed ``new_game`` gets):

========================  ===============  ==================================================
constant                  streams          whose
========================  ===============  ==================================================
``SIM_AGENT``             0, 1             ``simulate``'s agents: + the player (0 Rebel)
``TERMINAL_OPPONENT``     2, 3             the terminal game's computer: + the person's player
``GYM_OPPONENT``          2                the Gymnasium env's opponent (never in a game with
                                           the terminal's computer, so sharing 2 is harmless)
``MATCH_AGENT``           10, 11           arena and lab agents: + the player (0 Rebel)
``SERVER_AGENT``          1,000,000 + ply  the server's computer player, one seed per decision
``ADVICE``                2,000,000 + ply  hints and the analysis of a game (``agents.advice``)
========================  ===============  ==================================================

Streams of other seeds:

========================  ===============  ==================================================
constant                  streams          whose
========================  ===============  ==================================================
``DEAL``                  0 + i            game (or twinned unit) ``i`` of an arena or lab run,
                                           from the run's seed
``OPPONENT_PLY``          0 + ply          the terminal computer's agent at ``ply``, from the
                                           computer's own seed (``TERMINAL_OPPONENT``)
``OPENSPIEL_GAME``        0                the OpenSpiel game object an ``openspiel-ismcts``
                                           agent searches, from the agent's seed
``BENCH_SAMPLE``          99               ``bench``'s sampled mid-game states, from its seed
``BENCH_POSITION``        100 + k          ``bench``'s ISMCTS position ``k``, from its seed
``BENCH_AGENT``           200 + k          ``bench``'s ISMCTS agent at position ``k``
========================  ===============  ==================================================

This module sits just above the engine (it imports only ``engine.rng``): the engine owns a
game's RNG, but which program draws which stream is the business of the programs, and the
engine knows none of them. Everything above (env, sim, arena, lab, terminal, server) can import
it without importing another layer.
"""

from __future__ import annotations

from rebelspace.engine.rng import GOLDEN, mix64

SIM_AGENT = 0
TERMINAL_OPPONENT = 2
GYM_OPPONENT = 2
MATCH_AGENT = 10
SERVER_AGENT = 1_000_000
ADVICE = 2_000_000

DEAL = 0
OPPONENT_PLY = 0
OPENSPIEL_GAME = 0
BENCH_SAMPLE = 99
BENCH_POSITION = 100
BENCH_AGENT = 200


def derive_seed(seed: int, stream: int) -> int:
    """A seed for ``stream`` (0, 1, ...) of a game seeded ``seed``, unrelated to both.

    One SplitMix64 output step: nearby inputs give unrelated outputs, so the agents of game
    ``S+i`` do not replay the choices of the agents of game ``S+i+1``. Deterministic across
    runs and platforms (no ``hash()``, which is salted per process for strings).
    """
    return mix64(seed * GOLDEN + (stream + 1) * 0xD1B54A32D192ED03) >> 1  # 63 bits, >= 0
