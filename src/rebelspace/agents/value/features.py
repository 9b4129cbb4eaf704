"""Features of a position for the learnt value function: numbers any state gives, in pure
Python, from one player's side.

The leaf of a search is a determinized state (the opponent's hand dealt at random from what
the player cannot rule out, ``engine.sampling``), so everything here may read the whole state:
at the root it is the player's own sample, never the true hidden cards. Every feature is
*antisymmetric*: seen from the other player it is the negative, ``features(s, 1 - p) ==
-features(s, p)``. A linear model without an intercept then gives ``P(p wins) + P(1 - p
wins) == 1`` exactly, as ``evaluate`` does.

Most features are a per-player quantity minus the opponent's; the rest are the hand-made
evaluation's scores (``agents.evaluate``), the side (the Rebel is favoured, R1's decks) and
who is to move.
"""

from __future__ import annotations

import math

from rebelspace.engine import TRICK_ABILITIES, GameState, read

from ..evaluate import DRAWS_PER_TURN, HAND_DAMAGE, Board, board, race_score, threat

#: The per-player quantities, in order; the features are these differences, then GLOBAL.
PER_PLAYER = (
    "deck/10",
    "log(1+deck)",
    "deck<=3",
    "deck<=8",
    "hand/5",
    "ground_attack/10",
    "ground_damage/5",
    "space_attack/10",
    "space_damage/5",
    "ground_guard/10",
    "space_guard/10",
    "shields",
    "threat/5",
    "turns_left/10",
    "units/5",
    "active/5",
    "heroes",
    "attachments",
    "extra_draw",
    "hand_units/5",
    "hand_cost/10",
    "hand_psion",
    "hand_tricks",
    "hand_actions",
)
GLOBAL = ("rebel", "to_move", "tanh(unit_score/3)", "race_score/5", "deck_share")
NAMES = tuple(f"{n} diff" for n in PER_PLAYER) + GLOBAL
SIZE = len(NAMES)


def _player(state: GameState, p: int, mine: Board, theirs: Board) -> list[float]:
    t = state.ctx.tables
    deck = read.deck_size(state, p)
    hand = read.hand(state, p)
    active, inactive = read.active(state, p), read.inactive(state, p)
    is_hero, extra_draw, att = t.is_hero, t.extra_draw, read.attachments(state)
    is_unit, cost, is_psion, ability = t.is_unit, t.cost, t.is_psion, t.ability
    heroes = attachments = extra = 0
    for zone in (active, inactive):
        for u in zone:
            heroes += is_hero[u]
            attachments += len(att[u])
            extra += extra_draw[u]
    hand_units = hand_cost = psion = tricks = actions = 0
    for c in hand:
        if is_unit[c]:
            hand_units += 1
        if is_psion[c]:
            psion += 1
        elif ability[c] in TRICK_ABILITIES:
            tricks += 1
        elif ability[c]:
            actions += 1
        hand_cost += cost[c]
    their_threat = threat(theirs, mine) + HAND_DAMAGE * read.hand_size(state, 1 - p)
    my_threat = threat(mine, theirs) + HAND_DAMAGE * len(hand)
    return [
        deck / 10,
        math.log1p(deck),
        float(deck <= 3),
        float(deck <= 8),
        len(hand) / 5,
        mine.ground_attack / 10,
        mine.ground_damage / 5,
        mine.space_attack / 10,
        mine.space_damage / 5,
        mine.ground_guard / 10,
        mine.space_guard / 10,
        float(mine.shields),
        my_threat / 5,
        deck / (DRAWS_PER_TURN + their_threat) / 10,
        (len(active) + len(inactive)) / 5,
        len(active) / 5,
        float(heroes),
        float(attachments),
        float(extra),
        hand_units / 5,
        hand_cost / 10,
        float(psion),
        float(tricks),
        float(actions),
    ]


def features(state: GameState, player: int) -> list[float]:
    """The ``SIZE`` features of ``state`` from ``player``'s side (antisymmetric)."""
    opp = 1 - player
    mine, theirs = board(state, player), board(state, opp)
    a = _player(state, player, mine, theirs)
    b = _player(state, opp, theirs, mine)
    diff = [x - y for x, y in zip(a, b, strict=True)]
    # The unit score is the difference of the two turns_left entries (linear in ``diff``):
    # saturated here, so that a large lead does not grow without bound; the damage-only race
    # is there for the model to weigh as it likes.
    unit_score = (a[13] - b[13]) * 10
    side = 1.0 if player == 0 else -1.0
    moving = 1.0 if state.to_move == player else -1.0 if state.to_move == opp else 0.0
    decks = read.deck_size(state, player), read.deck_size(state, opp)
    share = (decks[0] - decks[1]) / (decks[0] + decks[1] + 1)
    return [
        *diff,
        side,
        moving,
        math.tanh(unit_score / 3),
        race_score(state, player) / 5,
        share,
    ]
