"""``rebelspace simulate``: agent-vs-agent games in bulk, through the ``Agent`` interface
(each agent sees its own ``PlayerView``), one process, game ``i`` seeded ``seed + i``."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rebelspace.agents import Agent, RandomAgent
from rebelspace.engine import IMPERIAL, REBEL, CardDB, RulesOptions, new_game
from rebelspace.seeds import SIM_AGENT, agent_seed

from .match import play_out


def agent_seeds(game_seed: int) -> tuple[int, int]:
    """The (Rebel, Imperial) agent seeds of a simulated game: distinct derived streams."""
    return agent_seed(game_seed, SIM_AGENT + REBEL), agent_seed(game_seed, SIM_AGENT + IMPERIAL)


@dataclass(frozen=True, slots=True)
class SimResult:
    games: int
    rebel_wins: int
    imperial_wins: int
    mean_turns: float
    seconds: float

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``simulate --json``."""
        return {
            "games": self.games,
            "wins": {"rebel": self.rebel_wins, "imperial": self.imperial_wins},
            "mean_turns": round(self.mean_turns, 3),
            "games_per_second": round(self.games_per_second, 2),
        }


AgentFactory = Callable[[int], Agent]


def simulate(
    games: int,
    seed: int,
    *,
    options: RulesOptions | None = None,
    cards: CardDB | None = None,
    rebel: AgentFactory = RandomAgent,
    imperial: AgentFactory = RandomAgent,
) -> SimResult:
    """Play ``games`` games; game ``i`` is seeded ``seed + i`` and its agents ``agent_seeds``.

    ``rebel``/``imperial`` make an agent from a seed (default: ``RandomAgent``). The result
    depends only on the arguments, never on timing (except ``seconds``).
    """
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    wins = [0, 0]
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        rebel_seed, imperial_seed = agent_seeds(game_seed)
        game = new_game(game_seed, options=options, cards=cards, log=False)
        play_out(game, (rebel(rebel_seed), imperial(imperial_seed)))
        assert game.outcome is not None  # play_out returns only when the game is over
        wins[game.outcome.winner] += 1
        turns += game.turn
    seconds = time.perf_counter() - start
    return SimResult(games, wins[REBEL], wins[IMPERIAL], turns / games, seconds)
