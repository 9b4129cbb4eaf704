"""Card abilities as data: one module per ability, each an ``Effect`` (``effect.py``).

An action card's ability is everything the game knows about it, in its module: who may use it
when (``When``: the end phase, or the battle-tricks window when attacking or defending), what
it may be played on (``Target``: where the candidates are and the words of the action), what
it does (``play``, which emits its events), and its words for people (``words``, the browser's
menu words). Every consumer asks the effect: the action space (``actions.py``) makes each
card's actions from it, the rules (``rules/turn.py`` and ``rules/attack.py``) list and play
them generically, the heuristic weighs what the effect changes, the terminal and the server's
card catalogue (hence the browser) show its words.

A card with an existing ability is a line in ``cards.toml`` whose Notes name the ability
(``Effect.notes``). A new ability is a new module here, listed in ``EFFECTS`` below with the
next ``Ability`` code, its tests, and its event in ``events.py`` (docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from . import (
    convert,
    extra_attack,
    hero_from_deck,
    hero_from_discard,
    saboteur,
    spy,
    surprise_attack,
    trap,
)
from .effect import Ability, Effect, Pool, Target, When

if TYPE_CHECKING:
    from ..state import GameState

__all__ = [
    "ABILITY_NOTES",
    "BY_KEY",
    "EFFECTS",
    "TRICK_ABILITIES",
    "Ability",
    "Effect",
    "Pool",
    "Target",
    "When",
    "effect_of",
    "play_card",
]

#: Every ability, in code order.
EFFECTS: tuple[Effect, ...] = tuple(
    sorted(
        (
            hero_from_discard.EFFECT,
            hero_from_deck.EFFECT,
            convert.EFFECT,
            surprise_attack.EFFECT,
            extra_attack.EFFECT,
            spy.EFFECT,
            saboteur.EFFECT,
            trap.EFFECT,
        ),
        key=lambda e: e.ability,
    )
)
#: ability key (card data) -> effect
BY_KEY: Mapping[str, Effect] = {e.key: e for e in EFFECTS}
#: Notes text of action cards (exact, case-sensitive) -> ability key (R26-R30).
ABILITY_NOTES: Mapping[str, str] = {e.notes: e.key for e in EFFECTS}
#: The codes of the battle tricks (R17), for per-card hot paths (the learnt features).
TRICK_ABILITIES: frozenset[int] = frozenset(int(e.ability) for e in EFFECTS if e.is_trick)
# code -> effect, None for Ability.NONE (the rules' hot paths index it by code).
_BY_CODE: tuple[Effect | None, ...] = tuple(
    next((e for e in EFFECTS if e.ability == code), None) for code in range(len(Ability))
)


def effect_of(code: int) -> Effect | None:
    """The effect of an ability code (``Tables.ability``); None for ``Ability.NONE``."""
    return _BY_CODE[code]


def play_card(s: GameState, player: int, card: int, target: int, unit: int) -> None:
    """``player`` plays the action card of type ``card`` from the hand (the rules checked that
    it may): it goes to the discard pile (R31) unless its effect stays in play (R28), then the
    effect does what it does, on ``target`` (a card type, or -1) and ``unit`` (the copy a copy
    action chose, or -1)."""
    c = s.take_from_hand(player, card)
    effect = s.ctx.tables.type_effect[card]
    assert effect is not None, "only action cards with an ability are played"
    if not effect.stays:
        s.to_discard(c)  # R31
    effect.play(s, c, card, target, unit)
