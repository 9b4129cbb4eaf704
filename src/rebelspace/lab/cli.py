"""The balance lab's commands: balance, report, ablate, compare, sweep, suggest, bench-lab.

Over 500 lines: one parser and handler per lab command, as in cli.py; the lab's logic is in its
own modules.

Registered in ``rebelspace.cli``, with the shared arguments of ``rebelspace.cliargs``; each
``add_*`` declares a parser and its handler, which returns an exit status (0 success, 2 bad
input) and prints bad input to stderr. The lab is the ``lab`` extra (plots, progress bars):
every handler checks for it first, and for the ``ray`` extra when asked for ``--ray``, and
otherwise raises the one-line hint (``rebelspace.extras``).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# The conventions every subcommand shares: exit codes, "rebelspace CMD: message" on stderr.
from rebelspace.cliargs import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_game_args,
    add_json_arg,
    add_workers_arg,
    cards_from,
    fail,
    positive_int,
)
from rebelspace.engine import RebelSpaceError
from rebelspace.extras import require

from .runner import RunInterrupted
from .settings import BULK_AGENT
from .store import DEFAULT_DB, Store

Handler = Callable[[argparse.Namespace], int]


def _lab_command(name: str) -> Callable[[Handler], Handler]:
    """Run the handler of ``rebelspace NAME`` only with the lab extra installed (and the ray
    extra when asked for ``--ray``); end on Ctrl-C with one line, never a traceback (a closed
    pipe is ``cli.main``'s, for every command)."""

    def wrap(handler: Handler) -> Handler:
        @functools.wraps(handler)
        def run(args: argparse.Namespace) -> int:
            require("lab", f"rebelspace {name}")
            if getattr(args, "ray", None) is not None:
                require("ray", f"rebelspace {name} --ray")
            try:
                return handler(args)
            except RunInterrupted as stop:
                print(
                    f"rebelspace {name}: interrupted; {stop.saved} of {stop.asked} games of run "
                    f"{stop.run_id} ({stop.label}) are saved in {stop.db}; run the same "
                    "command again to resume where it stopped",
                    file=sys.stderr,
                )
                return EXIT_INTERRUPTED
            except KeyboardInterrupt:
                print(
                    f"rebelspace {name}: interrupted; every finished game is saved, and the "
                    "same command again resumes where it stopped",
                    file=sys.stderr,
                )
                return EXIT_INTERRUPTED

        return run

    return wrap


def _db_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=DEFAULT_DB, help=f"lab database (default ./{DEFAULT_DB})")


def _run_args(p: argparse.ArgumentParser, games: int) -> None:
    """What defines a run: agents, seed, card changes, rules; and where it runs."""
    p.add_argument("--games", type=positive_int, default=games, help=f"games (default {games})")
    p.add_argument(
        "--agents",
        default=BULK_AGENT,
        help=f"agent (default {BULK_AGENT}, the strongest that plays thousands of games an "
        "hour; --agents heuristic for the quick rule-based player)",
    )
    p.add_argument("--vs", help="a second agent: each plays each side in half the games")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument(
        "--label",
        default="",
        help="a short name for this variant, shown by runs, report, compare and plots",
    )
    add_game_args(p)  # --cards FILE, --rule NAME=VALUE
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar='"CARD.FIELD=N"',
        help='change a card number for this run, e.g. "Space Cruiser.space=8" (repeatable)',
    )
    _where_args(p)
    _db_arg(p)
    add_json_arg(p, "the results")


def _where_args(p: argparse.ArgumentParser) -> None:
    """Where the games run: local processes or Ray."""
    add_workers_arg(p)
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="run the games as Ray tasks: a new local Ray, or the cluster at ADDRESS "
        "('auto': the one this machine is part of; needs pip install 'rebelspace[ray]')",
    )


def _settings(args: argparse.Namespace, kind: str = "balance") -> Any:
    from .settings import RunSettings

    return RunSettings.build(
        (args.agents, args.vs or args.agents),
        args.seed,
        sets=args.set,
        rules=args.rule,
        cards=cards_from(args),
        kind=kind,
        name=args.label,
    )


