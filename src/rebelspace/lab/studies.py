"""Studies built from runs: ablation, comparing two runs, sweeping one number, and suggesting
small changes that bring the game closest to even. Every study is a set of ordinary runs in
the database, so a stopped study resumes, and a run played once serves every study after."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rebelspace.engine import SIDE_NAMES, RebelSpaceError

from .analysis import ablation, ablation_settings, rate_of, side_of_cards, units, winners_rate
from .runner import RunResult, run_balance
from .settings import RunSettings
from .stats import Diff, Rate, proportion_diff, unit_paired_diff
from .store import Run, Store
from .version import code_version

#: The numbers a one-card change may move, besides the count.
RATING_FIELDS = ("ground", "space", "damage", "cost")

RunFn = Callable[[RunSettings, int], RunResult]


def runner(store: Store, **kwargs: Any) -> RunFn:
    """``run(settings, games)`` on ``store`` with the given workers/Ray options, quietly."""
    return lambda settings, games: run_balance(settings, games, store, progress=False, **kwargs)


# ----------------------------------------------------------------------------- ablate


def ablate(
    store: Store, base: Run, cards: list[str], games: int, run: RunFn, mode: str = "blank"
) -> list[dict[str, Any]]:
    """Play the base run's games again with each card blanked (its copies stay in the deck
    without effect) or removed; the card's value to its side on matched deals."""
    sides = side_of_cards(base.settings)
    for name in cards:
        if name not in sides:
            raise RebelSpaceError(f"no card named {name!r} in this run's card list")
        if sides[name][1] == 0:
            raise RebelSpaceError(f"{name!r} has no copies in this run: nothing to take out")
    run(base.settings, games)  # the base needs the same games
    out = []
    for name in cards:
        run(ablation_settings(base.settings, name, mode), games)
        side, copies = sides[name]
        result = ablation(store, base, name, side, mode)
        assert result is not None
        out.append({"card": name, "side": SIDE_NAMES[side], "copies": copies, **result})
    return out


# ---------------------------------------------------------------------------- compare


def compare(store: Store, a: Run, b: Run) -> dict[str, Any]:
    """B's Rebel win rate minus A's: paired on matched games when both share agents and seed."""
    rows_a = {r.index: r for r in store.games(a.run_id)}
    rows_b = {r.index: r for r in store.games(b.run_id)}
    if not rows_a or not rows_b:
        raise RebelSpaceError("both runs need games to compare")
    # Matched games share their deal only when both runs deal the same way from the same seed.
    paired = a.settings.agents == b.settings.agents and a.settings.seed == b.settings.seed
    common = units(a.settings, set(rows_a) & set(rows_b))
    diff: Diff
    if paired and common:
        diff = unit_paired_diff(
            [[float(rows_a[i].winner == 0) for i in u] for u in common],
            [[float(rows_b[i].winner == 0) for i in u] for u in common],
        )
    else:
        ra = rate_of(a.settings, rows_a.values(), lambda r: r.winner == 0)
        rb = rate_of(b.settings, rows_b.values(), lambda r: r.winner == 0)
        diff = proportion_diff(
            ra.wins * ra.effective / ra.games,
            ra.effective,
            rb.wins * rb.effective / rb.games,
            rb.effective,
        )
    return {
        "a": _run_summary(a, list(rows_a.values())),
        "b": _run_summary(b, list(rows_b.values())),
        "rebel_win_rate_difference": diff.to_dict(),
    }


def _run_summary(run: Run, rows: list[Any]) -> dict[str, Any]:
    rate = rate_of(run.settings, rows, lambda r: r.winner == 0)
    return {
        "run_id": run.run_id,
        "label": run.label,
        "games": len(rows),
        "rebel_win_rate": round(rate.rate, 4),
        "ci95": [round(rate.low, 4), round(rate.high, 4)],
        "mean_turns": round(sum(r.turns for r in rows) / len(rows), 2),
    }


# ------------------------------------------------------------------------------ sweep


def parse_range(text: str) -> list[int]:
    """``"6..12"`` -> 6, 7, ..., 12 (both ends included). A reversed or negative range is
    refused with one line that says what is wrong (card numbers are never negative)."""
    low, sep, high = text.partition("..")
    try:
        a, b = int(low), int(high)
    except ValueError:
        raise RebelSpaceError(
            f'a range looks like "6..12" (low..high, whole numbers), got {text!r}'
        ) from None
    if a < 0 or b < 0:
        raise RebelSpaceError(f"card numbers are never negative: the range {text!r} goes below 0")
    if a > b:
        raise RebelSpaceError(f"the range {text!r} is reversed: low..high, e.g. {b}..{a}")
    return list(range(a, b + 1))


