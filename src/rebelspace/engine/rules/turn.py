"""Setup, draw, activation, deploy and end phases (R6-R10, R23, R25-R29, R31).

What each action of these phases does, and their legal actions; ``flow.py`` moves the game
from step to step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..abilities import play_card
from ..abilities.effect import find_in
from ..events import (
    Attached,
    CardsSeen,
    Deployed,
    Drew,
    EndReason,
    HandLimitDiscard,
    Seen,
    StartingHand,
)
from .copies import chosen, copy_actions

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import GameState


def deal(s: GameState) -> None:
    """R6: shuffle both decks, each player draws the starting hand; R9 if a deck is empty."""
    t = s.ctx.tables
    for p in (0, 1):
        s.deck[p] = list(t.instances_of_side[p])
        s.shuffle_deck(p)
    for p in (0, 1):
        for _ in range(min(s.ctx.options.starting_hand, len(s.deck[p]))):
            s.hand[p].append(s.deck[p].pop())
        if s.events is not None:
            s.emit(StartingHand(p, len(s.hand[p])))
            s.emit(CardsSeen(p, p, types(s, s.hand[p]), Seen.STARTING_HAND))
    for p in (0, 1):
        if not s.deck[p]:  # R9: only a tiny edited deck can get here
            s.finish(1 - p, EndReason.STARTING_HAND)
            return


def types(s: GameState, cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Card types of instances, in the same order (events name types, never instances)."""
    type_of = s.ctx.tables.type_of
    return tuple(type_of[c] for c in cards)


def max_draw(s: GameState, p: int) -> int:
    """R8: 2, plus 1 per "Draw 1 extra card per turn" unit the player controls."""
    extra = s.ctx.tables.extra_draw
    n = s.ctx.options.draw_max
    for zone in (s.active[p], s.inactive[p]):
        for u in zone:
            if extra[u]:
                n += 1
    return n


def legal_draw(s: GameState) -> list[int]:
    p = s.player
    deck = len(s.deck[p])
    draw_id = s.ctx.space.draw_id
    low = min(s.ctx.options.draw_min, deck)
    return [draw_id[k] for k in range(low, min(max_draw(s, p), deck) + 1)]


def draw(s: GameState, n: int) -> None:
    """R8: draw ``n`` cards; R9 if that empties the deck; else R10, activation."""
    p = s.player
    deck, hand = s.deck[p], s.hand[p]
    drawn = []
    for _ in range(n):
        c = deck.pop()
        hand.append(c)
        drawn.append(c)
    if s.events is not None:
        s.emit(Drew(p, n))
        s.emit(CardsSeen(p, p, types(s, drawn), Seen.DRAW))
    if not deck:  # R9
        s.finish(1 - p, EndReason.LAST_DRAW)
        return
    # R10 activation
    active = s.active[p]
    if s.inactive[p]:
        active.extend(s.inactive[p])
        s.inactive[p] = []


# ----------------------------------------------------------------------------- deploy (R23)


def legal_deploy(s: GameState) -> list[int]:
    t = s.ctx.tables
    space = s.ctx.space
    p = s.player
    out = [space.done_deploying]
    pts = s.points
    seen: set[int] = set()
    heroes: list[int] | None = None
    type_of, cost = t.type_of, t.cost
    for c in s.hand[p]:
        ct = type_of[c]
        if ct in seen or cost[c] > pts:
            continue
        seen.add(ct)
        if t.is_unit[c]:
            out.append(space.deploy_id[ct])
        elif t.is_attachment[c]:
            if heroes is None:
                heroes = sorted(
                    {type_of[u] for z in (s.active[p], s.inactive[p]) for u in z if t.is_hero[u]}
                )
            attach = space.attach_id
            for h in heroes:
                out.append(attach[(ct, h)])
                if h in t.copied_heroes:
                    mine = [u for u in s.active[p] + s.inactive[p] if type_of[u] == h]
                    out += copy_actions(s, p, mine, [attach[(ct, h)]])
    return out


def do_deploy(s: GameState, a: Action) -> None:
    card = a.card
    p = s.player
    c = s.take_from_hand(p, card)
    s.inactive[p].append(c)
    s.points -= s.ctx.tables.cost[c]
    if s.events is not None:
        s.emit(Deployed(p, card))


def do_attach(s: GameState, a: Action) -> None:
    card, hero_type = a.card, a.target
    p = s.player
    h = chosen(s, a) if a.copy else find_in(s.active[p] + s.inactive[p], s, hero_type)
    c = s.take_from_hand(p, card)
    s.att[h] = s.att[h] + (c,)
    s.points -= s.ctx.tables.cost[c]
    if s.events is not None:
        s.emit(Attached(p, card, hero_type))


# ----------------------------------------------------------------------------- end (R25-R29)


def legal_end(s: GameState) -> list[int]:
    """End turn, and each end-phase card in hand (R25) on each of its targets (its effect's
    ``Target.pool``; engine/abilities/)."""
    t = s.ctx.tables
    space = s.ctx.space
    p = s.player
    out = [space.end_turn]
    seen: set[int] = set()
    type_of, effects = t.type_of, t.type_effect
    for c in s.hand[p]:
        ct = type_of[c]
        effect = effects[ct]
        if effect is None or ct in seen:
            continue
        seen.add(ct)
        if effect.is_trick:
            continue  # attack-phase cards (R17)
        target = effect.target
        if target is None:
            out.append(space.end_id[ct])
            continue
        pool = target.pool.candidates(s, p)
        on = space.end_on_id
        for ht in sorted({type_of[u] for u in pool}):
            out.append(on[(ct, ht)])
            if target.pool.copies_differ and ht in t.copied_heroes:
                same = [u for u in pool if type_of[u] == ht]
                out += copy_actions(s, target.pool.side(p), same, [on[(ct, ht)]])
    return out


def do_play_end(s: GameState, a: Action) -> None:
    """An end-phase card played without a target (R27 Spies)."""
    play_card(s, s.player, a.card, -1, -1)


def do_play_end_on(s: GameState, a: Action) -> None:
    """An end-phase card played on a card type ``a.target`` (R26, R28, R29)."""
    play_card(s, s.player, a.card, a.target, chosen(s, a) if a.copy else -1)


def over_hand_limit(s: GameState) -> bool:
    """R25: does the active player hold more cards than the hand limit?"""
    return len(s.hand[s.player]) > s.ctx.options.hand_limit


def legal_discard(s: GameState) -> list[int]:
    type_of = s.ctx.tables.type_of
    discard_id = s.ctx.space.discard_id
    return [discard_id[ct] for ct in sorted({type_of[c] for c in s.hand[s.player]})]


def discard(s: GameState, card: int) -> None:
    """R25: the active player discards a card of type ``card`` down toward the hand limit."""
    p = s.player
    c = s.take_from_hand(p, card)
    s.to_discard(c)
    if s.events is not None:
        s.emit(HandLimitDiscard(p, card))
