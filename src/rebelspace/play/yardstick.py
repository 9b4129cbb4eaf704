"""The yardstick (issue 29): an agent's regret on the position bank, against the oracle.

At each labelled position of the bank the agent chooses from its own view, and its **regret**
is the oracle's win chance of its best action less that of the agent's action (``play.oracle``;
0 when it chose an action as good as the best). Its **agreement** is how often it chose an
action the oracle rates best, its **blunder rate** how often its regret exceeds ``BLUNDER``
(10 points of win chance). Positions of one game are not independent (one deal, one pair of
players), so every interval is a bootstrap over the bank's games, and two agents are compared
pair-wise on the same positions, which cancels most of what the positions differ by.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rebelspace.agents.advice import hint
from rebelspace.engine import GameContext, Kind, PlayerView, context_for

from .bank import Bank, Position, bank_seed
from .match import bulk_agent
from .oracle import Label

#: A regret above this many points of win chance is an oracle blunder.
BLUNDER = 0.10
#: The hint (``agents.advice.hint``) as a yardstick agent: it plays the action it recommends.
HINT = "hint"
#: The agents the yardstick reports by default, weakest first as matches order them.
DEFAULT_AGENTS = ("random", "heuristic", "ismcts:easy", "distilled", "ismcts:normal", HINT)
#: Bootstrap resamples of the bank's games.
RESAMPLES = 2000

#: Chooses for the player to move in a view among the legal ids; its seed is its own.
Chooser = Callable[[PlayerView, Sequence[int], int], int]


def chooser(spec: str, ctx: GameContext, cpu: float | None = None) -> Chooser:
    """The agent ``spec`` (a registry name, or ``hint``) as a fresh agent per position, seeded
    per position: a choice depends on the position and the seed only, not on the order.

    With ``cpu``, a searching agent searches for that many seconds of its thread's CPU time
    instead of its iterations (``bulk_agent``): agents compared at equal CPU (issue 29). Its
    choices then depend on the machine's speed too."""
    if spec == HINT:
        if cpu is not None:
            raise ValueError("the hint keeps its own budget; measure it without a CPU budget")
        return lambda view, legal, seed: hint(view, legal, ctx, seed).best.action
    return lambda view, legal, seed: bulk_agent(spec, ctx, seed, cpu=cpu).act(view, legal)


def label_of(spec: str, cpu: float | None) -> str:
    """How the yardstick names ``spec`` measured with CPU budget ``cpu``: ``spec@0.1s``."""
    return spec if cpu is None else f"{spec}@{cpu:g}s"


def stratified(positions: Sequence[Position], count: int) -> list[Position]:
    """``count`` of ``positions`` spread evenly over their games and over each game's course:
    every game's first pick, then every game's second, and so on, a game's picks going
    through its positions in bit-reversed order (first, middle, quarters, ...), so that a
    screening subset has every game and every stage of a game about equally. A smaller
    subset is part of a larger one, so choices kept for one are reused by the other."""
    by_game: dict[int, list[Position]] = {}
    for p in sorted(positions, key=lambda p: p.index):
        by_game.setdefault(p.game, []).append(p)
    keyed = []
    for game, kept in by_game.items():
        for pick, k in enumerate(_spread(len(kept))):
            keyed.append((pick, game, kept[k]))
    keyed.sort(key=lambda t: (t[0], t[1]))
    return sorted((p for _, _, p in keyed[:count]), key=lambda p: p.index)


def _spread(n: int) -> list[int]:
    """0..n-1 in bit-reversed order: 0, n/2, n/4, 3n/4, ... for n a power of two."""
    bits = max(1, (n - 1).bit_length())
    order = (int(format(k, f"0{bits}b")[::-1], 2) for k in range(1 << bits))
    return [k for k in order if k < n]


def regret(label: Label, action: int) -> float:
    """The oracle's win chance of its best action less that of ``action``, in 0..1."""
    try:
        chosen = label.wins[label.legal.index(action)]
    except ValueError:
        raise ValueError(f"action {action} is not legal at bank position {label.index}") from None
    return (max(label.wins) - chosen) / label.samples


@dataclass(frozen=True, slots=True)
class Choices:
    """An agent's choice at each labelled position it was asked about, and its CPU time."""

    agent: str
    chosen: dict[int, int]  # position index -> action id
    seconds: float


