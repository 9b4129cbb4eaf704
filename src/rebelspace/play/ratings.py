"""``rebelspace ladder``: how strong each computer level is, as Elo ratings with 95% intervals.

Every level plays every other in the arena's duplicate format (``schedule``: each deal twice,
sides swapped). The ratings are Bradley-Terry strengths on the Elo scale with the
``heuristic`` (or the first level) pinned at ``ANCHOR``: it plays the same whatever the load,
and fast, so a published number means the same thing from one table to the next. The
intervals come from a bootstrap over deals: each replicate draws, for every pair of levels, as
many deals as it played, with replacement, keeping both games of a deal together (the two
games share their luck, so they are one unit), and fits the ratings again. The replicates are
seeded, so the same seed gives the same table.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from itertools import combinations
from typing import Any

from rebelspace.agents.registry import EXPERIMENTAL_LEVELS
from rebelspace.engine import CardDB, RulesOptions

from .arena import GameResult, run_tasks, tasks
from .schedule import unit_of
from .stats import bradley_terry_elo, deal_counts, wilson

#: The levels a player can choose, weakest first, and the agents that play them.
LEVELS: dict[str, str] = {
    "random": "random",
    "easy": "ismcts:easy",
    "heuristic": "heuristic",
    "normal": "ismcts:normal",
    "hard": "ismcts:hard",
    "expert": "ismcts:expert",
}

ANCHOR = 1500.0  # the rating of the anchored level (the heuristic when it plays)
ANCHOR_LEVEL = "heuristic"
BOOTSTRAP = 400  # replicates for the intervals


@dataclass(frozen=True, slots=True)
class Rating:
    level: str
    agent: str
    elo: float
    low: float  # 95% interval
    high: float
    games: int
    wins: int

    @property
    def bound(self) -> str:
        """``"upper"`` for a level that lost every game, ``"lower"`` for one that won every
        game: its rating then rests on the half win each way that keeps it finite, and the
        truth may lie further out than the interval says."""
        if self.wins == 0:
            return "upper"
        return "lower" if self.wins == self.games else ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "agent": self.agent,
            "elo": self.elo,
            "ci95": [self.low, self.high],
            "games": self.games,
            "wins": self.wins,
            "bound": self.bound,
        }


def agent_of(level: str) -> str:
    """The agent of a level name; any other text is taken as an agent name itself."""
    return LEVELS.get(level, level)


def anchor_of(levels: Sequence[str]) -> str:
    return ANCHOR_LEVEL if ANCHOR_LEVEL in levels else levels[0]


def _wins(results: Sequence[GameResult], names: dict[str, str]) -> dict[tuple[str, str], int]:
    wins: dict[tuple[str, str], int] = {}
    for r in results:
        a, b = names[r.task.a], names[r.task.b]
        key = (a, b) if r.a_won else (b, a)
        wins[key] = wins.get(key, 0) + 1
    return wins


def _anchored(ratings: dict[str, float], anchor: str) -> dict[str, float]:
    shift = ANCHOR - ratings[anchor]
    return {name: elo + shift for name, elo in ratings.items()}


def _by_deal(results: Sequence[GameResult]) -> dict[tuple[str, str], list[list[GameResult]]]:
    """Each pair's results grouped by deal: the units the bootstrap draws."""
    pairs: dict[tuple[str, str], dict[int, list[GameResult]]] = {}
    index: dict[tuple[str, str], int] = {}
    for r in results:
        key = (r.task.a, r.task.b)
        i = index[key] = index.get(key, -1) + 1  # results come in the order of ``tasks``
        pairs.setdefault(key, {}).setdefault(unit_of(i), []).append(r)
    return {key: list(deals.values()) for key, deals in pairs.items()}


