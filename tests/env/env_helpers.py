"""Shared helpers of the environment tests: random games and states a player cannot tell apart."""

from __future__ import annotations

import random
from collections.abc import Iterator

from rebelspace.engine import GameState, RulesOptions, new_game
from tests.common import twin

__all__ = ["random_states", "twin"]


def random_states(
    seed: int, *, every: int = 1, options: RulesOptions | None = None
) -> Iterator[GameState]:
    """Every ``every``-th state of one game of random play, the final state included."""
    rng = random.Random(seed)
    game = new_game(seed, options=options, log=False)
    n = 0
    while game.to_move >= 0:
        if n % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    yield game
