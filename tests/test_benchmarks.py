"""The benchmark commands that print issue 17's figures run and print what they promise (on
budgets far too small to mean anything: the figures themselves are in the notes)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from rebelspace.agents.ismcts import ISMCTSAgent
from rebelspace.engine import new_game
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


def benchmark_module(name: str) -> Any:
    """The module of ``benchmarks/NAME.py`` (the benchmarks are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def test_the_ceiling_benchmark_plays_each_deal_twice_and_prints_an_interval() -> None:
    out = json.loads(
        run_benchmark(
            "ceiling.py",
            "--level",
            "easy",
            "--against",
            "normal",
            "--deals",
            "1",
            "--workers",
            "1",
            "--json",
        )
    )
    assert (out["level"], out["against"], out["games"], out["deals"]) == ("easy", "normal", 2, 1)
    assert 0 <= out["wins"] <= 2
    low, high = out["ci95"]
    assert 0.0 <= low <= out["rate"] <= high <= 1.0


def test_the_all_seeing_search_starts_each_iteration_from_the_true_state() -> None:
    # The ceiling measures perfect knowledge only if the all-seeing agent's copies hold the
    # true hidden cards, where the fair search's are dealt again (R5).
    ceiling = benchmark_module("ceiling")
    game = new_game(7, log=False)
    me = game.to_move
    seer = ceiling.AllSeeing(game.ctx, 1, "easy")
    fair = ISMCTSAgent(game.ctx, 1, "easy")
    opp = 1 - me
    guessed_hands = []
    for _ in range(5):
        seen, guessed = seer._determinize(game, me), fair._determinize(game, me)
        assert (seen.hand, seen.deck, seen.rng) == (game.hand, game.deck, game.rng)
        assert seen is not game  # a copy: the search never plays on the real game
        assert guessed.hand[me] == game.hand[me]  # its own hand is no secret
        assert guessed.rng != game.rng  # nor does it know the future shuffles
        assert sorted(guessed.hand[opp] + guessed.deck[opp]) == sorted(
            game.hand[opp] + game.deck[opp]
        )
        guessed_hands.append(guessed.hand[opp])
    assert any(hand != game.hand[opp] for hand in guessed_hands)


def test_a_target_is_met_only_when_the_lower_bound_clears_the_target_itself() -> None:
    # Issue 29: the benchmark used to count 70% met by an interval from 65.1%.
    targets = benchmark_module("targets")
    seventy = targets.TARGETS["expert-normal"]
    assert seventy.bound == 0.70
    assert targets.is_met(seventy, 0.66, 0.76) is False  # the old "target minus 5 points"
    assert targets.is_met(seventy, 0.70, 0.80) is False  # on the line is not above it
    assert targets.is_met(seventy, 0.701, 0.80) is True
    ninety = targets.TARGETS["expert-heuristic"]
    assert targets.is_met(ninety, 0.86, 0.95) is False and targets.is_met(ninety, 0.91, 0.97)
    assert targets.TARGETS["distilled"].bound == 0.70


def test_a_target_to_stay_below_is_met_only_when_the_upper_bound_is_below_it() -> None:
    targets = benchmark_module("targets")
    below = targets.TARGETS["easy-heuristic"]
    assert targets.is_met(below, 0.30, 0.49) is True
    assert targets.is_met(below, 0.35, 0.51) is False
    assert targets.is_met(targets.TARGETS["normal-heuristic"], 0.8, 0.9) is None


def test_the_speed_benchmark_names_its_build_and_prints_cpu_figures() -> None:
    out = json.loads(
        run_benchmark("speed.py", "--only", "random,heuristic", "--seconds", "0.01", "--games", "1")
    )
    assert out["build"] in {"compiled", "pure"}
    assert out["random_decisions_per_second"] > 0 and out["random_games"] >= 1
    assert out["clone_us"] > 0 and out["heuristic_decisions_per_second"] > 0


def test_the_peers_benchmark_prints_each_engine_or_why_it_is_omitted() -> None:
    out = json.loads(run_benchmark("peers.py", "--seconds", "0.01", "--json"))
    ours, *peers = out
    assert ours.startswith("rebelspace (") and out[ours]["ours_over_theirs"] == 1.0
    assert {"OpenSpiel hearts", "OpenSpiel gin rummy", "RLCard UNO"} <= set(peers)
    for name in peers:
        row = out[name]
        assert "omitted" in row or (row["decisions_per_second"] > 0 and row["ours_over_theirs"] > 0)