def _exec(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "workers": args.workers,
        "use_ray": args.ray is not None,
        "ray_address": args.ray or None,
    }


def _bar(items: Iterator[Any], total: int) -> Iterator[Any]:
    if not sys.stderr.isatty():
        return items
    from tqdm import tqdm

    return iter(tqdm(items, total=total, unit="run", file=sys.stderr))


# ---------------------------------------------------------------------------- balance


def add_balance(sub: Any) -> None:
    p = sub.add_parser(
        "balance",
        help="simulate many games and store them for the balance report",
        description="Play games between computer players on every core (or on Ray) and store "
        "one row per game in a SQLite database. Asking again with the same settings resumes "
        "the run and adds to it; the same seed and settings always give the same games.",
    )
    _run_args(p, 1000)
    p.add_argument(
        "--ladder",
        nargs="?",
        const="default",
        metavar="AGENTS",
        help="play the same deals with a ladder of agents, weakest first (default "
        "random,heuristic,distilled,ismcts:easy,ismcts:100) and say whether the verdict holds "
        "as play gets stronger; --games caps the games of each rung, --budget the time",
    )
    p.add_argument(
        "--budget",
        type=positive_int,
        default=10,
        metavar="MINUTES",
        help="with --ladder: the time the whole ladder may take here (default 10)",
    )
    p.add_argument(
        "--out", default="ladder", help="with --ladder: folder for ladder.json and ladder.svg"
    )
    p.set_defaults(handler=cmd_balance)


@_lab_command("balance")
def cmd_balance(args: argparse.Namespace) -> int:
    from .runner import run_balance

    if args.ladder:
        return _ladder(args)
    try:
        settings = _settings(args)
        with Store(args.db) as store:
            result = run_balance(settings, args.games, store, **_exec(args))
    except RebelSpaceError as e:
        return fail("balance", e)
    d = result.to_dict()
    if args.json:
        print(json.dumps(d))
        return EXIT_OK
    print(
        f"run {d['run_id']} ({settings.label()}): {d['games']} games, Rebel wins "
        f"{100 * d['rebel_win_rate']:.1f}% (95% CI {100 * d['ci95'][0]:.1f}-"
        f"{100 * d['ci95'][1]:.1f}%), {d['mean_turns']} turns on average; played "
        f"{d['played']} now at {d['games_per_second']} games/s; stored in {d['db']}"
    )
    return EXIT_OK


def _ladder(args: argparse.Namespace) -> int:
    from . import plots
    from .ladder import DEFAULT_RUNGS, cost_seconds, measure, plan, run_ladder
    from .settings import RunSettings
    from .stats import MIN_DEALS
    from .studies import runner

    rungs = DEFAULT_RUNGS if args.ladder == "default" else tuple(args.ladder.split(","))
    workers = args.workers or os.cpu_count() or 1
    try:
        if args.vs or args.set or args.rule or args.cards:
            raise RebelSpaceError("--ladder plays the printed game with its own agents: "
                                  "drop --vs, --set, --rule and --cards")  # fmt: skip
        if len(rungs) < 2 or len(set(rungs)) != len(rungs):
            raise RebelSpaceError(
                f"a ladder needs two or more different agents, got {args.ladder!r}"
            )
        for rung in rungs:
            RunSettings.build((rung, rung), args.seed)  # an unknown agent fails here
        plans = plan(rungs, args.games, args.budget * 60, workers, lambda r: measure(r, args.seed))
        for p in plans:
            print(
                f"ladder: {p.rung}: {p.games} games ({p.seconds_per_game:.2f} s a game on one "
                f"core)" + (f", {p.rating_games} against the next rung" if p.rating_games else "")
                + ("" if p.enough else f"; fewer than {MIN_DEALS} deals: too few games to judge"),
                file=sys.stderr,
            )  # fmt: skip
        print(
            f"ladder: about {_duration(cost_seconds(plans, workers))} on {workers} workers "
            f"(budget {args.budget} min; games already in {args.db} are not played again)",
            file=sys.stderr,
        )
        with Store(args.db) as store:
            out = run_ladder(store, plans, args.seed, runner(store, **_exec(args)), args.label)
    except RebelSpaceError as e:
        return fail("balance", e)
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "ladder.json").write_text(json.dumps(out, indent=2) + "\n")
    (folder / "ladder.svg").write_text(plots.ladder(out["rungs"]))
    if args.json:
        print(json.dumps(out))
        return EXIT_OK
    print("\n".join(out["verdict"]))
    print(f"ladder written to {folder / 'ladder.json'} and {folder / 'ladder.svg'}")
    return EXIT_OK


