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
from typing import TYPE_CHECKING

from ..actions import Action, Kind
from ..steps import BLOCK, CASUALTY, DEPLOY, DISCARD, DRAW, END, FORM, ION, OVER, TARGET, TRICKS
from . import attack, battle, flow, turn
from .explain import explain_illegal
from .flow import Automation, setup

if TYPE_CHECKING:
    from ..state import GameState

__all__ = ["HANDLERS", "LEGAL", "Automation", "explain_illegal", "legal", "setup"]


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

# Every handler takes the state and the decoded action (``actions.Action``: its kind, card,
# group, target, zone, count and copy), so that apply() calls any of them the same way; a handler
# that ignores the action names it ``_a``. A copy action's handler finds its copy itself
# (``copies.chosen``).
Handler = Callable[["GameState", Action], None]

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


# The LEGAL table as a chain of direct calls, for GameState's hot path. Compiled (mypyc), a
# call through a table is a generic Python call, a direct call to a compiled function is a C
# call: this is what ``legal_actions`` uses. It must list what its table lists
# (tests/engine/test_rules_tables.py checks them against each other); the most frequent
# steps come first.


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
