"""The numbers of a balance report, computed from the games stored for a run."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from .play import GameRow
from .settings import RunSettings
from .stats import mean_ci, paired_diff, proportion_diff, wilson
from .store import Run, Store

SIDES = ("rebel", "imperial")


def _rate(wins: int, games: int) -> dict[str, Any]:
    low, high = wilson(wins, games)
    return {
        "wins": wins,
        "games": games,
        "rate": round(wins / games, 4) if games else None,
        "ci95": [round(low, 4), round(high, 4)],
    }


def _mean(values: Sequence[float]) -> dict[str, Any]:
    mean, low, high = mean_ci(values)
    return {"mean": round(mean, 4), "ci95": [round(low, 4), round(high, 4)]}


def ablation_settings(base: RunSettings, card: str) -> RunSettings:
    """The base run with every copy of ``card`` taken out: the same seeds, one card fewer."""
    return base.with_changes([f"{card}.count=0"], kind="ablate")


def flip_first_settings(base: RunSettings) -> RunSettings:
    first = dict(base.options).get("first_player", "rebel")
    other = "imperial" if first == "rebel" else "rebel"
    return base.with_changes(rules=[f"first_player={other}"], kind="balance")


def ablation(store: Store, base: Run, card: str, side: int) -> dict[str, Any] | None:
    """The card's value to its side: its side's win rate with the card minus without, on
    matched seeds. None until ``rebelspace ablate`` has played that run."""
    run_id = ablation_settings(base.settings, card).run_id
    without = store.winners(run_id)
    if not without:
        return None
    with_card = store.winners(base.run_id)
    idx = sorted(i for i in without if i in with_card)
    if not idx:
        return None
    d = paired_diff(
        [float(without[i] == side) for i in idx], [float(with_card[i] == side) for i in idx]
    )
    copies = side_of_cards(base.settings)[card][1]
    # Per copy, so that a card of 15 copies is not ranked first just for its numbers (taking
    # many copies out also shrinks the deck, a handicap of its own in a race to empty decks).
    return {**d.to_dict(), "per_copy": round(d.diff / copies, 4)}


def side_of_cards(settings: RunSettings) -> dict[str, tuple[int, int]]:
    """card name -> (side index, copies)."""
    out = {}
    for row in settings.card_data:
        data = dict(row)
        out[data["name"]] = (SIDES.index(data["side"]), data["count"])
    return out


def analyse(store: Store, run: Run, games: Sequence[GameRow] | None = None) -> dict[str, Any]:
    rows = list(games if games is not None else store.games(run.run_id))
    if not rows:
        raise ValueError(f"run {run.run_id} has no games yet")
    n = len(rows)
    settings = run.settings
    rebel_wins = sum(1 for r in rows if r.winner == 0)
    first = dict(settings.options).get("first_player", "rebel")
    first_wins = sum(1 for r in rows if r.winner == r.first_player)
    out: dict[str, Any] = {
        "run": {
            "run_id": run.run_id,
            "label": run.label,
            "agents": list(settings.agents),
            "seed": settings.seed,
            "sets": list(settings.sets),
            "rules": list(settings.rules),
            "games": n,
        },
        "sides": {"rebel": _rate(rebel_wins, n), "imperial": _rate(n - rebel_wins, n)},
        "first_player": {
            "first": first,
            "first_mover": _rate(first_wins, n),
            "decomposition": _decomposition(store, run, rebel_wins, n),
        },
    }
    a, b = settings.agents
    if a != b:
        a_wins = sum(1 for r in rows if (r.rebel_agent == a) == (r.winner == 0))
        out["agents"] = {"a": a, "b": b, "a_wins": _rate(a_wins, n)}
    turns = sorted(r.turns for r in rows)
    out["length"] = {
        **_mean([float(t) for t in turns]),
        "median": turns[n // 2],
        "p10": turns[n // 10],
        "p90": turns[min(n - 1, (9 * n) // 10)],
        "histogram": dict(sorted(Counter(turns).items())),
    }
    out["endings"] = dict(Counter(r.ending for r in rows).most_common())
    out["deck_sizes"] = _deck_curve(rows)
    out["cards"] = _cards(store, run, rows)
    return out


def _decomposition(store: Store, run: Run, rebel_wins: int, n: int) -> dict[str, Any] | None:
    """With the same run played with the other side moving first, split side and first move."""
    other = flip_first_settings(run.settings)
    winners = store.winners(other.run_id)
    if not winners:
        return None
    other_rebel = sum(1 for w in winners.values() if w == 0)
    this, other_rate = _rate(rebel_wins, n), _rate(other_rebel, len(winners))
    # The Rebel's win rate moving first and moving second: their mean, less 50%, is the side's
    # advantage; half their gap is the first move's.
    if dict(run.settings.options).get("first_player", "rebel") == "rebel":
        moving_first, moving_second = this, other_rate
    else:
        moving_first, moving_second = other_rate, this
    first_rate, second_rate = moving_first["rate"], moving_second["rate"]
    swap = proportion_diff(other_rebel, len(winners), rebel_wins, n)
    return {
        "other_run": other.run_id,
        "rebel_moving_first": moving_first,
        "rebel_moving_second": moving_second,
        "rebel_side_advantage": round((first_rate + second_rate) / 2 - 0.5, 4),
        "first_move_advantage": round((first_rate - second_rate) / 2, 4),
        "difference_between_runs": swap.to_dict(),
    }


def _deck_curve(rows: Sequence[GameRow]) -> list[dict[str, Any]]:
    """Mean deck sizes at the start of each turn, over the games that reached that turn."""
    longest = max(len(r.deck_sizes) for r in rows)
    curve = []
    for t in range(longest):
        at = [r.deck_sizes[t] for r in rows if len(r.deck_sizes) > t]
        curve.append(
            {
                "turn": t + 1,
                "games": len(at),
                "rebel": round(sum(x[0] for x in at) / len(at), 2),
                "imperial": round(sum(x[1] for x in at) / len(at), 2),
            }
        )
    return curve


def _cards(store: Store, run: Run, rows: Sequence[GameRow]) -> list[dict[str, Any]]:
    n = len(rows)
    out = []
    for name, (side, copies) in side_of_cards(run.settings).items():
        played = [r for r in rows if r.plays.get(name)]
        not_played = n - len(played)
        own_wins_played = sum(1 for r in played if r.winner == side)
        own_wins_not = sum(1 for r in rows if not r.plays.get(name) and r.winner == side)
        out.append(
            {
                "name": name,
                "side": SIDES[side],
                "copies": copies,
                "games_played_in": len(played),
                "plays_per_game": round(sum(r.plays.get(name, 0) for r in rows) / n, 3),
                "win_rate_when_played": _rate(own_wins_played, len(played)) if played else None,
                "win_rate_when_not_played": (
                    _rate(own_wins_not, not_played) if not_played else None
                ),
                "kills_per_game": _mean([float(r.kills.get(name, 0)) for r in rows]),
                "damage_per_game": _mean([float(r.damage.get(name, 0)) for r in rows]),
                "ablation": ablation(store, run, name, side) if copies else None,
            }
        )
    return out
