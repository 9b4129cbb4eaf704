"""The OpenSpiel game python_rebel_space: type and info, strings and tensors, resampling from
an information state, and OpenSpiel's own ISMCTS bot playing whole games on it."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

from rebelspace.agents.registry import AgentSpecError, make_agent
from rebelspace.engine import RulesOptions, new_game
from rebelspace.env.encoding import encode
from rebelspace.env.openspiel_game import (
    OpenSpielISMCTSAgent,
    RebelSpaceGame,
    make_bot,
    rules_from_text,
    rules_text,
    state_from_view,
)
from rebelspace.play import play_out
from tests.env.env_helpers import random_states, twin


def test_game_type_and_info() -> None:
    game = pyspiel.load_game("python_rebel_space")
    t = game.get_type()
    assert t.short_name == "python_rebel_space"
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_players() == 2
    assert game.num_distinct_actions() == new_game(0).ctx.space.size
    assert game.max_game_length() >= 10_000
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == [2065]
    assert game.information_state_tensor_shape() == [2065]


def test_parameters_seed_and_rules() -> None:
    a = pyspiel.load_game("python_rebel_space", {"seed": 4})
    b = pyspiel.load_game("python_rebel_space", {"seed": 4})
    assert str(a.new_initial_state().information_state_string(0)) == str(
        b.new_initial_state().information_state_string(0)
    )
    small = pyspiel.load_game("python_rebel_space", {"rules": "max_groups=2,tie=defender"})
    assert small.num_distinct_actions() < a.num_distinct_actions()
    assert rules_from_text(rules_text(RulesOptions(tie="attacker"))) == RulesOptions(tie="attacker")
    with pytest.raises(ValueError, match="unknown rules option"):
        RebelSpaceGame({"rules": "speed=3"})


def test_strings_tensors_and_returns_through_pyspiel() -> None:
    game = pyspiel.load_game("python_rebel_space", {"seed": 1})
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        p = state.current_player()
        assert p in (0, 1)
        engine = state.game_state
        assert state.legal_actions() == engine.legal_actions()
        for q in (0, 1):
            assert np.array_equal(state.observation_tensor(q), encode(engine, q))
            assert np.array_equal(state.information_state_tensor(q), encode(engine, q))
        info = state.information_state_string(p)
        assert info.endswith(state.observation_string(p))
        assert info.startswith("actions " + ",".join(map(str, state.history())))
        a = rng.choice(state.legal_actions())
        assert state.action_to_string(p, a) == engine.action_text(a)
        state.apply_action(a)
    assert sorted(state.returns()) == [-1.0, 1.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_clone_is_independent() -> None:
    game = pyspiel.load_game("python_rebel_space", {"seed": 2})
    state = game.new_initial_state()
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert len(state.history()) == 0 and len(copy.history()) == 1
    assert state.game_state != copy.game_state


@pytest.mark.parametrize("seed", range(3))
def test_resampling_keeps_the_information_state_and_hides_the_rest(seed: int) -> None:
    game = RebelSpaceGame({"seed": seed})
    rng = random.Random(seed)
    differed = 0
    for engine in random_states(seed, every=9):
        if engine.is_over:
            continue
        p = engine.to_move
        state = state_from_view(game, engine.view(p), 1)
        state.engine.game = engine  # the true state, as a pyspiel state
        sample = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert sample.information_state_string(p) == state.information_state_string(p)
        assert sample.legal_actions() == state.legal_actions()
        differed += sample.game_state.hand[1 - p] != engine.hand[1 - p]
        # A state the player cannot tell apart resamples identically: the sample reads only
        # the player's information, never the hidden cards or the engine's RNG.
        other = twin(engine, p, rng)
        if other is not None:
            a = state_from_view(game, engine.view(p), 77)
            b = state_from_view(game, other.view(p), 77)
            assert a.game_state == b.game_state
    assert differed > 0


def test_openspiel_ismcts_bot_plays_whole_games() -> None:
    for seed in (0, 1):
        game = pyspiel.load_game("python_rebel_space", {"seed": seed})
        bot = make_bot(game, iterations=8, seed=seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        searched = 0
        bot_side = seed % 2
        while not state.is_terminal():
            if state.current_player() == bot_side:
                legal = state.legal_actions()
                # The bot gets a state sampled from its view, never the true one.
                view = state.game_state.view(bot_side)
                action = bot.step(state_from_view(game, view, rng.getrandbits(63)))
                assert action in legal
                searched += len(legal) > 1
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        assert sorted(state.returns()) == [-1.0, 1.0]
        assert searched > 10


def test_openspiel_ismcts_agent_in_the_registry() -> None:
    game = new_game(3, log=False)
    agents = (make_agent("openspiel-ismcts:4", game.ctx, 1), make_agent("random", game.ctx, 2))
    assert isinstance(agents[0], OpenSpielISMCTSAgent) and agents[0].iterations == 4
    play_out(game, agents)
    assert game.is_over
    assert isinstance(make_agent("openspiel-ismcts", game.ctx, 1), OpenSpielISMCTSAgent)
    with pytest.raises(AgentSpecError, match="number of iterations"):
        make_agent("openspiel-ismcts:lots", game.ctx, 1)
