"""``rules.legal`` and ``rules.handle`` (the direct-call chains GameState's hot path uses, for
the compiled build) do what the tables ``rules.LEGAL`` and ``rules.HANDLERS`` say."""

from __future__ import annotations

import random

from rebelspace.engine import GameState, Kind, RulesOptions, new_game, rules
from rebelspace.engine.state import STEP_NAMES


def test_every_kind_has_its_own_branch_constant() -> None:
    """handle() compares the kind with one constant per Kind member: none missing or wrong."""
    for kind in Kind:
        assert getattr(rules, f"_K_{kind.name}") == int(kind), kind.name


def _after(game: GameState, action: int, *, by_table: bool) -> tuple[object, ...]:
    c = game.clone(keep_log=True)
    kind, card, group, target, extra = c.ctx.space.decoded[action]
    c.forget_legal()
    if by_table:
        rules.HANDLERS[kind](c, card, group, target, extra)
    else:
        rules.handle(c, kind, card, group, target, extra)
    return c.key(), tuple(c.events or ())


def test_the_chains_agree_with_the_tables_over_random_games() -> None:
    """Every decision of 60 random games (with options that allow more draws and groups):
    the same legal ids from legal() as from LEGAL, and the same position and events after
    handle() as after HANDLERS, for every action that is not a copy action."""
    rng = random.Random(11)
    steps: set[int] = set()
    kinds: set[int] = set()
    for seed in range(60):
        options = RulesOptions(draw_max=3) if seed % 3 == 0 else None
        game = new_game(seed, options=options)
        while not game.is_over:
            by_table = rules.LEGAL[game.step](game)
            assert rules.legal(game) == by_table, STEP_NAMES[game.step]
            steps.add(game.step)
            for a in by_table:
                if not game.ctx.space.copies[a]:
                    kinds.add(game.ctx.space.decoded[a][0])
                    assert _after(game, a, by_table=True) == _after(game, a, by_table=False)
            game.apply(rng.choice(game.legal_actions()))
        assert rules.legal(game) == rules.LEGAL[game.step](game) == []
    # The games reached most steps and kinds, so the comparison was not vacuous.
    assert len(steps) >= 8 and len(kinds) >= 15, (sorted(steps), sorted(kinds))
