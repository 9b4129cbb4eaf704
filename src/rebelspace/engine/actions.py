"""Actions: small immutable values with a text form and a stable integer id.

Every decision is one action from a fixed-size action space built from the card list and the
rules options, so agents can use action masks. Cards are named by card type, not by instance:
two Rebel Soldiers in the same place are the same choice, and an id never tells which copy of a
hidden card is meant. Combinatorial choices (battle groups, blocks, casualties) are split into
small steps (docs/architecture.md, "Decisions as small steps").

An ``Action`` is what the rules' handlers take (``rules.HANDLERS[kind](state, action)``), with
one field per thing an action names. Ids come from the action space by structure, never by
arithmetic: the space enumerates its actions once and maps an action's ``ActionKey`` to its
id (``ActionSpace.encode``; ``decode`` the other way), and the rules' hot path reads tables
built from the same enumeration (``add_id[group][card]`` and the like).

Layout: each kind owns a contiguous block of ids; the fields each kind names:

====================  ==========================================  =========================
kind                  text                                        fields
====================  ==========================================  =========================
DRAW                  ``draw 2``                                  count
NO_ATTACK             ``no attack``
ATTACK                ``attack``                                  (done forming groups)
FORM_GROUND           ``new ground group with Rebel Soldier``     card
FORM_SPACE            ``new space group with Stunt Fighters``     card
ADD                   ``add Princess to group 1``                 card, group
ION                   ``Ion Cannon destroys Space Cruiser in      card, group
                      group 1``
ION_HOLD              ``Ion Cannon holds fire``
BLOCK                 ``block group 2 with Battle Walkers``       card, group
DONE_BLOCKING         ``done blocking``
TARGET                ``group 1 targets (inactive) Princess``     card, group, zone
DONE_TARGETING        ``done targeting``
PLAY_TRICK            ``play Surprise Attack``                    card
PLAY_PSION            ``play ESP on Mysterious Emperor``          card, target (the hero)
PASS                  ``pass``
PICK                  ``pick Rebel Soldier as a casualty``        card
DEPLOY                ``deploy Rebel Soldier``                    card
ATTACH                ``attach Laser Sword to Princess``          card, target (the hero)
DONE_DEPLOYING        ``done deploying``
PLAY_END              ``play Rebel Spies``                        card
PLAY_END_ON           ``play Convert on Bounty Hunter``           card, target
END_TURN              ``end turn``
DISCARD               ``discard Rebel Soldier``                   card
====================  ==========================================  =========================

Copies. In an edited card list a hero may have several copies, and two copies in play can
differ: other attachments, the other zone, another battle group. For such hero types only,
the actions that choose a unit in play also come naming one copy: ``add Princess #2 to group
1``, ``pick Princess #1 as a casualty``, ``attach Laser Sword to Princess #2``, ``play ESP on
Princess #2``, ``play Convert on Princess #2``, ``block``/``group ... targets``/``new ... group
with`` likewise. ``#k`` (``Action.copy``) is the k-th copy of that hero on its controller's
side, counting the Active Zone then the Inactive Zone in the order the view lists them
(``UnitView.copy``). The plain action chooses the first candidate; a copy action is legal for
each later candidate that differs from every earlier one, so identical copies never add
choices. These ids follow all others, so a card list without copied heroes (the printed one)
has exactly the plain action space.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import astuple, dataclass, replace
from enum import IntEnum, StrEnum

from .abilities import Target
from .errors import InvalidActionError
from .tables import Tables


class Kind(IntEnum):
    DRAW = 0
    NO_ATTACK = 1
    ATTACK = 2
    FORM_GROUND = 3
    FORM_SPACE = 4
    ADD = 5
    ION = 6
    ION_HOLD = 7
    BLOCK = 8
    DONE_BLOCKING = 9
    TARGET = 10
    DONE_TARGETING = 11
    PLAY_TRICK = 12
    PLAY_PSION = 13
    PASS = 14
    PICK = 15
    DEPLOY = 16
    ATTACH = 17
    DONE_DEPLOYING = 18
    PLAY_END = 19
    PLAY_END_ON = 20
    END_TURN = 21
    DISCARD = 22

    @property
    def wire(self) -> ActionKind:
        """The kind as views and the protocol name it: its member name in lower case."""
        return ActionKind(self.name.lower())


class ActionKind(StrEnum):
    """``Kind``'s wire words, the type of the views' field (``Kind.wire``; a test checks that
    the two list the same kinds in the same order)."""

    DRAW = "draw"
    NO_ATTACK = "no_attack"
    ATTACK = "attack"
    FORM_GROUND = "form_ground"
    FORM_SPACE = "form_space"
    ADD = "add"
    ION = "ion"
    ION_HOLD = "ion_hold"
    BLOCK = "block"
    DONE_BLOCKING = "done_blocking"
    TARGET = "target"
    DONE_TARGETING = "done_targeting"
    PLAY_TRICK = "play_trick"
    PLAY_PSION = "play_psion"
    PASS = "pass"
    PICK = "pick"
    DEPLOY = "deploy"
    ATTACH = "attach"
    DONE_DEPLOYING = "done_deploying"
    PLAY_END = "play_end"
    PLAY_END_ON = "play_end_on"
    END_TURN = "end_turn"
    DISCARD = "discard"


#: The actions that play a battle card in R17's battle-tricks window: Surprise Attack, Trap,
#: Multiple Targets (R22) and the psion cards (R24).
BATTLE_CARD_KINDS = frozenset({Kind.PLAY_TRICK, Kind.PLAY_PSION})


ACTIVE_ZONE, INACTIVE_ZONE = 0, 1


@dataclass(frozen=True, slots=True)
class Action:
    """One decision, as the rules' handlers take it (``rules.HANDLERS[kind](state, action)``).

    ``card``/``target`` are card type indices (-1: none), ``group`` is 0-based (-1: none),
    ``zone`` is a TARGET's zone (``ACTIVE_ZONE``/``INACTIVE_ZONE``, else -1), ``count`` the
    cards of a DRAW (else 0), ``copy`` the copy of a copied hero (0: the first candidate; k >= 1:
    the k-th copy, module docstring "Copies"). Each field means one thing for every kind.
    """

    id: int
    kind: Kind
    card: int = -1
    group: int = -1
    target: int = -1
    zone: int = -1
    count: int = 0
    text: str = ""
    copy: int = 0

    def __str__(self) -> str:
        return self.text

    @property
    def n(self) -> int:
        """The cards of a DRAW: ``count``'s older name, which views and records still read."""
        return self.count

    @property
    def key(self) -> ActionKey:
        """The action's fields without its id and text: what ``ActionSpace.encode`` maps."""
        return ActionKey(
            self.kind, self.card, self.group, self.target, self.zone, self.count, self.copy
        )


