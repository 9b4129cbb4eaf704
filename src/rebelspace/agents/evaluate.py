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

from rebelspace.engine import GameState

DRAWS_PER_TURN = 1.5  # players draw 1 or 2
DAMAGE_SHARE = 0.6  # the race's share of the damage in play that gets through, on average
HAND_DAMAGE = 0.5  # damage a card in hand will add once deployed, on average
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
    ground, space, damage, att = t.ground, t.space, t.damage, state.att
    can_attack, is_space, is_ground, ship = t.can_attack, t.is_space_unit, t.is_ground_unit, t.ship
    shields_of = t.shields
    ga = gd = sa = sd = shd = gg = sg = 0
    shields = False
    for zone in (state.active[player], state.inactive[player]):
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


def score(state: GameState, player: int) -> float:
    """How far ahead ``player`` is in the race, in turns (positive: ahead), units valued by
    their damage and their ratings on both sides of a battle."""
    opp = 1 - player
    mine, theirs = board(state, player), board(state, opp)
    hand = state.hand
    my_threat = threat(mine, theirs) + HAND_DAMAGE * len(hand[player])
    their_threat = threat(theirs, mine) + HAND_DAMAGE * len(hand[opp])
    return len(state.deck[player]) / (DRAWS_PER_TURN + their_threat) - len(state.deck[opp]) / (
        DRAWS_PER_TURN + my_threat
    )


def damage_in_play(state: GameState, player: int) -> int:
    """Damage ratings of the units ``player`` could attack with, attachments included."""
    t = state.ctx.tables
    damage, can_attack = t.damage, t.can_attack
    att = state.att
    total = 0
    for zone in (state.active[player], state.inactive[player]):
        for u in zone:
            if can_attack[u]:
                total += damage[u]
                for a in att[u]:
                    total += damage[a]
    return total


def turns_left(state: GameState, player: int) -> float:
    """Roughly how many turns ``player``'s deck lasts at the race's rates (damage only)."""
    opp = 1 - player
    threat = damage_in_play(state, opp) + HAND_DAMAGE * len(state.hand[opp])
    return len(state.deck[player]) / (DRAWS_PER_TURN + DAMAGE_SHARE * threat)


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