def rate(
    levels: Sequence[str], results: Sequence[GameResult], seed: int, replicates: int = BOOTSTRAP
) -> list[Rating]:
    """The ratings of ``levels`` from the arena ``results`` (agents named as ``agent_of``)."""
    names = {agent_of(level): level for level in levels}
    anchor = anchor_of(levels)
    point = _anchored(bradley_terry_elo(list(levels), _wins(results, names)), anchor)
    rng = random.Random(seed)
    deals = _by_deal(results)
    samples: dict[str, list[float]] = {level: [] for level in levels}
    for _ in range(replicates):
        drawn = [r for units in deals.values() for _ in units for r in rng.choice(units)]
        fitted = _anchored(bradley_terry_elo(list(levels), _wins(drawn, names)), anchor)
        for level in levels:
            samples[level].append(fitted[level])
    played = {level: [0, 0] for level in levels}
    for r in results:
        a, b = names[r.task.a], names[r.task.b]
        played[a][0] += 1
        played[b][0] += 1
        played[a if r.a_won else b][1] += 1
    out = []
    for level in levels:
        ordered = sorted(samples[level])
        low = ordered[int(0.025 * (len(ordered) - 1))] if ordered else point[level]
        high = ordered[int(0.975 * (len(ordered) - 1))] if ordered else point[level]
        out.append(
            Rating(
                level,
                agent_of(level),
                round(point[level], 1),
                round(low, 1),
                round(high, 1),
                played[level][0],
                played[level][1],
            )
        )
    return out


def ladder(
    levels: Sequence[str],
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    cards: CardDB | None = None,
    options: RulesOptions | None = None,
    progress: bool | None = None,
    cpu: float | None = None,
) -> dict[str, Any]:
    """Play every pair of ``levels`` ``games`` times in duplicate format and rate them: the
    JSON of ``rebelspace ladder`` (the table, every pair's score and deal counts, and what
    made them). With ``cpu``, every search gets that many CPU seconds a decision."""
    if len(levels) < 2 or len(set(levels)) != len(levels):
        raise ValueError("a ladder needs at least two different levels")
    agents = [agent_of(level) for level in levels]
    todo = tasks(agents, games, seed, cpu=cpu)
    results = list(
        run_tasks(todo, workers=workers, cards=cards, options=options, progress=progress)
    )
    ratings = rate(levels, results, seed)
    pairs = []
    for a, b in combinations(levels, 2):
        mine = [r for r in results if (r.task.a, r.task.b) == (agent_of(a), agent_of(b))]
        first = mine[0]  # kept whole: enough to play it again (``arena.play_task``)
        deals: dict[int, list[bool]] = {}
        for r in mine:
            deals.setdefault(r.task.game_seed, []).append(r.a_won)
        pairs.append(
            {
                "a": a,
                "b": b,
                "games": len(mine),
                "a_wins": sum(r.a_won for r in mine),
                **deal_counts(list(deals.values())).to_dict(),
                "first_game": {
                    "seed": first.task.game_seed,
                    "a_is_rebel": first.task.a_is_rebel,
                    "a_won": first.a_won,
                    "turns": first.turns,
                    "decisions": first.decisions,
                },
            }
        )
    return {
        "seed": seed,
        "games_per_pair": games,
        **({} if cpu is None else {"cpu_per_decision": cpu}),
        "anchor": {"level": anchor_of(levels), "elo": ANCHOR},
        "bootstrap": BOOTSTRAP,
        "ratings": [r.to_dict() for r in sorted(ratings, key=lambda r: -r.elo)],
        "pairs": pairs,
    }


def markdown(table: dict[str, Any]) -> str:
    """The table as the README shows it."""
    lines = [
        "| level | agent | Elo | 95% interval | games | wins |",
        "|---|---|---:|---|---:|---:|",
    ]
    marks = {"upper": "at most ", "lower": "at least ", "": ""}
    for r in table["ratings"]:
        low, high = r["ci95"]
        lines.append(
            f"| {r['level']} | `{r['agent']}` | {marks[r['bound']]}{r['elo']:.0f} "
            f"| {low:.0f} to {high:.0f} | {r['games']} | {r['wins']} |"
        )
    anchor = table["anchor"]
    lines.append(
        f"\n{anchor['level']} is pinned at {anchor['elo']:.0f}; {table['games_per_pair']} games "
        f"per pair, seed {table['seed']} (`rebelspace ladder --games {table['games_per_pair']} "
        f'--seed {table["seed"]}`). "At most"/"at least": a level that lost or won every '
        "game, whose rating the games bound on one side only."
    )
    counted = [p for p in table.get("pairs", []) if "split" in p]
    if counted:
        lines += [
            "",
            "| pair | games | wins of the first | deals won both | lost both | split |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        lines += [
            f"| {p['a']} vs {p['b']} | {p['games']} | {p['a_wins']} | {p['won_both']} "
            f"| {p['lost_both']} | {p['split']} |"
            for p in counted
        ]
    return "\n".join(lines)


