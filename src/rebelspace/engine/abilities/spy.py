"""R27 Spies: in the end phase, look at the opponent's hand as it is now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import CardsSeen, Seen, SpiesPlayed
from .effect import Ability, Effect, When

if TYPE_CHECKING:
    from ..state import GameState


def play(s: GameState, _c: int, card: int, _target: int, _unit: int) -> None:
    p = s.player
    o = 1 - p
    t = s.ctx.tables
    shown = tuple(sorted(s.name(x) for x in s.hand[o]))
    s.seen[p].append((s.turn, shown))
    s.known[p] = tuple(sorted(t.type_of[x] for x in s.hand[o]))
    if s.events is not None:
        s.emit(SpiesPlayed(p, card))
        by_name = sorted((t.type_of[x] for x in s.hand[o]), key=t.names.__getitem__)
        s.emit(CardsSeen(p, o, tuple(by_name), Seen.SPIES))


EFFECT: Effect = Effect(
    ability=Ability.SPY,
    key="spy",
    notes="Look at opponents hand",
    rule="R27",
    when=When.END,
    words="End phase: look at the opponent's hand as it is now (R27).",
    play=play,
    reveals_hand=True,
)
