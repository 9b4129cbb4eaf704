"""Games of a searching teacher against the heuristic, or against itself, with the search's
visit counts at every decision it made: the data the distilled policy (``agents.distilled``)
learns from.

Each game is the arena's game between the two names (agents from ``play.match.match_agents``,
as ``play_match`` makes them), in duplicate format: games ``2k`` and ``2k + 1`` are deal ``k``
with the teacher on the Rebel side, then on the Imperial side; in self-play every game has a
deal of its own (the lab's mirror runs' deals), since a deal's twin would be a copy. A chunk
file holds one JSON object a line per game: the deal's index, the teacher's side, the winner,
every action id of the game (so the positions can be rebuilt by replaying the deal) and, for
each decision the teacher searched, the ply and the visits of each root action. Features are
not stored: they are computed when fitting, so a change of features needs no new games.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rebelspace.agents.ismcts import ISMCTSAgent
from rebelspace.engine import GameState, new_game
from rebelspace.play import Decider, run_game
from rebelspace.play.match import decider_for, match_agents
from rebelspace.play.schedule import deal_seed, first_is_rebel, unit_of

from .chunks import run_chunks, write_whole

__all__ = ["TeacherChunk", "generate_teacher_games", "read_games", "record_deal_seed"]


@dataclass(frozen=True, slots=True)
class TeacherChunk:
    """Games ``first`` .. ``first + games - 1`` of the series ``teacher`` vs ``opponent``."""

    seed: int
    teacher: str
    opponent: str
    first: int
    games: int

    @property
    def name(self) -> str:
        tag = f"{self.teacher}-vs-{self.opponent}".replace(":", "_")
        return f"{tag}-{self.seed}-{self.first:06d}.jsonl"


def play_teacher_game(seed: int, teacher: str, opponent: str, index: int) -> dict[str, Any]:
    """Game ``index`` of the series, with the teacher's root visits at each of its searches.

    When the opponent is the teacher itself (self-play, ``opponent == teacher``), both sides
    are the teacher and both sides' searches are kept: the data then describe the teacher's
    play against itself, which is what a bulk agent standing in for it in mirror games (the
    balance lab's) must imitate, not its play against the heuristic (issue 35: the policy
    fitted to games against the heuristic put the Rebel 6.5 points below the search's mirror).
    """
    # A deal played twice with the sides swapped is two copies of one game when both sides
    # are the same agent, so self-play deals every game afresh, as the lab's mirror runs do.
    twinned = opponent != teacher
    deal = deal_seed(seed, index, twinned=twinned)
    game = new_game(deal, log=False)
    teacher_side = 0 if first_is_rebel(index) else 1
    names = (teacher, opponent) if teacher_side == 0 else (opponent, teacher)
    agents = match_agents(*names, deal, game.ctx)
    actions: list[int] = []
    searched: list[list[Any]] = []

    def teacher_of(side: int, agent: ISMCTSAgent) -> Decider:
        def teach(state: GameState, legal: Sequence[int]) -> int:
            action = agent.act(state.view(side), legal)
            if len(legal) > 1 and agent.last_root is not None:
                children = agent.last_root.children
                visits = [[a, children[a].visits] for a in legal if a in children]
                searched.append([len(actions), visits])
            return action

        return teach

    deciders: list[Decider] = [decider_for(a, side) for side, a in enumerate(agents)]
    for side in (teacher_side,) if twinned else (0, 1):
        agent = agents[side]
        if not isinstance(agent, ISMCTSAgent):
            raise ValueError(f"the teacher must be a searching agent (ismcts...), got {teacher!r}")
        deciders[side] = teacher_of(side, agent)
    run_game(game, deciders, observe=lambda _s, a: actions.append(a))
    record = {
        "deal": unit_of(index, twinned=twinned),
        "index": index,
        "teacher_side": teacher_side,
        "winner": game.winner,
        "actions": actions,
        "searched": searched,
    }
    return record if twinned else {**record, "twinned": False}


def record_deal_seed(seed: int, record: dict[str, Any]) -> int:
    """The seed that dealt a teacher game of the series ``seed`` (``play_teacher_game``)."""
    return deal_seed(seed, record["index"], twinned=record.get("twinned", True))


def _work(job: tuple[TeacherChunk, str]) -> str:
    chunk, folder = job
    lines = [
        json.dumps(play_teacher_game(chunk.seed, chunk.teacher, chunk.opponent, i))
        for i in range(chunk.first, chunk.first + chunk.games)
    ]
    write_whole(Path(folder) / chunk.name, ("\n".join(lines) + "\n").encode())
    return chunk.name


def generate_teacher_games(
    folder: Path,
    seed: int,
    teacher: str,
    opponent: str,
    games: int,
    *,
    chunk_games: int = 10,
    workers: int = 1,
    progress: bool | None = None,
) -> list[Path]:
    """Play ``games`` games (an even number keeps deals whole) in chunks, skipping chunks
    already on disk; the chunk files in order."""
    chunks = [
        TeacherChunk(seed, teacher, opponent, first, min(chunk_games, games - first))
        for first in range(0, games, chunk_games)
    ]
    return run_chunks(folder, chunks, _work, workers=workers, progress=progress)


def read_games(paths: Sequence[Path]) -> list[dict[str, Any]]:
    """Every game record of the chunk files, in order."""
    games = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                games.append(json.loads(line))
    return games
