"""R28 Convert, Traitor: in the end phase, take control of an opposing hero in play, with its
attachments, for the rest of the game; the card stays attached to the hero, and a later
Convert or Traitor takes it back (the latest wins)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import ControlTaken
from .effect import Ability, Effect, Pool, Target, When, find_in

if TYPE_CHECKING:
    from ..state import GameState


def play(s: GameState, c: int, card: int, target: int, unit: int) -> None:
    t = s.ctx.tables
    p = s.player
    o = 1 - p
    h = unit if unit >= 0 else find_in(s.active[o] + s.inactive[o], s, target)
    s.remove_from_play(h)
    s.inactive[p].append(h)
    kept = []
    for a in s.att[h]:
        if t.ability[a] == Ability.CONVERT:
            s.to_discard(a)  # the latest Convert or Traitor wins
        else:
            kept.append(a)
    kept.append(c)
    s.att[h] = tuple(kept)
    if s.events is not None:
        s.emit(ControlTaken(p, card, target))


EFFECT: Effect = Effect(
    ability=Ability.CONVERT,
    key="convert",
    notes="Take control of opposing Hero for rest of game",
    rule="R28",
    when=When.END,
    words="End phase: take control of an opposing hero in play, with its attachments, for the "
    "rest of the game; a later Convert or Traitor can take it back (R28).",
    play=play,
    target=Target(Pool.OPPOSING_HEROES, "on", "take control of {target}"),
    stays=True,
)
