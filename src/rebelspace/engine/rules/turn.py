"""Setup, draw, activation, deploy and end phases (R6-R10, R23, R25-R29, R31).

What each action of these phases does, and their legal actions; ``flow.py`` moves the game
from step to step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import (
    Attached,
    CardsSeen,
    ControlTaken,
    Deployed,
    Drew,
    EndReason,
    HandLimitDiscard,
    HeroTaken,
    Sabotaged,
    Seen,
    SpiesPlayed,
    StartingHand,
)
from ..tables import (
    AB_CONVERT,
    AB_HERO_FROM_DECK,
    AB_HERO_FROM_DISCARD,
    AB_SABOTEUR,
    AB_SPY,
)
from .copies import copy_actions

if TYPE_CHECKING:
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
    base = s.ctx.space.draw_base
    low = min(s.ctx.options.draw_min, deck)
    return [base + k for k in range(low, min(max_draw(s, p), deck) + 1)]


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
            out.append(space.deploy_base + ct)
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


def find_in(cards: list[int], s: GameState, card_type: int) -> int:
    type_of = s.ctx.tables.type_of
    for c in cards:
        if type_of[c] == card_type:
            return c
    raise AssertionError("legal action names a card that is not there")


def do_deploy(s: GameState, card: int, _group: int, _target: int, _n: int) -> None:
    p = s.player
    c = s.take_from_hand(p, card)
    s.inactive[p].append(c)
    s.points -= s.ctx.tables.cost[c]
    if s.events is not None:
        s.emit(Deployed(p, card))


def do_attach(
    s: GameState, card: int, _group: int, hero_type: int, _n: int, unit: int = -1
) -> None:
    p = s.player
    h = unit if unit >= 0 else find_in(s.active[p] + s.inactive[p], s, hero_type)
    c = s.take_from_hand(p, card)
    s.att[h] = s.att[h] + (c,)
    s.points -= s.ctx.tables.cost[c]
    if s.events is not None:
        s.emit(Attached(p, card, hero_type))


# ----------------------------------------------------------------------------- end (R25-R29)


def legal_end(s: GameState) -> list[int]:
    t = s.ctx.tables
    space = s.ctx.space
    p = s.player
    o = 1 - p
    out = [space.end_turn]
    seen: set[int] = set()
    type_of, ability, is_hero = t.type_of, t.ability, t.is_hero
    for c in s.hand[p]:
        ab = ability[c]
        ct = type_of[c]
        if not ab or ct in seen:
            continue
        seen.add(ct)
        if ab == AB_SPY:
            out.append(space.end_id[ct])
            continue
        if ab == AB_CONVERT:
            pool = [u for z in (s.active[o], s.inactive[o]) for u in z if is_hero[u]]
        elif ab == AB_HERO_FROM_DECK:
            pool = [u for u in s.deck[p] if is_hero[u]]
        elif ab == AB_HERO_FROM_DISCARD:
            pool = [u for u in s.discard[p] if is_hero[u]]
        elif ab == AB_SABOTEUR:
            pool = [u for z in (s.active[o], s.inactive[o]) for u in z if t.facility[u]]
        else:
            continue  # attack-phase cards (R17)
        on = space.end_on_id
        for ht in sorted({type_of[u] for u in pool}):
            out.append(on[(ct, ht)])
            if ab == AB_CONVERT and ht in t.copied_heroes:
                same = [u for u in pool if type_of[u] == ht]
                out += copy_actions(s, o, same, [on[(ct, ht)]])
    return out


def do_play_end(s: GameState, card: int, _group: int, _target: int, _n: int) -> None:
    """R27 Spies: show the opponent's hand to the player, once."""
    p = s.player
    o = 1 - p
    c = s.take_from_hand(p, card)
    s.to_discard(c)
    shown = tuple(sorted(s.name(x) for x in s.hand[o]))
    s.seen[p].append((s.turn, shown))
    s.known[p] = tuple(sorted(s.ctx.tables.type_of[x] for x in s.hand[o]))
    if s.events is not None:
        s.emit(SpiesPlayed(p, card))
        by_name = sorted(types(s, s.hand[o]), key=s.ctx.tables.names.__getitem__)
        s.emit(CardsSeen(p, o, tuple(by_name), Seen.SPIES))


