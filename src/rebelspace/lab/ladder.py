"""``rebelspace balance --ladder``: the balance verdict across play strength.

Each rung is a mirror run of one agent on the same deals (the same seed deals the same games
to every mirror run), played half with the Rebel moving first and half with the Imperial
moving first, so the side's advantage and the first move's are measured apart at every rung.
Adjacent rungs also play each other (each deal twice, sides swapped) and the arena's
Bradley-Terry ratings of those games place the rungs on a strength axis. Games per rung are
capped by a time budget measured on the rung itself, so slow agents get fewer games (and
wider intervals, which the verdict takes into account); a rung with fewer than ``MIN_DEALS``
deals is reported as "too few games" and never trusted. The cost is stated before the first
game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rebelspace.play.stats import bradley_terry_elo, unit_rate

from .analysis import winners_rate
from .runner import RunResult
from .settings import RunSettings
from .stats import MIN_DEALS, enough, mean_ci
from .store import Store

#: Weakest to strongest. ISMCTS rungs use iteration budgets without a time cap, so the same
#: seed gives the same games on any machine; ``ismcts:normal`` and ``ismcts:hard`` (time-capped,
#: minutes per game) can be named with ``--ladder`` when the budget allows.
DEFAULT_RUNGS = ("random", "heuristic", "distilled", "ismcts:easy", "ismcts:100")

MIN_GAMES = 8  # a rung with fewer games says nothing, whatever the budget

RunFn = Callable[[RunSettings, int], RunResult]


@dataclass(frozen=True, slots=True)
class Plan:
    rung: str
    seconds_per_game: float
    games: int  # mirror games (half with each side moving first)
    rating_games: int  # games against the next rung up (0 for the last)
    upper_seconds_per_game: float = 0.0  # a game against the next rung (the slower one's)

    @property
    def seconds(self) -> float:
        """The rung's cost on one core: its mirror games and its games against the next."""
        return self.games * self.seconds_per_game + self.rating_games * self.upper_seconds_per_game

    @property
    def enough(self) -> bool:
        """Whether the rung will have the deals to be trusted (each deal is two games)."""
        return enough(self.games // 2)


def cost_seconds(plans: Sequence[Plan], workers: int) -> float:
    """What the ladder will take here, from each rung's measured speed, on ``workers`` cores."""
    return sum(p.seconds for p in plans) / max(1, workers)


def plan(
    rungs: Sequence[str],
    games: int,
    budget_seconds: float,
    workers: int,
    speed: Callable[[str], float],
) -> list[Plan]:
    """Games per rung: ``games`` at most, fewer where the rung's share of the budget (its
    mirror games and its games against the next rung) cannot pay for them."""
    share = budget_seconds * workers / len(rungs)
    speeds = [speed(r) for r in rungs]
    out = []
    for i, rung in enumerate(rungs):
        upper = max(speeds[i], speeds[i + 1]) if i + 1 < len(rungs) else 0.0
        # Two thirds of the share for the mirror games, a third to meet the next rung.
        mirror = _affordable(games, share * (2 / 3 if upper else 1.0), speeds[i])
        rating = _affordable(games // 2, share / 3, upper) if upper else 0
        out.append(Plan(rung, speeds[i], mirror - mirror % 2, rating - rating % 2, upper))
    return out


def _affordable(most: int, seconds: float, per_game: float) -> int:
    if per_game <= 0:
        return most
    return max(MIN_GAMES, min(most, int(seconds / per_game)))


def measure(rung: str, seed: int) -> float:
    """Seconds one game of the rung takes here, from one game (the ladder's own game 0)."""
    from .games import play_game

    start = time.perf_counter()
    play_game(RunSettings.build((rung, rung), seed), 0)
    return time.perf_counter() - start


def run_ladder(
    store: Store, plans: Sequence[Plan], seed: int, run: RunFn, label: str = ""
) -> dict[str, Any]:
    points = []
    wins: dict[tuple[str, str], int] = {}
    for i, p in enumerate(plans):
        first = RunSettings.build((p.rung, p.rung), seed, name=label)
        second = RunSettings.build(
            (p.rung, p.rung), seed, rules=["first_player=imperial"], name=label
        )
        run(first, p.games // 2)
        run(second, p.games // 2)
        points.append(
            _point(p, first, second, store.winners(first.run_id), store.winners(second.run_id))
        )
        if p.rating_games and i + 1 < len(plans):
            upper = plans[i + 1].rung
            pair = RunSettings.build((p.rung, upper), seed).for_study("ladder", rungs=upper)
            run(pair, p.rating_games)
            for g in store.games(pair.run_id):
                winner = g.rebel_agent if g.winner == 0 else g.imperial_agent
                loser = upper if winner == p.rung else p.rung
                wins[(winner, loser)] = wins.get((winner, loser), 0) + 1
    names = [p.rung for p in plans]
    ratings = bradley_terry_elo(names, wins) if len(names) > 1 else dict.fromkeys(names, 1500.0)
    for point in points:
        point["rating"] = ratings[point["rung"]]
    return {
        "seed": seed,
        "rungs": points,
        "head_to_head": [
            {"winner": w, "loser": loser, "games": n} for (w, loser), n in sorted(wins.items())
        ],
        "verdict": verdict(points),
    }


def _point(
    p: Plan,
    first: RunSettings,
    second: RunSettings,
    moving_first: dict[int, int],
    moving_second: dict[int, int],
) -> dict[str, Any]:
    """One rung. Both halves deal the same games (mirror runs of one seed), so each deal is
    played once with each side moving first: per deal, the mean of the two Rebel results is
    the side's edge (plus 50%), and half their gap the first move's; intervals over deals."""
    deals = sorted(i for i in moving_first if i in moving_second)
    f = [moving_first[i] == 0 for i in deals]
    g = [moving_second[i] == 0 for i in deals]
    # The Rebel's win rate over both halves, each deal one unit: a Wilson interval (never
    # below 0% or above 100%, never of zero width when every deal agrees).
    rebel = unit_rate([[x, y] for x, y in zip(f, g, strict=True)])
    side = (rebel.rate - 0.5, rebel.low - 0.5, rebel.high - 0.5) if deals else (0.0, -0.5, 0.5)
    rate = (rebel.rate, rebel.low, rebel.high) if deals else (0.5, 0.0, 1.0)
    move = mean_ci([(x - y) / 2 for x, y in zip(f, g, strict=True)], (-0.5, 0.5))
    if not deals:
        move = (0.0, -0.5, 0.5)
    return {
        "rung": p.rung,
        "games": 2 * len(deals),
        "deals": len(deals),
        "enough_games": enough(len(deals)),
        "seconds_per_game": round(p.seconds_per_game, 3),
        "runs": [first.run_id, second.run_id],
        "rebel_win_rate": _interval(*rate),
        "rebel_moving_first": winners_rate(first, moving_first).to_dict(),
        "rebel_moving_second": winners_rate(second, moving_second).to_dict(),
        "rebel_side_advantage": _interval(*side),
        "first_move_advantage": _interval(*move),
    }


def _interval(value: float, low: float, high: float) -> dict[str, Any]:
    return {"value": round(value, 4), "ci95": [round(low, 4), round(high, 4)]}


def _side_word(point: dict[str, Any]) -> str:
    if not point.get("enough_games", True):
        return "too few games"
    low, high = point["rebel_side_advantage"]["ci95"]
    return "Rebel" if low > 0 else "Imperial" if high < 0 else "neither"


def too_few(point: dict[str, Any]) -> str:
    return (
        f"too few games to say ({point['deals']} deals; {MIN_DEALS} or more are needed): "
        "a larger --budget or a faster rung"
    )


def verdict(points: Sequence[dict[str, Any]]) -> list[str]:
    """The ladder in plain words: each rung's verdict, and whether it holds as play improves.
    Rungs with too few deals are shown but never trusted: the verdict is the strongest rung's
    that has enough."""
    out = []
    for p in points:
        side = p["rebel_side_advantage"]
        move = p["first_move_advantage"]
        rebel = p["rebel_win_rate"]
        word = _side_word(p)
        said = (
            too_few(p)
            if word == "too few games"
            else "no side is shown to be favoured"
            if word == "neither"
            else f"the {word} is favoured"
        )
        out.append(
            f"{p['rung']} (rating {p['rating']:.0f}, {p['games']} games): the Rebel wins "
            f"{100 * rebel['value']:.1f}% (95% interval {100 * rebel['ci95'][0]:.1f}% to "
            f"{100 * rebel['ci95'][1]:.1f}%); {said} (side {100 * side['value']:+.1f} points, "
            f"{100 * side['ci95'][0]:+.1f} to {100 * side['ci95'][1]:+.1f}); moving first is "
            f"worth {100 * move['value']:+.1f} points ({100 * move['ci95'][0]:+.1f} to "
            f"{100 * move['ci95'][1]:+.1f})."
        )
    ranked = [
        p for p in sorted(points, key=lambda p: p["rating"]) if _side_word(p) != "too few games"
    ]
    if not ranked:
        out.append(
            f"No rung has enough games to judge ({MIN_DEALS} deals or more): nothing here is a "
            "verdict; give the ladder a larger --budget."
        )
        return out
    words = [_side_word(p) for p in ranked]
    shown = {w for w in words if w != "neither"}
    strongest = ranked[-1]
    if len(shown) > 1:
        out.append(
            "The verdict is not stable across play strength: "
            + "; ".join(f"{p['rung']}: {w}" for p, w in zip(ranked, words, strict=True))
            + f". Trust the strongest rung with enough games ({strongest['rung']}) most, within "
            "its interval; a card change judged by a weak computer player may not hold for good "
            "players."
        )
    elif shown:
        (side,) = shown
        agree = sum(1 for w in words if w == side)
        out.append(
            f"The verdict is stable as play gets stronger: the {side} is favoured at {agree} "
            f"of {len(words)} rungs with enough games, and no rung shows the other side favoured."
            + ("" if words[-1] == side else f" At the strongest of them ({strongest['rung']}) "
               "the interval is too wide to tell; more games there would settle it.")
        )  # fmt: skip
    else:
        out.append(
            f"No rung with enough games shows either side favoured: the game looks even at "
            f"{len(words)} strengths measured, within intervals that the number of games allows."
        )
    left = [p["rung"] for p in points if _side_word(p) == "too few games"]
    if left:
        out.append(f"Not judged, too few games: {', '.join(left)}.")
    return out
