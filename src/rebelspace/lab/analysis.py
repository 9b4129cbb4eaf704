"""The numbers of a balance report, computed from the games stored for a run."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from rebelspace.engine import SIDE_NAMES

from .games import GameRow, unit_of
from .settings import RunSettings
from .stats import (
    MIN_DEALS,
    Rate,
    enough,
    holm,
    mean_ci,
    proportion_diff,
    unit_paired_diff,
    unit_rate,
)
from .store import Run, Store


def units(settings: RunSettings, indices: Iterable[int]) -> list[list[int]]:
    """Game indices grouped by independent unit (deal), in index order."""
    out: dict[int, list[int]] = {}
    for i in sorted(indices):
        out.setdefault(unit_of(settings, i), []).append(i)
    return list(out.values())


def rate_of(settings: RunSettings, rows: Iterable[GameRow], won: Callable[[GameRow], bool]) -> Rate:
    """The rate of ``won`` over ``rows``, counting only independent games."""
    by_index = {r.index: r for r in rows}
    return unit_rate([[won(by_index[i]) for i in u] for u in units(settings, by_index)])


def winners_rate(settings: RunSettings, winners: Mapping[int, int], side: int = 0) -> Rate:
    """A side's win rate from ``Store.winners``."""
    return unit_rate([[winners[i] == side for i in u] for u in units(settings, winners)])


def _rate(
    settings: RunSettings, rows: Sequence[GameRow], won: Callable[[GameRow], bool]
) -> dict[str, Any]:
    return rate_of(settings, rows, won).to_dict()


def _mean(values: Sequence[float]) -> dict[str, Any]:
    """A mean of counts (turns, kills, damage): never below 0."""
    mean, low, high = mean_ci(values, (0.0, math.inf))
    return {"mean": round(mean, 4), "ci95": [round(low, 4), round(high, 4)]}


#: How a card is taken out for its ablation, and how the report says it.
ABLATION_MODES = {
    "blank": "blanked (its copies left in the deck without effect, deck size kept)",
    "remove": "removed (its copies taken out, which also makes the deck smaller)",
}

#: A card played in fewer games than this share (or than ``RARE_GAMES``) is "rarely played":
#: its numbers say little about the card, and it is left out of the rankings.
RARE_SHARE = 0.02
RARE_GAMES = 10


def ablation_settings(base: RunSettings, card: str, mode: str = "blank") -> RunSettings:
    """The base run's games with ``card`` blanked (default) or removed, for this base only."""
    if mode not in ABLATION_MODES:
        raise ValueError(f"ablation mode must be one of {', '.join(ABLATION_MODES)}, got {mode!r}")
    changed = base.with_blank(card) if mode == "blank" else base.with_changes([f"{card}.count=0"])
    return changed.for_study("ablate", base=base.run_id, card=card, mode=mode)


def flip_first_settings(base: RunSettings) -> RunSettings:
    first = dict(base.options).get("first_player", "rebel")
    other = "imperial" if first == "rebel" else "rebel"
    return base.with_changes(rules=[f"first_player={other}"], kind="balance")


def ablation(
    store: Store, base: Run, card: str, side: int, mode: str | None = None
) -> dict[str, Any] | None:
    """The card's value to its side: its side's win rate with the card minus without, on
    matched deals. ``mode`` None: blanking if played, else removal. None until
    ``rebelspace ablate`` has played that run for this base."""
    for m in [mode] if mode else list(ABLATION_MODES):
        without = store.winners(ablation_settings(base.settings, card, m).run_id)
        if without:
            break
    else:
        return None
    with_card = store.winners(base.run_id)
    matched = units(base.settings, (i for i in without if i in with_card))
    if not matched:
        return None
    d = unit_paired_diff(
        [[float(without[i] == side) for i in u] for u in matched],
        [[float(with_card[i] == side) for i in u] for u in matched],
    )
    copies = side_of_cards(base.settings)[card][1]
    # Per copy, so that a card of 15 copies is not ranked first just for its numbers.
    return {
        **d.to_dict(),
        "mode": m,
        "how": ABLATION_MODES[m],
        "per_copy": round(d.diff / copies, 4),
        # The matched games the difference rests on (cards of one report may have different
        # counts: an ablation stopped early, or extended for a few cards).
        "games": sum(len(u) for u in matched),
        "deals": len(matched),
        "enough_games": enough(len(matched)),
    }


def side_of_cards(settings: RunSettings) -> dict[str, tuple[int, int]]:
    """card name -> (side index, copies)."""
    out = {}
    for row in settings.card_data:
        data = dict(row)
        out[data["name"]] = (SIDE_NAMES.index(data["side"]), data["count"])
    return out


def analyse(
    store: Store,
    run: Run,
    games: Sequence[GameRow] | None = None,
    *,
    ablation_mode: str | None = None,
) -> dict[str, Any]:
    """The report's numbers. ``ablation_mode``: which ablation runs the cards' impact comes
    from (None: blanking where played, else removal)."""
    rows = list(games if games is not None else store.games(run.run_id))
    if not rows:
        raise ValueError(f"run {run.run_id} has no games yet")
    n = len(rows)
    settings = run.settings
    rebel = rate_of(settings, rows, lambda r: r.winner == 0)
    first = dict(settings.options).get("first_player", "rebel")
    out: dict[str, Any] = {
        "run": {
            "run_id": run.run_id,
            "label": run.label,
            "name": settings.name,
            "card_diff": list(settings.diff),
            "kind": run.kind,
            "agents": list(settings.agents),
            "seed": settings.seed,
            "sets": list(settings.sets),
            "rules": list(settings.rules),
            "games": n,
            "independent_units": rebel.units,
            "deals": "each deal twice, sides swapped" if settings.twinned else "distinct",
        },
        "sides": {
            "rebel": rebel.to_dict(),
            "imperial": _rate(settings, rows, lambda r: r.winner == 1),
        },
        "first_player": {
            "first": first,
            "first_mover": _rate(settings, rows, lambda r: r.winner == r.first_player),
            "decomposition": _decomposition(store, run, rebel),
        },
    }
    a, b = settings.agents
    if a != b:
        out["agents"] = {
            "a": a,
            "b": b,
            "a_wins": _rate(settings, rows, lambda r: (r.rebel_agent == a) == (r.winner == 0)),
        }
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
    out["cards"] = _cards(store, run, rows, ablation_mode)
    out["other_players"] = other_players(store, run)
    return out


