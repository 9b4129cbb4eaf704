"""The bank's oracle (issue 29): each legal action's chance of winning, played out to the end.

For a position and the player to move, the oracle draws ``samples`` determinizations from that
player's view (``engine.sampling.sample_state``: it reads nothing the player cannot see, the
same fair information as every level), and in each it plays every legal action and then the
whole rest of the game with the heuristic on both sides. An action's label is the number of
those games the player won: a win chance, not a search's score, so regrets are in points of
winning. Every action is played out from the same determinizations (common random numbers:
the heuristic draws no random numbers and the engine's own seed is part of the sample), so the
difference between two actions is measured far more finely than either alone.

Why this oracle: it plays every game to its end (the searching levels cut rollouts after one or
two turns and guess from a hand-made evaluation), it values every legal action equally often
(a search values the actions it rarely tries poorly, and an agent's regret is read on exactly
those), and it is cheap: a heuristic game takes about 7 ms, where a distilled one takes 450 ms.
What it values is the action followed by the heuristic's play, a one-step improvement of the
heuristic (a rollout algorithm, Tesauro and Galperin 1996); docs/yardstick.md gives the checks
that it is stronger than the levels and the noise of its own labels.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from rebelspace.agents.advice import win_probability
from rebelspace.agents.base import ThinkingAgent
from rebelspace.agents.evaluate import score as units_score
from rebelspace.agents.heuristic import heuristic_action
from rebelspace.agents.ismcts import LEVELS, ISMCTSAgent, Node
from rebelspace.bounds import MAX_DECISIONS
from rebelspace.engine import GameContext, GameState, PlayerView, context_for
from rebelspace.engine.sampling import sample_state

from .bank import Position, bank_seed

#: Determinizations per position of the shipped labels: each action is played out this often.
SAMPLES = 16
#: Who finishes the player's turn in the shipped labels' play-outs (``FINISHERS``).
FINISHED_BY = ("heuristic",)


@dataclass(frozen=True, slots=True)
class Label:
    """The oracle's verdict on position ``index``: for each of ``legal`` (the engine's order),
    how many of ``samples`` played-out games the player to move won after it."""

    index: int
    legal: tuple[int, ...]
    wins: tuple[int, ...]
    samples: int
    visits: tuple[int, ...] | None = None  # the search oracle's root visits of each action

    def win_chances(self) -> list[float]:
        return [w / self.samples for w in self.wins]

    def best(self) -> float:
        return max(self.wins) / self.samples

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "i": self.index,
            "legal": list(self.legal),
            "wins": list(self.wins),
            "n": self.samples,
        }
        if self.visits is not None:
            out["v"] = list(self.visits)
        return out


def play_to_end(state: GameState) -> int:
    """The winner of ``state`` played on by the heuristic on both sides."""
    decisions = 0
    while state.outcome is None:
        if decisions >= MAX_DECISIONS:
            raise RuntimeError(f"an oracle rollout is not over after {decisions} decisions")
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else heuristic_action(state, legal))
        decisions += 1
    return state.outcome.winner


#: How the player to move may finish its turn after the action, before the heuristic plays
#: the rest of the game: a name of ``FINISHERS``.
Finisher = Callable[[GameState, Sequence[int]], int]


def _distilled(state: GameState, legal: Sequence[int]) -> int:
    from rebelspace.agents.distilled import shipped

    return shipped().choose(state, legal)


FINISHERS: dict[str, Finisher] = {"heuristic": heuristic_action, "distilled": _distilled}


def finish_turn(state: GameState, me: int, finisher: Finisher) -> None:
    """Play the rest of the current turn: ``me``'s decisions by ``finisher``, the opponent's
    by the heuristic."""
    turn = state.turn
    while state.outcome is None and state.turn == turn:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
        elif state.to_move == me:
            state.apply(finisher(state, legal))
        else:
            state.apply(heuristic_action(state, legal))


def action_wins(
    view: PlayerView,
    legal: Sequence[int],
    ctx: GameContext,
    seed: int,
    samples: int,
    finishers: Sequence[str] = ("heuristic",),
) -> list[int]:
    """For each of ``legal``, the games won by the player of ``view`` out of ``samples``
    determinizations of the view, each played out after the action.

    With several ``finishers`` each action is played out once per finisher (the player's turn
    finished by it, then the heuristic), and it scores the wins of its best finisher: a
    parallel rollout (Chang, Givan and Chong 2004), at least as good as each of them, so that
    an action that begins another policy's plan is not judged by the heuristic's plan."""
    me = 0 if view.player == "rebel" else 1
    rng = random.Random(seed)
    wins = [[0] * len(finishers) for _ in legal]
    for _ in range(samples):
        sample = sample_state(view, ctx, rng.getrandbits(62))
        for i, action in enumerate(legal):
            for j, name in enumerate(finishers):
                state = sample.clone()
                state.apply(action)
                if name != "heuristic":
                    finish_turn(state, me, FINISHERS[name])
                wins[i][j] += play_to_end(state) == me
    return [max(w) for w in wins]


#: The search oracle's scale: its win estimates are kept as wins out of this many.
SEARCH_SCALE = 1000
#: The search oracle's iterations: 20 times ``ismcts:normal``'s 250, at normal's settings.
SEARCH_ITERATIONS = 5000
#: The fewest visits every legal action gets at the search oracle's root ...
SEARCH_FLOOR = 100
#: ... unless that takes more than this share of the iterations (many legal actions): then
#: each gets an equal part of that share.
SEARCH_FLOOR_SHARE = 0.5
#: The ``--finishers`` name of the search oracle (``label_position``) and its seed stream.
SEARCH = "search"
SEARCH_PURPOSE = "oracle/search"


class _FlooredSearch(ISMCTSAgent):
    """ISMCTS whose root visits its least visited action while any has fewer than ``floor``
    visits (``search_values``); below the root, and above the floor, it is the level's UCT."""

    floor = 0
    _root: Node | None = None

    def _descend(self, state: GameState, root: Node) -> list[Node]:
        self._root = root
        return super()._descend(state, root)

    def _uct_pick(self, node: Node, moves: Sequence[int]) -> int:
        if node is self._root:
            # The root expands every action before it picks (``_may_expand``), so each of
            # ``moves`` has a child here; the first of the least visited, in the engine's order.
            least = min(moves, key=lambda a: node.children[a].visits)
            if node.children[least].visits < self.floor:
                return least
        return super()._uct_pick(node, moves)


