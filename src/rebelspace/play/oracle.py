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
from dataclasses import dataclass
from pathlib import Path

from rebelspace.agents.base import ThinkingAgent
from rebelspace.agents.heuristic import heuristic_action
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

    def win_chances(self) -> list[float]:
        return [w / self.samples for w in self.wins]

    def best(self) -> float:
        return max(self.wins) / self.samples

    def to_json(self) -> dict[str, object]:
        return {
            "i": self.index,
            "legal": list(self.legal),
            "wins": list(self.wins),
            "n": self.samples,
        }


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


def search_wins(
    view: PlayerView, legal: Sequence[int], ctx: GameContext, seed: int, iterations: int
) -> list[int]:
    """A second kind of oracle, to compare with the play-outs: ``ismcts:normal``'s search with
    ``iterations`` iterations (20 times normal's at 5,000) from the player's view; each
    action's estimated chance of winning (``advice.win_probability`` of its mean value), out of
    ``SEARCH_SCALE``. It is the searching levels' own method, so it leans their way."""
    from dataclasses import replace

    from rebelspace.agents.advice import win_probability
    from rebelspace.agents.evaluate import score as race_score
    from rebelspace.agents.ismcts import LEVELS, ISMCTSAgent

    agent = ISMCTSAgent(ctx, seed, replace(LEVELS["normal"], iterations=iterations, seconds=None))
    root_state = sample_state(view, ctx, agent.rng.getrandbits(62))
    agent.search(root_state, legal)
    assert agent.last_root is not None
    baseline = race_score(root_state, root_state.to_move)
    out = []
    for action in legal:
        child = agent.last_root.children.get(action)
        win = win_probability(child.reward / child.visits, baseline) if child else 0.0
        out.append(round(SEARCH_SCALE * win))
    return out


def label_position(
    position: Position,
    bank: int,
    samples: int = SAMPLES,
    purpose: str = "oracle",
    finishers: Sequence[str] = FINISHED_BY,
) -> Label:
    """The oracle's label of ``position`` of the bank seeded ``bank``; ``purpose`` names the
    seed stream, so that an independent labelling (another purpose) draws other samples."""
    ctx = context_for()
    state = position.state(ctx)
    legal = state.legal_actions()
    view = state.view(state.to_move)
    seed = bank_seed(bank, position.index, purpose)
    if finishers and finishers[0].startswith("search:"):
        wins = search_wins(view, legal, ctx, seed, int(finishers[0].removeprefix("search:")))
        return Label(position.index, tuple(legal), tuple(wins), SEARCH_SCALE)
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
        out[int(d["i"])] = Label(int(d["i"]), tuple(d["legal"]), tuple(d["wins"]), int(d["n"]))
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
    """The oracle as a player, from its own view: the action that won most often. For the check
    that the oracle is stronger than the levels (docs/yardstick.md)."""

    def __init__(self, ctx: GameContext, seed: int, samples: int = SAMPLES) -> None:
        self.ctx = ctx
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, view: PlayerView, legal: Sequence[int]) -> int:
        wins = action_wins(view, legal, self.ctx, self.rng.getrandbits(62), self.samples)
        return legal[max(range(len(legal)), key=wins.__getitem__)]
