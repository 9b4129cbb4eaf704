"""Card instances as small integers, with every property the rules read precomputed.

A game's cards are numbered 0..N-1: the Rebel deck first, then the Imperial deck, each in
card-list order. The rules then read plain tuples indexed by instance, which is what keeps the
engine fast (no attribute lookups on card objects in the hot path).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

from .abilities import BY_KEY, Ability, Effect
from .cards import ACTION, ATTACHMENT, GS, HERO, PSION, REBEL, SPACE, CardDB, CardType

_T = TypeVar("_T")


__all__ = ["Ability", "Tables"]


@dataclass(frozen=True, eq=False)
class Tables:
    """Per-instance and per-type facts for one card database. Shared by every state of a game."""

    db: CardDB
    n: int
    type_of: tuple[int, ...]  # instance -> card type index
    owner: tuple[int, ...]  # instance -> side that owns it (R4)
    instances_of_side: tuple[tuple[int, ...], tuple[int, ...]]
    names: tuple[str, ...]  # per card type index
    instance_names: tuple[str, ...]  # per instance: ``names[type_of[i]]``, for the views
    # The rest are per instance, copied from the instance's card type:
    ground: tuple[int, ...]
    space: tuple[int, ...]
    damage: tuple[int, ...]
    cost: tuple[int, ...]  # 0 where not printed
    is_hero: tuple[bool, ...]
    is_unit: tuple[bool, ...]
    is_ground_unit: tuple[bool, ...]  # Ground or G/S (R2)
    is_space_unit: tuple[bool, ...]  # Space or G/S (R2)
    is_attachment: tuple[bool, ...]
    is_psion: tuple[bool, ...]
    is_action: tuple[bool, ...]
    can_attack: tuple[bool, ...]  # R11
    pilot: tuple[bool, ...]
    captain: tuple[bool, ...]
    psionic: tuple[bool, ...]
    fighter: tuple[bool, ...]
    ship: tuple[bool, ...]
    facility: tuple[bool, ...]
    extra_draw: tuple[bool, ...]
    ion_cannon: tuple[bool, ...]
    shields: tuple[bool, ...]
    ability: tuple[int, ...]  # the ``Ability`` code, Ability.NONE for cards without one
    type_ability: tuple[int, ...]  # per card type index
    type_effect: tuple[Effect | None, ...]  # per card type index: its ability (abilities/)
    hero_types: tuple[int, ...]
    psion_types: tuple[int, ...]
    attachment_types: tuple[int, ...]
    end_types: tuple[int, ...]  # action cards played on a target in the end phase (R26, R28, R29)
    max_draw: int  # most cards a player could ever draw in one turn (R8)
    # Hero types with two or more copies (only in edited lists): their copies can differ in
    # play (attachments, zone, group), so actions may name one copy (actions.py, "copies").
    copied_heroes: dict[int, int]  # card type -> copies

    @classmethod
    def build(cls, db: CardDB, draw_max: int) -> Tables:
        types: tuple[CardType, ...] = tuple(db.types)
        type_of, owner, per_side = _instances(types)

        def col(pred: Callable[[CardType], _T]) -> tuple[_T, ...]:
            per_type = [pred(ct) for ct in types]
            return tuple(per_type[t] for t in type_of)

        effects = tuple(_effect(ct) for ct in types)
        # Plain ints, as the rules' hot paths and the learnt features read them.
        ability_of_type = tuple(_code(e) for e in effects)
        lists = _type_lists(types, effects)
        return cls(
            db=db,
            n=len(type_of),
            type_of=type_of,
            owner=owner,
            instances_of_side=per_side,
            names=tuple(ct.name for ct in types),
            instance_names=tuple(types[t].name for t in type_of),
            ground=col(lambda ct: ct.ground),
            space=col(lambda ct: ct.space),
            damage=col(lambda ct: ct.damage),
            cost=col(_cost),
            is_hero=col(lambda ct: ct.kind == HERO),
            is_unit=col(lambda ct: ct.is_unit),
            is_ground_unit=col(lambda ct: ct.kind in ("ground", GS)),
            is_space_unit=col(lambda ct: ct.kind in (SPACE, GS)),
            is_attachment=col(lambda ct: ct.kind == ATTACHMENT),
            is_psion=col(lambda ct: ct.kind == PSION),
            is_action=col(lambda ct: ct.kind == ACTION),
            can_attack=col(_can_attack),
            pilot=col(lambda ct: "pilot" in ct.keywords),
            captain=col(lambda ct: "captain" in ct.keywords),
            psionic=col(lambda ct: "psionic" in ct.keywords),
            fighter=col(lambda ct: "fighter" in ct.keywords),
            ship=col(lambda ct: "ship" in ct.keywords),
            facility=col(lambda ct: "facility" in ct.keywords),
            extra_draw=col(lambda ct: "extra_draw" in ct.keywords),
            ion_cannon=col(lambda ct: "ion_cannon" in ct.keywords),
            shields=col(lambda ct: "shields" in ct.keywords),
            ability=col(lambda ct: ability_of_type[ct.index]),
            type_ability=ability_of_type,
            type_effect=effects,
            hero_types=lists.hero_types,
            psion_types=lists.psion_types,
            attachment_types=lists.attachment_types,
            end_types=lists.end_types,
            max_draw=draw_max + lists.extra_draws,
            copied_heroes=lists.copied_heroes,
        )


def _instances(
    types: tuple[CardType, ...],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]:
    """(type of each instance, its owner, each side's instances): the Rebel deck first, then the
    Imperial deck, each in card-list order."""
    type_of: list[int] = []
    owner: list[int] = []
    per_side: list[list[int]] = [[], []]
    for side in (REBEL, 1 - REBEL):
        for ct in types:
            if ct.side != side:
                continue
            for _ in range(ct.count):
                per_side[side].append(len(type_of))
                type_of.append(ct.index)
                owner.append(side)
    return tuple(type_of), tuple(owner), (tuple(per_side[0]), tuple(per_side[1]))


def _effect(ct: CardType) -> Effect | None:
    return None if ct.ability is None else BY_KEY[ct.ability]


def _code(effect: Effect | None) -> int:
    return int(Ability.NONE if effect is None else effect.ability)


def _cost(ct: CardType) -> int:
    return ct.cost or 0  # 0 where not printed


def _can_attack(ct: CardType) -> bool:
    """R11: a unit attacks unless it is a Defense card or a Facility without May Attack."""
    if not ct.is_unit or "defense" in ct.keywords:
        return False
    return "facility" not in ct.keywords or "may_attack" in ct.keywords


class _TypeLists(NamedTuple):
    """The card types of each kind the action space and the rules list, in card-list order."""

    hero_types: tuple[int, ...]
    psion_types: tuple[int, ...]
    attachment_types: tuple[int, ...]
    end_types: tuple[int, ...]
    extra_draws: int  # copies of "Draw 1 extra card per turn" units (R8)
    copied_heroes: dict[int, int]


def _type_lists(types: tuple[CardType, ...], effects: tuple[Effect | None, ...]) -> _TypeLists:
    def of_kind(kind: str) -> tuple[int, ...]:
        return tuple(ct.index for ct in types if ct.kind == kind)

    return _TypeLists(
        hero_types=of_kind(HERO),
        psion_types=of_kind(PSION),
        attachment_types=of_kind(ATTACHMENT),
        end_types=tuple(
            ct.index for ct, e in zip(types, effects, strict=True) if _played_on_target(e)
        ),
        extra_draws=sum(ct.count for ct in types if "extra_draw" in ct.keywords),
        copied_heroes={ct.index: ct.count for ct in types if ct.kind == HERO and ct.count > 1},
    )


def _played_on_target(effect: Effect | None) -> bool:
    """An end-phase card played on a target (R26, R28, R29)."""
    return effect is not None and not effect.is_trick and effect.target is not None
