"""Issue 33's message-size target: a state message at ply 259 of a random game, at most 5 KB.

    PYTHONPATH=src python benchmarks/message_size.py                 # 40 games, ply 259
    PYTHONPATH=src python benchmarks/message_size.py --games 200 --ply 259 --json

Each game is a hot-seat game of the server (``GameServer`` on a temporary SQLite file) with
seed 1..GAMES, both seats playing uniformly random legal actions (``random.Random(seed)``);
games that end before the ply are left out (and counted). At the ply, each seat's message is
measured two ways: as a WebSocket push (the client holds the events up to the previous
message, ``since``, and that message itself, so the push is a delta that carries what
changed: docs/protocol.md, "What a message carries") and whole (no ``since``: a REST read
without it). Sizes are bytes of the UTF-8 JSON text; printed are the median, the 95th
percentile and the largest, and how many are at most the target.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
from typing import Any

from rebelspace.server.games import Since
from rebelspace.server.loadtest import percentile
from rebelspace.server.manager import GameServer, NewGame
from rebelspace.server.messages import Message, build_state, state_text
from rebelspace.server.store import Store

TARGET = 5 * 1024


def measure(games: int, ply: int) -> dict[str, Any]:
    pushed: list[int] = []
    whole: list[int] = []
    short = 0
    with tempfile.TemporaryDirectory() as folder:
        store = Store(os.path.join(folder, "games.sqlite3"))
        server = GameServer(store)
        try:
            for seed in range(1, games + 1):
                rng = random.Random(seed)
                session, _seats, _invite = server.create(NewGame("hotseat", seed=seed))
                since: dict[int, Since | None] = {0: None, 1: None}
                held: dict[int, Message | None] = {0: None, 1: None}
                while session.plies < ply and not session.over:
                    seat = session.state.to_move
                    session.commit(rng.choice(session.state.legal_actions()), seat, store)
                    for p in (0, 1):
                        text, held[p] = build_state(session, p, since[p], held[p])
                        if session.plies == ply:
                            pushed.append(len(text.encode()))
                            whole.append(len(state_text(session, p).encode()))
                        since[p] = (len(session.events_json(p)), session.version)
                server.sessions.clear()  # one game in memory at a time
                short += session.plies < ply
        finally:
            store.close()

    def figures(sizes: list[int]) -> dict[str, Any]:
        return {
            "messages": len(sizes),
            "median": statistics.median(sizes) if sizes else 0,
            "p95": percentile([float(s) for s in sizes], 0.95),
            "max": max(sizes, default=0),
            "at_most_target": sum(s <= TARGET for s in sizes),
        }

    return {
        "games": games,
        "ply": ply,
        "ended_before": short,
        "target_bytes": TARGET,
        "pushed": figures(pushed),
        "whole": figures(whole),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--ply", type=int, default=259)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    result = measure(args.games, args.ply)
    if args.json:
        print(json.dumps(result))
        return
    games, ply = args.games, args.ply
    print(f"{games} random hot-seat games (seeds 1..{games}), each seat at ply {ply}")
    print(f"  games over before that ply: {result['ended_before']}")
    for kind in ("pushed", "whole"):
        f = result[kind]
        print(
            f"  {kind:<7} {f['messages']} messages: median {f['median']:.0f} B, p95 {f['p95']:.0f}"
            f" B, max {f['max']} B; {f['at_most_target']} at most {TARGET} B"
        )


if __name__ == "__main__":
    main()
