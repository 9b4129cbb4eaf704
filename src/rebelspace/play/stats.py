"""Intervals and ratings of game results: Wilson intervals for win rates, Bradley-Terry
ratings on the Elo scale. The lab's unit-aware statistics (``lab/stats.py``) build on these."""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import combinations

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


def wilson(wins: float, games: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a win rate (0..1), good even near 0% and 100%.

    Counts may be fractional: the balance lab passes an effective number of games when games
    come in correlated pairs (a deal played twice with the sides swapped)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry_elo(names: Sequence[str], wins: dict[tuple[str, str], int]) -> dict[str, float]:
    """Bradley-Terry strengths by the MM algorithm (Hunter 2004), on the Elo scale, mean 1500.

    ``wins[(x, y)]`` counts games x won against y. Half a win is added each way to every pair
    that met, so an agent that won or lost every game still gets a finite rating.
    """
    met = {(x, y) for x, y in combinations(names, 2) if wins.get((x, y), 0) + wins.get((y, x), 0)}
    w = {k: v + 0.0 for k, v in wins.items()}
    for x, y in met:
        w[(x, y)] = w.get((x, y), 0.0) + 0.5
        w[(y, x)] = w.get((y, x), 0.0) + 0.5
    strength = dict.fromkeys(names, 1.0)
    for _ in range(2000):
        new = {}
        for x in names:
            total_wins = sum(w.get((x, y), 0.0) for y in names if y != x)
            denom = sum(
                (w.get((x, y), 0.0) + w.get((y, x), 0.0)) / (strength[x] + strength[y])
                for y in names
                if y != x
            )
            new[x] = total_wins / denom if denom > 0 else strength[x]
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {k: v / math.exp(mean_log) for k, v in new.items()}
        done = max(abs(new[k] - strength[k]) for k in names) < 1e-10
        strength = new
        if done:
            break
    return {k: round(1500 + 400 * math.log10(v), 1) for k, v in strength.items()}
