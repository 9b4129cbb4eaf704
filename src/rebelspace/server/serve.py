"""``rebelspace serve`` and ``rebelspace loadtest``: their arguments and how they run.

The arguments are declared without the server extra (``rebelspace --help`` lists them on a
core install); running either command first checks for the extra, and says in one line how
to install it if it is missing (``rebelspace.extras``).
"""

from __future__ import annotations

import argparse
import os
import sys

from rebelspace.cliargs import add_game_args as _add_game_args
from rebelspace.cliargs import cards_from as _cards
from rebelspace.cliargs import fail as _fail
from rebelspace.cliargs import port_number
from rebelspace.cliargs import rules_from as _rules
from rebelspace.extras import require

from .games import CLAIM_AFTER
from .limits import ClientLimits, Rate, parse_rate
from .manager import IDLE_DAYS

DEFAULT_DB = "rebelspace-games.sqlite3"


def add_serve(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "serve",
        help="run the game server (REST + WebSocket, SQLite store)",
        description="Run the game server: games against the computer, hot-seat and online "
        "games in the browser. Games are kept in a SQLite file and resume after a restart. "
        "--cards and --rule set the card lists and rules of new games (each game keeps its own). "
        "The protocol is in docs/protocol.md; the OpenAPI document is at /openapi.json.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    p.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="PATH|URL",
        help=f"the SQLite file of the games (default ./{DEFAULT_DB}; created if missing; one "
        "process only), or a PostgreSQL database, postgresql://user@host/name (several "
        "processes may share it)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes for the ismcts computer player (default: cores - 1, at least 1)",
    )
    defaults = ClientLimits()
    p.add_argument(
        "--create-limit",
        type=_rate,
        default=defaults.create,
        metavar="BURST/PER_MINUTE",
        help="games one client address may create: BURST at once, then PER_MINUTE a minute "
        f"(default {defaults.create.burst}/{defaults.create.per_minute:g}); more get 429",
    )
    p.add_argument(
        "--connect-limit",
        type=_rate,
        default=defaults.connect,
        metavar="BURST/PER_MINUTE",
        help="WebSocket connections one client address may open, likewise (default "
        f"{defaults.connect.burst}/{defaults.connect.per_minute:g})",
    )
    p.add_argument(
        "--idle-days",
        type=float,
        default=IDLE_DAYS,
        metavar="DAYS",
        help="delete unfinished games with no activity for DAYS (default %(default)g; "
        "finished games are kept)",
    )
    p.add_argument(
        "--claim-after",
        type=float,
        default=CLAIM_AFTER,
        metavar="SECONDS",
        help="in an online game without a clock, a player may claim the win once the opponent "
        "has been disconnected this long (default %(default)g)",
    )
    p.add_argument(
        "--access-log",
        action="store_true",
        help="log every request (seat tokens in WebSocket URLs and the codes of invite links "
        "are replaced by <redacted>; still, keep such logs private)",
    )
    p.add_argument(
        "--docs",
        action="store_true",
        help="serve the API's browsable pages /docs (Swagger UI) and /redoc (ReDoc); they "
        "load their scripts and styles from a CDN (cdn.jsdelivr.net) into the origin that "
        "holds the seat tokens, so they are off by default (/openapi.json is always served)",
    )
    _add_game_args(p)  # --cards and --rule: for new games; each game keeps its own
    p.add_argument(
        "--ws-deflate",
        action="store_true",
        help="compress WebSocket messages (permessage-deflate): less traffic on slow links, "
        "several times the CPU per message (default: off)",
    )
    # Tests only: answer each action's REST request this many seconds after the WebSocket push.
    p.add_argument("--test-answer-delay", type=float, default=0.0, help=argparse.SUPPRESS)
    # Tests only: append "pid game version" to this file before each computer move is written.
    p.add_argument("--test-decision-log", default=None, help=argparse.SUPPRESS)
    p.set_defaults(handler=cmd_serve)


