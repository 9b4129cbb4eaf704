"""The DEPLOY step: the best use of the points (a small knapsack over usefulness: damage,
ratings, hero and facility bonuses), items and companions on the strongest hero."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rebelspace.engine import GameState, GroupKind, Kind, rating, read

from .facts import CardFacts, card_facts

GROUND, SPACE = GroupKind.GROUND, GroupKind.SPACE
# Ion Cannon and Shields act on Ships only: worth more when the opponent has some, less when
# it has none (they may come later).
ANTI_SHIP_WITH_SHIPS = 1.0
ANTI_SHIP_WITHOUT_SHIPS = -0.5
# A space-only hero rides only in a Fighter's or Ship's place: with none in play, it idles.
NO_SEAT_PENALTY = 1.0
USE_EPSILON = 1e-9  # a knapsack total must beat the best so far by this (float noise)


def deploy_use(s: GameState, f: CardFacts, i: int, p: int) -> float:
    """How useful card ``i`` would be in play for ``p`` now."""
    t = s.ctx.tables
    o = 1 - p
    use = f.use[i]
    if t.ion_cannon[i] or t.shields[i]:
        ships = any(t.ship[u] for z in read.zones(s, o) for u in z)
        use += ANTI_SHIP_WITH_SHIPS if ships else ANTI_SHIP_WITHOUT_SHIPS
    if t.is_hero[i] and t.ground[i] == 0:  # rides only in a Fighter's or Ship's place
        seats = any(t.fighter[u] or t.ship[u] for z in read.zones(s, p) for u in z)
        if not seats:
            use -= NO_SEAT_PENALTY
    return use


class Item(NamedTuple):
    """One card to deploy or attach."""

    use: float
    cost: int
    action: int


class Choice(NamedTuple):
    """The knapsack's answer."""

    use: float  # the most total use within the points
    first: int  # the action of its most useful item, or -1 for none


def knapsack(items: list[Item], points: int) -> Choice:
    """Most total use within ``points``, with the action of its most useful item (``items``
    are sorted most useful first)."""
    best = Choice(0.0, -1)

    def search(k: int, left: int, total: float, first: int) -> None:
        nonlocal best
        if total > best.use + USE_EPSILON:
            best = Choice(total, first)
        for j in range(k, len(items)):
            use, cost, a = items[j]
            if cost <= left:
                search(j + 1, left - cost, total + use, a if first < 0 else first)

    search(0, points, 0.0, -1)
    return best


def _hero_strength(s: GameState, p: int) -> dict[int, int]:
    """Ground plus space rating of ``p``'s heroes in play, by card type."""
    t = s.ctx.tables
    strength: dict[int, int] = {}
    for z in read.zones(s, p):
        for u in z:
            if t.is_hero[u]:
                strength[t.type_of[u]] = rating(s, u, GROUND) + rating(s, u, SPACE)
    return strength


def _items(s: GameState, f: CardFacts, legal: Sequence[int]) -> list[Item]:
    """Every copy in hand of each card worth deploying, as many as the points pay for; each
    attachment only on the strongest hero."""
    t = s.ctx.tables
    dec = s.ctx.space.actions
    p = s.to_move
    points = read.deploy_points(s) or 0
    counts: dict[int, int] = {}
    for c in read.hand(s, p):
        counts[t.type_of[c]] = counts.get(t.type_of[c], 0) + 1
    hero_strength = _hero_strength(s, p)
    items: list[Item] = []
    attach_best: dict[int, tuple[int, int]] = {}  # card type -> (hero strength, action)
    for a in legal:
        act = dec[a]
        kind, card, hero_type = act.kind, act.card, act.target
        i = f.first_of_type[card]
        if kind == Kind.DEPLOY:
            use = deploy_use(s, f, i, p)
            if use > 0:
                n = min(counts.get(card, 0), points // max(t.cost[i], 1))
                items.extend([Item(use, t.cost[i], a)] * n)
        elif kind == Kind.ATTACH:
            key = (hero_strength.get(hero_type, 0), a)
            if card not in attach_best or key > attach_best[card]:
                attach_best[card] = key
    for card, (_, a) in attach_best.items():
        i = f.first_of_type[card]
        n = min(counts.get(card, 0), points // max(t.cost[i], 1))
        items.extend([Item(f.use[i], t.cost[i], a)] * n)
    return items


def deploy(s: GameState, legal: Sequence[int]) -> int:
    """The first card of the most useful set the points pay for, else "done deploying"."""
    items = _items(s, card_facts(s.ctx), legal)
    items.sort(key=lambda x: (-x.use, x.cost, x.action))
    best = knapsack(items, read.deploy_points(s) or 0)
    return best.first if best.use > 0 else s.ctx.space.done_deploying
