"""What the heuristic knows about cards before a game starts, and the small measures every
step shares: what a unit is worth, what a side threatens, what a won battle costs the winner.

Everything is measured in cards of a deck: one point of damage costs the defender one card.
The weights below were tuned by hand against the random player and the search agent
(``tests/agents/heuristic_bench.py``); their comments say what each one stands for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rebelspace.engine import GameContext, GameState, Tables, group_damage, read, shields_up
from rebelspace.engine.cache import per_object

# What losing a unit costs its side (``CardFacts.worth``), in deck cards.
WORTH_BASE = 1.0  # the card itself: it came out of the hand and will not come back
WORTH_PER_DAMAGE = 0.5  # damage lost: it would have emptied the opponent's deck later
WORTH_PER_RATING = 0.15  # the better rating lost: battles it would have won
WORTH_HERO = 2.0  # heroes carry items, ride in Fighters and Ships, and are rare
# What an attachment adds to the worth of the unit carrying it: its cost and the same
# per-damage and per-rating shares as a unit's.
ATTACHMENT_WORTH_PER_DAMAGE = WORTH_PER_DAMAGE
ATTACHMENT_WORTH_PER_RATING = WORTH_PER_RATING

# Abilities that make a card worth more than its numbers (both worth and use).
SPECIAL_ION_CANNON = 1.5  # destroys an attacking Ship before blocks (R14)
SPECIAL_SHIELDS = 1.0  # stops the damage of the opponent's Ships (R20)
SPECIAL_EXTRA_DRAW = 1.5  # an extra card every turn
SPECIAL_ATTACKING_FACILITY = 1.0  # the Giant Space Station: a facility that also attacks

# How useful a card is in play, whatever it costs (``CardFacts.use``): damage wins games,
# ratings win battles.
USE_PER_DAMAGE = 1.0  # damage is what empties the opponent's deck
USE_PER_BEST_RATING = 0.3  # the rating it fights with in its best kind of battle
USE_PER_OTHER_RATING = 0.1  # the other rating, which it uses less often
USE_HERO = 0.8  # a hero's place in the game beyond its ratings (items, riding along)
USE_NO_ATTACK_PENALTY = 0.3  # per damage point of a unit that cannot attack to deal it


class CardFacts(NamedTuple):
    """Values the heuristic reads, precomputed per card instance and per card type."""

    worth: tuple[float, ...]  # per instance: what losing this unit costs its side
    att_worth: tuple[float, ...]  # per instance: what an attachment adds to its carrier
    use: tuple[float, ...]  # per instance: how useful the card is in play
    ability_of_type: tuple[int, ...]  # per card type: its ``Ability``
    first_of_type: tuple[int, ...]  # per card type: one instance, to read its numbers


def _special(t: Tables, i: int) -> float:
    """The bonus for the abilities of instance ``i`` that its numbers do not show."""
    special = 0.0
    if t.ion_cannon[i]:
        special += SPECIAL_ION_CANNON
    if t.shields[i]:
        special += SPECIAL_SHIELDS
    if t.extra_draw[i]:
        special += SPECIAL_EXTRA_DRAW
    if t.facility[i] and t.can_attack[i]:
        special += SPECIAL_ATTACKING_FACILITY
    return special


def _worth_and_use(t: Tables, i: int) -> tuple[float, float, float]:
    """(worth, attachment worth, use) of instance ``i``."""
    g, sp, dmg, cost = t.ground[i], t.space[i], t.damage[i], t.cost[i]
    best, other = max(g, sp), min(g, sp)
    ratings_use = dmg * USE_PER_DAMAGE + best * USE_PER_BEST_RATING + other * USE_PER_OTHER_RATING
    if t.is_unit[i]:
        special = _special(t, i)
        hero = WORTH_HERO if t.is_hero[i] else 0.0
        worth = WORTH_BASE + cost + WORTH_PER_DAMAGE * dmg + WORTH_PER_RATING * best + hero
        worth += special
        use = ratings_use + (USE_HERO if hero else 0.0) + special
        if not t.can_attack[i]:
            use -= USE_NO_ATTACK_PENALTY * dmg
        return worth, 0.0, use
    if t.is_attachment[i]:
        att = cost + ATTACHMENT_WORTH_PER_RATING * best + ATTACHMENT_WORTH_PER_DAMAGE * dmg
        return 0.0, att, ratings_use
    return 0.0, 0.0, 0.0


def _card_facts(ctx: GameContext) -> CardFacts:
    t = ctx.tables
    per_instance = [_worth_and_use(t, i) for i in range(t.n)]
    ntypes = len(t.names)
    ability = [0] * ntypes
    first = [-1] * ntypes
    for i in range(t.n):
        ct = t.type_of[i]
        if first[ct] < 0:
            first[ct] = i
            ability[ct] = t.ability[i]
    return CardFacts(
        worth=tuple(w for w, _, _ in per_instance),
        att_worth=tuple(a for _, a, _ in per_instance),
        use=tuple(u for _, _, u in per_instance),
        ability_of_type=tuple(ability),
        first_of_type=tuple(first),
    )


card_facts = per_object(_card_facts)
"""The ``CardFacts`` of a game context: built once, shared by every decision."""


def worth(s: GameState, f: CardFacts, u: int) -> float:
    """What losing unit ``u`` (with its attachments) costs its side, in deck cards."""
    w = f.worth[u]
    for a in read.attached(s, u):
        w += f.att_worth[a]
    return w


def threat(s: GameState, p: int) -> int:
    """Damage ``p``'s units in play could deal on ``p``'s next attack, unblocked."""
    can_attack = s.ctx.tables.can_attack
    units = tuple(u for zone in read.zones(s, p) for u in zone if can_attack[u])
    return group_damage(s, units, shields_up(s, 1 - p)).damage


class Member(NamedTuple):
    """One unit of a group in battle."""

    rating: int
    worth: float


def casualty_loss(units: Sequence[Member], budget: int) -> float:
    """Worth a winning group of units loses to a loser of value ``budget`` (R19), the loser
    picking the most valuable first; the group keeps one unit."""
    if len(units) <= 1 or budget <= 0:
        return 0.0
    lost = 0.0
    left = len(units)
    for r, w in sorted(units, key=lambda m: -m.worth):
        if left <= 1:
            break
        if 0 < r <= budget:
            budget -= r
            lost += w
            left -= 1
    return lost


def opponent_may_hold(s: GameState, o: int, ability: int) -> bool:
    """Could ``o``'s hand hold a card with ``ability``, as far as public information shows?"""
    if not read.hand(s, o):
        return False
    t = s.ctx.tables
    total = sum(1 for i in t.instances_of_side[o] if t.ability[i] == ability)
    gone = sum(1 for c in read.discard(s, o) if t.ability[c] == ability)
    return total > gone
