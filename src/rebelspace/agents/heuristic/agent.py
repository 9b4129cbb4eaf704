"""The entry points: ``heuristic_action`` (one decision, on a full state) and
``HeuristicAgent`` (the standalone agent, on its view)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from types import MappingProxyType

from rebelspace.engine import GameContext, GameState, PlayerView, Step, context_for
from rebelspace.engine.sampling import sample_state

from ..base import NoLegalActionError, ThinkingAgent
from .blocks import block
from .deploy import deploy
from .end import discard, end
from .plan import form
from .steps import casualty, draw, ion, target, tricks
from .style import DEFAULT, Style

StepHandler = Callable[[GameState, Sequence[int]], int]

#: The decision-maker for each step of the turn (``GameState.step``); every step but
#: ``Step.OVER`` (no decisions once the game is over) has one.
STEP_HANDLERS: Mapping[int, StepHandler] = MappingProxyType(
    {
        Step.DRAW: draw,
        Step.FORM: form,
        Step.ION: ion,
        Step.BLOCK: block,
        Step.TARGET: target,
        Step.TRICKS: tricks,
        Step.CASUALTY: casualty,
        Step.DEPLOY: deploy,
        Step.END: end,
        Step.DISCARD: discard,
    }
)


def heuristic_action(state: GameState, legal: Sequence[int]) -> int:
    """The heuristic's choice among ``legal`` for ``state.to_move`` (see the package doc).

    Reads only what that player may know, so ``state`` may be the true state or any
    determinization of the player's view. It draws no random numbers: a plan must stay the
    same over the small steps that carry it out.
    """
    if len(legal) == 1:
        return legal[0]
    if not legal:
        raise NoLegalActionError("heuristic_action needs at least one legal action (game over?)")
    return STEP_HANDLERS[state.step](state, legal)


def styled_action(style: Style) -> StepHandler:
    """``heuristic_action`` playing ``style`` (``style.py``): the variants of
    ``benchmarks/heuristic_variants.py``. ``styled_action(DEFAULT)`` chooses as
    ``heuristic_action`` does."""
    if style == DEFAULT:
        return heuristic_action
    handlers: dict[int, StepHandler] = {
        **STEP_HANDLERS,
        Step.DRAW: partial(draw, style=style),
        Step.BLOCK: partial(block, style=style),
        Step.FORM: partial(form, style=style),
        Step.TRICKS: partial(tricks, style=style),
    }

    def action(state: GameState, legal: Sequence[int]) -> int:
        if len(legal) == 1:
            return legal[0]
        return handlers[state.step](state, legal)

    return action


class HeuristicAgent(ThinkingAgent):
    """The rule-based player as an ``Agent``: it samples a full state from its view
    (``sample_state``, so it never sees the true state) and plays ``heuristic_action`` on it.

    >>> from rebelspace.engine import new_game
    >>> game = new_game(seed=7)
    >>> agent = HeuristicAgent(seed=1)
    >>> game.action_text(agent.act(game.view(game.to_move), game.legal_actions()))
    'draw 2'
    """

    __slots__ = ("seed", "ctx", "_rng")

    def __init__(self, seed: int | None = None, ctx: GameContext | None = None) -> None:
        self.seed = seed
        self.ctx = ctx if ctx is not None else context_for()
        self._rng = random.Random(seed)  # seeds the samples of hidden cards

    def choose(self, view: PlayerView, legal: Sequence[int]) -> int:
        state = sample_state(view, self.ctx, self._rng.getrandbits(63))
        return heuristic_action(state, legal)

    def __repr__(self) -> str:
        return f"HeuristicAgent(seed={self.seed!r})"