# ----------------------------------------------------------------------------- report


def add_report(sub: Any) -> None:
    p = sub.add_parser(
        "report",
        help="write the balance report (HTML with plots, and JSON) for a run",
        description="Write report.html and report.json for a run of the lab database: "
        "findings in plain words, win rates with intervals, game length, endings, deck sizes, "
        "and per-card impact (from `rebelspace ablate` runs on the same seeds).",
    )
    _db_arg(p)
    p.add_argument(
        "--run", help="run id or prefix (default: the balance run last played or extended)"
    )
    p.add_argument("--out", required=True, help="folder for report.html and report.json")
    p.add_argument("--json", action="store_true", help="print the report's JSON too")
    p.set_defaults(handler=cmd_report)


@_lab_command("report")
def cmd_report(args: argparse.Namespace) -> int:
    from .report import write_report

    try:
        with Store(_existing(args.db)) as store:
            run = store.run(args.run)
            summary = write_report(store, run, Path(args.out))
    except (RebelSpaceError, ValueError, OSError) as e:
        return fail("report", e)
    if args.json:
        print(json.dumps(summary))
    else:
        print("\n".join(summary["findings"]))
        print(f"report written to {Path(args.out) / 'report.html'}")
    return EXIT_OK


def _existing(db: str) -> str:
    if not Path(db).is_file():
        raise RebelSpaceError(f"no lab database at {db}; run `rebelspace balance` first")
    return db


# ------------------------------------------------------------------------------ ablate


def add_ablate(sub: Any) -> None:
    p = sub.add_parser(
        "ablate",
        help="per-card impact: replay a run's games with a card blanked (or removed)",
        description="Replay the games of a balance run (same deals, same agents) with every "
        "copy of a card blanked (left in the deck without effect, so the deck keeps its size) "
        "or, with --remove, taken out, and report the change in that card's side's win rate "
        "with its 95% interval; with several cards, significance is corrected for testing "
        "them at once (Holm). The report of that run uses these runs for per-card impact.",
    )
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--card", action="append", help="card name (repeatable)")
    which.add_argument("--all", action="store_true", help="every card of both lists")
    p.add_argument(
        "--run", help="base run id or prefix (default: the balance run last played or extended)"
    )
    p.add_argument("--games", type=positive_int, help="games per card (default: the base run's)")
    p.add_argument(
        "--remove",
        action="store_true",
        help="take the copies out instead of blanking them (the deck gets smaller too)",
    )
    _where_args(p)
    _db_arg(p)
    add_json_arg(p, "the results")
    p.set_defaults(handler=cmd_ablate)


@_lab_command("ablate")
def cmd_ablate(args: argparse.Namespace) -> int:
    from .analysis import ABLATION_MODES, analyse, side_of_cards
    from .report import significance
    from .studies import ablate, runner

    try:
        with Store(_existing(args.db)) as store:
            base = store.run(args.run)
            cards = args.card or [
                name for name, (_, copies) in side_of_cards(base.settings).items() if copies
            ]
            games = args.games or base.games
            items = _bar(iter(cards), len(cards)) if len(cards) > 1 else iter(cards)
            mode = "remove" if args.remove else "blank"
            for name in items:
                ablate(store, base, [name], games, runner(store, **_exec(args)), mode)
            # The verdicts of the report: one Holm family, every card ablated for this base
            # (not only those of this command), rarity over the base run's games.
            summary = analyse(store, store.run(base.run_id), ablation_mode=mode)
    except RebelSpaceError as e:
        return fail("ablate", e)
    asked = set(cards)
    out = [
        {"card": c["name"], "side": c["side"], "copies": c["copies"], **c["ablation"],
         "rarely_played": c["rarely_played"], "rarity_note": c["rarity_note"]}
        for c in summary["cards"]
        if c["name"] in asked and c["ablation"]
    ]  # fmt: skip
    if args.json:
        print(json.dumps(out))
        return EXIT_OK
    agents = " vs ".join(dict.fromkeys(base.settings.agents))
    print(
        f"Each card {ABLATION_MODES[mode]}, {agents} playing, on the deals of run "
        f"{base.run_id} ({base.label}); games per card below:"
    )
    for r in sorted(out, key=lambda r: (r["tests"] == 0, -r["diff"])):
        print(
            f"{r['card']:<22} {r['side']:<8} its {r['copies']} "
            f"{'copy is' if r['copies'] == 1 else 'copies are'} worth "
            f"{100 * r['diff']:+.1f} points to its side (95% CI {100 * r['ci95'][0]:+.1f} to "
            f"{100 * r['ci95'][1]:+.1f}), {100 * r['per_copy']:+.1f} a copy, on "
            f"{r['games']:,} games; {significance(r)}"
        )
    return EXIT_OK


