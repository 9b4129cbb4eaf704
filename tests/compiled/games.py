"""Seeded games printed in full, to compare the compiled and the pure build (test_same_games).

    PYTHONPATH=<a tree holding rebelspace> python tests/compiled/games.py GAMES

Prints, one line each: the build; for every random game (seeds 0..GAMES-1, the log kept) a
digest of its events as the protocol sends them and of its record; a few games of the
heuristic, the distilled policy and ISMCTS (easy, and 20 iterations of normal's rollouts) in
full; the balance lab's rows of a few games; and the event kinds seen. Run as a script, in a
fresh process, so that the build is the one the path gives.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from rebelspace.agents.registry import make_agent
from rebelspace.build import build_kind
from rebelspace.engine import (
    EVENT_TYPES,
    event_json,
    load_scenario_file,
    new_game,
    to_record,
)
from rebelspace.engine.records import replay
from rebelspace.play.bench import _random_player  # the benchmark's own random player
from rebelspace.play.match import play_out, run_game

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def digest(obj: object) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def main(games: int) -> None:
    print("build", build_kind())
    seen: set[str] = set()
    for seed in range(games):
        game = new_game(seed)
        pick = _random_player(random.Random(seed))
        run_game(game, (pick, pick))
        names = game.ctx.tables.names
        events = [event_json(e, names) for e in game.events or ()]
        seen.update(e["type"] for e in events)
        record = to_record(game)
        again = replay(record)
        assert again.key() == game.key(), seed
        print("random", seed, game.turn, game.winner, digest(events), digest(record))
    # The scenarios' positions (the only source of scenario_started), played on at random.
    for path in sorted(SCENARIOS.glob("*.json")):
        game = load_scenario_file(path)
        pick = _random_player(random.Random(1))
        run_game(game, (pick, pick))
        names = game.ctx.tables.names
        events = [event_json(e, names) for e in game.events or ()]
        seen.update(e["type"] for e in events)
        print("scenario", path.name, game.turn, game.winner, digest(events))
    for spec in ("heuristic", "distilled", "ismcts:easy", "ismcts:20"):
        for deal in range(2):
            ctx = new_game(deal).ctx
            agents = [make_agent(spec, ctx, 100 + deal), make_agent("heuristic", ctx, 200)]
            game = new_game(deal)
            play_out(game, agents)
            names = game.ctx.tables.names
            events = [event_json(e, names) for e in game.events or ()]
            seen.update(e["type"] for e in events)
            print(spec, deal, game.turn, game.winner, json.dumps(game.history))
            print(spec, deal, "events", digest(events))
    from rebelspace.lab.games import play_game
    from rebelspace.lab.settings import RunSettings

    for rung in ("random", "heuristic", "distilled"):
        settings = RunSettings.build((rung, "heuristic"), 7)
        for i in range(2):
            print("lab", rung, i, json.dumps(play_game(settings, i).to_dict(), sort_keys=True))
    print("event kinds", " ".join(sorted(seen)))
    print("missing kinds", " ".join(sorted({cls.type for cls in EVENT_TYPES} - seen)))


if __name__ == "__main__":
    main(int(sys.argv[1]))
