"""A rule-based player: the choices a decent human player would make, one decision at a time.

Strategy, by step (the steps of ``engine/rules``):

- **Draw**: the most allowed, unless the hand is already large or the deck is low next to what
  the opponent's units could deal next turn; then the least. Never the last card if avoidable.
- **Forming groups**: a plan from every attack-capable active unit (those already put in groups
  included, so the plan is the same at each small step). Heroes go where they are stronger,
  space heroes riding in free Pilot/Captain places. For ground and space separately a few
  ways to split the units into groups are tried (one big group, groups that no block can beat,
  groups that beat any single blocker, one group per unit); each is scored against the
  blocks this player would itself make in the defender's place (damage through, units lost on
  each side) and the best is kept if it beats not attacking. With no blockers that is simply
  everything in one group: free damage. Unless the attack wins, enough units stay home to
  chump-block a counterattack that would otherwise empty the deck. The plan (cached, as it is
  asked for at every small step) is followed with "new group"/"add" actions and "attack"
  (or "no attack").
- **Ion Cannon**: destroy the biggest attacking Ship.
- **Blocks**: groups in order of the damage they deal; each gets the weakest single unit that
  beats it (a lone winner loses nothing), else the smallest strongest-first set that beats
  it, else a tie when that trade is good. Groups still unblocked are chump-blocked with the
  cheapest unit when their damage is large or the deck would not survive it.
- **Targets**: an unblocked group targets the opposing unit it beats whose worth most exceeds
  the damage given up (heroes, facilities, expensive units), unless the damage would win now.
- **Battle tricks**: the card that most improves the battles in progress (turns a lost or tied
  battle into a win; ESP on a group that deals damage); Multiple Targets while units are still
  free to attack; otherwise pass.
- **Casualties**: the set the budget allows that costs the winner most.
- **Deploy**: the best use of the points (a small knapsack over usefulness: damage, ratings,
  hero and facility bonuses), items and companions on the strongest hero.
- **End**: Convert/Traitor on the best opposing hero, Medi-Bot/Cybernetics for the best hero in
  the discard pile, Recruit/Shuttle for the best hero in the deck (not when the deck is low),
  Saboteur on the most valuable facility, Spies on a hand worth seeing; then end the turn and
  discard the least useful cards.

``heuristic_action`` reads only what the player to move may know (R5): their own hand, every
public zone, deck and hand sizes, the battle in progress and ``state.known``. It never reads
the opponent's hand or any deck's order, so it can run on a determinized state (search
rollouts) or on the true state (fast benchmarks) with the same result. ``HeuristicAgent`` is
the standalone agent: it samples a state from its view and asks ``heuristic_action``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from rebelspace.engine import (
    Ability,
    GameContext,
    GameState,
    GroupKind,
    Kind,
    PlayerView,
    can_join_group,
    can_start_group,
    casualty_candidates,
    context_for,
    damage,
    defenders,
    group_damage,
    group_value,
    rating,
    shields_up,
    unit_stats,
)
from rebelspace.engine.cache import per_object
from rebelspace.engine.sampling import sample_state

# Everything below is measured in cards of a deck: one point of damage costs the defender one.
W_DAMAGE = 1.0
# Bonus for an attack that wins: it empties the opponent's deck, or leaves one card, which
# the opponent must draw next turn and so loses (R9, R37).
LETHAL = 100.0
HAND_FULL = 8  # draw the least with this many cards in hand
DECK_MARGIN = 2  # draw the least when the deck would be within this of the opponent's threat
CHUMP_DAMAGE = 3  # chump-block a group dealing at least this much
RECRUIT_MIN_DECK = 8  # Recruit/Shuttle take a card from the deck: not when it is this low
TRICK_MIN_GAIN = 0.5  # play a battle trick only when it improves the battles this much
TARGET_MIN_GAIN = 0.0  # target a unit only when its worth beats the damage given up by this

Groups = list[tuple[int, list[int]]]  # (GroupKind, units in adding order)

GROUND, SPACE = GroupKind.GROUND, GroupKind.SPACE


# ----------------------------------------------------------------------------- card facts


class _Facts:
    """Values the heuristics read, precomputed per card instance and per card type."""

    __slots__ = ("worth", "att_worth", "use", "ability_of_type", "first_of_type")

    def __init__(self, ctx: GameContext) -> None:
        t = ctx.tables
        ntypes = len(t.names)
        worth: list[float] = []
        att_worth: list[float] = []
        use: list[float] = []
        for i in range(t.n):
            g, sp, dmg, cost = t.ground[i], t.space[i], t.damage[i], t.cost[i]
            best, other = max(g, sp), min(g, sp)
            special = 0.0
            if t.ion_cannon[i]:
                special += 1.5
            if t.shields[i]:
                special += 1.0
            if t.extra_draw[i]:
                special += 1.5
            if t.facility[i] and t.can_attack[i]:  # Giant Space Station
                special += 1.0
            hero = 2.0 if t.is_hero[i] else 0.0
            if t.is_unit[i]:
                worth.append(1.0 + cost + 0.5 * dmg + 0.15 * best + hero + special)
                # Usefulness in play, whatever it costs: damage wins, ratings win battles.
                u = dmg * 1.0 + best * 0.3 + other * 0.1 + (0.8 if hero else 0.0) + special
                if not t.can_attack[i]:
                    u -= 0.3 * dmg
                use.append(u)
            elif t.is_attachment[i]:
                worth.append(0.0)
                use.append(dmg * 1.0 + best * 0.3 + other * 0.1)
            else:
                worth.append(0.0)
                use.append(0.0)
            att_worth.append(cost + 0.15 * best + 0.5 * dmg if t.is_attachment[i] else 0.0)
        self.worth = tuple(worth)
        self.att_worth = tuple(att_worth)
        self.use = tuple(use)
        ability = [0] * ntypes
        first = [-1] * ntypes
        for i in range(t.n):
            ct = t.type_of[i]
            if first[ct] < 0:
                first[ct] = i
                ability[ct] = t.ability[i]
        self.ability_of_type = tuple(ability)
        self.first_of_type = tuple(first)


_facts = per_object(_Facts)  # per game context: built once, shared by every decision


# ----------------------------------------------------------------------------- small helpers


def _worth(s: GameState, f: _Facts, u: int) -> float:
    """What losing unit ``u`` (with its attachments) costs its side, in deck cards."""
    w = f.worth[u]
    for a in s.att[u]:
        w += f.att_worth[a]
    return w


def _threat(s: GameState, p: int) -> int:
    """Damage ``p``'s units in play could deal on ``p``'s next attack, unblocked."""
    can_attack = s.ctx.tables.can_attack
    units = tuple(u for zone in (s.active[p], s.inactive[p]) for u in zone if can_attack[u])
    return group_damage(s, units, shields_up(s, 1 - p)).damage


def _casualty_loss(units: list[_Member], budget: int) -> float:
    """Worth a winning group of units loses to a loser of value ``budget``
    (R19), the loser picking the most valuable first; the group keeps one unit."""
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


# ----------------------------------------------------------------------------- blocking model
# One model of how to block, used for this player's real blocks and, in the attacker's place,
# to predict the defender's.


class _Member(NamedTuple):
    """One unit of an attacking group."""

    rating: int
    worth: float


class _Group(NamedTuple):
    """An attacking group, as the blocking model sees it."""

    value: int
    damage: int
    worth: float
    kind: int  # GroupKind
    members: list[_Member]


class _Blocker(NamedTuple):
    """A unit that may block."""

    values: tuple[int, int]  # (ground value, space value), indexed by GroupKind
    worth: float
    may_block: tuple[bool, bool]  # (may block ground, may block space), indexed by GroupKind


class _Candidate(NamedTuple):
    """A blocker free to block a group."""

    value: int
    worth: float
    blocker: int  # index into the blockers


def _assign_blocks(
    groups: list[_Group],
    blockers: list[_Blocker],
    deck: int,
    tie_both: bool,
    surprise: int = 0,
) -> list[list[int]]:
    """Blocker indices per group: winning blocks first, then ties and chumps (see module doc).

    ``surprise`` is what the attacker could add to each attacking unit (Surprise Attack, R30):
    a lone blocker that still wins after it is preferred."""
    out: list[list[int]] = [[] for _ in groups]
    used = [False] * len(blockers)
    order = sorted(range(len(groups)), key=lambda g: (-groups[g].damage, -groups[g].value))
    unblocked: list[int] = []
    for g in order:
        gv, gd, gw, gk, members = groups[g]
        cands = [
            _Candidate(b.values[gk], b.worth, j)
            for j, b in enumerate(blockers)
            if not used[j] and b.may_block[gk]
        ]
        safe = gv + surprise * len(members)
        single: int | None = None  # the lone blocker that wins, if any
        single_rank: tuple[bool, int, float] | None = None
        for v, w, j in cands:
            if v > gv:
                rank = (v <= safe, v, w)
                if single_rank is None or rank < single_rank:
                    single, single_rank = j, rank
        if single is not None:
            chosen = [single]
        else:
            cands.sort(key=lambda c: (-c.value, c.worth))
            total = 0
            chosen = []
            for v, _w, j in cands:
                if v <= 0:
                    break
                chosen.append(j)
                total += v
                if total > gv:
                    break
            if total < gv or (total == gv and not tie_both):
                unblocked.append(g)
                continue
            lost = sum(blockers[j].worth for j in chosen)
            if total == gv and lost > gw + gd * W_DAMAGE:
                unblocked.append(g)  # a tie that trades badly
                continue
        for j in chosen:
            used[j] = True
        out[g] = chosen
    incoming = sum(groups[g].damage for g in unblocked)
    for g in unblocked:
        gv, gd, gw, gk, _ = groups[g]
        if gd <= 0:
            continue
        danger = deck <= incoming + 1
        if not danger and gd < CHUMP_DAMAGE:
            continue
        cheapest: tuple[float, int] | None = None  # (worth less what it takes along, index)
        for j, b in enumerate(blockers):
            if used[j] or not b.may_block[gk]:
                continue
            key = (b.worth - 0.3 * b.values[gk], j)
            if cheapest is None or key < cheapest:
                cheapest = key
        if cheapest is None:
            continue
        _, j = cheapest
        if not danger and blockers[j].worth >= gd * W_DAMAGE + 0.5 * blockers[j].values[gk]:
            continue
        used[j] = True
        out[g] = [j]
        incoming -= gd
    return out


def _score_blocks(
    groups: list[_Group],
    blockers: list[_Blocker],
    assign: list[list[int]],
    tie_both: bool,
) -> tuple[int, float, float]:
    """(damage through, attacker's losses, defender's losses) of blocks ``assign``."""
    dmg = 0
    att_loss = 0.0
    def_loss = 0.0
    for g, chosen in enumerate(assign):
        gv, gd, gw, gk, members = groups[g]
        if not chosen:
            dmg += gd
            continue
        bv = 0
        bw = 0.0
        for j in chosen:
            bv += blockers[j].values[gk]
            bw += blockers[j].worth
        if bv > gv:
            att_loss += gw
            def_loss += _casualty_loss(
                [_Member(blockers[j].values[gk], blockers[j].worth) for j in chosen], gv
            )
        elif bv == gv and tie_both:
            att_loss += gw
            def_loss += bw
        else:
            def_loss += bw
            att_loss += _casualty_loss(members, bv)
    return dmg, att_loss, def_loss


# ----------------------------------------------------------------------------- draw


def _draw(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    dec = s.ctx.space.decoded
    p = s.to_move
    ns = sorted(dec[a].extra for a in legal)
    lo, hi = ns[0], ns[-1]
    deck = len(s.deck[p])
    while hi >= deck and hi > lo:  # drawing the last card loses at once (R9, R37)
        hi -= 1
    low = deck - hi <= _threat(s, 1 - p) + DECK_MARGIN
    n = lo if low or len(s.hand[p]) >= HAND_FULL else hi
    return s.ctx.space.draw_base + n


# ----------------------------------------------------------------------------- forming groups


class _Hero(NamedTuple):
    """A hero that may attack, with its ratings."""

    ground: int
    space: int
    unit: int


def _attackers(s: GameState) -> tuple[list[list[int]], list[list[int]]]:
    """Ground and space packets: units that go into a group together (a space hero rides with
    the Fighter or Ship whose place it takes, R12/R35)."""
    t = s.ctx.tables
    p = s.player
    ground: list[list[int]] = []
    space: list[list[int]] = []
    heroes: list[_Hero] = []
    fighters: list[list[int]] = []
    ships: list[list[int]] = []
    for u in s.active[p]:
        if not t.can_attack[u]:
            continue
        if t.is_hero[u]:
            heroes.append(_Hero(rating(s, u, GROUND), rating(s, u, SPACE), u))
        elif t.is_space_unit[u] and not (
            t.is_ground_unit[u] and rating(s, u, GROUND) >= rating(s, u, SPACE)
        ):
            packet = [u]
            space.append(packet)
            if t.fighter[u]:
                fighters.append(packet)
            elif t.ship[u]:
                ships.append(packet)
        else:
            ground.append([u])
    # Space-minded heroes first; each takes a free place, a Pilot's before a Captain's.
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
            ground.append([u])
    return ground, space


class _Packet(NamedTuple):
    """Units that go into a group together, with their total value."""

    value: int
    units: list[int]


def _cover(packets: list[_Packet], threshold: int, cap: int) -> list[list[int]]:
    """Split packets, sorted strongest first, into as many groups as it can
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


