"""R29 Saboteur: in the end phase, destroy one opposing Facility in play."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Sabotaged
from .effect import Ability, Effect, Pool, Target, When, find_in

if TYPE_CHECKING:
    from ..state import GameState


def play(s: GameState, _c: int, card: int, target: int, _unit: int) -> None:
    p = s.player
    o = 1 - p
    h = find_in(s.inactive[o] + s.active[o], s, target)
    s.destroy(h)
    if s.events is not None:
        s.emit(Sabotaged(p, card, target))


EFFECT: Effect = Effect(
    ability=Ability.SABOTEUR,
    key="saboteur",
    notes="Destroy one opposing facility",
    rule="R29",
    when=When.END,
    words="End phase: destroy one opposing Facility in play (R29).",
    play=play,
    target=Target(Pool.OPPOSING_FACILITIES, "on", "destroy {target}"),
)
