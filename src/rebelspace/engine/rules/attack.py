"""The attack phase up to the battles: groups, Ion Cannon, blocks, targets, tricks (R11-R17).

Each of these steps is a sequence of small decisions that ends with a "done" action. This
module lists the legal actions of each step and does what each action does to the position;
which step comes next, and which steps play themselves (R34), is ``flow.py``'s business.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..abilities import When, play_card
from ..enums import GroupKind
from ..events import (
    Attacked,
    Blocked,
    GroupFormed,
    IonCannonFired,
    PsionPlayed,
    Targeted,
    UnitAdded,
)
from ..steps import GROUND_BATTLE, SPACE_BATTLE
from ..values import NO_TARGET, group_value
from .copies import chosen, copy_actions

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import GameState
    from ..tables import Tables


def reset_attack(s: GameState) -> None:
    """Clear what the last attack phase left, before a new one (also the extra one of R22)."""
    s.groups = []
    s.gkind = []
    s.blocks = []
    s.targets = []
    s.results = []
    s.ion_used = ()
    s.atk_bonus = 0
    s.def_bonus = 0
    s.psions = ()
    s.pending_damage = 0
    s.battle_next = 0
    s.cas = None


def has_attacker(s: GameState) -> bool:
    """R11: does the attacker have a unit in its Active Zone that may attack?"""
    can_attack = s.ctx.tables.can_attack
    return any(can_attack[u] for u in s.active[s.player])


def fits(t: Tables, units: tuple[int, ...], kind: int, u: int) -> bool:
    """May unit ``u`` join a battle group of ``kind`` holding ``units``? (R12)"""
    if kind == GROUND_BATTLE:
        return t.is_ground_unit[u] or t.is_hero[u]
    if t.is_space_unit[u]:
        return True
    if not t.is_hero[u]:
        return False
    if not (t.pilot[u] or t.captain[u]):
        return False
    return _seats_for_heroes(t, (*units, u))


def _seats_for_heroes(t: Tables, members: tuple[int, ...]) -> bool:
    """R12: a hero rides in a Fighter's pilot place or a Ship's captain place; one that is
    both Pilot and Captain may take either. Is there a place for every hero of ``members``?"""
    pilot, captain = t.pilot, t.captain
    fighters = ships = p_only = c_only = both = 0
    for x in members:
        if t.fighter[x]:
            fighters += 1
        if t.ship[x]:
            ships += 1
        if t.is_hero[x]:
            if pilot[x] and captain[x]:
                both += 1
            elif pilot[x]:
                p_only += 1
            else:
                c_only += 1
    return p_only <= fighters and c_only <= ships and p_only + c_only + both <= fighters + ships


def starts(t: Tables, kind: int, u: int) -> bool:
    """May unit ``u`` be the first unit of a group of ``kind``? Heroes only ride in space."""
    if kind == GROUND_BATTLE:
        return t.is_ground_unit[u] or t.is_hero[u]
    return t.is_space_unit[u]


# ----------------------------------------------------------------------------- forming groups


def legal_form(s: GameState) -> list[int]:
    t = s.ctx.tables
    space = s.ctx.space
    out = [space.attack if s.groups else space.no_attack]
    ngroups = len(s.groups)
    can_new = ngroups < s.ctx.options.max_groups
    seen: set[int] = set()
    busy, can_attack, type_of = s.busy, t.can_attack, t.type_of
    copied = t.copied_heroes
    for u in s.active[s.player]:
        if busy[u] or not can_attack[u]:
            continue
        ct = type_of[u]
        if ct in seen:
            continue
        seen.add(ct)
        plain = _form_or_add(s, u, ct, can_new, ngroups)
        out += plain
        if copied and ct in copied:
            free = [x for x in s.active[s.player] if type_of[x] == ct and not busy[x]]
            out += copy_actions(s, s.player, free, plain)
    return out


def _form_or_add(s: GameState, u: int, ct: int, can_new: bool, ngroups: int) -> list[int]:
    """The plain actions that put free unit ``u`` (of type ``ct``) into a group (R12)."""
    t = s.ctx.tables
    space = s.ctx.space
    out = []
    if can_new:
        if t.is_ground_unit[u] or t.is_hero[u]:
            out.append(space.form_ground_id[ct])
        if t.is_space_unit[u]:
            out.append(space.form_space_id[ct])
    for g in range(ngroups):
        if fits(t, s.groups[g], s.gkind[g], u):
            out.append(space.add_id[g][ct])
    return out


def free_unit(s: GameState, zone: list[int], card_type: int) -> int:
    type_of, busy = s.ctx.tables.type_of, s.busy
    for u in zone:
        if type_of[u] == card_type and not busy[u]:
            return u
    raise AssertionError("legal action names a unit that is not there")


def _form(s: GameState, card: int, kind: int, unit: int) -> None:
    u = unit if unit >= 0 else free_unit(s, s.active[s.player], card)
    s.busy[u] = 1
    s.groups.append((u,))
    s.gkind.append(kind)
    s.blocks.append(())
    s.targets.append(NO_TARGET)
    s.results.append(-1)
    if s.events is not None:
        s.emit(GroupFormed(s.player, len(s.groups) - 1, GroupKind(kind), card))


def do_form_ground(s: GameState, a: Action) -> None:
    _form(s, a.card, GROUND_BATTLE, chosen(s, a) if a.copy else -1)


def do_form_space(s: GameState, a: Action) -> None:
    _form(s, a.card, SPACE_BATTLE, chosen(s, a) if a.copy else -1)


def do_add(s: GameState, a: Action) -> None:
    card, group = a.card, a.group
    u = chosen(s, a) if a.copy else free_unit(s, s.active[s.player], card)
    s.busy[u] = 1
    s.groups[group] = s.groups[group] + (u,)
    if s.events is not None:
        s.emit(UnitAdded(s.player, group, card))


def announce_attack(s: GameState) -> None:
    """The attacker has declared its groups: tell both players what attacks (R13 values)."""
    if s.events is not None:
        type_of = s.ctx.tables.type_of
        for g, units in enumerate(s.groups):
            kind = s.gkind[g]
            value = group_value(s, units, kind, s.atk_bonus)
            if s.events is not None:
                s.emit(
                    Attacked(s.player, g, GroupKind(kind), tuple(type_of[u] for u in units), value)
                )


# ----------------------------------------------------------------------------- Ion Cannon (R14)


def legal_ion(s: GameState) -> list[int]:
    t = s.ctx.tables
    space = s.ctx.space
    d = 1 - s.player
    if not any(t.ion_cannon[u] and u not in s.ion_used for u in s.active[d]):
        return [space.ion_hold]
    out = [space.ion_hold]
    ion_id = space.ion_id
    for g, units in enumerate(s.groups):
        for ct in sorted({t.type_of[u] for u in units if t.ship[u]}):
            out.append(ion_id[g][ct])
    return out


def fire_ion_cannon(s: GameState, card: int, group: int) -> None:
    """R14: the defender's next ready Ion Cannon destroys a Ship of type ``card`` in ``group``."""
    t = s.ctx.tables
    d = 1 - s.player
    cannon = next(u for u in s.active[d] if t.ion_cannon[u] and u not in s.ion_used)
    s.ion_used = s.ion_used + (cannon,)
    units = s.groups[group]
    ship = next(u for u in units if t.type_of[u] == card)
    s.groups[group] = tuple(u for u in units if u != ship)
    s.busy[ship] = 0
    s.destroy(ship)
    if s.events is not None:
        s.emit(IonCannonFired(d, t.type_of[cannon], card, group))


