"""A fast strong policy for bulk play (issue 17): no search at play time, a linear score of
each legal action (``features``, ``model``) fitted to what a search chose in thousands of
positions (``rebelspace distil``), shipped as ``weights.json`` (docs/model-card.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from rebelspace.engine import GameContext, PlayerView
from rebelspace.engine.sampling import sample_state

from ..base import ThinkingAgent
from .features import NAMES, SIZE, action_features
from .model import PolicyModel

__all__ = ["NAMES", "SIZE", "DistilledAgent", "PolicyModel", "action_features", "shipped"]


def shipped() -> PolicyModel:
    """The package's policy, read once per process."""
    return PolicyModel.shipped()


class DistilledAgent(ThinkingAgent):
    """Plays the distilled policy on a sample of its own view (``sample_state``): the features
    read nothing the view hides, but they are computed on a full state."""

    def __init__(
        self, ctx: GameContext, seed: int | None = None, path: str | Path | None = None
    ) -> None:
        self.ctx = ctx
        self.seed = seed
        self.rng = random.Random(seed)
        self.model = shipped() if path is None else PolicyModel.load(path)

    def choose(self, view: PlayerView, legal: Sequence[int]) -> int:
        state = sample_state(view, self.ctx, self.rng.getrandbits(62))
        return self.model.choose(state, legal)

    def __repr__(self) -> str:
        return f"DistilledAgent(seed={self.seed!r})"
