"""The Gymnasium environment RebelSpace-v0: Gymnasium's env checker, sides, opponents, masks."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from rebelspace.agents.heuristic import HeuristicAgent
from rebelspace.agents.registry import AgentSpecError
from rebelspace.engine import new_game
from rebelspace.env import GYM_ID, RebelSpaceEnv
from rebelspace.env.encoding import encode


def test_gymnasium_check_env() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check_env(gymnasium.make(GYM_ID).unwrapped)


def _play(e: RebelSpaceEnv, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    obs, info = e.reset(seed=seed)
    total, steps = 0.0, 0
    done = False
    while not done:
        mask = e.action_masks()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        game = e.game
        assert game is not None and game.to_move == e.player
        assert np.array_equal(obs, encode(game, e.player))
        assert list(np.flatnonzero(mask)) == game.legal_actions()
        obs, reward, done, trunc, info = e.step(int(rng.choice(list(np.flatnonzero(mask)))))
        assert not trunc
        total += reward
        steps += 1
        if not done:
            assert reward == 0
    assert info["winner"] in ("rebel", "imperial")
    assert total == (1.0 if info["winner"] == info["side"] else -1.0)
    return total, steps


@pytest.mark.parametrize("side", ["rebel", "imperial"])
def test_whole_game_against_random(side: str) -> None:
    e = RebelSpaceEnv(side=side, opponent="random")
    _total, steps = _play(e, 3)
    assert e.player == ("rebel", "imperial").index(side)
    assert steps > 20


def test_against_heuristic_and_ismcts() -> None:
    for opponent in ("heuristic", "ismcts:5"):
        e = RebelSpaceEnv(side="imperial", opponent=opponent)
        _play(e, 1)


def test_alternate_switches_sides_and_a_seeded_reset_starts_again() -> None:
    e = RebelSpaceEnv(side="alternate")
    sides = []
    for _ in range(3):
        _obs, info = e.reset()
        sides.append(info["side"])
    assert sides == ["rebel", "imperial", "rebel"]
    _obs, info = e.reset(seed=5)
    assert info["side"] == "rebel"


def test_imperial_learner_waits_for_its_own_decision() -> None:
    e = RebelSpaceEnv(side="imperial")
    _obs, info = e.reset(seed=0)
    assert e.game is not None and e.game.to_move == 1
    assert e.game.history  # the Rebel opponent moved first (R6)
    assert info["side"] == "imperial"


def test_reset_seed_deals_that_game() -> None:
    e = RebelSpaceEnv(side="rebel")
    obs, _ = e.reset(seed=9)
    assert np.array_equal(obs, encode(new_game(9), 0))


def test_illegal_action_ends_the_episode_as_a_loss() -> None:
    e = RebelSpaceEnv(side="rebel")
    e.reset(seed=2)
    before = e.game.clone()  # type: ignore[union-attr]
    illegal = int(np.flatnonzero(~e.action_masks())[0])
    _obs, reward, done, trunc, info = e.step(illegal)
    assert (reward, done, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    assert e.game == before


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="side"):
        RebelSpaceEnv(side="both")
    with pytest.raises(AgentSpecError, match="unknown agent"):
        RebelSpaceEnv(opponent="nobody")
    with pytest.raises(RuntimeError, match="reset"):
        RebelSpaceEnv().action_masks()


def test_registered_with_options() -> None:
    e = gymnasium.make(GYM_ID, side="imperial", opponent="heuristic")
    assert isinstance(e.unwrapped, RebelSpaceEnv)
    assert e.unwrapped.opponent_spec == "heuristic"


@pytest.mark.parametrize("side", ["rebel", "imperial"])
def test_heuristic_opponent_chooses_as_from_its_view(side: str) -> None:
    """The heuristic opponent decides on the true state (no view built, for speed): every one
    of its choices is the one HeuristicAgent.act makes from the opponent's view alone."""
    e = RebelSpaceEnv(side=side, opponent="heuristic")
    rng = random.Random(4)
    e.reset(seed=21)
    done = False
    while not done:
        legal = list(np.flatnonzero(e.action_masks()))
        _obs, _r, done, _t, _info = e.step(int(rng.choice(legal)))
    assert e.game is not None and e.game.history is not None
    replay = new_game(21)
    agent = HeuristicAgent(seed=5, ctx=replay.ctx)
    opponent_decisions = 0
    for action in e.game.history:
        if replay.to_move != e.player:
            legal_now = replay.legal_actions()
            assert agent.act(replay.view(replay.to_move), legal_now) == action
            opponent_decisions += 1
        replay.apply(action)
    assert replay.is_over and opponent_decisions > 30
