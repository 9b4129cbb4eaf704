"""The heuristic's choices that were measured against each other (issue 17), as one frozen
value: ``DEFAULT`` is how the heuristic plays, ``BEFORE`` how it played before issue 17.

``benchmarks/heuristic_variants.py`` plays one style against another in duplicate format;
a choice is on by default only if it won there (the module doc of each step says what it
does). A style is part of the attack plan cache's key, so two styles never share a plan.
"""

from __future__ import annotations

from typing import NamedTuple


class Style(NamedTuple):
    # Battle tricks: a card's gain is what it brings once the opponent may answer it (Trap
    # against Surprise Attack and the reverse), weighted by the chance it holds the answer.
    reply_aware: bool = True
    # How much the chance of an answer weighs: 1 is its expected value; more plays safe,
    # keeping the card when the answer is likely.
    answer_weight: float = 2.0
    # The same for the defender's Trap (4 was measured: it lost 0.2 points to 2).
    defender_answer_weight: float = 2.0
    # A battle card is played only when it gains at least this much (deck cards): what
    # keeping it for a later battle is worth.
    trick_min_gain: float = 0.5
    # Multiple Targets only when the units left free would attack in the extra phase, and
    # for what that attack is expected to bring.
    extra_attack_plan: bool = True
    # Attack plans expect the defender's Trap (+2 per blocker, R30) when it may hold one,
    # so that a narrow win or an even trade into a possible Trap is not planned.
    trap_in_plans: bool = False
    # Attack plans count the attacker's own Surprise Attack (+2 per attacking unit) when it
    # holds one; blocks count the defender's own Trap when it holds one.
    own_tricks_in_plans: bool = True
    # When units stay home to block the counterattack (``guard.py``), the rest is planned
    # again: a group the guard broke up may now lose for nothing.
    replan_after_guard: bool = True
    # Draw the least allowed with this many cards in hand (deck cards are the score, R9).
    hand_full: int = 8
    # ...and when the deck would be within this many cards of the opponent's threat.
    deck_margin: int = 2


DEFAULT = Style()
BEFORE = Style(
    reply_aware=False,
    answer_weight=1.0,
    defender_answer_weight=1.0,
    trick_min_gain=0.5,
    extra_attack_plan=False,
    trap_in_plans=False,
    own_tricks_in_plans=False,
    replan_after_guard=False,
    hand_full=8,
    deck_margin=2,
)
