"""Running a balance run: the games it still lacks, in batches, on every core or on Ray.

Games are grouped into batches and played by the local pool (``play.pool``) or by Ray tasks.
Whatever finishes first is written first; since a game depends only on the settings and its
index, the stored results are the same for any number of workers, on any machine, and a
stopped run resumes where it stopped.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rebelspace.engine import RebelSpaceError
from rebelspace.play.pool import batches, local_cores, parallel_map
from rebelspace.play.progress import progress_bar

from .analysis import units
from .games import GameRow, play_batch
from .settings import RunSettings
from .stats import unit_rate
from .store import Store


class RunVersionError(RebelSpaceError):
    """A run asked to be extended was played by code that plays differently (another version
    of the engine or an agent): adding games would mix two versions in one run."""


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run: what is saved, for the one-line message and the resume hint."""

    def __init__(self, run_id: str, label: str, saved: int, asked: int, db: str) -> None:
        super().__init__(run_id)
        self.run_id, self.label, self.saved, self.asked, self.db = run_id, label, saved, asked, db


@dataclass(frozen=True, slots=True)
class RunResult:
    run_id: str
    games: int  # games of the run now in the database (up to the number asked for)
    rebel_wins: int
    mean_turns: float
    played: int  # games played by this call (the rest were already stored)
    seconds: float
    db_seconds: float  # time spent writing to the database
    db: str
    ci95: tuple[float, float]  # of the Rebel win rate, counting independent games only
    label: str = ""

    @property
    def rebel_win_rate(self) -> float:
        return self.rebel_wins / self.games if self.games else float("nan")

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``rebelspace balance --json``."""
        low, high = self.ci95
        return {
            "games": self.games,
            "rebel_win_rate": round(self.rebel_win_rate, 4),
            "ci95": [round(low, 4), round(high, 4)],
            "mean_turns": round(self.mean_turns, 2),
            "games_per_second": round(self.games_per_second, 2),
            "db": self.db,
            "run_id": self.run_id,
            "label": self.label,
            "played": self.played,
            "db_write_share": round(self.db_seconds / self.seconds, 4) if self.seconds else 0.0,
        }


def _pool_batches(
    settings: RunSettings, todo: list[list[int]], workers: int
) -> Iterator[list[GameRow]]:
    jobs = [(settings, batch) for batch in todo]
    return parallel_map(_play, jobs, workers=workers, ordered=False)


def _play(job: tuple[RunSettings, list[int]]) -> list[GameRow]:
    return play_batch(*job)


def run_balance(
    settings: RunSettings,
    games: int,
    store: Store,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    use_ray: bool = False,
    progress: bool | None = None,
) -> RunResult:
    """Play the games ``0 .. games-1`` of the run that the database lacks, and summarize."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    workers = workers or local_cores()
    run_id = store.ensure_run(settings)
    done = store.done_indices(run_id)
    missing = [i for i in range(games) if i not in done]
    if missing and not settings.played_by_this_code():
        raise RunVersionError(
            f"run {run_id} ({settings.label()}) was played by other code (the engine or its "
            "agents play differently now), so this code cannot add to it; its games stay as "
            "they are. Start a new run: the same `rebelspace balance` settings make one, with "
            "an id of its own"
        )
    todo = batches(missing, workers)
    bar = progress_bar(games, progress, initial=games - len(missing))
    write_before = store.write_seconds
    start = time.perf_counter()
    try:
        if use_ray:
            from .ray_runner import ray_batches

            results = ray_batches(settings, todo, ray_address, workers)
        else:
            results = _pool_batches(settings, todo, workers)
        store.touch(run_id)  # asked for just now: the run `report` reads by default
        for rows in results:
            store.add_games(run_id, rows)
            bar.update(len(rows))
    except KeyboardInterrupt:
        saved = len(store.done_indices(run_id))
        raise RunInterrupted(run_id, settings.label(), saved, games, str(store.path)) from None
    finally:
        bar.close()
    seconds = time.perf_counter() - start
    rows = list(store.games(run_id, limit=games))
    wins = sum(1 for r in rows if r.winner == 0)
    turns = sum(r.turns for r in rows) / len(rows)
    winner = {r.index: r.winner for r in rows}
    rate = unit_rate([[winner[i] == 0 for i in u] for u in units(settings, winner)])
    return RunResult(
        run_id=run_id,
        games=len(rows),
        rebel_wins=wins,
        mean_turns=turns,
        played=len(missing),
        seconds=seconds,
        db_seconds=store.write_seconds - write_before,
        db=str(store.path),
        ci95=(rate.low, rate.high),
        label=settings.label(),
    )
