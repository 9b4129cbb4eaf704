"""A player's view of a game: exactly what R5 lets that player know, and nothing else.

Views name cards, never card instances: an instance number of a card in a hand or a deck would
tell which card it is, so hidden cards appear only as counts. Everything in a view is sorted or
in public order, so two positions that a player cannot tell apart give equal views.

Views carry the numbers the rules use (``values.py``): each unit's current ratings, each
group's battle values and the damage it would deal, so no consumer computes them again. Sides,
steps, phases, group kinds and action kinds are ``StrEnum`` members: enums in Python that are
their plain names in JSON.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from .actions import ActionKind, Kind
from .cache import per_object
from .enums import SIDES, GroupKind, GroupKindName, Side
from .events import RESULT_NAMES
from .read import (
    Battle,
    Sight,
    attachments,
    battle,
    battle_bonuses,
    busy,
    deck_size,
    deploy_points,
    extra_attacks,
    hand_size,
    in_battle,
    in_play,
    sight,
    target_inactive,
)
from .steps import PhaseName, Step, StepName
from .values import damage_preview, defenders, group_value, hero_places, unit_stats

if TYPE_CHECKING:
    from .state import GameContext, GameState


__all__ = [
    "SIDES",
    "ZONE_NAMES",
    "ActionKind",
    "ActionView",
    "BattleView",
    "GroupKindName",
    "GroupView",
    "HeroPlacesView",
    "PhaseName",
    "PlayerView",
    "Side",
    "SideView",
    "StepName",
    "UnitView",
    "action_view",
    "make_public_view",
    "make_view",
]

# The words of sides, group kinds, steps, phases and action kinds are defined once, each beside
# its enum (enums.py, steps.py, actions.py); the views read them from there.
_STEPS: tuple[StepName, ...] = tuple(step.wire for step in Step)
_PHASES: tuple[PhaseName, ...] = tuple(step.phase for step in Step)
_ACTION_KINDS: tuple[ActionKind, ...] = tuple(k.wire for k in Kind)
_KIND_NAMES: tuple[GroupKindName, ...] = tuple(k.wire for k in GroupKind)
ZONE_NAMES = ("active", "inactive")


@dataclass(frozen=True, slots=True)
class UnitView:
    """A unit in play with its current ratings (R13 with attachments and psion cards, plus the
    R30 bonus while it fights)."""

    name: str
    owner: Side  # a converted hero is controlled by the other side (R28)
    attachments: tuple[str, ...]
    ground: int
    space: int
    damage: int
    copy: int  # which copy of its card it is on its side: Active Zone, then Inactive, from 1


@dataclass(frozen=True, slots=True)
class SideView:
    """One player's public cards (and, for the viewer's own side, the hand)."""

    player: str
    deck_size: int
    hand_size: int
    hand: tuple[str, ...] | None  # None for the opponent: hidden (R5)
    active: tuple[UnitView, ...]
    inactive: tuple[UnitView, ...]
    discard: tuple[str, ...]  # in the order discarded, top last


@dataclass(frozen=True, slots=True)
class GroupView:
    number: int  # 1-based, as in action texts
    kind: GroupKindName
    units: tuple[UnitView, ...]
    blockers: tuple[UnitView, ...]
    target: UnitView | None
    target_zone: str | None  # "active" or "inactive" (R16)
    result: str | None  # once fought: "attacker won", "defender won" or "both destroyed"
    attack_value: int  # R13, R30: the group's battle value now
    defense_value: int | None  # its blockers' or target's, once it has any
    # R20: the damage it deals if it stays unblocked and untargeting, after Defense Shields
    # (None once blocked, targeting or empty); ``stopped``: what the shields take from Ships.
    damage: int | None
    stopped: int
    # R12: a space group's places for heroes and the heroes aboard (None for a ground group),
    # so that no client counts Fighters and Ships again.
    hero_places: HeroPlacesView | None


@dataclass(frozen=True, slots=True)
class HeroPlacesView:
    """R12: a space group's pilot places (one per Fighter), captain places (one per Ship) and
    the heroes aboard (``values.hero_places``)."""

    fighters: int
    ships: int
    heroes: int


@dataclass(frozen=True, slots=True)
class ActionView:
    """A legal action as structured fields (``actions.py``): the client never parses text.
    Cards are names; ``group`` is 1-based; ``zone`` is "active" or "inactive" for targets."""

    id: int
    kind: ActionKind
    card: str | None
    group: int | None
    target: str | None
    zone: str | None
    n: int | None
    text: str
    copy: int | None  # the copy of a copied hero the action names (UnitView.copy), else None


@dataclass(frozen=True, slots=True)
class BattleView:
    """The attack phase in progress: groups, blocks, targets and bonuses (public)."""

    groups: tuple[GroupView, ...]
    attack_bonus: int
    defense_bonus: int
    psion_cards: tuple[tuple[str, str], ...]  # (psion card, hero)
    casualty_budget: int | None  # while the loser picks casualties (R19)
    casualty_group: int | None
    casualty_from: str | None  # "attacker" or "defender": whose winning group loses units
    passes: int  # passes in a row in the battle-tricks window (R17)
    ion_cannons_fired: int  # R14
    next_battle: int  # battles before this group number are over (R38)
    pending_damage: int  # damage measured when the battles began, dealt at the end (R33)


@dataclass(frozen=True, slots=True)
class PlayerView:
    player: str  # a Side, or "spectator" in the public view
    turn: int
    active_player: Side  # whose turn it is
    to_move: Side | None  # whose decision it is; None once the game is over
    phase: PhaseName
    step: StepName
    deploy_points: int | None
    you: SideView
    opponent: SideView
    own_deck_contents: tuple[str, ...]  # sorted: what is left in your deck, order unknown (R5)
    # Cards you know are in the opponent's hand: shown by a spy (R27) or a search (R26) and
    # not played since. Sorted.
    opponent_known_hand: tuple[str, ...]
    extra_attacks: int  # R22: extra attack phases still to come this turn
    battle: BattleView | None
    revealed_hands: tuple[tuple[int, tuple[str, ...]], ...]  # R27: (turn, opponent's hand)
    legal_actions: tuple[ActionView, ...]  # only when it is your decision
    log: tuple[str, ...]
    winner: Side | None
    end_reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def make_view(s: GameState, player: int) -> PlayerView:
    if type(player) is not int or player not in (0, 1):
        raise ValueError(f"player must be 0 (Rebel) or 1 (Imperial), got {player!r}")
    return _view(s, sight(s, player), tuple(s.log_lines(player)))


# The parts of views that depend only on the game's context and a few small values are built
# once and shared, because a view is built at every decision of every game played through the
# ``Agent`` interface (``rebelspace simulate``, the server) and most agents read little of it:
# building each unit's and action's view again was most of a random game's time (performance.md).
# Views are frozen, so sharing their parts between views changes nothing a reader can see.
# Bounds on the memory they hold (a deck's entry is two tuples of up to 70 entries): entries of
# each content-keyed memo before it starts again, and contexts remembered (the lab may play
# many rules variants in one process). Within a game most views hit what the game's earlier
# views built, so starting again costs little.
_UNITS_LIMIT = 4096
_DECKS_LIMIT = 1024
_CONTEXTS_LIMIT = 8


class _Memo:
    """One game context's shared view parts."""

    __slots__ = ("actions", "names", "owners", "sorted_names", "units")

    def __init__(self, ctx: GameContext) -> None:
        tables = ctx.tables
        self.names: tuple[str, ...] = tables.instance_names
        self.owners: tuple[Side, ...] = tuple([SIDES[p] for p in tables.owner])
        # action id -> its view (an action's fields are fixed by the action space)
        self.actions: list[ActionView | None] = [None] * len(ctx.space)
        # (unit, its attachments, its battle bonus, its copy) -> its view: what fixes a
        # UnitView (its ratings are its card's and its attachments' plus the bonus, R13, R30)
        self.units: dict[tuple[int, tuple[int, ...], int, int], UnitView] = {}
        # a pile's instances -> their names, sorted (a deck is named at every view, and changes
        # only when its player draws or searches)
        self.sorted_names: dict[tuple[int, ...], tuple[str, ...]] = {}

    def names_sorted(self, cards: Sequence[int]) -> tuple[str, ...]:
        key = tuple(cards)
        hit = self.sorted_names.get(key)
        if hit is None:
            hit = tuple(sorted(map(self.names.__getitem__, key)))
            if len(self.sorted_names) >= _DECKS_LIMIT:
                self.sorted_names.clear()
            self.sorted_names[key] = hit
        return hit


