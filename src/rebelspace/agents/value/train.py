"""Training the value function: self-play positions labelled by who won, and a logistic
regression fitted to them.

Generation is pure Python on a ``multiprocessing`` spawn pool (every local core by default,
as the lab's runner does). Games are played in chunks; each chunk is a file of float32 rows
(the features of each turn's first position, from the side to move, then the label: 1 if
that side won), so a stopped run resumes with the chunks it lacks and the same seed makes
the same files. Fitting needs NumPy (the ``rl`` extra): Newton's method on the L2-penalised
log loss, deterministic, with a checkpoint after each step.

Self-play policies, named like agents: ``heuristic`` (the heuristic mirror on the true
state: it reads nothing hidden), ``heuristic~E`` (the same with a random legal action a
fraction E of the time, for positions the mirror never reaches), or any registry agent such
as ``ismcts:expert`` for later rounds (then both sides play through their views).
"""

from __future__ import annotations

import json
import random
import sys
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from rebelspace.bounds import MAX_DECISIONS
from rebelspace.engine import GameState, new_game
from rebelspace.seeds import DEAL, MATCH_AGENT, derive_seed

from ..heuristic import heuristic_action
from .features import NAMES, SIZE, features
from .model import ValueModel

ROW = SIZE + 1  # features, then the label
DRAW = 0  # the draw step: where a turn (and a search's rollout) begins


@dataclass(frozen=True, slots=True)
class Chunk:
    """Games ``first`` .. ``first + games - 1`` of a run, played by ``policy``."""

    seed: int
    policy: str
    first: int
    games: int

    @property
    def name(self) -> str:
        tag = self.policy.replace(":", "_").replace("~", "-eps")
        return f"{tag}-{self.seed}-{self.first:06d}.bin"


Chooser = Callable[[GameState, Sequence[int]], int]


def _choosers(policy: str, game: GameState) -> list[Chooser]:
    name, _, eps = policy.partition("~")
    if name == "heuristic":
        noise = random.Random(derive_seed(game.seed, MATCH_AGENT))
        epsilon = float(eps or 0.0)

        def choose(state: GameState, legal: Sequence[int]) -> int:
            if epsilon and noise.random() < epsilon:
                return legal[int(noise.random() * len(legal))]
            return heuristic_action(state, legal)

        return [choose, choose]
    from ..registry import make_agent

    def through_view(p: int) -> Chooser:
        agent = make_agent(policy, game.ctx, derive_seed(game.seed, MATCH_AGENT + p))
        return lambda state, legal: agent.act(state.view(p), legal)

    return [through_view(0), through_view(1)]


def play_chunk(chunk: Chunk) -> bytes:
    """The rows of one chunk's games, as float32 bytes."""
    rows = array("f")
    for i in range(chunk.first, chunk.first + chunk.games):
        game = new_game(derive_seed(chunk.seed, DEAL + i), log=False)
        choosers = _choosers(chunk.policy, game)
        seen: list[list[float]] = []
        movers: list[int] = []
        last_turn = 0
        for _ in range(MAX_DECISIONS):
            if game.is_over:
                break
            if game.turn != last_turn and game.step == DRAW:
                last_turn = game.turn
                movers.append(game.to_move)
                seen.append(features(game, game.to_move))
            legal = game.legal_actions()
            p = game.to_move
            game.apply(legal[0] if len(legal) == 1 else choosers[p](game, legal))
        if game.winner is None:
            continue
        for mover, row in zip(movers, seen, strict=True):
            rows.extend(row)
            rows.append(1.0 if game.winner == mover else 0.0)
    return rows.tobytes()


def _work(job: tuple[Chunk, str]) -> str:
    chunk, folder = job
    path = Path(folder) / chunk.name
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(play_chunk(chunk))
    tmp.replace(path)  # a chunk file exists only once complete: resuming trusts it
    return chunk.name


class Bar:
    """A one-line progress bar on stderr: done/total, rate and time left."""

    def __init__(self, label: str, total: int, done: int = 0, show: bool = True) -> None:
        self.label, self.total, self.done, self.show = label, total, done, show
        self.start, self.first = time.monotonic(), done

    def update(self, n: int = 1) -> None:
        self.done += n
        if not self.show:
            return
        width = 30
        filled = width * self.done // max(1, self.total)
        spent = time.monotonic() - self.start
        rate = (self.done - self.first) / spent if spent > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        print(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
            f" {left:5.0f}s left",
            end="" if self.done < self.total else "\n",
            file=sys.stderr,
            flush=True,
        )