def sweep(
    base: RunSettings, card: str, field: str, values: list[int], games: int, run: RunFn
) -> dict[str, Any]:
    base.with_changes([f"{card}.{field}={values[0]}"])  # a bad card or field fails here
    points = []
    for v in values:
        settings = base.with_changes([f"{card}.{field}={v}"]).for_study(
            "sweep", base=base.run_id, card=card, field=field
        )
        result = run(settings, games)
        points.append({"value": v, **_rate_point(result)})
    return {
        "label": base.label(),
        "card": card,
        "field": field,
        "printed": _field_value(base, card, field),
        "games": games,
        "points": points,
    }


def _field_value(settings: RunSettings, card: str, field: str) -> int | None:
    for row in settings.card_data:
        data = dict(row)
        if data["name"] == card:
            return data.get(field)
    return None


def _rate_point(result: RunResult) -> dict[str, Any]:
    d = result.to_dict()
    return {
        "run_id": result.run_id,
        "rebel_win_rate": d["rebel_win_rate"],
        "ci95": d["ci95"],
        "mean_turns": d["mean_turns"],
    }


# ---------------------------------------------------------------------------- suggest


@dataclass(frozen=True, slots=True)
class Change:
    card: str
    field: str
    value: int
    was: int

    @property
    def text(self) -> str:
        return f"{self.card}.{self.field}={self.value}"

    def describe(self) -> str:
        verb = "up" if self.value > self.was else "down"
        return f"{self.card}: {self.field} {verb} from {self.was} to {self.value}"


def candidates(base: RunSettings) -> list[Change]:
    """Every one-card change of one number by one that gives a valid card list."""
    out = []
    for row in base.card_data:
        data = dict(row)
        for field in ("count", *RATING_FIELDS):
            if field not in data or (field != "count" and data["count"] == 0):
                continue
            for step in (-1, 1):
                change = Change(data["name"], field, data[field] + step, data[field])
                try:
                    base.with_changes([change.text])
                except RebelSpaceError:
                    continue  # below zero, above a cap, or an empty deck
                out.append(change)
    return out


def _suggested(base: RunSettings, change: Change) -> RunSettings:
    """A candidate's run: made for ``suggest`` of this base only (never an ablation)."""
    return base.with_changes([change.text]).for_study("suggest", base=base.run_id)


#: Confirmation deals: the finalists are played again on deals that did not select them (the
#: screening's best are partly the luckiest on its deals), dealt from the run seed plus this.
CONFIRM_SEED_OFFSET = 1_000_003


def confirm_settings(base: RunSettings, agent: str | None = None) -> RunSettings:
    """The base run on fresh deals (and, with ``agent``, played by that agent on both sides):
    what the finalists are confirmed against."""
    fresh = replace(base, seed=base.seed + CONFIRM_SEED_OFFSET)
    if agent is not None:
        fresh = replace(fresh, agents=(agent, agent), version=code_version((agent, agent)))
    return fresh


def suggest_cost(
    base: RunSettings, screen_games: int, confirm_games: int, top: int = 5, rungs: int = 1
) -> dict[str, int]:
    """Games ``suggest`` plays, before it starts. ``expected``: every candidate screened once;
    then, round by round, about half the candidates left are dropped (a change with no effect
    is as likely to point away from even as toward it, and a card the agent never plays
    changes nothing at all), up to the confirmation count; the base on the screening's largest
    count; and on fresh deals the base and ``top`` finalists at each of ``rungs`` players.
    ``least`` and ``most``: every candidate dropped after one round, or none ever dropped."""
    n = len(candidates(base))
    finals = rungs * (1 + top) * confirm_games
    expected, alive, games, largest = 0.0, float(n), min(screen_games, confirm_games), 0
    while alive >= 1:
        expected += alive * games
        largest = games
        if alive <= top or games >= confirm_games:
            break
        alive, games = alive / 2, min(confirm_games, 2 * games)
    most, games = 0, min(screen_games, confirm_games)
    while True:
        most += n * games
        if games >= confirm_games:
            break
        games = min(confirm_games, 2 * games)
    return {
        "candidates": n,
        "least": n * min(screen_games, confirm_games) + screen_games + finals,
        "expected": int(expected) + largest + finals,
        "most": most + confirm_games + finals,
    }