class _UnitFacts(NamedTuple):
    """What the attack planner reads about one attacking unit."""

    value: int  # rating in the battle's kind
    damage: int  # what counts once Shields stop Ships' (R20)
    worth: float


def _plan_kind(
    s: GameState,
    f: _Facts,
    kind: int,
    packets: list[list[int]],
    cap: int,
) -> tuple[float, list[list[int]], int]:
    """The best way to attack with ``packets`` in battles of ``kind``: (score, groups, damage
    expected through)."""
    if not packets or cap <= 0:
        return 0.0, [], 0
    t = s.ctx.tables
    p = s.player
    d = 1 - p
    cannon = any(t.ion_cannon[u] for u in s.active[d]) and kind == SPACE
    tie_both = s.ctx.options.tie == "both"
    deck = len(s.deck[d])
    units = tuple(u for packet in packets for u in packet)
    dealt = dict(group_damage(s, units, shields_up(s, d)).dealers)
    facts: dict[int, _UnitFacts] = {
        u: _UnitFacts(rating(s, u, kind), dealt.get(u, 0), _worth(s, f, u)) for u in units
    }
    blockers: list[_Blocker] = []
    for u in s.active[d]:
        if not t.is_unit[u]:
            continue
        ok_g = t.is_ground_unit[u] or t.is_hero[u]
        ok_s = t.is_space_unit[u]
        if ok_g if kind == GROUND else ok_s:
            ratings = (rating(s, u, GROUND), rating(s, u, SPACE))
            blockers.append(_Blocker(ratings, _worth(s, f, u), (ok_g, ok_s)))
    sized = sorted(
        (_Packet(sum(facts[u].value for u in pk), pk) for pk in packets), key=lambda x: -x.value
    )
    values = sorted((b.values[kind] for b in blockers), reverse=True)
    thresholds = {-1}
    if values:
        thresholds.add(values[0])
        thresholds.add(sum(values))
    candidates = [[[u for _, pk in sized for u in pk]]]
    for th in sorted(thresholds):
        candidates.append(_cover(sized, th, cap))
    best_score = 0.0
    best: list[list[int]] = []
    best_damage = 0
    for groups in candidates:
        for _ in range(2):
            score, losers, dmg = _evaluate(
                groups, facts, blockers, kind, deck, tie_both, cannon, t.ship
            )
            if score > best_score:
                best_score, best, best_damage = score, groups, dmg
            if not losers or len(losers) == len(groups):
                break
            # Try again without the groups the defender would beat: they stay home.
            groups = [g for i, g in enumerate(groups) if i not in losers]
    return best_score, best, best_damage