def _new_memo(ctx: GameContext) -> _Memo:
    return _Memo(ctx)


_memo_of = per_object(_new_memo, _CONTEXTS_LIMIT)


def _view(s: GameState, w: Sight, log: tuple[str, ...]) -> PlayerView:
    """The view of what ``w`` sees (R5 is decided in ``read.sight``, not here)."""
    memo = _memo_of(s.ctx)
    units = _Units(s, memo)
    me, other = w.side, 1 - w.side
    outcome = s.outcome
    points = deploy_points(s)
    known = w.known
    return PlayerView(
        player="spectator" if w.spectator else SIDES[me],
        turn=s.turn,
        active_player=SIDES[s.player],
        to_move=SIDES[s.to_move] if s.to_move >= 0 else None,
        phase=_PHASES[s.step],
        step=_STEPS[s.step],
        deploy_points=points,
        you=units.side(me, (w.active, w.inactive, w.discard), None if w.spectator else w.hand),
        opponent=units.side(other, (w.opp_active, w.opp_inactive, w.opp_discard), None),
        own_deck_contents=memo.names_sorted(w.deck) if w.deck else (),
        opponent_known_hand=(
            tuple(sorted(map(s.ctx.tables.names.__getitem__, known))) if known else ()
        ),
        extra_attacks=extra_attacks(s),
        battle=_battle_view(s, units, battle(s)) if in_battle(s) else None,
        revealed_hands=tuple(w.revealed),
        legal_actions=_legal_views(s, memo) if not w.spectator and me == s.to_move else (),
        log=log,
        winner=SIDES[outcome.winner] if outcome else None,
        end_reason=outcome.reason if outcome else None,
    )


