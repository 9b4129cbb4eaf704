"""Rebel Space as a single-agent Gymnasium environment: the learner against a built-in agent.

``gymnasium.make("RebelSpace-v0", side="alternate", opponent="heuristic")``. The learner plays
``side`` ("rebel", "imperial", or "alternate": Rebel in the first episode, then switching at
every reset; a seeded reset starts with Rebel again); the other side is played by
``opponent``, any agent spec of the registry (``random``, ``heuristic``, ``ismcts:easy``,
``ismcts:200``, ...), which sees only its own view.

Observation: the learner's ``encoding.py`` vector (float32[2065]); ``action_masks()`` (and
``info["action_mask"]``) gives the legal actions, for maskable algorithms such as sb3-contrib's
``MaskablePPO``. Reward: +1 for a win, -1 for a loss, at the end; 0 before.

An illegal action (one outside the mask, as ``action_space.sample()`` mostly is) ends the
episode as a loss (-1) with ``info["illegal_action"]`` set, as PettingZoo's
``TerminateIllegalWrapper`` does; the game state is left unchanged. Games always end, so
episodes are never truncated.

Speed: the opponents ``random`` and ``heuristic`` decide on the true state without a view or
an observation. That is honest: neither reads anything hidden (the random agent reads nothing;
the heuristic is tested to choose the same whatever the hidden cards,
tests/agents/test_heuristic.py), so they make exactly the choices their ``Agent.act`` would
make from the view (``tests/env/test_gym_env.py`` checks it): see
``play.decider_for``, which the arena and the balance lab use too.
The learner's observation is kept up to date by ``incremental.py``, and its action mask is
built once per decision.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from rebelspace.agents import Agent
from rebelspace.agents.registry import make_agent
from rebelspace.engine import (
    SIDE_NAMES,
    ActionError,
    GameState,
    RulesOptions,
    context_for,
    new_game,
)
from rebelspace.play import Decider, decider_for
from rebelspace.seeds import GYM_OPPONENT, agent_seed

from .encoding import encoder_for, legal_mask
from .incremental import IncrementalEncoder

SIDES = (*SIDE_NAMES, "alternate")


class RebelSpaceEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        side: str = "alternate",
        opponent: str = "random",
        options: RulesOptions | None = None,
        render_mode: str | None = None,
    ) -> None:
        if side not in SIDES:
            raise ValueError(f"side must be one of {', '.join(SIDES)}, got {side!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.side = side
        self.opponent_spec = opponent
        self.rules = options
        self.render_mode = render_mode
        self.ctx = context_for(None, options)
        make_agent(opponent, self.ctx, 0)  # a bad spec fails here, not at the first reset
        self.encoder = encoder_for(self.ctx)
        self._observers = (
            IncrementalEncoder(self.encoder, 0),
            IncrementalEncoder(self.encoder, 1),
        )
        n_actions = self.ctx.space.size
        self.observation_space = spaces.Box(
            low=0, high=255, shape=(self.encoder.size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(n_actions)
        self.player = 0
        self.episodes = 0
        self.game: GameState | None = None
        self.opponent: Agent | None = None
        self._decide: Decider | None = None
        # The learner's mask at (game, decisions so far): built once, copied per request.
        self._mask: tuple[GameState | None, int, np.ndarray] = (None, -1, np.zeros(0, np.int8))

    # Gymnasium's signature (callers pass options= by name); this environment has no options.
    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,  # noqa: ARG002
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63 - 1))
        if seed is not None:
            self.episodes = 0  # a seeded reset starts the alternation again (reproducible)
        if self.side == "alternate":
            self.player = self.episodes % 2
        else:
            self.player = SIDES.index(self.side)
        self.episodes += 1
        self.game = new_game(game_seed, options=self.rules, log=self.render_mode is not None)
        self.opponent = make_agent(
            self.opponent_spec, self.ctx, agent_seed(game_seed, GYM_OPPONENT)
        )
        self._decide = decider_for(self.opponent, 1 - self.player)
        self._opponent_moves()
        return self._obs(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self._game()
        if game.is_over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            game.apply(int(action), player=self.player)  # checks legality, changes nothing if not
        except ActionError:
            info = self._info()
            info["illegal_action"] = True
            return self._obs(), -1.0, True, False, info
        self._opponent_moves()
        reward = 0.0
        if game.outcome is not None:
            reward = 1.0 if game.outcome.winner == self.player else -1.0
        return self._obs(), reward, game.is_over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as booleans (all False once the game is over)."""
        return self._int8_mask().view(bool).copy()

    def _int8_mask(self) -> np.ndarray:
        """The learner's mask as int8, built once per decision (``step`` puts it in the info,
        then the learner's loop asks ``action_masks()``); never handed out itself."""
        game = self._game()
        assert game.history is not None  # the env's own games keep their history
        at, decisions, mask = self._mask
        if at is not game or decisions != len(game.history):
            legal = game.legal_actions() if game.to_move == self.player else []
            mask = legal_mask(legal, self.ctx.space.size)
            self._mask = (game, len(game.history), mask)
        return mask

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        game = self._game()
        return "\n".join(game.log_lines(self.player)[-8:]) + f"\n{game!r}"

    def _opponent_moves(self) -> None:
        game = self._game()
        decide = self._decide
        assert decide is not None
        other = 1 - self.player
        while game.to_move == other:
            game.apply(decide(game, game.legal_actions()), player=other)

    def _obs(self) -> np.ndarray:
        return self._observers[self.player].observation(self._game())

    def _info(self) -> dict[str, Any]:
        game = self._game()
        info: dict[str, Any] = {"side": SIDE_NAMES[self.player]}
        info["action_mask"] = self._int8_mask().copy()
        if game.outcome is not None:
            info["winner"] = SIDE_NAMES[game.outcome.winner]
            info["reason"] = game.outcome.reason
        return info

    def _game(self) -> GameState:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game
