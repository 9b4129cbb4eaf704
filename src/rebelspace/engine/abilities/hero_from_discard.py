"""R26 Medi-Bot, Cybernetics: in the end phase, take a hero from the discard pile into the hand
(shown to both players)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import HeroTaken
from .effect import Ability, Effect, Pool, Target, When, find_in

if TYPE_CHECKING:
    from ..state import GameState


def play(s: GameState, _c: int, card: int, target: int, _unit: int) -> None:
    p = s.player
    h = find_in(s.discard[p], s, target)
    s.discard[p].remove(h)
    s.show_into_hand(p, h)
    if s.events is not None:
        s.emit(HeroTaken(p, card, target, from_deck=False))


EFFECT: Effect = Effect(
    ability=Ability.HERO_FROM_DISCARD,
    key="hero_from_discard",
    notes="Take any Hero from your discard and put it in your hand",
    rule="R26",
    when=When.END,
    words="End phase: take a hero from your discard pile into your hand; the hero is shown to "
    "both players (R26).",
    play=play,
    target=Target(
        Pool.OWN_DISCARD_HEROES, "for", "take {target} from your discard pile into your hand"
    ),
)
