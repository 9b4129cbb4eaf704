"""``rebelspace train``: self-play positions, a value function fitted to them, its weights.

    rebelspace train --dir runs/value --games 3000 --seed 17
    rebelspace train --dir runs/value --games 3000 --seed 17   # again: resumes, same result

Every step writes to ``--dir`` and skips what is already there: the self-play chunks
(``data/``), the fit's checkpoint (``fit.json``), so a stopped run goes on where it stopped,
and the same seed gives the same weights. Self-play runs on ``play``'s local pool of
``--workers`` processes (every local core by default, as the balance lab's runs do; there is
no ``--ray`` here). The last chunks of each policy (``--holdout``) are kept out of
the fit and scored: the held-out log loss of the model against the hand-made evaluation.
Fitting needs NumPy (the ``rl`` extra); the model it writes needs nothing but the standard
library. Copy ``weights.json`` to ``src/rebelspace/agents/value/`` to ship it.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from rebelspace.cliargs import EXIT_OK, fail, positive_int, share
from rebelspace.play.pool import local_cores

DEFAULT_POLICIES = "heuristic,heuristic~0.1"


def add_train_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``train`` subcommand's arguments (``run_train`` runs it)."""
    p = subparsers.add_parser(
        "train",
        help="train the learnt evaluation on self-play games (resumable)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common_args(p, folder="runs/value", games=3000, games_help="games per policy", chunk=25)
    p.add_argument(
        "--policies",
        default=DEFAULT_POLICIES,
        help="self-play policies, comma-separated: heuristic, heuristic~EPSILON, or an agent"
        f" name such as ismcts:expert (default {DEFAULT_POLICIES})",
    )
    p.add_argument("--steps", type=positive_int, default=12, help="Newton steps")
    p.set_defaults(handler=run_train)


def add_common_args(
    p: argparse.ArgumentParser, *, folder: str, games: int, games_help: str, chunk: int
) -> None:
    """The arguments ``train`` and ``distil`` share: where the run lives, how many games in
    chunks of how many, its seed, the held-out share, the penalty, the workers, the output."""
    p.add_argument("--dir", type=Path, default=Path(folder), help="working folder")
    p.add_argument("--games", type=positive_int, default=games, help=games_help)
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--chunk", type=positive_int, default=chunk, help="games per chunk file")
    p.add_argument("--holdout", type=share, default=0.1, help="share of games held out")
    p.add_argument("--l2", type=float, default=1e-3)
    p.add_argument("--workers", type=positive_int, default=None, help="default: every core")
    p.add_argument("--out", type=Path, default=None, help="default: DIR/weights.json")
    p.add_argument("--no-progress", action="store_true")


def run_train(args: argparse.Namespace) -> int:
    from rebelspace.extras import MissingExtraError, require

    from .fit import fit, log_loss
    from .selfplay import generate

    try:  # before hours of self-play, not after
        require("rl", "rebelspace train", ("numpy",))
    except MissingExtraError as exc:
        return fail("train", exc)

    policies = [s.strip() for s in args.policies.split(",") if s.strip()]
    if not policies:
        return fail("train", "--policies names no policy")
    folder: Path = args.dir
    workers = args.workers or local_cores()
    progress = False if args.no_progress else None
    started = time.monotonic()
    chunks = generate(
        folder / "data",
        args.seed,
        policies,
        args.games,
        chunk_games=args.chunk,
        workers=workers,
        progress=progress,
    )
    generated = time.monotonic() - started
    per_policy = len(chunks) // len(policies)
    held = max(1, round(per_policy * args.holdout)) if args.holdout else 0
    train = [c for i, c in enumerate(chunks) if i % per_policy < per_policy - held]
    test = [c for i, c in enumerate(chunks) if i % per_policy >= per_policy - held]
    try:
        model = fit(
            train,
            l2=args.l2,
            steps=args.steps,
            checkpoint=folder / f"fit-{args.seed}.json",
            progress=progress,
        )
        scores: dict[str, Any] = log_loss(model, test) if test else {}
    except MissingExtraError as exc:
        return fail("train", exc)
    meta: dict[str, Any] = {
        **model.meta,
        "seed": args.seed,
        "policies": policies,
        "games_per_policy": args.games,
        "held_out_games_per_policy": held * args.chunk,
        "held_out": {k: round(v, 4) for k, v in scores.items()},
        "seconds_generate": round(generated, 1),
        "seconds_total": round(time.monotonic() - started, 1),
        "workers": workers,
    }
    out: Path = args.out or folder / "weights.json"
    replace(model, meta=meta).save(out)
    print(json.dumps({"weights": str(out), **meta}))
    return EXIT_OK
