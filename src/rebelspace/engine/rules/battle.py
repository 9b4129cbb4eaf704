"""Battle results, casualties, damage and the end of the attack phase (R18-R22, R30).

All battles and damage of one attack phase resolve together (R21): damage is measured when the
battles begin (R33), battles are fought group by group, the loser of each picks casualties
from the winner (R19), and then the damage is dealt and R9 is checked once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..enums import GroupKind
from ..events import (
    BattleResolved,
    BattleResult,
    CasualtyPicked,
    DamageDealt,
    EndReason,
    GotThrough,
)
from ..steps import Casualties
from ..values import (
    TARGET_DESTROYED,
    defenders,
    group_damage,
    group_value,
    rating,
    shields_up,
)
from .copies import copy_actions

if TYPE_CHECKING:
    from ..state import GameState

ATTACKER_WINS, DEFENDER_WINS, BOTH_DESTROYED = (
    BattleResult.ATTACKER_WON,
    BattleResult.DEFENDER_WON,
    BattleResult.BOTH_DESTROYED,
)
TIE_RESULT = {"both": BOTH_DESTROYED, "attacker": ATTACKER_WINS, "defender": DEFENDER_WINS}


def measure_damage(s: GameState) -> None:
    """R33: measure the damage of every unblocked, untargeting group before the battles (R38)."""
    shields = shields_up(s, 1 - s.player)
    total = 0
    for g, units in enumerate(s.groups):
        if not units or s.blocks[g] or s.targets[g] >= 0:
            continue
        preview = group_damage(s, units, shields)
        total += preview.damage
        if s.events is not None:
            type_of = s.ctx.tables.type_of
            dealers = tuple((type_of[u], d) for u, d in preview.dealers)
            s.emit(
                GotThrough(s.player, g, preview.damage, preview.stopped, preview.shields, dealers)
            )
    s.pending_damage = total
    s.battle_next = 0


def fight(s: GameState, g: int) -> bool:
    """R18: fight the battle of group ``g``, if it has one. True when one group won: then
    ``s.cas`` holds what its loser may pick (R19)."""
    attackers = s.groups[g]
    defending = defenders(s, g)
    if not attackers or not defending:
        return False
    kind = s.gkind[g]
    av = group_value(s, attackers, kind, s.atk_bonus)
    dv = group_value(s, defending, kind, s.def_bonus)
    result = _result(s, av, dv)
    if s.events is not None:
        type_of = s.ctx.tables.type_of
        s.emit(
            BattleResolved(
                s.player,
                g,
                GroupKind(kind),
                tuple(type_of[u] for u in attackers),
                av,
                tuple(type_of[u] for u in defending),
                dv,
                bool(s.blocks[g]),
                result,
            )
        )
    s.results[g] = result
    if result != DEFENDER_WINS:
        for u in defending:
            s.destroy(u)
        _set_defenders(s, g, ())
    if result != ATTACKER_WINS:
        for u in attackers:
            s.destroy(u)
        s.groups[g] = ()
    if result == BOTH_DESTROYED:
        return False
    if result == ATTACKER_WINS:
        s.cas = Casualties(g, 0, dv, kind)
    else:
        s.cas = Casualties(g, 1, av, kind)
    return True


def _result(s: GameState, av: int, dv: int) -> BattleResult:
    """R18: the higher battle value wins; a tie as the ``tie`` option says."""
    return battle_result(av, dv, s.ctx.options.tie)


def battle_result(av: int, dv: int, tie: str) -> BattleResult:
    """R18: the result of a battle at attack value ``av`` against defense value ``dv``, with
    the ``tie`` rules option; the rules fight with it, and forecasts tell it in words."""
    if av > dv:
        return ATTACKER_WINS
    if dv > av:
        return DEFENDER_WINS
    return TIE_RESULT[tie]


def picker(s: GameState) -> int:
    """R19: the loser of the battle in ``s.cas``, who picks the casualties."""
    assert s.cas is not None
    return s.player if s.cas.side else 1 - s.player


def _set_defenders(s: GameState, g: int, units: tuple[int, ...]) -> None:
    if s.blocks[g]:
        s.blocks[g] = units
    else:
        # A target that wins keeps fighting alone; one that loses is gone.
        s.targets[g] = units[0] if units else TARGET_DESTROYED


def winners(s: GameState) -> tuple[int, ...]:
    assert s.cas is not None
    g, side, _, _ = s.cas
    return s.groups[g] if side == 0 else defenders(s, g)


def eligible(s: GameState) -> list[int]:
    """R19: the winner's units the loser may pick next."""
    assert s.cas is not None
    _, side, budget, kind = s.cas
    units = winners(s)
    if len(units) <= 1:  # the winning group always keeps one unit
        return []
    t = s.ctx.tables
    is_hero = t.is_hero
    heroes_shielded = any(not is_hero[u] for u in units)
    bonus = s.atk_bonus if side == 0 else s.def_bonus
    out = []
    for u in units:
        if heroes_shielded and is_hero[u]:
            continue
        r = rating(s, u, kind) + bonus
        if 0 < r <= budget:
            out.append(u)
    return out