def do_play_end_on(
    s: GameState, card: int, _group: int, target: int, _n: int, unit: int = -1
) -> None:
    """An end-phase card played on a card type ``target`` (R26, R28, R29)."""
    p = s.player
    c = s.take_from_hand(p, card)
    ab = s.ctx.tables.ability[c]
    if ab == AB_CONVERT:
        _convert(s, c, card, target, unit)
        return
    s.to_discard(c)  # R31
    if ab == AB_SABOTEUR:
        _sabotage(s, card, target)
    elif ab == AB_HERO_FROM_DECK:
        _hero_from_deck(s, c, card, target)
    elif ab == AB_HERO_FROM_DISCARD:
        _hero_from_discard(s, card, target)
    else:
        raise AssertionError(f"no end-phase effect for ability {ab}")


def _convert(s: GameState, c: int, card: int, target: int, unit: int) -> None:
    """R28: Convert or Traitor ``c`` takes an opposing hero, and stays attached to it."""
    t = s.ctx.tables
    p = s.player
    o = 1 - p
    h = unit if unit >= 0 else find_in(s.active[o] + s.inactive[o], s, target)
    s.remove_from_play(h)
    s.inactive[p].append(h)
    kept = []
    for a in s.att[h]:
        if t.ability[a] == AB_CONVERT:
            s.to_discard(a)  # the latest Convert or Traitor wins
        else:
            kept.append(a)
    kept.append(c)
    s.att[h] = tuple(kept)
    if s.events is not None:
        s.emit(ControlTaken(p, card, target))


def _sabotage(s: GameState, card: int, target: int) -> None:
    """R29: Saboteur destroys an opposing Facility of type ``target``."""
    p = s.player
    o = 1 - p
    h = find_in(s.inactive[o] + s.active[o], s, target)
    s.destroy(h)
    if s.events is not None:
        s.emit(Sabotaged(p, card, target))


def _hero_from_deck(s: GameState, c: int, card: int, target: int) -> None:
    """R26: Recruit or Shuttle ``c`` takes a hero from the deck, which is then shuffled; R9 if
    that empties it."""
    p = s.player
    h = find_in(s.deck[p], s, target)
    s.deck[p].remove(h)
    s.show_into_hand(p, h)
    s.shuffle_deck(p)
    if s.events is not None:
        s.emit(HeroTaken(p, card, target, from_deck=True))
    if not s.deck[p]:  # R9
        s.finish(1 - p, EndReason.SEARCH, c)


def _hero_from_discard(s: GameState, card: int, target: int) -> None:
    """R26: a search card takes a hero from the discard pile."""
    p = s.player
    h = find_in(s.discard[p], s, target)
    s.discard[p].remove(h)
    s.show_into_hand(p, h)
    if s.events is not None:
        s.emit(HeroTaken(p, card, target, from_deck=False))


def over_hand_limit(s: GameState) -> bool:
    """R25: does the active player hold more cards than the hand limit?"""
    return len(s.hand[s.player]) > s.ctx.options.hand_limit


def legal_discard(s: GameState) -> list[int]:
    type_of = s.ctx.tables.type_of
    base = s.ctx.space.discard_base
    return [base + ct for ct in sorted({type_of[c] for c in s.hand[s.player]})]


def discard(s: GameState, card: int) -> None:
    """R25: the active player discards a card of type ``card`` down toward the hand limit."""
    p = s.player
    c = s.take_from_hand(p, card)
    s.to_discard(c)
    if s.events is not None:
        s.emit(HandLimitDiscard(p, card))
