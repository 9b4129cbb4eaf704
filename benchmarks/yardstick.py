"""The yardstick of issue 29: agents' regret on the position bank against the oracle.

    PYTHONPATH=src python benchmarks/yardstick.py measure                 # the shipped bank
    PYTHONPATH=src python benchmarks/yardstick.py measure --agents heuristic,ismcts:normal
    PYTHONPATH=src python benchmarks/yardstick.py generate --out BANK    # the bank's games
    PYTHONPATH=src python benchmarks/yardstick.py label --chunk 200      # resumable labelling
    PYTHONPATH=src python benchmarks/yardstick.py check --deals 8        # oracle vs normal

``generate`` plays the bank's games (``rebelspace.play.bank``; resumable: finished games are
kept in OUT.partial). ``label`` labels the next CHUNK unlabelled positions and appends them to
the labels file, so a stopped run carries on where it stopped. ``measure`` prints each agent's
mean regret, agreement with the oracle and oracle-blunder rate with 95% intervals over games,
the pair-wise differences of adjacent agents and how many positions tell them apart; with
``--noise LABELS`` (a second labelling with ``label --purpose oracle2``) also the oracle's
regret against itself. ``check`` plays the oracle against a level in duplicate deals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rebelspace.agents.base import ThinkingAgent
from rebelspace.engine import IMPERIAL, REBEL, context_for, new_game
from rebelspace.play import bulk_agent, play_out
from rebelspace.play.bank import (
    BANK_GAMES,
    BANK_PATH,
    BANK_SEED,
    LABELS_PATH,
    PER_GAME,
    SEARCH_LABELS_PATH,
    Bank,
    bank_seed,
    default_labels,
    play_bank_game,
    read_bank,
    read_partial,
    write_bank,
)
from rebelspace.play.oracle import (
    FINISHED_BY,
    SAMPLES,
    SEARCH_ITERATIONS,
    Label,
    OracleAgent,
    append_labels,
    label_position,
    read_labels,
)
from rebelspace.play.progress import progress_bar
from rebelspace.play.stats import wilson
from rebelspace.play.yardstick import (
    DEFAULT_AGENTS,
    Choices,
    cached_choices,
    choose_all,
    done_deploying,
    game_index,
    label_of,
    report,
    stratified,
)


def _bank(path: Path) -> Bank:
    """The bank at ``path``: a finished one (gzip), or the games an unfinished ``generate``
    has kept so far (its OUT.partial), whose positions can be labelled and chosen at already."""
    if path.name.endswith(".partial"):
        return read_partial(path, BANK_SEED, PER_GAME)
    return read_bank(path)


def _cache(folder: Path, spec: str, cpu: float | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    name = label_of(spec, cpu)
    for c in ":/+=,":
        name = name.replace(c, "_")
    return folder / (name + ".jsonl")


def cmd_generate(args: argparse.Namespace) -> int:
    """Play the bank's missing games (those in neither OUT nor OUT.partial), keeping each
    finished one in OUT.partial, then write OUT whole, games in order."""
    ctx = context_for()
    partial = args.out.with_name(args.out.name + ".partial")
    kept = {g.game: g for g in read_bank(args.out).games} if args.out.exists() else {}
    if partial.exists():
        kept |= {g.game: g for g in read_partial(partial, args.seed, args.per_game).games}
    todo = [i for i in range(args.games) if i not in kept]
    if args.limit is not None:
        todo = todo[: args.limit]
    bar = progress_bar(len(todo), None)
    with partial.open("a") as out:
        for index in todo:
            game = play_bank_game(args.seed, index, args.per_game, ctx)
            kept[index] = game
            out.write(json.dumps(game.to_json()) + "\n")
            out.flush()
            bar.update(1)
    bar.close()
    games = [kept[i] for i in sorted(kept)]
    write_bank(args.out, args.seed, args.per_game, games)
    partial.unlink()
    print(f"{args.out}: {len(games)} games, {sum(len(g.plies) for g in games)} positions")
    return 0


def cmd_label(args: argparse.Namespace) -> int:
    if args.labels is None:
        args.labels = SEARCH_LABELS_PATH if args.oracle == "search" else LABELS_PATH
    iterations = args.iterations if args.oracle == "search" else None
    bank = _bank(args.bank)
    done = read_labels(args.labels)
    others = {i for path in args.done for i in read_labels(path)}
    todo = [p for p in bank.positions() if p.index not in done and p.index not in others]
    todo = (todo[::-1] if args.reverse else todo)[: args.chunk]
    bar = progress_bar(len(todo), None, unit="position")
    started = time.process_time()

    def labels() -> Any:
        for position in todo:
            yield label_position(
                position,
                bank.seed,
                args.samples,
                args.purpose,
                args.finishers.split(","),
                iterations,
            )
            bar.update(1)

    written = append_labels(args.labels, labels())
    bar.close()
    seconds = time.process_time() - started
    total = len(done) + written
    print(
        f"{args.labels}: {written} positions labelled in {seconds:.0f} s CPU "
        f"({seconds / max(written, 1):.2f} s each); {total} of {len(bank.positions())} labelled"
    )
    return 0


def _oracle_choices(labels: dict[int, Label], name: str) -> Choices:
    """A labelling as an agent: at each position the first action it rates best."""
    chosen = {i: lb.legal[lb.wins.index(max(lb.wins))] for i, lb in labels.items()}
    return Choices(name, chosen, 0.0)


def _pct(e: dict[str, Any]) -> str:
    low, high = e["ci95"]
    return f"{100 * e['mean']:5.1f} ({100 * low:.1f}-{100 * high:.1f})"


def cmd_choose(args: argparse.Namespace) -> int:
    """Each agent's choices at every position of the bank, kept in the cache folder."""
    bank = _bank(args.bank)
    positions = bank.positions()[: args.limit]
    if args.positions is not None:
        positions = stratified(positions, args.positions)
    cpu = args.cpu_per_decision
    for spec in args.agents.split(","):
        bar = progress_bar(len(positions), None, unit="position")
        path = _cache(args.cache, spec, cpu)
        done = cached_choices(spec, positions, bank.seed, path, bar.update, cpu=cpu)
        bar.close()
        print(f"{done.agent}: {len(done.chosen)} positions, {done.seconds:.0f} s CPU")
    return 0


