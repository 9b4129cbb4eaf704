"""Holding back enough units to survive the counterattack, when the attack does not win.

Units that attack are inactive on the opponent's next turn (R21) and cannot block. The
opponent could attack with all its units next turn, one unit per group; each unit kept home
can chump-block the most damaging one of its kind. If that would bring the deck to one card or
less (a loss at the next draw, R9), units are kept home, least damaging first, until it would
not; unless even keeping everyone home would not save the deck.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from rebelspace.engine import (
    GameState,
    GroupKind,
    can_join_group,
    can_start_group,
    damage,
    group_damage,
    rating,
    read,
    shields_up,
)

GROUND, SPACE = GroupKind.GROUND, GroupKind.SPACE
# The deck must keep at least this many cards after the counterattack: with one left, the
# next draw takes the last card, which loses (R9).
SAFE_DECK = 2


class PlannedGroup(NamedTuple):
    """One group of an attack plan."""

    kind: int  # GroupKind
    units: tuple[int, ...]  # in adding order


class Counterattack(NamedTuple):
    """The damage of each opposing unit that could attack next turn, by the kind of battle
    it fights in, most damaging first (indexed by GroupKind)."""

    damages: tuple[list[int], list[int]]


def counterattack(s: GameState) -> Counterattack:
    """What the opponent of the player to attack could hit back with."""
    t = s.ctx.tables
    p = s.player
    d = 1 - p
    theirs: tuple[list[int], list[int]] = ([], [])
    able = tuple(u for zone in read.zones(s, d) for u in zone if t.can_attack[u])
    for u, dmg in group_damage(s, able, shields_up(s, p)).dealers:  # R20: Ships' stopped
        if dmg > 0:
            space_only = t.is_space_unit[u] and not t.is_ground_unit[u]
            theirs[SPACE if space_only else GROUND].append(dmg)
    for damages in theirs:
        damages.sort(reverse=True)
    return Counterattack(theirs)


def incoming(s: GameState, threat: Counterattack, attacking: Collection[int]) -> int:
    """Damage the counterattack deals when the units in ``attacking`` cannot block."""
    t = s.ctx.tables
    blockers = [0, 0]
    for u in read.active(s, s.player):
        if u in attacking or not t.is_unit[u]:
            continue
        if t.is_ground_unit[u] or t.is_hero[u]:
            blockers[GROUND] += 1
        if t.is_space_unit[u]:
            blockers[SPACE] += 1
    ground, space = threat.damages
    return sum(ground[blockers[GROUND] :]) + sum(space[blockers[SPACE] :])


def _hold_back(s: GameState, threat: Counterattack, attacking: set[int], limit: int) -> None:
    """Take units out of ``attacking``, least damaging first, until the counterattack deals
    at most ``limit``; a unit whose staying home would stop nothing keeps attacking."""
    for u in sorted(attacking, key=lambda u: (damage(s, u), -rating(s, u, GROUND), u)):
        before = incoming(s, threat, attacking)
        attacking.discard(u)
        after = incoming(s, threat, attacking)
        if after == before:
            attacking.add(u)  # holding this one back would not stop anything
        elif after <= limit:
            break


def _regroup(s: GameState, plan: Sequence[PlannedGroup], attacking: set[int]) -> list[PlannedGroup]:
    """``plan`` with only the units in ``attacking``, each group kept only as far as its
    units may still form it."""
    t = s.ctx.tables
    out: list[PlannedGroup] = []
    for kind, units in plan:
        kept: list[int] = []
        # Non-heroes first: a hero cannot start a space group, and rides only in a free place.
        for u in sorted((u for u in units if u in attacking), key=lambda u: t.is_hero[u]):
            if can_start_group(t, kind, u) if not kept else can_join_group(t, tuple(kept), kind, u):
                kept.append(u)
        if kept:
            out.append(PlannedGroup(kind, tuple(kept)))
    return out


def keep_guard(s: GameState, plan: list[PlannedGroup]) -> list[PlannedGroup]:
    """Hold back enough units to survive the counterattack (module doc)."""
    threat = counterattack(s)
    limit = read.deck_size(s, s.player) - SAFE_DECK
    attacking = {u for _, units in plan for u in units}
    if incoming(s, threat, attacking) <= limit or incoming(s, threat, set()) > limit:
        return plan
    _hold_back(s, threat, attacking, limit)
    return _regroup(s, plan, attacking)
