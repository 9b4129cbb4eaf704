"""The benchmark commands that print issue 17's figures run and print what they promise (on
budgets far too small to mean anything: the figures themselves are in the notes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from rebelspace.training.teacher import generate_teacher_games

ROOT = Path(__file__).parents[1]


def run_benchmark(name: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / name), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return done.stdout


def test_the_targets_benchmark_prints_each_match_with_its_interval_and_verdict() -> None:
    out = json.loads(
        run_benchmark(
            "targets.py",
            "--only",
            "distilled,easy-heuristic",
            "--deals",
            "1",
            "--workers",
            "1",
            "--speed-games",
            "1",
            "--json",
        )
    )
    assert [r["name"] for r in out] == ["distilled", "easy-heuristic"]
    for r in out:
        assert r["games"] == 2 and r["deals"] == 1 and 0 <= r["a_wins"] <= 2
        low, high = r["ci95"]
        assert 0.0 <= low <= r["a_win_rate"] <= high <= 1.0
        assert isinstance(r["met"], bool)
    assert out[0]["decisions_per_s"] > 0 and out[0]["heuristic_decisions_per_s"] > 0


def test_the_blunders_benchmark_counts_a_teachers_recorded_games(tmp_path: Path) -> None:
    generate_teacher_games(tmp_path, 3, "ismcts:8", "heuristic", 2, workers=1, progress=False)
    out = json.loads(run_benchmark("blunders.py", "--records", str(tmp_path), "--json"))
    assert (out["agent"], out["opponent"]) == ("ismcts:8", "heuristic")
    assert out["games"] == 2 and out["deals"] == 1
    attacks = out["attacks_for_nothing"]
    assert 0 <= attacks["blunders"] <= attacks["of"]


def test_the_targets_benchmark_refuses_an_unknown_target() -> None:
    name = "nonsense"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "targets.py"), "--only", name],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "unknown targets" in done.stderr and name in done.stderr
