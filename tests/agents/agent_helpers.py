"""Helpers shared by the sampling and agent tests: views without logs, card conservation, and
a second true state that a player cannot tell from the first."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable, Iterable

from rebelspace.engine import GameState, PlayerView
from tests.common import twin

__all__ = ["check_conservation", "public", "twin"]

REBEL, IMPERIAL = 0, 1


def public(view: PlayerView) -> PlayerView:
    """The view without its log (a sample has no history, so no log)."""
    return dataclasses.replace(view, log=())


def check_conservation(state: GameState) -> None:
    """Each card instance is in exactly one place; decks, hands and discard piles hold only
    their player's own cards (R4); cards are attached only to units in play."""
    t = state.ctx.tables
    owner = t.owner
    every: list[int] = []
    in_play: set[int] = set()
    for p in (REBEL, IMPERIAL):
        own = state.deck[p] + state.hand[p] + state.discard[p]
        strays = [state.name(c) for c in own if owner[c] != p]
        assert not strays, f"player {p}'s deck, hand or discard holds the other side's {strays}"
        every += own + state.active[p] + state.inactive[p]
        in_play.update(state.active[p], state.inactive[p])
    for hero, attached in enumerate(state.att):
        if attached:
            assert hero in in_play, f"{state.name(hero)} is not in play but carries {attached}"
            every += attached
    if sorted(every) != list(range(t.n)):  # say which card is wrong
        counts = Counter(every)
        twice = [state.name(c) for c, k in counts.items() if k > 1]
        missing = [state.name(c) for c in range(t.n) if c not in counts]
        raise AssertionError(f"cards in two places: {twice}; in no place: {missing}")


def check_blind_to_hidden_cards(
    positions: Iterable[GameState],
    choose: Callable[[GameState, int, int], object],
    rng: random.Random,
    at_least: int,
) -> None:
    """R5 for anything that decides (an agent, the hint): ``choose(game, player, seed)``, which
    may read only ``game.view(player)``, gives the same answer in a position that differs only
    in the opponent's hidden cards and both decks' order, for at least ``at_least`` of the
    ``positions`` (a position whose hidden cards cannot differ is skipped)."""
    checked = 0
    for seed, game in enumerate(positions):
        p = game.to_move
        other = twin(game, p, rng)
        if other is None:
            continue
        assert other.key() != game.key()
        assert public(other.view(p)) == public(game.view(p))
        assert other.legal_actions() == game.legal_actions()
        mine, theirs = choose(game, p, seed), choose(other, p, seed)
        assert mine == theirs, (seed, mine, theirs)
        checked += 1
    assert checked >= at_least, checked
