"""Which deal and which sides game *i* of a series between two agents gets.

Duplicate format cuts luck: between two different agents, games ``2k`` and ``2k + 1`` are the
same deal (``derive_seed(seed, DEAL + k)`` fixes both decks) with the agents' sides swapped, so
the luck of the deal cancels out of the comparison; the pair is one independent *unit*. In a
mirror series (one agent on both sides) the twin would be the same game again, so every game
is a new deal and its own unit.
"""

from __future__ import annotations

from rebelspace.seeds import DEAL, derive_seed


def unit_of(index: int, *, twinned: bool = True) -> int:
    """The independent unit (deal) game ``index`` belongs to."""
    return index // 2 if twinned else index


def deal_seed(seed: int, index: int, *, twinned: bool = True) -> int:
    """The seed that deals game ``index`` of the series seeded ``seed``."""
    return derive_seed(seed, DEAL + unit_of(index, twinned=twinned))


def first_is_rebel(index: int) -> bool:
    """Whether the series' first agent plays the Rebel in game ``index`` (even games)."""
    return index % 2 == 0
