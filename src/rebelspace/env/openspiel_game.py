"""Rebel Space as an OpenSpiel Python game, ``python_rebel_space`` (registered on import).

    import pyspiel, rebelspace.env.openspiel_game
    game = pyspiel.load_game("python_rebel_space")
    game = pyspiel.load_game("python_rebel_space", {"seed": 7, "rules": "tie=defender"})

Parameters: ``seed`` (-1: random) and ``rules``, comma-separated rules settings as the command
line takes them (``tie=defender,hand_limit=10``; empty: the standard rules).

Game type: sequential, two players, zero-sum, terminal rewards (+1/-1), imperfect information.
Chance is *sampled stochastic*: the engine shuffles and draws inside the state from its seeded
RNG, so there are no chance nodes. Each new initial state deals the next seed of a stream begun
at the ``seed`` parameter (-1: a random stream). Actions are the engine's fixed action space
(2,933 ids); ``max_game_length`` is the safety bound ``rebelspace.bounds.MAX_DECISIONS`` (real
games take a few hundred decisions).

Observation tensor/string: ``encoding.py``'s encoding of the player's view (R5); the string
lists its non-zero entries by name. Information state: the same tensor; its string is the
observation string preceded by the actions played so far (every action in Rebel Space is
public: it names a card by type and the card is then seen), which makes it a perfect-recall
key. (The tensor does not carry the history; that is documented, not hidden.)

``state.resample_from_infostate(player, sampler)`` deals a state consistent with what the
player knows: it builds the player's view and samples from it (``engine.sampling``), so the
real hidden cards and the engine's RNG never reach the result. OpenSpiel's Python
``ISMCTSBot`` uses it by default. ``RolloutEvaluator`` is OpenSpiel's
``RandomRolloutEvaluator`` (uniform random play to the end) run on the engine directly instead
of through the pyspiel bridge, which makes rollouts several times faster.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from rebelspace.agents.base import ThinkingAgent
from rebelspace.agents.registry import AgentSpecError
from rebelspace.bounds import MAX_DECISIONS
from rebelspace.engine import (
    GameContext,
    GameState,
    PlayerView,
    RulesOptions,
    context_for,
    new_game,
)
from rebelspace.engine.sampling import sample_state
from rebelspace.seeds import OPENSPIEL_GAME, derive_seed

from .encoding import Encoder, encoder_for

SHORT_NAME = "python_rebel_space"

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Rebel Space",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"seed": -1, "rules": ""},
)


def rules_from_text(text: str) -> RulesOptions:
    """``tie=defender,hand_limit=10`` -> RulesOptions (empty: the standard rules)."""
    options = RulesOptions()
    for setting in filter(None, (part.strip() for part in text.split(","))):
        options = options.with_setting(setting)
    return options


def rules_text(options: RulesOptions) -> str:
    """The settings of ``options`` that differ from the standard rules, as ``rules`` takes them."""
    default = RulesOptions().to_dict()
    return ",".join(f"{k}={v}" for k, v in options.to_dict().items() if default[k] != v)


class RebelSpaceGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"seed": -1, "rules": "", **(params or {})}
        self.options = rules_from_text(str(params["rules"]))
        self.ctx: GameContext = context_for(None, self.options)
        self.encoder = encoder_for(self.ctx)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ctx.space.size,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_DECISIONS,
        )
        super().__init__(GAME_TYPE, info, params)
        seed = int(params["seed"])
        self.seeds = random.Random(seed if seed >= 0 else None)

    def new_initial_state(self, *_: Any) -> RebelSpaceState:
        return RebelSpaceState(self, None)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.encoder, perfect_recall)


class _Engine:
    """The engine state and the actions played, copied cheaply when OpenSpiel clones.

    ``PyState::Clone`` deep-copies every attribute of the Python state; a deep copy of a
    ``GameState`` would copy its shared card tables too, so this holder copies with ``clone``.
    """

    __slots__ = ("game", "actions")

    def __init__(self, game: GameState, actions: list[int]) -> None:
        self.game = game
        self.actions = actions

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.game.clone(), self.actions[:])


class RebelSpaceState(pyspiel.State):
    def __init__(self, game: RebelSpaceGame, engine: _Engine | None) -> None:
        super().__init__(game)
        if engine is None:
            seed = game.seeds.getrandbits(63)
            engine = _Engine(new_game(seed, options=game.options, log=False), [])
        self.engine = engine

    @property
    def game_state(self) -> GameState:
        return self.engine.game

    def current_player(self) -> int:
        g = self.engine.game
        return int(pyspiel.PlayerId.TERMINAL) if g.to_move < 0 else g.to_move

    # pyspiel's signature; only the player to move is ever asked (a sequential game).
    def _legal_actions(self, player: int) -> list[int]:  # noqa: ARG002
        return self.engine.game.legal_actions()

    def _apply_action(self, action: int) -> None:
        self.engine.game.apply(int(action))
        self.engine.actions.append(int(action))

    # pyspiel's signature; an action's text is the same whoever reads it.
    def _action_to_string(self, player: int, action: int) -> str:  # noqa: ARG002
        return self.engine.game.ctx.space.text(action)

    def is_terminal(self) -> bool:
        return self.engine.game.outcome is not None

    def returns(self) -> list[float]:
        outcome = self.engine.game.outcome
        if outcome is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if outcome.winner == 0 else [-1.0, 1.0]

    # OpenSpiel's signature; the hidden cards are dealt from the game's own seeded stream.
    def resample_from_infostate(
        self,
        player_id: int,
        probability_sampler: Any = None,  # noqa: ARG002
    ) -> Any:
        """A state ``player_id`` cannot tell from this one, hidden cards dealt at random."""
        game = self.get_game()
        seed = game.seeds.getrandbits(63)
        return state_from_view(game, self.engine.game.view(player_id), seed, self.engine.actions)

    def __str__(self) -> str:
        g = self.engine.game
        return f"{g!r} after {len(self.engine.actions)} actions"


def state_from_view(
    game: RebelSpaceGame, view: PlayerView, seed: int, actions: Sequence[int] = ()
) -> RebelSpaceState:
    """A pyspiel state sampled from ``view``: all the view shows, the rest dealt at random."""
    engine = sample_state(view, game.ctx, seed)
    return RebelSpaceState(game, _Engine(engine, list(actions)))


class Observer:
    """OpenSpiel's PyObserver interface: the encoding as ``tensor``, its slices in ``dict``."""

    def __init__(self, encoder: Encoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        lay = encoder.layout
        self.tensor = np.zeros(lay.size, np.float32)
        self.dict = {name: self.tensor[lay.slice(name)] for name in lay.offsets}

    def set_from(self, state: RebelSpaceState, player: int) -> None:
        self.tensor[:] = np.frombuffer(self.encoder.encode(state.engine.game, player), np.uint8)

    def string_from(self, state: RebelSpaceState, player: int) -> str:
        text = self.encoder.describe(state.engine.game, player)
        if self.perfect_recall:
            return f"actions {','.join(map(str, state.engine.actions))} | {text}"
        return text


class RolloutEvaluator(mcts.RandomRolloutEvaluator):
    """``RandomRolloutEvaluator`` on the engine: uniform random actions until the game ends."""

    def evaluate(self, state: RebelSpaceState) -> np.ndarray:
        total = np.zeros(2)
        for _ in range(self.n_rollouts):
            g = state.engine.game.clone()
            rng = random.Random(int(self._random_state.randint(2**31)))
            while g.to_move >= 0:
                legal = g.legal_actions()
                g.apply(legal[int(rng.random() * len(legal))])
            assert g.outcome is not None
            total[g.outcome.winner] += 1.0
            total[1 - g.outcome.winner] -= 1.0
        values: np.ndarray = total / self.n_rollouts
        return values


def make_bot(game: RebelSpaceGame, iterations: int, seed: int) -> ismcts.ISMCTSBot:
    """OpenSpiel's Python ISMCTS bot as the arena uses it: UCT (c = sqrt 2), ``iterations``
    simulations, one random rollout each, a fresh world sample per simulation."""
    rs = np.random.RandomState(seed % 2**32)
    return ismcts.ISMCTSBot(
        game=game,
        evaluator=RolloutEvaluator(n_rollouts=1, random_state=rs),
        uct_c=2**0.5,
        max_simulations=iterations,
        random_state=rs,
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )


class OpenSpielISMCTSAgent(ThinkingAgent):
    """``openspiel-ismcts[:N]``: OpenSpiel's ``ISMCTSBot`` with ``N`` simulations per decision.

    It gets only its view: the root state handed to the bot is sampled from the view, and the
    bot's world samples are drawn from that state's view again (``resample_from_infostate``).
    The agent does not know the action history, so its information-state keys hold the view.
    """

    def __init__(
        self, iterations: int = 100, seed: int = 0, ctx: GameContext | None = None
    ) -> None:
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations}")
        self.iterations = iterations
        self.seed = seed
        rules = rules_text(ctx.options) if ctx is not None else ""
        self.game = RebelSpaceGame(
            {"seed": derive_seed(seed, OPENSPIEL_GAME) % 2**31, "rules": rules}
        )
        self.bot = make_bot(self.game, iterations, seed)
        self._rng = random.Random(seed)

    def choose(self, view: PlayerView, legal: Sequence[int]) -> int:
        state = state_from_view(self.game, view, self._rng.getrandbits(63))
        action = int(self.bot.step(state))
        if action not in legal:  # the sampled state's legal actions are the view's (R5)
            raise RuntimeError(f"OpenSpiel ISMCTS chose {action}, not legal here")
        return action

    def __repr__(self) -> str:
        return f"OpenSpielISMCTSAgent(iterations={self.iterations}, seed={self.seed})"


def make_openspiel_ismcts_agent(arg: str, ctx: GameContext, seed: int) -> OpenSpielISMCTSAgent:
    """The registry's ``openspiel-ismcts[:N]`` (``rebelspace.agents.registry``): N simulations
    per decision, 100 if not given."""
    if arg and not (arg.isascii() and arg.isdigit() and int(arg) > 0):
        raise AgentSpecError(f"openspiel-ismcts takes a number of iterations, got {arg!r}")
    return OpenSpielISMCTSAgent(int(arg) if arg else 100, seed, ctx)


pyspiel.register_game(GAME_TYPE, RebelSpaceGame)

__all__ = [
    "GAME_TYPE",
    "SHORT_NAME",
    "OpenSpielISMCTSAgent",
    "RebelSpaceGame",
    "RebelSpaceState",
    "RolloutEvaluator",
    "make_bot",
    "make_openspiel_ismcts_agent",
    "state_from_view",
]
