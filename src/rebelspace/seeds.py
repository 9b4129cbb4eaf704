"""Derived seeds, and which stream of a seed is whose.

Whatever plays games above the engine (simulations, the arena, the lab, the terminal game, the
server's computer players, the environments) seeds its deals and agents from one seed: deals
(and other public streams) with ``derive_seed(seed, stream)``, agents with
``agent_seed(seed, stream)``. Every stream number in use is a named constant here, so two users
of one seed never draw the same stream by accident and a reader sees the whole map at once.
The numbers are fixed: changing one changes every game played from it.

Why agents get a one-way seed (issue 29). An agent is handed its own seed and sees its own
view; a ``policy:PATH`` or plug-in agent is code we did not write. ``derive_seed`` is one
SplitMix64 step, which inverts: from its seed and its own hand an agent rebuilt the deal
(the opponent's hand, both deck orders, every future shuffle) in 50 of 50 deals. An agent's
seed is therefore a BLAKE2b hash of the game's seed and the stream (``agent_seed``): from it
neither the game's seed, nor the engine's generator, nor the other agent's seed can be had
short of guessing the game's seed and checking each guess. What that guess costs is the
entropy of the seed the games come from, and that is the one secret there is: the hash's
personalisation and this source are public (a key written here would be no secret, and a
secret kept elsewhere would break "the same seeds give the same games"). So a run seeded with
a small number that an agent can guess (``--seed 3``) is open to a brute force over
(run seed, deal) pairs -- by its hand alone, whatever the agents' seeds -- and a match between
agents one does not trust needs a run seed nobody can guess, published after the run (for
example ``--seed $(python -c "import secrets; print(secrets.randbits(63))")``). The server's and
the terminal's games draw fresh seeds from the operating system.

Streams of a *game's* seed (the seed ``new_game`` gets):

========================  ===============  ==================================================
constant                  streams          whose
========================  ===============  ==================================================
``SIM_AGENT``             0, 1             ``simulate``'s agents: + the player (0 Rebel)
``TERMINAL_OPPONENT``     2, 3             the terminal game's computer: + the person's player
``GYM_OPPONENT``          2                the Gymnasium env's opponent (never in a game with
                                           the terminal's computer, so sharing 2 is harmless)
``MATCH_AGENT``           10, 11           arena, ladder, lab and training agents: + the
                                           player (0 Rebel)
``SERVER_AGENT``          1,000,000 + ply  the server's computer player, one seed per decision
``ADVICE``                2,000,000 + ply  hints and the analysis of a game (``agents.advice``)
``TEACHER_SAMPLE``        3,000,000 + ply  the distilling teacher's sample of the hidden cards
========================  ===============  ==================================================

All of these are agent streams, drawn with ``agent_seed``.

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

``OPPONENT_PLY`` and ``BENCH_AGENT`` are agent streams (``agent_seed``), the others public ones
(``derive_seed``): a deal is no secret from whoever holds the run's seed.

This module sits just above the engine (it imports only ``engine.rng`` and ``hashlib``): the
engine owns a game's RNG, but which program draws which stream is the business of the programs,
and the engine knows none of them. Everything above (env, sim, arena, lab, terminal, server) can
import it without importing another layer.
"""

from __future__ import annotations

import hashlib

from rebelspace.engine.rng import GOLDEN, mix64

SIM_AGENT = 0
TERMINAL_OPPONENT = 2
GYM_OPPONENT = 2
MATCH_AGENT = 10
SERVER_AGENT = 1_000_000
ADVICE = 2_000_000
TEACHER_SAMPLE = 3_000_000

DEAL = 0
OPPONENT_PLY = 0
OPENSPIEL_GAME = 0
BENCH_SAMPLE = 99
BENCH_POSITION = 100
BENCH_AGENT = 200


def derive_seed(seed: int, stream: int) -> int:
    """A seed for ``stream`` (0, 1, ...) of a game seeded ``seed``, unrelated to both.

    One SplitMix64 output step: nearby inputs give unrelated outputs, so the deals of a run
    are unrelated. Deterministic across runs and platforms (no ``hash()``, which is salted per
    process for strings). The step inverts, so its output tells ``seed``: it seeds deals and
    public streams, never an agent (``agent_seed``).
    """
    return mix64(seed * GOLDEN + (stream + 1) * 0xD1B54A32D192ED03) >> 1  # 63 bits, >= 0


#: BLAKE2b's personalisation of agent seeds: which hash family this is and its version. Not a
#: secret (see the module's docstring); a new version would change every stochastic agent's
#: games, as version 1 did (issue 29).
AGENT_PERSON = b"rebelspace-agt1"


def agent_seed(seed: int, stream: int) -> int:
    """An agent's seed for ``stream`` of the game (or computer player) seeded ``seed``: one-way.

    A BLAKE2b hash (personalised ``AGENT_PERSON``) of both numbers written in decimal, so any
    integer is accepted and none collides with another. Whoever holds only the result learns
    nothing of ``seed`` or of another stream's seed but by guessing ``seed`` (the module's
    docstring says what that leaves open). Deterministic across runs and platforms.

    >>> agent_seed(7, 10) == agent_seed(7, 10) != agent_seed(7, 11)
    True
    """
    data = f"{seed}/{stream}".encode("ascii")
    digest = hashlib.blake2b(data, digest_size=8, person=AGENT_PERSON).digest()
    return int.from_bytes(digest, "little") >> 1  # 63 bits, >= 0, as derive_seed gives