def choose_all(
    spec: str,
    positions: Sequence[Position],
    bank: int,
    progress: Callable[[int], None] | None = None,
    *,
    cpu: float | None = None,
) -> Choices:
    """``spec``'s choice at each of ``positions`` (seeded by ``bank_seed(bank, index,
    "agent/<spec>")``), with the process CPU time they took; ``cpu`` as ``chooser``'s."""
    chosen: dict[int, int] = {}
    seconds = 0.0
    for index, action, took in choices_of(spec, positions, bank, cpu=cpu):
        chosen[index] = action
        seconds += took
        if progress is not None:
            progress(1)
    return Choices(label_of(spec, cpu), chosen, seconds)


def choices_of(
    spec: str, positions: Iterable[Position], bank: int, *, cpu: float | None = None
) -> Iterator[tuple[int, int, float]]:
    """(position index, ``spec``'s choice there, the CPU seconds it took), one at a time.
    The agent's seed is the same with or without a CPU budget ``cpu``."""
    ctx = context_for()
    choose = chooser(spec, ctx, cpu)
    for position in positions:
        state = position.state(ctx)
        view = state.view(state.to_move)
        seed = bank_seed(bank, position.index, f"agent/{spec}")
        started = time.process_time()
        action = choose(view, state.legal_actions(), seed)
        yield position.index, action, time.process_time() - started


def cached_choices(
    spec: str,
    positions: Sequence[Position],
    bank: int,
    path: Path,
    progress: Callable[[int], None] | None = None,
    *,
    cpu: float | None = None,
) -> Choices:
    """``choose_all`` kept in ``path`` (JSON lines, appended as each choice is made): the
    positions already chosen at are read back, the rest chosen now, so a long run resumes."""
    chosen: dict[int, int] = {}
    spent: dict[int, float] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line:
                d = json.loads(line)
                chosen[int(d["i"])] = int(d["a"])
                spent[int(d["i"])] = float(d["cpu"])
    todo = [p for p in positions if p.index not in chosen]
    if progress is not None:
        progress(len(positions) - len(todo))
    with path.open("a", encoding="utf-8") as out:
        for index, action, seconds in choices_of(spec, todo, bank, cpu=cpu):
            out.write(json.dumps({"i": index, "a": action, "cpu": round(seconds, 5)}) + "\n")
            out.flush()
            chosen[index], spent[index] = action, seconds
            if progress is not None:
                progress(1)
    wanted = [p.index for p in positions]
    took = sum(spent[i] for i in wanted)
    return Choices(label_of(spec, cpu), {i: chosen[i] for i in wanted}, took)


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean over positions with its 95% bootstrap interval over games."""

    mean: float
    low: float
    high: float

    def to_dict(self) -> dict[str, Any]:
        return {"mean": round(self.mean, 4), "ci95": [round(self.low, 4), round(self.high, 4)]}


#: Per position: (game, value).
Values = Sequence[tuple[int, float]]


def bootstrap(values: Values, seed: int, resamples: int = RESAMPLES) -> Estimate:
    """The mean of ``values`` and its 95% percentile interval, resampling whole games."""
    if not values:
        raise ValueError("no positions to take a mean over")
    sums: dict[int, list[float]] = {}
    for game, value in values:
        total = sums.setdefault(game, [0.0, 0.0])
        total[0] += value
        total[1] += 1
    games = list(sums.values())
    mean = sum(s for s, _ in games) / sum(n for _, n in games)
    rng = random.Random(seed)
    means = []
    for _ in range(resamples):
        pick = [games[int(rng.random() * len(games))] for _ in games]
        means.append(sum(s for s, _ in pick) / sum(n for _, n in pick))
    means.sort()
    return Estimate(mean, means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1])


@dataclass(frozen=True, slots=True)
class Score:
    """An agent's yardstick figures over ``positions`` labelled positions of ``games`` games."""

    agent: str
    positions: int
    games: int
    regret: Estimate
    agreement: Estimate
    blunders: Estimate
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "positions": self.positions,
            "games": self.games,
            "regret": self.regret.to_dict(),
            "agreement": self.agreement.to_dict(),
            "blunder_rate": self.blunders.to_dict(),
            "cpu_seconds": round(self.seconds, 1),
        }


def regrets(
    choices: Choices, labels: dict[int, Label], game_of: dict[int, int]
) -> list[tuple[int, float]]:
    """(game, regret) at each position both labelled and chosen at, in position order."""
    return [
        (game_of[i], regret(labels[i], choices.chosen[i]))
        for i in sorted(choices.chosen)
        if i in labels
    ]


def score(
    choices: Choices, labels: dict[int, Label], game_of: dict[int, int], seed: int = 0
) -> Score:
    """``choices`` measured against ``labels``: mean regret, agreement and blunder rate."""
    values = regrets(choices, labels, game_of)
    return Score(
        choices.agent,
        len(values),
        len({g for g, _ in values}),
        bootstrap(values, seed),
        bootstrap([(g, float(r == 0.0)) for g, r in values], seed),
        bootstrap([(g, float(r > BLUNDER)) for g, r in values], seed),
        choices.seconds,
    )


