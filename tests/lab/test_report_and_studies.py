"""The report, ablation, compare, sweep and suggest, on small real runs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rebelspace.engine import RebelSpaceError
from rebelspace.lab.analysis import ablation_settings, analyse
from rebelspace.lab.report import findings, write_report
from rebelspace.lab.runner import run_balance
from rebelspace.lab.settings import RunSettings
from rebelspace.lab.stats import Diff
from rebelspace.lab.store import Store
from rebelspace.lab.studies import (
    Change,
    _may_help,
    ablate,
    candidates,
    compare,
    confirm_settings,
    parse_range,
    runner,
    suggest,
    sweep,
)

BASE = RunSettings.build(("heuristic", "heuristic"), 3)


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "lab.sqlite") as s:
        run_balance(BASE, 40, s, workers=1, progress=False)
        yield s


def test_report_numbers_match_the_stored_games(store: Store) -> None:
    run = store.run()
    games = list(store.games(run.run_id))
    summary = analyse(store, run)
    rebel = sum(1 for g in games if g.winner == 0)
    assert summary["sides"]["rebel"]["wins"] == rebel
    assert summary["sides"]["imperial"]["wins"] == 40 - rebel
    assert sum(summary["length"]["histogram"].values()) == 40
    assert sum(summary["endings"].values()) == 40
    assert summary["deck_sizes"][0] == {"turn": 1, "games": 40, "rebel": 71.0, "imperial": 62.0}
    soldier = next(c for c in summary["cards"] if c["name"] == "Rebel Soldier")
    played = [g for g in games if g.plays.get("Rebel Soldier")]
    assert soldier["games_played_in"] == len(played)
    assert soldier["ablation"] is None  # no ablation played yet
    total_damage = sum(g.damage.get("Rebel Soldier", 0) for g in games)
    assert soldier["damage_per_game"]["mean"] == pytest.approx(total_damage / 40, abs=1e-4)


def test_report_writes_html_with_plots_and_the_same_numbers_as_json(
    store: Store, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    summary = write_report(store, store.run(), out)
    page = (out / "report.html").read_text()
    data = json.loads((out / "report.json").read_text())
    assert data == json.loads(json.dumps(summary))
    assert page.count("<svg") >= 7
    assert summary["findings"][0] in page.replace("&#x27;", "'")
    # No first-player figure: the Rebel always moves first here, so it would be one bar.
    assert "First-player advantage" not in page
    for title in (
        "Win rate per side",
        "Length of games",
        "How games end",
        "Deck size over turns",
        "Damage per copy",
        "Kills per copy",
    ):
        assert f"<h2>{title}</h2>" in page  # fmt: skip


def test_findings_say_which_side_is_favoured_with_the_interval() -> None:
    summary: dict[str, Any] = {
        "run": {"agents": ["heuristic", "heuristic"], "games": 1000},
        "sides": {
            "rebel": {"rate": 0.8, "ci95": [0.77, 0.83]},
            "imperial": {"rate": 0.2, "ci95": [0.17, 0.23]},
        },
        "first_player": {"first": "rebel", "decomposition": None},
        "length": {"mean": 18.0, "median": 17, "p10": 15, "p90": 22},
        "endings": {"battle damage emptying a deck": 800, "a player drawing their last card": 200},
        "cards": [],
    }
    text = findings(summary)
    assert text[0].startswith(
        "Played by heuristic on both sides, the game favours the Rebel: it wins 80.0% of 1000 games"
    )
    assert "77.0% to 83.0%" in text[0]
    summary["sides"]["rebel"] = {"rate": 0.52, "ci95": [0.49, 0.55]}
    assert findings(summary)[0].startswith(
        "Played by heuristic on both sides, no side is shown to be favoured"
    )


def test_ablation_replays_the_same_deals_with_the_card_blanked(store: Store) -> None:
    base = store.run()
    out = ablate(store, base, ["Space Cruiser"], 40, runner(store, workers=1))
    (result,) = out
    assert result["card"] == "Space Cruiser" and result["side"] == "imperial"
    assert result["mode"] == "blank" and "deck size kept" in result["how"]
    assert result["n"] == 40 and result["ci95"][0] <= result["diff"] <= result["ci95"][1]
    assert result["per_copy"] == pytest.approx(result["diff"] / 5, abs=1e-4)  # 5 copies
    ablated = ablation_settings(base.settings, "Space Cruiser")
    blank = ablated.cards().by_name("Space Cruiser")
    assert blank.count == 5 and (blank.ground, blank.space, blank.damage) == (0, 0, 0)
    assert ablated.cards().deck_size(1) == base.settings.cards().deck_size(1)
    games = list(store.games(ablated.run_id))
    assert len(games) == 40 and not any("Space Cruiser" in g.plays for g in games)
    # The report now shows the card's impact.
    card = next(c for c in analyse(store, base)["cards"] if c["name"] == "Space Cruiser")
    assert card["ablation"]["diff"] == result["diff"]
    with pytest.raises(RebelSpaceError, match="no card named"):
        ablate(store, base, ["Death Star"], 40, runner(store, workers=1))


def test_compare_pairs_runs_that_share_seeds(store: Store) -> None:
    base = store.run()
    other = BASE.with_changes(rules=["tie=defender"])
    run_balance(other, 40, store, workers=1, progress=False)
    out = compare(store, base, store.run(other.run_id, kind=None))
    d = out["rebel_win_rate_difference"]
    assert d["paired"] and d["n"] == 40
    assert d["diff"] == pytest.approx(out["b"]["rebel_win_rate"] - out["a"]["rebel_win_rate"])
    same = compare(store, base, base)["rebel_win_rate_difference"]
    assert same["diff"] == 0 and not same["significant"]


def test_sweep_plays_each_value(store: Store) -> None:
    out = sweep(BASE, "Space Cruiser", "space", [6, 7], 10, runner(store, workers=1))
    assert [p["value"] for p in out["points"]] == [6, 7] and out["printed"] == 10
    assert len({p["run_id"] for p in out["points"]}) == 2
    with pytest.raises(RebelSpaceError, match="field"):
        sweep(BASE, "Space Cruiser", "warp", [1], 10, runner(store, workers=1))


def test_parse_range() -> None:
    assert parse_range("6..9") == [6, 7, 8, 9]
    for bad in ("6-9", "9..6", "a..b", "6.."):
        with pytest.raises(RebelSpaceError, match="low..high"):
            parse_range(bad)


def test_candidates_are_every_valid_one_step_change() -> None:
    changes = candidates(BASE)
    texts = {c.text for c in changes}
    assert "Space Cruiser.space=11" in texts and "Space Cruiser.space=9" in texts
    assert "Rebel Soldier.count=9" in texts and "Rebel Soldier.count=11" in texts
    # Nothing below zero, nothing the card does not print.
    assert all(c.value >= 0 for c in changes)
    assert not any(c.card == "Surprise Attack" and c.field == "ground" for c in changes)
    assert Change("Space Cruiser", "space", 11, 10).describe() == (
        "Space Cruiser: space up from 10 to 11"
    )


def test_suggest_screens_sequentially_and_confirms_the_closest_to_even(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, int]] = []
    run = runner(store, workers=1)

    def counting(settings: RunSettings, games: int):  # type: ignore[no-untyped-def]
        calls.append((settings.run_id, games))
        return run(settings, games)

    few = candidates(BASE)[:4]
    monkeypatch.setattr("rebelspace.lab.studies.candidates", lambda base: few)  # keep it small
    out = suggest(store, BASE, 6, 24, 1, counting)
    assert out["candidates"] == 4
    assert out["rounds"][0] == {"games": 6, "candidates": 4, "kept": out["rounds"][0]["kept"]}
    for before, after in zip(out["rounds"], out["rounds"][1:], strict=False):
        assert after["games"] == 2 * before["games"] and after["candidates"] == before["kept"]
    # Every candidate screened (and the base on the same deals).
    assert sum(1 for rid, g in calls if g == 6 and rid != BASE.run_id) == 4
    for s in out["suggestions"]:  # proposed only if shown to move toward 50%
        d = s["against_base"]
        assert s["moves_toward_even"]
        assert (d["ci95"][1] < 0) if out["base"]["rebel_win_rate"] > 0.5 else (d["ci95"][0] > 0)
    finals = out["suggestions"] + out["not_shown_to_help"]
    assert len(finals) <= 1


def test_suggest_states_its_cost_and_needs_yes_without_a_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from rebelspace import cli

    db = str(tmp_path / "lab.sqlite")
    code = cli.main(
        ["suggest", "--agents", "heuristic", "--db", db, "--games", "10", "--confirm", "40"]
    )
    err = capsys.readouterr().err
    n = len(candidates(RunSettings.build(("heuristic", "heuristic"), 0)))
    # Confirmation: the base and 5 finalists, 40 fresh deals each, at heuristic and distilled.
    finals = 2 * 6 * 40
    # Expected: n on 10 games, about n/2 on 20, n/4 on 40; the base on 40 (its largest round).
    expected = n * 10 + n // 2 * 20 + n // 4 * 40 + 40 + finals
    least, most = n * 10 + 10 + finals, n * (10 + 20 + 40) + 40 + finals
    assert abs(int(err.split("about ")[1].split(" games")[0].replace(",", "")) - expected) <= 40
    assert f"(at least {least:,}, at most {most:,};" in err
    assert code == 2 and "add --yes" in err
    assert not Path(db).exists()  # nothing was played


def test_first_move_and_side_advantage_are_split_with_the_flipped_run(store: Store) -> None:
    base = store.run()
    assert analyse(store, base)["first_player"]["decomposition"] is None
    flipped = BASE.with_changes(rules=["first_player=imperial"])
    run_balance(flipped, 40, store, workers=1, progress=False)
    dec = analyse(store, base)["first_player"]["decomposition"]
    first, second = dec["rebel_moving_first"]["rate"], dec["rebel_moving_second"]["rate"]
    rebel_flipped = sum(1 for g in store.games(flipped.run_id) if g.winner == 0) / 40
    assert first == analyse(store, base)["sides"]["rebel"]["rate"]
    assert second == pytest.approx(rebel_flipped, abs=1e-4)
    assert dec["first_move_advantage"] == pytest.approx((first - second) / 2, abs=1e-4)
    assert dec["rebel_side_advantage"] == pytest.approx((first + second) / 2 - 0.5, abs=1e-4)


def test_the_report_defaults_to_the_run_last_played_or_extended(store: Store) -> None:
    printed = store.run()
    what_if = BASE.with_changes(rules=["tie=defender"])
    run_balance(what_if, 4, store, workers=1, progress=False)
    assert store.run().run_id == what_if.run_id  # just played
    run_balance(BASE, 44, store, workers=1, progress=False)
    assert store.run().run_id == printed.run_id  # just extended
    ablate(store, printed, ["Space Cruiser"], 4, runner(store, workers=1))
    assert store.run().run_id == printed.run_id  # study runs are never the default report


def test_screening_drops_changes_shown_to_move_away_from_even_or_overshoot() -> None:
    from rebelspace.lab.stats import Diff
    from rebelspace.lab.studies import _may_help

    def diff(low: float, high: float) -> Diff:
        return Diff((low + high) / 2, low, high, 0.5, True, 100)

    needed = -0.3  # the Rebel wins 80%: a change must lower it, by less than 0.6
    assert _may_help(diff(-0.2, 0.05), needed)
    assert _may_help(diff(-0.65, -0.4), needed)
    assert not _may_help(diff(0.01, 0.1), needed)  # shown to help the Rebel further
    assert not _may_help(diff(-0.9, -0.7), needed)  # shown to overshoot past even


def test_the_report_names_the_other_players_of_the_same_deals(store: Store) -> None:
    # The same seed, cards and rules played by random: the report sets its verdict beside the
    # heuristic's, and a mirror of 10 deals is marked as too few games.
    other = RunSettings.build(("random", "random"), 3)
    run_balance(other, 10, store, workers=1, progress=False)
    base = store.run(BASE.run_id)
    summary = analyse(store, base)
    (o,) = summary["other_players"]
    assert (o["agent"], o["games"], o["enough_games"]) == ("random", 10, False)
    summary["findings"] = text = findings(summary)
    (line,) = [t for t in text if t.startswith("On the same deals, other players: random: ")]
    assert "of 10 games, too few games" in line


def test_a_candidate_with_no_effect_is_dropped_while_screening() -> None:
    needed = -0.3  # the Rebel wins 80%: a change must lower the Rebel's rate
    assert not _may_help(Diff(0.0, -0.1, 0.1, 1.0, True, 40), needed)  # no effect at all
    assert not _may_help(Diff(0.04, -0.06, 0.14, 0.4, True, 40), needed)  # away from even
    assert _may_help(Diff(-0.04, -0.14, 0.06, 0.4, True, 40), needed)  # toward, not shown
    assert not _may_help(Diff(-0.9, -0.95, -0.85, 0.0, True, 40), needed)  # overshoots far


def test_finalists_are_confirmed_on_fresh_deals_at_every_rung(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, int]] = []
    run = runner(store, workers=1)

    def counting(settings: RunSettings, games: int):  # type: ignore[no-untyped-def]
        calls.append((settings.run_id, games))
        return run(settings, games)

    # Without its 15 Stunt Fighters the Rebel (80% at heuristic play) loses far more often.
    big = [Change("Stunt Fighters", "count", 0, 15)]
    monkeypatch.setattr("rebelspace.lab.studies.candidates", lambda base: big)
    out = suggest(store, BASE, 10, 30, 1, counting, rungs=["random"])
    assert out["rungs"] == ["heuristic", "random"]
    (final,) = out["suggestions"] + out["flagged"] + out["not_shown_to_help"]
    assert [r["agent"] for r in final["at_rungs"]] == ["heuristic", "random"]
    fresh, at_random = confirm_settings(BASE), confirm_settings(BASE, "random")
    assert fresh.seed != BASE.seed and at_random.agents == ("random", "random")
    assert (fresh.run_id, 30) in calls and (at_random.run_id, 30) in calls
    assert (BASE.run_id, 30) not in calls  # the screening's deals never confirm a finalist
    assert final["flagged"] == (
        final["moves_toward_even"] and any(r["moves_away_from_even"] for r in final["at_rungs"])
    )
