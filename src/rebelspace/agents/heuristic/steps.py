"""The steps of a turn besides forming groups and blocking: draw, Ion Cannon, targets, battle
tricks and casualties. Each takes the state (only what the player to move may know is read)
and the legal action ids, and returns one of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rebelspace.engine import (
    Ability,
    GameState,
    Kind,
    Step,
    casualty_candidates,
    damage,
    defenders,
    group_damage,
    group_value,
    rating,
    read,
    shields_up,
)

from .blocks import SURPRISE_BONUS, W_DAMAGE
from .facts import CardFacts, Member, card_facts, casualty_loss, opponent_may_hold, threat, worth
from .plan import planned_value
from .replies import chance_to_hold, counter_ability
from .style import DEFAULT, Style

TRAP_BONUS = 2  # what Trap adds to each defending unit (R30)
TARGET_MIN_GAIN = 0.0  # target a unit only when its worth beats the damage given up by this
# Multiple Targets: each free unit's damage counts this much, as it may not get through
# (``Style.extra_attack_plan`` off).
EXTRA_ATTACK_DAMAGE_SHARE = 0.5
LOOKAHEAD_PLIES = 200  # bounds the copy's passes and casualty picks (a few dozen at most)


# ----------------------------------------------------------------------------- draw


def draw(s: GameState, legal: Sequence[int], style: Style = DEFAULT) -> int:
    """The most allowed, unless the hand is already large or the deck is low next to what the
    opponent's units could deal next turn; then the least. Never the last card if avoidable."""
    dec = s.ctx.space.actions
    p = s.to_move
    ns = sorted(dec[a].count for a in legal)
    lo, hi = ns[0], ns[-1]
    deck = read.deck_size(s, p)
    while hi >= deck and hi > lo:  # drawing the last card loses at once (R9, R37)
        hi -= 1
    low = deck - hi <= threat(s, 1 - p) + style.deck_margin
    n = lo if low or read.hand_size(s, p) >= style.hand_full else hi
    return s.ctx.space.draw_id[n]


# ----------------------------------------------------------------------------- Ion Cannon


def ion(s: GameState, legal: Sequence[int]) -> int:
    """Destroy the biggest attacking Ship."""
    t = s.ctx.tables
    f = card_facts(s.ctx)
    dec = s.ctx.space.actions
    best, best_key = s.ctx.space.ion_hold, (-1, -1.0)
    for a in legal:
        kind, card = dec[a].kind, dec[a].card
        if kind == Kind.ION:
            i = f.first_of_type[card]
            key = (t.space[i], f.worth[i])
            if key > best_key:
                best, best_key = a, key
    return best


# ----------------------------------------------------------------------------- targets


def _unblocked_damage(s: GameState) -> dict[int, int]:
    """The damage of each unblocked group that has no target yet."""
    shields = shields_up(s, 1 - s.player)
    b = read.battle(s)
    return {
        g: group_damage(s, units, shields).damage
        for g, units in enumerate(b.groups)
        if units and not b.blocks[g] and b.targets[g] < 0
    }


def target(s: GameState, legal: Sequence[int]) -> int:
    """An unblocked group targets the opposing unit it beats whose worth most exceeds the
    damage given up (heroes, facilities, expensive units), unless the damage wins now."""
    t = s.ctx.tables
    f = card_facts(s.ctx)
    space = s.ctx.space
    dec = space.actions
    d = 1 - s.player
    dealt = _unblocked_damage(s)
    total = sum(dealt.values())
    deck = read.deck_size(s, d)
    # A Trap in the defender's hand would add to the target's value: beat it by that margin.
    margin = TRAP_BONUS if opponent_may_hold(s, d, Ability.TRAP) else 0
    best, best_gain = space.done_targeting, TARGET_MIN_GAIN
    b = read.battle(s)
    busy = read.busy(s)
    for a in legal:
        act = dec[a]
        card, g, zone = act.card, act.group, act.zone
        if act.kind != Kind.TARGET:
            continue
        if total >= deck - 1 and total - dealt[g] < deck - 1:
            continue  # the damage wins the game (R9, R37)
        kind = b.kinds[g]
        u = next(
            x
            for x in (read.inactive(s, d) if zone else read.active(s, d))
            if t.type_of[x] == card and not busy[x]
        )
        tv = group_value(s, (u,), kind, b.defense_bonus)
        units = b.groups[g]
        if group_value(s, units, kind, b.attack_bonus) <= tv + margin:
            continue
        members = [Member(rating(s, x, kind) + b.attack_bonus, worth(s, f, x)) for x in units]
        gain = worth(s, f, u) - casualty_loss(members, tv) - dealt[g] * W_DAMAGE
        if gain > best_gain:
            best, best_gain = a, gain
    return best


