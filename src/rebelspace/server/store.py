"""The server's SQLite store: games and their applied actions, nothing else.

A game is stored as what rebuilds it exactly: its seed, rules options, card data, mode, seats
(token hashes, the computer's agent) and the list of applied action ids. The engine is
deterministic, so replaying the actions gives the same state (``games.Session``).

Every write is its own transaction, committed before the caller acknowledges anything. The
database is in WAL mode with ``synchronous=NORMAL``: a commit survives the server process being
killed (the property the server promises); only a power cut may lose the last commits.
Checkpoints (copying the WAL into the database file, with an fsync) run in a background thread,
so a slow disk never stalls the event loop. Seat tokens are stored as SHA-256 hashes, so a copy
of the database does not give the seats away.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Any

CHECKPOINT_SECONDS = 1.0
WAL_SIZE_LIMIT = 8 * 2**20  # bytes

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    mode TEXT NOT NULL,              -- computer | hotseat | online
    seed INTEGER NOT NULL,
    rules TEXT NOT NULL,             -- RulesOptions.to_dict() as JSON
    cards TEXT NOT NULL,             -- CardDB.to_data() as JSON
    agent TEXT,                      -- the computer's agent spec, e.g. "ismcts:normal"
    computer_seat INTEGER,           -- 0 Rebel, 1 Imperial, NULL: no computer
    creator_seat INTEGER NOT NULL,
    invite TEXT,                     -- online games: the code that takes the other seat
    token0 TEXT,                     -- SHA-256 of the Rebel seat's token (NULL: seat open)
    token1 TEXT,                     -- SHA-256 of the Imperial seat's token
    winner INTEGER                   -- set once the game is over
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,            -- 0, 1, ...: the action's place in the game's history
    action INTEGER NOT NULL,         -- engine action id
    seat INTEGER NOT NULL,           -- who decided (0 Rebel, 1 Imperial)
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
"""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class GameRow:
    id: str
    mode: str
    seed: int
    rules: dict[str, Any]
    cards: str  # JSON text, kept as text so identical card lists are recognised cheaply
    agent: str | None
    computer_seat: int | None
    creator_seat: int
    invite: str | None
    token_hashes: tuple[str | None, str | None]
    winner: int | None


class Store:
    """One SQLite connection shared by the server's event loop (calls are short and serial)."""

    def __init__(self, path: str) -> None:
        self.path = path
        # check_same_thread=False with our own lock: the event loop thread does the writes,
        # but nothing stops a test or a tool from calling from another thread.
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        # A commit in WAL mode with synchronous=NORMAL only appends to the WAL file; the
        # checkpoint that copies the WAL into the database fsyncs, which on a busy disk can
        # take long. So the writer (on the event loop) never checkpoints, and this thread
        # does, on its own connection (PASSIVE: it never blocks the writer).
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        # Once checkpointed, the WAL file is cut back to this size instead of keeping its peak.
        self._db.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoints, name="sqlite-checkpoint", daemon=True
        )
        self._checkpointer.start()

    def _checkpoints(self, every: float = CHECKPOINT_SECONDS) -> None:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            while not self._stop.wait(every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:
                    continue  # busy or locked: the next round tries again
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            db.close()

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(timeout=10)
        with self._lock:
            self._db.close()

    def create_game(
        self,
        *,
        game_id: str,
        mode: str,
        seed: int,
        rules: dict[str, Any],
        cards: str,
        agent: str | None,
        computer_seat: int | None,
        creator_seat: int,
        invite: str | None,
        token_hashes: tuple[str | None, str | None],
    ) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, created, mode, seed, rules, cards, agent, computer_seat,"
                " creator_seat, invite, token0, token1) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    game_id,
                    time.time(),
                    mode,
                    seed,
                    json.dumps(rules),
                    cards,
                    agent,
                    computer_seat,
                    creator_seat,
                    invite,
                    *token_hashes,
                ),
            )

    def load_game(self, game_id: str) -> tuple[GameRow, list[tuple[int, int]]] | None:
        """The game's row and its actions as (action id, seat) in order, or None."""
        with self._lock:
            row = self._db.execute(
                "SELECT id, mode, seed, rules, cards, agent, computer_seat, creator_seat, invite,"
                " token0, token1, winner FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            actions = self._db.execute(
                "SELECT action, seat FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
        game = GameRow(
            id=row[0],
            mode=row[1],
            seed=row[2],
            rules=json.loads(row[3]),
            cards=row[4],
            agent=row[5],
            computer_seat=row[6],
            creator_seat=row[7],
            invite=row[8],
            token_hashes=(row[9], row[10]),
            winner=row[11],
        )
        return game, [(a, s) for a, s in actions]

    def add_action(
        self, game_id: str, ply: int, action: int, seat: int, winner: int | None
    ) -> None:
        """Append one applied action (and the result, if it ended the game) in one transaction.

        The primary key (game, ply) refuses a second action at the same ply, so two writers
        racing on one game cannot both append."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.execute(
                    "INSERT INTO actions (game_id, ply, action, seat) VALUES (?,?,?,?)",
                    (game_id, ply, action, seat),
                )
                if winner is not None:
                    self._db.execute("UPDATE games SET winner = ? WHERE id = ?", (winner, game_id))
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def truncate(self, game_id: str, plies: int) -> None:
        """Undo: keep only the first ``plies`` actions."""
        with self._lock:
            self._db.execute("DELETE FROM actions WHERE game_id = ? AND ply >= ?", (game_id, plies))

    def take_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Fill an open seat; False if it was already taken (checked in the same statement)."""
        column = ("token0", "token1")[seat]
        with self._lock:
            cur = self._db.execute(
                f"UPDATE games SET {column} = ? WHERE id = ? AND {column} IS NULL",
                (token_hash, game_id),
            )
        return cur.rowcount == 1

    def count_games(self) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(n)
