"""Agents by name, as the command line and the arena spell them.

``random``, ``heuristic``, ``ismcts`` (level ``normal``), ``ismcts:easy``, ``ismcts:hard``,
``ismcts:500`` (500 iterations per decision, no time cap). With the ``rl`` extra:
``openspiel-ismcts[:N]`` (OpenSpiel's ISMCTS bot, N simulations, default 100) and
``policy:PATH`` (a masked policy saved by ``examples/train_maskable_ppo.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rebelspace.engine import GameContext, GameState, RebelSpaceError

from . import Agent
from .random_agent import RandomAgent

AGENT_NAMES = ("random", "heuristic", "ismcts")
LEVEL_NAMES = ("easy", "normal", "hard")


class AgentSpecError(RebelSpaceError, ValueError):
    """An agent name the registry does not know."""


def make_agent(spec: str, ctx: GameContext, seed: int) -> Agent:
    """Build the agent named by ``spec`` for games of ``ctx``, seeded with ``seed``."""
    name, _, arg = spec.strip().partition(":")
    factory = _FACTORIES.get(name)
    if factory is None:
        extra = sorted(_FACTORIES)
        raise AgentSpecError(f"unknown agent {spec!r}; known: {', '.join(extra)}")
    return factory(arg, ctx, seed)


def _random(arg: str, ctx: GameContext, seed: int) -> Agent:
    if arg:
        raise AgentSpecError(f"the random agent takes no level, got {arg!r}")
    return RandomAgent(seed)


def _heuristic(arg: str, ctx: GameContext, seed: int) -> Agent:
    if arg:
        raise AgentSpecError(f"the heuristic agent takes no level, got {arg!r}")
    from .heuristic import HeuristicAgent

    return HeuristicAgent(seed, ctx)


def _ismcts(arg: str, ctx: GameContext, seed: int) -> Agent:
    from .ismcts import LEVELS, Budget, ISMCTSAgent

    level = arg or "normal"
    if level in LEVELS:
        return ISMCTSAgent(ctx, seed, LEVELS[level])
    if level.isascii() and level.isdigit() and int(level) > 0:
        return ISMCTSAgent(ctx, seed, Budget(iterations=int(level)))
    raise AgentSpecError(
        f"ismcts level must be one of {', '.join(LEVELS)} or a number of iterations, got {arg!r}"
    )


#: What ``rebelspace.env`` imports (its package imports Gymnasium, PettingZoo and NumPy).
_ENV_MODULES = ("numpy", "gymnasium", "pettingzoo")


def _needs_rl(spec: str, *modules: str) -> None:
    """The one-line hint (``rebelspace.extras.MissingExtraError``) when an agent needs the
    ``rl`` extra and it is not installed."""
    from rebelspace.extras import require

    require("rl", f"the {spec} agent", (*_ENV_MODULES, *modules))


def _openspiel_ismcts(arg: str, ctx: GameContext, seed: int) -> Agent:
    # OpenSpiel's own Python ISMCTS bot (rebelspace.env.openspiel_game), N simulations.
    if arg and not (arg.isascii() and arg.isdigit() and int(arg) > 0):
        raise AgentSpecError(f"openspiel-ismcts takes a number of iterations, got {arg!r}")
    _needs_rl("openspiel-ismcts", "pyspiel")
    from rebelspace.env.openspiel_game import OpenSpielISMCTSAgent

    return OpenSpielISMCTSAgent(int(arg) if arg else 100, seed, ctx)


def _policy(arg: str, ctx: GameContext, seed: int) -> Agent:
    # A masked policy saved by examples/train_maskable_ppo.py (rebelspace.env.policy_agent).
    import os

    if not arg:
        raise AgentSpecError("the policy agent needs a file: policy:PATH")
    if not os.path.isfile(arg):
        raise AgentSpecError(f"policy file {arg!r} does not exist")
    _needs_rl("policy", "torch", "stable_baselines3", "sb3_contrib")
    from rebelspace.env.policy_agent import PolicyAgent

    return PolicyAgent(arg, ctx, seed)


Decider = Callable[[GameState, Sequence[int]], int]


def true_state_decider(agent: Agent, player: int) -> Decider:
    """How ``agent`` chooses for ``player`` given the true state, for bulk play (the balance
    lab, the Gymnasium opponent).

    The random and heuristic agents read nothing hidden (the random agent reads nothing; the
    heuristic is tested to choose the same whatever the hidden cards), so they decide on the
    true state without building a view: the same choices as through ``Agent.act``, several
    times faster. Any other agent gets its player's view, as the ``Agent`` interface says.
    """
    from .heuristic import HeuristicAgent, heuristic_action

    if type(agent) is RandomAgent:
        return lambda game, legal: agent.act(None, legal)  # type: ignore[arg-type]
    if type(agent) is HeuristicAgent:
        return lambda game, legal: heuristic_action(game, legal)
    return lambda game, legal: agent.act(game.view(player), legal)


_FACTORIES: dict[str, Callable[[str, GameContext, int], Agent]] = {
    "random": _random,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
    "openspiel-ismcts": _openspiel_ismcts,  # needs the rl extra
    "policy": _policy,  # needs the rl extra
}