# ----------------------------------------------------------------------------- battle tricks


class Boost(NamedTuple):
    """A change to the battles in progress that a trick would make."""

    atk_bonus: int  # the attacker's bonus per unit (R30)
    def_bonus: int  # the defender's bonus per unit (R30)
    hero: int = -1  # the unit a psion card goes on (R24), or -1
    extra: tuple[int, int] = (0, 0)  # what it adds to that hero's (ground, space) ratings


def battles_score(s: GameState, q: int, boost: Boost) -> float:
    """Worth destroyed on the other side minus worth lost by ``q`` in the battles to come,
    with ``boost``."""
    f = card_facts(s.ctx)
    tie = s.ctx.options.tie
    score = 0.0
    attacker = s.player
    hero, extra = boost.hero, boost.extra
    b = read.battle(s)
    for g in range(b.next_battle, len(b.groups)):
        units = b.groups[g]
        defending = defenders(s, g)
        if not units or not defending:
            continue
        kind = b.kinds[g]
        av = group_value(s, units, kind, boost.atk_bonus) + (extra[kind] if hero in units else 0)
        aw = 0.0
        for u in units:
            aw += worth(s, f, u)
        dv = group_value(s, defending, kind, boost.def_bonus)
        dv += extra[kind] if hero in defending else 0
        dw = 0.0
        for u in defending:
            dw += worth(s, f, u)
        if av > dv or av == dv and tie == "attacker":
            swing = dw
        elif dv > av or tie == "defender":
            swing = -aw
        else:
            swing = dw - aw
        score += swing if q == attacker else -swing
    return score


class Judge(NamedTuple):
    """What every battle card's gain is measured against."""

    base: float  # ``battles_score`` with no card played
    answer: float  # the chance that the opponent holds the trick that answers ours
    style: Style


def _answered(s: GameState, q: int, boost: Boost, judge: Judge) -> float:
    """``battles_score`` with ``boost``, once the opponent may answer with its trick (+2 to
    each of its units, R30) when that helps it (``Style.reply_aware``)."""
    score = battles_score(s, q, boost)
    if not judge.style.reply_aware or judge.answer <= 0.0:
        return score
    if q == s.player:
        reply = boost._replace(def_bonus=boost.def_bonus + TRAP_BONUS)
    else:
        reply = boost._replace(atk_bonus=boost.atk_bonus + SURPRISE_BONUS)
    return score - judge.answer * max(0.0, score - battles_score(s, q, reply))


def _extra_attack_gain(s: GameState, play: int, style: Style) -> float:
    """What Multiple Targets (action ``play``) is expected to bring: this attack phase is
    played out on a copy with both players passing (so no hidden card is read) and the
    casualties picked as ``casualty`` picks them, then the plan for the extra phase (R22)
    is valued."""
    c = s.clone()
    c.apply(play)
    for _ in range(LOOKAHEAD_PLIES):
        if c.step == Step.TRICKS:
            c.apply(c.ctx.space.pass_)
        elif c.step == Step.CASUALTY:
            c.apply(casualty(c, c.legal_actions()))
        else:
            break
    if c.step != Step.FORM or c.player != s.player:
        return 0.0  # the game is over, or the extra phase has no unit to attack with
    return planned_value(c, style)


def _trick_gain(s: GameState, card: int, judge: Judge) -> float | None:
    """What playing the battle trick of type ``card`` gains, or None for no trick we play."""
    t = s.ctx.tables
    q = s.to_move
    # Weighed by what the trick's effect changes (engine/abilities/), not by which it is.
    effect = t.type_effect[card]
    if effect is None:
        return None
    atk, dfn = read.battle_bonuses(s)
    if effect.attack_bonus:
        boost = Boost(atk + SURPRISE_BONUS, dfn)
        return _answered(s, q, boost, judge) - judge.base
    if effect.defense_bonus:
        return _answered(s, q, Boost(atk, dfn + TRAP_BONUS), judge) - judge.base
    if effect.extra_attacks:
        if judge.style.extra_attack_plan:
            return _extra_attack_gain(s, s.ctx.space.trick_id[card], judge.style)
        busy = read.busy(s)
        free = [u for u in read.active(s, s.player) if t.can_attack[u] and not busy[u]]
        return EXTRA_ATTACK_DAMAGE_SHARE * sum(damage(s, u) for u in free)
    return None