def cmd_measure(args: argparse.Namespace) -> int:
    bank = _bank(args.bank)
    labels = read_labels(args.labels)
    positions = [p for p in bank.positions() if p.index in labels][: args.limit]
    if args.positions is not None:
        positions = stratified(positions, args.positions)
    cpu = args.cpu_per_decision
    if not positions:
        print(f"{args.labels}: no labelled positions", file=sys.stderr)
        return 1
    labels = {p.index: labels[p.index] for p in positions}
    games = game_index(bank)
    choices: list[Choices] = []
    for spec in args.agents.split(","):
        bar = progress_bar(len(positions), None, unit="position")
        # The hint keeps its own budget (it is what players are shown).
        at = None if spec == "hint" else cpu
        if args.cache is None:
            choices.append(choose_all(spec, positions, bank.seed, bar.update, cpu=at))
        else:
            path = _cache(args.cache, spec, at)
            choices.append(cached_choices(spec, positions, bank.seed, path, bar.update, cpu=at))
        bar.close()
    if args.noise is not None:
        other = read_labels(args.noise)
        choices.append(_oracle_choices({i: v for i, v in other.items() if i in labels}, "oracle2"))
    first = next(iter(labels.values()))
    oracle = (
        f"search oracle (ismcts:normal settings, {sum(first.visits)} iterations)"
        if first.visits is not None
        else f"oracle of {first.samples} play-outs per action"
    )
    out = {
        "bank": str(args.bank),
        "labels": str(args.labels),
        "oracle": oracle,
        "bank_positions": len(bank.positions()),
        "positions": len(positions),
        "subset": "all" if args.positions is None else f"stratified {args.positions}",
        "cpu_per_decision": cpu,
        "games": len({games[p.index] for p in positions}),
        **report(choices, labels, games),
        "done_deploying": [
            done_deploying(c, labels, positions, games) for c in choices if c.agent != "oracle2"
        ],
    }
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        _print_measure(out)
    return 0