def _evaluate(
    groups: list[list[int]],
    facts: dict[int, _UnitFacts],
    blockers: list[_Blocker],
    kind: int,
    deck: int,
    tie_both: bool,
    cannon: bool,
    ship: Sequence[bool],
) -> tuple[float, set[int], int]:
    """Score of attacking with ``groups`` against the blocks the defender would make, the
    groups those blocks beat, and the damage that gets through."""
    ion_loss = 0.0
    if cannon:  # R14: the defender destroys the biggest Ship before blocks
        ships = [(facts[u].value, u) for g in groups for u in g if ship[u]]
        if ships:
            _, biggest = max(ships)
            ion_loss = facts[biggest].worth
            groups = [[u for u in g if u != biggest] for g in groups]
    model: list[_Group] = []
    for g in groups:
        members = [_Member(facts[u].value, facts[u].worth) for u in g]
        model.append(
            _Group(
                sum(m.rating for m in members),
                sum(facts[u].damage for u in g),
                sum(m.worth for m in members),
                kind,
                members,
            )
        )
    assign = _assign_blocks(model, blockers, deck, tie_both)
    dmg, att_loss, def_loss = _score_blocks(model, blockers, assign, tie_both)
    score = dmg * W_DAMAGE + def_loss - att_loss - ion_loss
    if dmg >= deck - 1:
        score += LETHAL
    losers = set()
    for i, chosen in enumerate(assign):
        if chosen and sum(blockers[j].values[kind] for j in chosen) >= model[i].value:
            losers.add(i)
    return score, losers, dmg


