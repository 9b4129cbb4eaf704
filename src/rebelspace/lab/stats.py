"""Intervals and tests for the lab: Wilson intervals for win rates, Student's t intervals for
means and for differences, paired where two runs share their seeds, clamped to what is possible,
and Holm's correction when many cards are tested at once.

Only independent games count. A run's games fall into *units*: one game per unit in a mirror
run (every game its own deal), or the two games of a deal played twice with the agents' sides
swapped. The two games of a unit share their deal, so they are not two independent samples:
rates shrink their game count by the pairs' measured design effect (never below one game
per unit, never above the real count), and differences are averaged within a unit first.

Below ``MIN_DEALS`` independent units a number is reported as "too few games": it is shown,
never trusted, ranked or called significant.
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
    "MIN_DEALS",
    "Diff",
    "Rate",
    "enough",
    "holm",
    "mean_ci",
    "t95",
    "paired_diff",
    "proportion_diff",
    "unit_paired_diff",
    "unit_rate",
    "wilson",
]


#: Fewer independent units (deals) than this and a rate or mean is "too few games": with 30
#: deals a rate's 95% interval is still about +-17 points wide, so fewer say little.
MIN_DEALS = 30


def enough(deals: int) -> bool:
    """Whether ``deals`` independent units are enough to trust, rank or test a number."""
    return deals >= MIN_DEALS


def t95(n: int) -> float:
    """The t quantile of a two-sided 95% interval for the mean of ``n`` samples (n >= 2): 3.18
    at n = 4 where the normal approximation would claim 1.96."""
    from scipy import (
        stats as scipy_stats,
    )  # the lab extra; imported here so the core CLI loads without it

    return float(scipy_stats.t.ppf(0.975, n - 1))


def mean_ci(
    values: Sequence[float], bounds: tuple[float, float] | None = None
) -> tuple[float, float, float]:
    """(mean, low, high): the mean with a 95% Student's t interval, clamped to ``bounds`` (the
    least and most the mean can be: a rate never goes below 0% nor above 100%)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = sum(values) / n
    if n == 1:
        low, high = bounds if bounds else (mean, mean)  # one sample: anything possible is
        return (mean, low, high)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t95(n) * math.sqrt(var / n)
    low, high = mean - half, mean + half
    if bounds:
        low, high = max(bounds[0], low), min(bounds[1], high)
    return (mean, low, high)


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
    """Mean of ``b[i] - a[i]`` over matched games (the same seeds in both runs): a t interval
    clamped to -100..+100 points, and the t test's p-value."""
    if len(a) != len(b) or not a:
        raise ValueError("paired samples must be non-empty and of equal length")
    d = [y - x for x, y in zip(a, b, strict=True)]
    n = len(d)
    mean, low, high = mean_ci(d, (-1.0, 1.0))
    var = sum((v - mean) ** 2 for v in d) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n)
    if se == 0:
        p = 1.0 if mean == 0 or n == 1 else 0.0
    else:
        from scipy import stats as scipy_stats  # the lab extra, as in t95

        p = float(2 * scipy_stats.t.sf(abs(mean / se), n - 1))
    return Diff(mean, low, high, p, True, n)


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
    low, high = max(-1.0, d - Z95 * se), min(1.0, d + Z95 * se)
    return Diff(d, low, high, p, False, int(min(n_a, n_b)))


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
