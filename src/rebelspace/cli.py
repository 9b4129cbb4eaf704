"""The ``rebelspace`` command.

Over 500 lines: one pair of short functions per subcommand, listed once in SUBCOMMANDS; each
pair is independent, so the length costs a reader nothing.

Each subcommand is one pair of functions: ``_add_<name>(subparsers)`` declares its arguments and
``_cmd_<name>(args) -> int`` runs it. They are listed once in ``SUBCOMMANDS``, so adding a
command is adding one entry there. Commands print to stdout, report bad input to stderr and
return an exit status (0 success, 2 bad input), so ``main`` is easy to test with ``capsys``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from rebelspace import __version__
from rebelspace.cliargs import (
    EXIT_BAD_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    add_cards_arg,
    add_game_args,
    add_json_arg,
    add_workers_arg,
    cards_from,
    fail,
    positive_float,
    positive_int,
    rules_from,
)
from rebelspace.engine import (
    PLAYER_NAMES,
    SIDE_NAMES,
    CardDataError,
    RebelSpaceError,
    RecordError,
    RulesOptions,
    ScenarioError,
    load_cards,
    load_record,
    load_scenario_file,
    replay,
)
from rebelspace.engine.cards import deck_report
from rebelspace.extras import MissingExtraError, extra_of, hint

Handler = Callable[[argparse.Namespace], int]
# argparse has no public name for the type add_subparsers() returns.
Registrar = Callable[["argparse._SubParsersAction[argparse.ArgumentParser]"], None]  # noqa: SLF001


# --- decks -------------------------------------------------------------------------------------


def _add_decks(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "decks",
        help="validate the card lists and show both decks (R1)",
        description="Load and validate the card lists, print both decks and their sizes "
        "against the 65 cards the rule sheet states (R1).",
    )
    p.add_argument("--cards", metavar="FILE", help="card file (default: the packaged lists)")
    p.set_defaults(handler=_cmd_decks)


def _cmd_decks(args: argparse.Namespace) -> int:
    try:
        db = load_cards(args.cards)
    except CardDataError as exc:
        print(f"rebelspace decks: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    sys.stdout.write(deck_report(db))
    return EXIT_OK


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


# --- play --------------------------------------------------------------------------------------


def _level(text: str) -> str:
    """An ISMCTS level (``LEVEL_NAMES``) or a number of iterations a decision."""
    from rebelspace.agents.registry import LEVEL_NAMES

    if text in LEVEL_NAMES or (text.isascii() and text.isdigit() and int(text) > 0):
        return text
    raise argparse.ArgumentTypeError(
        f"must be {', '.join(LEVEL_NAMES)} or a number of iterations, got {text!r}"
    )


def _pace(text: str) -> float:
    """Seconds between the computer's moves on the board: a number from 0 to 10."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 10:
        raise argparse.ArgumentTypeError(f"must be a number of seconds from 0 to 10, got {text!r}")
    return value


