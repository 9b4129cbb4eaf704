"""R22 Multiple Targets: in battle tricks, when attacking, one more attack phase right after
this one, with the units still in the Active Zone (R36)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import TrickPlayed
from .effect import Ability, Effect, When

if TYPE_CHECKING:
    from ..state import GameState


def play(s: GameState, _c: int, card: int, _target: int, _unit: int) -> None:
    s.extra_attacks += 1
    if s.events is not None:
        s.emit(TrickPlayed(s.to_move, card))


EFFECT: Effect = Effect(
    ability=Ability.EXTRA_ATTACK,
    key="extra_attack",
    notes="Rebels get an extra Attack Phase",
    rule="R22",
    when=When.ATTACKING,
    words="Battle tricks, when you attack: one more attack phase right after this one, with "
    "the units still in your Active Zone (R22, R36).",
    play=play,
    extra_attacks=1,
)