def search_floor(actions: int, iterations: int) -> int:
    """The visits each of ``actions`` legal actions is given at least at the root."""
    return max(1, min(SEARCH_FLOOR, int(SEARCH_FLOOR_SHARE * iterations) // max(actions, 1)))


def _floored_agent(ctx: GameContext, seed: int, iterations: int, floor: int) -> _FlooredSearch:
    """``ismcts:normal`` at ``iterations``, without a time cap, whose root visits each legal
    action at least ``floor`` times before UCT chooses there."""
    budget = replace(LEVELS["normal"], iterations=iterations, seconds=None)
    agent = _FlooredSearch(ctx, seed, budget)
    agent.floor = floor
    return agent


def search_values(
    view: PlayerView, legal: Sequence[int], ctx: GameContext, seed: int, iterations: int
) -> tuple[list[int], list[int]]:
    """The search oracle: ``ismcts:normal``'s search with ``iterations`` iterations (20 times
    normal's at 5,000) from the player's view, every legal action visited at least
    ``search_floor`` times at the root. For each of ``legal``: its estimated chance of
    winning out of ``SEARCH_SCALE`` (the hint's ``advice.win_probability`` of the root
    child's mean value, against the root's score), and the child's visits.

    Why a floor rather than plain UCT: UCT spends its iterations on the actions it already
    rates best, so a poor action may be tried a handful of times, and its mean over those is
    noise; an agent's regret is read on exactly those actions. Why a floor rather than an
    equal forced search of each action (root-parallel): that costs the whole budget once per
    action (positions have up to dozens), where the floor costs at most half of one, and the
    rest still goes where UCT finds the close decisions. The root's actions are the same in
    every determinization (they are the view's), so each is visited in every iteration that
    picks it."""
    me = 0 if view.player == "rebel" else 1
    agent = _floored_agent(ctx, seed, iterations, search_floor(len(legal), iterations))
    root_state = sample_state(view, ctx, agent.rng.getrandbits(62))
    agent.search(root_state, legal)
    root = agent.last_root
    assert root is not None
    baseline = units_score(root_state, me)  # normal's evaluation's score, as the hint's
    wins, visits = [], []
    for action in legal:
        child = root.children.get(action)
        n = child.visits if child is not None else 0
        win = win_probability(child.reward / n, baseline) if child is not None and n else 0.0
        wins.append(round(SEARCH_SCALE * win))
        visits.append(n)
    return wins, visits


def label_position(
    position: Position,
    bank: int,
    samples: int = SAMPLES,
    purpose: str | None = None,
    finishers: Sequence[str] = FINISHED_BY,
    iterations: int | None = None,
) -> Label:
    """The oracle's label of ``position`` of the bank seeded ``bank``: the search oracle's
    (``search_values``) with ``iterations``, else the play-outs' (``action_wins``, ``samples``
    each, ``finishers``). ``purpose`` names the seed stream (by default ``oracle`` for the
    play-outs, ``SEARCH_PURPOSE`` for the search), so that an independent labelling
    (another purpose) draws other samples."""
    ctx = context_for()
    state = position.state(ctx)
    legal = state.legal_actions()
    view = state.view(state.to_move)
    if iterations is not None:
        seed = bank_seed(bank, position.index, purpose or SEARCH_PURPOSE)
        wins, visits = search_values(view, legal, ctx, seed, iterations)
        return Label(position.index, tuple(legal), tuple(wins), SEARCH_SCALE, tuple(visits))
    seed = bank_seed(bank, position.index, purpose or "oracle")
    wins = action_wins(view, legal, ctx, seed, samples, finishers)
    return Label(position.index, tuple(legal), tuple(wins), samples)


def read_labels(path: Path) -> dict[int, Label]:
    """The labels kept at ``path`` by position index (an absent file: none yet)."""
    if not path.exists():
        return {}
    out: dict[int, Label] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        d = json.loads(line)
        visits = tuple(int(v) for v in d["v"]) if "v" in d else None
        out[int(d["i"])] = Label(
            int(d["i"]), tuple(d["legal"]), tuple(d["wins"]), int(d["n"]), visits
        )
    return out


def append_labels(path: Path, labels: Iterable[Label]) -> int:
    """Append ``labels`` to ``path`` one line each as they come (a stopped run loses at most
    the position being labelled); returns how many were written."""
    written = 0
    with path.open("a", encoding="utf-8") as out:
        for label in labels:
            out.write(json.dumps(label.to_json(), separators=(",", ":")) + "\n")
            out.flush()
            written += 1
    return written


class OracleAgent(ThinkingAgent):
    """The oracle as a player, from its own view: the action it rates best (the first of
    equals), by the search oracle with ``iterations``, else by ``samples`` play-outs. For the
    check that the oracle is stronger than the levels (docs/yardstick.md)."""

    def __init__(
        self, ctx: GameContext, seed: int, samples: int = SAMPLES, iterations: int | None = None
    ) -> None:
        self.ctx = ctx
        self.rng = random.Random(seed)
        self.samples = samples
        self.iterations = iterations

    def choose(self, view: PlayerView, legal: Sequence[int]) -> int:
        seed = self.rng.getrandbits(62)
        if self.iterations is not None:
            wins, _ = search_values(view, legal, self.ctx, seed, self.iterations)
        else:
            wins = action_wins(view, legal, self.ctx, seed, self.samples)
        return legal[max(range(len(legal)), key=wins.__getitem__)]