# ----------------------------------------------------------------------------- compare


def add_compare(sub: Any) -> None:
    p = sub.add_parser(
        "compare",
        help="two runs side by side: the difference in win rate and whether it is significant",
        description="Compare two runs of the lab database: each run's Rebel win rate with its "
        "95% interval and mean turns, then the difference B - A with its interval and p-value, "
        "paired on matched seeds when the runs share them.",
    )
    p.add_argument("a", help="run id or prefix (see `rebelspace runs`)")
    p.add_argument("b", help="run id or prefix of the run compared with A")
    _db_arg(p)
    add_json_arg(p, "the results")
    p.set_defaults(handler=cmd_compare)


@_lab_command("compare")
def cmd_compare(args: argparse.Namespace) -> int:
    from .studies import compare

    try:
        with Store(_existing(args.db)) as store:
            a, b = store.run(args.a, kind=None), store.run(args.b, kind=None)
            if a.run_id == b.run_id:
                raise RebelSpaceError(
                    f"A and B are the same run ({a.run_id}, {a.label}): compare two different runs"
                )
            out = compare(store, a, b)
    except RebelSpaceError as e:
        return fail("compare", e)
    if args.json:
        print(json.dumps(out))
        return EXIT_OK
    for key in ("a", "b"):
        r = out[key]
        print(
            f"{key.upper()}: {r['run_id']} {r['label']}: {r['games']} games, Rebel "
            f"{100 * r['rebel_win_rate']:.1f}% (95% CI {100 * r['ci95'][0]:.1f}-"
            f"{100 * r['ci95'][1]:.1f}%), {r['mean_turns']} turns"
        )
    d = out["rebel_win_rate_difference"]
    verdict = "significant" if d["significant"] else "not significant"
    how = "paired on matched seeds" if d["paired"] else "independent samples"
    print(
        f"B - A: {100 * d['diff']:+.1f} points (95% CI {100 * d['ci95'][0]:+.1f} to "
        f"{100 * d['ci95'][1]:+.1f}), p = {d['p_value']:.3g}, {verdict} ({how})"
    )
    return EXIT_OK


# ------------------------------------------------------------------------------- sweep


def add_sweep(sub: Any) -> None:
    p = sub.add_parser(
        "sweep",
        help="play each value of one card number and plot the win rate against it",
        description="Play --games games for each value of one card number (--field of --card "
        "over --range low..high) and list the Rebel win rate with its 95% interval for each; "
        "with --out, also write sweep.svg (the win rate against the value) and sweep.json.",
    )
    p.add_argument("--card", required=True, help="card name")
    p.add_argument("--field", required=True, help="count, ground, space, damage or cost")
    p.add_argument("--range", required=True, dest="values", help="low..high, e.g. 6..12")
    p.add_argument("--out", help="folder for sweep.svg and sweep.json")
    _run_args(p, 400)
    # argparse takes "-3..-1" for an unknown option (it only knows "-3" as a number); read it
    # as the range's value, so that parse_range can say in one line what is wrong with it.
    p._negative_number_matcher = re.compile(r"^-\d+(\.\.-?\d+)?$")  # noqa: SLF001
    p.set_defaults(handler=cmd_sweep)


