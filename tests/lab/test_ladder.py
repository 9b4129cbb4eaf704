"""``balance --ladder``: the same deals at every rung, side and first-move advantage apart,
rungs placed by their ratings, and the verdict across play strength in plain words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rebelspace import cli
from rebelspace.lab.ladder import MIN_GAMES, plan, verdict
from rebelspace.lab.settings import RunSettings
from rebelspace.lab.store import Store


def test_the_budget_caps_the_games_of_slow_rungs() -> None:
    speeds = {"random": 0.01, "heuristic": 0.01, "ismcts:easy": 1.0}
    plans = plan(list(speeds), 200, 60, 1, speeds.__getitem__)
    fast, _, slow = plans
    assert fast.games == 200 and slow.games < fast.games and slow.games >= MIN_GAMES
    assert plans[1].rating_games < 100 and slow.rating_games == 0  # meeting the slow rung


def _point(rung: str, rating: float, low: float, high: float) -> dict[str, object]:
    mid = (low + high) / 2
    side = {"value": mid, "ci95": [low, high]}
    return {
        "rung": rung,
        "rating": rating,
        "games": 100,
        "rebel_win_rate": {"value": 0.5 + mid, "ci95": [0.5 + low, 0.5 + high]},
        "rebel_side_advantage": side,
        "first_move_advantage": {"value": 0.0, "ci95": [-0.05, 0.05]},
    }


def test_the_verdict_says_when_it_changes_with_play_strength() -> None:
    text = verdict([_point("random", 1300, -0.2, -0.1), _point("heuristic", 1700, 0.2, 0.3)])
    assert "not stable across play strength" in text[-1]
    assert "random: Imperial; heuristic: Rebel" in text[-1]
    stable = verdict([_point("random", 1300, 0.1, 0.2), _point("heuristic", 1700, 0.2, 0.3)])
    assert stable[-1].startswith("The verdict is stable as play gets stronger: the Rebel")


def test_a_small_ladder_plays_the_same_deals_and_writes_its_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "lab.sqlite"
    argv = ["balance", "--ladder", "random,heuristic", "--games", "20", "--db", str(db),
            "--workers", "1", "--out", str(tmp_path / "ladder"), "--json"]  # fmt: skip
    assert cli.main(argv) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert "ladder: random: 20 games" in captured.err
    assert [p["rung"] for p in out["rungs"]] == ["random", "heuristic"]
    assert all(p["games"] == 20 and p["deals"] == 10 for p in out["rungs"])
    assert sum(h["games"] for h in out["head_to_head"]) == 10
    with Store(db) as store:
        deals = [
            [g.deal_seed for g in store.games(RunSettings.build((r, r), 0).run_id)]
            for r in ("random", "heuristic")
        ]
    assert deals[0] == deals[1]  # the same deals at every rung
    assert (tmp_path / "ladder" / "ladder.svg").read_text().startswith("<svg")
    assert out["verdict"][0].startswith("random (rating ")


def test_a_ladder_of_one_agent_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = cli.main(["balance", "--ladder", "random", "--db", str(tmp_path / "x.sqlite")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "two or more different agents" in err