def _add_play(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.terminal.levels import levels_words

    p = subparsers.add_parser(
        "play",
        help="play one side in the terminal against a computer opponent",
        description="Play one side of a game in the terminal against a computer opponent "
        "(information-set MCTS at level normal unless you choose another). On a terminal the "
        "game is a full-screen board: pick a choice with the arrow keys, its number or the "
        "mouse, Enter plays it; h hint, u undo, r rules, : to type, ? the keys, q save and "
        "quit. In the line mode (--plain, or off a terminal) the table is "
        "shown at the start of your turns and after the computer's moves, each decision as "
        "numbered choices: answer with a number or an action's text (or its unique start). "
        "Choices with one option play themselves. help lists the commands: card NAME, ?N "
        "(the card of choice N), rules TOPIC, why ACTION, undo, t (the table), q. Every game "
        "is saved in a file of its own in your data folder before each of your decisions "
        "and when you leave (q, Ctrl-D, Ctrl-C); a new game first offers to resume the "
        "newest unfinished one. Units show ground/space/damage ratings; hand cards their "
        "cost too.",
        epilog=levels_words() or None,
    )
    p.add_argument("--side", choices=SIDE_NAMES, default="rebel", help="your side (default: rebel)")
    p.add_argument(
        "--opponent",
        choices=("random", "heuristic", "ismcts"),
        default="ismcts",
        help="the computer opponent (default: ismcts)",
    )
    p.add_argument(
        "--level",
        type=_level,
        default="normal",
        metavar="{easy,normal,hard,expert,N}",
        help="the ismcts opponent's strength: easy (weaker than the heuristic) or normal "
        "(stronger than it); hard and expert are experimental, not shown stronger than normal; "
        "or N iterations a decision (default: normal)",
    )
    p.add_argument(
        "--seed",
        type=int,
        help="game seed (default: a fresh one, printed so it can be replayed); starts a new "
        "game without the offer to resume",
    )
    add_game_args(p)
    p.add_argument(
        "--save",
        metavar="RECORD.json",
        help="keep the game record in this file instead of a new one in the data folder "
        "(asks before replacing a file that exists)",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="RECORD.json",
        help="go on with a saved game (same side, computer and seeds; saved back there "
        "unless --save says otherwise); with no file, the newest unfinished game saved",
    )
    p.add_argument(
        "--new", action="store_true", help="start a new game without the offer to resume"
    )
    p.add_argument(
        "--confirm-forced",
        action="store_true",
        help="ask even when a decision has one choice (pass, end turn...)",
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="the line mode: the game as lines of text and questions, for pipes, scripts and "
        "screen readers (chosen by itself when input or output is not a terminal); by default "
        "a terminal gets the full-screen board",
    )
    p.add_argument(
        "--pace",
        type=_pace,
        default=0.8,
        metavar="SECONDS",
        help="on the board, the pause between the computer's moves so you can follow them "
        "(default 0.8; 0: no pause; p changes it during the game)",
    )
    p.add_argument(
        "--end-without-asking",
        action="store_true",
        help="end the deploy phase or the turn at once, even with cards you could still play "
        "(by default you are asked first)",
    )
    p.set_defaults(handler=_cmd_play)


def _cmd_play(args: argparse.Namespace) -> int:
    from rebelspace.terminal.launch import run_play

    return run_play(args)


# --- card --------------------------------------------------------------------------------------


def _add_card(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "card",
        help="show a card in full: type, cost, ratings, keywords, ability",
        description="Show one card in plain words, as `card NAME` does during a game: its "
        "side, type, copies, cost and ratings, and what its keywords and ability do (with "
        "the rulings to read). NAME is the name or its start, case ignored.",
    )
    p.add_argument("name", nargs="+", metavar="NAME", help="the card's name or its start")
    add_cards_arg(p)
    p.set_defaults(handler=_cmd_card)


def _cmd_card(args: argparse.Namespace) -> int:
    from rebelspace.terminal import find_cards, lookup_lines

    try:
        db = load_cards(args.cards)
    except CardDataError as exc:
        return fail("card", exc)
    query = " ".join(args.name)
    lines = lookup_lines(db, query)
    if len(find_cards(db, query)) != 1:
        return fail("card", lines[0])
    print("\n".join(lines))
    return EXIT_OK


# --- simulate ----------------------------------------------------------------------------------


def _add_simulate(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "simulate",
        help="random-vs-random games: win counts and game length",
        description="Play random-vs-random games. Game i is seeded SEED+i and its two agents "
        "get seeds derived from that, so the same arguments give the same wins and turns.",
    )
    p.add_argument("--games", type=positive_int, default=100, help="games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"games", "wins": {"rebel", "imperial"}, "mean_turns", "games_per_second"}',
    )
    add_game_args(p)
    p.set_defaults(handler=_cmd_simulate)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from rebelspace.play.simulate import simulate

    try:
        cards, options = cards_from(args), rules_from(args)
    except RebelSpaceError as exc:
        return fail("simulate", exc)
    result = simulate(args.games, args.seed, options=options, cards=cards)
    if args.json:
        _print_json(result.to_dict())
        return EXIT_OK
    n = result.games
    print(
        f"{n} random-vs-random games, seeds {args.seed}..{args.seed + n - 1}\n"
        f"  Rebel wins:    {result.rebel_wins:>6} ({100 * result.rebel_wins / n:.1f}%)\n"
        f"  Imperial wins: {result.imperial_wins:>6} ({100 * result.imperial_wins / n:.1f}%)\n"
        f"  mean turns:    {result.mean_turns:>9.2f}\n"
        f"  games/second:  {result.games_per_second:>9.1f}"
    )
    return EXIT_OK


# --- bench -------------------------------------------------------------------------------------


def _add_bench(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.play.bench import BENCH_CLONES, BENCH_SECONDS

    p = subparsers.add_parser(
        "bench",
        help="engine speed: games and decisions per second, clone() cost",
        description="Measure the engine on one core (build: compiled or pure, which "
        "build of the engine runs): random-vs-random full games (a seeded "
        "random choice straight from legal_actions(), no views, no log) give games_per_second "
        "and decisions_per_second (decisions = applied actions); then copy_us is the mean "
        f"microseconds of state.clone() over {BENCH_CLONES} clones of mid-game states.",
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument(
        "--games", type=positive_int, help="play exactly this many games (default: time-boxed)"
    )
    p.add_argument(
        "--seconds",
        type=positive_float,
        default=BENCH_SECONDS,
        help=f"time box for playing games when --games is not given (default {BENCH_SECONDS:g})",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    add_game_args(p)
    p.add_argument(
        "--engine-only",
        action="store_true",
        help="skip the ISMCTS and environment figures (ismcts_iterations_per_second, "
        "env_steps_per_second)",
    )
    p.set_defaults(handler=_cmd_bench)


def _cmd_bench(args: argparse.Namespace) -> int:
    from rebelspace.play.bench import bench, bench_ismcts

    try:
        cards, options = cards_from(args), rules_from(args)
    except RebelSpaceError as exc:
        return fail("bench", exc)
    result = bench(
        games=args.games, seconds=args.seconds, seed=args.seed, options=options, cards=cards
    )
    if not args.engine_only:
        result.update(bench_ismcts(seed=args.seed))
        # Only with the rl extra: PettingZoo/Gymnasium env steps per second (rebelspace.env).
        result.update(_bench_env(games=args.games, seed=args.seed, options=options))
    if args.json:
        print(json.dumps(result))
    else:
        width = max(map(len, result))
        for key, value in result.items():
            print(f"{key:<{width}}  {value}")
    return EXIT_OK


def _bench_env(*, games: int | None, seed: int, options: RulesOptions) -> dict[str, Any]:
    """``env_steps_per_second`` of the AI research environments (random play, one core), or
    nothing when the optional ``rl`` extra is not installed. See ``rebelspace.env.bench``.

    Here and not in ``sim``: the simulator stays below the environments, which use it."""
    try:
        from rebelspace.env.bench import bench_env
    except ImportError:
        return {}
    return bench_env(games=games, seed=seed, options=options)


# --- replay ------------------------------------------------------------------------------------


def _add_replay(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "replay",
        help="replay a JSON game record and print its log and result",
        description="Replay a game record (as written by `play --save`) from its seed, rules "
        "and cards, then print the game log and the result. With --player, the log is the one "
        "that player saw (the other side's hidden draws left out).",
    )
    p.add_argument("record", metavar="RECORD", help="the record's JSON file")
    p.add_argument("--player", choices=SIDE_NAMES, help="show the log as this player saw it")
    p.add_argument(
        "--json",
        action="store_true",
        help='print {"log": [lines], "actions": count, "turn", "result": {"winner", "reason", '
        '"turns"} or null}',
    )
    p.add_argument(
        "--open",
        action="store_true",
        help="open the game in the browser's replay viewer instead: a local server (the server "
        "extra) on a free loopback port, its URL printed, serving until Ctrl-C",
    )
    p.set_defaults(handler=_cmd_replay)


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = load_record(args.record)
        game = replay(record, source=args.record)
    except RecordError as exc:
        return fail("replay", exc)
    if args.open:
        from rebelspace.server.local import serve_replay

        return serve_replay(record)
    outcome = game.outcome
    player = None if args.player is None else SIDE_NAMES.index(args.player)
    log = game.log_lines(player)
    result = (
        None
        if outcome is None
        else {"winner": outcome.winner_name.lower(), "reason": outcome.reason, "turns": game.turn}
    )
    if args.json:
        _print_json(
            {"log": log, "actions": len(record["actions"]), "turn": game.turn, "result": result}
        )
        return EXIT_OK
    for line in log:
        print(line)
    if outcome is None:
        print(
            f"Unfinished game: {len(record['actions'])} actions, turn {game.turn}, "
            f"{PLAYER_NAMES[game.to_move]} to decide"
        )
    else:
        print(f"Result: {outcome.winner_name} wins on turn {game.turn} ({outcome.reason})")
    return EXIT_OK


# --- scenario ----------------------------------------------------------------------------------


def _add_scenario(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "scenario",
        help="load a scenario file and show the whole position and the legal actions",
        description="Load a scenario file (format: rebelspace.engine.scenario), play its "
        "actions and print the position: turn, phase, step, whose decision, every zone of "
        "both players by card name (hands and deck order included: this is a design tool), "
        "the battle and the numbered legal actions. --json prints {turn, phase, step, player, "
        "to_move, deploy_points, zones: {rebel, imperial: {hand, deck, discard, active, "
        "inactive}}, battle, legal_actions, winner, end_reason, log}. In zones, hand, deck "
        "and discard are lists of card names (deck top card first, hand sorted); active and "
        'inactive units are always objects {"name", "attachments": [names]}, the form a '
        "scenario file accepts. battle is null or {attacker, groups: [{number, kind, units, "
        "value, blockers, target, defense_value}], attack_bonus, defense_bonus, psion_cards, "
        "casualty_group, casualty_budget}.",
    )
    p.add_argument("file", metavar="FILE", help="the scenario's JSON file")
    add_json_arg(p, "the position")
    add_cards_arg(p)
    p.set_defaults(handler=_cmd_scenario)


def _cmd_scenario(args: argparse.Namespace) -> int:
    from rebelspace.position_text import position_dict, position_lines

    try:
        game = load_scenario_file(args.file, cards=cards_from(args))
    except (ScenarioError, CardDataError) as exc:
        return fail("scenario", exc)
    if args.json:
        _print_json(position_dict(game))
    else:
        print("\n".join(position_lines(game)))
    return EXIT_OK


# --- arena -------------------------------------------------------------------------------------


def _add_arena(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "arena",
        help="round robin between agents, duplicate format, on every core",
        description="Play every pair of agents against each other. Each game seed is played "
        "twice per pair with the agents swapping sides and the same shuffles (duplicate "
        "format). Agents: random, heuristic, ismcts, ismcts:easy|normal|hard|expert, ismcts:N "
        "(N iterations per decision), distilled (the fast policy fitted to ismcts:normal), "
        "distilled:PATH; with the rl extra, openspiel-ismcts[:N] (OpenSpiel's "
        "ISMCTS bot) and policy:PATH (a trained masked policy).",
    )
    p.add_argument("--agents", required=True, help="comma-separated agent names")
    p.add_argument("--games", type=positive_int, default=20, help="games per pair (default 20)")
    p.add_argument("--seed", type=int, default=0, help="base seed (default 0)")
    add_workers_arg(p)
    add_cpu_arg(p)
    add_json_arg(p, "the results")
    add_game_args(p)
    p.set_defaults(handler=_cmd_arena)


def add_cpu_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--cpu-per-decision",
        type=positive_float,
        metavar="SECONDS",
        help="give every searching agent (ismcts) this much CPU time of its thread a decision "
        "instead of its iterations, so both sides think equally long; such games depend on the "
        "machine's speed, not on the seed alone (default: iterations, the same games every run)",
    )


def _cmd_arena(args: argparse.Namespace) -> int:
    from rebelspace.agents.registry import make_agent
    from rebelspace.engine import context_for
    from rebelspace.play.arena import run_tasks, summarize, tasks

    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    try:
        cards, options = cards_from(args), rules_from(args)
        ctx = context_for(cards, options)
        for spec in agents:
            make_agent(spec, ctx, 0)  # reject a bad name before any game starts
    except RebelSpaceError as exc:
        return fail("arena", exc)
    if len(agents) < 2 or len(set(agents)) != len(agents):
        return fail("arena", "--agents needs at least two different agents")
    todo = tasks(agents, args.games, args.seed, cpu=args.cpu_per_decision)
    results = list(run_tasks(todo, workers=args.workers, cards=cards, options=options))
    summary = summarize(agents, results)
    if args.cpu_per_decision is not None:
        summary["cpu_per_decision"] = args.cpu_per_decision
    if args.json:
        print(json.dumps(summary))
        return EXIT_OK
    if args.cpu_per_decision is not None:
        print(f"Searches: {args.cpu_per_decision:g} s of CPU time a decision each")
    for m in summary["matches"]:
        lo, hi = m["ci95"]
        print(
            f"{m['a']:>14} vs {m['b']:<14} {m['a_wins']:>4}/{m['games']:<4} "
            f"{100 * m['a_win_rate']:5.1f}%  (95% CI {100 * lo:.1f}-{100 * hi:.1f}%, "
            f"{m['deals']} deals: {m['a']} won both {m['won_both']}, lost both "
            f"{m['lost_both']}, split {m['split']})"
        )
    print("Ratings (Bradley-Terry, Elo scale):")
    for name, rating in sorted(summary["ratings"].items(), key=lambda kv: -kv[1]):
        print(f"  {name:<16} {rating:7.1f}")
    return EXIT_OK


# --- analyse (the terminal game's post-game analysis: rebelspace.terminal.analysis) ------------


def _add_analyse(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.terminal.analysis import add_analyse_parser

    add_analyse_parser(subparsers)


# --- train, distil (the learnt evaluation and the distilled policy: rebelspace.training) --------


def _add_train(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.training.command import add_train_parser

    add_train_parser(subparsers)


def _add_distil(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.training.distil_command import add_distil_parser

    add_distil_parser(subparsers)


# --- ladder -------------------------------------------------------------------------------------


def _add_ladder(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.play.ratings import LEVELS

    p = subparsers.add_parser(
        "ladder",
        help="rate the computer levels against each other (Elo with 95%% intervals)",
        description="Play every level against every other in duplicate format (each deal "
        "twice, sides swapped) on every core, and rate them: Bradley-Terry ratings on the Elo "
        "scale, the heuristic pinned at 1500, with bootstrap 95% intervals over deals. The "
        "same seed gives the same table.",
    )
    p.add_argument(
        "--levels",
        default=",".join(LEVELS),
        help=f"comma-separated levels or agent names, weakest first (default {','.join(LEVELS)})",
    )
    p.add_argument("--games", type=positive_int, default=20, help="games per pair (default 20)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    add_workers_arg(p)
    add_cpu_arg(p)
    p.add_argument("--out", help="also write the table's JSON to this file")
    add_json_arg(p, "the table")
    p.add_argument(
        "--publish",
        action="store_true",
        help="also play the small check ladder and write both into the package's "
        "data/ladder.json, which the README and the browser's lobby show",
    )
    p.set_defaults(handler=_cmd_ladder)


def _write_json(path: str, data: object) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)
        f.write("\n")


def _cmd_ladder(args: argparse.Namespace) -> int:
    from rebelspace.agents.registry import make_agent
    from rebelspace.engine import context_for
    from rebelspace.play.ratings import (
        CHECK_GAMES,
        CHECK_LEVELS,
        PUBLISHED,
        agent_of,
        ladder,
        markdown,
        publish,
    )

    levels = [level.strip() for level in args.levels.split(",") if level.strip()]
    if len(levels) < 2 or len(set(levels)) != len(levels):
        return fail("ladder", "--levels needs at least two different levels")
    try:
        for level in levels:
            make_agent(agent_of(level), context_for(), 0)  # a bad name fails before any game
    except RebelSpaceError as exc:
        return fail("ladder", exc)
    if args.publish and args.cpu_per_decision is not None:
        return fail("ladder", "--publish plays by iterations (the same table every run): "
                    "leave out --cpu-per-decision")  # fmt: skip
    table = ladder(levels, args.games, args.seed, workers=args.workers, cpu=args.cpu_per_decision)
    if args.out:
        _write_json(args.out, table)
    if args.publish:
        check = ladder(CHECK_LEVELS, CHECK_GAMES, args.seed, workers=args.workers)
        _write_json(os.path.join(os.path.dirname(__file__), PUBLISHED), publish(table, check))
    print(json.dumps(table) if args.json else markdown(table))
    return EXIT_OK


# --- serve, loadtest (the game server: rebelspace.server) ---------------------------------------


def _add_serve(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.server.serve import add_serve

    add_serve(subparsers)


def _add_loadtest(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.server.serve import add_loadtest

    add_loadtest(subparsers)


# --- rules (the complete rules, docs/rules.md: rebelspace.rules_doc) ------------------------------


def _add_rules(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from rebelspace.rules_doc import add_rules

    add_rules(subparsers)


# --- the balance lab (rebelspace.lab): balance, report, ablate, compare, sweep, suggest --------


def _lab_registrar(name: str) -> Registrar:
    def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        from rebelspace.lab.cli import COMMANDS

        COMMANDS[name](subparsers)

    return register


LAB_COMMANDS = (
    "balance",
    "runs",
    "report",
    "ablate",
    "compare",
    "sweep",
    "suggest",
    "export",
    "bench-lab",
)


#: Subcommands in help order: name -> function that adds its parser and sets ``handler``.
SUBCOMMANDS: dict[str, Registrar] = {
    "arena": _add_arena,
    "ladder": _add_ladder,
    "train": _add_train,
    "distil": _add_distil,
    "decks": _add_decks,
    "rules": _add_rules,
    "play": _add_play,
    "card": _add_card,
    "simulate": _add_simulate,
    "bench": _add_bench,
    "replay": _add_replay,
    "analyse": _add_analyse,
    "scenario": _add_scenario,
    "serve": _add_serve,
    "loadtest": _add_loadtest,
    **{name: _lab_registrar(name) for name in LAB_COMMANDS},
}


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="rebelspace", description="Rebel Space: a two-player sci-fi card game."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for register in SUBCOMMANDS.values():
        register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rebelspace`` console script; returns the exit status.

    A command that needs an extra that is not installed prints one line saying which and how
    to install it (``rebelspace.extras``) and returns 2, never an ImportError traceback.
    With no arguments it says in three lines how to start; a command name with a typing slip
    gets the names it looks like.
    """
    words = list(sys.argv[1:] if argv is None else argv)
    if not words:
        return _first_contact()
    if not words[0].startswith("-") and words[0] not in SUBCOMMANDS:
        return _unknown_command(words[0])
    args = build_parser().parse_args(words)
    handler: Handler = args.handler
    try:
        status = handler(args)
        sys.stdout.flush()  # here, so that a reader gone away is caught below, not at exit
        return status
    except BrokenPipeError:
        # The reader went away (``rebelspace simulate --json | head``): nothing more to say to
        # it. Stop quietly, and send what is still buffered nowhere instead of failing again
        # at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:  # a command's own Ctrl-C handling says more; this is the floor
        print("Interrupted.", file=sys.stderr)
        return EXIT_INTERRUPTED
    except ModuleNotFoundError as exc:
        message = _missing_extra(exc, f"rebelspace {args.command}")
        if message is None:
            raise
        print(message, file=sys.stderr)
        return EXIT_BAD_INPUT


def _first_contact() -> int:
    """``rebelspace`` alone: what it is and the two commands to go on with, in the form that
    works here (the script on PATH, else this Python)."""
    from rebelspace.terminal.saves import rebelspace_command

    command = rebelspace_command()
    print("Rebel Space, a two-player sci-fi card game.")
    print(f"Play against the computer:  {command} play")
    print(f"Every command:              {command} --help")
    return EXIT_OK


def _unknown_command(word: str) -> int:
    import difflib

    close = difflib.get_close_matches(word, SUBCOMMANDS, n=3, cutoff=0.6)
    also = f"; did you mean {' or '.join(close)}?" if close else ""
    from rebelspace.terminal.saves import rebelspace_command

    lists = f"{rebelspace_command()} --help lists them"
    print(f"rebelspace: no command {word!r}{also} ({lists})", file=sys.stderr)
    return EXIT_BAD_INPUT


def _missing_extra(exc: ModuleNotFoundError, what: str) -> str | None:
    """The one-line hint when ``exc`` is a missing extra (checked for, or a module of one that
    failed to import anyway), else None: any other missing module is a bug to show in full."""
    if isinstance(exc, MissingExtraError):
        return str(exc)
    extra = extra_of(exc.name)
    return None if extra is None else hint(extra, what, [(exc.name or "").partition(".")[0]])


if __name__ == "__main__":
    sys.exit(main())
