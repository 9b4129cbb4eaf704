"""The random agent: a uniform choice among the legal actions, with its own seeded RNG."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rebelspace.engine import PlayerView

from .base import NoLegalActionError


class RandomAgent:
    """Picks uniformly among the legal actions.

    Each agent owns a ``random.Random(seed)`` (never the global one), so a game between seeded
    agents is reproducible and two agents in one game do not disturb each other's choices.

    >>> from rebelspace.engine import new_game
    >>> game = new_game(seed=7)
    >>> agent = RandomAgent(seed=1)
    >>> agent.act(game.view(game.to_move), game.legal_actions()) in game.legal_actions()
    True
    """

    __slots__ = ("seed", "_rng")

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self._rng = random.Random(seed)

    # The Agent interface hands every agent its view; a uniform random choice needs no view.
    def act(self, view: PlayerView, legal: Sequence[int]) -> int:  # noqa: ARG002
        # Not a ThinkingAgent: a forced choice still draws from the RNG, as it always has, so
        # that the same seeds give the same games.
        if not legal:
            raise NoLegalActionError.asked(self)
        return legal[self._rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed!r})"
