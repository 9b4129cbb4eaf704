"""The door into a position for agents, environments and views: typed reads of a ``GameState``.

A ``GameState`` is a handful of flat lists shaped for the rules and for cheap copies (see
``state.py``); that shape is the engine's to change. Everything outside the engine reads a
position through these functions instead of the state's fields (``tests/test_import_graph.py``
fails on a field read outside the engine), as OpenSpiel's games are read through an observer
and python-chess's board through its accessors. The reads return the state's own lists and
tuples, typed ``Sequence`` (read-only): nothing is copied, so the hot loops (the encoder, the
heuristic inside ISMCTS rollouts) pay one function call, and a caller must not change them.

What a player may see (R5) is decided once, in ``visible`` (``sight``: the same with its fields
named): the views (``views.make_view``, ``make_public_view``) and the observation encoder
(``env/encoding.py``) are both built from it. The other reads are public information (boards,
discard piles, sizes, the battle in progress) or the player's own cards, named as such:
``hand`` is for the player deciding with it.

Not behind the door (these are the state's public API and always have been): ``ctx``, ``seed``,
``turn``, ``player`` (whose turn), ``step``, ``to_move``, ``outcome``, ``events``, ``history``
and the methods (``legal_actions``, ``apply``, ``clone``, ``view``...).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from .cards import REBEL
from .steps import DEPLOY, Casualties

if TYPE_CHECKING:
    from .state import GameState

__all__ = [
    "Battle",
    "Seen",
    "Sight",
    "active",
    "attached",
    "attachments",
    "battle",
    "battle_bonuses",
    "busy",
    "casualty",
    "deck_order",
    "deck_size",
    "deploy_points",
    "discard",
    "extra_attacks",
    "hand",
    "hand_size",
    "in_battle",
    "inactive",
    "in_play",
    "known_hand",
    "psion_cards",
    "sight",
    "target_inactive",
    "visible",
    "zones",
]


class Sight(NamedTuple):
    """What R5 lets one viewer see of the cards, from the viewer's side ("own": the viewer's;
    for a spectator, the Rebel side's, with nothing hidden shown). Instances, as the state holds
    them; a consumer that shows cards names them by type (``ctx.tables.type_of``), since which
    copy of a card is where is not something a player can know.

    The order of the fields is the order the incremental encoder compares them in."""

    hand: Sequence[int]  # own hand; () for a spectator (hidden, R5)
    deck: Sequence[int]  # what is left in own deck: its contents, never its order (R5); ()
    discard: Sequence[int]  # own discard pile, in the order discarded (public)
    opp_discard: Sequence[int]
    known: tuple[int, ...]  # card types known to be in the opponent's hand (R26, R27), sorted
    active: Sequence[int]  # own Active Zone (public)
    inactive: Sequence[int]
    opp_active: Sequence[int]
    opp_inactive: Sequence[int]
    att: Sequence[tuple[int, ...]]  # per instance: the cards attached to it (public, R28)
    revealed: Sequence[tuple[int, tuple[str, ...]]]  # R27: (turn, opponent's hand) shown to us
    opp_hand_size: int  # the sizes of the other hand and deck are public (own: len(hand)...)
    opp_deck_size: int
    side: int  # whose side "own" is
    spectator: bool  # no player's hidden cards: hands hidden, no deck contents, nothing known


_NOTHING: tuple[int, ...] = ()
_NO_REVEALS: tuple[tuple[int, tuple[str, ...]], ...] = ()
# ``tuple.__new__(Sight, fields)`` is what ``Sight(*fields)`` does, without the Python frame of
# the NamedTuple's generated ``__new__``: half the cost (~0.2 us), and the encoder asks for a
# sight at every observation.
_new = tuple.__new__


#: ``Sight``'s fields as a plain tuple, in the same order: what ``visible`` returns.
Seen = tuple[
    Sequence[int],
    Sequence[int],
    Sequence[int],
    Sequence[int],
    tuple[int, ...],
    Sequence[int],
    Sequence[int],
    Sequence[int],
    Sequence[int],
    Sequence[tuple[int, ...]],
    Sequence[tuple[int, tuple[str, ...]]],
    int,
    int,
    int,
    bool,
]
# The positions of ``Seen``, by ``Sight``'s field names (the encoder reads them by position).
HAND: Final = 0
DECK: Final = 1
DISCARD: Final = 2
OPP_DISCARD: Final = 3
KNOWN: Final = 4
ACTIVE: Final = 5
INACTIVE: Final = 6
OPP_ACTIVE: Final = 7
OPP_INACTIVE: Final = 8
ATT: Final = 9
REVEALED: Final = 10
OPP_HAND_SIZE: Final = 11
OPP_DECK_SIZE: Final = 12
SIDE: Final = 13


def visible(s: GameState, viewer: int | None) -> Seen:
    """R5, decided here and nowhere else: what ``viewer`` (0 or 1; None, a spectator) may see,
    as a plain tuple (``sight`` names its fields; the encoder, a hot path, reads it by position:
    a tuple costs a third of a NamedTuple to build).

    A player sees their own hand and the contents of their own deck (not its order), the sizes
    of the other hand and both decks, every card in play and in the discard piles, the card
    types they know to be in the other hand (shown by a spy, R27, or taken by a search, R26,
    and not played since) and the hands spies showed them. A spectator sees the public part.
    """
    if viewer is None:
        p, o = REBEL, 1 - REBEL
        return (
            _NOTHING,
            _NOTHING,
            s.discard[p],
            s.discard[o],
            _NOTHING,
            s.active[p],
            s.inactive[p],
            s.active[o],
            s.inactive[o],
            s.att,
            _NO_REVEALS,
            len(s.hand[o]),
            len(s.deck[o]),
            p,
            True,
        )
    o = 1 - viewer
    return (
        s.hand[viewer],
        s.deck[viewer],
        s.discard[viewer],
        s.discard[o],
        s.known[viewer],
        s.active[viewer],
        s.inactive[viewer],
        s.active[o],
        s.inactive[o],
        s.att,
        s.seen[viewer],
        len(s.hand[o]),
        len(s.deck[o]),
        viewer,
        False,
    )


def sight(s: GameState, viewer: int | None) -> Sight:
    """``visible`` with its fields named: what ``viewer`` may see (R5)."""
    return _new(Sight, visible(s, viewer))


class Battle(NamedTuple):
    """The attack phase in progress (all public), per attacking group ``g`` in parallel
    sequences: ``groups[g]`` its units, ``kinds[g]`` GROUND_BATTLE or SPACE_BATTLE,
    ``blocks[g]`` its blockers (empty: unblocked), ``targets[g]`` the targeted unit or
    ``values.NO_TARGET`` / ``TARGET_DESTROYED`` (R16), ``results[g]`` -1 before its battle, else
    its ``BattleResult``. A group may be empty once its units are destroyed."""

    groups: Sequence[tuple[int, ...]]
    kinds: Sequence[int]
    blocks: Sequence[tuple[int, ...]]
    targets: Sequence[int]
    results: Sequence[int]
    attack_bonus: int  # R30 Surprise Attack, to each attacking unit's rating
    defense_bonus: int  # R30 Trap
    passes: int  # passes in a row in the battle-tricks window (R17)
    ion_cannons_fired: int  # R14
    next_battle: int  # the group whose battle resolves next (0-based, R38)
    pending_damage: int  # measured when the battles began, dealt when they are over (R33)
    casualty: Casualties | None  # while the loser picks casualties (R19)
    psions: tuple[tuple[int, int], ...]  # ``psion_cards``: (psion card, hero) that still count


def battle(s: GameState) -> Battle:
    """The attack phase as it stands (no groups outside one)."""
    return _new(
        Battle,
        (
            s.groups,
            s.gkind,
            s.blocks,
            s.targets,
            s.results,
            s.atk_bonus,
            s.def_bonus,
            s.passes,
            len(s.ion_used),
            s.battle_next,
            s.pending_damage,
            s.cas,
            psion_cards(s) if s.psions else (),  # no call in the usual case: a hot path
        ),
    )


def in_battle(s: GameState) -> bool:
    """Whether an attack phase has groups (``battle`` then has something to say)."""
    return bool(s.groups)


def battle_bonuses(s: GameState) -> tuple[int, int]:
    """R30: (the attacker's bonus, the defender's bonus) to the ratings of their fighting units."""
    return s.atk_bonus, s.def_bonus


def casualty(s: GameState) -> Casualties | None:
    """R19 while the loser of a battle picks casualties: its group, whose group won, the
    rating points still to pick and the battle's kind; None at any other time."""
    return s.cas


