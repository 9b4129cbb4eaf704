"""``rebelspace report``: the findings in plain words, plots, and the same numbers as JSON."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from . import plots
from .analysis import analyse, ranked
from .store import Run, Store


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def points(x: float) -> str:
    return f"{100 * x:+.1f} points"


def interval(ci: list[float]) -> str:
    return f"{pct(ci[0])} to {pct(ci[1])}"


def significance(a: dict[str, Any]) -> str:
    """Whether an ablation is significant, in plain words, with the correction applied."""
    tests = a.get("tests", 1)
    if tests == 0:
        return "not ranked: " + str(a.get("not_ranked", "the computer rarely plays the card"))
    if tests == 1:
        return "significant at 5%" if a["significant"] else "not significant at 5%"
    if a["significant"]:
        return (
            f"significant after Holm's correction for testing {tests} cards at once "
            f"(corrected p {_p(a['p_holm'])})"
        )
    if a.get("significant_uncorrected"):
        return (
            f"p {_p(a['p_uncorrected'])} alone, but not significant once the {tests} cards "
            "tested at once are accounted for (Holm)"
        )
    return "not significant"


def _p(p: float) -> str:
    return "< 0.0001" if p < 0.0001 else f"= {p:.2g}"


def findings(summary: dict[str, Any]) -> list[str]:
    """The report's opening: what a designer should know first, in plain words."""
    out = []
    run = summary["run"]
    rebel = summary["sides"]["rebel"]
    agents = list(dict.fromkeys(run["agents"]))
    who = (
        f"Played by {agents[0]} on both sides"
        if len(agents) == 1
        else f"Played by {agents[0]} and {agents[1]}, each on each side of every deal"
    )
    low, high = rebel["ci95"]
    if low > 0.5 or high < 0.5:
        side, rate, ci = (
            ("Rebel", rebel["rate"], rebel["ci95"])
            if low > 0.5
            else (
                "Imperial",
                summary["sides"]["imperial"]["rate"],
                summary["sides"]["imperial"]["ci95"],
            )
        )
        # The agent first: a verdict belongs to the player who produced it (the heuristic
        # favours the Rebel where strong play favours the Imperial).
        out.append(
            f"{who}, the game favours the {side}: it wins {pct(rate)} "
            f"of {run['games']} games (95% interval {interval(ci)}), "
            f"{100 * (rate - 0.5):.1f} points above an even game."
        )
    else:
        out.append(
            f"{who}, no side is shown to be favoured: the Rebel wins "
            f"{pct(rebel['rate'])} of {run['games']} games, and the 95% interval "
            f"({interval(rebel['ci95'])}) includes 50%."
        )
    others = summary.get("other_players", [])
    if others:
        out.append(_across_players(run["agents"][0], rebel, others))
    fp = summary["first_player"]
    dec = fp["decomposition"]
    if dec:
        out.append(
            f"Moving first is worth {points(dec['first_move_advantage'])} of win rate, and the "
            f"Rebel side itself {points(dec['rebel_side_advantage'])} (from the run with the "
            f"other side moving first, {dec['other_run']})."
        )
    else:
        out.append(
            f"The {fp['first'].title()} always moves first (R6), so here the first-move and "
            "side advantages are one number; to split them, play the same run with "
            f"`--rule first_player={'imperial' if fp['first'] == 'rebel' else 'rebel'}`."
        )
    length = summary["length"]
    ends = summary["endings"]
    top_end, top_n = next(iter(ends.items()))
    out.append(
        f"Games last {length['mean']:.1f} turns on average (half of them {length['median']} or "
        f"fewer; 10% to 90%: {length['p10']} to {length['p90']}); {pct(top_n / run['games'])} "
        f"end by {top_end}."
    )
    cards = summary["cards"]
    ablated = [c for c in cards if ranked(c)]
    if ablated:
        ablated.sort(key=lambda c: -abs(c["ablation"]["diff"]))
        parts = [
            f"{c['name']} ({c['side'].title()}, {points(c['ablation']['diff'])} to its side, "
            f"95% interval {points(c['ablation']['ci95'][0])} to "
            f"{points(c['ablation']['ci95'][1])}, on {c['ablation']['games']:,} games; "
            f"{significance(c['ablation'])})"
            for c in ablated[:3]
        ]
        modes = {c["ablation"]["how"] for c in ablated}
        how = " or ".join(sorted(modes))
        out.append(
            f"The cards that move the balance most, replaying the same deals with each card "
            f"{how}: "
            f"{'; '.join(parts)}."
        )
        # Only cards shown to matter are ranked copy for copy: a per-copy figure of a card not
        # shown to differ from no effect ranks noise.
        shown = [c for c in ablated if c["ablation"]["significant"]]
        strongest = sorted(shown, key=lambda c: -c["ablation"]["per_copy"])[:3]
        per_copy = "; ".join(
            f"{c['name']} ({c['side'].title()}, {points(c['ablation']['per_copy'])} a copy, "
            f"{c['copies']} {'copy' if c['copies'] == 1 else 'copies'})"
            for c in strongest
        )
        if strongest:
            out.append(f"Copy for copy, the strongest of the significant cards are {per_copy}.")
        else:
            out.append("No card's impact is significant yet, so none is ranked copy for copy.")
        few = [c for c in cards if c["ablation"] and not c["rarely_played"] and not ranked(c)]
        if few:
            out.append(
                "Ablated on too few games to rank (deals): "
                + ", ".join(f"{c['name']} ({c['ablation']['deals']})" for c in few)
                + "."
            )
    else:
        out.append(
            "Per-card impact needs ablation runs: `rebelspace ablate --all` replays these games "
            "with each card blanked and fills in the card section."
        )
    rare = [c for c in cards if c["rarely_played"] and c["copies"]]
    if rare:
        listed = ", ".join(f"{c['name']} ({c['games_played_in']})" for c in rare[:8])
        more = f" and {len(rare) - 8} more" if len(rare) > 8 else ""
        out.append(
            f"Left out of the rankings because the computer rarely or never plays them (games "
            f"played in, of {run['games']:,}): {listed}{more}. Their numbers say little "
            "about the cards; they say the computer does not use them."
        )
    return out