_PLANS: dict[tuple[object, ...], Groups] = {}
_PLANS_MAX = 4096


def clear_plan_cache() -> None:
    """Forget the cached attack plans (tests use it to recompute every plan from scratch)."""
    _PLANS.clear()


def _attack_plan(s: GameState) -> Groups:
    """Every group to attack with, from all attack-capable active units (busy ones included,
    so the plan does not change while it is being carried out).

    Plans are cached under everything they depend on (all public), since the plan is asked
    for again at each small step of forming the groups."""
    # The plan reads units in play (with attachments) and deck sizes: all of it goes in the key.
    att = s.att
    zones = (*s.active, *s.inactive)
    key = (
        s.ctx,
        s.player,
        *map(tuple, zones),
        len(s.deck[0]),
        len(s.deck[1]),
        tuple(att[u] for zone in zones for u in zone if att[u]),
    )
    plan = _PLANS.get(key)
    if plan is None:
        plan = _make_attack_plan(s)
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


def _make_attack_plan(s: GameState) -> Groups:
    f = _facts(s.ctx)
    cap = s.ctx.options.max_groups
    ground, space = _attackers(s)
    _, space_groups, space_damage = _plan_kind(s, f, SPACE, space, cap)
    _, ground_groups, ground_damage = _plan_kind(s, f, GROUND, ground, cap - len(space_groups))
    plan: Groups = [(GROUND, g) for g in ground_groups]
    plan.extend((SPACE, g) for g in space_groups)
    if space_damage + ground_damage < len(s.deck[1 - s.player]) - 1:
        plan = _keep_guard(s, plan)
    return plan


