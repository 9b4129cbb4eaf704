"""Where the turn is: the steps at which the game waits for a decision, their words and phases,
the two kinds of battle, and the half-made casualty choice (R19).

They live below both the state (``state.py``) and the rules (``rules/``), which both read them,
so neither imports the other's module to get them: the rules never import the state at run
time (only its type, for annotations), and the state imports the rules at the top.

Each step is ``Step`` (the engine's index) and its wire word is ``StepName`` (what views and
the protocol say), the two listed side by side here in the same order; ``STEP_NAMES``,
``PHASE_OF_STEP``, the plain-int constants and ``Step.wire``/``Step.phase`` are derived from
them (tests/test_import_graph.py checks that nothing else spells them out).
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import NamedTuple

from .enums import GroupKind


class Step(IntEnum):
    """Where in the turn the game waits for a decision (``GameState.step``)."""

    DRAW = 0
    FORM = 1
    ION = 2
    BLOCK = 3
    TARGET = 4
    TRICKS = 5
    CASUALTY = 6
    DEPLOY = 7
    END = 8
    DISCARD = 9
    OVER = 10

    @property
    def wire(self) -> StepName:
        """The step as views and the protocol name it."""
        return _STEP_NAMES[self]

    @property
    def phase(self) -> PhaseName:
        """The phase of the turn the step belongs to."""
        return _PHASES[self]


class StepName(StrEnum):
    """Each ``Step``'s word in views and the protocol, in ``Step`` order."""

    DRAW = "draw"
    FORM_GROUPS = "form groups"
    ION_CANNON = "ion cannon"
    BLOCK = "block"
    TARGET = "target"
    BATTLE_TRICKS = "battle tricks"
    CASUALTIES = "casualties"
    DEPLOY = "deploy"
    END = "end"
    DISCARD = "discard"
    GAME_OVER = "game over"


class PhaseName(StrEnum):
    """The phases of a turn (R7), as views and the protocol name them."""

    DRAW = "draw"
    ATTACK = "attack"
    DEPLOY = "deploy"
    END = "end"
    OVER = "over"


_STEP_NAMES: tuple[StepName, ...] = tuple(StepName)
# Each step's phase, by Step: the attack phase runs from forming groups to the casualties.
_PHASES: tuple[PhaseName, ...] = tuple(
    PhaseName.DRAW
    if step is Step.DRAW
    else PhaseName.ATTACK
    if Step.FORM <= step <= Step.CASUALTY
    else PhaseName.DEPLOY
    if step is Step.DEPLOY
    else PhaseName.OVER
    if step is Step.OVER
    else PhaseName.END
    for step in Step
)

# Plain ints for the rules' hot paths; equal to the Step members.
DRAW, FORM, ION, BLOCK, TARGET, TRICKS, CASUALTY, DEPLOY, END, DISCARD, OVER = map(int, Step)
#: The steps' wire words by step, as plain strings.
STEP_NAMES: tuple[str, ...] = tuple(n.value for n in _STEP_NAMES)
#: The steps' phases by step, as plain strings.
PHASE_OF_STEP: tuple[str, ...] = tuple(p.value for p in _PHASES)

GROUND_BATTLE, SPACE_BATTLE = map(int, GroupKind)  # plain ints for the rules' hot paths


class Casualties(NamedTuple):
    """R19 while the loser picks casualties (``GameState.cas``)."""

    group: int  # the battle's attacking group
    side: int  # whose group won: 0 the attacker's, 1 the defender's
    budget: int  # rating points the loser may still pick
    kind: int  # GROUND_BATTLE or SPACE_BATTLE