def _print_measure(out: dict[str, Any]) -> None:
    print(
        f"{out['positions']} labelled positions (of the bank's {out['bank_positions']}) of "
        f"{out['games']} games ({out['subset']}), {out['oracle']}; "
        + (
            ""
            if out["cpu_per_decision"] is None
            else f"searches {out['cpu_per_decision']:g} s of thread CPU a decision; "
        )
        + "regret, agreement and "
        "oracle blunders (regret > 10 points) in %, 95% intervals over games"
    )
    w = max([16, *(len(s["agent"]) for s in out["scores"])])
    print(f"  {'agent':<{w}} {'regret':>20} {'agreement':>20} {'blunders':>20} {'CPU s':>7}")
    for s in out["scores"]:
        print(
            f"  {s['agent']:<{w}} {_pct(s['regret']):>20} {_pct(s['agreement']):>20} "
            f"{_pct(s['blunder_rate']):>20} {s['cpu_seconds']:>7}"
        )
    print("regret of one agent less another's (paired), and positions to tell them apart:")
    for d in out["pairs"]:
        print(
            f"  {d['a']} - {d['b']}: {_pct(d['regret_difference'])} points "
            f"over {d['positions']}; about {d['positions_needed']} positions needed"
        )
    print('"done deploying" with points to spend and a deployment legal, and the oracle:')
    for d in out["done_deploying"]:
        if d["positions"]:
            print(
                f"  {d['agent']}: {d['positions']} positions, oracle agrees "
                f"{_pct(d['agreement'])}%, regret {_pct(d['regret'])}"
            )
        else:
            print(f"  {d['agent']}: never")
    print("half-width of the regret's interval (points) by bank size:")
    for w in out["half_width_by_positions"]:
        cells = ", ".join(f"{k} {100 * v:.2f}" for k, v in w["half_width"].items())
        print(f"  {w['positions']:>5} positions: {cells}")


