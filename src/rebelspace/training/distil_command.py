"""``rebelspace distil``: a searching teacher's games against the heuristic, the distilled
policy fitted to its choices, its weights.

    rebelspace distil --dir runs/distil --games 400 --seed 17
    rebelspace distil --dir runs/distil --games 400 --seed 17   # again: resumes, same result

The teacher (``--teacher``, default ``ismcts:normal``) plays ``--games`` games against
``--opponent`` (default the heuristic; the teacher's own name for self-play) in duplicate
format, on ``play``'s local pool of ``--workers`` processes (every core
by default), in chunk files under ``DIR/data`` that a stopped run keeps. The last chunks
(``--holdout``) are kept out of the fit and scored: how often the policy's choice is the
teacher's. Fitting needs NumPy (the ``rl`` extra); the model needs only the standard
library. Copy ``weights.json`` to ``src/rebelspace/agents/distilled/`` to ship it.
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from rebelspace.cliargs import EXIT_OK, fail, positive_int
from rebelspace.play.pool import local_cores

from .command import add_common_args


def add_distil_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``distil`` subcommand's arguments (``run_distil`` runs it)."""
    p = subparsers.add_parser(
        "distil",
        help="fit the fast distilled policy to a search's choices (resumable)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_common_args(p, folder="runs/distil", games=400, games_help="teacher games", chunk=10)
    p.add_argument("--teacher", default="ismcts:normal", help="a searching agent (ismcts...)")
    p.add_argument(
        "--opponent",
        default="heuristic",
        help="the teacher's opponent; the teacher's own name for self-play, in which both "
        "sides' searches are fitted (the lab's mirror games)",
    )
    p.add_argument("--steps", type=positive_int, default=15, help="Newton steps")
    p.set_defaults(handler=run_distil)


def run_distil(args: argparse.Namespace) -> int:
    from rebelspace.extras import MissingExtraError, require

    try:  # before hours of play, not after
        require("rl", "rebelspace distil", ("numpy",))
    except MissingExtraError as exc:
        return fail("distil", exc)
    if not args.teacher.startswith("ismcts"):
        return fail(
            "distil", f"--teacher must be a searching agent (ismcts...), got {args.teacher!r}"
        )

    from .distil import agreement, fit_policy, positions
    from .teacher import generate_teacher_games, read_games

    folder: Path = args.dir
    workers = args.workers or local_cores()
    progress = False if args.no_progress else None
    started = time.monotonic()
    chunks = generate_teacher_games(
        folder / "data",
        args.seed,
        args.teacher,
        args.opponent,
        args.games,
        chunk_games=args.chunk,
        workers=workers,
        progress=progress,
    )
    generated = time.monotonic() - started
    held = max(1, round(len(chunks) * args.holdout)) if args.holdout else 0
    train = read_games(chunks[: len(chunks) - held])
    test = read_games(chunks[len(chunks) - held :])
    model = fit_policy(positions(train, args.seed, progress=progress), l2=args.l2, steps=args.steps)
    scores: dict[str, Any] = (
        agreement(model, positions(test, args.seed, progress=False)) if test else {}
    )
    meta: dict[str, Any] = {
        **model.meta,
        "seed": args.seed,
        "teacher": args.teacher,
        "opponent": args.opponent,
        "games": args.games,
        "held_out_games": len(test),
        "held_out": {k: round(v, 4) for k, v in scores.items()},
        "seconds_generate": round(generated, 1),
        "seconds_total": round(time.monotonic() - started, 1),
        "workers": workers,
    }
    out: Path = args.out or folder / "weights.json"
    replace(model, meta=meta).save(out)
    print(json.dumps({"weights": str(out), **meta}))
    return EXIT_OK
