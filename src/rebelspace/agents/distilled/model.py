"""The distilled policy at play time: a linear score of each legal action's features
(``features.py``), the highest played; standard library only.

It is fitted (``rebelspace distil``, ``training.distil``) to the share of a search's visits
that each action got, as a softmax over the legal actions, so the score is the log of how
much the search preferred the action, up to a constant per position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rebelspace.engine import GameState

from ..weights import Weights
from .features import NAMES, action_features


@dataclass(frozen=True, slots=True)
class PolicyModel(Weights):
    """``score(action) = weights . action_features(state, action)``."""

    NAMES = NAMES
    PACKAGE = __package__ or "rebelspace.agents.distilled"
    WHAT = "the distilled policy"
    AGAIN = "distil it again"

    def scores(self, state: GameState, legal: Sequence[int]) -> list[float]:
        return [self.dot(row) for row in action_features(state, legal)]

    def choose(self, state: GameState, legal: Sequence[int]) -> int:
        """The legal action with the highest score (the first of equals)."""
        scores = self.scores(state, legal)
        return legal[max(range(len(legal)), key=scores.__getitem__)]
