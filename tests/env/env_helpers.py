"""Shared helpers of the environment tests: random games and states a player cannot tell apart."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from rebelspace.engine import GameState, RulesOptions, new_game


def random_states(
    seed: int, *, every: int = 1, options: RulesOptions | None = None
) -> Iterator[GameState]:
    """Every ``every``-th state of one game of random play, the final state included."""
    rng = random.Random(seed)
    game = new_game(seed, options=options, log=False)
    n = 0
    while game.to_move >= 0:
        if n % every == 0:
            yield game
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    yield game


def twin(game: GameState, player: int, rng: random.Random) -> GameState | None:
    """Another true state ``player`` cannot tell from ``game``: an opponent hand card the player
    does not know of swapped with an opponent deck card of another name, both decks shuffled,
    a new engine RNG. None when no such swap exists."""
    opp = 1 - player
    t = game.ctx.tables
    known = Counter(game.known[player])
    in_hand = Counter(t.type_of[c] for c in game.hand[opp])
    unknown = [
        i for i, c in enumerate(game.hand[opp]) if in_hand[t.type_of[c]] > known[t.type_of[c]]
    ]
    if not unknown:
        return None
    h = rng.choice(unknown)
    card = game.hand[opp][h]
    others = [j for j, c in enumerate(game.deck[opp]) if t.type_of[c] != t.type_of[card]]
    if not others:
        return None
    d = rng.choice(others)
    c = game.clone()
    c.hand[opp][h], c.deck[opp][d] = c.deck[opp][d], c.hand[opp][h]
    rng.shuffle(c.deck[opp])
    rng.shuffle(c.deck[player])
    c.rng = rng.getrandbits(62) + 1
    c._legal = None  # the cached legal actions belong to the state before the swap
    return c
