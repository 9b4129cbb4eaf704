"""A learnt evaluation (issue 17): features of a position, a logistic regression on them
trained on self-play outcomes (``rebelspace train``, the ``training`` package), and the
shipped weights (``weights.json``, see docs/model-card.md). Inference is the standard library
only; training uses NumPy (the ``rl`` extra)."""

from __future__ import annotations

from .features import NAMES, SIZE, features
from .model import ValueModel, learnt_logit, learnt_value, shipped

__all__ = [
    "NAMES",
    "SIZE",
    "ValueModel",
    "features",
    "learnt_logit",
    "learnt_value",
    "shipped",
]