def psion_cards(s: GameState) -> tuple[tuple[int, int], ...]:
    """(psion card, hero) of the psion cards played this attack phase that still count: a
    psion card of a destroyed hero went with it (R24, R28)."""
    played = s.psions
    if not played:  # the usual case, and the encoder asks at every observation in a battle
        return played
    att = s.att
    return tuple((card, hero) for card, hero in played if card in att[hero])


def target_inactive(s: GameState, group: int) -> bool:
    """Whether group ``group``'s target is in the defender's Inactive Zone (R16)."""
    return s.targets[group] in s.inactive[1 - s.player]


def hand(s: GameState, player: int) -> Sequence[int]:
    """``player``'s hand, for ``player``'s own decisions (R5: the other player sees its size
    only, ``hand_size``, and what ``known_hand`` says)."""
    return s.hand[player]


def hand_size(s: GameState, player: int) -> int:
    return len(s.hand[player])


def deck_size(s: GameState, player: int) -> int:
    return len(s.deck[player])


def discard(s: GameState, player: int) -> Sequence[int]:
    """``player``'s discard pile, in the order discarded, top last (public, R4)."""
    return s.discard[player]


def deck_order(s: GameState, player: int) -> Sequence[int]:
    """``player``'s deck, top card last. Hidden from both players (R5: no player's decision
    may read it); for designer tools that print a whole position (``position_text.py``)."""
    return s.deck[player]


