"""Card instances as small integers, with every property the rules read precomputed.

A game's cards are numbered 0..N-1: the Rebel deck first, then the Imperial deck, each in
card-list order. The rules then read plain tuples indexed by instance, which is what keeps the
engine fast (no attribute lookups on card objects in the hot path).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

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

        def col(pred: Callable[[CardType], _T]) -> tuple[_T, ...]:
            per_type = [pred(ct) for ct in types]
            return tuple(per_type[t] for t in type_of)

        effects = [None if ct.ability is None else BY_KEY[ct.ability] for ct in types]
        # Plain ints, as the rules' hot paths and the learnt features read them.
        ability_of_type = [int(Ability.NONE if e is None else e.ability) for e in effects]
        return cls(
            db=db,
            n=len(type_of),
            type_of=tuple(type_of),
            owner=tuple(owner),
            instances_of_side=(tuple(per_side[0]), tuple(per_side[1])),
            names=tuple(ct.name for ct in types),
            ground=col(lambda ct: ct.ground),
            space=col(lambda ct: ct.space),
            damage=col(lambda ct: ct.damage),
            cost=col(lambda ct: ct.cost or 0),
            is_hero=col(lambda ct: ct.kind == HERO),
            is_unit=col(lambda ct: ct.is_unit),
            is_ground_unit=col(lambda ct: ct.kind in ("ground", GS)),
            is_space_unit=col(lambda ct: ct.kind in (SPACE, GS)),
            is_attachment=col(lambda ct: ct.kind == ATTACHMENT),
            is_psion=col(lambda ct: ct.kind == PSION),
            is_action=col(lambda ct: ct.kind == ACTION),
            can_attack=col(
                lambda ct: (
                    ct.is_unit
                    and "defense" not in ct.keywords
                    and ("facility" not in ct.keywords or "may_attack" in ct.keywords)
                )
            ),
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
            type_ability=tuple(ability_of_type),
            type_effect=tuple(effects),
            hero_types=tuple(ct.index for ct in types if ct.kind == HERO),
            psion_types=tuple(ct.index for ct in types if ct.kind == PSION),
            attachment_types=tuple(ct.index for ct in types if ct.kind == ATTACHMENT),
            end_types=tuple(
                ct.index
                for ct, e in zip(types, effects, strict=True)
                if e is not None and not e.is_trick and e.target is not None
            ),
            max_draw=draw_max + sum(ct.count for ct in types if "extra_draw" in ct.keywords),
            copied_heroes={ct.index: ct.count for ct in types if ct.kind == HERO and ct.count > 1},
        )
