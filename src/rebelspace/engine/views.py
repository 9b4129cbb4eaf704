"""A player's view of a game: exactly what R5 lets that player know, and nothing else.

Views name cards, never card instances: an instance number of a card in a hand or a deck would
tell which card it is, so hidden cards appear only as counts. Everything in a view is sorted or
in public order, so two positions that a player cannot tell apart give equal views.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from .state import PHASE_OF_STEP, PLAYER_NAMES, STEP_NAMES

if TYPE_CHECKING:
    from .state import GameState

KIND_NAMES = ("ground", "space")
# Battle results by the codes of rules/battle.py.
RESULT_NAMES = ("attacker won", "defender won", "both destroyed")


@dataclass(frozen=True, slots=True)
class UnitView:
    name: str
    owner: str  # "rebel" or "imperial": a converted hero is controlled by the other side (R28)
    attachments: tuple[str, ...]


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
    kind: str
    units: tuple[UnitView, ...]
    blockers: tuple[UnitView, ...]
    target: UnitView | None
    target_zone: str | None  # "active" or "inactive" (R16)
    result: str | None  # once fought: "attacker won", "defender won" or "both destroyed"


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
    player: str
    turn: int
    active_player: str  # whose turn it is
    to_move: str | None  # whose decision it is; None once the game is over
    phase: str
    step: str
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
    legal_actions: tuple[tuple[int, str], ...]  # (id, text), only when it is your decision
    log: tuple[str, ...]
    winner: str | None
    end_reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def make_view(s: GameState, player: int) -> PlayerView:
    if type(player) is not int or player not in (0, 1):
        raise ValueError(f"player must be 0 (Rebel) or 1 (Imperial), got {player!r}")
    t = s.ctx.tables
    names = t.names
    type_of = t.type_of

    def name(c: int) -> str:
        return names[type_of[c]]

    def unit(u: int) -> UnitView:
        return UnitView(name(u), PLAYER_NAMES[t.owner[u]].lower(), tuple(name(a) for a in s.att[u]))

    def side(p: int) -> SideView:
        return SideView(
            player=PLAYER_NAMES[p].lower(),
            deck_size=len(s.deck[p]),
            hand_size=len(s.hand[p]),
            hand=tuple(sorted(name(c) for c in s.hand[p])) if p == player else None,
            active=tuple(unit(u) for u in s.active[p]),
            inactive=tuple(unit(u) for u in s.inactive[p]),
            discard=tuple(name(c) for c in s.discard[p]),
        )

    battle = None
    if s.groups:
        groups = []
        for g, units in enumerate(s.groups):
            target = s.targets[g]
            groups.append(
                GroupView(
                    number=g + 1,
                    kind=KIND_NAMES[s.gkind[g]],
                    units=tuple(unit(u) for u in units),
                    blockers=tuple(unit(u) for u in s.blocks[g]),
                    target=unit(target) if target >= 0 else None,
                    result=RESULT_NAMES[s.results[g]] if s.results[g] >= 0 else None,
                    target_zone=(
                        ("inactive" if target in s.inactive[1 - s.player] else "active")
                        if target >= 0
                        else None
                    ),
                )
            )
        battle = BattleView(
            groups=tuple(groups),
            attack_bonus=s.atk_bonus,
            defense_bonus=s.def_bonus,
            psion_cards=tuple((name(c), name(h)) for c, h in s.psions if c in s.att[h]),
            casualty_budget=s.cas[2] if s.cas else None,
            casualty_group=s.cas[0] + 1 if s.cas else None,
            casualty_from=("attacker", "defender")[s.cas[1]] if s.cas else None,
            passes=s.passes,
            ion_cannons_fired=len(s.ion_used),
            next_battle=s.battle_next + 1,
            pending_damage=s.pending_damage,
        )
    mine = player == s.to_move
    return PlayerView(
        player=PLAYER_NAMES[player].lower(),
        turn=s.turn,
        active_player=PLAYER_NAMES[s.player].lower(),
        to_move=PLAYER_NAMES[s.to_move].lower() if s.to_move >= 0 else None,
        phase=PHASE_OF_STEP[s.step],
        step=STEP_NAMES[s.step],
        deploy_points=s.points if s.phase == "deploy" else None,
        you=side(player),
        opponent=side(1 - player),
        own_deck_contents=tuple(sorted(name(c) for c in s.deck[player])),
        opponent_known_hand=tuple(sorted(names[ct] for ct in s.known[player])),
        extra_attacks=s.extra_attacks,
        battle=battle,
        revealed_hands=tuple(s.seen[player]),
        legal_actions=tuple((a, s.action_text(a)) for a in s.legal_actions()) if mine else (),
        log=tuple(s.log_lines(player)),
        winner=PLAYER_NAMES[s.outcome.winner].lower() if s.outcome else None,
        end_reason=s.outcome.reason if s.outcome else None,
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
