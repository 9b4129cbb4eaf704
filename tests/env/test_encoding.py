"""The observation encoding shows exactly what the player's view shows (R5), slice by slice."""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from rebelspace.engine import RulesOptions, new_game
from rebelspace.engine.sampling import sample_state
from rebelspace.env import encoding
from rebelspace.env.encoding import encode, encoder_for, layout, observation_size
from tests.env.env_helpers import random_states, twin


def module_doc(module: ModuleType) -> str:
    """A module's docstring read from its source file: a module compiled by mypyc (setup.py)
    has no ``__doc__`` at run time, and the layout's documentation is the source's."""
    source = Path(module.__file__ or "").parent / (module.__name__.rsplit(".", 1)[1] + ".py")
    return ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""


def test_layout_is_documented() -> None:
    ctx = new_game(0).ctx
    lay = layout(ctx)
    assert observation_size(ctx) == lay.size == 2065
    doc = module_doc(encoding)
    assert "2,065 entries" in doc
    for name in lay.offsets:
        if not name.startswith("group"):
            assert f"| {name}" in doc, f"slice {name} is not in the documentation table"
    assert len(encoder_for(ctx).labels()) == lay.size
    # Slices tile the vector without gaps.
    ends = [lay.slice(n) for n in lay.offsets]
    assert ends[0].start == 0 and ends[-1].stop == lay.size
    assert all(a.stop == b.start for a, b in zip(ends, ends[1:], strict=False))


@pytest.mark.parametrize("seed", range(6))
def test_a_sample_from_the_view_encodes_the_same(seed: int) -> None:
    """The encoder reads the state, but only what the view shows: a state built from the view
    alone (hidden cards dealt at random, another RNG) gives the same observation."""
    rng = random.Random(seed)
    checked = 0
    for game in random_states(seed, every=3):
        for p in (0, 1):
            sample = sample_state(game.view(p), game.ctx, rng.getrandbits(63))
            assert np.array_equal(encode(game, p), encode(sample, p)), (game, p)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("seed", range(6))
def test_swapping_hidden_cards_changes_nothing(seed: int) -> None:
    """Two true states with equal views (the opponent's unknown hand card swapped into the
    deck, decks reshuffled) give equal observations, though the hidden cards differ."""
    rng = random.Random(100 + seed)
    swapped = 0
    for game in random_states(seed, every=5):
        for p in (0, 1):
            other = twin(game, p, rng)
            if other is None:
                continue
            assert other.hand[1 - p] != game.hand[1 - p]
            assert other.view(p) == game.view(p)
            assert np.array_equal(encode(game, p), encode(other, p))
            # ... while the opponent, whose hand it is, sees the difference.
            assert not np.array_equal(encode(game, 1 - p), encode(other, 1 - p))
            swapped += 1
    assert swapped > 10


def _counts(names: tuple[str, ...], ctx) -> list[int]:  # type: ignore[no-untyped-def]
    c = Counter(names)
    return [c[n] for n in ctx.tables.names]


@pytest.mark.parametrize("seed", range(3))
def test_slices_match_the_view(seed: int) -> None:
    for game in random_states(seed, every=7):
        ctx = game.ctx
        lay = layout(ctx)
        for p in (0, 1):
            obs = encode(game, p)
            view = game.view(p)
            assert obs.dtype == np.float32 and obs.shape == (lay.size,)
            assert obs[0] == p
            assert list(obs[lay.slice("own_hand")]) == _counts(view.you.hand or (), ctx)
            assert list(obs[lay.slice("own_deck")]) == _counts(view.own_deck_contents, ctx)
            assert list(obs[lay.slice("opp_discard")]) == _counts(view.opponent.discard, ctx)
            units = tuple(u.name for u in view.opponent.active)
            assert list(obs[lay.slice("opp_active")]) == _counts(units, ctx)
            counts = obs[lay.slice("counts")]
            assert list(counts) == [
                view.you.deck_size,
                view.you.hand_size,
                view.opponent.deck_size,
                view.opponent.hand_size,
            ]
            assert obs[lay.slice("battle")][0] == (view.battle is not None)
            if view.battle is not None:
                g0 = obs[lay.slice("group0")]
                assert g0[0] == 1 and g0[1] == (view.battle.groups[0].kind == "space")


def test_action_mask_is_the_legal_actions() -> None:
    for game in random_states(1, every=4):
        mask = encoding.action_mask(game)
        assert mask.dtype == np.int8
        assert list(np.flatnonzero(mask)) == game.legal_actions()


def test_other_rules_options_change_the_group_slices() -> None:
    ctx = new_game(0, options=RulesOptions(max_groups=3)).ctx
    lay = layout(ctx)
    assert "group2" in lay.offsets and "group3" not in lay.offsets
    game = new_game(0, options=RulesOptions(max_groups=3))
    assert encode(game, 0).shape == (lay.size,)


def test_describe_names_the_hand() -> None:
    game = new_game(7)
    text = encoder_for(game.ctx).describe(game, 0)
    for name in set(game.view(0).you.hand or ()):
        assert f"own_hand:{name}=" in text
    assert "step_draw=1" in text
