"""R30 Trap: in battle tricks, when defending, every defending unit (targets included) gets +2
to its battle rating for the rest of this attack phase; copies stack."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import TrickPlayed
from .effect import Ability, Effect, When

if TYPE_CHECKING:
    from ..state import GameState

BONUS = 2


def play(s: GameState, _c: int, card: int, _target: int, _unit: int) -> None:
    s.def_bonus += BONUS
    if s.events is not None:
        s.emit(TrickPlayed(s.to_move, card))


EFFECT: Effect = Effect(
    ability=Ability.TRAP,
    key="trap",
    notes="All defending units get Ground or Space +2",
    rule="R30",
    when=When.DEFENDING,
    words="Battle tricks, when you defend: every defending unit (targets included) gets +2 to "
    "its battle rating for the rest of this attack phase; copies stack (R30).",
    play=play,
    defense_bonus=BONUS,
)
