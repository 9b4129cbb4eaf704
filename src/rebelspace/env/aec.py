"""Rebel Space as a PettingZoo AEC environment, shaped like PettingZoo's classic games.

Agents ``rebel`` and ``imperial``. ``agent_selection`` is whoever must decide next, which is
often the same agent several times in a row (forming groups, deploying) and sometimes the
player whose turn it is not (blocking, battle tricks, casualties).

Observation: ``{"observation": float32[2065], "action_mask": int8[2933]}``; the observation is
``encoding.py``'s encoding of that agent's view only (R5), the mask marks the legal actions of
the engine's fixed action space (all zero when it is not that agent's decision).
Rewards: +1 to the winner and -1 to the loser when the game ends, 0 before. Both agents are
then terminated; games always end (R9: a deck runs out), so nothing is ever truncated.

Illegal actions, per PettingZoo's convention for classic games: ``env()`` behaves as
``raw_env`` wrapped in ``TerminateIllegalWrapper(illegal_reward=-1)`` (an illegal action ends
the game with -1 for the agent that made it and 0 for the other, all agents terminated and
truncated, a logged warning; the game state is unchanged), ``AssertOutOfBoundsWrapper`` (an
action outside the action space fails an assertion) and ``OrderEnforcingWrapper`` (using the
environment before ``reset()`` is an error, stepping after the end a warning). Those checks
are built into one class, ``checked_env``, rather than stacked as three wrappers: each
wrapper layer forwards every attribute read through ``__getattr__`` (some 36 per step), which
took ``env()`` from ~47,000 to ~20,000 steps per second. ``tests/env/test_aec_env.py`` plays
``env()`` beside ``raw_env`` in PettingZoo's own three wrappers, an illegal move included,
and checks that every observation, reward and flag is the same. ``raw_env.step`` itself
raises the engine's ``IllegalActionError`` naming the reason.

Speed: the observation is kept up to date per player (``incremental.py``: only the slices
whose inputs changed are re-encoded, the same values as ``encoding.py``), and the reward
dicts are only rebuilt at the end of a game (every reward is 0 before it).

Seeding: ``reset(seed=S)`` deals game seed ``S`` (the same deal as ``new_game(S)``); a reset
without a seed deals the next seed of a stream begun by the last seeded reset.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable, AECIterator
from pettingzoo.utils.env_logger import EnvLogger

from rebelspace.engine import (
    SIDE_NAMES,
    ActionError,
    GameState,
    RulesOptions,
    context_for,
    new_game,
)

from .encoding import encoder_for, legal_mask
from .incremental import IncrementalEncoder

AGENTS = SIDE_NAMES  # PettingZoo's agent names are the sides' (public: rebelspace.env.AGENTS)
PLAYER_OF = {agent: p for p, agent in enumerate(AGENTS)}
# What OrderEnforcingWrapper refuses to show before the first reset().
_AFTER_RESET = frozenset(
    ("rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents")
)


def env(**kwargs: Any) -> AECEnv:
    """The environment as PettingZoo classic envs hand it out: ``raw_env`` with the checks of
    PettingZoo's standard wrappers (see the module doc)."""
    return checked_env(**kwargs)


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's name for the unwrapped class)
    metadata: dict[str, Any] = {
        "render_modes": ["human", "ansi"],
        "name": "rebel_space_v0",
        "is_parallelizable": False,
    }

    def __init__(self, render_mode: str | None = None, options: RulesOptions | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.rules = options
        self.ctx = context_for(None, options)
        self.encoder = encoder_for(self.ctx)
        self._observers = (
            IncrementalEncoder(self.encoder, 0),
            IncrementalEncoder(self.encoder, 1),
        )
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._n_actions = n_actions = self.ctx.space.size
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0, high=255, shape=(self.encoder.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in AGENTS}
        self._seeds = random.Random()
        self.game: GameState | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # PettingZoo's signature (callers pass options= by name); this environment has no options.
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:  # noqa: ARG002
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        self.game = new_game(game_seed, options=self.rules, log=self.render_mode is not None)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.game.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._game()
        player = PLAYER_OF[agent]
        if game.to_move == player:
            mask = legal_mask(game.legal_actions(), self._n_actions)
        else:
            mask = np.zeros(self._n_actions, dtype=np.int8)
        return {"observation": self._observers[player].observation(game), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game()
        game.apply(int(action), player=PLAYER_OF[agent])  # type: ignore[arg-type]
        self._moved(game)

    def _moved(self, game: GameState) -> None:
        """After a legal move: the next agent, or the rewards when the game is over. Until then
        every reward is 0, so the reward dicts (all zero since reset) need no update."""
        outcome = game.outcome
        if outcome is None:
            self.agent_selection = AGENTS[game.to_move]
        else:
            winner = AGENTS[outcome.winner]
            self.rewards = {a: 1.0 if a == winner else -1.0 for a in AGENTS}
            self.terminations = dict.fromkeys(AGENTS, True)
            self.infos = {a: {"reason": outcome.reason} for a in AGENTS}
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The last lines of the log as the agent to act may read it (R5: never the other
        player's draws or hand), and the public state line."""
        if self.render_mode is None:
            return None
        game = self._game()
        lines = game.log_lines(PLAYER_OF[self.agent_selection])
        text = "\n".join(lines[-8:]) + f"\n{game!r}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def _game(self) -> GameState:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game


class checked_env(raw_env):  # noqa: N801  (named like raw_env)
    """``raw_env`` with the behaviour of ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(
    TerminateIllegalWrapper(raw_env, illegal_reward=-1)))`` built in (see the module doc)."""

    def __init__(self, render_mode: str | None = None, options: RulesOptions | None = None):
        super().__init__(render_mode, options)
        del self.agents  # as behind OrderEnforcingWrapper: set by reset()
        self._has_reset = False
        self._has_updated = False  # a step() or reset() since agent_iter's last agent

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails, so it costs nothing once reset() has run.
        if name in _AFTER_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._has_reset = True
        self._has_updated = True
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return super().observe(agent)

    def render(self) -> str | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> np.ndarray:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        state: np.ndarray = super().state()
        return state

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _CheckedIterable(self, max_iter)

    def step(self, action: int | None) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        in_bounds = type(action) is int and 0 <= action < self._n_actions  # the common case
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                assert in_bounds or self.action_spaces[agent].contains(action), (
                    "action is not in action space"
                )
            self._was_dead_step(action)
            return
        assert in_bounds or self.action_spaces[agent].contains(action), (
            "action is not in action space"
        )
        game = self._game()
        try:
            game.apply(int(action), player=PLAYER_OF[agent])  # type: ignore[arg-type]
        except ActionError:
            # Exactly what TerminateIllegalWrapper does; the engine left the state unchanged.
            EnvLogger.warn_on_illegal_move()
            self._cumulative_rewards[agent] = 0.0
            self.terminations = dict.fromkeys(self.agents, True)
            self.truncations = dict.fromkeys(self.agents, True)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.rewards[agent] = -1.0
            self._accumulate_rewards()
            self._deads_step_first()
            return
        self._moved(game)


class _CheckedIterable(AECIterable):
    def __iter__(self) -> Iterator[str]:
        return _CheckedIterator(self.env, self.max_iter)


class _CheckedIterator(AECIterator):
    """As OrderEnforcingWrapper's iterator: each agent it yields must be stepped first."""

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        agent: str = env.agent_selection
        # The flag belongs to checked_env, whose iterator this is (as in PettingZoo's own).
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"  # noqa: SLF001
        env._has_updated = False  # noqa: SLF001
        return agent