def cmd_check(args: argparse.Namespace) -> int:
    """The oracle as a player against ``--against``, both sides of each deal; a game a line
    in ``--out``, which a rerun continues."""
    ctx = context_for()
    iterations = args.iterations if args.oracle == "search" else None
    name = (
        f"search oracle ({iterations} iterations)"
        if iterations is not None
        else f"oracle ({args.samples} play-outs an action)"
    )
    done = [json.loads(x) for x in args.out.read_text().splitlines()] if args.out.exists() else []
    started = time.process_time()
    with args.out.open("a") as out:
        for k in range(len(done), 2 * args.deals):
            deal, oracle_side = divmod(k, 2)
            seed = bank_seed(args.seed, deal, "check/deal")
            game = new_game(seed, log=False)
            oracle: ThinkingAgent = OracleAgent(
                ctx, bank_seed(args.seed, k, "check/oracle"), args.samples, iterations
            )
            level = bulk_agent(args.against, ctx, bank_seed(args.seed, k, "check/level"))
            players = [oracle, level] if oracle_side == REBEL else [level, oracle]
            began = time.process_time()
            play_out(game, players)
            assert game.outcome is not None
            row = {
                "deal": deal,
                "oracle_side": "rebel" if oracle_side == REBEL else "imperial",
                "oracle_won": game.outcome.winner == oracle_side,
                "cpu": round(time.process_time() - began, 1),
            }
            done.append(row)
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(k, row, f"{time.process_time() - started:.0f} s", file=sys.stderr, flush=True)
    deals: dict[int, list[bool]] = {}
    for row in done:
        deals.setdefault(row["deal"], []).append(row["oracle_won"])
    full = [w for w in deals.values() if len(w) == 2]
    wins = sum(sum(w) for w in full)
    low, high = wilson(wins / 2, len(full))
    both = sum(all(w) for w in full)
    lost = sum(not any(w) for w in full)
    print(
        f"{name} vs {args.against}: {wins} of "
        f"{2 * len(full)} games over {len(full)} deals ({100 * wins / max(1, 2 * len(full)):.0f}%,"
        f" {100 * low:.0f}-{100 * high:.0f}% by deals); deals won both {both}, lost both "
        f"{lost}, split {len(full) - both - lost}"
    )
    _ = IMPERIAL
    return 0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 10:
        raise argparse.ArgumentTypeError(f"CPU seconds a decision must be in (0, 10], got {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="play the bank's games")
    gen.add_argument("--out", type=Path, default=BANK_PATH)
    gen.add_argument("--games", type=int, default=BANK_GAMES)
    gen.add_argument("--per-game", type=int, default=PER_GAME)
    gen.add_argument("--seed", type=int, default=BANK_SEED)
    gen.add_argument("--limit", type=int, default=None, help="play at most N missing games")
    lab = sub.add_parser("label", help="label the next chunk of positions")
    lab.add_argument("--bank", type=Path, default=BANK_PATH)
    lab.add_argument(
        "--labels", type=Path, default=None, help="default: the shipped labels of --oracle"
    )
    lab.add_argument("--chunk", type=int, default=100)
    lab.add_argument(
        "--oracle",
        choices=("search", "playouts"),
        default="search",
        help="search: ISMCTS at 20x normal (the default); playouts: heuristic play-outs",
    )
    lab.add_argument("--iterations", type=int, default=SEARCH_ITERATIONS)
    lab.add_argument("--samples", type=int, default=SAMPLES, help="play-outs per action")
    lab.add_argument(
        "--purpose", default=None, help="seed stream (another one: an independent labelling)"
    )
    lab.add_argument(
        "--done", type=Path, action="append", default=[], help="skip positions labelled here"
    )
    lab.add_argument("--reverse", action="store_true", help="label from the last position back")
    lab.add_argument(
        "--finishers",
        default=",".join(FINISHED_BY),
        help="who ends the turn in play-outs",
    )
    mea = sub.add_parser("measure", help="agents' regret on the bank")
    mea.add_argument("--bank", type=Path, default=BANK_PATH)
    mea.add_argument("--labels", type=Path, default=default_labels())
    mea.add_argument("--agents", default=",".join(DEFAULT_AGENTS))
    mea.add_argument("--limit", type=int, default=None, help="the first N labelled positions")
    mea.add_argument("--noise", type=Path, default=None, help="a second labelling to compare")
    mea.add_argument("--cache", type=Path, default=None, help="keep agents' choices here")
    mea.add_argument("--json", action="store_true")
    mea.add_argument(
        "--positions",
        type=int,
        default=None,
        help="a subset of N positions spread evenly over the games (screening)",
    )
    mea.add_argument(
        "--cpu-per-decision",
        type=_seconds,
        default=None,
        help="searching agents search this many seconds of thread CPU a decision",
    )
    cho = sub.add_parser("choose", help="agents' choices at every position, kept in --cache")
    cho.add_argument("--bank", type=Path, default=BANK_PATH)
    cho.add_argument("--agents", default=",".join(DEFAULT_AGENTS))
    cho.add_argument("--cache", type=Path, required=True)
    cho.add_argument("--limit", type=int, default=None, help="the bank's first N positions")
    cho.add_argument(
        "--positions",
        type=int,
        default=None,
        help="a subset of N positions spread evenly over the games (screening)",
    )
    cho.add_argument(
        "--cpu-per-decision",
        type=_seconds,
        default=None,
        help="searching agents search this many seconds of thread CPU a decision",
    )
    chk = sub.add_parser("check", help="the oracle as a player against a level")
    chk.add_argument("--against", default="ismcts:normal")
    chk.add_argument("--deals", type=int, default=8)
    chk.add_argument("--oracle", choices=("search", "playouts"), default="search")
    chk.add_argument("--iterations", type=int, default=SEARCH_ITERATIONS)
    chk.add_argument("--samples", type=int, default=SAMPLES)
    chk.add_argument("--seed", type=int, default=BANK_SEED)
    chk.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    commands = {
        "generate": cmd_generate,
        "label": cmd_label,
        "choose": cmd_choose,
        "measure": cmd_measure,
        "check": cmd_check,
    }
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
