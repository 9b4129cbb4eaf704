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

from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from .actions import ActionKind, Kind
from .enums import SIDES, GroupKind, GroupKindName, Side
from .events import RESULT_NAMES
from .steps import PhaseName, Step, StepName
from .values import damage_preview, defenders, group_value, unit_stats

if TYPE_CHECKING:
    from .state import GameState


__all__ = [
    "SIDES",
    "ZONE_NAMES",
    "ActionKind",
    "ActionView",
    "BattleView",
    "GroupKindName",
    "GroupView",
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
    names = s.ctx.tables.names
    units = _Units(s)
    mine = player == s.to_move
    outcome = s.outcome
    return PlayerView(
        player=SIDES[player],
        turn=s.turn,
        active_player=SIDES[s.player],
        to_move=SIDES[s.to_move] if s.to_move >= 0 else None,
        phase=_PHASES[s.step],
        step=_STEPS[s.step],
        deploy_points=s.points if s.phase == "deploy" else None,
        you=units.side(player, player),
        opponent=units.side(1 - player, player),
        own_deck_contents=tuple(sorted(units.name(c) for c in s.deck[player])),
        opponent_known_hand=tuple(sorted(names[ct] for ct in s.known[player])),
        extra_attacks=s.extra_attacks,
        battle=_battle_view(s, units) if s.groups else None,
        revealed_hands=tuple(s.seen[player]),
        legal_actions=tuple(action_view(s, a) for a in s.legal_actions()) if mine else (),
        log=tuple(s.log_lines(player)),
        winner=SIDES[outcome.winner] if outcome else None,
        end_reason=outcome.reason if outcome else None,
    )


class _Units:
    """The units and sides of one position as views show them."""

    def __init__(self, s: GameState) -> None:
        self.s = s
        type_of = s.ctx.tables.type_of
        # unit -> which copy of its type on its side (from 1)
        self.copy_of: dict[int, int] = {}
        for p in (0, 1):
            count: dict[int, int] = {}
            for u in s.active[p] + s.inactive[p]:
                count[type_of[u]] = self.copy_of[u] = count.get(type_of[u], 0) + 1

    def name(self, c: int) -> str:
        t = self.s.ctx.tables
        return t.names[t.type_of[c]]

    def unit(self, u: int, controller: int) -> UnitView:
        s = self.s
        bonus = (s.atk_bonus if controller == s.player else s.def_bonus) if s.busy[u] else 0
        stats = unit_stats(s, u, bonus)
        return UnitView(
            self.name(u),
            SIDES[s.ctx.tables.owner[u]],
            tuple(self.name(a) for a in s.att[u]),
            stats.ground,
            stats.space,
            stats.damage,
            self.copy_of[u],
        )

    def side(self, p: int, viewer: int) -> SideView:
        s = self.s
        return SideView(
            player=SIDES[p],
            deck_size=len(s.deck[p]),
            hand_size=len(s.hand[p]),
            hand=tuple(sorted(self.name(c) for c in s.hand[p])) if p == viewer else None,
            active=tuple(self.unit(u, p) for u in s.active[p]),
            inactive=tuple(self.unit(u, p) for u in s.inactive[p]),
            discard=tuple(self.name(c) for c in s.discard[p]),
        )


def _group_view(s: GameState, units: _Units, g: int) -> GroupView:
    attacker = s.player
    defender = 1 - attacker
    members = s.groups[g]
    target = s.targets[g]
    kind = s.gkind[g]
    fighting = defenders(s, g)
    preview = damage_preview(s, g)
    zone = None
    if target >= 0:
        zone = "inactive" if target in s.inactive[defender] else "active"
    return GroupView(
        number=g + 1,
        kind=_KIND_NAMES[kind],
        units=tuple(units.unit(u, attacker) for u in members),
        blockers=tuple(units.unit(u, defender) for u in s.blocks[g]),
        target=units.unit(target, defender) if target >= 0 else None,
        result=RESULT_NAMES[s.results[g]] if s.results[g] >= 0 else None,
        target_zone=zone,
        attack_value=group_value(s, members, kind, s.atk_bonus),
        defense_value=group_value(s, fighting, kind, s.def_bonus) if fighting else None,
        damage=None if preview is None else preview.damage,
        stopped=0 if preview is None else preview.stopped,
    )


def _battle_view(s: GameState, units: _Units) -> BattleView:
    cas = s.cas
    return BattleView(
        groups=tuple(_group_view(s, units, g) for g in range(len(s.groups))),
        attack_bonus=s.atk_bonus,
        defense_bonus=s.def_bonus,
        psion_cards=tuple((units.name(c), units.name(h)) for c, h in s.psions if c in s.att[h]),
        casualty_budget=cas.budget if cas else None,
        casualty_group=cas.group + 1 if cas else None,
        casualty_from=("attacker", "defender")[cas.side] if cas else None,
        passes=s.passes,
        ion_cannons_fired=len(s.ion_used),
        next_battle=s.battle_next + 1,
        pending_damage=s.pending_damage,
    )


def action_view(s: GameState, action_id: int) -> ActionView:
    """One action's structured fields, as views and the protocol show them."""
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
    starting hands, spied hands).
    """
    view = make_view(s, 0)
    hidden = replace(view.you, hand=None)
    return replace(
        view,
        player="spectator",
        you=hidden,
        own_deck_contents=(),
        opponent_known_hand=(),
        revealed_hands=(),
        legal_actions=(),
        log=tuple(s.public_log_lines()),
    )
