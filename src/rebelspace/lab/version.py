"""The version of the code a run's games come from: a fingerprint of behaviour.

A run's id covers the engine's and its agents' versions, so that a database never mixes games
of different code in one run (issue 35: the same id gave 83.0% and, after a change of the
engine, 82.2%). The version is measured, not declared: a short seeded game of each agent (its
first decisions) and two whole random games (the engine alone), hashed. Code that plays the
same decisions gets the same fingerprint whatever its source looks like (a refactoring keeps
the runs); any change that changes a decision (rules, an agent, its weights, seeding) gets a
new one. Computed once per process and agent (about a second for a searching agent).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence

from rebelspace.engine import RulesOptions, context_for, load_cards, new_game
from rebelspace.play.match import decider_for, match_agents

#: The deals of the fingerprint games, and how many decisions of each agent's game it hashes:
#: enough to see any change of its choices, few enough that a searching agent is quick.
SEEDS = (20261203, 7)
AGENT_DECISIONS = 16


def _hash_game(agent: str, seed: int, decisions: int | None) -> bytes:
    """The actions of ``agent`` against itself on deal ``seed`` (its first ``decisions``, or
    the whole game), with the outcome when it is reached."""
    ctx = context_for(load_cards(), RulesOptions())
    game = new_game(seed, options=ctx.options, cards=ctx.cards, log=False)
    deciders = [
        decider_for(a, side) for side, a in enumerate(match_agents(agent, agent, seed, ctx))
    ]
    out = hashlib.sha256()
    made = 0
    while game.to_move >= 0 and (decisions is None or made < decisions):
        player = game.to_move
        action = deciders[player](game, game.legal_actions())
        out.update(action.to_bytes(4, "little"))
        game.apply(action, player=player)
        made += 1
    if game.outcome is not None:
        out.update(f"{game.outcome.winner}:{game.turn}:{game.outcome.reason}".encode())
    return out.digest()


@functools.cache
def engine_fingerprint() -> str:
    """The engine's behaviour: two whole games of the random agent."""
    digest = hashlib.sha256(b"".join(_hash_game("random", s, None) for s in SEEDS))
    return digest.hexdigest()[:12]


@functools.cache
def agent_fingerprint(agent: str) -> str:
    """One agent's behaviour (its code, seeding and weights): the first decisions of one game
    against itself."""
    return hashlib.sha256(_hash_game(agent, SEEDS[0], AGENT_DECISIONS)).hexdigest()[:12]


def code_version(agents: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The version a run of ``agents`` is played with: ``(("engine", fp), ("agent NAME", fp),
    ...)``, sorted, hashable (part of ``RunSettings``)."""
    out = {"engine": engine_fingerprint()}
    for agent in agents:
        out[f"agent {agent}"] = agent_fingerprint(agent)
    return tuple(sorted(out.items()))
