"""Agents by name, as the command line and the arena spell them.

``random``, ``heuristic``, ``ismcts`` (level ``normal``), ``ismcts:easy``, ``ismcts:hard``,
``ismcts:500`` (500 iterations per decision, no time cap).
"""

from __future__ import annotations

from collections.abc import Callable

from rebelspace.engine import GameContext, RebelSpaceError

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


_FACTORIES: dict[str, Callable[[str, GameContext, int], Agent]] = {
    "random": _random,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
}