def _keep_guard(s: GameState, plan: Groups) -> Groups:
    """Hold back enough units to survive the counterattack, if this attack does not win.

    Units that attack are inactive on the opponent's next turn (R21) and cannot block. The
    opponent could attack with all its units next turn, one unit per group; each unit kept
    home can chump-block the most damaging one of its kind. If that would bring the deck to
    one card or less (a loss at the next draw, R9), units are kept home, least damaging
    first, until it would not; unless even keeping everyone home would not save the deck.
    """
    t = s.ctx.tables
    p = s.player
    d = 1 - p
    theirs: tuple[list[int], list[int]] = ([], [])
    able = tuple(u for zone in (s.active[d], s.inactive[d]) for u in zone if t.can_attack[u])
    for u, dmg in group_damage(s, able, shields_up(s, p)).dealers:  # R20: Ships' stopped
        if dmg > 0:
            space_only = t.is_space_unit[u] and not t.is_ground_unit[u]
            theirs[SPACE if space_only else GROUND].append(dmg)
    for damages in theirs:
        damages.sort(reverse=True)
    limit = len(s.deck[p]) - 2

    def incoming(attacking: set[int]) -> int:
        blockers = [0, 0]
        for u in s.active[p]:
            if u in attacking or not t.is_unit[u]:
                continue
            if t.is_ground_unit[u] or t.is_hero[u]:
                blockers[GROUND] += 1
            if t.is_space_unit[u]:
                blockers[SPACE] += 1
        return sum(theirs[0][blockers[0] :]) + sum(theirs[1][blockers[1] :])

    attacking = {u for _, units in plan for u in units}
    if incoming(attacking) <= limit or incoming(set()) > limit:
        return plan
    for u in sorted(attacking, key=lambda u: (damage(s, u), -rating(s, u, GROUND), u)):
        before = incoming(attacking)
        attacking.discard(u)
        if incoming(attacking) == before:
            attacking.add(u)  # holding this one back would not stop anything
        elif incoming(attacking) <= limit:
            break
    out: Groups = []
    for kind, units in plan:
        kept: list[int] = []
        # Non-heroes first: a hero cannot start a space group, and rides only in a free place.
        for u in sorted((u for u in units if u in attacking), key=lambda u: t.is_hero[u]):
            if can_start_group(t, kind, u) if not kept else can_join_group(t, tuple(kept), kind, u):
                kept.append(u)
        if kept:
            out.append((kind, kept))
    return out


