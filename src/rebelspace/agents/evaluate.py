"""Position evaluation for cut-off rollouts: how likely a player is to win from here.

A deck is a player's life (R9), so the deck difference dominates; units in play are future
damage and future blocks; cards in hand are future units. The weights were fitted by eye to
heuristic self-play and are deliberately simple: search does the rest.
"""

from __future__ import annotations

import math

from rebelspace.engine import GameState

DECK_WEIGHT = 1.0  # per card of deck difference
BOARD_WEIGHT = 0.35  # per point of unit strength in play
HAND_WEIGHT = 0.6  # per card of hand difference
SCALE = 8.0  # score difference that makes a 73% favourite


def strength(state: GameState, player: int) -> float:
    """Ratings and damage of the units a player controls, attachments included."""
    t = state.ctx.tables
    ground, space, damage = t.ground, t.space, t.damage
    att = state.att
    total = 0
    for zone in (state.active[player], state.inactive[player]):
        for u in zone:
            total += max(ground[u], space[u]) + 2 * damage[u]
            for a in att[u]:
                total += max(ground[a], space[a]) + 2 * damage[a]
    return float(total)


def evaluate(state: GameState, player: int) -> float:
    """Estimated probability in [0, 1] that ``player`` wins; exact once the game is over."""
    outcome = state.outcome
    if outcome is not None:
        return 1.0 if outcome.winner == player else 0.0
    opp = 1 - player
    score = (
        DECK_WEIGHT * (len(state.deck[player]) - len(state.deck[opp]))
        + BOARD_WEIGHT * (strength(state, player) - strength(state, opp))
        + HAND_WEIGHT * (len(state.hand[player]) - len(state.hand[opp]))
    )
    # A deck near empty is worth more per card than a full one: scale by the smaller deck.
    low = min(len(state.deck[player]), len(state.deck[opp]))
    scale = SCALE * (0.5 + low / 60.0)
    return 1.0 / (1.0 + math.exp(-score / scale))