def active(s: GameState, player: int) -> Sequence[int]:
    """The units in ``player``'s Active Zone."""
    return s.active[player]


def inactive(s: GameState, player: int) -> Sequence[int]:
    """The units in ``player``'s Inactive Zone."""
    return s.inactive[player]


def zones(s: GameState, player: int) -> tuple[Sequence[int], Sequence[int]]:
    """The units ``player`` controls: (Active Zone, Inactive Zone)."""
    return s.active[player], s.inactive[player]


def in_play(s: GameState, player: int) -> list[int]:
    """Every unit ``player`` controls, Active Zone first (a new list)."""
    return s.active[player] + s.inactive[player]


def attached(s: GameState, unit: int) -> tuple[int, ...]:
    """The cards attached to ``unit``: items, companions, psion cards, a Convert marker (R28)."""
    return s.att[unit]


def attachments(s: GameState) -> Sequence[tuple[int, ...]]:
    """Per instance, the cards attached to it: ``attached`` for every unit at once, for loops."""
    return s.att


def busy(s: GameState) -> Sequence[int]:
    """Per instance, 1 while the unit is in a battle group, a block or a target this attack
    phase (it may not be used twice), else 0."""
    return s.busy


def known_hand(s: GameState, player: int) -> tuple[int, ...]:
    """The card types ``player`` knows to be in the other player's hand (R26, R27), sorted."""
    return s.known[player]


def deploy_points(s: GameState) -> int | None:
    """The deploy points left in the deploy step (R23); None in any other step."""
    return s.points if s.step == DEPLOY else None


def extra_attacks(s: GameState) -> int:
    """R22: extra attack phases still to come this turn."""
    return s.extra_attacks
