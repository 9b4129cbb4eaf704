"""Blunder rates of an agent (issue 17), as ``rebelspace.agents.blunders`` defines them.

    PYTHONPATH=src python benchmarks/blunders.py --agent heuristic --games 200 --seed 1
    PYTHONPATH=src python benchmarks/blunders.py --agent ismcts:easy --opponent heuristic ...
    PYTHONPATH=src python benchmarks/blunders.py --agent variant:before ...

``variant:NAME`` is a heuristic variant of ``heuristic_variants.py`` (beside this file).

Without ``--opponent`` the agent plays itself, one game per deal (game ``i`` is dealt from
``derive_seed(seed, DEAL + i)``, agents seeded as the arena seeds them), and both seats count.
With an opponent each deal is played twice, sides swapped, and only the agent's choices count.
Rates are per attack and per battle card; their 95% intervals treat each deal as one unit
(``rebelspace.lab.stats.unit_rate``: choices within a game are not independent).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from heuristic_variants import VARIANTS

from rebelspace.agents.blunders import GameBlunders, find_blunders
from rebelspace.agents.heuristic import StepHandler
from rebelspace.agents.registry import make_agent
from rebelspace.engine import IMPERIAL, REBEL, GameState, context_for, new_game
from rebelspace.lab.stats import unit_rate
from rebelspace.play import decider_for
from rebelspace.play.match import match_seed
from rebelspace.seeds import DEAL, derive_seed


def _decider(spec: str, game_seed: int, p: int) -> StepHandler:
    """An agent by its registry name, or ``variant:NAME`` for a heuristic variant of
    ``heuristic_variants.py``."""
    if spec.startswith("variant:"):
        return VARIANTS[spec.removeprefix("variant:")]()
    agent = make_agent(spec, context_for(), match_seed(game_seed, p))
    return decider_for(agent, p)


def play(game_seed: int, specs: Sequence[str]) -> GameState:
    """One game, ``specs[0]`` the Rebel; returns the finished game (its history is the record)."""
    game = new_game(game_seed, log=False)
    deciders = [
        _decider(spec, game_seed, p) for p, spec in zip((REBEL, IMPERIAL), specs, strict=True)
    ]
    while game.to_move >= 0:
        game.apply(deciders[game.to_move](game, game.legal_actions()))
    return game


def blunders_of(game_seed: int, specs: Sequence[str]) -> GameBlunders:
    game = play(game_seed, specs)
    assert game.history is not None
    return find_blunders(new_game(game_seed), game.history)


def _rate(units: list[list[bool]]) -> dict[str, Any]:
    r = unit_rate(units)
    return {"blunders": r.wins, "of": r.games, **r.to_dict()}


#: A deal's games: each game's blunders and the seats whose choices count.
Unit = list[tuple[GameBlunders, tuple[int, ...]]]


def _played(agent: str, opponent: str | None, games: int, seed: int) -> Iterator[Unit]:
    deals = games if opponent is None else (games + 1) // 2
    for i in range(deals):
        game_seed = derive_seed(seed, DEAL + i)
        pairings: list[tuple[tuple[str, str], tuple[int, ...]]] = [
            ((agent, agent), (REBEL, IMPERIAL))
        ]
        if opponent is not None:
            pairings = [((agent, opponent), (REBEL,)), ((opponent, agent), (IMPERIAL,))]
        yield [(blunders_of(game_seed, specs), mine) for specs, mine in pairings]


def _recorded(folder: Path) -> Iterator[Unit]:
    """The games of ``rebelspace distil``'s teacher (``training.teacher``), already played:
    the same games as ``--agent TEACHER --opponent heuristic --seed SEED`` would play."""
    from rebelspace.play.schedule import deal_seed
    from rebelspace.training.teacher import read_games

    units: dict[int, Unit] = defaultdict(list)
    for path in sorted(folder.glob("*.jsonl")):
        seed = int(path.stem.rsplit("-", 2)[1])
        for record in read_games([path]):
            start = new_game(deal_seed(seed, record["index"]))
            found = find_blunders(start, record["actions"])
            units[record["deal"]].append((found, (record["teacher_side"],)))
    yield from units.values()


def _players(folder: Path) -> tuple[str, str]:
    """The teacher and its opponent, as the chunk files' names spell them."""
    first = next(iter(sorted(folder.glob("*.jsonl"))), None)
    if first is None:
        return "teacher", "opponent"
    teacher, _, rest = first.stem.partition("-vs-")
    return teacher.replace("_", ":"), rest.rsplit("-", 2)[0].replace("_", ":")