def _word(rate: dict[str, Any]) -> str:
    low, high = rate["ci95"]
    return "the Rebel" if low > 0.5 else "the Imperial" if high < 0.5 else "neither side"


def _across_players(agent: str, rebel: dict[str, Any], others: list[dict[str, Any]]) -> str:
    """The same deals by other players, and whether their verdicts agree with this one."""
    shown = []
    for o in others:
        rate = f"Rebel {pct(o['rate'])} ({interval(o['ci95'])}) of {o['games']:,} games"
        shown.append(f"{o['agent']}: {rate}" + ("" if o["enough_games"] else ", too few games"))
    judged = {agent: _word(rebel)} | {o["agent"]: _word(o) for o in others if o["enough_games"]}
    favoured = {w for w in judged.values() if w != "neither side"}
    if len(favoured) > 1:
        said = (
            "The players disagree: "
            + "; ".join(f"{a} favours {w}" for a, w in judged.items())
            + ". A verdict holds for the player who produced it; strong play's is the one a "
            "designer should act on (`balance --ladder` places the players by strength)."
        )
    else:
        said = "Their verdicts agree with this one, within their intervals."
    return "On the same deals, other players: " + "; ".join(shown) + ". " + said


def _rows_html(cards: list[dict[str, Any]]) -> str:
    def rate(r: dict[str, Any] | None) -> str:
        return "" if r is None else f"{pct(r['rate'])} ({interval(r['ci95'])})"

    def mean(m: dict[str, Any]) -> str:
        return f"{m['mean']:.2f} ({m['ci95'][0]:.2f} to {m['ci95'][1]:.2f})"

    out = []
    for c in cards:
        a = c["ablation"]
        abl = (
            ""
            if a is None
            else f"{points(a['diff'])} ({points(a['ci95'][0])} to {points(a['ci95'][1])}; "
            f"{points(a['per_copy'])} a copy; by {a['mode']} on {a['games']:,} games; "
            f"{significance(a)})"
        )
        if c["rarely_played"]:
            abl = f"rarely played: {c['rarity_note']}. " + abl
        out.append(
            "<tr>"
            + "".join(
                f"<td>{html.escape(str(x))}</td>"
                for x in (
                    c["name"],
                    c["side"],
                    c["copies"],
                    abl,
                    c["plays_per_game"],
                    rate(c["win_rate_when_played"]),
                    rate(c["win_rate_when_not_played"]),
                    mean(c["damage_per_game"]),
                    mean(c["kills_per_game"]),
                )
            )
            + "</tr>"
        )
    return "\n".join(out)


