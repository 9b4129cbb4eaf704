"""Running, storing and resuming balance runs: the same games whatever the workers."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rebelspace.lab.games import play_batch
from rebelspace.lab.runner import run_balance
from rebelspace.lab.settings import RunSettings
from rebelspace.lab.store import Store, StoreError
from rebelspace.play.pool import batches

RUN = RunSettings.build(("heuristic", "random"), 11)


def rows(store: Store, run_id: str) -> list[tuple]:
    return [
        (r.index, r.deal_seed, r.winner, r.turns, r.decisions, r.plays, r.kills, r.damage,
         r.deck_sizes)
        for r in store.games(run_id)
    ]  # fmt: skip


def test_batches_cover_every_game_once_in_small_pieces() -> None:
    todo = list(range(1000))
    parts = batches(todo, 2)
    assert [i for b in parts for i in b] == todo
    assert max(len(b) for b in parts) <= 64 and len(parts) >= 16
    assert batches([], 2) == []
    assert batches([3], 8) == [[3]]


def test_store_round_trips_a_game_row(tmp_path: Path) -> None:
    game = play_batch(RUN, [3])[0]
    with Store(tmp_path / "lab.sqlite") as store:
        run_id = store.ensure_run(RUN)
        store.add_games(run_id, [game])
        store.add_games(run_id, [game])  # a repeated write does not duplicate the game
        assert list(store.games(run_id)) == [game]
        assert store.run().settings == RUN and store.run().games == 1


def test_one_and_two_workers_store_identical_games(tmp_path: Path) -> None:
    with Store(tmp_path / "one.sqlite") as one, Store(tmp_path / "two.sqlite") as two:
        a = run_balance(RUN, 24, one, workers=1, progress=False)
        b = run_balance(RUN, 24, two, workers=2, progress=False)
        assert rows(one, a.run_id) == rows(two, b.run_id)
        assert len(rows(one, a.run_id)) == 24
    assert (a.games, a.rebel_wins, a.mean_turns) == (b.games, b.rebel_wins, b.mean_turns)


def test_a_stopped_run_resumes_and_adds_to_the_same_database(tmp_path: Path) -> None:
    path = tmp_path / "lab.sqlite"
    with Store(tmp_path / "whole.sqlite") as store:
        whole = run_balance(RUN, 20, store, workers=1, progress=False)
        expected = rows(store, whole.run_id)
    with Store(path) as store:
        first = run_balance(RUN, 8, store, workers=1, progress=False)
        assert (first.games, first.played) == (8, 8)
    # A crash mid-run loses games 3 and 5 (as if never written).
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM games WHERE idx IN (3, 5)")
    with Store(path) as store:
        again = run_balance(RUN, 20, store, workers=2, progress=False)
        assert (again.games, again.played) == (20, 14)
        assert rows(store, again.run_id) == expected
        assert len(store.runs()) == 1


def test_balance_summary_has_the_documented_json(tmp_path: Path) -> None:
    with Store(tmp_path / "lab.sqlite") as store:
        result = run_balance(RUN, 10, store, workers=1, progress=False)
    d = result.to_dict()
    assert {"games", "rebel_win_rate", "ci95", "mean_turns", "games_per_second", "db"} <= set(d)
    assert d["games"] == 10 and d["ci95"][0] <= d["rebel_win_rate"] <= d["ci95"][1]
    assert d["db"].endswith("lab.sqlite") and d["games_per_second"] > 0


def test_a_file_that_is_not_a_lab_database_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    bad.write_text("these are my notes, not a database\n" * 100)
    with pytest.raises(StoreError, match="not a balance lab database"):
        Store(bad)
    assert bad.read_text().startswith("these are my notes")


def test_unknown_run_reference_lists_the_runs(tmp_path: Path) -> None:
    with Store(tmp_path / "lab.sqlite") as store:
        with pytest.raises(StoreError, match="no balance runs yet"):
            store.run()
        run_balance(RUN, 2, store, workers=1, progress=False)
        with pytest.raises(StoreError, match=f"no run matches 'zzz'.*{RUN.run_id}"):
            store.run("zzz")
        assert store.run(RUN.run_id[:5]).run_id == RUN.run_id