@_lab_command("sweep")
def cmd_sweep(args: argparse.Namespace) -> int:
    from . import plots
    from .studies import parse_range, runner, sweep

    try:
        values = parse_range(args.values)
        base = _settings(args, kind="sweep")
        with Store(args.db) as store:
            out = sweep(
                base, args.card, args.field, values, args.games, runner(store, **_exec(args))
            )
    except RebelSpaceError as e:
        return fail("sweep", e)
    if args.out:
        folder = Path(args.out)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "sweep.json").write_text(json.dumps(out, indent=2) + "\n")
        (folder / "sweep.svg").write_text(
            plots.sweep(
                args.card,
                args.field,
                out["points"],
                out["printed"],
                f"{out['label']}; {args.games} games a value",
            )
        )
    if args.json:
        print(json.dumps(out))
        return EXIT_OK
    print(
        f"{args.card} {args.field} (printed {out['printed']}), {args.games} games each, "
        f"{out['label']}:"
    )
    for p in out["points"]:
        print(
            f"  {p['value']:>3}: Rebel {100 * p['rebel_win_rate']:5.1f}% (95% CI "
            f"{100 * p['ci95'][0]:.1f}-{100 * p['ci95'][1]:.1f}%), {p['mean_turns']} turns"
        )
    if args.out:
        print(f"plot written to {Path(args.out) / 'sweep.svg'}")
    return EXIT_OK


# ----------------------------------------------------------------------------- suggest


def add_suggest(sub: Any) -> None:
    p = sub.add_parser(
        "suggest",
        help="search one-card changes that bring the win rate toward 50%%",
        description="Try every change of one card number by one (a rating or cost up or "
        "down, or a count up or down) on the base run's deals, at strong play unless --agents "
        "says otherwise, sequentially: each candidate plays --games games; candidates shown "
        "not to move the Rebel win rate toward 50%, or with no effect toward it, are dropped "
        "and the rest play twice as many, up to --confirm. The --top closest to an even game "
        "are confirmed on --confirm fresh deals at the run's agent and at each of --rungs, "
        "and proposed only if shown to move the balance toward 50% without moving it away "
        "from 50% at another rung (such changes are flagged). The cost is stated first and "
        "asked for, unless --yes.",
    )
    _run_args(p, 100)
    p.add_argument(
        "--confirm", type=positive_int, default=1000, help="games for the finalists (default 1000)"
    )
    p.add_argument("--top", type=positive_int, default=5, help="finalists (default 5)")
    p.add_argument(
        "--rungs",
        default=f"heuristic,{BULK_AGENT}",
        metavar="AGENTS",
        help=f"players each finalist is confirmed with too (default heuristic,{BULK_AGENT})",
    )
    p.add_argument("--yes", action="store_true", help="start without asking about the cost")
    p.set_defaults(handler=cmd_suggest)


@_lab_command("suggest")
def cmd_suggest(args: argparse.Namespace) -> int:
    from .settings import RunSettings
    from .studies import runner, suggest, suggest_cost

    try:
        base = _settings(args)
        rungs = [r.strip() for r in args.rungs.split(",") if r.strip()]
        for rung in rungs:
            RunSettings.build((rung, rung), args.seed)  # an unknown agent fails here
        players = len(dict.fromkeys([base.agents[0], *rungs]))
        cost = suggest_cost(base, args.games, args.confirm, args.top, players)
        seconds = _seconds_per_game(base) / (args.workers or os.cpu_count() or 1)
        print(
            f"suggest: {cost['candidates']} one-step changes of {base.label()}; about "
            f"{cost['expected']:,} games (at least {cost['least']:,}, at most {cost['most']:,}; "
            f"games already in {args.db} are not played again), about "
            f"{_duration(cost['expected'] * seconds)} here at {base.agents[0]}'s speed.",
            file=sys.stderr,
        )
        if not args.yes:
            if not sys.stdin.isatty():
                raise RebelSpaceError("add --yes to start without being asked (no terminal)")
            if input("Start? [y/N] ").strip().lower() not in ("y", "yes"):
                print("suggest: not started", file=sys.stderr)
                return EXIT_OK
        with Store(args.db) as store:
            out = suggest(
                store,
                base,
                args.games,
                args.confirm,
                args.top,
                runner(store, **_exec(args)),
                rungs=rungs,
                progress=_bar,
            )
    except RebelSpaceError as e:
        return fail("suggest", e)
    if args.json:
        print(json.dumps(out))
        return EXIT_OK
    _print_suggestions(out, base.agents[0])
    return EXIT_OK


