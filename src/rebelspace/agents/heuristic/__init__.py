"""A rule-based player: the choices a decent human player would make, one decision at a time.

Strategy, by step (the steps of ``engine/rules``):

- **Draw**: the most allowed, unless the hand is already large or the deck is low next to what
  the opponent's units could deal next turn; then the least. Never the last card if avoidable.
- **Forming groups**: a plan from every attack-capable active unit (those already put in groups
  included, so the plan is the same at each small step). Heroes go where they are stronger,
  space heroes riding in free Pilot/Captain places. For ground and space separately a few
  ways to split the units into groups are tried (one big group, groups that no block can beat,
  groups that beat any single blocker, one group per unit); each is scored against the
  blocks this player would itself make in the defender's place (damage through, units lost on
  each side) and the best is kept if it beats not attacking. With no blockers that is simply
  everything in one group: free damage. Unless the attack wins, enough units stay home to
  chump-block a counterattack that would otherwise empty the deck. The plan (cached, as it is
  asked for at every small step) is followed with "new group"/"add" actions and "attack"
  (or "no attack").
- **Ion Cannon**: destroy the biggest attacking Ship.
- **Blocks**: groups in order of the damage they deal; each gets the weakest single unit that
  beats it (a lone winner loses nothing), else the smallest strongest-first set that beats
  it, else a tie when that trade is good. Groups still unblocked are chump-blocked with the
  cheapest unit when their damage is large or the deck would not survive it. A Trap in the
  defender's hand counts (+2 per blocker, R30).
- **Targets**: an unblocked group targets the opposing unit it beats whose worth most exceeds
  the damage given up (heroes, facilities, expensive units), unless the damage would win now.
- **Battle tricks**: the card that most improves the battles in progress (turns a lost or tied
  battle into a win; ESP on a group that deals damage), once the opponent may answer it (Trap
  against Surprise Attack and the reverse, weighted by the chance it holds one, so that a card
  is not burnt for a result the answer restores); Multiple Targets when the extra attack phase
  would attack (this phase played out on a copy, both players passing); otherwise pass.
- **Casualties**: the set the budget allows that costs the winner most.
- **Deploy**: the best use of the points (a small knapsack over usefulness: damage, ratings,
  hero and facility bonuses), items and companions on the strongest hero.
- **End**: Convert/Traitor on the best opposing hero, Medi-Bot/Cybernetics for the best hero in
  the discard pile, Recruit/Shuttle for the best hero in the deck (not when the deck is low),
  Saboteur on the most valuable facility, Spies on a hand worth seeing; then end the turn and
  discard the least useful cards.

The choices measured against each other in issue 17 are the fields of ``Style`` (``style``):
``DEFAULT`` is how the heuristic plays, ``BEFORE`` how it played before, and ``styled_action``
plays any style (``benchmarks/heuristic_variants.py``).

The package: ``facts`` (card values and shared measures), ``replies`` (the chance of an
answer), ``style``, ``blocks`` (the blocking model and the block step), ``plan`` and ``guard``
(the attack plan and the form step), ``steps`` (draw, Ion Cannon, targets, tricks,
casualties), ``deploy``, ``end`` (end of turn and discard), and ``agent`` (the table of steps
and the entry points below). The weights are named
constants beside the code that uses them, each with what it stands for.

``heuristic_action`` reads only what the player to move may know (R5): their own hand, every
public zone, deck and hand sizes, the battle in progress and ``read.known_hand``, each
through the engine's door (``engine/read.py``). It never reads
the opponent's hand or any deck's order, so it can run on a determinized state (search
rollouts) or on the true state (fast benchmarks) with the same result. ``HeuristicAgent`` is
the standalone agent: it samples a state from its view and asks ``heuristic_action``.
"""

from __future__ import annotations

from .agent import STEP_HANDLERS, HeuristicAgent, StepHandler, heuristic_action, styled_action
from .plan import clear_plan_cache
from .style import BEFORE, DEFAULT, Style

__all__ = [
    "BEFORE",
    "DEFAULT",
    "STEP_HANDLERS",
    "HeuristicAgent",
    "StepHandler",
    "Style",
    "clear_plan_cache",
    "heuristic_action",
    "styled_action",
]
