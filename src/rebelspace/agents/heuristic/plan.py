"""The attack plan, and the FORM step that carries it out.

The plan is made from every attack-capable active unit (those already put in groups included,
so the plan is the same at each small step). Heroes go where they are stronger, space heroes
riding in free Pilot/Captain places. For ground and space separately a few ways to split the
units into groups are tried (one big group, groups that no block can beat, groups that beat
any single blocker, one group per unit); each is scored against the blocks this player would
itself make in the defender's place (``blocks.py``: damage through, units lost on each side)
and the best is kept if it beats not attacking. With no blockers that is simply everything in
one group: free damage. Unless the attack wins, enough units stay home to chump-block a
counterattack that would otherwise empty the deck (``guard.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rebelspace.engine import (
    Ability,
    GameContext,
    GameState,
    GroupKind,
    group_damage,
    rating,
    read,
    shields_up,
)
from rebelspace.engine.cache import per_object

from .blocks import W_DAMAGE, AttackGroup, Blocker, assign_blocks, score_blocks
from .facts import CardFacts, Member, card_facts, opponent_may_hold, worth
from .guard import PlannedGroup, keep_guard
from .style import DEFAULT, Style

GROUND, SPACE = GroupKind.GROUND, GroupKind.SPACE

# Bonus for an attack that wins: it empties the opponent's deck, or leaves one card, which
# the opponent must draw next turn and so loses (R9, R37).
LETHAL = 100.0
TRAP_BONUS = 2  # what a Trap adds to each blocker (R30), for ``Style.trap_in_plans``
SURPRISE_BONUS = 2  # what Surprise Attack adds to each attacker (R30)
PLANS_PER_CONTEXT = 4096  # plans remembered per game context before the cache starts afresh

Plan = tuple[PlannedGroup, ...]


class Hero(NamedTuple):
    """A hero that may attack, with its ratings."""

    ground: int
    space: int
    unit: int


class Packets(NamedTuple):
    """Units that go into a group together, by kind of battle; a packet is one unit, or a
    Fighter or Ship with the hero riding in it."""

    ground: list[list[int]]
    space: list[list[int]]


class Seats(NamedTuple):
    """The space packets a hero may ride in: a Pilot in a Fighter's, a Captain in a Ship's."""

    fighters: list[list[int]]
    ships: list[list[int]]


class Packet(NamedTuple):
    """Units that go into a group together, with their total value."""

    value: int
    units: list[int]


class UnitFacts(NamedTuple):
    """What the attack planner reads about one attacking unit."""

    value: int  # rating in the battle's kind
    damage: int  # what counts once Shields stop Ships' (R20)
    worth: float


class KindPlan(NamedTuple):
    """The best attack in battles of one kind."""

    score: float
    groups: list[list[int]]
    damage: int  # expected to get through


class Evaluation(NamedTuple):
    """An attack scored against the blocks the defender would make."""

    score: float
    losers: set[int]  # indices of the groups those blocks beat
    damage: int  # that gets through


# ----------------------------------------------------------------------------- attackers


def _seat_heroes(s: GameState, heroes: list[Hero], packets: Packets, seats: Seats) -> None:
    """Put each hero in a packet: space-minded heroes first, each taking a free place (a
    Pilot's in a Fighter before a Captain's in a Ship, R12/R35), the rest on the ground."""
    t = s.ctx.tables
    fighters, ships = seats
    heroes.sort(key=lambda h: h.ground - h.space)
    for g, v, u in heroes:
        seat = None
        if v > g:
            if t.pilot[u] and fighters:
                seat = fighters.pop()
            elif t.captain[u] and ships:
                seat = ships.pop()
        if seat is not None:
            seat.append(u)
        else:
            packets.ground.append([u])


def attackers(s: GameState) -> Packets:
    """Ground and space packets of the units that may attack (a space hero rides with the
    Fighter or Ship whose place it takes, R12/R35)."""
    t = s.ctx.tables
    packets = Packets([], [])
    seats = Seats([], [])
    heroes: list[Hero] = []
    for u in read.active(s, s.player):
        if not t.can_attack[u]:
            continue
        if t.is_hero[u]:
            heroes.append(Hero(rating(s, u, GROUND), rating(s, u, SPACE), u))
        elif t.is_space_unit[u] and not (
            t.is_ground_unit[u] and rating(s, u, GROUND) >= rating(s, u, SPACE)
        ):
            packet = [u]
            packets.space.append(packet)
            if t.fighter[u]:
                seats.fighters.append(packet)
            elif t.ship[u]:
                seats.ships.append(packet)
        else:
            packets.ground.append([u])
    _seat_heroes(s, heroes, packets, seats)
    return packets


# ----------------------------------------------------------------------------- ways to split


def cover(packets: list[Packet], threshold: int, cap: int) -> list[list[int]]:
    """Split packets, sorted strongest first, into as many groups as it can (at most ``cap``)
    that are each worth more than ``threshold``; what is left joins the last group."""
    groups: list[list[int]] = []
    lo, hi = 0, len(packets) - 1
    while lo <= hi:
        value, units = packets[lo]
        cur = list(units)
        lo += 1
        while value <= threshold and lo <= hi:
            value += packets[hi].value
            cur.extend(packets[hi].units)
            hi -= 1
        if (value > threshold or not groups) and len(groups) < cap:
            groups.append(cur)
        else:
            groups[-1].extend(cur)
    return groups


def _blockers(s: GameState, f: CardFacts, kind: int, bonus: int = 0) -> list[Blocker]:
    """The defender's units that may block in battles of ``kind``, each rated ``bonus``
    higher (a Trap the defender may hold, R30)."""
    t = s.ctx.tables
    blockers: list[Blocker] = []
    for u in read.active(s, 1 - s.player):
        if not t.is_unit[u]:
            continue
        ok_g = t.is_ground_unit[u] or t.is_hero[u]
        ok_s = t.is_space_unit[u]
        if ok_g if kind == GROUND else ok_s:
            ratings = (rating(s, u, GROUND) + bonus, rating(s, u, SPACE) + bonus)
            blockers.append(Blocker(ratings, worth(s, f, u), (ok_g, ok_s)))
    return blockers


def _splits(
    sized: list[Packet], blockers: list[Blocker], kind: int, cap: int
) -> list[list[list[int]]]:
    """The ways to split the packets tried: one big group, then ``cover`` at each threshold
    (one group per packet, groups that beat the strongest blocker, groups no block beats)."""
    values = sorted((b.values[kind] for b in blockers), reverse=True)
    thresholds = {-1}
    if values:
        thresholds.add(values[0])
        thresholds.add(sum(values))
    splits = [[[u for _, pk in sized for u in pk]]]
    for th in sorted(thresholds):
        splits.append(cover(sized, th, cap))
    return splits


class _Battle(NamedTuple):
    """What ``evaluate`` needs to know about the battles of one kind."""

    facts: dict[int, UnitFacts]
    blockers: list[Blocker]
    kind: int
    deck: int  # the defender's deck size
    tie_both: bool  # ties destroy both sides
    cannon: bool  # the defender has an Ion Cannon (space battles only)
    ship: Sequence[bool]  # per instance: is a Ship


def evaluate(groups: list[list[int]], battle: _Battle) -> Evaluation:
    """Attacking with ``groups`` scored against the blocks the defender would make."""
    facts = battle.facts
    ion_loss = 0.0
    if battle.cannon:  # R14: the defender destroys the biggest Ship before blocks
        ships = [(facts[u].value, u) for g in groups for u in g if battle.ship[u]]
        if ships:
            _, biggest = max(ships)
            ion_loss = facts[biggest].worth
            groups = [[u for u in g if u != biggest] for g in groups]
    model: list[AttackGroup] = []
    for g in groups:
        members = [Member(facts[u].value, facts[u].worth) for u in g]
        model.append(
            AttackGroup(
                sum(m.rating for m in members),
                sum(facts[u].damage for u in g),
                sum(m.worth for m in members),
                battle.kind,
                members,
            )
        )
    assign = assign_blocks(model, battle.blockers, battle.deck, battle.tie_both)
    dmg, att_loss, def_loss = score_blocks(model, battle.blockers, assign, battle.tie_both)
    score = dmg * W_DAMAGE + def_loss - att_loss - ion_loss
    if dmg >= battle.deck - 1:
        score += LETHAL
    losers = set()
    for i, chosen in enumerate(assign):
        if chosen and sum(battle.blockers[j].values[battle.kind] for j in chosen) >= model[i].value:
            losers.add(i)
    return Evaluation(score, losers, dmg)


def _holds_surprise(s: GameState) -> bool:
    """Does the attacker (the player to move, reading its own hand) hold Surprise Attack?"""
    ability_of = s.ctx.tables.ability
    return any(ability_of[c] == Ability.SURPRISE for c in read.hand(s, s.player))


def plan_kind(  # noqa: PLR0913 (the plan of one kind: all six are what it is made of)
    s: GameState,
    f: CardFacts,
    kind: int,
    packets: list[list[int]],
    cap: int,
    style: Style = DEFAULT,
) -> KindPlan:
    """The best way to attack with ``packets`` in battles of ``kind``, in at most ``cap``
    groups; no groups when not attacking scores best."""
    if not packets or cap <= 0:
        return KindPlan(0.0, [], 0)
    t = s.ctx.tables
    d = 1 - s.player
    units = tuple(u for packet in packets for u in packet)
    dealt = dict(group_damage(s, units, shields_up(s, d)).dealers)
    bonus = SURPRISE_BONUS if style.own_tricks_in_plans and _holds_surprise(s) else 0
    facts = {
        u: UnitFacts(rating(s, u, kind) + bonus, dealt.get(u, 0), worth(s, f, u)) for u in units
    }
    trap = style.trap_in_plans and opponent_may_hold(s, d, Ability.TRAP)
    blockers = _blockers(s, f, kind, TRAP_BONUS if trap else 0)
    battle = _Battle(
        facts=facts,
        blockers=blockers,
        kind=kind,
        deck=read.deck_size(s, d),
        tie_both=s.ctx.options.tie == "both",
        cannon=any(t.ion_cannon[u] for u in read.active(s, d)) and kind == SPACE,
        ship=t.ship,
    )
    sized = sorted(
        (Packet(sum(facts[u].value for u in pk), pk) for pk in packets), key=lambda x: -x.value
    )
    best = KindPlan(0.0, [], 0)
    for split in _splits(sized, blockers, kind, cap):
        groups = split
        for _ in range(2):
            score, losers, dmg = evaluate(groups, battle)
            if score > best.score:
                best = KindPlan(score, groups, dmg)
            if not losers or len(losers) == len(groups):
                break
            # Try again without the groups the defender would beat: they stay home.
            groups = [g for i, g in enumerate(groups) if i not in losers]
    return best


# ----------------------------------------------------------------------------- the plan


def _new_plan_cache(_ctx: GameContext) -> dict[tuple[object, ...], Plan]:
    return {}


# Plans are cached per game context under everything they depend on (all public), since the
# plan is asked for again at each small step of forming the groups.
_plan_cache = per_object(_new_plan_cache)


def clear_plan_cache(ctx: GameContext) -> None:
    """Forget the attack plans cached for games of ``ctx`` (tests use it to recompute every
    plan from scratch)."""
    _plan_cache(ctx).clear()


def attack_plan(s: GameState, style: Style = DEFAULT) -> Plan:
    """Every group to attack with, from all attack-capable active units (busy ones included,
    so the plan does not change while it is being carried out)."""
    # The plan reads units in play (with attachments), deck sizes and, for a Trap, hand sizes
    # and discard piles: all of it goes in the key, with the style.
    att = read.attachments(s)
    zones = (read.active(s, 0), read.active(s, 1), read.inactive(s, 0), read.inactive(s, 1))
    key = (
        style,
        read.hand_size(s, 1 - s.player) if style.trap_in_plans else -1,
        len(read.discard(s, 1 - s.player)) if style.trap_in_plans else -1,
        _holds_surprise(s) if style.own_tricks_in_plans else None,
        s.player,
        *map(tuple, zones),
        read.deck_size(s, 0),
        read.deck_size(s, 1),
        tuple(att[u] for zone in zones for u in zone if att[u]),
    )
    plans = _plan_cache(s.ctx)
    plan = plans.get(key)
    if plan is None:
        plan = _make_attack_plan(s, style)
        if len(plans) >= PLANS_PER_CONTEXT:
            plans.clear()
        plans[key] = plan
    return plan


def _kind_plans(
    s: GameState, style: Style, kept: set[int] | None = None
) -> tuple[KindPlan, KindPlan]:
    """The best (ground, space) attacks, from the units in ``kept`` only when given."""
    f = card_facts(s.ctx)
    cap = s.ctx.options.max_groups
    ground, space = attackers(s)
    if kept is not None:
        ground = _only(ground, kept)
        space = _only(space, kept)
    space_plan = plan_kind(s, f, SPACE, space, cap, style)
    ground_plan = plan_kind(s, f, GROUND, ground, cap - len(space_plan.groups), style)
    return ground_plan, space_plan


def _only(packets: list[list[int]], kept: set[int]) -> list[list[int]]:
    """The packets whose first unit (the one that may start a group) is in ``kept``, with
    only their units in ``kept``."""
    return [[u for u in pk if u in kept] for pk in packets if pk[0] in kept]


def planned_value(s: GameState, style: Style) -> float:
    """What the attack the plan makes for ``s.player`` now is expected to bring (0 when it
    makes none, the guard keeping every unit home included, ``guard.py``)."""
    ground_plan, space_plan = _kind_plans(s, style)
    plan = _guarded(s, style, ground_plan, space_plan)
    if not plan:
        return 0.0
    if style.replan_after_guard and plan != _joined(ground_plan, space_plan):
        ground_plan, space_plan = _kind_plans(s, style, {u for _, g in plan for u in g})
    return ground_plan.score + space_plan.score


def _joined(ground_plan: KindPlan, space_plan: KindPlan) -> Plan:
    plan = [PlannedGroup(GROUND, tuple(g)) for g in ground_plan.groups]
    plan.extend(PlannedGroup(SPACE, tuple(g)) for g in space_plan.groups)
    return tuple(plan)


def _guarded(s: GameState, style: Style, ground_plan: KindPlan, space_plan: KindPlan) -> Plan:
    """The plan of both kinds, with enough units kept home (``guard.py``) unless it wins;
    what the guard leaves is planned again (``Style.replan_after_guard``): the groups it
    broke up may no longer be worth sending."""
    plan = _joined(ground_plan, space_plan)
    if space_plan.damage + ground_plan.damage >= read.deck_size(s, 1 - s.player) - 1:
        return plan
    guarded = tuple(keep_guard(s, list(plan)))
    if not style.replan_after_guard or guarded == plan:
        return guarded
    return _joined(*_kind_plans(s, style, {u for _, g in guarded for u in g}))


def _make_attack_plan(s: GameState, style: Style) -> Plan:
    return _guarded(s, style, *_kind_plans(s, style))


# ----------------------------------------------------------------------------- the form step


def form(s: GameState, legal: Sequence[int], style: Style = DEFAULT) -> int:
    """The FORM step: the next "new group"/"add" action the plan calls for, else "attack"
    (or "no attack" when no group was formed)."""
    space = s.ctx.space
    type_of = s.ctx.tables.type_of
    allowed = set(legal)
    b = read.battle(s)
    groups = b.groups
    for i, (kind, units) in enumerate(attack_plan(s, style)):
        if i < len(groups):
            if b.kinds[i] != kind:
                break
            have = [type_of[u] for u in groups[i]]
            for u in units:
                ct = type_of[u]
                if ct in have:
                    have.remove(ct)
                    continue
                a = space.add_id[i][ct]
                if a in allowed:
                    return a
            continue
        form_id = space.form_ground_id if kind == GROUND else space.form_space_id
        a = form_id[type_of[units[0]]]
        if a in allowed:
            return a
        break
    return space.attack if groups else space.no_attack