# ----------------------------------------------------------------------------- blocks (R15)


def legal_block(s: GameState) -> list[int]:
    t = s.ctx.tables
    space = s.ctx.space
    out = [space.done_blocking]
    block_id = space.block_id
    seen: set[int] = set()
    busy, type_of = s.busy, t.type_of
    groups, blocks, gkind = s.groups, s.blocks, s.gkind
    d = 1 - s.player
    copied = t.copied_heroes
    for u in s.active[d]:
        if busy[u] or not t.is_unit[u]:
            continue
        ct = type_of[u]
        if ct in seen:
            continue
        seen.add(ct)
        start = len(out)
        for g, units in enumerate(groups):
            if not units:
                continue
            blockers = blocks[g]
            if fits(t, blockers, gkind[g], u) if blockers else starts(t, gkind[g], u):
                out.append(block_id[g][ct])
        if copied and ct in copied:
            free = [x for x in s.active[d] if type_of[x] == ct and not busy[x]]
            out += copy_actions(s, d, free, out[start:])
    return out


def do_block(s: GameState, a: Action) -> None:
    card, group = a.card, a.group
    d = 1 - s.player
    u = chosen(s, a) if a.copy else free_unit(s, s.active[d], card)
    s.busy[u] = 1
    s.blocks[group] = s.blocks[group] + (u,)
    if s.events is not None:
        s.emit(Blocked(d, group, card))


# ----------------------------------------------------------------------------- targets (R16)