def _print_suggestions(out: dict[str, Any], agent: str) -> None:
    b = out["base"]
    rounds = ", ".join(f"{r['candidates']} on {r['games']} games" for r in out["rounds"])
    print(
        f"Base {b['run_id']} ({b['label']}): Rebel {100 * b['rebel_win_rate']:.1f}% (95% CI "
        f"{100 * b['ci95'][0]:.1f}-{100 * b['ci95'][1]:.1f}%). Screened: {rounds}. Finalists "
        f"confirmed on {out['confirm_games']} fresh deals with {', '.join(out['rungs'])}."
    )
    if not out["suggestions"]:
        print("No change was shown to move the balance toward 50% at every rung checked.")
    for title, group in (("Suggested", out["suggestions"]), ("Flagged: helps at "
                         f"{agent}, moves another rung away from 50%", out["flagged"]),
                         ("Not shown to help", out["not_shown_to_help"])):  # fmt: skip
        if group:
            print(f"{title}:")
        for s in group:
            d = s["against_base"]
            print(
                f"  {s['change']:<42} Rebel {100 * s['rebel_win_rate']:5.1f}% (95% CI "
                f"{100 * s['ci95'][0]:.1f}-{100 * s['ci95'][1]:.1f}%), {100 * d['diff']:+.1f} "
                f"points against the base ({100 * d['ci95'][0]:+.1f} to "
                f'{100 * d["ci95"][1]:+.1f})   --set "{s["set"]}"'
            )
            for r in s["at_rungs"]:
                rd = r["against_base"]
                print(
                    f"      at {r['agent']}: Rebel {100 * r['base_rebel_win_rate']:.1f}% -> "
                    f"{100 * r['rebel_win_rate']:.1f}%, {100 * rd['diff']:+.1f} points "
                    f"({100 * rd['ci95'][0]:+.1f} to {100 * rd['ci95'][1]:+.1f})"
                    + ("; away from 50%" if r["moves_away_from_even"] else "")
                )


def _seconds_per_game(settings: Any) -> float:
    """A quick measure of this run's speed on one core (four games), for the cost."""
    from .games import play_batch

    start = time.perf_counter()
    play_batch(settings, range(4))
    return (time.perf_counter() - start) / 4


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


# -------------------------------------------------------------------------------- runs


def add_runs(sub: Any) -> None:
    p = sub.add_parser(
        "runs",
        help="list the runs of the lab database: id, label, games, Rebel win rate, date",
        description="List the runs of the lab database, the one last played or extended "
        "last: id, kind (balance, or the study a run was made for), label (agents, seed, "
        "and how its cards and rules differ from the printed game), games, the Rebel win "
        "rate with its 95% interval (independent games only) and when it last ran. Study "
        "runs (ablate, sweep, suggest) are listed with --all.",
    )
    _db_arg(p)
    p.add_argument("--all", action="store_true", help="also list the runs made for studies")
    add_json_arg(p, "the list")
    p.set_defaults(handler=cmd_runs)


@_lab_command("runs")
def cmd_runs(args: argparse.Namespace) -> int:
    from .analysis import winners_rate

    try:
        with Store(_existing(args.db)) as store:
            out: list[dict[str, Any]] = []
            for run in store.runs():
                if run.kind != "balance" and not args.all:
                    continue
                rate = winners_rate(run.settings, store.winners(run.run_id))
                out.append(
                    {
                        "run_id": run.run_id,
                        "kind": run.kind,
                        "label": run.label,
                        "games": run.games,
                        "rebel_win_rate": round(rate.rate, 4) if rate.games else None,
                        "ci95": [round(rate.low, 4), round(rate.high, 4)],
                        "updated": time.strftime("%Y-%m-%d %H:%M", time.localtime(run.updated)),
                    }
                )
    except RebelSpaceError as e:
        return fail("runs", e)
    if args.json:
        print(json.dumps(out))
        return EXIT_OK
    if not out:
        print("no runs yet; run `rebelspace balance`")
    for r in out:
        shown = (
            "no games"
            if r["rebel_win_rate"] is None
            else f"Rebel {100 * r['rebel_win_rate']:.1f}% ({100 * r['ci95'][0]:.1f}-"
            f"{100 * r['ci95'][1]:.1f}%)"
        )
        kind = "" if r["kind"] == "balance" else f"[{r['kind']}] "
        print(
            f"{r['run_id']}  {r['updated']}  {r['games']:>6} games  {shown:<26} {kind}{r['label']}"
        )
    return EXIT_OK


