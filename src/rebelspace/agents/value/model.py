"""The learnt value function at play time: a logistic regression on ``features``, standard
library only.

Why logistic regression: the search calls the evaluation at every leaf (a thousand times a
decision at ``expert``), in pure Python, on one core. A dot product of 29 numbers costs a
few microseconds on top of the features (about 10 us in all, ``benchmarks/levels.py``). A
tiny MLP (16 tanh units) fitted to the same rows did barely better on held-out games (log
loss 0.401 against 0.405 for the same linear model trained the same way, accuracy 81.1%
against 81.0%) for about 17 times the multiplications and 16 ``tanh`` calls a leaf. The
features carry the nonlinearity that matters (the race in turns, deck thresholds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rebelspace.engine import GameState

from ..weights import Weights
from .features import NAMES, features


@dataclass(frozen=True, slots=True)
class ValueModel(Weights):
    """``P(player wins) = sigmoid(weights . features(state, player))``; no intercept, so the
    two players' estimates add up to one (the features are antisymmetric)."""

    NAMES = NAMES
    PACKAGE = __package__ or "rebelspace.agents.value"
    WHAT = "the value model"
    AGAIN = "retrain it"

    def logit(self, state: GameState, player: int) -> float:
        """``weights . features``: the log-odds that ``player`` wins (not for a finished
        game, whose value is exact)."""
        return self.dot(features(state, player))

    def value(self, state: GameState, player: int, baseline: float = 0.0) -> float:
        """Estimated probability that ``player`` wins; exact once the game is over. With a
        ``baseline`` log-odds (the root's, in a search), the estimate is one half there."""
        outcome = state.outcome
        if outcome is not None:
            return 1.0 if outcome.winner == player else 0.0
        z = self.logit(state, player) - baseline
        if z < -30.0:
            return 1e-13
        return 1.0 / (1.0 + math.exp(-z))


def shipped() -> ValueModel:
    """The package's model, read once per process."""
    return ValueModel.shipped()


def learnt_value(state: GameState, player: int, baseline: float = 0.0) -> float:
    """Estimated probability that ``player`` wins, by the shipped model (``baseline``: see
    ``ValueModel.value``)."""
    return shipped().value(state, player, baseline)


def learnt_logit(state: GameState, player: int) -> float:
    """The shipped model's log-odds that ``player`` wins (a game not over)."""
    return shipped().logit(state, player)