def _rate(text: str) -> Rate:
    try:
        return parse_rate(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def cmd_serve(args: argparse.Namespace) -> int:
    require("server", "rebelspace serve")
    import uvicorn

    from .app import create_app
    from .computer import ComputerPlayers
    from .limits import WS_MAX_SIZE
    from .security import install_log_filter
    from .store import DatabaseInUseError, is_postgres

    folder = os.path.dirname(os.path.abspath(args.db))
    if not is_postgres(args.db) and not os.path.isdir(folder):
        print(f"rebelspace serve: --db {args.db}: folder {folder} does not exist", file=sys.stderr)
        return 2
    if args.workers is not None and args.workers < 1:
        print("rebelspace serve: --workers must be at least 1", file=sys.stderr)
        return 2
    if not args.idle_days > 0:
        print("rebelspace serve: --idle-days must be more than 0", file=sys.stderr)
        return 2
    if not 0 <= args.claim_after <= 86400:
        print("rebelspace serve: --claim-after must be 0..86400 seconds", file=sys.stderr)
        return 2
    from rebelspace.engine import RebelSpaceError

    try:
        cards, options = _cards(args), _rules(args)
    except RebelSpaceError as e:
        return _fail("serve", e)
    try:
        app = create_app(
            args.db,
            computer=ComputerPlayers(args.workers),
            cards=cards,
            options=options,
            answer_delay=args.test_answer_delay,
            limits=ClientLimits(args.create_limit, args.connect_limit),
            idle_days=args.idle_days,
            docs=args.docs,
            claim_after=args.claim_after,
            decision_log=args.test_decision_log,
        )
    except DatabaseInUseError as e:
        print(f"rebelspace serve: {e}", file=sys.stderr)
        return 2
    install_log_filter()  # uvicorn's loggers: no seat token or invite code reaches a log
    print(f"Rebel Space server on http://{args.host}:{args.port}/ (games in {args.db})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=WS_MAX_SIZE,
        access_log=args.access_log,
        ws_per_message_deflate=args.ws_deflate,
        # uvicorn logs every WebSocket's URL (with its ?token=) at "info": only on request.
        log_level="info" if args.access_log else "warning",
        # Longer than a player's pause, so a client rarely reuses a connection being closed.
        timeout_keep_alive=30,
    )
    return 0


def add_loadtest(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "loadtest",
        help="play many concurrent games against a running server; latency and errors",
        description="Play GAMES concurrent games over real HTTP and WebSocket connections "
        "against a running server (start one with `rebelspace serve`). Each game is hot-seat "
        "(both seats play random legal actions over their own WebSocket) or against the random "
        "computer. Prints the errors and the p50/p95/max latency of the human seats' actions: "
        "from sending the action to receiving the new state (on the seat's WebSocket, or the "
        "REST answer).",
    )
    p.add_argument(
        "--url",
        default="http://127.0.0.1:8000",
        help="the server (default: %(default)s), or several processes on one PostgreSQL "
        "database, comma separated: each game's seats then talk to different processes, and "
        "the cross-process update latency is printed",
    )
    p.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    p.add_argument(
        "--actions",
        type=int,
        default=0,
        help="human actions per game at most; 0 (default): play every game to its end",
    )
    p.add_argument(
        "--mode",
        choices=("hotseat", "computer", "mixed"),
        default="mixed",
        help="hot-seat games, games against the random computer, or half of each (default)",
    )
    p.add_argument(
        "--think",
        type=float,
        default=0.25,
        help="mean seconds a player waits before each action, drawn from 0.5x..1.5x (default "
        "0.25, far quicker than people play; 0: as fast as the server answers, a stress test)",
    )
    p.add_argument(
        "--ramp",
        type=float,
        default=2.0,
        help="seconds over which the games start, each at a random moment (default 2)",
    )
    p.add_argument(
        "--via",
        choices=("ws", "rest", "both"),
        default="both",
        help="send actions on the seat's WebSocket, by REST, or each at random (default)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of the players' choices")
    p.add_argument(
        "--flood",
        type=int,
        default=0,
        metavar="N",
        help="meanwhile, N connections create games as fast as the server answers (from "
        "127.0.0.2 when the server is on 127.0.0.1), to measure play beside a creation flood",
    )
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.set_defaults(handler=cmd_loadtest)


def cmd_loadtest(args: argparse.Namespace) -> int:
    import asyncio
    import json

    from .loadtest import run_loadtest

    require("server", "rebelspace loadtest", ["websockets"])

    if args.games < 1 or min(args.actions, args.think, args.ramp, args.flood) < 0:
        print(
            "rebelspace loadtest: --games must be >= 1, --actions, --think, --ramp and --flood"
            " >= 0",
            file=sys.stderr,
        )
        return 2
    try:
        result = asyncio.run(
            run_loadtest(
                args.url,
                games=args.games,
                actions=args.actions,
                mode=args.mode,
                think=args.think,
                seed=args.seed,
                via=args.via,
                ramp=args.ramp,
                flood=args.flood,
            )
        )
    except ValueError as e:
        print(f"rebelspace loadtest: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:<22} {value}")
    return 0 if result["errors"] == 0 else 1
