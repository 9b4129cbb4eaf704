"""``rules.legal`` (the direct-call chain GameState's hot path uses, for the compiled build)
gives what the table ``rules.LEGAL`` says. (Actions are applied through ``rules.HANDLERS``
itself: each handler takes the decoded action, so there is no second chain to check.)"""

from __future__ import annotations

import random

from rebelspace.engine import RulesOptions, new_game, rules
from rebelspace.engine.state import STEP_NAMES


def test_the_legal_chain_agrees_with_the_table_over_random_games() -> None:
    """Every decision of 60 random games (with options that allow more draws and groups):
    the same legal ids from legal() as from LEGAL."""
    rng = random.Random(11)
    steps: set[int] = set()
    for seed in range(60):
        options = RulesOptions(draw_max=3) if seed % 3 == 0 else None
        game = new_game(seed, options=options)
        while not game.is_over:
            by_table = rules.LEGAL[game.step](game)
            assert rules.legal(game) == by_table, STEP_NAMES[game.step]
            steps.add(game.step)
            game.apply(rng.choice(game.legal_actions()))
        assert rules.legal(game) == rules.LEGAL[game.step](game) == []
    # The games reached most steps, so the comparison was not vacuous.
    assert len(steps) >= 8, sorted(steps)
