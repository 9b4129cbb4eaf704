"""Intervals and tests for the lab: Wilson intervals for win rates, normal intervals for means
and for differences, paired where two runs share their seeds, and Holm's correction when many
cards are tested at once.

Only independent games count. A run's games fall into *units*: one game per unit in a mirror
run (every game its own deal), or the two games of a deal played twice with the agents' sides
swapped. The two games of a unit share their deal, so they are not two independent samples:
rates shrink their game count by the pairs' measured design effect (never below one game
per unit, never above the real count), and differences are averaged within a unit first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rebelspace.play.stats import Z95, Rate, unit_rate, wilson

# Rate, unit_rate and wilson live in play.stats (the arena counts deals too); the lab's
# readers find them here as well.
__all__ = [
    "Diff",
    "Rate",
    "holm",
    "mean_ci",
    "paired_diff",
    "proportion_diff",
    "unit_paired_diff",
    "unit_rate",
    "wilson",
]


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a 95% normal interval."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        return (mean, mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return (mean, mean - half, mean + half)


@dataclass(frozen=True, slots=True)
class Diff:
    """B minus A, with its 95% interval and two-sided p-value."""

    diff: float
    low: float
    high: float
    p_value: float
    paired: bool
    n: int

    @property
    def significant(self) -> bool:
        return self.p_value < 0.05

    def to_dict(self) -> dict[str, Any]:
        return {
            "diff": round(self.diff, 4),
            "ci95": [round(self.low, 4), round(self.high, 4)],
            "p_value": round(self.p_value, 4),
            "significant": self.significant,
            "paired": self.paired,
            "n": self.n,
        }


def _p_value(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def paired_diff(a: Sequence[float], b: Sequence[float]) -> Diff:
    """Mean of ``b[i] - a[i]`` over matched games (the same seeds in both runs)."""
    if len(a) != len(b) or not a:
        raise ValueError("paired samples must be non-empty and of equal length")
    d = [y - x for x, y in zip(a, b, strict=True)]
    mean, low, high = mean_ci(d)
    half = high - mean
    se = half / Z95
    p = 1.0 if se == 0 and mean == 0 else 0.0 if se == 0 else _p_value(mean / se)
    return Diff(mean, low, high, p, True, len(d))


def proportion_diff(wins_a: float, n_a: float, wins_b: float, n_b: float) -> Diff:
    """``wins_b/n_b - wins_a/n_a`` for independent samples (normal approximation). Counts may
    be effective (fractional) numbers of independent games."""
    if n_a < 1 or n_b < 1:
        raise ValueError("both samples need at least one game")
    pa, pb = wins_a / n_a, wins_b / n_b
    se = math.sqrt(pa * (1 - pa) / n_a + pb * (1 - pb) / n_b)
    pooled = (wins_a + wins_b) / (n_a + n_b)
    se0 = math.sqrt(pooled * (1 - pooled) * (1 / n_a + 1 / n_b))
    d = pb - pa
    p = 1.0 if se0 == 0 else _p_value(d / se0)
    return Diff(d, d - Z95 * se, d + Z95 * se, p, False, int(min(n_a, n_b)))


def unit_paired_diff(a: Sequence[Sequence[float]], b: Sequence[Sequence[float]]) -> Diff:
    """``b - a`` on matched games grouped in units: each unit's mean difference is one sample."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same units")
    return paired_diff(
        [sum(u) / len(u) for u in a],
        [sum(v) / len(v) for v in b],
    )


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment: adjusted p-values, in the order given.

    A result whose adjusted p-value is below 5% is significant with at most a 5% chance that
    any of the tests flags a difference that is not there (family-wise error rate)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted
