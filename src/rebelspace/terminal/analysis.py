"""``rebelspace analyse RECORD``: the analysis of one player's decisions after a game, in plain
words (``agents.advice.analyse`` makes the numbers); also offered at the end of ``play``."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from rich.console import Console

from rebelspace.agents.advice import ANALYSIS_AGENT, THRESHOLDS, Analysis, analyse
from rebelspace.cliargs import EXIT_INTERRUPTED, EXIT_OK, fail
from rebelspace.engine import SIDE_NAMES, RecordError, load_record

from .hints import percent

PLURAL = {"best": "best", "good": "good", "inaccuracy": "inaccuracies", "mistake": "mistakes"}
PLURAL["blunder"] = "blunders"


def threshold_words() -> str:
    t = {name: round(100 * x) for name, x in THRESHOLDS.items()}
    return (
        f"A move that cost {t['inaccuracy']} points or more of win chance against the "
        f"computer's choice is an inaccuracy, {t['mistake']} a mistake, {t['blunder']} a "
        "blunder. The chances are the computer's estimates from that player's view only, one "
        "search per decision: differences of a few points are noise."
    )


def analysis_lines(a: Analysis, worst: int = 5) -> list[str]:
    side = a.side.capitalize()
    result = f"; {a.winner.capitalize()} won" if a.winner else "; the game is not over"
    counts = a.counts()
    lines = [
        f"Analysis of the {side} player's {len(a.decisions)} decisions ({a.agent}{result}).",
        "  " + " · ".join(f"{n} {PLURAL[k]}" for k, n in counts.items()),
    ]
    bad = a.worst(worst)
    if not bad:
        lines.append("No inaccuracy, mistake or blunder found.")
    else:
        lines.append("Costliest moves (win chance before → after, and what the computer chose):")
        for d in bad:
            better = d.alternative.text if d.alternative is not None else "?"
            lines.append(
                f"  step {d.ply + 1}, turn {d.turn}: {d.played.text!r}  "
                f"{percent(d.before)} → {percent(d.after)} "
                f"(−{round(100 * d.loss)} points, {d.verdict}); better: {better!r}"
            )
    lines.append(threshold_words())
    return lines


def run_with_progress(
    record: dict[str, Any], side: str, agent: str, console: Console | None
) -> Analysis:
    """``analyse`` with a progress bar on ``console`` (None: quietly), and the time it took
    said after it (wall-clock time: what the player waited)."""
    if console is None:
        return analyse(record, side, agent=agent)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    started = time.monotonic()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    ) as bar:
        task = bar.add_task(f"Analysing the {side.capitalize()} player's decisions", total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        analysis = analyse(record, side, agent=agent, progress=progress)
    seconds = time.monotonic() - started
    console.print(
        f"Analysed {len(analysis.decisions)} decisions ({agent}) in {seconds:.1f} s.",
        style="dim",
    )
    return analysis


def add_analyse_parser(subparsers: Any) -> None:
    """The ``analyse`` subcommand (``subparsers``: argparse's ``add_subparsers()``)."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "analyse",
        help="analyse one player's decisions in a game record: mistakes and blunders",
        description="Replay a game record and, at each decision of one player, ask the "
        "computer (ISMCTS, from that player's view only) how good the move was: the win "
        "chance before and after it, the computer's own choice, and the moves that lost the "
        "most, called inaccuracies, mistakes and blunders as chess sites do. A progress bar "
        "shows how far it is, and the time it took is said at the end.",
    )
    p.add_argument("record", metavar="RECORD", help="the record's JSON file (`play --save`)")
    p.add_argument(
        "--side",
        choices=SIDE_NAMES,
        help="whose decisions (default: the side the record's player played, else rebel)",
    )
    p.add_argument(
        "--agent",
        default=ANALYSIS_AGENT,
        help=f"the searching agent (default {ANALYSIS_AGENT}: a fixed number of iterations, "
        "so the same record gives the same analysis)",
    )
    p.add_argument("--worst", type=int, default=5, help="how many of the worst moves to list")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.set_defaults(handler=run_analyse)


def run_analyse(args: argparse.Namespace) -> int:
    from rebelspace.agents.registry import AgentSpecError

    try:
        record = load_record(args.record)
    except RecordError as exc:
        return fail("analyse", exc)
    side = args.side or _played_side(record)
    console = Console(markup=False, highlight=False, emoji=False)
    try:
        analysis = run_with_progress(record, side, args.agent, None if args.json else console)
    except (RecordError, AgentSpecError) as exc:
        return fail("analyse", exc)
    except KeyboardInterrupt:
        print("rebelspace analyse: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    if args.json:
        print(json.dumps(analysis.to_dict()))
    else:
        for line in analysis_lines(analysis, args.worst):
            console.print(line)
    return EXIT_OK


def _played_side(record: dict[str, Any]) -> str:
    meta = record.get("meta")
    side = meta.get("side") if isinstance(meta, dict) else None
    return side if side in SIDE_NAMES else SIDE_NAMES[0]
