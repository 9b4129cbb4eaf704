"""Heuristic variants against a baseline heuristic, in duplicate format (issue 17).

    PYTHONPATH=src python benchmarks/heuristic_variants.py --deals 400 --seed 1 \\
        [--baseline before|default] [VARIANT ...]

Each deal (``derive_seed(seed, DEAL + i)``) is played twice, the variant once on each side;
the pair is one independent unit. Printed per variant: its wins out of the games, the win rate
with a 95% interval that treats each pair as one unit (``rebelspace.lab.stats.unit_rate``),
and the mean score per pair (0, 0.5 or 1) with a normal 95% interval. Both players decide on
the true state: the heuristic reads nothing hidden (its hidden-information tests), so that is
the same play as through its view, many times faster.

Variants are ``Style`` values (``rebelspace.agents.heuristic.style``) or ablations the issue
measured: ``no-blocks`` never blocks, ``no-tricks`` never plays a battle card, ``draw-2``
always draws the most it may (``before-...``: the same, of the heuristic before issue 17).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from rebelspace.agents.heuristic import (
    BEFORE,
    DEFAULT,
    StepHandler,
    heuristic_action,
    styled_action,
)
from rebelspace.engine import IMPERIAL, REBEL, GameState, Kind, Step, new_game
from rebelspace.lab.stats import mean_ci, unit_rate
from rebelspace.seeds import DEAL, derive_seed


def _ablation(
    step: int, choose: Callable[[GameState, Sequence[int]], int], base: StepHandler
) -> StepHandler:
    def action(state: GameState, legal: Sequence[int]) -> int:
        if state.step == step and len(legal) > 1:
            return choose(state, legal)
        return base(state, legal)

    return action


def _done(kind: int) -> Callable[[GameState, Sequence[int]], int]:
    def choose(state: GameState, legal: Sequence[int]) -> int:
        dec = state.ctx.space.actions
        return next(a for a in legal if dec[a].kind == kind)

    return choose


def _most_cards(state: GameState, legal: Sequence[int]) -> int:
    dec = state.ctx.space.actions
    return max(legal, key=lambda a: dec[a].count)


VARIANTS: dict[str, Callable[[], StepHandler]] = {
    "default": lambda: styled_action(DEFAULT),
    "before": lambda: styled_action(BEFORE),
    "reply-aware": lambda: styled_action(
        BEFORE._replace(reply_aware=True, answer_weight=2.0, defender_answer_weight=2.0)
    ),
    "extra-attack-plan": lambda: styled_action(BEFORE._replace(extra_attack_plan=True)),
    "own-tricks": lambda: styled_action(BEFORE._replace(own_tricks_in_plans=True)),
    "answer-x1": lambda: styled_action(
        DEFAULT._replace(answer_weight=1.0, defender_answer_weight=1.0)
    ),
    "defender-answer-x4": lambda: styled_action(DEFAULT._replace(defender_answer_weight=4.0)),
    "answer-x3": lambda: styled_action(
        DEFAULT._replace(answer_weight=3.0, defender_answer_weight=3.0)
    ),
    "replan": lambda: styled_action(BEFORE._replace(replan_after_guard=True)),
    "no-replan": lambda: styled_action(DEFAULT._replace(replan_after_guard=False)),
    "no-own-tricks": lambda: styled_action(DEFAULT._replace(own_tricks_in_plans=False)),
    "trick-gain-2": lambda: styled_action(DEFAULT._replace(trick_min_gain=2.0)),
    "trick-gain-4": lambda: styled_action(DEFAULT._replace(trick_min_gain=4.0)),
    "hand-full-4": lambda: styled_action(DEFAULT._replace(hand_full=4)),
    "hand-full-6": lambda: styled_action(DEFAULT._replace(hand_full=6)),
    "hand-full-10": lambda: styled_action(DEFAULT._replace(hand_full=10)),
    "hand-full-12": lambda: styled_action(DEFAULT._replace(hand_full=12)),
    "deck-margin--2": lambda: styled_action(DEFAULT._replace(deck_margin=-2)),
    "deck-margin-0": lambda: styled_action(DEFAULT._replace(deck_margin=0)),
    "deck-margin-4": lambda: styled_action(DEFAULT._replace(deck_margin=4)),
    "deck-margin-6": lambda: styled_action(DEFAULT._replace(deck_margin=6)),
    "trap-in-plans": lambda: styled_action(BEFORE._replace(trap_in_plans=True)),
    "default+trap-in-plans": lambda: styled_action(DEFAULT._replace(trap_in_plans=True)),
    "no-blocks": lambda: _ablation(Step.BLOCK, _done(Kind.DONE_BLOCKING), heuristic_action),
    "no-tricks": lambda: _ablation(Step.TRICKS, _done(Kind.PASS), heuristic_action),
    "draw-2": lambda: _ablation(Step.DRAW, _most_cards, heuristic_action),
    # The same ablations of the heuristic as it was (play them against ``before``).
    "before-no-blocks": lambda: _ablation(
        Step.BLOCK, _done(Kind.DONE_BLOCKING), styled_action(BEFORE)
    ),
    "before-no-tricks": lambda: _ablation(Step.TRICKS, _done(Kind.PASS), styled_action(BEFORE)),
    "before-draw-2": lambda: _ablation(Step.DRAW, _most_cards, styled_action(BEFORE)),
}


def play(game_seed: int, rebel: StepHandler, imperial: StepHandler) -> int:
    """The winner of one game."""
    game = new_game(game_seed, log=False)
    deciders = (rebel, imperial)
    while game.to_move >= 0:
        game.apply(deciders[game.to_move](game, game.legal_actions()))
    assert game.outcome is not None
    return game.outcome.winner


def duel(variant: str, baseline: str, deals: int, seed: int) -> dict[str, Any]:
    """``variant`` against ``baseline`` over ``deals`` pairs of games."""
    v, b = VARIANTS[variant](), VARIANTS[baseline]()
    units: list[list[bool]] = []
    started = time.process_time()
    for i in range(deals):
        game_seed = derive_seed(seed, DEAL + i)
        units.append(
            [play(game_seed, v, b) == REBEL, play(game_seed, b, v) == IMPERIAL],
        )
    rate = unit_rate(units)
    mean, low, high = mean_ci([sum(u) / 2 for u in units])
    return {
        "variant": variant,
        "baseline": baseline,
        "deals": deals,
        "games": 2 * deals,
        "seed": seed,
        "wins": rate.wins,
        "rate": round(rate.rate, 4),
        "ci95": [round(rate.low, 4), round(rate.high, 4)],
        "pair_score": [round(mean, 4), round(low, 4), round(high, 4)],
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("variants", nargs="*", default=["default"], choices=sorted(VARIANTS))
    ap.add_argument("--baseline", default="before", choices=sorted(VARIANTS))
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    for name in args.variants:
        r = duel(name, args.baseline, args.deals, args.seed)
        if args.json:
            print(json.dumps(r))
            continue
        lo, hi = r["ci95"]
        m, mlo, mhi = r["pair_score"]
        print(
            f"{name} vs {r['baseline']}: {r['wins']}/{r['games']} = {100 * r['rate']:.1f}% "
            f"({100 * lo:.1f}-{100 * hi:.1f}%); per pair {m:.3f} ({mlo:.3f}-{mhi:.3f}); "
            f"{r['deals']} deals, seed {r['seed']}, {r['cpu_seconds']} s CPU",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
