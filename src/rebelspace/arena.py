"""The arena: a round robin between agents, in duplicate format, on every core.

Duplicate format cuts luck: each seed is played twice by each pair, the agents swapping sides,
with the same shuffles (the game seed fixes both decks). Results per pair come with a Wilson
95% interval, and the whole table with Bradley-Terry ratings on the Elo scale.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from multiprocessing import get_context
from typing import Any

from rebelspace.agents.registry import make_agent
from rebelspace.engine import IMPERIAL, REBEL, CardDB, RulesOptions, context_for, new_game
from rebelspace.seeds import DEAL, MATCH_AGENT, derive_seed
from rebelspace.sim import play_out


@dataclass(frozen=True, slots=True)
class Task:
    a: str
    b: str
    game_seed: int
    a_is_rebel: bool


@dataclass(frozen=True, slots=True)
class GameResult:
    task: Task
    a_won: bool
    turns: int
    decisions: int


def wilson(wins: float, games: float, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a win rate (0..1), good even near 0% and 100%.

    Counts may be fractional: the balance lab passes an effective number of games when games
    come in correlated pairs (a deal played twice with the sides swapped)."""
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bradley_terry_elo(names: Sequence[str], wins: dict[tuple[str, str], int]) -> dict[str, float]:
    """Bradley-Terry strengths by the MM algorithm (Hunter 2004), on the Elo scale, mean 1500.

    ``wins[(x, y)]`` counts games x won against y. Half a win is added each way to every pair
    that met, so an agent that won or lost every game still gets a finite rating.
    """
    met = {(x, y) for x, y in combinations(names, 2) if wins.get((x, y), 0) + wins.get((y, x), 0)}
    w = {k: v + 0.0 for k, v in wins.items()}
    for x, y in met:
        w[(x, y)] = w.get((x, y), 0.0) + 0.5
        w[(y, x)] = w.get((y, x), 0.0) + 0.5
    strength = dict.fromkeys(names, 1.0)
    for _ in range(2000):
        new = {}
        for x in names:
            total_wins = sum(w.get((x, y), 0.0) for y in names if y != x)
            denom = sum(
                (w.get((x, y), 0.0) + w.get((y, x), 0.0)) / (strength[x] + strength[y])
                for y in names
                if y != x
            )
            new[x] = total_wins / denom if denom > 0 else strength[x]
        mean_log = sum(math.log(v) for v in new.values()) / len(new)
        new = {k: v / math.exp(mean_log) for k, v in new.items()}
        done = max(abs(new[k] - strength[k]) for k in names) < 1e-10
        strength = new
        if done:
            break
    return {k: round(1500 + 400 * math.log10(v), 1) for k, v in strength.items()}


def tasks(agents: Sequence[str], games: int, seed: int) -> list[Task]:
    """``games`` games per pair: games/2 seeds, each played once with each side per agent."""
    out = []
    for a, b in combinations(agents, 2):
        for i in range((games + 1) // 2):
            game_seed = derive_seed(seed, DEAL + i)
            out.append(Task(a, b, game_seed, True))
            if 2 * i + 1 < games:
                out.append(Task(a, b, game_seed, False))
    return out


_WORKER: dict[str, Any] = {}


def _init_worker(cards: list[dict[str, Any]] | None, options: dict[str, Any]) -> None:
    from rebelspace.engine.cards import cards_from_data

    _WORKER["cards"] = cards_from_data(cards) if cards is not None else None
    _WORKER["options"] = RulesOptions.from_dict(options)


def play_task(
    task: Task, cards: CardDB | None = None, options: RulesOptions | None = None
) -> GameResult:
    """Play one arena game. Agents are seeded from the game seed and their seat."""
    ctx = context_for(cards, options)
    game = new_game(task.game_seed, options=ctx.options, cards=ctx.cards, log=False)
    rebel, imperial = (task.a, task.b) if task.a_is_rebel else (task.b, task.a)
    agents = [
        make_agent(rebel, ctx, derive_seed(task.game_seed, MATCH_AGENT + REBEL)),
        make_agent(imperial, ctx, derive_seed(task.game_seed, MATCH_AGENT + IMPERIAL)),
    ]
    decisions = play_out(game, agents)
    assert game.outcome is not None
    a_side = REBEL if task.a_is_rebel else 1 - REBEL
    return GameResult(task, game.outcome.winner == a_side, game.turn, decisions)


def _play_in_worker(task: Task) -> GameResult:
    return play_task(task, _WORKER.get("cards"), _WORKER.get("options"))


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
    workers = workers or os.cpu_count() or 1
    options = options or RulesOptions()
    bar = progress_bar(len(todo), progress)
    try:
        if workers == 1:
            for task in todo:
                result = play_task(task, cards, options)
                bar.update(1)
                yield result
            return
        card_data = cards.to_data() if cards is not None else None
        with get_context("spawn").Pool(
            workers, initializer=_init_worker, initargs=(card_data, options.to_dict())
        ) as pool:
            for result in pool.imap(_play_in_worker, todo, chunksize=1):
                bar.update(1)
                yield result
    finally:
        bar.close()


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, progress: bool | None, initial: int = 0) -> Any:
    """tqdm on a terminal (games done, rate, time left); nothing when ``progress`` is False,
    or when it is None and stderr is not a terminal, or when tqdm is not installed (it comes
    with the lab extra: the arena itself needs only the core)."""
    if progress is None:
        progress = sys.stderr.isatty()
    if not progress:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ModuleNotFoundError:
        return _NoBar()

    return tqdm(total=total, initial=initial, unit="game", file=sys.stderr)


def summarize(agents: Sequence[str], results: Sequence[GameResult]) -> dict[str, Any]:
    """The arena's JSON: a ``matches`` entry per pair and ``ratings`` for every agent."""
    pair: dict[tuple[str, str], list[int]] = {}
    wins: dict[tuple[str, str], int] = {}
    turns = 0
    for r in results:
        a, b = r.task.a, r.task.b
        games_wins = pair.setdefault((a, b), [0, 0])
        games_wins[0] += 1
        games_wins[1] += r.a_won
        winner, loser = (a, b) if r.a_won else (b, a)
        wins[(winner, loser)] = wins.get((winner, loser), 0) + 1
        turns += r.turns
    matches = []
    for (a, b), (games, a_wins) in pair.items():
        lo, hi = wilson(a_wins, games)
        matches.append(
            {
                "a": a,
                "b": b,
                "games": games,
                "a_wins": a_wins,
                "a_win_rate": round(a_wins / games, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
            }
        )
    return {
        "matches": matches,
        "ratings": bradley_terry_elo(list(agents), wins),
        "games": len(results),
        "mean_turns": round(turns / len(results), 2) if results else 0.0,
    }