def _psion_gain(s: GameState, f: CardFacts, card: int, hero_type: int, judge: Judge) -> float:
    """What playing the psion card of type ``card`` on the busy hero of ``hero_type`` gains."""
    t = s.ctx.tables
    q = s.to_move
    card_i = f.first_of_type[card]
    busy = read.busy(s)
    hero = next(u for z in read.zones(s, q) for u in z if t.type_of[u] == hero_type and busy[u])
    extra = (t.ground[card_i], t.space[card_i])
    b = read.battle(s)
    boost = Boost(b.attack_bonus, b.defense_bonus, hero, extra)
    gain = _answered(s, q, boost, judge) - judge.base
    if t.damage[card_i] and q == s.player:  # ESP: counts only if the group deals damage
        for g, units in enumerate(b.groups):
            if hero in units and not b.blocks[g] and b.targets[g] < 0:
                gain += t.damage[card_i] * W_DAMAGE
    return gain


def tricks(s: GameState, legal: Sequence[int], style: Style = DEFAULT) -> int:
    """The card that most improves the battles in progress (turns a lost or tied battle into
    a win; ESP on a group that deals damage), counting the opponent's possible answer
    (``Style.reply_aware``); Multiple Targets when the extra attack phase would bring enough
    (``Style.extra_attack_plan``; before: while units are still free to attack); otherwise
    pass."""
    f = card_facts(s.ctx)
    space = s.ctx.space
    dec = space.actions
    q = s.to_move
    base = battles_score(s, q, Boost(*read.battle_bonuses(s)))
    weight = style.answer_weight if q == s.player else style.defender_answer_weight
    answer = min(1.0, weight * chance_to_hold(s, 1 - q, counter_ability(s, q)))
    judge = Judge(base, answer, style)
    best, best_gain = space.pass_, style.trick_min_gain
    for a in legal:
        act = dec[a]
        kind, card, hero_type = act.kind, act.card, act.target
        gain: float | None = None
        if kind == Kind.PLAY_TRICK:
            gain = _trick_gain(s, card, judge)
        elif kind == Kind.PLAY_PSION:
            gain = _psion_gain(s, f, card, hero_type, judge)
        if gain is not None and gain > best_gain:
            best, best_gain = a, gain
    return best


# ----------------------------------------------------------------------------- casualties


class Casualties(NamedTuple):
    """A set of the winner's units to lose, and their total worth."""

    worth: float
    units: tuple[int, ...]


class CasualtyOption(NamedTuple):
    """A unit the winner may lose."""

    rating: int
    worth: float
    unit: int


def casualty(s: GameState, legal: Sequence[int]) -> int:  # noqa: ARG001 (the step signature)
    """Pick the most costly set of the winner's units the budget allows (R19), best first."""
    t = s.ctx.tables
    f = card_facts(s.ctx)
    cas = read.casualty(s)
    assert cas is not None
    g, side, budget, kind = cas
    bonus = read.battle_bonuses(s)[side]  # the winning side's (0: the attacker's)
    items = [
        CasualtyOption(rating(s, u, kind) + bonus, worth(s, f, u), u)
        for u in casualty_candidates(s)
    ]
    winners = read.battle(s).groups[g] if side == 0 else defenders(s, g)
    most = len(winners) - 1  # the winning group keeps one unit
    # Knapsack over the eligible units: best[b] = the costliest set within rating budget b.
    best: list[Casualties] = [Casualties(0.0, ())] * (budget + 1)
    for r, w, u in items:
        for b in range(budget, r - 1, -1):
            total, units = best[b - r]
            if total + w > best[b].worth and len(units) < most:
                best[b] = Casualties(total + w, (*units, u))
    chosen = best[budget].units or tuple(item.unit for item in items)
    pick = max(chosen, key=lambda u: (worth(s, f, u), rating(s, u, kind)))
    return s.ctx.space.pick_id[t.type_of[pick]]
