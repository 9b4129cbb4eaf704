"""``rebelspace export RUN --csv DIR``: a run as tidy CSV tables a spreadsheet or pandas opens.

One row per observation, one column per variable, plain numbers (no JSON in a cell):

- ``run.csv``: the run (id, label, agents, seed, rules, card changes, games);
- ``games.csv``: one row per game (winner, turns, ending, deal and unit for pairing);
- ``card_games.csv``: one row per card and game it appeared in (plays, kills, damage);
- ``deck_sizes.csv``: one row per game and turn (both deck sizes at the turn's start);
- ``cards.csv``: one row per card, the report's per-card numbers (rates with intervals,
  ablation with its correction, the rarely-played flag).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rebelspace.engine import SIDE_NAMES

from .analysis import analyse
from .games import unit_of
from .store import Run, Store

TABLES = ("run.csv", "games.csv", "card_games.csv", "deck_sizes.csv", "cards.csv")


def export_csv(store: Store, run: Run, folder: Path) -> list[Path]:
    """Write the run's tables into ``folder`` (made if missing); returns the files written."""
    games = list(store.games(run.run_id))
    if not games:
        raise ValueError(f"run {run.run_id} has no games yet")
    summary = analyse(store, run, games)
    settings = run.settings
    folder.mkdir(parents=True, exist_ok=True)
    written = [
        _write(
            folder / "run.csv",
            ["run_id", "kind", "label", "agent_a", "agent_b", "seed", "rules", "card_changes"],
            [
                [
                    run.run_id,
                    run.kind,
                    run.label,
                    *settings.agents,
                    settings.seed,
                    "; ".join(settings.rules),
                    "; ".join(settings.diff),
                ]
            ],
        ),
        _write(
            folder / "games.csv",
            [
                "run_id",
                "game",
                "unit",
                "deal_seed",
                "rebel_agent",
                "imperial_agent",
                "winner",
                "rebel_won",
                "first_player",
                "turns",
                "decisions",
                "ending",
                "reason",
            ],
            (
                [
                    run.run_id,
                    g.index,
                    unit_of(settings, g.index),
                    g.deal_seed,
                    g.rebel_agent,
                    g.imperial_agent,
                    SIDE_NAMES[g.winner],
                    int(g.winner == 0),
                    SIDE_NAMES[g.first_player],
                    g.turns,
                    g.decisions,
                    g.ending,
                    g.reason,
                ]
                for g in games
            ),
        ),  # fmt: skip
        _write(
            folder / "card_games.csv",
            ["run_id", "game", "card", "plays", "kills", "damage"],
            (
                [
                    run.run_id,
                    g.index,
                    name,
                    g.plays.get(name, 0),
                    g.kills.get(name, 0),
                    g.damage.get(name, 0),
                ]
                for g in games
                for name in sorted({*g.plays, *g.kills, *g.damage})
            ),
        ),  # fmt: skip
        _write(
            folder / "deck_sizes.csv",
            ["run_id", "game", "turn", "rebel_deck", "imperial_deck"],
            (
                [run.run_id, g.index, turn + 1, rebel, imperial]
                for g in games
                for turn, (rebel, imperial) in enumerate(g.deck_sizes)
            ),
        ),
        _write(folder / "cards.csv", CARD_COLUMNS, (_card_row(c) for c in summary["cards"])),
    ]
    return written


CARD_COLUMNS = [
    "card", "side", "copies", "games_played_in", "plays_per_game", "rarely_played",
    "win_rate_when_played", "when_played_low", "when_played_high",
    "win_rate_when_not_played", "when_not_played_low", "when_not_played_high",
    "kills_per_game", "damage_per_game",
    "ablation_mode", "ablation_games", "ablation_deals", "ablation_diff", "ablation_low",
    "ablation_high", "ablation_p",
    "ablation_p_holm", "ablation_significant_after_holm",
]  # fmt: skip


def _card_row(c: dict[str, Any]) -> list[Any]:
    def rate(r: dict[str, Any] | None) -> list[Any]:
        return ["", "", ""] if r is None else [r["rate"], *r["ci95"]]

    a = c["ablation"]
    ablation = (
        ["", "", "", "", "", "", "", "", ""]
        if a is None
        else [
            a["mode"],
            a["games"],
            a["deals"],
            a["diff"],
            *a["ci95"],
            a.get("p_uncorrected", a["p_value"]),
            a.get("p_holm", ""),
            int(a["significant"]),
        ]
    )
    return [
        c["name"],
        c["side"],
        c["copies"],
        c["games_played_in"],
        c["plays_per_game"],
        int(c["rarely_played"]),
        *rate(c["win_rate_when_played"]),
        *rate(c["win_rate_when_not_played"]),
        c["kills_per_game"]["mean"],
        c["damage_per_game"]["mean"],
        *ablation,
    ]


def _write(path: Path, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(header)
        out.writerows(rows)
    return path