def _legal_views(s: GameState, memo: _Memo) -> tuple[ActionView, ...]:
    made = memo.actions
    out: list[ActionView] = []
    for a in s.legal_actions():
        view = made[a]
        if view is None:
            view = made[a] = _action_view(s, a)
        out.append(view)
    return tuple(out)


class _Units:
    """The units and sides of one position as views show them."""

    def __init__(self, s: GameState, memo: _Memo) -> None:
        self.s = s
        self.memo = memo
        type_of = s.ctx.tables.type_of
        self.att = attachments(s)
        self.busy = busy(s)
        self.bonuses = battle_bonuses(s)
        # unit -> which copy of its type on its side (from 1)
        copy_of: dict[int, int] = {}
        for p in (0, 1):
            count: dict[int, int] = {}
            for u in in_play(s, p):
                t = type_of[u]
                copy_of[u] = count[t] = count.get(t, 0) + 1
        self.copy_of = copy_of

    def name(self, c: int) -> str:
        return self.memo.names[c]

    def unit(self, u: int, controller: int) -> UnitView:
        s = self.s
        bonus = self.bonuses[controller != s.player] if self.busy[u] else 0
        att = self.att[u]
        copy = self.copy_of[u]
        key = (u, att, bonus, copy)
        memo = self.memo
        made = memo.units.get(key)
        if made is None:
            stats = unit_stats(s, u, bonus)
            names = memo.names
            made = UnitView(
                names[u],
                memo.owners[u],
                tuple(map(names.__getitem__, att)) if att else (),
                stats.ground,
                stats.space,
                stats.damage,
                copy,
            )
            if len(memo.units) >= _UNITS_LIMIT:
                memo.units.clear()
            memo.units[key] = made
        return made

    def units(self, us: Sequence[int], controller: int) -> tuple[UnitView, ...]:
        out: list[UnitView] = []
        for u in us:
            out.append(self.unit(u, controller))
        return tuple(out)

    def side(
        self, p: int, piles: tuple[Sequence[int], ...], hand: Sequence[int] | None
    ) -> SideView:
        """Side ``p``'s view from its (active, inactive, discard) piles; ``hand`` None: hidden."""
        s = self.s
        active, inactive, discarded = piles
        names = self.memo.names
        return SideView(
            player=SIDES[p],
            deck_size=deck_size(s, p),
            hand_size=hand_size(s, p),
            hand=None if hand is None else tuple(sorted(map(names.__getitem__, hand))),
            active=self.units(active, p),
            inactive=self.units(inactive, p),
            discard=tuple(map(names.__getitem__, discarded)),
        )