def difference(
    a: Choices, b: Choices, labels: dict[int, Label], game_of: dict[int, int], seed: int = 0
) -> Estimate:
    """Mean regret of ``a`` less that of ``b`` on the positions both chose at, paired."""
    ra = {i: regret(labels[i], a.chosen[i]) for i in a.chosen if i in labels}
    rb = {i: regret(labels[i], b.chosen[i]) for i in b.chosen if i in labels}
    both = sorted(ra.keys() & rb.keys())
    return bootstrap([(game_of[i], ra[i] - rb[i]) for i in both], seed)


def positions_needed(estimate: Estimate, positions: int) -> int | None:
    """About how many positions tell the difference ``estimate`` (over ``positions``) from 0
    at 95%: the interval's half-width shrinks as one over the root of the positions, so it
    clears 0 when half-width * sqrt(positions / n) < |mean|. None for a difference of 0."""
    half = (estimate.high - estimate.low) / 2
    if estimate.mean == 0:
        return None
    return max(1, round(positions * (half / abs(estimate.mean)) ** 2))


def game_index(bank: Bank) -> dict[int, int]:
    """Position index -> its game."""
    return {p.index: p.game for p in bank.positions()}


#: The pairs the issue asks the yardstick to order as matches do (weaker first), compared
#: besides each agent with the next one listed.
ORDER = (("random", "heuristic"), ("heuristic", "ismcts:normal"), ("ismcts:normal", HINT))
#: Shares of the positions at which the report gives the regret's interval half-width.
SHARES = (0.125, 0.25, 0.5, 1.0)


def report(
    choices: Sequence[Choices], labels: dict[int, Label], game_of: dict[int, int]
) -> dict[str, Any]:
    """Every agent's score; the paired regret difference of each agent and the next listed
    and of the ``ORDER`` pairs present, with the positions needed to tell them apart; and how
    the regret's interval narrows with the positions (the bank's first shares of them)."""
    by_name = {c.agent: c for c in choices}
    pairs = list(zip(choices, choices[1:], strict=False))
    pairs += [
        (by_name[a], by_name[b])
        for a, b in ORDER
        if a in by_name and b in by_name and (by_name[a], by_name[b]) not in pairs
    ]
    compared = []
    for a, b in pairs:
        d = difference(a, b, labels, game_of)
        n = len(a.chosen.keys() & b.chosen.keys())
        compared.append(
            {
                "a": a.agent,
                "b": b.agent,
                "positions": n,
                "regret_difference": d.to_dict(),
                "positions_needed": positions_needed(d, n),
            }
        )
    order = sorted(set().union(*(c.chosen.keys() for c in choices))) if choices else []
    widths = []
    for share in SHARES:
        kept = set(order[: max(1, int(len(order) * share))])
        half = {}
        for c in choices:
            part = Choices(c.agent, {i: a for i, a in c.chosen.items() if i in kept}, 0.0)
            r = score(part, labels, game_of).regret
            half[c.agent] = round((r.high - r.low) / 2, 4)
        widths.append({"positions": len(kept), "half_width": half})
    return {
        "scores": [score(c, labels, game_of).to_dict() for c in choices],
        "pairs": compared,
        "half_width_by_positions": widths,
    }


def done_deploying(
    choices: Choices,
    labels: dict[int, Label],
    positions: Sequence[Position],
    game_of: dict[int, int],
    seed: int = 0,
) -> dict[str, Any]:
    """The positions where ``choices`` chose "done deploying" while the player had points to
    spend and a deployment was legal (the hint's "done deploying" of issue 29): how many, how
    often the oracle rated "done deploying" best too (agreement), and the regret there."""
    ctx = context_for()
    decoded = ctx.space.actions
    done = ctx.space.done_deploying
    values: list[tuple[int, float]] = []
    for position in positions:
        i = position.index
        if choices.chosen.get(i) != done or i not in labels:
            continue
        state = position.state(ctx)
        view = state.view(state.to_move)
        legal = labels[i].legal
        if view.deploy_points and any(decoded[a].kind == Kind.DEPLOY for a in legal):
            values.append((game_of[i], regret(labels[i], done)))
    out: dict[str, Any] = {"agent": choices.agent, "positions": len(values)}
    if values:
        out["agreement"] = bootstrap([(g, float(r == 0.0)) for g, r in values], seed).to_dict()
        out["regret"] = bootstrap(values, seed).to_dict()
    return out
