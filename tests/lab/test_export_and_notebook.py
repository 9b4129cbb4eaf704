"""``rebelspace export RUN --csv DIR``: tidy tables that agree with the stored games, and the
example notebook that reads them, executed cell by cell as a script."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rebelspace import cli
from rebelspace.lab.export import TABLES

NOTEBOOK = Path(__file__).parents[2] / "examples" / "balance.ipynb"


def read(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture()
def exported(tmp_path: Path) -> Path:
    db = str(tmp_path / "lab.sqlite")
    argv = ["--db", db, "--workers", "1"]
    assert cli.main(["balance", "--games", "30", "--agents", "random", *argv]) == 0
    assert cli.main(["ablate", "--card", "Space Cruiser", *argv]) == 0
    assert cli.main(["export", "--csv", str(tmp_path / "csv"), "--db", db]) == 0
    return tmp_path / "csv"


def test_export_writes_one_tidy_table_per_kind_of_row(exported: Path) -> None:
    assert sorted(p.name for p in exported.iterdir()) == sorted(TABLES)
    games = read(exported / "games.csv")
    assert len(games) == 30 and [int(g["game"]) for g in games] == list(range(30))
    assert all(g["winner"] in ("rebel", "imperial") for g in games)
    assert all(int(g["rebel_won"]) == (g["winner"] == "rebel") for g in games)
    (run,) = read(exported / "run.csv")
    assert run["label"] == "random, seed 0, cards as printed"
    plays = read(exported / "card_games.csv")
    cards = {c["card"]: c for c in read(exported / "cards.csv")}
    played_in = {name: len({p["game"] for p in plays if p["card"] == name and p["plays"] != "0"})
                 for name in cards}  # fmt: skip
    assert all(int(cards[n]["games_played_in"]) == played_in[n] for n in cards)
    assert cards["Space Cruiser"]["ablation_mode"] == "blank"
    turns = {g["game"]: int(g["turns"]) for g in games}
    decks = read(exported / "deck_sizes.csv")
    assert max(int(d["turn"]) for d in decks if d["game"] == "0") == turns["0"]


def test_export_of_an_unknown_run_is_one_line(
    exported: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(exported.parent / "lab.sqlite")
    capsys.readouterr()
    assert cli.main(["export", "nosuchrun", "--csv", str(exported), "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no run matches 'nosuchrun'" in err


def test_the_example_notebook_reads_the_export_and_draws_the_side_win_rate(
    exported: Path, tmp_path: Path
) -> None:
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    script = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    (tmp_path / "notebook.py").write_text(script)
    done = subprocess.run(
        [sys.executable, str(tmp_path / "notebook.py")],
        env={**os.environ, "REBELSPACE_EXPORT": str(exported), "MPLBACKEND": "Agg"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    games = read(exported / "games.csv")
    rebel = sum(g["winner"] == "rebel" for g in games) / len(games)
    assert f"rebel: {100 * rebel:.1f}%" in done.stdout
    cards = read(exported / "cards.csv")
    ranked = [c for c in cards if c["ablation_diff"] and c["rarely_played"] == "0"]
    assert f"{len(ranked)} cards ablated and ranked" in done.stdout
    assert (exported / "side_win_rate.png").read_bytes().startswith(b"\x89PNG")
