"""The position bank (issue 29): decision points from varied games, kept small and replayable.

A position is stored as the game that reached it: the deal's seed and the action ids played
before it. ``new_game(deal)`` and those actions rebuild it exactly through the engine's public
API, so the bank holds no pickled state and survives any change of the state's layout (a change
of the rules that changes games shows as a position whose legal actions no longer match its
labels, which ``tests/play/test_bank.py`` checks).

The games are played by several agents (``BANK_AGENTS``, every ordered pair in turn, so both
sides of each), and each game gives up to ``per_game`` positions drawn uniformly among its
decisions with two or more legal actions: every step of the turn turns up as often as players
meet it. Everything is seeded by ``bank_seed``, a keyed hash of (bank seed, game, purpose) of
this module's own, not the seed streams of the arena or the ladder (``rebelspace.seeds``):
the bank regenerates identically whatever those become.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

from rebelspace.bounds import MAX_DECISIONS
from rebelspace.engine import SIDE_NAMES, STEP_NAMES, GameContext, GameState, new_game

from .match import bulk_agent

#: The agents whose games the bank's positions come from: weak and strong, random and searching.
BANK_AGENTS = ("random", "heuristic", "distilled", "ismcts:easy", "ismcts:normal")
#: Every ordered pair of them; game ``i`` is played by pair ``i % len(PAIRS)`` (Rebel first).
PAIRS = tuple(product(BANK_AGENTS, repeat=2))

#: The shipped bank: its games (gzip'd JSON lines) and its oracles' labels (JSON lines, appended
#: to in chunks by ``play.oracle``): the search oracle's, the yardstick's default, and the
#: first oracle's (heuristic play-outs), kept to compare.
DATA = Path(__file__).resolve().parents[1] / "data"
BANK_PATH = DATA / "bank.jsonl.gz"
SEARCH_LABELS_PATH = DATA / "bank-labels-search.jsonl"
LABELS_PATH = DATA / "bank-labels.jsonl"


def default_labels() -> Path:
    """The labels the yardstick reads unless told: the search oracle's when there are any."""
    return SEARCH_LABELS_PATH if SEARCH_LABELS_PATH.exists() else LABELS_PATH


#: The shipped bank's parameters.
BANK_SEED = 2029
BANK_GAMES = 125
PER_GAME = 16

#: Bumped when the file's layout changes.
FORMAT = 1


class BankError(ValueError):
    """A bank file that is not a bank, or a position that does not rebuild."""


def bank_seed(bank: int, index: int, purpose: str) -> int:
    """A 63-bit seed for ``purpose`` ("deal", "rebel", "imperial", "positions", an oracle's or
    an agent's label) of game or position ``index`` of the bank seeded ``bank``.

    BLAKE2b of the three, personalised for the bank: nearby inputs give unrelated seeds, and
    the scheme is this module's alone, so the bank does not move when the arena's seeds do.
    """
    text = f"{bank}/{index}/{purpose}".encode()
    digest = hashlib.blake2b(text, digest_size=8, person=b"rebelspace-bank").digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True, slots=True)
class BankGame:
    """One game of the bank: who played it, its deal, the actions played up to its last kept
    position, and the plies (actions before the decision) of its kept positions, ascending."""

    game: int
    deal: int
    agents: tuple[str, str]
    actions: tuple[int, ...]
    plies: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "deal": self.deal,
            "agents": list(self.agents),
            "actions": list(self.actions),
            "plies": list(self.plies),
        }


@dataclass(frozen=True, slots=True)
class Position:
    """Position ``index`` of the bank: the decision after ``actions`` in game ``game``."""

    index: int
    game: int
    deal: int
    actions: tuple[int, ...]  # the actions before the decision

    def state(self, ctx: GameContext | None = None) -> GameState:
        """The position rebuilt through the engine: the deal, then the actions."""
        game = (
            new_game(self.deal, log=False)
            if ctx is None
            else new_game(self.deal, options=ctx.options, cards=ctx.cards, log=False)
        )
        for action in self.actions:
            game.apply(action)
        if game.to_move < 0:
            raise BankError(f"bank position {self.index} (game {self.game}) is a finished game")
        return game


