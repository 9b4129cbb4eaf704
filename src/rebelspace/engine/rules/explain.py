"""Why an action is not legal: the message of ``IllegalActionError``.

Only called on the error path, so it may be slow; it never changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Action, Kind
from ..enums import KIND_NAMES, PLAYER_NAMES
from ..steps import (
    BLOCK,
    CASUALTY,
    DEPLOY,
    DISCARD,
    DRAW,
    END,
    FORM,
    ION,
    STEP_NAMES,
    TARGET,
    TRICKS,
)

if TYPE_CHECKING:
    from ..state import GameState

STEP_KINDS = {
    DRAW: {Kind.DRAW},
    FORM: {Kind.NO_ATTACK, Kind.ATTACK, Kind.FORM_GROUND, Kind.FORM_SPACE, Kind.ADD},
    ION: {Kind.ION, Kind.ION_HOLD},
    BLOCK: {Kind.BLOCK, Kind.DONE_BLOCKING},
    TARGET: {Kind.TARGET, Kind.DONE_TARGETING},
    TRICKS: {Kind.PLAY_TRICK, Kind.PLAY_PSION, Kind.PASS},
    CASUALTY: {Kind.PICK},
    DEPLOY: {Kind.DEPLOY, Kind.ATTACH, Kind.DONE_DEPLOYING},
    END: {Kind.PLAY_END, Kind.PLAY_END_ON, Kind.END_TURN},
    DISCARD: {Kind.DISCARD},
}
HAND_KINDS = {
    Kind.PLAY_TRICK,
    Kind.PLAY_PSION,
    Kind.DEPLOY,
    Kind.ATTACH,
    Kind.PLAY_END,
    Kind.PLAY_END_ON,
    Kind.DISCARD,
}


def explain_illegal(s: GameState, action_id: int, legal: list[int]) -> str:
    space = s.ctx.space
    action = space[action_id]
    who = PLAYER_NAMES[s.to_move]
    step = STEP_NAMES[s.step]
    head = f"{action.text!r} is not legal now"
    if action.kind not in STEP_KINDS.get(s.step, set()):
        reason = f"it is {who}'s decision in the {step} step"
    else:
        reason = _missing_card(s, action, who) or _other_reason(s, action, legal, who, step)
    options = "; ".join(space.text(a) for a in legal[:12])
    more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
    return f"{head}: {reason}. Legal: {options}{more}"


def _missing_card(s: GameState, action: Action, who: str) -> str | None:
    """Why an action of the right step is not legal, if a card it names is missing or too dear."""
    t = s.ctx.tables
    names = t.names
    if action.kind in HAND_KINDS and not any(
        t.type_of[c] == action.card for c in s.hand[s.to_move]
    ):
        return f"{who} has no {names[action.card]} in hand"
    if action.kind in (Kind.DEPLOY, Kind.ATTACH) and (
        t.cost[_first_instance(s, action.card)] > s.points
    ):
        return (
            f"{names[action.card]} costs more than the {s.points} deploy "
            f"point{'s' if s.points != 1 else ''} {who} has left"
        )
    if action.kind == Kind.ATTACH and not _controls(s, s.to_move, action.target):
        return f"{who} controls no {names[action.target]} to attach it to"
    if action.kind in (Kind.FORM_GROUND, Kind.FORM_SPACE, Kind.ADD, Kind.BLOCK) and not any(
        t.type_of[u] == action.card and not s.busy[u] for u in s.active[s.to_move]
    ):
        return f"{who} has no {names[action.card]} free in the Active Zone"
    return None


def _other_reason(s: GameState, action: Action, legal: list[int], who: str, step: str) -> str:
    """Why an action of the right step, whose cards are there, is not legal."""
    space = s.ctx.space
    if action.kind == Kind.ADD and action.group < len(s.groups):
        kind = KIND_NAMES[s.gkind[action.group]]
        return (
            f"{space.tables.names[action.card]} cannot join {kind} group {action.group + 1} "
            "(R12: ground groups hold ground units and heroes; space groups hold space units "
            "and one Pilot per Fighter, one Captain per Ship)"
        )
    if action.kind == Kind.DRAW:
        return f"{who} may draw {', '.join(space.text(a)[5:] for a in legal)} card(s) now"
    if action.group >= 0 and action.group >= len(s.groups):
        return f"there is no group {action.group + 1}"
    return f"{who} cannot do that in the {step} step"


def _first_instance(s: GameState, card_type: int) -> int:
    return s.ctx.tables.type_of.index(card_type)


def _controls(s: GameState, player: int, card_type: int) -> bool:
    type_of = s.ctx.tables.type_of
    return any(type_of[u] == card_type for z in (s.active[player], s.inactive[player]) for u in z)
