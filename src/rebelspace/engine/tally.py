"""Per-game statistics for the balance lab, counted by the rules as the game is played.

A tally is off (``GameState.tally is None``) unless ``new_game(..., tally=True)`` asks for it,
so search and plain simulation pay nothing. Counts are per card type, so that the lab can
report them by card name, and credit follows the rules' own events:

- a **kill** is an enemy unit destroyed by a battle or a casualty pick; every unit of the group
  that caused it gets the credit (a unit that wins a battle beside two others shares the win);
- **damage** is the damage an unblocked, untargeted attacking unit got through (R21, R33),
  before the deck runs out;
- **deck sizes** are both decks at the start of every turn.
"""

from __future__ import annotations

from collections.abc import Iterable

from .events import BattleResolved, BattleResult, CasualtyPicked, Event, GotThrough, TurnStarted


class Tally:
    __slots__ = ("kills", "damage", "deck_sizes", "_credit")

    def __init__(self, card_types: int) -> None:
        self.kills = [0] * card_types
        self.damage = [0] * card_types
        self.deck_sizes: list[tuple[int, int]] = []  # (Rebel, Imperial) at each turn's start
        # The losing group of the battle whose casualties are being picked: its units get the
        # credit for each pick (R19).
        self._credit: tuple[int, ...] = ()

    def read(self, events: Iterable[Event]) -> None:
        """Count what the events of one decision tell."""
        for e in events:
            if isinstance(e, TurnStarted):
                self.turn_start(*e.decks)
            elif isinstance(e, BattleResolved):
                if e.result != BattleResult.DEFENDER_WON:
                    self.kill(e.attackers, len(e.defenders))
                if e.result != BattleResult.ATTACKER_WON:
                    self.kill(e.defenders, len(e.attackers))
                # R19: the loser's units pick the casualties; each pick is their kill.
                won = e.result == BattleResult.ATTACKER_WON
                self.set_casualty_credit(e.defenders if won else e.attackers)
            elif isinstance(e, CasualtyPicked):
                self.casualty()
            elif isinstance(e, GotThrough):
                for card, amount in e.dealers:
                    self.deal(card, amount)

    def kill(self, by_types: Iterable[int], count: int) -> None:
        for c in by_types:
            self.kills[c] += count

    def set_casualty_credit(self, by_types: tuple[int, ...]) -> None:
        self._credit = by_types

    def casualty(self) -> None:
        self.kill(self._credit, 1)

    def deal(self, card_type: int, amount: int) -> None:
        self.damage[card_type] += amount

    def turn_start(self, rebel_deck: int, imperial_deck: int) -> None:
        self.deck_sizes.append((rebel_deck, imperial_deck))
