"""The lab's commands end to end through ``rebelspace.cli.main``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rebelspace import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_balance_json_resume_and_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "lab.sqlite")
    code, out, _ = run(capsys, "balance", "--games", "6", "--db", db, "--workers", "1", "--json")
    first = json.loads(out)
    assert code == 0 and first["games"] == 6 and first["played"] == 6
    assert set(first) >= {"games", "rebel_win_rate", "ci95", "mean_turns", "games_per_second", "db"}
    code, out, _ = run(capsys, "balance", "--games", "10", "--db", db, "--workers", "1", "--json")
    again = json.loads(out)
    assert (again["games"], again["played"], again["run_id"]) == (10, 4, first["run_id"])
    assert again["label"].startswith("distilled, seed 0")  # strong play unless asked otherwise
    code, out, _ = run(capsys, "report", "--db", db, "--out", str(tmp_path / "r"))
    assert code == 0 and out.startswith("Played by distilled on both sides, ")
    assert (tmp_path / "r" / "report.html").is_file()


def test_what_if_runs_compare_and_sweep(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "lab.sqlite")
    base = ["--games", "8", "--agents", "heuristic", "--db", db, "--workers", "1", "--json"]
    a = json.loads(run(capsys, "balance", *base)[1])["run_id"]
    b = json.loads(
        run(capsys, "balance", *base, "--set", "Space Cruiser.space=8", "--rule", "tie=defender")[1]
    )["run_id"]
    assert a != b
    code, out, _ = run(capsys, "compare", a, b, "--db", db)
    assert code == 0 and "B - A:" in out and "paired on matched seeds" in out
    code, out, err = run(capsys, "compare", a, a[:6], "--db", db)  # the same run twice
    assert code == 2 and not out and err.count("\n") == 1 and "the same run" in err
    code, out, _ = run(capsys, "sweep", "--card", "Space Cruiser", "--field", "space",
                       "--range", "9..10", "--games", "4", "--agents", "heuristic", "--db", db,
                       "--workers", "1",
                       "--out", str(tmp_path / "sw"))  # fmt: skip
    assert code == 0 and "printed 10" in out
    assert (tmp_path / "sw" / "sweep.svg").read_text().startswith("<svg")


def test_ablate_one_card(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "lab.sqlite")
    run(capsys, "balance", "--games", "6", "--agents", "heuristic", "--db", db, "--workers", "1")
    code, out, _ = run(
        capsys, "ablate", "--card", "Medi-Bot", "--db", db, "--workers", "1", "--json"
    )
    (result,) = json.loads(out)
    assert code == 0 and result["card"] == "Medi-Bot" and result["n"] == 6


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["balance", "--set", "Space Crusier.space=8"], "Space Crusier"),
        (["balance", "--set", "Space Cruiser.space"], "Card Name.field=value"),
        (["balance", "--rule", "tie=sometimes"], "tie"),
        (["balance", "--agents", "chess"], "unknown agent"),
        (["sweep", "--card", "Space Cruiser", "--field", "space", "--range", "12..6"], "low..high"),
        (
            ["sweep", "--card", "Space Cruiser", "--field", "space", "--range", "-3..-1"],
            "never negative",
        ),
        (
            ["balance", "--rule", "starting_hand=500"],
            "starting_hand must be an integer >= 0 and at most 12, got 500",
        ),
        (["report", "--out", "x"], "no lab database"),
        (["compare", "a", "b"], "no lab database"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    db = tmp_path / "lab.sqlite"
    code, _, err = run(capsys, *argv, "--db", str(db))
    assert code == 2 and message in err and err.count("\n") == 1
    assert not db.exists() or argv[0] != "balance"  # nothing was started


def test_runs_lists_labelled_variants_and_report_compare_show_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "lab.sqlite")
    base = ["--games", "6", "--agents", "heuristic", "--db", db, "--workers", "1", "--json"]
    a = json.loads(run(capsys, "balance", *base)[1])["run_id"]
    b = json.loads(
        run(capsys, "balance", *base, "--set", "Space Cruiser.space=8", "--label", "weak cruiser")[
            1
        ]
    )["run_id"]
    code, out, _ = run(capsys, "runs", "--db", db)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert lines[0].startswith(a) and "cards as printed" in lines[0] and "6 games" in lines[0]
    assert (
        lines[1].startswith(b)
        and "weak cruiser: heuristic, seed 0, Space Cruiser.space=8" in (lines[1])
    )
    code, out, _ = run(capsys, "compare", a, b, "--db", db)
    assert "weak cruiser" in out
    code, out, _ = run(capsys, "report", "--db", db, "--out", str(tmp_path / "r"), "--json")
    summary = json.loads(out.splitlines()[0])
    assert summary["run"]["run_id"] == b  # the run played last
    assert "weak cruiser" in (tmp_path / "r" / "report.html").read_text()


def test_ablate_flags_a_card_the_computer_never_plays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "lab.sqlite")
    run(capsys, "balance", "--games", "12", "--agents", "heuristic", "--db", db, "--workers", "1")
    code, out, _ = run(capsys, "ablate", "--card", "True Aim", "--db", db, "--workers", "1")
    lines = out.splitlines()
    assert code == 0 and "blanked" in lines[0]
    assert "not ranked: the computer played True Aim in 0 of 12 games" in lines[1]