def suggest(
    store: Store,
    base: RunSettings,
    screen_games: int,
    confirm_games: int,
    top: int,
    run: RunFn,
    *,
    rungs: Sequence[str] = (),
    progress: Callable[[Iterator[Change], int], Iterator[Change]] | None = None,
) -> dict[str, Any]:
    """Search one-step changes that bring the Rebel win rate toward 50%.

    Sequential screening on the base run's deals, at the base run's players (strong play by
    default): every candidate plays ``screen_games``, and each round drops the candidates
    that cannot help: those whose interval of change against the base (paired by deal)
    leaves no room for moving toward 50%, and those with no effect shown in that direction
    (an estimated change of zero or away from even: a null change is dropped half the time
    each round, a card the agent never plays at once). The rest play twice as many games, up
    to ``confirm_games``. The ``top`` closest to even are then confirmed on fresh deals (not
    the ones that selected them) at the base's player and at each of ``rungs``: a change is
    suggested only if it moves the balance toward 50% at the base's player and does not move
    it significantly away from 50% at any rung; one that helps at one strength and hurts at
    another is flagged instead."""
    screen_base = min(screen_games, confirm_games)
    base_rate = _base_rate(store, base, run, screen_base)
    needed = 0.5 - base_rate.rate  # the change in Rebel win rate that makes the game even
    alive = candidates(base)
    total = len(alive)
    rounds = []
    diffs: dict[Change, Diff] = {}
    games = screen_base
    while alive:
        run(base, games)  # the base on the same deals
        items: Iterator[Change] = iter(alive)
        if progress is not None:
            items = progress(items, len(alive))
        for change in items:
            diffs[change] = _against_base(store, base, run(_suggested(base, change), games))
        kept = [c for c in alive if _may_help(diffs[c], needed)]
        rounds.append({"games": games, "candidates": len(alive), "kept": len(kept)})
        alive = kept
        if len(alive) <= top or games >= confirm_games:
            break
        games = min(confirm_games, 2 * games)
    alive.sort(key=lambda c: (abs(diffs[c].diff - needed), diffs[c].high - diffs[c].low, c.text))
    players = list(dict.fromkeys([base.agents[0], *rungs])) if not base.twinned else []
    finalists = [
        _confirm(store, base, change, confirm_games, run, players) for change in alive[:top]
    ]
    finalists.sort(key=lambda c: (abs(c["rebel_win_rate"] - 0.5), c["set"]))
    return {
        "base": {
            "run_id": base.run_id,
            "label": base.label(),
            "rebel_win_rate": round(base_rate.rate, 4),
            "ci95": [round(base_rate.low, 4), round(base_rate.high, 4)],
        },
        "candidates": total,
        "screen_games": screen_games,
        "confirm_games": confirm_games,
        "rungs": players,
        "rounds": rounds,
        "suggestions": [f for f in finalists if f["moves_toward_even"] and not f["flagged"]],
        "flagged": [f for f in finalists if f["flagged"]],
        "not_shown_to_help": [
            f for f in finalists if not f["moves_toward_even"] and not f["flagged"]
        ],
    }


def _base_rate(store: Store, base: RunSettings, run: RunFn, games: int) -> Rate:
    run(base, games)
    return winners_rate(base, store.winners(base.run_id))


def _confirm(
    store: Store,
    base: RunSettings,
    change: Change,
    games: int,
    run: RunFn,
    players: Sequence[str],
) -> dict[str, Any]:
    """A finalist on fresh deals: at the base's own players, and at every rung."""
    fresh = confirm_settings(base)
    result = run(_suggested(fresh, change), games)
    run(fresh, games)
    d = _against_base(store, fresh, result)
    fresh_rate = winners_rate(fresh, store.winners(fresh.run_id)).rate
    needed = 0.5 - fresh_rate
    helps = d.high < 0 if needed < 0 else d.low > 0
    closer = abs(d.diff - needed) < abs(needed)
    at_rungs = []
    for agent in players:
        rung = confirm_settings(base, agent)
        rung_result = run(_suggested(rung, change), games)
        run(rung, games)
        rd = _against_base(store, rung, rung_result)
        rung_rate = winners_rate(rung, store.winners(rung.run_id)).rate
        away = rd.low > 0 if rung_rate >= 0.5 else rd.high < 0  # shown to move away from even
        at_rungs.append(
            {
                "agent": agent,
                "base_rebel_win_rate": round(rung_rate, 4),
                "rebel_win_rate": _rate_point(rung_result)["rebel_win_rate"],
                "against_base": rd.to_dict(),
                "moves_away_from_even": away,
            }
        )
    return {
        "change": change.describe(),
        "set": change.text,
        **_rate_point(result),
        "against_base": d.to_dict(),
        "moves_toward_even": helps and closer,
        "at_rungs": at_rungs,
        "flagged": helps and closer and any(r["moves_away_from_even"] for r in at_rungs),
    }


def _against_base(store: Store, base: RunSettings, result: RunResult) -> Diff:
    """The candidate's Rebel win rate minus the base's, paired on the deals both played."""
    mine = store.winners(result.run_id)
    theirs = store.winners(base.run_id)
    matched = units(base, (i for i in mine if i in theirs))
    return unit_paired_diff(
        [[float(theirs[i] == 0) for i in u] for u in matched],
        [[float(mine[i] == 0) for i in u] for u in matched],
    )


def _may_help(d: Diff, needed: float) -> bool:
    """Whether a candidate stays in the screening: its interval of change leaves room for a
    game closer to even (some value between no change and twice the change needed, which
    would overshoot as far), and its estimate points toward even (a change of exactly zero, or
    away from even, is no effect shown: such a candidate is dropped)."""
    low, high = sorted((0.0, 2 * needed))
    return d.low < high and d.high > low and d.diff * needed > 0