def legal_casualty(s: GameState) -> list[int]:
    t = s.ctx.tables
    type_of = t.type_of
    pick_id = s.ctx.space.pick_id
    can_pick = eligible(s)
    out = [pick_id[ct] for ct in sorted({type_of[u] for u in can_pick})]
    if t.copied_heroes:
        assert s.cas is not None
        side = s.player if s.cas.side == 0 else 1 - s.player
        for ct in sorted({type_of[u] for u in can_pick} & t.copied_heroes.keys()):
            same = [u for u in can_pick if type_of[u] == ct]
            out += copy_actions(s, side, same, [pick_id[ct]])
    return out


def pick(s: GameState, card: int, unit: int) -> None:
    """R19: the loser picks a unit of type ``card`` (the copy ``unit``, if given)."""
    assert s.cas is not None
    g, side, budget, kind = s.cas
    t = s.ctx.tables
    u = unit if unit >= 0 else next(x for x in eligible(s) if t.type_of[x] == card)
    bonus = s.atk_bonus if side == 0 else s.def_bonus
    r = rating(s, u, kind) + bonus
    if s.events is not None:
        s.emit(CasualtyPicked(s.to_move, g, card, r))
    if side == 0:
        s.groups[g] = tuple(x for x in s.groups[g] if x != u)
    else:
        _set_defenders(s, g, tuple(x for x in defenders(s, g) if x != u))
    s.destroy(u)
    s.cas = Casualties(g, side, budget - r, kind)


def end_attack(s: GameState) -> None:
    """R21: deal the damage, discard psion cards, inactivate attackers, then check R9."""
    p = s.player
    d = 1 - p
    deck = s.deck[d]
    dmg = min(s.pending_damage, len(deck))
    if dmg:
        pile = s.discard[d]
        for _ in range(dmg):
            pile.append(deck.pop())
        if s.events is not None:
            type_of = s.ctx.tables.type_of
            s.emit(DamageDealt(d, tuple(type_of[c] for c in pile[-dmg:]), len(deck)))
    s.pending_damage = 0
    for card, hero in s.psions:  # R24
        if card in s.att[hero]:
            s.att[hero] = tuple(a for a in s.att[hero] if a != card)
            s.to_discard(card)
    s.psions = ()
    busy = s.busy
    active = s.active[p]
    moved = [u for u in active if busy[u]]
    if moved:
        s.active[p] = [u for u in active if not busy[u]]
        s.inactive[p].extend(moved)
    s.busy = bytearray(len(busy))
    s.groups = []
    s.gkind = []
    s.blocks = []
    s.targets = []
    s.results = []
    s.atk_bonus = s.def_bonus = 0
    if not deck:  # R9
        s.finish(p, EndReason.DAMAGE)