def measure(agent: str, opponent: str | None, games: int, seed: int) -> dict[str, Any]:
    """Attacks for nothing per attack and battle cards that changed nothing per card, by card."""
    started = time.process_time()
    out = tally(_played(agent, opponent, games, seed))
    deals = out.pop("deals")
    return {
        "agent": agent,
        "opponent": opponent or agent,
        "deals": deals,
        "games": deals * (1 if opponent is None else 2),
        "seed": seed,
        "cpu_seconds": round(time.process_time() - started, 1),
        **out,
    }


def tally(units: Iterable[Unit]) -> dict[str, Any]:
    attacks: list[list[bool]] = []
    visible: list[list[bool]] = []
    cards: list[list[bool]] = []
    by_card: dict[str, list[list[bool]]] = defaultdict(list)
    names = context_for().cards.types
    deals = 0
    for unit in units:
        deals += 1
        unit_attacks: list[bool] = []
        unit_visible: list[bool] = []
        unit_cards: list[bool] = []
        unit_by_card: dict[str, list[bool]] = defaultdict(list)
        for b, mine in unit:
            unit_attacks += [a.for_nothing for a in b.attacks if a.player in mine]
            unit_visible += [a.visible for a in b.attacks if a.player in mine]
            for c in b.cards:
                if c.player in mine:
                    unit_cards.append(not c.changed)
                    unit_by_card[names[c.card].name].append(not c.changed)
        attacks.append(unit_attacks)
        visible.append(unit_visible)
        cards.append(unit_cards)
        for name, flags in unit_by_card.items():
            by_card[name].append(flags)
    return {
        "deals": deals,
        "attacks_for_nothing": _rate(attacks),
        "attacks_for_nothing_on_visible_numbers": _rate(visible),
        "cards_that_changed_nothing": _rate(cards),
        "by_card": {name: _rate(u) for name, u in sorted(by_card.items())},
    }


def _line(label: str, r: dict[str, Any]) -> str:
    lo, hi = r["ci95"]
    pct = 100 * r["blunders"] / r["of"] if r["of"] else float("nan")
    interval = f"({100 * lo:.1f}-{100 * hi:.1f}%)"
    return f"  {label:<28} {r['blunders']:>5} / {r['of']:<6} {pct:5.1f}%  {interval}"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agent", default="heuristic")
    ap.add_argument("--opponent", default=None, help="default: the agent itself")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--records",
        type=Path,
        default=None,
        help="count the teacher's blunders in rebelspace distil's games (its DIR/data)",
    )
    args = ap.parse_args(argv)
    if args.records is not None:
        started = time.process_time()
        agent, opponent = _players(args.records)
        out = tally(_recorded(args.records))
        out = {
            "agent": agent,
            "opponent": opponent,
            "games": 2 * out["deals"],
            "seed": str(args.records),
            "cpu_seconds": round(time.process_time() - started, 1),
            **out,
        }
    else:
        out = measure(args.agent, args.opponent, args.games, args.seed)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(
        f"{out['agent']} against {out['opponent']}: {out['games']} games "
        f"({out['deals']} deals, seed {out['seed']}, {out['cpu_seconds']} s CPU)"
    )
    print(_line("attacks for nothing", out["attacks_for_nothing"]))
    print(_line("  on visible numbers", out["attacks_for_nothing_on_visible_numbers"]))
    print(_line("battle cards, no change", out["cards_that_changed_nothing"]))
    for name, r in out["by_card"].items():
        print(_line(f"  {name}", r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
