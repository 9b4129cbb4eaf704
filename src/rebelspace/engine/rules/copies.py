"""Choosing one copy of a copied hero (edited card lists; actions.py, "Copies").

A plain action names a card type and takes the first candidate of that type; for a hero type
with several copies, a copy action ``#k`` takes the k-th copy on its controller's side (Active
Zone, then Inactive Zone, in view order). Copy actions are legal only for candidates that
differ from every earlier candidate of their type, so identical copies add no choices.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..actions import Kind

if TYPE_CHECKING:
    from ..actions import Action
    from ..state import GameState


def side_units(s: GameState, side: int) -> list[int]:
    return s.active[side] + s.inactive[side]


def ordinal(s: GameState, side: int, unit: int) -> int:
    """1-based: which copy of its type ``unit`` is on ``side`` (``UnitView.copy``)."""
    type_of = s.ctx.tables.type_of
    ct = type_of[unit]
    k = 0
    for u in side_units(s, side):
        if type_of[u] == ct:
            k += 1
            if u == unit:
                return k
    raise AssertionError(f"unit {unit} is not in play on side {side}")


def nth(s: GameState, side: int, card_type: int, k: int) -> int:
    """The k-th copy of ``card_type`` on ``side``."""
    type_of = s.ctx.tables.type_of
    for u in side_units(s, side):
        if type_of[u] == card_type:
            k -= 1
            if k == 0:
                return u
    raise AssertionError(f"no copy {k} of card type {card_type} on side {side}")


def _battle_place(s: GameState, unit: int) -> int:
    """Which battle group a unit fights in this attack phase (-1: none)."""
    for g, units in enumerate(s.groups):
        if unit in units or unit in s.blocks[g] or s.targets[g] == unit:
            return g
    return -1


def appearance(s: GameState, side: int, unit: int) -> tuple[object, ...]:
    """What tells two copies apart: zone, attachments (as card types) and battle group."""
    type_of = s.ctx.tables.type_of
    zone = 0 if unit in s.active[side] else 1
    attached = tuple(sorted(type_of[a] for a in s.att[unit]))
    return (zone, attached, _battle_place(s, unit) if s.busy[unit] else -1)


def other_copies(s: GameState, side: int, candidates: Iterable[int]) -> list[tuple[int, int]]:
    """(k, unit) of each candidate after the first that differs from all earlier ones."""
    seen: list[tuple[object, ...]] = []
    out = []
    for u in candidates:
        look = appearance(s, side, u)
        if seen and look not in seen:
            out.append((ordinal(s, side, u), u))
        if look not in seen:
            seen.append(look)
    return out


def copy_actions(
    s: GameState, side: int, candidates: Iterable[int], plain: Iterable[int]
) -> list[int]:
    """The copy actions of ``plain`` action ids (all about one card type) for ``candidates``
    (the units of that type the plain actions could take, in the order they look)."""
    extra = other_copies(s, side, candidates)
    if not extra:
        return []
    copy_of = s.ctx.space.copy_of
    return [copy_of[(a, k)] for a in plain for k, _ in extra]


def chosen(s: GameState, a: Action) -> int:
    """The unit a copy action (``a.copy`` >= 1) takes: the ``a.copy``-th copy on the side whose
    unit the action names. Handlers call it only for copy actions (``a.copy``), so that the
    plain actions of the hot path pay one attribute test."""
    kind, card, target, k = a.kind, a.card, a.target, a.copy
    attacker = s.player
    if kind in (Kind.FORM_GROUND, Kind.FORM_SPACE, Kind.ADD):
        return nth(s, attacker, card, k)
    if kind in (Kind.BLOCK, Kind.TARGET):
        return nth(s, 1 - attacker, card, k)
    if kind == Kind.PICK:
        assert s.cas is not None
        return nth(s, attacker if s.cas.side == 0 else 1 - attacker, card, k)
    if kind in (Kind.ATTACH, Kind.PLAY_PSION):
        return nth(s, s.to_move, target, k)
    if kind == Kind.PLAY_END_ON:  # an end-phase card on a hero in play (R28): its pool's side
        effect = s.ctx.tables.type_effect[card]
        assert effect is not None and effect.target is not None
        return nth(s, effect.target.pool.side(s.player), target, k)
    raise AssertionError(f"no copy actions of kind {kind}")
