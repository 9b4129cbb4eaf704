"""Agents by name, as the command line and the arena spell them.

``random``, ``heuristic``, ``ismcts`` (level ``normal``), ``ismcts:easy``, ``ismcts:hard``,
``ismcts:expert`` (the learnt evaluation, ``agents.value``),
``ismcts:500`` (500 iterations per decision, no time cap), ``distilled`` (the fast policy
distilled from ``ismcts:normal``, ``agents.distilled``; ``distilled:PATH`` another fit of
it). With the ``rl`` extra:
``openspiel-ismcts[:N]`` (OpenSpiel's ISMCTS bot, N simulations, default 100) and
``policy:PATH`` (a masked policy saved by ``examples/train_maskable_ppo.py``): plug-ins
named by entry points (``Plugin``), which live in ``rebelspace.env``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, NamedTuple

from rebelspace.engine import GameContext, RebelSpaceError
from rebelspace.extras import require

from . import Agent
from .random_agent import RandomAgent

if TYPE_CHECKING:
    from .ismcts import Budget

AGENT_NAMES = ("random", "heuristic", "ismcts", "distilled")

#: The ISMCTS levels a player is offered, weakest first, each shown weaker than the next
#: opponent: easy lost to the heuristic 41.7% (37.0-46.6%) over 200 deals, and normal beat the
#: heuristic 85% (51 of 60 games), 19 of 20 in the ladder (README "How strong each level is").
#: Each beats the one below it over 200 deals (seed 2026, benchmarks/levels.py): easy beat
#: random 99.3% (97.8-99.7%), normal beat easy 69.8% (65.1-74.1%).
OFFERED_LEVELS = ("easy", "normal")
#: Levels kept for whoever asks for them by name, never shown above normal: neither is shown
#: stronger than normal (expert against normal 8 of 14 games, hard 10 of 21 and 52.5%,
#: 43.6-61.2%, over 60 deals; the ladder's intervals overlap), so they are labelled as
#: experiments rather than ranked (issue 29: a level that cannot be shown stronger is never
#: displayed above a level it does not beat).
EXPERIMENTAL_LEVELS = ("hard", "expert")
EXPERIMENTAL_NOTE = "experimental: not shown stronger than normal"
LEVEL_NAMES = OFFERED_LEVELS + EXPERIMENTAL_LEVELS


class AgentSpecError(RebelSpaceError, ValueError):
    """An agent name the registry does not know."""


#: Builds an agent from the text after the name's colon (``"500"`` in ``ismcts:500``), the
#: game context and a seed.
Factory = Callable[[str, GameContext, int], Agent]


def make_agent(spec: str, ctx: GameContext, seed: int) -> Agent:
    """Build the agent named by ``spec`` for games of ``ctx``, seeded with ``seed``."""
    name, _, arg = spec.strip().partition(":")
    factory = _FACTORIES.get(name)
    if factory is None and name in PLUGINS:
        factory = _load(name, PLUGINS[name])
    if factory is None:
        known = sorted({*_FACTORIES, *PLUGINS})
        raise AgentSpecError(f"unknown agent {spec!r}; known: {', '.join(known)}")
    return factory(arg, ctx, seed)


def _random(arg: str, _ctx: GameContext, seed: int) -> Agent:
    if arg:
        raise AgentSpecError(f"the random agent takes no level, got {arg!r}")
    return RandomAgent(seed)


def _heuristic(arg: str, ctx: GameContext, seed: int) -> Agent:
    if arg:
        raise AgentSpecError(f"the heuristic agent takes no level, got {arg!r}")
    from .heuristic import HeuristicAgent

    return HeuristicAgent(seed, ctx)


def _distilled(arg: str, ctx: GameContext, seed: int) -> Agent:
    from .distilled import DistilledAgent

    if not arg:
        return DistilledAgent(ctx, seed)
    try:
        return DistilledAgent(ctx, seed, arg)
    except (OSError, ValueError, KeyError) as exc:
        raise AgentSpecError(f"cannot read the distilled policy {arg!r}: {exc}") from exc


def _ismcts(arg: str, ctx: GameContext, seed: int) -> Agent:
    from .ismcts import LEVELS, Budget, ISMCTSAgent

    level, *options = (arg or "normal").split("+")
    level = level or "normal"
    if level in LEVELS:
        budget = LEVELS[level]
    elif level.isascii() and level.isdigit() and int(level) > 0:
        budget = Budget(iterations=int(level))
    else:
        raise AgentSpecError(
            f"ismcts level must be one of {', '.join(LEVELS)} or a number of iterations, "
            f"got {arg!r}"
        )
    if options:
        budget = _budget_options(budget, options, arg)
    return ISMCTSAgent(ctx, seed, budget)


def _budget_options(budget: Budget, options: list[str], arg: str) -> Budget:
    """``budget`` with ``name=value`` options of its fields (``ismcts:normal+trees=4``), for
    measuring search variants on the yardstick (issue 29) without a new level."""
    from dataclasses import fields, replace

    from .ismcts import validate

    names = {f.name for f in fields(budget)}
    changes: dict[str, object] = {}
    for option in options:
        name, eq, text = option.partition("=")
        if not eq or name not in names:
            raise AgentSpecError(
                f"ismcts option must be NAME=VALUE with NAME one of {', '.join(sorted(names))}, "
                f"got {option!r} in {arg!r}"
            )
        current = getattr(budget, name)
        try:
            if isinstance(current, str):
                changes[name] = text
            elif isinstance(current, int) and not isinstance(current, bool):
                changes[name] = int(text)
            else:
                changes[name] = float(text)
        except ValueError:
            raise AgentSpecError(f"ismcts option {name} needs a number, got {text!r}") from None
    try:
        return validate(replace(budget, **changes))  # type: ignore[arg-type]
    except ValueError as exc:
        raise AgentSpecError(f"ismcts options {arg!r}: {exc}") from None


class Plugin(NamedTuple):
    """An agent that lives outside this package and needs an extra.

    It is named by an entry point, ``"module:function"``, as Gymnasium's registry names its
    environments: this module imports nothing of it until the agent is asked for, so the
    agents never import ``rebelspace.env`` (which imports them). ``function`` is a
    ``Factory`` like the built-in ones above, raising ``AgentSpecError`` for a bad ``arg``.
    """

    entry_point: str
    extra: str  # the extra of pyproject.toml that its module needs
    modules: tuple[str, ...]  # the modules of that extra it imports: checked before importing


#: What ``rebelspace.env`` imports (its package imports Gymnasium, PettingZoo and NumPy).
_ENV_MODULES = ("numpy", "gymnasium", "pettingzoo")

#: The plug-in agents by name.
PLUGINS: Mapping[str, Plugin] = MappingProxyType(
    {
        # OpenSpiel's own Python ISMCTS bot, N simulations (default 100).
        "openspiel-ismcts": Plugin(
            "rebelspace.env.openspiel_game:make_openspiel_ismcts_agent",
            "rl",
            (*_ENV_MODULES, "pyspiel"),
        ),
        # A masked policy saved by examples/train_maskable_ppo.py.
        "policy": Plugin(
            "rebelspace.env.policy_agent:make_policy_agent",
            "rl",
            (*_ENV_MODULES, "torch", "stable_baselines3", "sb3_contrib"),
        ),
    }
)


def _load(name: str, plugin: Plugin) -> Factory:
    """The factory of ``plugin``, imported now; without its extra, the one-line hint
    (``rebelspace.extras.MissingExtraError``)."""
    require(plugin.extra, f"the {name} agent", plugin.modules)
    module, _, function = plugin.entry_point.partition(":")
    factory: Factory = getattr(importlib.import_module(module), function)
    return factory


_FACTORIES: dict[str, Factory] = {
    "random": _random,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
    "distilled": _distilled,
}