# ------------------------------------------------------------------------------ export


def add_export(sub: Any) -> None:
    p = sub.add_parser(
        "export",
        help="write a run as tidy CSV tables (games, cards, ...) for a spreadsheet or pandas",
        description="Write a run of the lab database as CSV files, one per table, one row per "
        "observation: run.csv, games.csv (one row per game), card_games.csv (plays, kills "
        "and damage of each card in each game), deck_sizes.csv (per game and turn) and "
        "cards.csv (the report's per-card numbers). examples/balance.ipynb reads them.",
    )
    p.add_argument(
        "run", nargs="?", help="run id or prefix (default: the balance run last played or extended)"
    )
    p.add_argument("--csv", required=True, metavar="DIR", help="folder for the CSV files")
    _db_arg(p)
    p.set_defaults(handler=cmd_export)


@_lab_command("export")
def cmd_export(args: argparse.Namespace) -> int:
    from .export import export_csv

    try:
        with Store(_existing(args.db)) as store:
            run = store.run(args.run, kind=None if args.run else "balance")
            files = export_csv(store, run, Path(args.csv))
    except (RebelSpaceError, ValueError, OSError) as e:
        return fail("export", e)
    print(
        f"run {run.run_id} ({run.label}) written to {args.csv}: {', '.join(f.name for f in files)}"
    )
    return EXIT_OK


# --------------------------------------------------------------------------- bench-lab


def add_bench_lab(sub: Any) -> None:
    p = sub.add_parser(
        "bench-lab",
        help="balance-lab throughput with 1 and 2 workers, and the database's share",
        description="Measure the balance lab: games per second with 1 worker and with "
        "--workers workers, and the share of the time spent writing to the database, as JSON.",
    )
    p.add_argument("--games", type=positive_int, default=2000, help="games per measurement")
    p.add_argument("--agents", default="heuristic", help="agent on both sides (default heuristic)")
    p.add_argument(
        "--workers", type=positive_int, default=2, help="processes of the parallel measurement"
    )
    p.set_defaults(handler=cmd_bench_lab)


@_lab_command("bench-lab")
def cmd_bench_lab(args: argparse.Namespace) -> int:
    from .runner import run_balance
    from .settings import RunSettings

    try:
        settings = RunSettings.build((args.agents, args.agents), 0)
    except RebelSpaceError as e:
        return fail("bench-lab", e)
    out: dict[str, Any] = {"games": args.games, "agents": args.agents}
    with tempfile.TemporaryDirectory() as tmp:
        for workers in sorted({1, args.workers}):
            with Store(Path(tmp) / f"bench-{workers}.sqlite") as store:
                r = run_balance(settings, args.games, store, workers=workers, progress=False)
            out[f"games_per_second_{workers}_workers"] = round(r.games_per_second, 1)
            share = r.db_seconds / r.seconds if r.seconds > 0 else 0.0
            out[f"db_write_share_{workers}_workers"] = round(share, 4)
    one = out["games_per_second_1_workers"]
    out["speedup"] = (
        round(out[f"games_per_second_{args.workers}_workers"] / one, 3) if one else None
    )
    print(json.dumps(out))
    return EXIT_OK


COMMANDS = {
    "balance": add_balance,
    "runs": add_runs,
    "report": add_report,
    "ablate": add_ablate,
    "compare": add_compare,
    "sweep": add_sweep,
    "suggest": add_suggest,
    "export": add_export,
    "bench-lab": add_bench_lab,
}
