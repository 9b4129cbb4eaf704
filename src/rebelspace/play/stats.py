"""Intervals and ratings of game results: Wilson intervals for win rates, win rates over
games grouped in independent units (the two games of a deal played twice with the sides
swapped are one unit, not two samples), Bradley-Terry ratings on the Elo scale. The lab's
statistics (``lab/stats.py``) build on these."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

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


@dataclass(frozen=True, slots=True)
class Rate:
    """A win rate over games grouped in independent units, with its 95% interval."""

    wins: int
    games: int
    units: int  # independent units (deals) the games come from
    effective: float  # the number of independent games the interval is worth
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    def to_dict(self) -> dict[str, Any]:
        return {
            "wins": self.wins,
            "games": self.games,
            "independent": round(self.effective, 1),
            "rate": round(self.rate, 4) if self.games else None,
            "ci95": [round(self.low, 4), round(self.high, 4)],
        }


@dataclass(frozen=True, slots=True)
class DealCounts:
    """How a pair's deals went in duplicate format, from the first agent's side: both games won,
    both lost, or one each (split). A deal of one game (an odd number of games) is none of
    these. Many splits mean the deal, not the agents, decided most games (issue 29)."""

    won_both: int
    lost_both: int
    split: int

    def to_dict(self) -> dict[str, int]:
        return {"won_both": self.won_both, "lost_both": self.lost_both, "split": self.split}

    def text(self) -> str:
        return f"deals won both {self.won_both}, lost both {self.lost_both}, split {self.split}"


def deal_counts(units: Sequence[Sequence[bool]]) -> DealCounts:
    """The ``DealCounts`` of deals given as the first agent's wins of their games."""
    twice = [u for u in units if len(u) == 2]
    won = sum(1 for u in twice if all(u))
    lost = sum(1 for u in twice if not any(u))
    return DealCounts(won, lost, len(twice) - won - lost)


def unit_rate(units: Sequence[Sequence[bool]]) -> Rate:
    """The win rate of games grouped in units (each unit: the wins of its games)."""
    units = [u for u in units if u]
    wins = sum(sum(1 for w in u if w) for u in units)
    games = sum(len(u) for u in units)
    if games == 0:
        return Rate(0, 0, 0, 0.0, 0.0, 1.0)
    effective = float(games)
    if games > len(units):
        p = wins / games
        binomial = p * (1 - p) / games
        if binomial == 0 or len(units) < 2:
            effective = float(len(units))
        else:
            spread = sum((sum(1 for w in u if w) - p * len(u)) ** 2 for u in units)
            clustered = len(units) / (len(units) - 1) * spread / games**2
            # A deal played twice can tell more than two deals (the sides cancel out), but
            # that gain is measured from the sample; claiming it would be claiming too much.
            effective = max(len(units), games / max(1.0, clustered / binomial))
    low, high = wilson(wins * effective / games, effective)
    return Rate(wins, games, len(units), effective, low, high)
