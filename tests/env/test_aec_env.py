"""The PettingZoo AEC environment: PettingZoo's own API and seed tests, rewards, illegal moves."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from rebelspace.engine import IllegalActionError, RulesOptions, new_game
from rebelspace.env import AGENTS, env, raw_env
from rebelspace.env.encoding import encode


def test_pettingzoo_api_test() -> None:
    with warnings.catch_warnings():
        # The same advice PettingZoo's own classic games get (agent names, Dict observations).
        warnings.simplefilter("ignore", UserWarning)
        api_test(env(), num_cycles=1000)


def test_pettingzoo_seed_test() -> None:
    seed_test(env, num_cycles=500)


def _play(e, seed: int) -> tuple[dict[str, float], int]:  # type: ignore[no-untyped-def]
    """Random play through agent_iter; returns the final cumulative rewards and the steps."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    final: dict[str, float] = {}
    steps = 0
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        assert not trunc
        if term:
            final[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        # Only the agent to move has a non-empty mask.
        other = AGENTS[1 - AGENTS.index(agent)]
        assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(list(legal))))
        steps += 1
    return final, steps


@pytest.mark.parametrize("seed", [0, 5])
def test_a_game_ends_with_plus_one_and_minus_one(seed: int) -> None:
    final, steps = _play(env(), seed)
    assert sorted(final.values()) == [-1.0, 1.0]
    assert set(final) == set(AGENTS)
    assert steps > 50


def test_reset_seed_deals_that_engine_game() -> None:
    e = raw_env()
    e.reset(seed=11)
    game = new_game(11)
    assert e.agent_selection == AGENTS[game.to_move]
    for p, agent in enumerate(AGENTS):
        assert np.array_equal(e.observe(agent)["observation"], encode(game, p))
    assert list(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])) == (
        game.legal_actions()
    )


def test_same_seed_same_game_and_unseeded_resets_differ() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=3)
    b.reset(seed=3)
    assert a.game == b.game
    a.reset()
    b.reset()
    assert a.game == b.game  # the stream of a seeded reset is reproducible too
    first = a.game
    a.reset()
    assert a.game != first


def test_illegal_action_in_raw_env_raises_and_changes_nothing() -> None:
    e = raw_env()
    e.reset(seed=2)
    before = e.game.clone()  # type: ignore[union-attr]
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    assert e.game == before


def test_illegal_action_in_wrapped_env_loses_the_game() -> None:
    e = env()
    e.reset(seed=2)
    mover = e.agent_selection
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(illegal)
    assert all(e.terminations.values())
    assert e.rewards[mover] == -1
    assert e.rewards[AGENTS[1 - AGENTS.index(mover)]] == 0


def test_spaces_and_rules_options() -> None:
    e = raw_env(options=RulesOptions(max_groups=3))
    e.reset(seed=0)
    space, actions = e.observation_space("rebel"), e.action_space("imperial")
    assert isinstance(space, spaces.Dict) and isinstance(actions, spaces.Discrete)
    obs = e.observe("rebel")
    assert space.contains(obs)
    assert e.game is not None and actions.n == e.game.ctx.space.size
    assert obs["observation"].shape == space["observation"].shape


def test_bad_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")


def test_ansi_render_shows_the_log() -> None:
    e = raw_env(render_mode="ansi")
    e.reset(seed=4)
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    text = e.render()
    assert text is not None and "turn 1" in text.lower()


def test_render_shows_only_what_the_agent_to_act_may_see() -> None:
    """R5: rendering never prints the other player's hidden cards (their draws, their hand)."""
    from rebelspace.engine import events as ev

    e = raw_env(render_mode="ansi")
    e.reset(seed=11)
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(300):
        if any(e.terminations.values()):
            break
        acting = AGENTS.index(e.agent_selection)
        game = e.game
        assert game is not None and game.events is not None
        names = game.ctx.tables.names
        hidden = {
            ev.render(x, names)
            for x in game.events
            if isinstance(x, ev.CardsSeen) and x.to != acting
        }
        text = e.render()
        assert text is not None
        shown = set(text.splitlines())
        assert not shown & hidden, shown & hidden
        checked += bool(hidden)
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked > 50  # the other player's hidden lines existed and were left out


def _pettingzoo_wrapped() -> AECEnv:
    """raw_env in PettingZoo's own classic wrappers: what env() must behave like."""
    e: AECEnv = raw_env()
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


@pytest.mark.parametrize("seed", [1, 4])
def test_env_behaves_as_raw_env_in_pettingzoo_wrappers(seed: int) -> None:
    """Random play, with an illegal action at a random point in one of the games: the same
    observations, rewards, terminations, truncations and agents at every step."""
    ours, theirs = env(), _pettingzoo_wrapped()
    rng = random.Random(seed)
    illegal_at = rng.randrange(10, 40) if seed == 1 else -1
    illegal_done = False
    ours.reset(seed=seed)
    theirs.reset(seed=seed)
    steps = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for agent, other in zip(ours.agent_iter(), theirs.agent_iter(), strict=True):
            assert agent == other
            a, b = ours.last(), theirs.last()
            assert np.array_equal(a[0]["observation"], b[0]["observation"])  # type: ignore[index]
            assert np.array_equal(a[0]["action_mask"], b[0]["action_mask"])  # type: ignore[index]
            assert a[1:] == b[1:]
            for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
                assert getattr(ours, name) == getattr(theirs.unwrapped, name), name
            if a[2] or a[3]:
                action = None
            elif steps == illegal_at:
                action = int(np.flatnonzero(a[0]["action_mask"] == 0)[0])  # type: ignore[index]
                illegal_done = True
            else:
                action = int(rng.choice(list(np.flatnonzero(a[0]["action_mask"]))))  # type: ignore[index]
            ours.step(action)
            theirs.step(action)
            steps += 1
    assert ours.agents == theirs.agents == []
    assert illegal_done == (seed == 1)
    assert steps > (12 if seed == 1 else 40)


def test_env_refuses_use_before_reset() -> None:
    e = env()
    for name in ("agents", "rewards", "terminations", "agent_selection", "num_agents"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(e, name)
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.observe("rebel")
    with pytest.raises(AssertionError, match="reset"):
        e.agent_iter()


def test_env_asserts_actions_in_the_action_space() -> None:
    e = env()
    e.reset(seed=0)
    for bad in (-1, e.action_space("rebel").n, 2.5, "draw 2"):  # type: ignore[attr-defined]
        with pytest.raises(AssertionError, match="not in action space"):
            e.step(bad)  # type: ignore[arg-type]
    e.step(np.int64(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])))
    assert e.game is not None and len(e.game.history or []) == 1  # numpy integers are fine


def test_env_agent_iter_needs_a_step_between_agents() -> None:
    e = env()
    e.reset(seed=0)
    it = iter(e.agent_iter())
    next(it)
    with pytest.raises(AssertionError, match="step"):
        next(it)


def test_env_step_after_the_end_only_warns() -> None:
    e = env()
    final, _ = _play(e, 2)
    assert not e.agents and sorted(final.values()) == [-1.0, 1.0]
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        e.step(None)  # PettingZoo logs a warning; nothing changes
    assert not e.agents
