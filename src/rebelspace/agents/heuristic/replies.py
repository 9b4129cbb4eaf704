"""What the opponent may answer in the battle-tricks window, and what an extra attack phase
would bring: the measures behind the ``Style`` choices of issue 17 (``style.py``).

Everything here reads public information only (R5): hand and deck sizes, discard piles and
units in play.
"""

from __future__ import annotations

from rebelspace.engine import Ability, GameState, read


def chance_to_hold(s: GameState, o: int, ability: int) -> float:
    """The chance that ``o``'s hand holds a card with ``ability``, if the cards ``o`` has not
    shown (hand and deck) were dealt at random: the copies not yet in ``o``'s discard pile
    are somewhere among them."""
    hand = read.hand_size(s, o)
    if hand == 0:
        return 0.0
    t = s.ctx.tables
    copies = sum(1 for i in t.instances_of_side[o] if t.ability[i] == ability)
    copies -= sum(1 for c in read.discard(s, o) if t.ability[c] == ability)
    unseen = hand + read.deck_size(s, o)
    if copies <= 0:
        return 0.0
    none = 1.0
    for i in range(hand):
        if unseen - copies - i <= 0:
            return 1.0
        none *= (unseen - copies - i) / (unseen - i)
    return 1.0 - none


def counter_ability(s: GameState, q: int) -> int:
    """The trick that answers ``q``'s: the defender's Trap against the attacker, the
    attacker's Surprise Attack against the defender (R30)."""
    return Ability.TRAP if q == s.player else Ability.SURPRISE