def legal_target(s: GameState) -> list[int]:
    space = s.ctx.space
    d = 1 - s.player
    out = [space.done_targeting]
    zones = [s.active[d], s.inactive[d]] if s.ctx.options.target_inactive else [s.active[d]]
    for g, units in enumerate(s.groups):
        if not units or s.blocks[g] or s.targets[g] >= 0:
            continue
        for z, zone in enumerate(zones):
            out += _targets_in(s, zone, s.gkind[g], space.target_id[g][z])
    return out


def _targets_in(s: GameState, zone: list[int], kind: int, ids: tuple[int, ...]) -> list[int]:
    """The target actions (``ids[card]``, one defender's zone) of a group of ``kind``."""
    t = s.ctx.tables
    busy, type_of = s.busy, t.type_of
    copied = t.copied_heroes
    out = []
    seen: set[int] = set()
    for u in zone:
        if busy[u]:
            continue
        ct = type_of[u]
        if ct in seen:
            continue
        seen.add(ct)
        ok = t.is_space_unit[u] if kind == SPACE_BATTLE else (t.is_ground_unit[u] or t.is_hero[u])
        if ok:
            out.append(ids[ct])
            if copied and ct in copied:
                free = [x for x in zone if type_of[x] == ct and not busy[x]]
                out += copy_actions(s, 1 - s.player, free, [ids[ct]])
    return out


def choose_target(s: GameState, card: int, group: int, zone: int, unit: int) -> None:
    """R16: ``group`` targets a unit of type ``card`` in the defender's zone (1: Inactive)."""
    d = 1 - s.player
    u = unit if unit >= 0 else free_unit(s, s.inactive[d] if zone else s.active[d], card)
    s.busy[u] = 1
    s.targets[group] = u
    if s.events is not None:
        s.emit(Targeted(s.player, group, card, bool(zone)))


# ----------------------------------------------------------------------------- tricks (R17, R24)


def legal_tricks(s: GameState) -> list[int]:
    t = s.ctx.tables
    space = s.ctx.space
    q = s.to_move
    attacking = q == s.player
    out = [space.pass_]
    seen: set[int] = set()
    heroes: list[int] | None = None
    type_of, effects = t.type_of, t.type_effect
    when = When.ATTACKING if attacking else When.DEFENDING
    for c in s.hand[q]:
        ct = type_of[c]
        if ct in seen:
            continue
        seen.add(ct)
        if t.is_psion[c]:
            if heroes is None:
                heroes = _fighting_psionics(s, q)
            out += _psion_actions(s, q, ct, heroes)
            continue
        effect = effects[ct]
        if effect is not None and effect.when is when:
            out.append(space.trick_id[ct])
    return out


def _fighting_psionics(s: GameState, q: int) -> list[int]:
    """The types of ``q``'s Psionic heroes in a battle, sorted (R24)."""
    t = s.ctx.tables
    return sorted(
        {
            t.type_of[h]
            for z in (s.active[q], s.inactive[q])
            for h in z
            if s.busy[h] and t.psionic[h]
        }
    )


def _psion_actions(s: GameState, q: int, ct: int, heroes: list[int]) -> list[int]:
    """Playing the psion card of type ``ct`` on each of ``heroes`` (and on each copy)."""
    t = s.ctx.tables
    psion_id = s.ctx.space.psion_id
    out = []
    for h in heroes:
        out.append(psion_id[(ct, h)])
        if h in t.copied_heroes:
            riders = [
                x
                for z in (s.active[q], s.inactive[q])
                for x in z
                if t.type_of[x] == h and s.busy[x] and t.psionic[x]
            ]
            out += copy_actions(s, q, riders, [psion_id[(ct, h)]])
    return out


def play_trick(s: GameState, card: int) -> None:
    """R17: the player to move plays a battle trick (R22, R30; its effect, engine/abilities/)."""
    play_card(s, s.to_move, card, -1, -1)


def play_psion(s: GameState, card: int, hero_type: int, unit: int) -> None:
    """R24: the player to move puts a psion card on one of its fighting Psionic heroes."""
    t = s.ctx.tables
    q = s.to_move
    c = s.take_from_hand(q, card)
    h = (
        unit
        if unit >= 0
        else next(
            u
            for z in (s.active[q], s.inactive[q])
            for u in z
            if t.type_of[u] == hero_type and s.busy[u]
        )
    )
    s.att[h] = s.att[h] + (c,)
    s.psions = s.psions + ((c, h),)
    if s.events is not None:
        s.emit(PsionPlayed(q, card, hero_type))
