"""One model of how to block, used for this player's real blocks and, in the attacker's place,
to predict the defender's (``plan.py``).

Groups are taken in order of the damage they deal; each gets the weakest single unit that
beats it (a lone winner loses nothing), else the smallest strongest-first set that beats it,
else a tie when that trade is good. Groups still unblocked are chump-blocked with the cheapest
unit when their damage is large or the deck would not survive it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rebelspace.engine import (
    Ability,
    GameState,
    group_damage,
    group_value,
    rating,
    read,
    shields_up,
    unit_stats,
)

from .facts import Member, card_facts, casualty_loss, opponent_may_hold, worth
from .style import DEFAULT, Style

W_DAMAGE = 1.0  # one point of damage costs the defender one deck card
CHUMP_DAMAGE = 3  # chump-block a group dealing at least this much, even when not in danger
# A chump blocker's rating is not all lost: it may take a casualty along or make the next
# block easier. Choosing the cheapest chump blocker, each rating point counts this much...
CHUMP_RATING_CREDIT = 0.3
# ...and a chump block is made (out of danger) only if the blocker's worth stays under the
# damage it stops plus this much per rating point.
CHUMP_RATING_ALLOWANCE = 0.5
SURPRISE_BONUS = 2  # what Surprise Attack adds to each attacking unit (R30)
TRAP_BONUS = 2  # what a Trap adds to each defending unit (R30)


class AttackGroup(NamedTuple):
    """An attacking group, as the blocking model sees it."""

    value: int
    damage: int
    worth: float
    kind: int  # GroupKind
    members: list[Member]


class Blocker(NamedTuple):
    """A unit that may block."""

    values: tuple[int, int]  # (ground value, space value), indexed by GroupKind
    worth: float
    may_block: tuple[bool, bool]  # (may block ground, may block space), indexed by GroupKind


class Candidate(NamedTuple):
    """A blocker free to block a group."""

    value: int
    worth: float
    blocker: int  # index into the blockers


class BlockOutcome(NamedTuple):
    """What a set of blocks leads to."""

    damage: int  # damage through, from the groups left unblocked
    attacker_loss: float  # worth the attacker loses
    defender_loss: float  # worth the defender loses


def _lone_winner(cands: list[Candidate], value: int, safe: int) -> int | None:
    """The weakest single blocker that beats a group of ``value``, preferring one that still
    wins at ``safe`` (the group's value after a Surprise Attack); None if none beats it."""
    winners = [c for c in cands if c.value > value]
    if not winners:
        return None
    return min(winners, key=lambda c: (c.value <= safe, c.value, c.worth)).blocker


def _strongest_set(
    group: AttackGroup, cands: list[Candidate], blockers: list[Blocker], tie_both: bool
) -> list[int] | None:
    """The smallest strongest-first set of blockers that beats ``group``, or ties it when
    ties destroy both (``tie_both``) and the trade is good; None if there is none."""
    total = 0
    chosen: list[int] = []
    for c in sorted(cands, key=lambda c: (-c.value, c.worth)):
        if c.value <= 0:
            break
        chosen.append(c.blocker)
        total += c.value
        if total > group.value:
            break
    if total < group.value or (total == group.value and not tie_both):
        return None
    lost = sum(blockers[j].worth for j in chosen)
    if total == group.value and lost > group.worth + group.damage * W_DAMAGE:
        return None  # a tie that trades badly
    return chosen


def _winning_block(
    group: AttackGroup, blockers: list[Blocker], used: list[bool], tie_both: bool, surprise: int
) -> list[int] | None:
    """The blockers that beat (or tie well with) ``group``, from those not ``used``."""
    cands = [
        Candidate(b.values[group.kind], b.worth, j)
        for j, b in enumerate(blockers)
        if not used[j] and b.may_block[group.kind]
    ]
    safe = group.value + surprise * len(group.members)
    single = _lone_winner(cands, group.value, safe)
    if single is not None:
        return [single]
    return _strongest_set(group, cands, blockers, tie_both)


def _cheapest_chump(blockers: list[Blocker], used: list[bool], kind: int) -> int | None:
    """The free blocker of ``kind`` that costs least to lose, less what it may take along."""
    cheapest: tuple[float, int] | None = None
    for j, b in enumerate(blockers):
        if used[j] or not b.may_block[kind]:
            continue
        key = (b.worth - CHUMP_RATING_CREDIT * b.values[kind], j)
        if cheapest is None or key < cheapest:
            cheapest = key
    return None if cheapest is None else cheapest[1]


def _chump_blocks(
    groups: list[AttackGroup],
    blockers: list[Blocker],
    unblocked: list[int],
    used: list[bool],
    out: list[list[int]],
    deck: int,
) -> None:
    """Chump-block the ``unblocked`` groups (in order) whose damage is large or would empty
    the deck; fills ``out`` and ``used``."""
    incoming = sum(groups[g].damage for g in unblocked)
    for g in unblocked:
        group = groups[g]
        if group.damage <= 0:
            continue
        danger = deck <= incoming + 1
        if not danger and group.damage < CHUMP_DAMAGE:
            continue
        j = _cheapest_chump(blockers, used, group.kind)
        if j is None:
            continue
        b = blockers[j]
        allowance = group.damage * W_DAMAGE + CHUMP_RATING_ALLOWANCE * b.values[group.kind]
        if not danger and b.worth >= allowance:
            continue
        used[j] = True
        out[g] = [j]
        incoming -= group.damage


def assign_blocks(
    groups: list[AttackGroup],
    blockers: list[Blocker],
    deck: int,
    tie_both: bool,
    surprise: int = 0,
) -> list[list[int]]:
    """Blocker indices per group: winning blocks first, then ties and chumps (module doc).

    ``surprise`` is what the attacker could add to each attacking unit (Surprise Attack, R30):
    a lone blocker that still wins after it is preferred."""
    out: list[list[int]] = [[] for _ in groups]
    used = [False] * len(blockers)
    order = sorted(range(len(groups)), key=lambda g: (-groups[g].damage, -groups[g].value))
    unblocked: list[int] = []
    for g in order:
        chosen = _winning_block(groups[g], blockers, used, tie_both, surprise)
        if chosen is None:
            unblocked.append(g)
            continue
        for j in chosen:
            used[j] = True
        out[g] = chosen
    _chump_blocks(groups, blockers, unblocked, used, out, deck)
    return out


def score_blocks(
    groups: list[AttackGroup],
    blockers: list[Blocker],
    assign: list[list[int]],
    tie_both: bool,
) -> BlockOutcome:
    """What blocks ``assign`` lead to: damage through and each side's losses."""
    dmg = 0
    att_loss = 0.0
    def_loss = 0.0
    for group, chosen in zip(groups, assign, strict=True):
        if not chosen:
            dmg += group.damage
            continue
        kind = group.kind
        bv = 0
        bw = 0.0
        for j in chosen:
            bv += blockers[j].values[kind]
            bw += blockers[j].worth
        if bv > group.value:
            att_loss += group.worth
            winners = [Member(blockers[j].values[kind], blockers[j].worth) for j in chosen]
            def_loss += casualty_loss(winners, group.value)
        elif bv == group.value and tie_both:
            att_loss += group.worth
            def_loss += bw
        else:
            def_loss += bw
            att_loss += casualty_loss(group.members, bv)
    return BlockOutcome(dmg, att_loss, def_loss)


# ----------------------------------------------------------------------------- the block step


def _attacking_groups(s: GameState) -> tuple[list[AttackGroup], list[int]]:
    """The attacker's groups as the model sees them, and each one's index in ``s.groups``."""
    f = card_facts(s.ctx)
    shields = shields_up(s, s.to_move)
    b = read.battle(s)
    bonus = b.attack_bonus
    groups: list[AttackGroup] = []
    index: list[int] = []
    for g, units in enumerate(b.groups):
        if not units:
            continue
        kind = b.kinds[g]
        members = [Member(rating(s, u, kind) + bonus, worth(s, f, u)) for u in units]
        value = group_value(s, units, kind, bonus)
        dmg = group_damage(s, units, shields).damage
        groups.append(AttackGroup(value, dmg, sum(m.worth for m in members), kind, members))
        index.append(g)
    return groups, index


def _own_blockers(s: GameState, pool: list[int], bonus: int) -> list[Blocker]:
    """The defender's units in ``pool`` as blockers, with the defender's bonus."""
    t = s.ctx.tables
    f = card_facts(s.ctx)
    blockers: list[Blocker] = []
    for u in pool:
        stats = unit_stats(s, u, bonus)
        blockers.append(
            Blocker(
                (stats.ground, stats.space),
                worth(s, f, u),
                (t.is_ground_unit[u] or t.is_hero[u], t.is_space_unit[u]),
            )
        )
    return blockers


def _holds(s: GameState, p: int, ability: int) -> bool:
    """Does ``p`` (the player to move, reading its own hand) hold a card with ``ability``?"""
    ability_of = s.ctx.tables.ability
    return any(ability_of[c] == ability for c in read.hand(s, p))


def block(s: GameState, legal: Sequence[int], style: Style = DEFAULT) -> int:
    """The BLOCK step: the next unit the model's blocks put in, or "done blocking"."""
    t = s.ctx.tables
    space = s.ctx.space
    type_of = t.type_of
    d = s.to_move
    groups, index = _attacking_groups(s)
    pool = [u for u in read.active(s, d) if t.is_unit[u]]
    trap = style.own_tricks_in_plans and _holds(s, d, Ability.TRAP)
    b = read.battle(s)
    blockers = _own_blockers(s, pool, b.defense_bonus + (TRAP_BONUS if trap else 0))
    surprise = SURPRISE_BONUS if opponent_may_hold(s, s.player, Ability.SURPRISE) else 0
    assign = assign_blocks(
        groups, blockers, read.deck_size(s, d), s.ctx.options.tie == "both", surprise
    )
    allowed = set(legal)
    for i, chosen in enumerate(assign):
        g = index[i]
        have = [type_of[u] for u in b.blocks[g]]
        for j in sorted(chosen, key=lambda j: -blockers[j].values[groups[i].kind]):
            ct = type_of[pool[j]]
            if ct in have:
                have.remove(ct)
                continue
            a = space.block_id[g][ct]
            if a in allowed:
                return a
    return space.done_blocking
