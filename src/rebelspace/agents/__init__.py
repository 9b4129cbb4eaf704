"""Agents: whatever chooses actions for a player, seeing only that player's view.

An agent is anything with ``act(view, legal) -> action id``. It gets the player's
``PlayerView`` (what R5 lets that player know) and the legal action ids, never the game
state, so it cannot peek at the other hand or the deck order. This is the minimal interface;
a later issue extends it (search agents, per-game setup).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rebelspace.engine import PlayerView

from .random_agent import RandomAgent


@runtime_checkable
class Agent(Protocol):
    """Chooses one of ``legal`` (ids of the legal actions) from what ``view`` shows."""

    def act(self, view: PlayerView, legal: Sequence[int]) -> int: ...


__all__ = ["Agent", "RandomAgent"]