def _figures(summary: dict[str, Any]) -> list[tuple[str, str]]:
    sides = summary["sides"]
    run = summary["run"]
    who = " vs ".join(dict.fromkeys(run["agents"]))
    games = f"{who}, {run['games']:,} games"
    figs = [
        (
            "Win rate per side",
            plots.rates(
                f"Win rate per side ({games})\n{run['label']}",
                ["Rebel", "Imperial"],
                [sides["rebel"], sides["imperial"]],
                [plots.REBEL_COLOUR, plots.IMPERIAL_COLOUR],
            ),
        ),
    ]
    if summary["first_player"]["decomposition"]:  # one side always first: nothing to split
        figs.append(
            ("First-player advantage", _first_player_figure(summary["first_player"], games))
        )
    figs += [
        (
            "Length of games",
            plots.histogram(f"Length of games ({games})", run_histogram(summary), "turns"),
        ),
        ("How games end", plots.endings(summary["endings"], games)),
        ("Deck size over turns", plots.deck_curve(summary["deck_sizes"], games)),
    ]
    cards = summary["cards"]
    shown = [c for c in cards if not c["rarely_played"] and c["copies"]]
    ablated = [c for c in cards if ranked(c)]
    if ablated:
        ablated.sort(key=lambda c: c["ablation"]["diff"], reverse=True)
        counts = sorted({c["ablation"]["games"] for c in ablated})
        on = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,} to {counts[-1]:,}"
        figs.append(
            (
                "Per-card impact (ablation)",
                plots.card_intervals(
                    f"Win rate the card adds to its side ({who}; ablation on the same deals, "
                    f"{on} games a card)\nfilled: significant after Holm's correction; rarely "
                    "played cards and cards on too few games left out",
                    [f"{c['name']} ({c['ablation']['games']:,})" for c in ablated],
                    [c["ablation"]["diff"] for c in ablated],
                    [c["ablation"]["ci95"] for c in ablated],
                    [plots.SIDE_COLOURS[c["side"]] for c in ablated],
                    "change in win rate (95% interval)",
                    significant=[c["ablation"]["significant"] for c in ablated],
                ),
            )
        )
    figs.append(("Win rate when played vs not", plots.played_vs_not(shown, games)))
    colours = [plots.SIDE_COLOURS[c["side"]] for c in shown]
    names = [f"{c['name']} (x{c['copies']})" for c in shown]
    for title, key, label in (
        ("Damage per copy", "damage_per_game", "damage got through per game, per copy"),
        ("Kills per copy", "kills_per_game", "enemy units destroyed per game, per copy"),
    ):
        figs.append(
            (
                title,
                plots.card_intervals(
                    f"{label[0].upper()}{label[1:]} ({games}; 95% intervals; rarely played "
                    "cards left out)",
                    names,
                    [c[key]["mean"] / c["copies"] for c in shown],
                    [[x / c["copies"] for x in c[key]["ci95"]] for c in shown],
                    colours,
                    label,
                    zero=None,
                ),
            )
        )
    return figs


def run_histogram(summary: dict[str, Any]) -> dict[int, int]:
    return {int(k): v for k, v in summary["length"]["histogram"].items()}


def _first_player_figure(fp: dict[str, Any], games: str) -> str:
    """Only with the run of the other side moving first (``decomposition``): one bar would
    mix the side's advantage with the first move's."""
    dec = fp["decomposition"]
    first, second = dec["rebel_moving_first"]["games"], dec["rebel_moving_second"]["games"]
    return plots.rates(
        f"Rebel win rate moving first and second ({games.split(',', maxsplit=1)[0]};\n"
        f"{first:,} and {second:,} games on the same deals)",
        ["Rebel moves first", "Rebel moves second"],
        [dec["rebel_moving_first"], dec["rebel_moving_second"]],
        ["#16a085", "#95a5a6"],
    )


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Rebel Space balance report</title>
<style>
body {{ font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }}
li {{ margin: .4rem 0; }} table {{ border-collapse: collapse; font-size: .85rem; }}
td, th {{ border: 1px solid #ccc; padding: .2rem .4rem; }} th {{ background: #eee; }}
figure {{ margin: 1.5rem 0; }} .note {{ color: #555; font-size: .9rem; }}
</style></head><body>
<h1>Rebel Space balance report</h1>
<p class="note">Run {run_id}: {label}. {games} games.</p>
<h2>Findings</h2>
<ul>{findings}</ul>
{figures}
<h2>Cards</h2>
<p class="note">"Ablation" is the change in the card's side's win rate when the same deals are
replayed with the card blanked (its copies stay in the deck with no effect, so the deck keeps its
size) or, if so labelled, removed; it is the fair measure of a card's impact. "Significant" is
after Holm's correction for testing every ranked card at once, so that a card is flagged by
chance alone in at most 5% of reports. Cards the computer rarely plays are not ranked.
"Win rate when played" is biased: it flatters cards that are played when already
winning, and cards that only come out in long games. Damage and kills are per game, with 95%
intervals.</p>
<table><tr><th>card</th><th>side</th><th>copies</th><th>ablation</th><th>plays/game</th>
<th>win rate when played</th><th>when not played</th><th>damage/game</th><th>kills/game</th></tr>
{rows}
</table>
</body></html>
"""


def write_report(store: Store, run: Run, out: Path) -> dict[str, Any]:
    """Write ``report.html`` and ``report.json`` into ``out``; returns the summary."""
    summary = analyse(store, run)
    summary["findings"] = findings(summary)
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(summary, indent=2) + "\n")
    figures = "\n".join(
        f"<h2>{html.escape(title)}</h2><figure>{svg}</figure>" for title, svg in _figures(summary)
    )
    page = PAGE.format(
        run_id=html.escape(run.run_id),
        label=html.escape(run.label),
        games=summary["run"]["games"],
        findings="".join(f"<li>{html.escape(f)}</li>" for f in summary["findings"]),
        figures=figures,
        rows=_rows_html(summary["cards"]),
    )
    (out / "report.html").write_text(page)
    return summary