@dataclass(frozen=True, slots=True)
class Bank:
    """A bank's parameters and games; ``positions`` lists its positions in order."""

    seed: int
    per_game: int
    games: tuple[BankGame, ...]

    def positions(self) -> list[Position]:
        """Every kept position, in game order. Position ``k`` of game ``g`` has index
        ``g * per_game + k`` whichever games are present, so that labels and choices kept by
        index stay attached to their positions while a bank is still being played."""
        return [
            Position(g.game * self.per_game + k, g.game, g.deal, g.actions[:ply])
            for g in self.games
            for k, ply in enumerate(g.plies)
        ]


def play_bank_game(bank: int, index: int, per_game: int, ctx: GameContext) -> BankGame:
    """Game ``index`` of the bank seeded ``bank``, played out, and its kept positions."""
    agents = PAIRS[index % len(PAIRS)]
    deal = bank_seed(bank, index, "deal")
    game = new_game(deal, options=ctx.options, cards=ctx.cards, log=False)
    players = [
        bulk_agent(name, ctx, bank_seed(bank, index, side))
        for name, side in zip(agents, SIDE_NAMES, strict=True)
    ]
    actions: list[int] = []
    choices: list[int] = []  # plies with two or more legal actions
    while game.to_move >= 0:
        if len(actions) >= MAX_DECISIONS:
            raise RuntimeError(f"bank game {index} (deal {deal}) is not over")
        legal = game.legal_actions()
        player = game.to_move
        if len(legal) > 1:
            choices.append(len(actions))
        action = players[player].act(game.view(player), legal)
        game.apply(action, player=player)
        actions.append(action)
    pick = random.Random(bank_seed(bank, index, "positions"))
    plies = sorted(pick.sample(choices, min(per_game, len(choices))))
    kept = tuple(actions[: plies[-1]]) if plies else ()
    return BankGame(index, deal, (agents[0], agents[1]), kept, tuple(plies))


def generate(
    bank: int, games: int, per_game: int, ctx: GameContext, start: int = 0
) -> Iterator[BankGame]:
    """Games ``start``.. ``games - 1`` of the bank seeded ``bank``, in order."""
    for index in range(start, games):
        yield play_bank_game(bank, index, per_game, ctx)


def header(bank: int, per_game: int) -> dict[str, Any]:
    return {"format": FORMAT, "bank": bank, "per_game": per_game, "agents": list(BANK_AGENTS)}


def write_bank(path: Path, bank: int, per_game: int, games: Sequence[BankGame]) -> None:
    """The bank as gzip'd JSON lines: a header, then a game a line. Written whole (gzip with no
    time stamp, so the same games give the same bytes)."""
    lines = [json.dumps(header(bank, per_game))] + [
        json.dumps(g.to_json(), separators=(",", ":")) for g in games
    ]
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(gzip.compress(data, mtime=0))


def read_bank(path: Path = BANK_PATH) -> Bank:
    """The bank stored at ``path``, checked for its layout."""
    try:
        lines = gzip.decompress(path.read_bytes()).decode().splitlines()
        head = json.loads(lines[0])
        if head.get("format") != FORMAT:
            raise BankError(f"{path}: bank format {head.get('format')!r}, expected {FORMAT}")
        games = tuple(_game(json.loads(line)) for line in lines[1:])
    except (OSError, EOFError, gzip.BadGzipFile, json.JSONDecodeError, KeyError, IndexError) as exc:
        raise BankError(f"{path}: not a position bank ({exc})") from exc
    return Bank(int(head["bank"]), int(head["per_game"]), games)


def read_partial(path: Path, bank: int, per_game: int) -> Bank:
    """The games kept so far by an unfinished ``generate`` run (plain JSON lines, one game a
    line, as ``BankGame.to_json`` writes them): their positions can be labelled already."""
    games = tuple(_game(json.loads(line)) for line in path.read_text().splitlines() if line)
    return Bank(bank, per_game, games)


def _game(d: dict[str, Any]) -> BankGame:
    return BankGame(
        int(d["game"]),
        int(d["deal"]),
        (str(d["agents"][0]), str(d["agents"][1])),
        tuple(int(a) for a in d["actions"]),
        tuple(int(p) for p in d["plies"]),
    )


def step_name(state: GameState) -> str:
    """The step of the turn ``state`` waits in, by its engine name."""
    return STEP_NAMES[int(state.step)]