@dataclass(frozen=True, slots=True)
class ActionKey:
    """An action's structure (every field but the id and the text): the action space's key."""

    kind: Kind
    card: int = -1
    group: int = -1
    target: int = -1
    zone: int = -1
    count: int = 0
    copy: int = 0


def _plain(actions: list[Action], kind: Kind) -> list[Action]:
    """The actions of ``kind`` that name no copy."""
    return [a for a in actions if a.kind == kind and not a.copy]


def _target_of(tables: Tables, card_type: int) -> Target:
    """The target of an end-phase card played on a target (``Tables.end_types``)."""
    effect = tables.type_effect[card_type]
    assert effect is not None and effect.target is not None
    return effect.target


class ActionSpace:
    """The fixed action space of one card list and rules options: id <-> Action <-> text."""

    def __init__(self, tables: Tables, max_groups: int) -> None:
        self.tables = tables
        self.max_groups = max_groups
        names = tables.names
        ntypes = len(names)
        actions: list[Action] = []

        def add(kind: Kind, text: str, **fields: int) -> None:
            actions.append(Action(len(actions), kind, text=text, **fields))

        # The order of the ids (which the records, agents and trained policies rely on).
        self._add_turn(add, tables)
        self._add_groups(add, tables, max_groups)
        self._add_ion_blocks_targets(add, tables, max_groups)
        self._add_battle(add, tables)
        self._add_deploy_and_end(add, tables)
        self._add_copies(add, tables, max_groups)

        self.actions: tuple[Action, ...] = tuple(actions)
        self.size = len(actions)
        self._by_text = {a.text.lower(): a.id for a in actions}
        self.ntypes = ntypes
        # Every id is found from the action's structure, never computed: ``encode`` maps an
        # action's key to its id, and the tables below (built once, from the actions' fields)
        # serve the rules' hot path, which lists legal ids by card type and group.
        self._index: dict[ActionKey, int] = {a.key: a.id for a in actions}
        # The copy action of a plain action: (plain id, k) -> id (copied heroes only).
        self.copy_of: dict[tuple[int, int], int] = {
            (self._index[replace(a.key, copy=0)], a.copy): a.id for a in actions if a.copy
        }
        self.no_attack = self.id_of(Kind.NO_ATTACK)
        self.attack = self.id_of(Kind.ATTACK)
        self.ion_hold = self.id_of(Kind.ION_HOLD)
        self.done_blocking = self.id_of(Kind.DONE_BLOCKING)
        self.done_targeting = self.id_of(Kind.DONE_TARGETING)
        self.pass_ = self.id_of(Kind.PASS)
        self.done_deploying = self.id_of(Kind.DONE_DEPLOYING)
        self.end_turn = self.id_of(Kind.END_TURN)
        #: ``draw_id[n]``: drawing n cards (index 0 holds -1: there is no "draw 0").
        self.draw_id: tuple[int, ...] = tuple(
            self._index.get(ActionKey(Kind.DRAW, count=n), -1) for n in range(tables.max_draw + 1)
        )
        # Per card type: ``form_ground_id[card]`` and so on.
        self.form_ground_id = self._by_card(Kind.FORM_GROUND)
        self.form_space_id = self._by_card(Kind.FORM_SPACE)
        self.pick_id = self._by_card(Kind.PICK)
        self.deploy_id = self._by_card(Kind.DEPLOY)
        self.discard_id = self._by_card(Kind.DISCARD)
        # Per group, then card type: ``add_id[group][card]`` and so on.
        self.add_id = self._by_group(Kind.ADD)
        self.ion_id = self._by_group(Kind.ION)
        self.block_id = self._by_group(Kind.BLOCK)
        #: ``target_id[group][zone][card]``.
        self.target_id: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
            tuple(self._by_card(Kind.TARGET, group=g, zone=z) for z in (ACTIVE_ZONE, INACTIVE_ZONE))
            for g in range(max_groups)
        )
        # The cards that exist only for some types: dictionaries of the plain actions.
        self.trick_id = {a.card: a.id for a in _plain(actions, Kind.PLAY_TRICK)}
        self.psion_id = {(a.card, a.target): a.id for a in _plain(actions, Kind.PLAY_PSION)}
        self.attach_id = {(a.card, a.target): a.id for a in _plain(actions, Kind.ATTACH)}
        self.end_id = {a.card: a.id for a in _plain(actions, Kind.PLAY_END)}
        self.end_on_id = {(a.card, a.target): a.id for a in _plain(actions, Kind.PLAY_END_ON)}

    def _by_card(self, kind: Kind, *, group: int = -1, zone: int = -1) -> tuple[int, ...]:
        """The plain ids of ``kind`` (in ``group``, ``zone``) indexed by card type."""
        index = self._index
        return tuple(
            index[ActionKey(kind, card=t, group=group, zone=zone)] for t in range(self.ntypes)
        )

    def _by_group(self, kind: Kind) -> tuple[tuple[int, ...], ...]:
        """The plain ids of ``kind`` indexed by group, then card type."""
        return tuple(self._by_card(kind, group=g) for g in range(self.max_groups))

    @staticmethod
    def _add_turn(add: Callable[..., None], tables: Tables) -> None:
        """Draws, then attacking or not (R8, R11)."""
        for n in range(1, tables.max_draw + 1):
            add(Kind.DRAW, f"draw {n}", count=n)
        add(Kind.NO_ATTACK, "no attack")
        add(Kind.ATTACK, "attack")

    @staticmethod
    def _add_groups(add: Callable[..., None], tables: Tables, max_groups: int) -> None:
        """Forming attack groups (R12)."""
        names = tables.names
        all_types = range(len(names))
        for t in all_types:
            add(Kind.FORM_GROUND, f"new ground group with {names[t]}", card=t)
        for t in all_types:
            add(Kind.FORM_SPACE, f"new space group with {names[t]}", card=t)
        for g in range(max_groups):
            for t in all_types:
                add(Kind.ADD, f"add {names[t]} to group {g + 1}", card=t, group=g)

    @staticmethod
    def _add_ion_blocks_targets(add: Callable[..., None], tables: Tables, max_groups: int) -> None:
        """The Ion Cannon, blocks and targets (R14-R16)."""
        names = tables.names
        groups = range(max_groups)
        all_types = range(len(names))
        for g in groups:
            for t in all_types:
                add(Kind.ION, f"Ion Cannon destroys {names[t]} in group {g + 1}", card=t, group=g)
        add(Kind.ION_HOLD, "Ion Cannon holds fire")
        for g in groups:
            for t in all_types:
                add(Kind.BLOCK, f"block group {g + 1} with {names[t]}", card=t, group=g)
        add(Kind.DONE_BLOCKING, "done blocking")
        for g in groups:
            for zone, label in ((ACTIVE_ZONE, ""), (INACTIVE_ZONE, "inactive ")):
                for t in all_types:
                    add(
                        Kind.TARGET,
                        f"group {g + 1} targets {label}{names[t]}",
                        card=t,
                        group=g,
                        zone=zone,
                    )
        add(Kind.DONE_TARGETING, "done targeting")

    @staticmethod
    def _add_battle(add: Callable[..., None], tables: Tables) -> None:
        """Battle tricks, psion cards and casualties (R17-R19, R24)."""
        names = tables.names
        # Per card type, not per copy: a type with no copies still has its ids, so the
        # action space of an edited card list keeps the same layout.
        for t, effect in enumerate(tables.type_effect):
            if effect is not None and effect.is_trick:
                add(Kind.PLAY_TRICK, f"play {names[t]}", card=t)
        for t in tables.psion_types:
            for h in tables.hero_types:
                add(Kind.PLAY_PSION, f"play {names[t]} on {names[h]}", card=t, target=h)
        add(Kind.PASS, "pass")
        for t in range(len(names)):
            add(Kind.PICK, f"pick {names[t]} as a casualty", card=t)

    @staticmethod
    def _add_deploy_and_end(add: Callable[..., None], tables: Tables) -> None:
        """Deploying and attaching, end-phase cards, the end of the turn and discards."""
        names = tables.names
        effects = tables.type_effect
        all_types = range(len(names))
        for t in all_types:
            add(Kind.DEPLOY, f"deploy {names[t]}", card=t)
        for t in tables.attachment_types:
            for h in tables.hero_types:
                add(Kind.ATTACH, f"attach {names[t]} to {names[h]}", card=t, target=h)
        add(Kind.DONE_DEPLOYING, "done deploying")
        for t, effect in enumerate(effects):
            if effect is not None and not effect.is_trick and effect.target is None:
                add(Kind.PLAY_END, f"play {names[t]}", card=t)
        for t in tables.end_types:
            word = _target_of(tables, t).word
            for u in all_types:
                add(Kind.PLAY_END_ON, f"play {names[t]} {word} {names[u]}", card=t, target=u)
        add(Kind.END_TURN, "end turn")
        for t in all_types:
            add(Kind.DISCARD, f"discard {names[t]}", card=t)

    @staticmethod
    def _add_copies(add: Callable[..., None], tables: Tables, max_groups: int) -> None:
        """The copy actions of copied heroes (module docstring, "Copies")."""
        names = tables.names
        # End-phase cards played on a hero in play (R28): there, copies can differ.
        on_heroes = [t for t in tables.end_types if _target_of(tables, t).pool.copies_differ]
        for h, count in sorted(tables.copied_heroes.items()):
            for k in range(1, count + 1):
                hero = f"{names[h]} #{k}"
                add(Kind.FORM_GROUND, f"new ground group with {hero}", card=h, copy=k)
                add(Kind.FORM_SPACE, f"new space group with {hero}", card=h, copy=k)
                for g in range(max_groups):
                    add(Kind.ADD, f"add {hero} to group {g + 1}", card=h, group=g, copy=k)
                    add(Kind.BLOCK, f"block group {g + 1} with {hero}", card=h, group=g, copy=k)
                    for zone, label in ((ACTIVE_ZONE, ""), (INACTIVE_ZONE, "inactive ")):
                        text = f"group {g + 1} targets {label}{hero}"
                        add(Kind.TARGET, text, card=h, group=g, zone=zone, copy=k)
                add(Kind.PICK, f"pick {hero} as a casualty", card=h, copy=k)
                for t in tables.attachment_types:
                    add(Kind.ATTACH, f"attach {names[t]} to {hero}", card=t, target=h, copy=k)
                for t in tables.psion_types:
                    add(Kind.PLAY_PSION, f"play {names[t]} on {hero}", card=t, target=h, copy=k)
                for t in on_heroes:
                    word = _target_of(tables, t).word
                    add(
                        Kind.PLAY_END_ON, f"play {names[t]} {word} {hero}", card=t, target=h, copy=k
                    )

    def id_of(
        self,
        kind: Kind,
        *,
        card: int = -1,
        group: int = -1,
        target: int = -1,
        zone: int = -1,
        count: int = 0,
        copy: int = 0,
    ) -> int:
        """The id of the action of ``kind`` with these fields (``encode`` by fields)."""
        return self.encode(ActionKey(kind, card, group, target, zone, count, copy))

    def encode(self, key: ActionKey | Action) -> int:
        """The id of an action given by its structure (an ``ActionKey`` or an ``Action``)."""
        if isinstance(key, Action):
            key = key.key
        try:
            return self._index[key]
        except KeyError:
            raise InvalidActionError(f"no {key.kind.name} action with {astuple(key)[1:]}") from None

    def decode(self, action_id: int) -> Action:
        """The action of an id (``space[action_id]`` too)."""
        return self.actions[action_id]

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, action_id: int) -> Action:
        return self.actions[action_id]

    def text(self, action_id: int) -> str:
        return self.actions[action_id].text

    def parse(self, text: str) -> int:
        """The id of an action's text form (case and surrounding space ignored)."""
        key = " ".join(text.split()).lower()
        try:
            return self._by_text[key]
        except KeyError:
            raise InvalidActionError(f"{text!r} is not an action of Rebel Space") from None

    def ids(self, action: int | str | Action) -> int:
        """Accept an id, a text form or an Action; return the id."""
        if isinstance(action, Action):
            if not 0 <= action.id < self.size or self.actions[action.id] != action:
                raise InvalidActionError(
                    f"{action.text!r} (id {action.id}) is not an action of this game's action "
                    "space (made for other cards or rules?)"
                )
            return action.id
        if isinstance(action, str):
            return self.parse(action)
        if isinstance(action, bool):
            raise InvalidActionError(f"an action is an id, a text or an Action, got {action!r}")
        try:
            action = operator.index(action)  # ints, and integer types such as numpy's
        except TypeError:
            raise InvalidActionError(
                f"an action is an id, a text or an Action, got {action!r}"
            ) from None
        if not 0 <= action < self.size:
            raise InvalidActionError(
                f"action id {action} is outside the action space 0..{self.size - 1}"
            )
        return action
