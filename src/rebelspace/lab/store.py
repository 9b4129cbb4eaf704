"""The lab's SQLite database: one row per run and one row per game.

Each game row keeps the winner, length, ending, per-card plays, kills and damage, and the deck
sizes at every turn (as JSON text), which is enough to rebuild every statistic of the report.
Rows are keyed by (run, game index), so a resumed run fills in exactly the games it lacks and
a game is never stored twice.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rebelspace.engine import RebelSpaceError

from .games import GameRow
from .settings import RunSettings

DEFAULT_DB = "rebelspace-lab.sqlite"

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    settings TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS games (
    run_id TEXT NOT NULL REFERENCES runs(run_id),
    idx INTEGER NOT NULL,
    deal_seed INTEGER NOT NULL,
    rebel_agent TEXT NOT NULL,
    imperial_agent TEXT NOT NULL,
    winner INTEGER NOT NULL,
    turns INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    reason TEXT NOT NULL,
    ending TEXT NOT NULL,
    first_player INTEGER NOT NULL,
    plays TEXT NOT NULL,
    kills TEXT NOT NULL,
    damage TEXT NOT NULL,
    deck_sizes TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
);
"""

_COLUMNS = (
    "idx, deal_seed, rebel_agent, imperial_agent, winner, turns, decisions, reason, ending, "
    "first_player, plays, kills, damage, deck_sizes"
)


class StoreError(RebelSpaceError):
    """The database file is not a lab database, or a run asked for is not in it."""


@dataclass(frozen=True, slots=True)
class Run:
    run_id: str
    kind: str
    label: str
    settings: RunSettings
    games: int
    created: float
    updated: float  # when games were last added (played or extended)


class Store:
    """An open lab database. Use as a context manager, or call ``close``."""

    def __init__(self, path: str | Path = DEFAULT_DB) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA journal_mode=WAL")
            # A crash of the lab loses at most the batch being written; it is played again.
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(runs)")}
            if "updated" not in columns:  # a database made before runs knew when they last ran
                with self.db:
                    self.db.execute("ALTER TABLE runs ADD COLUMN updated REAL NOT NULL DEFAULT 0")
                    self.db.execute("UPDATE runs SET updated = created")
        except sqlite3.DatabaseError as e:
            raise StoreError(f"{self.path}: not a balance lab database ({e})") from None
        self.write_seconds = 0.0  # time spent writing game rows, for the benchmark

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------------ runs

    def ensure_run(self, settings: RunSettings) -> str:
        run_id = settings.run_id
        now = time.time()
        with self.db:
            self.db.execute(
                "INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?, ?, ?)",
                (
                    run_id,
                    settings.kind,
                    settings.label(),
                    json.dumps(settings.to_json()),
                    now,
                    now,
                ),
            )
            if settings.name:  # a label given again names the run anew
                self.db.execute(
                    "UPDATE runs SET label = ?, settings = ? WHERE run_id = ?",
                    (settings.label(), json.dumps(settings.to_json()), run_id),
                )
        return run_id

    def touch(self, run_id: str) -> None:
        """Mark the run as the one last played or extended."""
        with self.db:
            self.db.execute("UPDATE runs SET updated = ? WHERE run_id = ?", (time.time(), run_id))

    def runs(self) -> list[Run]:
        """Every run, the one last played or extended last."""
        rows = self.db.execute(
            "SELECT r.run_id, r.kind, r.label, r.settings, r.created, r.updated, COUNT(g.idx) "
            "FROM runs r LEFT JOIN games g ON g.run_id = r.run_id "
            "GROUP BY r.run_id ORDER BY r.updated, r.created, r.run_id"
        ).fetchall()
        return [
            Run(rid, kind, label, RunSettings.from_json(json.loads(s)), n, created, updated)
            for rid, kind, label, s, created, updated, n in rows
        ]

    def run(self, ref: str | None = None, *, kind: str | None = "balance") -> Run:
        """A run by id or id prefix. With no ``ref``, the run of ``kind`` last played or
        extended."""
        runs = self.runs()
        if ref is None:
            found = [r for r in runs if kind is None or r.kind == kind]
            if not found:
                raise StoreError(f"{self.path}: no {kind or ''} runs yet; run `rebelspace balance`")
            return found[-1]
        found = [r for r in runs if r.run_id.startswith(ref)]
        if len(found) != 1:
            known = ", ".join(f"{r.run_id} ({r.label})" for r in runs) or "none"
            what = "no run" if not found else "more than one run"
            raise StoreError(f"{self.path}: {what} matches {ref!r}; runs: {known}")
        return found[0]

    # ----------------------------------------------------------------- games

    def done_indices(self, run_id: str) -> set[int]:
        rows = self.db.execute("SELECT idx FROM games WHERE run_id = ?", (run_id,))
        return {i for (i,) in rows}

    def add_games(self, run_id: str, rows: Iterable[GameRow]) -> None:
        """Write a batch of games in one transaction (fast, and all or nothing)."""
        start = time.perf_counter()
        with self.db:
            self.db.executemany(
                f"INSERT OR IGNORE INTO games (run_id, {_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    (
                        run_id,
                        r.index,
                        r.deal_seed,
                        r.rebel_agent,
                        r.imperial_agent,
                        r.winner,
                        r.turns,
                        r.decisions,
                        r.reason,
                        r.ending,
                        r.first_player,
                        json.dumps(r.plays),
                        json.dumps(r.kills),
                        json.dumps(r.damage),
                        json.dumps(r.deck_sizes),
                    )
                    for r in rows
                ),
            )
        self.write_seconds += time.perf_counter() - start

    def winners(self, run_id: str) -> dict[int, int]:
        """Game index -> winner (0 Rebel, 1 Imperial): all that win rates need, without
        decoding each game's statistics."""
        rows = self.db.execute("SELECT idx, winner FROM games WHERE run_id = ?", (run_id,))
        return dict(rows.fetchall())

    def games(self, run_id: str, limit: int | None = None) -> Iterator[GameRow]:
        """The run's games in index order (the first ``limit`` of them)."""
        sql = f"SELECT {_COLUMNS} FROM games WHERE run_id = ? ORDER BY idx"
        params: tuple[Any, ...] = (run_id,)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)
        for row in self.db.execute(sql, params):
            (
                idx,
                seed,
                ra,
                ia,
                winner,
                turns,
                dec,
                reason,
                ending,
                first,
                plays,
                kills,
                damage,
                decks,
            ) = row
            yield GameRow(
                index=idx,
                deal_seed=seed,
                rebel_agent=ra,
                imperial_agent=ia,
                winner=winner,
                turns=turns,
                decisions=dec,
                reason=reason,
                ending=ending,
                first_player=first,
                plays=json.loads(plays),
                kills=json.loads(kills),
                damage=json.loads(damage),
                deck_sizes=[tuple(x) for x in json.loads(decks)],
            )
