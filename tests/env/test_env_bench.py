"""``rebelspace bench`` reports env_steps_per_second when the rl extra is installed."""

from __future__ import annotations

import json

import pytest

from rebelspace import cli
from rebelspace.env.bench import bench_aec, bench_env


def test_bench_env_figures() -> None:
    data = bench_env(games=1, seed=3)
    steps = data["env_steps_per_second"]
    assert set(steps) == {"aec", "aec_raw", "gym", "gym_engine_decisions"}
    assert all(v > 0 for v in steps.values())
    assert steps["gym_engine_decisions"] > steps["gym"]  # the opponent's decisions count too
    assert data["env_observation_us"] > 0


def test_bench_aec_time_box_plays_at_least_one_game() -> None:
    assert bench_aec(0.0, 1) > 0


def test_cli_bench_json_has_env_steps(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "--json", "--games", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["env_steps_per_second"]["gym"] > 0
    assert cli.main(["bench", "--json", "--games", "1", "--engine-only"]) == 0
    assert "env_steps_per_second" not in json.loads(capsys.readouterr().out)
