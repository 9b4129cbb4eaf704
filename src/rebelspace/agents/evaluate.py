"""Position evaluation for cut-off rollouts: who wins the race to an empty deck.

A deck is a player's life (R9): it shrinks by the player's own draws and by the damage the
opponent's units get through. So the evaluation estimates how many turns each deck lasts,
``deck / (draws per turn + the opponent's damage that gets through)``, and scores the
difference. Against the heuristic player this race beat a weighted sum of deck, board and
hand differences clearly (75% against 57% over 40 games at 150 iterations). Cards in hand
count as damage to come, so that drawing has its worth.

How much damage gets through depends on both boards (issue 17): a unit is worth its damage
*and* its rating, because ratings win battles (R19) and blocked attackers deal no damage.
Each side's damage in a domain (ground, space) gets through in the share
``attack / (attack + guard)`` of its attackers' rating against the defender's rating there,
so a Battle Walker (5 ground) that stands in the way of the opponent's ground attack is
worth more than a Trooper (1 ground) with the same damage, and losing a unit for nothing
lowers the score by what it did in both directions. Defense Shields stop the damage of
attacking Ships (R20). The old damage-only race is kept as ``race_score`` for comparison
(``Budget(evaluation="race")``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

from rebelspace.engine import TRICK_ABILITIES, GameState, read

DRAWS_PER_TURN = 1.5  # players draw 1 or 2
DAMAGE_SHARE = 0.6  # the race's share of the damage in play that gets through, on average
HAND_DAMAGE = 0.5  # damage a card in hand will add once deployed, on average
#: A battle card in hand (Surprise Attack, Trap, Multiple Targets, R17; psion cards, R24) wins
#: or saves a battle later, which a search that looks two turns ahead rarely sees: valued at a
#: unit card's 0.5, the searching levels played a quarter of their battle cards for nothing
#: (issue 17). ``card_score`` values them at this instead (``Budget(evaluation="cards")``);
#: valuing every card in hand more made the search hoard units (``ismcts.LEVELS``).
BATTLE_CARD_DAMAGE = 1.5
SCALE = 2.0  # a lead of this many turns makes a 73% favourite

Score = Callable[[GameState, int], float]


class Board(NamedTuple):
    """One player's units summed per domain: what they can attack with and what they guard."""

    ground_attack: int  # ground ratings of the units that may attack in a ground group
    ground_damage: int
    space_attack: int
    space_damage: int
    ship_damage: int  # the part of space_damage that Defense Shields stop (R20)
    ground_guard: int  # ground ratings of the units that can block ground groups
    space_guard: int
    shields: bool  # Defense Shields in play: attacking Ships deal no damage


def board(state: GameState, player: int) -> Board:
    """``player``'s units in play (both zones), attachments added to their hero."""
    t = state.ctx.tables
    ground, space, damage, att = t.ground, t.space, t.damage, read.attachments(state)
    can_attack, is_space, is_ground, ship = t.can_attack, t.is_space_unit, t.is_ground_unit, t.ship
    shields_of = t.shields
    ga = gd = sa = sd = shd = gg = sg = 0
    shields = False
    for zone in read.zones(state, player):
        for u in zone:
            g, s, d = ground[u], space[u], damage[u]
            for a in att[u]:
                g += ground[a]
                s += space[a]
                d += damage[a]
            shields = shields or shields_of[u]
            space_only = is_space[u] and not is_ground[u]
            if space_only:
                sg += s
            else:
                gg += g
                if is_space[u]:  # G/S units guard both domains
                    sg += s
            if not can_attack[u]:
                continue
            if space_only:
                sa += s
                sd += d
                if ship[u]:
                    shd += d
            else:  # ground units, heroes (their usual group) and G/S units attack on the ground
                ga += g
                gd += d
    return Board(ga, gd, sa, sd, shd, gg, sg, shields)


def _through(attack: int, guard: int) -> float:
    """The share of an attack's damage that gets through ``guard``: all of it unopposed."""
    return attack / (attack + guard) if attack else 0.0


def threat(mine: Board, theirs: Board) -> float:
    """Damage a turn that ``mine`` gets through ``theirs``."""
    space = mine.space_damage - (mine.ship_damage if theirs.shields else 0)
    return mine.ground_damage * _through(
        mine.ground_attack, theirs.ground_guard
    ) + space * _through(mine.space_attack, theirs.space_guard)


def score(state: GameState, player: int, battle_card: float = HAND_DAMAGE) -> float:
    """How far ahead ``player`` is in the race, in turns (positive: ahead), units valued by
    their damage and their ratings on both sides of a battle, a battle card in hand by
    ``battle_card``, any other by ``HAND_DAMAGE``."""
    opp = 1 - player
    mine, theirs = board(state, player), board(state, opp)
    my_threat = threat(mine, theirs) + hand_threat(state, player, battle_card)
    their_threat = threat(theirs, mine) + hand_threat(state, opp, battle_card)
    return read.deck_size(state, player) / (DRAWS_PER_TURN + their_threat) - read.deck_size(
        state, opp
    ) / (DRAWS_PER_TURN + my_threat)


def card_score(state: GameState, player: int) -> float:
    """``score`` with each battle card in hand worth ``BATTLE_CARD_DAMAGE``."""
    return score(state, player, BATTLE_CARD_DAMAGE)


def hand_threat(state: GameState, player: int, battle_card: float = HAND_DAMAGE) -> float:
    """What ``player``'s hand adds to their threat: each battle card ``battle_card``, each
    other card ``HAND_DAMAGE``."""
    hand = read.hand(state, player)
    if battle_card == HAND_DAMAGE:  # the levels' evaluation, on the search's hot path
        return HAND_DAMAGE * len(hand)
    t = state.ctx.tables
    is_psion, ability = t.is_psion, t.ability
    return sum(
        battle_card if is_psion[c] or ability[c] in TRICK_ABILITIES else HAND_DAMAGE for c in hand
    )


def damage_in_play(state: GameState, player: int) -> int:
    """Damage ratings of the units ``player`` could attack with, attachments included."""
    t = state.ctx.tables
    damage, can_attack = t.damage, t.can_attack
    att = read.attachments(state)
    total = 0
    for zone in read.zones(state, player):
        for u in zone:
            if can_attack[u]:
                total += damage[u]
                for a in att[u]:
                    total += damage[a]
    return total


def turns_left(state: GameState, player: int) -> float:
    """Roughly how many turns ``player``'s deck lasts at the race's rates (damage only)."""
    opp = 1 - player
    threat = damage_in_play(state, opp) + HAND_DAMAGE * read.hand_size(state, opp)
    return read.deck_size(state, player) / (DRAWS_PER_TURN + DAMAGE_SHARE * threat)


def race_score(state: GameState, player: int) -> float:
    """The first evaluation's score: units valued by their damage only (issue 17's blunder)."""
    return turns_left(state, player) - turns_left(state, 1 - player)


def evaluate(state: GameState, player: int, baseline: float = 0.0, score: Score = score) -> float:
    """Estimated probability in [0, 1] that ``player`` wins; exact once the game is over.

    ``baseline`` is the score where the estimate is one half: search passes the score of the
    position it searches from, so what a few turns of play change is what it measures.
    """
    outcome = state.outcome
    if outcome is not None:
        return 1.0 if outcome.winner == player else 0.0
    return 1.0 / (1.0 + math.exp(-(score(state, player) - baseline) / SCALE))
