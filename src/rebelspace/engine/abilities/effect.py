"""What an ability is: the ``Effect`` record each ability module fills in (package docstring).

The record is plain data plus one function, so every consumer reads the same facts: the rules
(when the card may be played, its targets, what it does), the action space (its actions and
their words), the heuristic (what it gains), the terminal and the browser (its words).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..state import GameState


class Ability(IntEnum):
    """Ability codes of action cards (``Tables.ability``, ``Tables.type_ability``).

    The codes are stable: the learnt evaluation's features and the records of trained policies
    read them. A new ability takes the next free code and one module of this package."""

    NONE = 0
    HERO_FROM_DISCARD = 1  # R26 Medi-Bot, Cybernetics
    HERO_FROM_DECK = 2  # R26 Recruit, Shuttle
    CONVERT = 3  # R28 Convert, Traitor
    SURPRISE = 4  # R30 Surprise Attack
    EXTRA_ATTACK = 5  # R22 Multiple Targets
    SPY = 6  # R27 Spies
    SABOTEUR = 7  # R29
    TRAP = 8  # R30


class When(IntEnum):
    """When a card with the ability may be played, and by whom."""

    END = 0  # in its player's end phase (R25)
    ATTACKING = 1  # in the battle-tricks window (R17), by the attacker
    DEFENDING = 2  # in the battle-tricks window, by the defender

    @property
    def wire(self) -> str:
        """The protocol's word for it (the card catalogue's ``ability_when``)."""
        return self.name.lower()


class Pool(IntEnum):
    """Where the cards an end-phase ability may be played on (or for) are."""

    OPPOSING_HEROES = 0  # heroes the opponent controls, in play (R28)
    OWN_DECK_HEROES = 1  # heroes in the player's deck (R26)
    OWN_DISCARD_HEROES = 2  # heroes in the player's discard pile (R26)
    OPPOSING_FACILITIES = 3  # Facilities the opponent controls, in play (R29)

    def side(self, player: int) -> int:
        """Whose cards the pool holds, for ``player``."""
        opposing = self in (Pool.OPPOSING_HEROES, Pool.OPPOSING_FACILITIES)
        return 1 - player if opposing else player

    @property
    def copies_differ(self) -> bool:
        """Heroes in play: two copies of a copied hero can differ there (actions.py, "Copies"),
        so the actions may name one copy."""
        return self is Pool.OPPOSING_HEROES

    def candidates(self, s: GameState, player: int) -> list[int]:
        """The instances ``player`` could choose from, in the order the rules look at them."""
        t = s.ctx.tables
        o = 1 - player
        if self is Pool.OPPOSING_HEROES:
            return [u for z in (s.active[o], s.inactive[o]) for u in z if t.is_hero[u]]
        if self is Pool.OWN_DECK_HEROES:
            return [u for u in s.deck[player] if t.is_hero[u]]
        if self is Pool.OWN_DISCARD_HEROES:
            return [u for u in s.discard[player] if t.is_hero[u]]
        return [u for z in (s.active[o], s.inactive[o]) for u in z if t.facility[u]]


@dataclass(frozen=True, slots=True)
class Target:
    """The card an end-phase ability is played on (or for): ``play Convert on Bounty Hunter``."""

    pool: Pool
    word: str  # "on" (a card in play) or "for" (a card taken into the hand), in the action text
    menu: str  # the browser's words for the action, "{target}" replaced by the target's name


#: What an ability does: (state, the card instance played, its card type, the target's card
#: type or -1, the target unit a copy action chose or -1). The card is already out of the hand
#: (and in the discard pile unless the effect ``stays``); the effect emits its own events.
Play = Callable[["GameState", int, int, int, int], None]


@dataclass(frozen=True, slots=True)
class Effect:
    """One ability: who may use it when, its targets, what it does, its events, its words."""

    ability: Ability
    key: str  # the ability's key in card data (``CardType.ability``) and the protocol
    notes: str  # the Notes text that gives an action card this ability (cards.toml)
    rule: str  # the ruling that governs it, e.g. "R28"
    when: When
    words: str  # the ability in plain words (the terminal's ``card``, the browser's gallery)
    play: Play
    target: Target | None = None  # None: played without a target (``play Rebel Spies``)
    stays: bool = False  # the card stays in play, attached to its target (R28), not discarded
    # What the effect changes, for consumers that weigh it (the heuristic), not for the rules:
    # the rules run ``play``.
    attack_bonus: int = 0  # added to each attacking unit's battle rating (R30)
    defense_bonus: int = 0  # added to each defending unit's battle rating (R30)
    extra_attacks: int = 0  # more attack phases this turn (R22)
    reveals_hand: bool = False  # shows the opponent's hand to the player (R27)

    @property
    def is_trick(self) -> bool:
        """Played in the battle-tricks window (R17) rather than the end phase (R25)."""
        return self.when is not When.END


def find_in(cards: list[int], s: GameState, card_type: int) -> int:
    """The first instance of ``card_type`` among ``cards`` (a legal action names one there)."""
    type_of = s.ctx.tables.type_of
    for c in cards:
        if type_of[c] == card_type:
            return c
    raise AssertionError("legal action names a card that is not there")