#: The table shipped with the package (``rebelspace ladder --publish``): the README and the
#: browser's lobby show its ratings.
PUBLISHED = "data/ladder.json"

#: The small ladder whose numbers the published file also carries, so that a test can play it
#: again and show that the shipped code makes the same games (issue 17).
CHECK_LEVELS = ("random", "easy", "heuristic")
CHECK_GAMES = 4


def publish(table: dict[str, Any], check: dict[str, Any]) -> dict[str, Any]:
    """The published file: the full table, and the small check ladder with its result."""
    return {
        "table": table,
        "check": {
            "levels": list(CHECK_LEVELS),
            "games": CHECK_GAMES,
            "seed": table["seed"],
            "table": check,
        },
    }


@functools.cache
def published() -> dict[str, Any] | None:
    """The shipped table (``PUBLISHED``), or None when the package has none; read once (the
    lobby asks for it on every visit)."""
    path = resources.files("rebelspace").joinpath(PUBLISHED)
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


#: Deals a pair the published table must have played before the lobby shows its ratings
#: beside the levels (issue 29 asks 100 per adjacent pair). With 10 a pair the table put hard
#: above normal above expert, and easy above the heuristic, which larger matches do not bear
#: out: numbers that order levels no match has ordered are worse than none.
SHOWN_DEALS = 100


def level_ratings(data: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ratings the lobby shows beside the levels (``data``: the published file, by
    default the shipped one): ``{"levels": [...], "games_per_pair", "seed", "experimental"}``.

    ``levels`` is empty when the package ships no table or when its table played fewer than
    ``SHOWN_DEALS`` deals a pair, and never holds an experimental level (``registry.
    EXPERIMENTAL_LEVELS``, not shown stronger than normal), so that no rating ranks it above a
    level it does not beat. ``experimental`` names those levels' agents."""
    data = published() if data is None else data
    experimental = [f"ismcts:{level}" for level in EXPERIMENTAL_LEVELS]
    if data is None:
        return {"levels": [], "games_per_pair": 0, "seed": None, "experimental": experimental}
    table = data["table"]
    keep = ("level", "agent", "elo", "ci95", "bound")
    shown = table["games_per_pair"] // 2 >= SHOWN_DEALS
    return {
        "levels": [
            {k: r[k] for k in keep}
            for r in table["ratings"]
            if shown and r["level"] not in EXPERIMENTAL_LEVELS
        ],
        "records": level_records(table),
        "games_per_pair": table["games_per_pair"],
        "seed": table["seed"],
        "experimental": experimental,
    }


def _record(table: dict[str, Any], level: str, other: str) -> dict[str, Any] | None:
    """``level``'s games against ``other`` in the table's pairs, with a 95% Wilson interval of
    its win rate, or None when they did not meet."""
    for pair in table.get("pairs", []):
        if {pair["a"], pair["b"]} == {level, other} and level != other:
            games = int(pair["games"])
            wins = int(pair["a_wins"]) if pair["a"] == level else games - int(pair["a_wins"])
            low, high = wilson(wins, games)
            return {
                "level": other,
                "agent": LEVELS.get(other, other),
                "games": games,
                "wins": wins,
                "ci95": [round(low, 3), round(high, 3)],
            }
    return None


def level_records(table: dict[str, Any]) -> list[dict[str, Any]]:
    """What the lobby says of each level's strength, read from the published table (so it
    cannot drift from it): its games against the anchor level (the heuristic; the anchor's own
    against the weakest level), and an experimental level's also against normal, the level it
    is not shown to beat. Shown whatever the table's size, as counts with their intervals
    (win rates over games: a deal's two games share their cards, so they are not quite
    independent and the interval is a rough one), unlike the Elo ratings (``SHOWN_DEALS``)."""
    anchor = table.get("anchor", {}).get("level", "heuristic")
    weakest = next(iter(LEVELS))
    records = []
    for r in table["ratings"]:
        level = r["level"]
        experimental = level in EXPERIMENTAL_LEVELS
        others = [weakest if level == anchor else anchor]
        if experimental:
            others.append("normal")
        against = [rec for rec in (_record(table, level, o) for o in others) if rec is not None]
        if against:
            records.append(
                {
                    "level": level,
                    "agent": r["agent"],
                    "experimental": experimental,
                    "against": against,
                }
            )
    return records
