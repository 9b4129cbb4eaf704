"""Battle results, casualties, damage and the end of the attack phase (R18-R22, R30).

All battles and damage of one attack phase resolve together (R21): damage is measured when the
battles begin (R33), battles are fought group by group, the loser of each picks casualties
from the winner (R19), and then the damage is dealt and R9 is checked once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import CASUALTY, PLAYER_NAMES
from .attack import KIND_NAMES, begin_attack

if TYPE_CHECKING:
    from ..state import GameState

ATTACKER_WINS, DEFENDER_WINS, BOTH_DESTROYED = 0, 1, 2


def begin_resolution(s: GameState) -> None:
    t = s.ctx.tables
    p = s.player
    d = 1 - p
    shields = any(t.shields[u] for u in s.active[d])
    total = 0
    for g, units in enumerate(s.groups):
        if not units or s.blocks[g] or s.targets[g] >= 0:
            continue
        dmg = sum(s.damage_of(u) for u in units if not (shields and t.ship[u]))
        total += dmg
        if s.tally is not None:
            for u in units:
                if not (shields and t.ship[u]):
                    s.tally.deal(t.type_of[u], s.damage_of(u))
        if s.log is not None:
            note = (
                " (Defense Shields stop the Ships' damage)"
                if shields and any(t.ship[u] for u in units)
                else ""
            )
            s.say(f"{PLAYER_NAMES[p]}'s group {g + 1} gets through for {dmg} damage{note}")
    s.pending_damage = total
    s.battle_next = 0
    continue_battles(s)


def defenders(s: GameState, g: int) -> tuple[int, ...]:
    if s.blocks[g]:
        return s.blocks[g]
    if s.targets[g] >= 0:
        return (s.targets[g],)
    return ()


def value(s: GameState, units: tuple[int, ...], kind: int, bonus: int) -> int:
    return sum(s.rating(u, kind) + bonus for u in units)


def continue_battles(s: GameState) -> None:
    """Fight the remaining battles in group order, stopping when a casualty pick is needed."""
    opts = s.ctx.options
    while s.battle_next < len(s.groups):
        g = s.battle_next
        s.battle_next += 1
        attackers = s.groups[g]
        defending = defenders(s, g)
        if not attackers or not defending:
            continue
        kind = s.gkind[g]
        av = value(s, attackers, kind, s.atk_bonus)
        dv = value(s, defending, kind, s.def_bonus)
        if av > dv:
            result = ATTACKER_WINS
        elif dv > av:
            result = DEFENDER_WINS
        else:
            result = {"both": BOTH_DESTROYED, "attacker": ATTACKER_WINS, "defender": DEFENDER_WINS}[
                opts.tie
            ]
        _log_battle(s, g, kind, attackers, av, defending, dv, result)
        s.results[g] = result
        if s.tally is not None:
            _tally_battle(s, attackers, defending, result)
        if result != DEFENDER_WINS:
            for u in defending:
                s.destroy(u)
            _set_defenders(s, g, ())
        if result != ATTACKER_WINS:
            for u in attackers:
                s.destroy(u)
            s.groups[g] = ()
        if result == BOTH_DESTROYED:
            continue
        winner_side = 0 if result == ATTACKER_WINS else 1
        budget = dv if result == ATTACKER_WINS else av
        s.cas = (g, winner_side, budget, kind)
        if eligible(s):
            s.step = CASUALTY
            s.to_move = s.player if winner_side else 1 - s.player
            return
        s.cas = None
    end_attack(s)


def _tally_battle(
    s: GameState, attackers: tuple[int, ...], defending: tuple[int, ...], result: int
) -> None:
    assert s.tally is not None
    type_of = s.ctx.tables.type_of
    a_types = tuple(type_of[u] for u in attackers)
    d_types = tuple(type_of[u] for u in defending)
    if result != DEFENDER_WINS:
        s.tally.kill(a_types, len(defending))
    if result != ATTACKER_WINS:
        s.tally.kill(d_types, len(attackers))
    # R19: the loser's units pick the casualties; each pick is their kill.
    s.tally.set_casualty_credit(d_types if result == ATTACKER_WINS else a_types)


def _set_defenders(s: GameState, g: int, units: tuple[int, ...]) -> None:
    if s.blocks[g]:
        s.blocks[g] = units
    else:
        # A target that wins keeps fighting alone; one that loses is gone.
        s.targets[g] = units[0] if units else -2  # -2: the target was destroyed


def _log_battle(
    s: GameState,
    g: int,
    kind: int,
    attackers: tuple[int, ...],
    av: int,
    defending: tuple[int, ...],
    dv: int,
    result: int,
) -> None:
    if s.log is None:
        return
    p, d = PLAYER_NAMES[s.player], PLAYER_NAMES[1 - s.player]
    names_d = ", ".join(s.name(u) for u in defending)
    names_a = ", ".join(s.name(u) for u in attackers)
    outcome = (
        f"{names_d} destroyed"
        if result == ATTACKER_WINS
        else f"{names_a} destroyed"
        if result == DEFENDER_WINS
        else "tie: both sides destroyed"
    )
    kind_name = KIND_NAMES[kind]
    if s.blocks[g]:
        s.say(
            f"{d} {names_d} ({kind_name} {dv}) block the {p} {kind_name} group {g + 1} "
            f"({names_a}: {av}): {outcome}"
        )
    else:
        s.say(
            f"{p} {kind_name} group {g + 1} ({names_a}: {av}) fights the targeted {d} "
            f"{names_d} ({kind_name} {dv}): {outcome}"
        )


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
        r = s.rating(u, kind) + bonus
        if 0 < r <= budget:
            out.append(u)
    return out


def legal_casualty(s: GameState) -> list[int]:
    type_of = s.ctx.tables.type_of
    base = s.ctx.space.pick_base
    return [base + ct for ct in sorted({type_of[u] for u in eligible(s)})]


def do_pick(s: GameState, card: int, group: int, target: int, n: int) -> None:
    assert s.cas is not None
    g, side, budget, kind = s.cas
    t = s.ctx.tables
    u = next(x for x in eligible(s) if t.type_of[x] == card)
    bonus = s.atk_bonus if side == 0 else s.def_bonus
    r = s.rating(u, kind) + bonus
    s.say(f"{PLAYER_NAMES[s.to_move]} picks {s.name(u)} ({r}) as a casualty")
    if side == 0:
        s.groups[g] = tuple(x for x in s.groups[g] if x != u)
    else:
        _set_defenders(s, g, tuple(x for x in defenders(s, g) if x != u))
    s.destroy(u)
    if s.tally is not None:
        s.tally.casualty()
    s.cas = (g, side, budget - r, kind)
    if not eligible(s):
        s.cas = None
        continue_battles(s)


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
        if s.log is not None:
            s.say(
                f"{PLAYER_NAMES[d]} discards {dmg} card{'s' if dmg > 1 else ''} from the top "
                f"of the deck ({len(deck)} left)"
            )
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
        s.finish(p, f"{PLAYER_NAMES[d]}'s deck is empty")
        return
    if s.extra_attacks:  # R22
        s.extra_attacks -= 1
        s.say(f"{PLAYER_NAMES[p]} gets an extra attack phase (Multiple Targets)")
        begin_attack(s)
        return
    from .turn import begin_deploy

    begin_deploy(s)
