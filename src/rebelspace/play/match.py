"""The one match runner: agents (or cheaper deciders) choose until the game is over.

Every bulk game of the project goes through ``run_game``: the arena's, the balance lab's,
``simulate``'s and the engine benchmark's, so a bound on decisions, an observer of actions and
the seeding of the agents are written once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rebelspace.agents import Agent, RandomAgent
from rebelspace.agents.heuristic import HeuristicAgent, heuristic_action
from rebelspace.agents.ismcts import ISMCTSAgent
from rebelspace.agents.registry import make_agent
from rebelspace.bounds import MAX_DECISIONS
from rebelspace.engine import IMPERIAL, REBEL, GameContext, GameState, new_game
from rebelspace.seeds import MATCH_AGENT, agent_seed

#: Chooses one of the legal action ids for the player to move, given the true state. Only the
#: runner holds the true state; ``decider_for`` says which agents may see it and why.
Decider = Callable[[GameState, Sequence[int]], int]

#: Called with the state before each action and the action chosen (the lab counts plays).
Observer = Callable[[GameState, int], None]


def through_view(agent: Agent, player: int) -> Decider:
    """``agent`` choosing from ``player``'s view, as the ``Agent`` interface says."""
    return lambda game, legal: agent.act(game.view(player), legal)


def decider_for(agent: Agent, player: int) -> Decider:
    """How ``agent`` chooses for ``player`` in bulk play: the same choices as through its view,
    as cheaply as they can be had.

    The random and heuristic agents read nothing hidden (the random agent reads nothing; the
    heuristic is tested to choose the same whatever the hidden cards), so they decide on the
    true state without building a view: the same choices as through ``Agent.act``, several
    times faster. Any other agent gets its player's view.
    """
    if type(agent) is RandomAgent:
        return lambda _game, legal: agent.act(None, legal)  # type: ignore[arg-type]
    if type(agent) is HeuristicAgent:
        return heuristic_action
    return through_view(agent, player)


def bulk_agent(name: str, ctx: GameContext, seed: int, *, cpu: float | None = None) -> Agent:
    """The registry's agent ``name`` for bulk play: a searching agent without its time cap,
    so that the same seed gives the same game however busy the machine is (issue 17).

    With ``cpu``, a searching agent searches instead for ``cpu`` seconds of its thread's CPU
    time a decision, however many iterations that is: matches at equal CPU time per decision
    (issue 29). Such games depend on the machine's speed, not on the seed alone. Agents that
    do not search (random, heuristic, distilled, plug-ins) decide as they always do."""
    agent = make_agent(name, ctx, seed)
    if isinstance(agent, ISMCTSAgent):
        if cpu is None:
            agent.drop_time_cap()
        else:
            agent.search_for(cpu)
    return agent


def run_game(
    game: GameState,
    deciders: Sequence[Decider],
    *,
    observe: Observer | None = None,
    max_decisions: int = MAX_DECISIONS,
) -> int:
    """Let ``deciders[player]`` choose until the game is over; returns the decisions made.

    A game that is not over after ``max_decisions`` is a bug in the rules or an agent: it
    raises rather than loop for ever.
    """
    decisions = 0
    while game.to_move >= 0:
        if decisions >= max_decisions:
            raise RuntimeError(
                f"game seed {game.seed} is not over after {decisions} decisions ({game!r})"
            )
        player = game.to_move
        action = deciders[player](game, game.legal_actions())
        if observe is not None:
            observe(game, action)
        game.apply(action, player=player)
        decisions += 1
    return decisions


def play_out(
    game: GameState, agents: Sequence[Agent], *, max_decisions: int = MAX_DECISIONS
) -> int:
    """Let ``agents[player]`` decide from their own views until the game is over."""
    deciders = [through_view(agent, player) for player, agent in enumerate(agents)]
    return run_game(game, deciders, max_decisions=max_decisions)


@dataclass(frozen=True, slots=True)
class Match:
    """A finished game between two named agents, who moved first, and the decisions it took."""

    game: GameState
    first_player: int
    decisions: int

    @property
    def winner(self) -> int:
        assert self.game.outcome is not None  # a Match holds a finished game only
        return self.game.outcome.winner


def match_agents(
    rebel: str, imperial: str, deal_seed: int, ctx: GameContext, *, cpu: float | None = None
) -> tuple[Agent, Agent]:
    """The agents named ``rebel`` and ``imperial`` for the game dealt by ``deal_seed``, each
    seeded from the deal and its side (``match_seed``), for bulk play (``bulk_agent``: with
    ``cpu``, both searches get that many CPU seconds a decision)."""
    return (
        bulk_agent(rebel, ctx, match_seed(deal_seed, REBEL), cpu=cpu),
        bulk_agent(imperial, ctx, match_seed(deal_seed, IMPERIAL), cpu=cpu),
    )


def match_seed(deal_seed: int, side: int) -> int:
    """The seed of the agent playing ``side`` in the game dealt by ``deal_seed`` (arena, ladder,
    lab, training, benchmarks): one-way (``seeds.agent_seed``), so that an agent cannot rebuild
    the deal from it (issue 29)."""
    return agent_seed(deal_seed, MATCH_AGENT + side)


def play_match(
    rebel: str,
    imperial: str,
    deal_seed: int,
    ctx: GameContext,
    *,
    tally: bool = False,
    observe: Observer | None = None,
    cpu: float | None = None,
) -> Match:
    """A game between the agents named ``rebel`` and ``imperial`` (registry names), dealt by
    ``deal_seed``. Each agent is seeded from the deal and its side (``match_agents``), so the
    same deal and names give the same game on any machine and in any worker, however loaded
    (``bulk_agent``), unless ``cpu`` gives both searches a CPU time per decision instead."""
    game = new_game(deal_seed, options=ctx.options, cards=ctx.cards, log=False, tally=tally)
    agents = match_agents(rebel, imperial, deal_seed, ctx, cpu=cpu)
    deciders = [decider_for(agent, side) for side, agent in enumerate(agents)]
    first_player = game.to_move
    decisions = run_game(game, deciders, observe=observe)
    return Match(game, first_player, decisions)
