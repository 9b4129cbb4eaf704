"""The report's plots, drawn with matplotlib (Agg, no screen) as inline SVG."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rebelspace.engine import SIDE_NAMES
from rebelspace.extras import raise_missing

try:
    import matplotlib
except ModuleNotFoundError as e:  # without the lab extra: its one-line hint
    raise_missing("rebelspace.lab.plots", e)

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

REBEL_COLOUR = "#c0392b"
IMPERIAL_COLOUR = "#2c3e50"
SIDE_COLOURS = {"rebel": REBEL_COLOUR, "imperial": IMPERIAL_COLOUR}


def svg(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]  # drop the XML prologue to inline it in HTML


def _err(rate: float, ci: Sequence[float]) -> list[float]:
    return [rate - ci[0], ci[1] - rate]


def rates(
    title: str, labels: Sequence[str], items: Sequence[dict[str, Any]], colours: Sequence[str]
) -> str:
    """Bars of win rates with their 95% intervals, and the 50% line."""
    fig, ax = plt.subplots(figsize=(5, 3))
    values = [i["rate"] for i in items]
    errs = list(zip(*(_err(i["rate"], i["ci95"]) for i in items), strict=True))
    ax.bar(labels, values, yerr=errs, capsize=6, color=colours)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% interval)")
    ax.set_title(title)
    return svg(fig)


def histogram(title: str, counts: dict[int, int], xlabel: str) -> str:
    fig, ax = plt.subplots(figsize=(6, 3))
    ax.bar(list(counts), list(counts.values()), color="#7f8c8d")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title)
    return svg(fig)


def endings(counts: dict[str, int], games: str = "") -> str:
    fig, ax = plt.subplots(figsize=(6, 0.9 + 0.5 * len(counts)))
    ax.barh(list(counts), list(counts.values()), color="#7f8c8d")
    ax.invert_yaxis()
    ax.set_xlabel("games")
    ax.set_title("How games end" + (f" ({games})" if games else ""))
    return svg(fig)


def deck_curve(curve: Sequence[dict[str, Any]], games: str = "") -> str:
    fig, ax = plt.subplots(figsize=(6, 3.2))
    turns = [c["turn"] for c in curve]
    for side in SIDE_NAMES:
        ax.plot(turns, [c[side] for c in curve], label=side.title(), color=SIDE_COLOURS[side])
    ax.set_xlabel("turn")
    ax.set_ylabel("cards in deck (mean)")
    ax.set_title("Deck size over turns (games still running)" + (f"\n{games}" if games else ""))
    ax.legend()
    return svg(fig)


def card_intervals(
    title: str,
    names: Sequence[str],
    values: Sequence[float],
    cis: Sequence[Sequence[float]],
    colours: Sequence[str],
    xlabel: str,
    *,
    zero: float | None = 0.0,
    significant: Sequence[bool] | None = None,
) -> str:
    """One horizontal dot per card with its 95% interval, a legend of the sides, and (with
    ``significant``) filled dots for the cards shown to matter, hollow ones for the rest."""
    from matplotlib.lines import Line2D

    fig, ax = plt.subplots(figsize=(7, 1.4 + 0.28 * len(names)))
    ys = list(range(len(names)))
    errs = [
        [v - c[0] for v, c in zip(values, cis, strict=True)],
        [c[1] - v for v, c in zip(values, cis, strict=True)],
    ]
    ax.errorbar(values, ys, xerr=errs, fmt="none", ecolor="#999999", capsize=3)
    marks = list(significant) if significant is not None else [True] * len(names)
    filled = [i for i, m in enumerate(marks) if m]
    hollow = [i for i, m in enumerate(marks) if not m]
    ax.scatter([values[i] for i in filled], filled, c=[colours[i] for i in filled], zorder=3, s=30)
    ax.scatter(
        [values[i] for i in hollow],
        hollow,
        facecolors="white",
        edgecolors=[colours[i] for i in hollow],
        zorder=3,
        s=30,
    )
    ax.set_yticks(ys, names, fontsize=8)
    ax.invert_yaxis()
    if zero is not None:
        ax.axvline(zero, color="grey", linestyle="--", linewidth=1)
    handles = [
        Line2D([], [], marker="o", linestyle="", color=SIDE_COLOURS[side], label=side.title())
        for side in SIDE_NAMES
        if SIDE_COLOURS[side] in colours
    ]
    if significant is not None:
        handles += [
            Line2D([], [], marker="o", linestyle="", color="#555555", label="significant (Holm)"),
            Line2D([], [], marker="o", linestyle="", markerfacecolor="white",
                   color="#555555", label="not significant"),
        ]  # fmt: skip
    ax.legend(handles=handles, fontsize=7, loc="best")
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=9)
    return svg(fig)


def played_vs_not(rows: Sequence[dict[str, Any]], games: str = "") -> str:
    """The owner's win rate in games where the card was played and where it was not."""
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.28 * len(rows)))
    for k, (key, colour, shift) in enumerate(
        (("win_rate_when_played", "#27ae60", -0.15), ("win_rate_when_not_played", "#8e44ad", 0.15))
    ):
        ys, xs, lo, hi = [], [], [], []
        for y, row in enumerate(rows):
            r = row[key]
            if r is None:
                continue
            ys.append(y + shift)
            xs.append(r["rate"])
            lo.append(r["rate"] - r["ci95"][0])
            hi.append(r["ci95"][1] - r["rate"])
        label = ("played", "not played")[k]
        ax.errorbar(xs, ys, xerr=[lo, hi], fmt="o", color=colour, markersize=3, label=label)
    ax.set_yticks(range(len(rows)), [r["name"] for r in rows], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xlim(0, 1)
    ax.set_xlabel("the card's side's win rate (95% interval)")
    ax.set_title(
        "Win rate when played vs not (biased: see the text)" + (f"\n{games}" if games else ""),
        fontsize=9,
    )
    ax.legend(fontsize=8)
    return svg(fig)


def sweep(
    card: str,
    field: str,
    points: Sequence[dict[str, Any]],
    printed: int | None,
    label: str = "",
) -> str:
    """The Rebel win rate against one card number, with 95% intervals and the printed value."""
    fig, ax = plt.subplots(figsize=(6, 3.2))
    xs = [p["value"] for p in points]
    ys = [p["rebel_win_rate"] for p in points]
    errs = [
        [y - p["ci95"][0] for y, p in zip(ys, points, strict=True)],
        [p["ci95"][1] - y for y, p in zip(ys, points, strict=True)],
    ]
    ax.errorbar(xs, ys, yerr=errs, fmt="o-", color=REBEL_COLOUR, capsize=4)
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    if printed is not None:
        ax.axvline(printed, color="#16a085", linestyle=":", label=f"printed ({printed})")
        ax.legend(fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_xlabel(f"{card}: {field}")
    ax.set_ylabel("Rebel win rate (95% interval)")
    ax.set_title(f"Sweep of {card} {field}" + (f"\n{label}" if label else ""), fontsize=10)
    return svg(fig)


def ladder(points: Sequence[dict[str, Any]]) -> str:
    """The Rebel's win rate and the first move's worth against each rung's arena rating."""
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6, 5.5), sharex=True)
    xs = [p["rating"] for p in points]
    for ax, key, colour, ylabel, line in (
        (top, "rebel_win_rate", REBEL_COLOUR, "Rebel win rate", 0.5),
        (bottom, "first_move_advantage", "#16a085", "first move's worth", 0.0),
    ):
        ys = [p[key]["value"] for p in points]
        errs = list(zip(*(_err(p[key]["value"], p[key]["ci95"]) for p in points), strict=True))
        ax.errorbar(xs, ys, yerr=errs, fmt="-", capsize=5, color=colour)
        enough = [p.get("enough_games", True) for p in points]
        ax.scatter(
            [x for x, e in zip(xs, enough, strict=True) if e],
            [y for y, e in zip(ys, enough, strict=True) if e],
            color=colour,
            zorder=3,
            label="enough games",
        )
        ax.scatter([x for x, e in zip(xs, enough, strict=True) if not e],
                   [y for y, e in zip(ys, enough, strict=True) if not e], facecolors="white",
                   edgecolors=colour, zorder=3, label="too few games (not judged)")  # fmt: skip
        ax.axhline(line, color="grey", linestyle="--", linewidth=1)
        ax.set_ylabel(f"{ylabel}\n(95% interval)")
        for x, y, p in zip(xs, ys, points, strict=True):
            ax.annotate(f"{p['rung']} ({p['games']} games)", (x, y),
                        textcoords="offset points", xytext=(6, 6), fontsize=8)  # fmt: skip
    top.set_ylim(0, 1)
    top.legend(fontsize=7, loc="best")
    top.set_title("The balance across play strength (mirror games on the same deals)")
    bottom.set_xlabel("arena rating of the rung (Bradley-Terry, Elo scale)")
    return svg(fig)
