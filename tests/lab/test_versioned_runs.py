"""Versioned runs (issue 35): a run's id covers the behaviour of the engine and the agents
that play it, measured at run time, and a run played by other code is never extended."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from rebelspace import cli
from rebelspace.engine import GameState
from rebelspace.lab import version
from rebelspace.lab.runner import RunVersionError, run_balance
from rebelspace.lab.settings import RunSettings
from rebelspace.lab.store import Store


def test_the_version_names_the_engine_and_each_agent_and_is_part_of_the_id() -> None:
    run = RunSettings.build(("heuristic", "random"), 3)
    assert dict(run.version) == {
        "engine": version.engine_fingerprint(),
        "agent heuristic": version.agent_fingerprint("heuristic"),
        "agent random": version.agent_fingerprint("random"),
    }
    assert run.identity()["version"] == dict(run.version)
    assert run.played_by_this_code()
    other = replace(run, version=(("engine", "0" * 12),))
    assert other.run_id != run.run_id and not other.played_by_this_code()
    assert RunSettings.from_json(run.to_json()).run_id == run.run_id  # stored, read back


def test_an_agent_that_chooses_differently_gets_another_fingerprint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = version.agent_fingerprint("heuristic")
    assert before != version.agent_fingerprint("random")

    def last_legal(_game: GameState, legal: Sequence[int]) -> int:
        return legal[-1]

    version.agent_fingerprint.cache_clear()
    monkeypatch.setattr("rebelspace.play.match.heuristic_action", last_legal)
    try:
        assert version.agent_fingerprint("heuristic") != before
    finally:
        version.agent_fingerprint.cache_clear()


def test_extending_a_run_of_other_code_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    old = replace(RunSettings.build(("random", "random"), 2), version=(("engine", "f" * 12),))
    with Store(tmp_path / "lab.sqlite") as store:
        with pytest.raises(RunVersionError, match="played by other code") as refused:
            run_balance(old, 4, store, workers=1, progress=False)
        assert "\n" not in str(refused.value) and "Start a new run" in str(refused.value)
        assert store.done_indices(old.run_id) == set()


def test_ablating_a_base_run_of_other_code_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "lab.sqlite"
    argv = ["--db", str(db), "--workers", "1"]
    assert cli.main(["balance", "--games", "4", "--agents", "random", *argv, "--json"]) == 0
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    with sqlite3.connect(db) as con:  # as if the run had been played by an older engine
        (text,) = con.execute("SELECT settings FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        stored = json.loads(text)
        stored["version"]["engine"] = "0" * 12
        con.execute("UPDATE runs SET settings = ? WHERE run_id = ?", (json.dumps(stored), run_id))
    assert cli.main(["ablate", "--card", "Medi-Bot", *argv]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and "played by other code" in err
