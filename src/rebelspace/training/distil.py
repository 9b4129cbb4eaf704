"""Fitting the distilled policy: a softmax over each position's legal actions, linear in
their features, fitted to the share of the teacher's search visits each action got (cross
entropy), by Newton's method on the L2-penalised loss: deterministic, a few steps. Needs
NumPy (the ``rl`` extra); the model it makes needs only the standard library."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rebelspace.agents.distilled import SIZE, PolicyModel, action_features
from rebelspace.engine import new_game
from rebelspace.engine.sampling import sample_state
from rebelspace.play.progress import progress_bar
from rebelspace.seeds import TEACHER_SAMPLE, agent_seed

from .teacher import record_deal_seed

__all__ = ["Positions", "agreement", "fit_policy", "positions"]

#: Rows of action features, the teacher's visit share of each row, and where each
#: position's rows start.
Positions = tuple[Any, Any, Any]


def positions(
    games: Sequence[dict[str, Any]], seed: int, *, progress: bool | None = None
) -> Positions:
    """Replay each teacher game to every decision the teacher searched and describe its legal
    actions, on a sample of the teacher's view (as the agent will see it at play time)."""
    import numpy as np

    rows: list[list[float]] = []
    share: list[float] = []
    starts: list[int] = []
    bar = progress_bar(len(games), progress, unit="game")
    for record in games:
        game = new_game(record_deal_seed(seed, record), log=False)
        searched = {ply: dict(visits) for ply, visits in record["searched"]}
        for ply, action in enumerate(record["actions"]):
            visits = searched.get(ply)
            if visits is not None:
                legal = game.legal_actions()
                view = game.view(game.to_move)
                sample = sample_state(view, game.ctx, agent_seed(game.seed, TEACHER_SAMPLE + ply))
                total = sum(visits.values())
                starts.append(len(rows))
                rows.extend(action_features(sample, legal))
                share.extend(visits.get(a, 0) / total for a in legal)
            game.apply(action)
        bar.update(1)
    bar.close()
    return np.array(rows), np.array(share), np.array(starts)


def _softmax(x: Any, w: Any, starts: Any) -> Any:
    import numpy as np

    z = x @ w
    counts = np.diff(np.append(starts, len(z)))
    z = z - np.repeat(np.maximum.reduceat(z, starts), counts)
    e = np.exp(z)
    return e / np.repeat(np.add.reduceat(e, starts), counts)


def fit_policy(data: Positions, *, l2: float = 1e-3, steps: int = 15) -> PolicyModel:
    """Newton's method on the mean cross entropy plus ``l2``/2 |w|^2."""
    import numpy as np

    x, share, starts = data
    n = len(starts)
    w = np.zeros(SIZE)
    for _ in range(steps):
        p = _softmax(x, w, starts)
        grad = x.T @ (p - share) / n + l2 * w
        m = np.add.reduceat(x * p[:, None], starts)
        hess = ((x.T * p) @ x - m.T @ m) / n + l2 * np.eye(SIZE)
        w = w - np.linalg.solve(hess, grad)
    return PolicyModel(tuple(round(float(v), 6) for v in w), {"positions": n, "l2": l2})


def agreement(model: PolicyModel, data: Positions) -> dict[str, float]:
    """How often the model's choice is the teacher's (its most visited action), the
    heuristic's agreement for comparison, and the cross entropy."""
    import numpy as np

    x, share, starts = data
    w = np.array(model.weights)
    p = _softmax(x, w, starts)
    ends = np.append(starts[1:], len(share))
    same = heur = 0
    for s, e in zip(starts, ends, strict=True):
        teacher = s + int(np.argmax(share[s:e]))
        same += int(s + int(np.argmax(x[s:e] @ w)) == teacher)
        heur += int(x[teacher, 0] == 1.0)
    n = len(starts)
    loss = float(-np.sum(share * np.log(np.maximum(p, 1e-12))) / n)
    return {"agrees": same / n, "heuristic_agrees": heur / n, "cross_entropy": loss}
