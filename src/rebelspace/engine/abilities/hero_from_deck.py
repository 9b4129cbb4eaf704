"""R26 Recruit, Shuttle: in the end phase, take a hero from the deck into the hand (shown to
both players), then shuffle the deck; taking the deck's last card loses (R9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import EndReason, HeroTaken
from .effect import Ability, Effect, Pool, Target, When, find_in

if TYPE_CHECKING:
    from ..state import GameState


def play(s: GameState, c: int, card: int, target: int, _unit: int) -> None:
    p = s.player
    h = find_in(s.deck[p], s, target)
    s.deck[p].remove(h)
    s.show_into_hand(p, h)
    s.shuffle_deck(p)
    if s.events is not None:
        s.emit(HeroTaken(p, card, target, from_deck=True))
    if not s.deck[p]:  # R9
        s.finish(1 - p, EndReason.SEARCH, c)


EFFECT: Effect = Effect(
    ability=Ability.HERO_FROM_DECK,
    key="hero_from_deck",
    notes="Take any Hero from your deck and put it in your hand",
    rule="R26",
    when=When.END,
    words="End phase: take a hero from your deck into your hand, then shuffle the deck; the "
    "hero is shown to both players. Taking your deck's last card loses (R26, R9).",
    play=play,
    target=Target(Pool.OWN_DECK_HEROES, "for", "take {target} from your deck into your hand"),
)
