"""``balance --ladder``: the same deals at every rung, side and first-move advantage apart,
rungs placed by their ratings, and the verdict across play strength in plain words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rebelspace import cli
from rebelspace.lab.ladder import MIN_GAMES, cost_seconds, plan, verdict
from rebelspace.lab.settings import RunSettings
from rebelspace.lab.stats import MIN_DEALS
from rebelspace.lab.store import Store


def test_the_budget_caps_the_games_of_slow_rungs() -> None:
    speeds = {"random": 0.01, "heuristic": 0.01, "ismcts:easy": 1.0}
    plans = plan(list(speeds), 200, 60, 1, speeds.__getitem__)
    fast, _, slow = plans
    assert fast.games == 200 and slow.games < fast.games and slow.games >= MIN_GAMES
    assert plans[1].rating_games < 100 and slow.rating_games == 0  # meeting the slow rung


def _point(rung: str, rating: float, low: float, high: float, deals: int = 50) -> dict[str, object]:
    mid = (low + high) / 2
    side = {"value": mid, "ci95": [low, high]}
    return {
        "rung": rung,
        "rating": rating,
        "games": 2 * deals,
        "deals": deals,
        "enough_games": deals >= MIN_DEALS,
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


def test_a_rung_with_too_few_deals_is_never_trusted() -> None:
    # The strongest rung has 4 deals (8 games): shown, but the verdict is the heuristic's.
    text = verdict(
        [_point("heuristic", 1500, 0.2, 0.3), _point("ismcts:100", 1800, -0.45, -0.05, deals=4)]
    )
    assert "too few games to say (4 deals" in text[1]
    assert "Imperial" not in text[-2] and "ismcts:100" not in text[-2]
    assert text[-2].startswith("The verdict is stable as play gets stronger: the Rebel")
    assert text[-1] == "Not judged, too few games: ismcts:100."
    only_thin = verdict([_point("random", 1500, 0.1, 0.2, deals=3)])
    assert only_thin[-1].startswith("No rung has enough games to judge")


def test_the_stated_cost_counts_every_game_the_plan_plays() -> None:
    speeds = {"random": 0.5, "heuristic": 1.0}
    plans = plan(list(speeds), 80, 3600, 2, speeds.__getitem__)
    # 80 mirror games of each rung, 40 between them at the slower rung's speed, on 2 cores.
    assert cost_seconds(plans, 2) == pytest.approx((80 * 0.5 + 40 * 1.0 + 80 * 1.0) / 2)
    assert all(p.enough for p in plans)
    assert not plan(list(speeds), 80, 1, 1, speeds.__getitem__)[1].enough  # 8 games, 4 deals


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
    assert "too few games to judge" in captured.err  # 10 deals a rung, stated before it starts
    assert "ladder: about " in captured.err
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
