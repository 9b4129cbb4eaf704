"""Features of one legal action in one position, for the distilled policy: numbers any state
gives, in pure Python, from the side to move.

The state is the player's own sample of their view (``engine.sampling``), never the true
hidden cards. An action is described by what it is (its kind, whether the heuristic would
choose it, the numbers of the card it names) and by what it changes at once: the learnt
value's features and log-odds of the position after it, minus before (``agents.value``). A
step whose effect comes later (a unit added to a battle group) changes little at once, so
the same changes are also measured after one playout: the heuristic plays both sides on from
the action to the end of the opponent's next turn (``PLAYOUT_TURNS``), as each rollout of the
teacher's search does. Without the playout, the fitted policy only matched the heuristic
(49.5% against it over 100 deals); with it, 81-82% (docs/model-card.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from rebelspace.engine import GameState
from rebelspace.engine.actions import Kind

from ..heuristic import heuristic_action
from ..heuristic.facts import card_facts
from ..value import NAMES as VALUE_NAMES
from ..value import features as value_features
from ..value import shipped

KINDS = tuple(k.name.lower() for k in Kind)
CARD = ("worth/10", "use/10", "ground/5", "space/5", "damage/3", "cost/5", "hero")
NAMES = (
    ("heuristic's choice",)
    + tuple(f"kind {k}" for k in KINDS)
    + tuple(f"kind {k} and heuristic's choice" for k in KINDS)
    + tuple(f"card {c}" for c in CARD)
    + ("value log-odds change",)
    + tuple(f"change of {n}" for n in VALUE_NAMES)
    + ("playout log-odds change",)
    + tuple(f"playout change of {n}" for n in VALUE_NAMES)
)
SIZE = len(NAMES)

_KIND_AT = 1
_KIND_HEUR_AT = _KIND_AT + len(KINDS)
_CARD_AT = _KIND_HEUR_AT + len(KINDS)
_VALUE_AT = _CARD_AT + len(CARD)
_PLAYOUT_AT = _VALUE_AT + 1 + len(VALUE_NAMES)
#: How far the playout of each action goes: to the end of this many turns, counting the
#: current one.
PLAYOUT_TURNS = 2
WON = 10.0  # the log-odds change of an action that wins the game (and minus, loses it)


def action_features(state: GameState, legal: Sequence[int]) -> list[list[float]]:
    """One row of ``SIZE`` numbers for each action of ``legal`` (two or more), for
    ``state.to_move``; ``state`` is not changed."""
    me = state.to_move
    ctx = state.ctx
    space, tables, facts = ctx.space, ctx.tables, card_facts(ctx)
    choice = heuristic_action(state, legal)
    before = value_features(state, me)
    logit_before = shipped().dot(before)
    rows = []
    for a in legal:
        row = [0.0] * SIZE
        heur = 1.0 if a == choice else 0.0
        decoded = space.actions[a]
        row[0] = heur
        row[_KIND_AT + decoded.kind] = 1.0
        row[_KIND_HEUR_AT + decoded.kind] = heur
        if decoded.card >= 0:
            i = facts.first_of_type[decoded.card]
            row[_CARD_AT : _CARD_AT + len(CARD)] = [
                facts.worth[i] / 10.0,
                facts.use[i] / 10.0,
                tables.ground[i] / 5.0,
                tables.space[i] / 5.0,
                tables.damage[i] / 3.0,
                tables.cost[i] / 5.0,
                1.0 if tables.is_hero[i] else 0.0,
            ]
        after = state.clone()
        after.apply(a)
        _change(row, _VALUE_AT, after, me, before, logit_before)
        _play_on(after, state.turn + PLAYOUT_TURNS)
        _change(row, _PLAYOUT_AT, after, me, before, logit_before)
        rows.append(row)
    return rows


def _change(
    row: list[float], at: int, after: GameState, me: int, before: list[float], logit: float
) -> None:
    """Write the learnt log-odds change and the value features' changes from ``before`` to
    ``after`` into ``row`` from ``at``."""
    if after.outcome is not None:
        row[at] = WON if after.outcome.winner == me else -WON
        return
    now = value_features(after, me)
    row[at] = shipped().dot(now) - logit
    for i, (x, y) in enumerate(zip(now, before, strict=True)):
        row[at + 1 + i] = x - y


def _play_on(state: GameState, turn: int) -> None:
    """One playout: the heuristic plays both sides until ``turn`` starts or the game ends."""
    while state.outcome is None and state.turn < turn:
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else heuristic_action(state, legal))
