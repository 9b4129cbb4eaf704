"""What every agent shares: the refusal to act in a finished game, and the free forced move.

Most agents pay for a choice (a sampled state, a search, a network), so ``ThinkingAgent``
answers the two cases that need no thought once for all of them: no legal action at all (the
caller's bug: the game is over) and a single legal action (taken at once, at no cost).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from rebelspace.engine import PlayerView, RebelSpaceError


class NoLegalActionError(RebelSpaceError, ValueError):
    """An agent was asked to act with no legal action: the game is over."""

    @classmethod
    def asked(cls, agent: object) -> NoLegalActionError:
        return cls(f"{agent!r} was asked to act with no legal action (game over?)")


class ThinkingAgent(ABC):
    """An ``Agent`` whose ``choose`` is called only when there is a real choice."""

    __slots__ = ()

    def act(self, view: PlayerView, legal: Sequence[int]) -> int:
        if not legal:
            raise NoLegalActionError.asked(self)
        if len(legal) == 1:
            return legal[0]
        return self.choose(view, legal)

    @abstractmethod
    def choose(self, view: PlayerView, legal: Sequence[int]) -> int:
        """One of ``legal`` (at least two ids) for the player whose view this is."""
