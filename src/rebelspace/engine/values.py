"""Computed values, in one place: a unit's current ratings, a group's battle value, a space
group's hero places, and the damage an unblocked group deals after Defense Shields.

The rules decide battles and damage with these functions, and views carry their results, so
the heuristic, the terminal, the server and the browser show the numbers the rules use and
never compute them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .enums import GroupKind

if TYPE_CHECKING:
    from .state import GameState

# GameState.targets per attacking group: no target, or the target was destroyed in its battle.
NO_TARGET, TARGET_DESTROYED = -1, -2


class UnitStats(NamedTuple):
    """A unit's current Ground, Space and Damage ratings: its own plus its attachments' and
    psion cards' (R13), plus the battle bonus of Surprise Attack or Trap while it fights (R30,
    ratings only: no bonus to Damage)."""

    ground: int
    space: int
    damage: int


class HeroPlaces(NamedTuple):
    """R12: a space group's places for heroes (a Pilot in a Fighter's place, a Captain in a
    Ship's) and the heroes aboard."""

    fighters: int
    ships: int
    heroes: int


def hero_places(s: GameState, units: tuple[int, ...]) -> HeroPlaces:
    """R12: the places for heroes the units of a space group give, and the heroes among them."""
    t = s.ctx.tables
    fighters = ships = heroes = 0
    for u in units:
        if t.fighter[u]:
            fighters += 1
        if t.ship[u]:
            ships += 1
        if t.is_hero[u]:
            heroes += 1
    return HeroPlaces(fighters, ships, heroes)


class DamagePreview(NamedTuple):
    """What an unblocked, untargeting group deals (R20): ``damage`` after shields, ``stopped``
    what Defense Shields took from its Ships, ``shields`` whether shields stood against Ships
    of this group, ``dealers`` (unit, damage) of each unit whose damage counts."""

    damage: int
    stopped: int
    shields: bool
    dealers: tuple[tuple[int, int], ...]


def rating(s: GameState, unit: int, kind: int) -> int:
    """R13: a unit's Ground or Space rating with its attachments and psion cards."""
    t = s.ctx.tables
    table = t.space if kind else t.ground  # GroupKind.SPACE is 1
    r = table[unit]
    for card in s.att[unit]:
        r += table[card]
    return r


def damage(s: GameState, unit: int) -> int:
    """A unit's Damage rating with its attachments and psion cards (R13, R24)."""
    dmg = s.ctx.tables.damage
    d = dmg[unit]
    for card in s.att[unit]:
        d += dmg[card]
    return d


def unit_stats(s: GameState, unit: int, bonus: int = 0) -> UnitStats:
    """The unit's current ratings; ``bonus`` is the R30 bonus of the side it fights for."""
    return UnitStats(
        rating(s, unit, GroupKind.GROUND) + bonus,
        rating(s, unit, GroupKind.SPACE) + bonus,
        damage(s, unit),
    )


def group_value(s: GameState, units: tuple[int, ...], kind: int, bonus: int) -> int:
    """R13, R30: a group's battle value: its units' ratings, each with the side's bonus."""
    t = s.ctx.tables
    table = t.space if kind else t.ground  # GroupKind.SPACE is 1
    att = s.att
    total = 0
    for u in units:  # ``rating`` inlined: searches and the heuristic call this very often
        total += table[u] + bonus
        for card in att[u]:
            total += table[card]
    return total


def shields_up(s: GameState, defender: int) -> bool:
    """R20: Defense Shields in the defender's Active Zone (they do not stack)."""
    shields = s.ctx.tables.shields
    return any(shields[u] for u in s.active[defender])


def group_damage(s: GameState, units: tuple[int, ...], shields: bool) -> DamagePreview:
    """R20: the damage ``units`` deal unblocked; with ``shields`` up, Ships deal none."""
    t = s.ctx.tables
    ship, dmg, att = t.ship, t.damage, s.att
    total = stopped = 0
    stands = False
    dealers = []
    for u in units:
        d = dmg[u]  # ``damage`` inlined, as in group_value
        for card in att[u]:
            d += dmg[card]
        if shields and ship[u]:
            stopped += d
            stands = True
            continue
        total += d
        dealers.append((u, d))
    return DamagePreview(total, stopped, stands, tuple(dealers))


def defenders(s: GameState, group: int) -> tuple[int, ...]:
    """The units a group fights: its blockers, or its target (R15, R16)."""
    if s.blocks[group]:
        return s.blocks[group]
    target = s.targets[group]
    return (target,) if target >= 0 else ()


def damage_preview(s: GameState, group: int) -> DamagePreview | None:
    """The damage group ``group`` deals if it stays unblocked and untargeting (None once it is
    blocked, targets a unit, or has no unit left). Before the battles this is a preview; from
    their start it is what R33 measured."""
    units = s.groups[group]
    # A group that fought (``results``) was blocked or targeting, even once its blockers or
    # target are gone.
    if not units or s.blocks[group] or s.targets[group] != NO_TARGET or s.results[group] >= 0:
        return None
    return group_damage(s, units, shields_up(s, 1 - s.player))
