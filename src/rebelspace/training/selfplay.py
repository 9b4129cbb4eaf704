"""Self-play positions for the learnt evaluation, labelled by who won.

Games are played in chunks by ``play``'s match runner on its local pool (every core by
default, as the lab's runs are). Each chunk is a file of float32 rows (the features of each
turn's first position, from the side to move, then the label: 1 if that side won), so a
stopped run resumes with the chunks it lacks and the same seed makes the same files.

Self-play policies, named like agents: ``heuristic`` (the heuristic mirror on the true state:
it reads nothing hidden), ``heuristic~E`` (the same with a random legal action a fraction E of
the time, for positions the mirror never reaches), or any registry agent such as
``ismcts:expert`` for later rounds (then both sides play through their views).
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from rebelspace.agents.heuristic import heuristic_action
from rebelspace.agents.value import NAMES, SIZE, features
from rebelspace.engine import GameState, Step, new_game
from rebelspace.play import Decider, bulk_agent, run_game
from rebelspace.play.match import match_seed, through_view
from rebelspace.seeds import DEAL, derive_seed

from .chunks import run_chunks, write_whole

ROW = SIZE + 1  # features, then the label

__all__ = ["NAMES", "ROW", "Chunk", "generate", "play_chunk", "read_rows"]


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


def _deciders(policy: str, game: GameState) -> list[Decider]:
    name, _, eps = policy.partition("~")
    if name == "heuristic":
        noise = random.Random(match_seed(game.seed, 0))  # the noise is the heuristic~E agent's
        epsilon = float(eps or 0.0)

        def choose(state: GameState, legal: Sequence[int]) -> int:
            if epsilon and noise.random() < epsilon:
                return legal[int(noise.random() * len(legal))]
            return heuristic_action(state, legal)

        deciders: list[Decider] = [choose, choose]
    else:
        deciders = [
            through_view(bulk_agent(policy, game.ctx, match_seed(game.seed, p)), p) for p in (0, 1)
        ]
    return [_asked_only_to_choose(decide) for decide in deciders]


def _asked_only_to_choose(decide: Decider) -> Decider:
    # A forced move is made here without asking: the noise of ``heuristic~E``, or an agent
    # that draws a random number even then (the random agent), would otherwise play other
    # games than the chunks on disk.
    return lambda state, legal: legal[0] if len(legal) == 1 else decide(state, legal)


def _turn_starts(game: GameState, decide: Sequence[Decider]) -> list[tuple[int, list[float]]]:
    """Play ``game`` out; (side to move, features) at the first decision of every turn."""
    seen: list[tuple[int, list[float]]] = []
    last_turn = 0

    def note(state: GameState, _action: int) -> None:
        nonlocal last_turn
        if state.turn != last_turn and state.step == Step.DRAW:
            last_turn = state.turn
            seen.append((state.to_move, features(state, state.to_move)))

    run_game(game, decide, observe=note)
    return seen


def play_chunk(chunk: Chunk) -> bytes:
    """The rows of one chunk's games, as float32 bytes."""
    rows = array("f")
    for i in range(chunk.first, chunk.first + chunk.games):
        game = new_game(derive_seed(chunk.seed, DEAL + i), log=False)
        for mover, row in _turn_starts(game, _deciders(chunk.policy, game)):
            rows.extend(row)
            rows.append(1.0 if game.winner == mover else 0.0)
    return rows.tobytes()


def _work(job: tuple[Chunk, str]) -> str:
    chunk, folder = job
    write_whole(Path(folder) / chunk.name, play_chunk(chunk))
    return chunk.name


def generate(
    folder: Path,
    seed: int,
    policies: Sequence[str],
    games: int,
    *,
    chunk_games: int = 25,
    workers: int = 1,
    progress: bool | None = None,
) -> list[Path]:
    """Play ``games`` games per policy in chunks (skipping chunks already on disk); the
    chunk files, in a fixed order."""
    chunks = [
        Chunk(seed, policy, first, min(chunk_games, games - first))
        for policy in policies
        for first in range(0, games, chunk_games)
    ]
    return run_chunks(folder, chunks, _work, workers=workers, progress=progress)


def read_rows(paths: Sequence[Path]) -> Iterator[tuple[list[float], float]]:
    """(features, label) of every row of the chunk files, in order."""
    for path in paths:
        data = array("f")
        data.frombytes(path.read_bytes())
        for i in range(0, len(data), ROW):
            yield list(data[i : i + SIZE]), data[i + SIZE]