def other_players(store: Store, run: Run) -> list[dict[str, Any]]:
    """The same deals played by other agents in mirror runs (the ladder's rungs, or
    ``balance --agents X`` with this run's seed, cards and rules): the verdict of each player,
    so the report can say whether it holds across play strength."""
    mine = run.settings
    if mine.twinned:
        return []
    out = []
    for other in store.runs():
        s = other.settings
        if (
            other.kind != "balance"
            or s.twinned
            or other.run_id == run.run_id
            or (s.seed, s.card_data, s.options) != (mine.seed, mine.card_data, mine.options)
            or not s.played_by_this_code()
        ):
            continue
        rate = winners_rate(s, store.winners(other.run_id))
        if rate.games:
            out.append(
                {
                    "agent": s.agents[0],
                    "run_id": other.run_id,
                    "enough_games": enough(rate.units),
                    **rate.to_dict(),
                }
            )
    return sorted(out, key=lambda r: r["agent"])


def _decomposition(store: Store, run: Run, rebel: Rate) -> dict[str, Any] | None:
    """With the same run played with the other side moving first, split side and first move."""
    other = flip_first_settings(run.settings)
    winners = store.winners(other.run_id)
    if not winners:
        return None
    other_rebel = winners_rate(other, winners)
    this, other_rate = rebel.to_dict(), other_rebel.to_dict()
    # The Rebel's win rate moving first and moving second: their mean, less 50%, is the side's
    # advantage; half their gap is the first move's.
    if dict(run.settings.options).get("first_player", "rebel") == "rebel":
        moving_first, moving_second = this, other_rate
    else:
        moving_first, moving_second = other_rate, this
    first_rate, second_rate = moving_first["rate"], moving_second["rate"]
    swap = proportion_diff(
        other_rebel.wins * other_rebel.effective / other_rebel.games,
        other_rebel.effective,
        rebel.wins * rebel.effective / rebel.games,
        rebel.effective,
    )
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


def _cards(
    store: Store, run: Run, rows: Sequence[GameRow], mode: str | None = None
) -> list[dict[str, Any]]:
    n = len(rows)
    settings = run.settings
    out = []
    for name, (side, copies) in side_of_cards(settings).items():
        played = [r for r in rows if r.plays.get(name)]
        not_played = [r for r in rows if not r.plays.get(name)]

        def own(r: GameRow, side: int = side) -> bool:
            return r.winner == side

        out.append(
            {
                "name": name,
                "side": SIDE_NAMES[side],
                "copies": copies,
                "games_played_in": len(played),
                "plays_per_game": round(sum(r.plays.get(name, 0) for r in rows) / n, 3),
                "win_rate_when_played": _rate(settings, played, own) if played else None,
                "win_rate_when_not_played": (
                    _rate(settings, not_played, own) if not_played else None
                ),
                "kills_per_game": _mean([float(r.kills.get(name, 0)) for r in rows]),
                "damage_per_game": _mean([float(r.damage.get(name, 0)) for r in rows]),
                "ablation": ablation(store, run, name, side, mode) if copies else None,
                **rarity(name, len(played), n),
            }
        )
    _correct(out)
    return out


def rarity(name: str, played_in: int, n: int) -> dict[str, Any]:
    rare = played_in < max(RARE_GAMES, RARE_SHARE * n)
    note = (
        f"the computer played {name} in {played_in} of {n:,} games; its numbers say little "
        "about the card" + (" (nothing at all)" if played_in == 0 else "")
        if rare
        else None
    )
    return {"rarely_played": rare, "rarity_note": note}


def ranked(card: dict[str, Any]) -> bool:
    """Whether a card's ablation is ranked and tested: ablated, played often enough to say
    something of the card, and on enough deals."""
    a = card["ablation"]
    return bool(a) and not card["rarely_played"] and a["enough_games"]


def _correct(cards: list[dict[str, Any]]) -> None:
    """Holm's correction across the cards ranked (one family per report: every card of the
    run ablated on enough deals and not rarely played): a card is "significant" only if it
    stays so once every card tested is accounted for. ``rebelspace ablate`` prints these same
    verdicts, so they never depend on how many cards one command ablated."""
    tested = [c for c in cards if ranked(c)]
    adjusted = holm([c["ablation"]["p_value"] for c in tested])
    for c, p in zip(tested, adjusted, strict=True):
        a = c["ablation"]
        a["p_uncorrected"] = a["p_value"]
        a["p_holm"] = round(p, 4)
        a["tests"] = len(tested)
        a["significant_uncorrected"] = a["significant"]
        a["significant"] = p < 0.05
    for c in cards:
        a = c["ablation"]
        if a and not ranked(c):
            a["significant"] = False  # not tested: nothing to say about the card
            a["tests"] = 0
            a["not_ranked"] = (
                c["rarity_note"]
                if c["rarely_played"]
                else f"too few games: {a['deals']} deals, {MIN_DEALS} or more are needed"
            )
