"""Rebel Space's engine beside other card-game engines: random self-play through each one's
public Python API, in one process and one run, decisions a second and the ratios (issue 30).

    PYTHONPATH=src python benchmarks/peers.py              # about 3 s of CPU per engine
    PYTHONPATH=src python benchmarks/peers.py --seconds 10 --json

Every engine is played the same way: a seeded ``random.Random`` picks uniformly among the legal
actions the engine lists, and only players' decisions are counted (OpenSpiel's chance nodes,
the deals, are sampled uniformly among their outcomes, as random play does, but not counted;
Rebel Space shuffles with its own seeded generator, inside ``apply``). Times are this
process's CPU time (``time.process_time``), so a busy machine does not slow one engine more
than another; the engines are measured one after the other, so they run on the same machine
under the same load. ``clone_us`` is one state's copy (``GameState.clone``, OpenSpiel's
``State.clone``) in mid-game positions.

The peers: OpenSpiel's hearts and gin rummy (C++ cores driven from Python; the ``rl`` extra),
RLCard's UNO and PokerKit's no-limit hold'em (pure Python; the ``bench`` extra). An engine whose
package is not installed is listed as omitted, with the extra that installs it. ``build`` says
whether Rebel Space's engine is the compiled or the pure build (``rebelspace.build``).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from rebelspace.build import build_kind
from rebelspace.engine import new_game

#: One game of random play: (decisions made, a mid-game state's clone cost in us or None).
Game = Callable[[random.Random, int], tuple[int, float | None]]

CLONES = 20_000  # clones of one mid-game state, timed in CPU seconds


def _time_clone(clone: Callable[[], object]) -> float:
    """Mean microseconds of ``clone()``, the garbage collector off (as ``rebelspace bench`` and
    ``timeit`` time), so that a collection the copies trigger does not land in the figure."""
    gc.disable()
    try:
        start = time.process_time()
        for _ in range(CLONES):
            clone()
        return (time.process_time() - start) / CLONES * 1e6
    finally:
        gc.enable()


def rebelspace_game(rng: random.Random, seed: int) -> tuple[int, float | None]:
    game = new_game(seed, log=False)
    choice = rng.choice
    decisions = 0
    while game.to_move >= 0:
        game.apply(choice(game.legal_actions()))
        decisions += 1
    return decisions, None


def rebelspace_clone(seed: int) -> float:
    game = new_game(seed, log=False)
    rng = random.Random(seed)
    for _ in range(60):  # mid-game
        if game.to_move < 0:
            break
        game.apply(rng.choice(game.legal_actions()))
    return _time_clone(game.clone)


def openspiel_game(name: str) -> tuple[Game, Callable[[int], float]]:
    import pyspiel

    game = pyspiel.load_game(name)

    def play(rng: random.Random, _seed: int) -> tuple[int, float | None]:
        state = game.new_initial_state()
        choice = rng.choice
        decisions = 0
        while not state.is_terminal():
            # Chance outcomes are uniform in both games (deals and draws): a uniform choice
            # among them, not counted as a decision.
            if not state.is_chance_node():
                decisions += 1
            state.apply_action(choice(state.legal_actions()))
        return decisions, None

    def clone(seed: int) -> float:
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(60):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        return _time_clone(state.clone)

    return play, clone


def rlcard_uno() -> Game:
    import rlcard  # type: ignore[import-untyped]

    def play(rng: random.Random, seed: int) -> tuple[int, float | None]:
        env = rlcard.make("uno", config={"seed": seed})
        state, _player = env.reset()
        choice = rng.choice
        decisions = 0
        while not env.is_over():
            state, _player = env.step(choice(list(state["legal_actions"])))
            decisions += 1
        return decisions, None

    return play


def pokerkit_holdem() -> Game:
    from pokerkit import Automation, NoLimitTexasHoldem

    automations = (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.HOLE_DEALING,
        Automation.BOARD_DEALING,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )

    def play(rng: random.Random, _seed: int) -> tuple[int, float | None]:
        # Heads-up, blinds 1/2, stacks of 200: one hand a game.
        state = NoLimitTexasHoldem.create_state(automations, True, 0, (1, 2), 2, (200, 200), 2)
        decisions = 0
        while state.status:
            moves: list[Callable[[], object]] = []
            if state.can_fold():
                moves.append(state.fold)
            if state.can_check_or_call():
                moves.append(state.check_or_call)
            if state.can_complete_bet_or_raise_to():
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                amount = rng.randint(low, high)
                moves.append(partial(state.complete_bet_or_raise_to, amount))
            rng.choice(moves)()
            decisions += 1
        return decisions, None

    return play


def measure(play: Game, seconds: float, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    decisions = games = 0
    start = time.process_time()
    while games == 0 or time.process_time() - start < seconds:
        n, _ = play(rng, seed + games)
        decisions += n
        games += 1
    spent = time.process_time() - start
    return {
        "games": games,
        "decisions": decisions,
        "decisions_per_second": round(decisions / spent),
        "decisions_per_game": round(decisions / games, 1),
    }


def peers() -> dict[str, tuple[Game | None, Callable[[int], float] | None, str]]:
    """Each engine: (random game, clone timer, why omitted)."""
    out: dict[str, tuple[Game | None, Callable[[int], float] | None, str]] = {
        f"rebelspace ({build_kind()})": (rebelspace_game, rebelspace_clone, ""),
    }
    for name, label in (("hearts", "OpenSpiel hearts"), ("gin_rummy", "OpenSpiel gin rummy")):
        try:
            play, clone = openspiel_game(name)
            out[label] = (play, clone, "")
        except ImportError:
            out[label] = (None, None, "omitted: pyspiel not installed (the rl extra)")
    for label, make in (("RLCard UNO", rlcard_uno), ("pokerkit no-limit hold'em", pokerkit_holdem)):
        try:
            out[label] = (make(), None, "")
        except ImportError as exc:
            out[label] = (None, None, f"omitted: {exc.name} not installed (the bench extra)")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per engine")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    rows: dict[str, dict[str, Any]] = {}
    ours = 0
    for label, (play, clone, omitted) in peers().items():
        if play is None:
            rows[label] = {"omitted": omitted}
            continue
        row = measure(play, args.seconds, args.seed)
        if clone is not None:
            row["clone_us"] = round(clone(args.seed), 2)
        if not ours:
            ours = row["decisions_per_second"]
        row["ours_over_theirs"] = round(ours / row["decisions_per_second"], 2)
        rows[label] = row
    if args.json:
        print(json.dumps(rows))
        return 0
    print(f"{'engine':<32} {'decisions/s':>12} {'ours / theirs':>14} {'clone us':>9}")
    for label, row in rows.items():
        if "omitted" in row:
            print(f"{label:<32} {row['omitted']}")
            continue
        clone_us = f"{row['clone_us']:.2f}" if "clone_us" in row else "-"
        print(
            f"{label:<32} {row['decisions_per_second']:>12,} "
            f"{row['ours_over_theirs']:>14.2f} {clone_us:>9}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
