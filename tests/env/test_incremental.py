"""The incremental encoder gives exactly ``encode``'s observation, whatever the stream of states."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rebelspace.engine import GameState, RulesOptions
from rebelspace.env.encoding import encode, encoder_for
from rebelspace.env.incremental import IncrementalEncoder
from tests.env.env_helpers import random_states, twin


def _observers(game: GameState) -> tuple[IncrementalEncoder, IncrementalEncoder]:
    enc = encoder_for(game.ctx)
    return IncrementalEncoder(enc, 0), IncrementalEncoder(enc, 1)


@pytest.mark.parametrize("seed", range(16))
def test_every_decision_of_a_game(seed: int) -> None:
    """As the environments use it: the mover's observation after every decision, and now and
    then the other player's (whose observer then skips many decisions)."""
    rng = random.Random(seed)
    observers = None
    battles = 0
    for game in random_states(seed):
        observers = observers or _observers(game)
        movers = [game.to_move] if game.to_move >= 0 else [0, 1]
        if rng.random() < 0.2:
            movers = [0, 1]
        for p in movers:
            assert np.array_equal(observers[p].observation(game), encode(game, p)), p
        battles += bool(game.groups)
    assert battles > 10  # battles began and ended on the way


def test_jumps_between_unrelated_states_and_games() -> None:
    """Unrelated states one after another (other games, before and after battles, a
    resampled twin): nothing left from the previous state may leak into the next."""
    rng = random.Random(7)
    pool = [g.clone() for seed in range(3) for g in random_states(seed, every=9)]
    pool += [t for g in pool[::4] if (t := twin(g, 0, rng)) is not None]
    observers = _observers(pool[0])
    for _ in range(600):
        game = rng.choice(pool)
        p = rng.randrange(2)
        assert np.array_equal(observers[p].observation(game), encode(game, p))


def test_other_rules_options() -> None:
    options = RulesOptions(max_groups=3, hand_limit=8)
    observers = None
    for game in random_states(11, options=options):
        observers = observers or _observers(game)
        p = max(game.to_move, 0)
        assert np.array_equal(observers[p].observation(game), encode(game, p))


def test_each_observation_is_a_new_array() -> None:
    game = next(random_states(3))
    observer = _observers(game)[0]
    first = observer.observation(game)
    first[:] = 99  # a user may keep and change what they were given
    second = observer.observation(game)
    assert second.dtype == np.float32
    assert np.array_equal(second, encode(game, 0))


def test_a_failed_observation_leaves_nothing_behind() -> None:
    """A slice that cannot be encoded (over 255 copies of a card) fails as ``encode`` does,
    and the next observation is still exact."""
    game = next(random_states(5)).clone()
    observer = _observers(game)[0]
    observer.observation(game)
    bad = game.clone()
    bad.deck[0] = bad.deck[0] + bad.deck[0][:1] * 300  # counted on top of the old counts
    with pytest.raises(ValueError):
        encode(bad, 0)
    with pytest.raises(ValueError):
        observer.observation(bad)
    assert np.array_equal(observer.observation(game), encode(game, 0))