def _form(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    space = s.ctx.space
    type_of = s.ctx.tables.type_of
    nt = space.ntypes
    allowed = set(legal)
    groups = s.groups
    for i, (kind, units) in enumerate(_attack_plan(s)):
        if i < len(groups):
            if s.gkind[i] != kind:
                break
            have = [type_of[u] for u in groups[i]]
            for u in units:
                ct = type_of[u]
                if ct in have:
                    have.remove(ct)
                    continue
                a = space.add_base + i * nt + ct
                if a in allowed:
                    return a
            continue
        base = space.form_ground_base if kind == GROUND else space.form_space_base
        a = base + type_of[units[0]]
        if a in allowed:
            return a
        break
    return space.attack if groups else space.no_attack


# ----------------------------------------------------------------------------- Ion Cannon


def _ion(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    t = s.ctx.tables
    f = _facts(s.ctx)
    dec = s.ctx.space.decoded
    best, best_key = s.ctx.space.ion_hold, (-1, -1.0)
    for a in legal:
        kind, card, _, _, _ = dec[a]
        if kind == Kind.ION:
            i = f.first_of_type[card]
            key = (t.space[i], f.worth[i])
            if key > best_key:
                best, best_key = a, key
    return best


# ----------------------------------------------------------------------------- blocks


def _block(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    t = s.ctx.tables
    f = _facts(s.ctx)
    space = s.ctx.space
    nt = space.ntypes
    type_of = t.type_of
    d = s.to_move
    shields = shields_up(s, d)
    bonus = s.atk_bonus
    groups: list[_Group] = []
    index: list[int] = []
    for g, units in enumerate(s.groups):
        if not units:
            continue
        kind = s.gkind[g]
        members = [_Member(rating(s, u, kind) + bonus, _worth(s, f, u)) for u in units]
        value = group_value(s, units, kind, bonus)
        dmg = group_damage(s, units, shields).damage
        groups.append(_Group(value, dmg, sum(m.worth for m in members), kind, members))
        index.append(g)
    pool = [u for u in s.active[d] if t.is_unit[u]]
    bonus = s.def_bonus
    blockers: list[_Blocker] = []
    for u in pool:
        stats = unit_stats(s, u, bonus)
        blockers.append(
            _Blocker(
                (stats.ground, stats.space),
                _worth(s, f, u),
                (t.is_ground_unit[u] or t.is_hero[u], t.is_space_unit[u]),
            )
        )
    surprise = 2 if _opponent_may_hold(s, s.player, Ability.SURPRISE) else 0
    assign = _assign_blocks(groups, blockers, len(s.deck[d]), s.ctx.options.tie == "both", surprise)
    allowed = set(legal)
    for i, chosen in enumerate(assign):
        g = index[i]
        have = [type_of[u] for u in s.blocks[g]]
        for j in sorted(chosen, key=lambda j: -blockers[j].values[groups[i].kind]):
            ct = type_of[pool[j]]
            if ct in have:
                have.remove(ct)
                continue
            a = space.block_base + g * nt + ct
            if a in allowed:
                return a
    return space.done_blocking


# ----------------------------------------------------------------------------- targets


def _opponent_may_hold(s: GameState, o: int, ability: int) -> bool:
    """Could ``o``'s hand hold a card with ``ability``, as far as public information shows?"""
    if not s.hand[o]:
        return False
    t = s.ctx.tables
    total = sum(1 for i in t.instances_of_side[o] if t.ability[i] == ability)
    gone = sum(1 for c in s.discard[o] if t.ability[c] == ability)
    return total > gone


def _target(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    t = s.ctx.tables
    f = _facts(s.ctx)
    space = s.ctx.space
    dec = space.decoded
    p = s.player
    d = 1 - p
    shields = shields_up(s, d)
    dealt: dict[int, int] = {}
    total = 0
    for g, units in enumerate(s.groups):
        if units and not s.blocks[g] and s.targets[g] < 0:
            dealt[g] = group_damage(s, units, shields).damage
            total += dealt[g]
    deck = len(s.deck[d])
    margin = 2 if _opponent_may_hold(s, d, Ability.TRAP) else 0
    best, best_gain = space.done_targeting, TARGET_MIN_GAIN
    for a in legal:
        kind, card, g, _, zone = dec[a]
        if kind != Kind.TARGET:
            continue
        if total >= deck - 1 and total - dealt[g] < deck - 1:
            continue  # the damage wins the game (R9, R37)
        kind = s.gkind[g]
        u = next(
            x
            for x in (s.inactive[d] if zone else s.active[d])
            if t.type_of[x] == card and not s.busy[x]
        )
        tv = group_value(s, (u,), kind, s.def_bonus)
        units = s.groups[g]
        if group_value(s, units, kind, s.atk_bonus) <= tv + margin:
            continue
        members = [_Member(rating(s, x, kind) + s.atk_bonus, _worth(s, f, x)) for x in units]
        gain = _worth(s, f, u) - _casualty_loss(members, tv) - dealt[g] * W_DAMAGE
        if gain > best_gain:
            best, best_gain = a, gain
    return best


# ----------------------------------------------------------------------------- battle tricks


def _battles_score(
    s: GameState, q: int, atk_bonus: int, def_bonus: int, hero: int, extra: tuple[int, int]
) -> float:
    """Worth destroyed on the other side minus worth lost by ``q`` in the battles to come,
    with these bonuses (R30) and ``extra`` (ground, space) on ``hero`` (a psion card, R24)."""
    f = _facts(s.ctx)
    tie = s.ctx.options.tie
    score = 0.0
    attacker = s.player
    for g in range(s.battle_next, len(s.groups)):
        units = s.groups[g]
        defending = defenders(s, g)
        if not units or not defending:
            continue
        kind = s.gkind[g]
        av = group_value(s, units, kind, atk_bonus) + (extra[kind] if hero in units else 0)
        aw = 0.0
        for u in units:
            aw += _worth(s, f, u)
        dv = group_value(s, defending, kind, def_bonus) + (extra[kind] if hero in defending else 0)
        dw = 0.0
        for u in defending:
            dw += _worth(s, f, u)
        if av > dv or av == dv and tie == "attacker":
            swing = dw
        elif dv > av or tie == "defender":
            swing = -aw
        else:
            swing = dw - aw
        score += swing if q == attacker else -swing
    return score


def _tricks(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    t = s.ctx.tables
    f = _facts(s.ctx)
    space = s.ctx.space
    dec = space.decoded
    q = s.to_move
    p = s.player
    base = _battles_score(s, q, s.atk_bonus, s.def_bonus, -1, (0, 0))
    best, best_gain = space.pass_, TRICK_MIN_GAIN
    for a in legal:
        kind, card, _, hero_type, _ = dec[a]
        if kind == Kind.PLAY_TRICK:
            ab = f.ability_of_type[card]
            if ab == Ability.SURPRISE:
                gain = _battles_score(s, q, s.atk_bonus + 2, s.def_bonus, -1, (0, 0)) - base
            elif ab == Ability.TRAP:
                gain = _battles_score(s, q, s.atk_bonus, s.def_bonus + 2, -1, (0, 0)) - base
            elif ab == Ability.EXTRA_ATTACK:
                free = [u for u in s.active[p] if t.can_attack[u] and not s.busy[u]]
                gain = 0.5 * sum(damage(s, u) for u in free)
            else:
                continue
        elif kind == Kind.PLAY_PSION:
            card_i = f.first_of_type[card]
            hero = next(
                u
                for z in (s.active[q], s.inactive[q])
                for u in z
                if t.type_of[u] == hero_type and s.busy[u]
            )
            extra = (t.ground[card_i], t.space[card_i])
            gain = _battles_score(s, q, s.atk_bonus, s.def_bonus, hero, extra) - base
            if t.damage[card_i] and q == p:  # ESP: counts only if the group deals damage
                for g, units in enumerate(s.groups):
                    if hero in units and not s.blocks[g] and s.targets[g] < 0:
                        gain += t.damage[card_i] * W_DAMAGE
        else:
            continue
        if gain > best_gain:
            best, best_gain = a, gain
    return best


# ----------------------------------------------------------------------------- casualties


class _Casualties(NamedTuple):
    """A set of the winner's units to lose, and their total worth."""

    worth: float
    units: tuple[int, ...]


def _casualty(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    """Pick the most costly set of the winner's units the budget allows (R19), best first."""
    t = s.ctx.tables
    f = _facts(s.ctx)
    assert s.cas is not None
    g, side, budget, kind = s.cas
    bonus = s.atk_bonus if side == 0 else s.def_bonus
    items = [(rating(s, u, kind) + bonus, _worth(s, f, u), u) for u in casualty_candidates(s)]
    winners = s.groups[g] if side == 0 else (s.blocks[g] or (s.targets[g],))
    most = len(winners) - 1  # the winning group keeps one unit
    # Knapsack over the eligible units: best[b] = the costliest set within rating budget b.
    best: list[_Casualties] = [_Casualties(0.0, ())] * (budget + 1)
    for r, w, u in items:
        for b in range(budget, r - 1, -1):
            worth, units = best[b - r]
            if worth + w > best[b].worth and len(units) < most:
                best[b] = _Casualties(worth + w, (*units, u))
    chosen = best[budget].units or tuple(u for _, _, u in items)
    pick = max(chosen, key=lambda u: (_worth(s, f, u), rating(s, u, kind)))
    return s.ctx.space.pick_base + t.type_of[pick]


# ----------------------------------------------------------------------------- deploy


def _deploy_use(s: GameState, f: _Facts, i: int, p: int) -> float:
    """How useful card ``i`` would be in play for ``p`` now."""
    t = s.ctx.tables
    o = 1 - p
    use = f.use[i]
    if t.ion_cannon[i] or t.shields[i]:
        ships = any(t.ship[u] for z in (s.active[o], s.inactive[o]) for u in z)
        use += 1.0 if ships else -0.5
    if t.is_hero[i] and t.ground[i] == 0:  # rides only in a Fighter's or Ship's place
        seats = any(t.fighter[u] or t.ship[u] for z in (s.active[p], s.inactive[p]) for u in z)
        if not seats:
            use -= 1.0
    return use


class _Item(NamedTuple):
    """One card to deploy or attach."""

    use: float
    cost: int
    action: int


def _deploy(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    t = s.ctx.tables
    f = _facts(s.ctx)
    space = s.ctx.space
    dec = space.decoded
    p = s.to_move
    counts: dict[int, int] = {}
    for c in s.hand[p]:
        counts[t.type_of[c]] = counts.get(t.type_of[c], 0) + 1
    hero_strength: dict[int, int] = {}
    for z in (s.active[p], s.inactive[p]):
        for u in z:
            if t.is_hero[u]:
                hero_strength[t.type_of[u]] = rating(s, u, GROUND) + rating(s, u, SPACE)
    # Each attachment goes on the strongest hero only.
    items: list[_Item] = []
    attach_best: dict[int, tuple[int, int]] = {}
    for a in legal:
        kind, card, _, hero_type, _ = dec[a]
        i = f.first_of_type[card]
        if kind == Kind.DEPLOY:
            use = _deploy_use(s, f, i, p)
            if use > 0:
                n = min(counts.get(card, 0), s.points // max(t.cost[i], 1))
                items.extend([_Item(use, t.cost[i], a)] * n)
        elif kind == Kind.ATTACH:
            key = (hero_strength.get(hero_type, 0), a)
            if card not in attach_best or key > attach_best[card]:
                attach_best[card] = key
    for card, (_, a) in attach_best.items():
        i = f.first_of_type[card]
        n = min(counts.get(card, 0), s.points // max(t.cost[i], 1))
        items.extend([_Item(f.use[i], t.cost[i], a)] * n)
    items.sort(key=lambda x: (-x.use, x.cost, x.action))
    best_use, best_first = _knapsack(items, s.points)
    return best_first if best_use > 0 else space.done_deploying


def _knapsack(items: list[_Item], points: int) -> tuple[float, int]:
    """Most total use within ``points``; returns it and the action of its most useful item."""
    best_total, best_first = 0.0, -1

    def search(k: int, left: int, total: float, first: int) -> None:
        nonlocal best_total, best_first
        if total > best_total + 1e-9:
            best_total, best_first = total, first
        for j in range(k, len(items)):
            use, cost, a = items[j]
            if cost <= left:
                search(j + 1, left - cost, total + use, a if first < 0 else first)

    search(0, points, 0.0, -1)
    return best_total, best_first


# ----------------------------------------------------------------------------- end phase


def _end(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    t = s.ctx.tables
    f = _facts(s.ctx)
    space = s.ctx.space
    dec = space.decoded
    p = s.player
    o = 1 - p
    mine = [u for z in (s.active[p], s.inactive[p]) for u in z]
    my_ships = any(t.ship[u] for u in mine)
    heroes_in_hand = sum(1 for c in s.hand[p] if t.is_hero[c])
    best, best_gain = space.end_turn, 0.0
    for a in legal:
        kind, card, _, target, _ = dec[a]
        ab = f.ability_of_type[card]
        gain = 0.0
        if kind == Kind.PLAY_END and ab == Ability.SPY:
            hand = len(s.hand[o])
            if hand >= 3 and len(s.known[p]) < hand:
                gain = 0.2
        elif kind == Kind.PLAY_END_ON:
            i = f.first_of_type[target]
            if ab == Ability.CONVERT:
                u = next(
                    x for z in (s.active[o], s.inactive[o]) for x in z if t.type_of[x] == target
                )
                gain = 3.0 + _worth(s, f, u)
            elif ab == Ability.HERO_FROM_DISCARD:
                gain = 2.0 + f.use[i] - heroes_in_hand
            elif ab == Ability.HERO_FROM_DECK:
                if len(s.deck[p]) > RECRUIT_MIN_DECK and heroes_in_hand < 2:
                    gain = 1.0 + f.use[i]
            elif ab == Ability.SABOTEUR:
                gain = f.worth[i]
                if (t.ion_cannon[i] or t.shields[i]) and not my_ships:
                    gain -= 2.0
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def _keep(s: GameState, f: _Facts, c: int, p: int) -> float:
    """How much ``p`` wants to keep card ``c`` in hand."""
    t = s.ctx.tables
    o = 1 - p
    if t.is_unit[c]:
        return _deploy_use(s, f, c, p)
    mine = [u for z in (s.active[p], s.inactive[p]) for u in z]
    if t.is_attachment[c]:
        heroes = any(t.is_hero[u] for u in mine) or any(t.is_hero[x] for x in s.hand[p])
        return f.use[c] if heroes else 0.2
    if t.is_psion[c]:
        return 1.0 if any(t.psionic[u] for u in mine) else 0.3
    ab = t.ability[c]
    if ab == Ability.CONVERT:
        return 4.0
    if ab in (Ability.HERO_FROM_DECK, Ability.HERO_FROM_DISCARD):
        return 2.0
    if ab == Ability.SABOTEUR:
        return 1.5 if any(t.facility[u] for z in (s.active[o], s.inactive[o]) for u in z) else 0.8
    if ab in (Ability.SURPRISE, Ability.TRAP, Ability.EXTRA_ATTACK):
        return 1.5
    return 0.3  # spies


def _discard(s: GameState, legal: Sequence[int], rng: random.Random | None) -> int:
    f = _facts(s.ctx)
    p = s.to_move
    dec = s.ctx.space.decoded
    return min(legal, key=lambda a: (_keep(s, f, f.first_of_type[dec[a].card], p), a))


# ----------------------------------------------------------------------------- entry points

_Step = Callable[[GameState, Sequence[int], "random.Random | None"], int]
# Indexed by ``GameState.step`` (DRAW, FORM, ION, BLOCK, TARGET, TRICKS, CASUALTY, DEPLOY,
# END, DISCARD).
_STEPS: tuple[_Step, ...] = (
    _draw,
    _form,
    _ion,
    _block,
    _target,
    _tricks,
    _casualty,
    _deploy,
    _end,
    _discard,
)


def heuristic_action(
    state: GameState, legal: Sequence[int], rng: random.Random | None = None
) -> int:
    """The heuristic's choice among ``legal`` for ``state.to_move`` (see the module doc).

    Reads only what that player may know, so ``state`` may be the true state or any
    determinization of the player's view. The rules are deterministic (a plan must stay the
    same over the small steps that carry it out); ``rng`` is accepted for callers that pass
    one and is not drawn from.
    """
    if len(legal) == 1:
        return legal[0]
    if not legal:
        raise ValueError("heuristic_action needs at least one legal action (game over?)")
    return _STEPS[state.step](state, legal, rng)


class HeuristicAgent:
    """The rule-based player as an ``Agent``: it samples a full state from its view
    (``sample_state``, so it never sees the true state) and plays ``heuristic_action`` on it.

    >>> from rebelspace.engine import new_game
    >>> game = new_game(seed=7)
    >>> agent = HeuristicAgent(seed=1)
    >>> game.action_text(agent.act(game.view(game.to_move), game.legal_actions()))
    'draw 2'
    """

    __slots__ = ("seed", "ctx", "_rng")

    def __init__(self, seed: int | None = None, ctx: GameContext | None = None) -> None:
        self.seed = seed
        self.ctx = ctx if ctx is not None else context_for()
        self._rng = random.Random(seed)

    def act(self, view: PlayerView, legal: Sequence[int]) -> int:
        if not legal:
            raise ValueError(f"{self!r} was asked to act with no legal action (game over?)")
        if len(legal) == 1:
            return legal[0]
        state = sample_state(view, self.ctx, self._rng.getrandbits(63))
        return heuristic_action(state, legal, self._rng)

    def __repr__(self) -> str:
        return f"HeuristicAgent(seed={self.seed!r})"
