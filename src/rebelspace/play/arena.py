"""The arena: a round robin between agents, in duplicate format, on every core.

Each pair plays the series of ``schedule``: every deal twice, the agents swapping sides, with
the same shuffles. Results per pair come with a 95% interval that counts each deal as one
unit (``stats.unit_rate``: the two games of a deal are not two independent samples), and the
whole table with Bradley-Terry ratings on the Elo scale.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from rebelspace.engine import CardDB, RulesOptions, context_for
from rebelspace.engine.cards import cards_from_data

from .match import play_match
from .pool import batches, local_cores, parallel_map
from .progress import progress_bar
from .schedule import deal_seed, first_is_rebel
from .stats import bradley_terry_elo, deal_counts, unit_rate


@dataclass(frozen=True, slots=True)
class Task:
    a: str
    b: str
    game_seed: int
    a_is_rebel: bool
    # CPU seconds of thread time per decision for both sides' searches instead of their
    # iterations (``match.bulk_agent``); None: the iterations, and the seed alone decides.
    cpu: float | None = None


@dataclass(frozen=True, slots=True)
class GameResult:
    task: Task
    a_won: bool
    turns: int
    decisions: int


def tasks(agents: Sequence[str], games: int, seed: int, *, cpu: float | None = None) -> list[Task]:
    """``games`` games per pair: games/2 deals, each played once with each side per agent;
    with ``cpu``, every search gets that many CPU seconds a decision (``Task.cpu``)."""
    return [
        Task(a, b, deal_seed(seed, i), first_is_rebel(i), cpu)
        for a, b in combinations(agents, 2)
        for i in range(games)
    ]


def play_task(
    task: Task, cards: CardDB | None = None, options: RulesOptions | None = None
) -> GameResult:
    """Play one arena game (``play.match``: agents seeded from the deal and their side)."""
    ctx = context_for(cards, options)
    rebel, imperial = (task.a, task.b) if task.a_is_rebel else (task.b, task.a)
    match = play_match(rebel, imperial, task.game_seed, ctx, cpu=task.cpu)
    a_side = 0 if task.a_is_rebel else 1
    return GameResult(task, match.winner == a_side, match.game.turn, match.decisions)


#: One worker job: the card data (None: the packaged lists), the rules and a batch of tasks.
Job = tuple[list[dict[str, Any]] | None, dict[str, Any], list[Task]]


def _play_job(job: Job) -> list[GameResult]:
    card_data, option_data, todo = job
    cards = cards_from_data(card_data) if card_data is not None else None
    options = RulesOptions.from_dict(option_data)
    return [play_task(task, cards, options) for task in todo]


def run_tasks(
    todo: Sequence[Task],
    *,
    workers: int | None = None,
    cards: CardDB | None = None,
    options: RulesOptions | None = None,
    progress: bool | None = None,
) -> Iterator[GameResult]:
    """Play the tasks on ``workers`` processes (default: every core), yielding results in the
    order of ``todo`` so that a run is the same whatever the number of workers."""
    workers = workers or local_cores()
    card_data = cards.to_data() if cards is not None else None
    option_data = (options or RulesOptions()).to_dict()
    jobs: list[Job] = [(card_data, option_data, batch) for batch in batches(todo, workers)]
    bar = progress_bar(len(todo), progress)
    try:
        for results in parallel_map(_play_job, jobs, workers=workers, ordered=True):
            bar.update(len(results))
            yield from results
    finally:
        bar.close()


def summarize(agents: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any]:
    """The arena's JSON: a ``matches`` entry per pair (with its deals won both ways, lost both
    ways and split) and ``ratings`` for every agent."""
    # Per pair, a's results per deal: the two games of a deal are one unit of the interval.
    pair: dict[tuple[str, str], dict[int, list[bool]]] = {}
    wins: dict[tuple[str, str], int] = {}
    turns = 0
    for r in results:
        a, b = r.task.a, r.task.b
        pair.setdefault((a, b), {}).setdefault(r.task.game_seed, []).append(r.a_won)
        winner, loser = (a, b) if r.a_won else (b, a)
        wins[(winner, loser)] = wins.get((winner, loser), 0) + 1
        turns += r.turns
    matches = []
    for (a, b), deals in pair.items():
        units = list(deals.values())
        rate = unit_rate(units)
        matches.append(
            {
                "a": a,
                "b": b,
                "games": rate.games,
                "deals": rate.units,
                "a_wins": rate.wins,
                "a_win_rate": round(rate.rate, 4),
                "ci95": [round(rate.low, 4), round(rate.high, 4)],
                **deal_counts(units).to_dict(),
            }
        )
    return {
        "matches": matches,
        "ratings": bradley_terry_elo(list(agents), wins),
        "games": len(results),
        "mean_turns": round(turns / len(results), 2) if results else 0.0,
    }