def _group_view(s: GameState, units: _Units, b: Battle, g: int) -> GroupView:
    attacker = s.player
    defender = 1 - attacker
    members = b.groups[g]
    target = b.targets[g]
    kind = b.kinds[g]
    fighting = defenders(s, g)
    preview = damage_preview(s, g)
    zone = None
    if target >= 0:
        zone = "inactive" if target_inactive(s, g) else "active"
    return GroupView(
        number=g + 1,
        kind=_KIND_NAMES[kind],
        units=units.units(members, attacker),
        blockers=units.units(b.blocks[g], defender),
        target=units.unit(target, defender) if target >= 0 else None,
        result=RESULT_NAMES[b.results[g]] if b.results[g] >= 0 else None,
        target_zone=zone,
        attack_value=group_value(s, members, kind, b.attack_bonus),
        defense_value=group_value(s, fighting, kind, b.defense_bonus) if fighting else None,
        damage=None if preview is None else preview.damage,
        stopped=0 if preview is None else preview.stopped,
        hero_places=HeroPlacesView(*hero_places(s, members)) if kind == GroupKind.SPACE else None,
    )


def _battle_view(s: GameState, units: _Units, b: Battle) -> BattleView:
    cas = b.casualty
    groups: list[GroupView] = []
    for g in range(len(b.groups)):
        groups.append(_group_view(s, units, b, g))
    return BattleView(
        groups=tuple(groups),
        attack_bonus=b.attack_bonus,
        defense_bonus=b.defense_bonus,
        psion_cards=tuple((units.name(c), units.name(h)) for c, h in b.psions),
        casualty_budget=cas.budget if cas else None,
        casualty_group=cas.group + 1 if cas else None,
        casualty_from=("attacker", "defender")[cas.side] if cas else None,
        passes=b.passes,
        ion_cannons_fired=b.ion_cannons_fired,
        next_battle=b.next_battle + 1,
        pending_damage=b.pending_damage,
    )


def action_view(s: GameState, action_id: int) -> ActionView:
    """One action's structured fields, as views and the protocol show them (made once per
    action of a game context: they depend on nothing else)."""
    made = _memo_of(s.ctx).actions
    view = made[action_id]
    if view is None:
        view = made[action_id] = _action_view(s, action_id)
    return view


def _action_view(s: GameState, action_id: int) -> ActionView:
    a = s.ctx.space[action_id]
    names = s.ctx.tables.names
    return ActionView(
        id=a.id,
        kind=_ACTION_KINDS[a.kind],
        card=names[a.card] if a.card >= 0 else None,
        group=a.group + 1 if a.group >= 0 else None,
        target=names[a.target] if a.target >= 0 else None,
        zone=ZONE_NAMES[a.zone] if a.zone >= 0 else None,
        n=a.n if a.kind == Kind.DRAW else None,
        text=a.text,
        copy=a.copy or None,
    )


def make_public_view(s: GameState) -> PlayerView:
    """What a spectator may know: only public information, for no player in particular.

    The Rebel side is ``you`` and the Imperial side ``opponent``; ``player`` is "spectator".
    Both hands are hidden (sizes only), no deck contents, no spy snapshots, no known hand
    cards, no legal actions, and the log without either player's hidden lines (draws,
    starting hands, spied hands): ``read.sight(s, None)``.
    """
    return _view(s, sight(s, None), tuple(s.public_log_lines()))
