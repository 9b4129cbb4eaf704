"""The rules, one module per part of the turn, tied together by two tables.

``LEGAL[step]`` lists the legal action ids of a state; ``HANDLERS[kind]`` applies one
already-checked action. ``GameState.apply`` is the one place that checks legality.

The modules form layers, and none imports one beside or above it: ``copies`` (which copy of
a hero an action takes) under ``turn``, ``attack`` and ``battle`` (each phase's legal actions
and what its actions do), under ``flow`` (which step follows which, and which steps play
themselves, R34), under this package, which adds ``explain`` (why an action is not legal).
Below them all: the steps (``steps.py``) and the card abilities (``abilities/``, which play
each action card); the rules import the state's type for annotations only, never the state
module itself, so ``state.py`` can import this package at its top.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from ..actions import Kind
from ..steps import BLOCK, CASUALTY, DEPLOY, DISCARD, DRAW, END, FORM, ION, OVER, TARGET, TRICKS
from . import attack, battle, copies, flow, turn
from .explain import explain_illegal
from .flow import Automation, setup

if TYPE_CHECKING:
    from ..state import GameState

__all__ = [
    "HANDLERS",
    "LEGAL",
    "Automation",
    "apply_copy",
    "explain_illegal",
    "handle",
    "legal",
    "setup",
]


def _nothing(_s: GameState) -> list[int]:
    return []


LEGAL: dict[int, Callable[[GameState], list[int]]] = {
    DRAW: turn.legal_draw,
    FORM: attack.legal_form,
    ION: attack.legal_ion,
    BLOCK: attack.legal_block,
    TARGET: attack.legal_target,
    TRICKS: attack.legal_tricks,
    CASUALTY: battle.legal_casualty,
    DEPLOY: turn.legal_deploy,
    END: turn.legal_end,
    DISCARD: turn.legal_discard,
    OVER: _nothing,
}

# Every handler takes the whole action (state, card, group, target, n) positionally, so that
# apply() calls any of them the same way; a handler names the fields it ignores with a leading _.
Handler = Callable[["GameState", int, int, int, int], None]

# Actions that change only the position come from their phase's module; those that end a step
# or pass the decision on come from ``flow``.
_BY_KIND: dict[Kind, Handler] = {
    Kind.DRAW: flow.do_draw,
    Kind.NO_ATTACK: flow.do_no_attack,
    Kind.ATTACK: flow.do_attack,
    Kind.FORM_GROUND: attack.do_form_ground,
    Kind.FORM_SPACE: attack.do_form_space,
    Kind.ADD: attack.do_add,
    Kind.ION: flow.do_ion,
    Kind.ION_HOLD: flow.do_ion_hold,
    Kind.BLOCK: attack.do_block,
    Kind.DONE_BLOCKING: flow.do_done_blocking,
    Kind.TARGET: flow.do_target,
    Kind.DONE_TARGETING: flow.do_done_targeting,
    Kind.PLAY_TRICK: flow.do_play_trick,
    Kind.PLAY_PSION: flow.do_play_psion,
    Kind.PASS: flow.do_pass,
    Kind.PICK: flow.do_pick,
    Kind.DEPLOY: turn.do_deploy,
    Kind.ATTACH: turn.do_attach,
    Kind.DONE_DEPLOYING: flow.do_done_deploying,
    Kind.PLAY_END: turn.do_play_end,
    Kind.PLAY_END_ON: turn.do_play_end_on,
    Kind.END_TURN: flow.do_end_turn,
    Kind.DISCARD: flow.do_discard,
}
HANDLERS: tuple[Handler, ...] = tuple(_BY_KIND[k] for k in Kind)


# The same two tables as chains of direct calls, for GameState's hot path. Compiled (mypyc),
# a call through a table is a generic Python call (the arguments boxed, then parsed again by
# the callee's wrapper), a direct call to a compiled function is a C call: these are what
# ``legal_actions`` and ``apply`` use. Each must list what its table lists (tests/engine
# test_rules_tables checks them against each other); the most frequent cases come first.
_K_DRAW: Final = int(Kind.DRAW)
_K_NO_ATTACK: Final = int(Kind.NO_ATTACK)
_K_ATTACK: Final = int(Kind.ATTACK)
_K_FORM_GROUND: Final = int(Kind.FORM_GROUND)
_K_FORM_SPACE: Final = int(Kind.FORM_SPACE)
_K_ADD: Final = int(Kind.ADD)
_K_ION: Final = int(Kind.ION)
_K_ION_HOLD: Final = int(Kind.ION_HOLD)
_K_BLOCK: Final = int(Kind.BLOCK)
_K_DONE_BLOCKING: Final = int(Kind.DONE_BLOCKING)
_K_TARGET: Final = int(Kind.TARGET)
_K_DONE_TARGETING: Final = int(Kind.DONE_TARGETING)
_K_PLAY_TRICK: Final = int(Kind.PLAY_TRICK)
_K_PLAY_PSION: Final = int(Kind.PLAY_PSION)
_K_PASS: Final = int(Kind.PASS)
_K_PICK: Final = int(Kind.PICK)
_K_DEPLOY: Final = int(Kind.DEPLOY)
_K_ATTACH: Final = int(Kind.ATTACH)
_K_DONE_DEPLOYING: Final = int(Kind.DONE_DEPLOYING)
_K_PLAY_END: Final = int(Kind.PLAY_END)
_K_PLAY_END_ON: Final = int(Kind.PLAY_END_ON)
_K_END_TURN: Final = int(Kind.END_TURN)
_K_DISCARD: Final = int(Kind.DISCARD)


def legal(s: GameState) -> list[int]:  # noqa: C901, PLR0911 (one branch per step)
    """``LEGAL[s.step](s)``, by direct calls (see above)."""
    step = s.step
    if step == DEPLOY:
        return turn.legal_deploy(s)
    if step == FORM:
        return attack.legal_form(s)
    if step == DRAW:
        return turn.legal_draw(s)
    if step == TRICKS:
        return attack.legal_tricks(s)
    if step == TARGET:
        return attack.legal_target(s)
    if step == BLOCK:
        return attack.legal_block(s)
    if step == END:
        return turn.legal_end(s)
    if step == CASUALTY:
        return battle.legal_casualty(s)
    if step == ION:
        return attack.legal_ion(s)
    if step == DISCARD:
        return turn.legal_discard(s)
    return LEGAL[step](s)  # OVER, and any step added to LEGAL only


def handle(  # noqa: C901, PLR0911, PLR0912, PLR0917 (one branch per kind, positional: hot path)
    s: GameState, kind: int, card: int, group: int, target: int, extra: int
) -> None:
    """``HANDLERS[kind](s, card, group, target, extra)``, by direct calls (see above)."""
    if kind == _K_PASS:
        return flow.do_pass(s, card, group, target, extra)
    if kind == _K_DEPLOY:
        return turn.do_deploy(s, card, group, target, extra)
    if kind == _K_DONE_DEPLOYING:
        return flow.do_done_deploying(s, card, group, target, extra)
    if kind == _K_DRAW:
        return flow.do_draw(s, card, group, target, extra)
    if kind == _K_END_TURN:
        return flow.do_end_turn(s, card, group, target, extra)
    if kind == _K_ADD:
        return attack.do_add(s, card, group, target, extra)
    if kind == _K_FORM_GROUND:
        return attack.do_form_ground(s, card, group, target, extra)
    if kind == _K_FORM_SPACE:
        return attack.do_form_space(s, card, group, target, extra)
    if kind == _K_ATTACK:
        return flow.do_attack(s, card, group, target, extra)
    if kind == _K_NO_ATTACK:
        return flow.do_no_attack(s, card, group, target, extra)
    if kind == _K_BLOCK:
        return attack.do_block(s, card, group, target, extra)
    if kind == _K_DONE_BLOCKING:
        return flow.do_done_blocking(s, card, group, target, extra)
    if kind == _K_TARGET:
        return flow.do_target(s, card, group, target, extra)
    if kind == _K_DONE_TARGETING:
        return flow.do_done_targeting(s, card, group, target, extra)
    if kind == _K_PICK:
        return flow.do_pick(s, card, group, target, extra)
    if kind == _K_ATTACH:
        return turn.do_attach(s, card, group, target, extra)
    if kind == _K_PLAY_TRICK:
        return flow.do_play_trick(s, card, group, target, extra)
    if kind == _K_PLAY_PSION:
        return flow.do_play_psion(s, card, group, target, extra)
    if kind == _K_ION:
        return flow.do_ion(s, card, group, target, extra)
    if kind == _K_ION_HOLD:
        return flow.do_ion_hold(s, card, group, target, extra)
    if kind == _K_PLAY_END:
        return turn.do_play_end(s, card, group, target, extra)
    if kind == _K_PLAY_END_ON:
        return turn.do_play_end_on(s, card, group, target, extra)
    if kind == _K_DISCARD:
        return flow.do_discard(s, card, group, target, extra)
    return HANDLERS[kind](s, card, group, target, extra)  # a kind added to HANDLERS only


# The state and an action's fields, positionally as GameState.apply decodes them (the hot path).
def apply_copy(  # noqa: PLR0917
    s: GameState, kind: int, card: int, group: int, target: int, extra: int, copy: int
) -> None:
    """A copy action (actions.py, "Copies"): the handler with the chosen copy as its unit."""
    unit = copies.chosen(s, kind, card, target, copy)
    HANDLERS[kind](s, card, group, target, extra, unit)  # type: ignore[call-arg]