def generate(
    folder: Path,
    seed: int,
    policies: Sequence[str],
    games: int,
    *,
    chunk_games: int = 25,
    workers: int = 1,
    progress: bool = True,
) -> list[Path]:
    """Play ``games`` games per policy in chunks (skipping chunks already on disk); the
    chunk files, in a fixed order."""
    folder.mkdir(parents=True, exist_ok=True)
    chunks = [
        Chunk(seed, policy, first, min(chunk_games, games - first))
        for policy in policies
        for first in range(0, games, chunk_games)
    ]
    todo = [c for c in chunks if not (folder / c.name).exists()]
    bar = Bar("self-play chunks", len(chunks), len(chunks) - len(todo), progress)
    if todo:
        jobs = [(c, str(folder)) for c in todo]
        if workers <= 1:
            for job in jobs:
                _work(job)
                bar.update()
        else:
            with get_context("spawn").Pool(workers) as pool:
                for _ in pool.imap_unordered(_work, jobs, chunksize=1):
                    bar.update()
    return [folder / c.name for c in chunks]


def read_rows(paths: Sequence[Path]) -> Iterator[tuple[list[float], float]]:
    """(features, label) of every row of the chunk files, in order."""
    for path in paths:
        data = array("f")
        data.frombytes(path.read_bytes())
        for i in range(0, len(data), ROW):
            yield list(data[i : i + SIZE]), data[i + SIZE]


# ----------------------------------------------------------------------------- fitting


def fit(
    train: Sequence[Path],
    *,
    l2: float = 1e-3,
    steps: int = 12,
    checkpoint: Path | None = None,
    progress: bool = True,
) -> ValueModel:
    """Newton's method on the mean log loss plus ``l2``/2 |w|^2, from the checkpoint if one
    exists; the checkpoint is rewritten after each step."""
    from rebelspace.extras import require

    require("rl", "rebelspace train", ("numpy",))
    import numpy as np

    x, y = _arrays(train)
    w = np.zeros(SIZE)
    done = 0
    # A checkpoint is resumed only for the same rows and penalty: another run's would do
    # harm quietly.
    config = {"chunks": [p.name for p in train], "l2": l2, "features": list(NAMES)}
    if checkpoint is not None and checkpoint.exists():
        saved = json.loads(checkpoint.read_text(encoding="utf-8"))
        if saved.get("config") == config:
            w, done = np.array(saved["weights"], dtype=float), min(steps, int(saved["step"]))
    bar = Bar("fit (Newton steps)", steps, done, progress)
    n = len(y)
    for step in range(done, steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) / n + l2 * w
        hess = (x.T * (p * (1 - p))) @ x / n + l2 * np.eye(SIZE)
        w = w - np.linalg.solve(hess, grad)
        if checkpoint is not None:
            saved = {"step": step + 1, "weights": w.tolist(), "config": config}
            checkpoint.write_text(json.dumps(saved), encoding="utf-8")
        bar.update()
    return ValueModel(tuple(round(float(v), 6) for v in w), {"positions": n, "l2": l2})


def _arrays(paths: Sequence[Path]) -> tuple[Any, Any]:
    import numpy as np

    data = np.concatenate(
        [np.frombuffer(p.read_bytes(), dtype=np.float32) for p in paths]
        or [np.zeros(0, dtype=np.float32)]
    )
    data = data.reshape(-1, ROW).astype(float)
    return data[:, :SIZE], data[:, SIZE]


def log_loss(model: ValueModel, paths: Sequence[Path]) -> dict[str, float]:
    """Held-out log loss and accuracy of ``model`` and of the hand-made evaluations' scores
    (each fitted to the same rows by one scale, so the comparison is of information)."""
    import numpy as np

    x, y = _arrays(paths)
    w = np.array(model.weights)
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    out = {"positions": float(len(y)), "model_log_loss": _loss(p, y)}
    out["model_accuracy"] = float(np.mean((p > 0.5) == (y > 0.5)))
    out["base_rate_log_loss"] = _loss(np.full(len(y), float(np.mean(y))), y)
    for name, column in (("units", NAMES.index("tanh(unit_score/3)")),):
        z = np.arctanh(np.clip(x[:, column], -0.999999, 0.999999)) * 3
        out[f"{name}_log_loss"] = min(
            _loss(1.0 / (1.0 + np.exp(-z / s)), y) for s in (0.5, 1.0, 2.0, 4.0, 8.0)
        )
    return out


def _loss(p: Any, y: Any) -> float:
    import numpy as np

    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


__all__ = ["Bar", "Chunk", "fit", "generate", "log_loss", "play_chunk", "read_rows"]
