"""Card instances as small integers, with every property the rules read precomputed.

A game's cards are numbered 0..N-1: the Rebel deck first, then the Imperial deck, each in
card-list order. The rules then read plain tuples indexed by instance, which is what keeps the
engine fast (no attribute lookups on card objects in the hot path).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeVar

from .cards import ACTION, ATTACHMENT, GS, HERO, PSION, REBEL, SPACE, CardDB, CardType

_T = TypeVar("_T")


class Ability(IntEnum):
    """Ability codes of action cards (``Tables.ability``, ``Tables.type_ability``)."""

    NONE = 0
    HERO_FROM_DISCARD = 1  # R26 Medi-Bot, Cybernetics
    HERO_FROM_DECK = 2  # R26 Recruit, Shuttle
    CONVERT = 3  # R28 Convert, Traitor
    SURPRISE = 4  # R30 Surprise Attack
    EXTRA_ATTACK = 5  # R22 Multiple Targets
    SPY = 6  # R27 Spies
    SABOTEUR = 7  # R29
    TRAP = 8  # R30


# Plain ints for the rules' hot paths; equal to the Ability members.
AB_NONE, AB_HERO_FROM_DISCARD, AB_HERO_FROM_DECK, AB_CONVERT = 0, 1, 2, 3
AB_SURPRISE, AB_EXTRA_ATTACK, AB_SPY, AB_SABOTEUR, AB_TRAP = 4, 5, 6, 7, 8
ABILITY_CODES = {
    "hero_from_discard": AB_HERO_FROM_DISCARD,
    "hero_from_deck": AB_HERO_FROM_DECK,
    "convert": AB_CONVERT,
    "surprise_attack": AB_SURPRISE,
    "extra_attack": AB_EXTRA_ATTACK,
    "spy": AB_SPY,
    "saboteur": AB_SABOTEUR,
    "trap": AB_TRAP,
}
# R25: end-phase cards; R17: attack-phase (battle trick) cards other than psion cards.
END_PHASE_ABILITIES = frozenset(
    {AB_HERO_FROM_DISCARD, AB_HERO_FROM_DECK, AB_CONVERT, AB_SPY, AB_SABOTEUR}
)
TRICK_ABILITIES = frozenset({AB_SURPRISE, AB_EXTRA_ATTACK, AB_TRAP})
TARGETED_END_ABILITIES = frozenset(
    {AB_HERO_FROM_DISCARD, AB_HERO_FROM_DECK, AB_CONVERT, AB_SABOTEUR}
)


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
    ability: tuple[int, ...]
    type_ability: tuple[int, ...]  # per card type index
    hero_types: tuple[int, ...]
    psion_types: tuple[int, ...]
    attachment_types: tuple[int, ...]
    end_types: tuple[int, ...]  # action cards with a target (R26, R28, R29)
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

        ability_of_type = [ABILITY_CODES.get(ct.ability or "", AB_NONE) for ct in types]
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
            hero_types=tuple(ct.index for ct in types if ct.kind == HERO),
            psion_types=tuple(ct.index for ct in types if ct.kind == PSION),
            attachment_types=tuple(ct.index for ct in types if ct.kind == ATTACHMENT),
            end_types=tuple(
                ct.index for ct in types if ability_of_type[ct.index] in TARGETED_END_ABILITIES
            ),
            max_draw=draw_max + sum(ct.count for ct in types if "extra_draw" in ct.keywords),
            copied_heroes={ct.index: ct.count for ct in types if ct.kind == HERO and ct.count > 1},
        )
