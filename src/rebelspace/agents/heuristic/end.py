"""The END and DISCARD steps: Convert/Traitor on the best opposing hero, Medi-Bot/Cybernetics
for the best hero in the discard pile, Recruit/Shuttle for the best hero in the deck (not when
the deck is low), Saboteur on the most valuable facility, Spies on a hand worth seeing; then
end the turn and discard the least useful cards.

Cards are weighed by what their ability's effect says it does (engine/abilities/: where its
targets are, whether it shows a hand, whether it is a battle trick), never by which ability it
is, so a card with an existing ability, or a new ability of a known shape, is weighed without
code here."""

from __future__ import annotations

from collections.abc import Sequence

from rebelspace.engine import Effect, GameState, Kind, Pool, read

from .deploy import deploy_use
from .facts import CardFacts, card_facts, worth

RECRUIT_MIN_DECK = 8  # Recruit/Shuttle take a card from the deck: not when it is this low
RECRUIT_MAX_HEROES_IN_HAND = 2  # Recruit/Shuttle only while fewer heroes wait in hand
SPY_MIN_HAND = 3  # Spies only on a hand this large: a small hand tells little

# What each end-of-turn card gains, in deck cards, on top of the card it takes or destroys.
SPY_GAIN = 0.2  # a look at the opponent's hand: a little, as it is seen once
CONVERT_GAIN = 3.0  # the opponent loses the hero and this player gains it: a double swing
HERO_FROM_DISCARD_GAIN = 2.0  # a hero back from the discard pile, less each hero in hand
HERO_FROM_DECK_GAIN = 1.0  # a hero from the deck: the deck pays a card for it
SABOTEUR_USELESS_PENALTY = 2.0  # an anti-Ship facility matters little when we have no Ships

# How much a card is worth keeping in hand (``keep``), for cards other than units.
KEEP_ATTACHMENT_WITHOUT_HERO = 0.2  # nothing to attach it to yet
KEEP_PSION = 1.0  # a psion card with a psionic unit in play to use it
KEEP_PSION_WITHOUT_PSIONIC = 0.3
KEEP_CONVERT = 4.0  # takes the opponent's best hero: the strongest card in hand
KEEP_HERO_FETCH = 2.0  # Recruit, Shuttle, Medi-Bot, Cybernetics
KEEP_SABOTEUR = 1.5  # with an opposing facility to destroy
KEEP_SABOTEUR_WITHOUT_TARGET = 0.8
KEEP_BATTLE_TRICK = 1.5  # Surprise Attack, Trap, Multiple Targets
KEEP_SPY = 0.3


def _end_gain(s: GameState, f: CardFacts, a: int, heroes_in_hand: int) -> float:
    """What playing end-of-turn action ``a`` gains."""
    t = s.ctx.tables
    act = s.ctx.space.actions[a]
    kind, card, target = act.kind, act.card, act.target
    effect = t.type_effect[card]
    p = s.player
    o = 1 - p
    if effect is None:
        return 0.0
    if kind == Kind.PLAY_END and effect.reveals_hand:
        hand = read.hand_size(s, o)
        return SPY_GAIN if hand >= SPY_MIN_HAND and len(read.known_hand(s, p)) < hand else 0.0
    if kind != Kind.PLAY_END_ON or effect.target is None:
        return 0.0
    i = f.first_of_type[target]
    pool = effect.target.pool
    if pool is Pool.OPPOSING_HEROES:  # control taken: a double swing
        u = next(x for z in read.zones(s, o) for x in z if t.type_of[x] == target)
        return CONVERT_GAIN + worth(s, f, u)
    if pool is Pool.OWN_DISCARD_HEROES:
        return HERO_FROM_DISCARD_GAIN + f.use[i] - heroes_in_hand
    if pool is Pool.OWN_DECK_HEROES:
        deck_ok = read.deck_size(s, p) > RECRUIT_MIN_DECK
        wanted = heroes_in_hand < RECRUIT_MAX_HEROES_IN_HAND
        return HERO_FROM_DECK_GAIN + f.use[i] if deck_ok and wanted else 0.0
    if pool is Pool.OPPOSING_FACILITIES:  # destroyed
        my_ships = any(t.ship[u] for z in read.zones(s, p) for u in z)
        useless = (t.ion_cannon[i] or t.shields[i]) and not my_ships
        return f.worth[i] - SABOTEUR_USELESS_PENALTY if useless else f.worth[i]
    return 0.0


def end(s: GameState, legal: Sequence[int]) -> int:
    """The end-of-turn card that gains most (module doc), else "end turn"."""
    t = s.ctx.tables
    f = card_facts(s.ctx)
    heroes_in_hand = sum(1 for c in read.hand(s, s.player) if t.is_hero[c])
    best, best_gain = s.ctx.space.end_turn, 0.0
    for a in legal:
        gain = _end_gain(s, f, a, heroes_in_hand)
        if gain > best_gain:
            best, best_gain = a, gain
    return best


def keep(s: GameState, f: CardFacts, c: int, p: int) -> float:
    """How much ``p`` wants to keep card ``c`` in hand."""
    t = s.ctx.tables
    o = 1 - p
    if t.is_unit[c]:
        return deploy_use(s, f, c, p)
    mine = [u for z in read.zones(s, p) for u in z]
    if t.is_attachment[c]:
        heroes = any(t.is_hero[u] for u in mine) or any(t.is_hero[x] for x in read.hand(s, p))
        return f.use[c] if heroes else KEEP_ATTACHMENT_WITHOUT_HERO
    if t.is_psion[c]:
        return KEEP_PSION if any(t.psionic[u] for u in mine) else KEEP_PSION_WITHOUT_PSIONIC
    return _keep_action(s, t.type_effect[t.type_of[c]], o)


def _keep_action(s: GameState, effect: Effect | None, o: int) -> float:
    """How much a player wants to keep an action card with ``effect`` (``o``: the opponent)."""
    t = s.ctx.tables
    if effect is None:
        return KEEP_SPY
    pool = None if effect.target is None else effect.target.pool
    if pool is Pool.OPPOSING_HEROES:
        return KEEP_CONVERT
    if pool in (Pool.OWN_DECK_HEROES, Pool.OWN_DISCARD_HEROES):
        return KEEP_HERO_FETCH
    if pool is Pool.OPPOSING_FACILITIES:
        facility = any(t.facility[u] for z in read.zones(s, o) for u in z)
        return KEEP_SABOTEUR if facility else KEEP_SABOTEUR_WITHOUT_TARGET
    if effect.is_trick:
        return KEEP_BATTLE_TRICK
    return KEEP_SPY


def discard(s: GameState, legal: Sequence[int]) -> int:
    """The card in hand least worth keeping."""
    f = card_facts(s.ctx)
    p = s.to_move
    dec = s.ctx.space.actions
    return min(legal, key=lambda a: (keep(s, f, f.first_of_type[dec[a].card], p), a))
