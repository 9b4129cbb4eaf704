"""The server's SQLite store: games, their applied actions and card lists, nothing else.

Over 500 lines: one SQLite schema with its migrations and the queries on it, kept together so a
migration and the queries it changes are read side by side (pgstore.py is PostgreSQL's).

A game is stored as what rebuilds it exactly: its seed, rules options, card data, mode, seats
(token hashes, the computer's agent) and the list of applied action ids. The engine is
deterministic, so replaying the actions gives the same state (``games.Session``). Card lists
are stored once per distinct content, by hash: every game of a server usually shares one.

Every write is its own transaction, committed before the caller acknowledges anything. A
game's ``version`` counts its changes (actions and undos) and never goes down; every write that
changes the game checks it and bumps it in the same transaction, so an action chosen at an
older version can never be written (``StaleVersionError``). The database is in WAL mode with
``synchronous=NORMAL``: a commit survives the server process being killed (the property the
server promises); only a power cut may lose the last commits. Checkpoints (copying the WAL
into the database file, with an fsync) run in a background thread, so a slow disk never stalls
the event loop. Seat tokens are stored as SHA-256 hashes, so a copy of the database does not
give the seats away.

One process at a time: a server caches its games in memory and never reads back what another
process wrote, so a second process on the same file would serve stale games. ``Store`` holds an
exclusive ``flock`` on ``<file>.lock`` for its life and refuses to open a file another process
holds (``DatabaseInUseError``). The kernel drops the lock when the process ends in any way
(kill -9 included), so there is no stale lock to clean up, unlike a heartbeat row.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Any

CHECKPOINT_SECONDS = 1.0
WAL_SIZE_LIMIT = 8 * 2**20  # bytes
SWEEP_BATCH = 500  # games deleted per transaction, so a sweep never holds the writer long

SCHEMA_VERSION = 3  # PRAGMA user_version; 0: the first server's, 2: before issue 13 (migrated)

TABLES = (
    """CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    mode TEXT NOT NULL,              -- computer | hotseat | online
    seed INTEGER NOT NULL,
    rules TEXT NOT NULL,             -- RulesOptions.to_dict() as JSON
    cards TEXT NOT NULL,             -- the card list's hash (cardlists.hash)
    agent TEXT,                      -- the computer's agent spec, e.g. "ismcts:normal"
    computer_seat INTEGER,           -- 0 Rebel, 1 Imperial, NULL: no computer
    creator_seat INTEGER NOT NULL,
    invite TEXT,                     -- online games: the code that takes the other seat
    token0 TEXT,                     -- SHA-256 of the Rebel seat's token (NULL: seat open)
    token1 TEXT,                     -- SHA-256 of the Imperial seat's token
    winner INTEGER,                  -- set once the game is over
    version INTEGER NOT NULL DEFAULT 0,  -- changes so far (actions and undos); never goes down
    active REAL NOT NULL DEFAULT 0,  -- time of the last change, join or undo request
    undo_seat INTEGER,               -- a pending undo request: who asked (NULL: none)
    undo_keep INTEGER,               -- and the plies kept if it is accepted
    reason TEXT,                     -- how it ended if not by the rules: resign|time|abandoned
    clock_initial INTEGER,           -- seconds (NULL: no clock)
    clock_increment INTEGER,         -- seconds added after each decision
    clock0_ms INTEGER,               -- the Rebel's time left at the last stored change
    clock1_ms INTEGER,               -- the Imperial's
    rematch_seat INTEGER,            -- the seat offering a rematch (NULL: none)
    rematch_id TEXT                  -- the rematch game, once it exists
)""",
    """CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,            -- 0, 1, ...: the action's place in the game's history
    action INTEGER NOT NULL,         -- engine action id
    seat INTEGER NOT NULL,           -- who decided (0 Rebel, 1 Imperial)
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID""",
    """CREATE TABLE cardlists (
    hash TEXT PRIMARY KEY,           -- SHA-256 of the text
    cards TEXT NOT NULL              -- CardDB.to_data() as JSON
) WITHOUT ROWID""",
    "CREATE INDEX games_idle ON games (active) WHERE winner IS NULL",
    # A player's games, by seat token hash (POST /api/games/mine)
    "CREATE INDEX games_token0 ON games (token0)",
    "CREATE INDEX games_token1 ON games (token1)",
)

# From user_version 2 (before issue 13): results other than the rules', clocks, rematches.
MIGRATE_FROM_2 = (
    "ALTER TABLE games ADD COLUMN reason TEXT",
    "ALTER TABLE games ADD COLUMN clock_initial INTEGER",
    "ALTER TABLE games ADD COLUMN clock_increment INTEGER",
    "ALTER TABLE games ADD COLUMN clock0_ms INTEGER",
    "ALTER TABLE games ADD COLUMN clock1_ms INTEGER",
    "ALTER TABLE games ADD COLUMN rematch_seat INTEGER",
    "ALTER TABLE games ADD COLUMN rematch_id TEXT",
    TABLES[4],
    TABLES[5],
)

# From the first server's database (user_version 0): the same games and actions, each game's
# card list moved to cardlists, its version the number of its actions.
MIGRATE_FROM_0 = (
    "ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN active REAL NOT NULL DEFAULT 0",
    "ALTER TABLE games ADD COLUMN undo_seat INTEGER",
    "ALTER TABLE games ADD COLUMN undo_keep INTEGER",
    TABLES[2],
    TABLES[3],
    "INSERT OR IGNORE INTO cardlists (hash, cards) SELECT sha256(cards), cards FROM games",
    "UPDATE games SET cards = sha256(cards), active = created,"
    " version = (SELECT COUNT(*) FROM actions WHERE actions.game_id = games.id)",
)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def is_postgres(db: str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a URL) rather than a SQLite file."""
    return db.startswith(("postgresql://", "postgres://"))


def open_store(db: str) -> Store:
    """The store of ``--db``: PostgreSQL for a ``postgresql://`` URL (``pgstore``, the server
    extra's psycopg), else the SQLite file."""
    if is_postgres(db):
        from .pgstore import PgStore

        return PgStore(db)
    return Store(db)


class DatabaseInUseError(Exception):
    """The SQLite file is held by another open store (another server process)."""


def lock_database(path: str) -> int | None:
    """Take the exclusive lock of the database at ``path`` (its ``<path>.lock`` file, which
    holds the owner's pid for the message); returns the lock's descriptor, to keep open for
    as long as the database is used. None for an in-memory database (nobody can share it).
    A separate file rather than the database itself: SQLite's own locks on the database are
    fcntl locks, which flock must not be mixed with on some systems."""
    if path == ":memory:" or path.startswith("file::memory:"):
        return None
    lock_path = f"{path}.lock"
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        owner = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        raise DatabaseInUseError(
            f"{path} is in use by another server process (pid {owner}): a SQLite database "
            "serves one process; stop that one, give this one another --db file, or run "
            "several processes on PostgreSQL (--db postgresql://...)"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


class StaleVersionError(Exception):
    """A write chosen at a version of the game that is no longer its version."""

    def __init__(self, version: int) -> None:
        super().__init__(f"the game is at version {version}")
        self.version = version


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
    clock: tuple[int, int] | None = None  # (initial, increment) in seconds; None: no clock


@dataclass(frozen=True, slots=True)
class StoredGame:
    row: GameRow
    actions: list[tuple[int, int]]  # (action id, seat) in order
    version: int
    undo: tuple[int, int] | None  # a pending undo request: (seat that asked, plies kept)
    reason: str | None = None  # resign | time | abandoned: how it ended, if not by the rules
    clock_ms: tuple[int, int] | None = None  # each side's time left at the last stored change
    rematch: tuple[int | None, str | None] = (None, None)  # (seat offering, rematch game id)


@dataclass(frozen=True, slots=True)
class MyGame:
    """One seat of a stored game, as ``POST /api/games/mine`` lists it."""

    id: str
    seat: int
    mode: str
    created: float
    active: float
    winner: int | None
    reason: str | None
    agent: str | None
    computer_seat: int | None
    plies: int


def clock_sets(clock_ms: tuple[int, int] | None) -> tuple[str, ...]:
    return () if clock_ms is None else ("clock0_ms = ?", "clock1_ms = ?")


class Store:
    """One SQLite connection shared by the server's event loop (calls are short and serial)."""

    # Whether other processes may write this database (PostgreSQL): then a cached game is
    # checked against the database before use and the computer's turns are owned by one
    # process at a time (computer_turns.py). A SQLite file has one process (its flock), so never.
    shared = False
    _bumped = ""  # what a version bump's UPDATE also does (PostgreSQL: tell the others)

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock_fd = lock_database(path)  # DatabaseInUseError: another process has it
        # check_same_thread=False with our own lock: the event loop thread does the writes,
        # but nothing stops a test or a tool from calling from another thread.
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.create_function("sha256", 1, hash_text, deterministic=True)
        self._upgrade()
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

    def _upgrade(self) -> None:
        """Create the tables, or bring an older server's database up to date (its games kept)."""
        with self._transaction():
            (version,) = self._db.execute("PRAGMA user_version").fetchone()
            if version >= SCHEMA_VERSION:
                return
            exists = self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"
            ).fetchone()
            if not exists:
                statements: tuple[str, ...] = TABLES
            else:
                statements = (MIGRATE_FROM_0 if version < 2 else ()) + MIGRATE_FROM_2
            for statement in statements:
                self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """The store's lock and one write transaction (IMMEDIATE: the write lock is taken at
        once), committed at the end, or rolled back if anything raised."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """The store's lock, for reads (SQLite: the one connection, no transaction needed)."""
        with self._lock:
            yield

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
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # the lock goes with the descriptor
            self._lock_fd = None

    # --- games

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
        clock: tuple[int, int] | None = None,
        rematch_of: tuple[str, int] | None = None,
    ) -> None:
        """A new game. ``rematch_of`` (game id, version): this game is that game's rematch,
        recorded there (its version checked and bumped) in the same transaction."""
        now = time.time()
        digest = hash_text(cards)
        initial, increment = clock if clock is not None else (None, None)
        ms = None if initial is None else initial * 1000
        with self._transaction():
            if rematch_of is not None:
                old_id, old_version = rematch_of
                self._bump(
                    old_id, old_version, "rematch_id = ?", "rematch_seat = NULL", args=(game_id,)
                )
            self._db.execute(
                "INSERT INTO cardlists (hash, cards) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (digest, cards),
            )
            self._db.execute(
                "INSERT INTO games (id, created, mode, seed, rules, cards, agent, computer_seat,"
                " creator_seat, invite, token0, token1, active, clock_initial, clock_increment,"
                " clock0_ms, clock1_ms)"
                " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    game_id,
                    now,
                    mode,
                    seed,
                    json.dumps(rules),
                    digest,
                    agent,
                    computer_seat,
                    creator_seat,
                    invite,
                    *token_hashes,
                    now,
                    initial,
                    increment,
                    ms,
                    ms,
                ),
            )

    def load_game(self, game_id: str, cards: str | None = None) -> StoredGame | None:  # noqa: ARG002
        """The game as stored, or None (``cards``: PgStore's, the card list known already)."""
        with self._reading():
            row = self._db.execute(
                "SELECT g.id, g.mode, g.seed, g.rules, c.cards, g.agent, g.computer_seat,"
                " g.creator_seat, g.invite, g.token0, g.token1, g.winner, g.version,"
                " g.undo_seat, g.undo_keep, g.reason, g.clock_initial, g.clock_increment,"
                " g.clock0_ms, g.clock1_ms, g.rematch_seat, g.rematch_id"
                " FROM games g JOIN cardlists c ON c.hash = g.cards WHERE g.id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            actions = self._db.execute(
                "SELECT action, seat FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
        return self._stored(row, [(a, s) for a, s in actions])

    @staticmethod
    def _stored(row: Any, actions: list[tuple[int, int]]) -> StoredGame:
        """A game from its row (load_game's columns) and its actions."""
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
            clock=None if row[16] is None else (int(row[16]), int(row[17])),
        )
        undo = None if row[13] is None else (int(row[13]), int(row[14]))
        return StoredGame(
            game,
            actions,
            int(row[12]),
            undo,
            reason=row[15],
            clock_ms=None if row[16] is None else (int(row[18]), int(row[19])),
            rematch=(row[20], row[21]),
        )

    def _bump(self, game_id: str, version: int, *sets: str, args: tuple[Any, ...] = ()) -> None:
        """Inside a transaction: version + 1 if the game is at ``version``, else refuse."""
        assignments = ", ".join(("version = version + 1", "active = ?", *sets))
        cur = self._db.execute(
            f"UPDATE games SET {assignments} WHERE id = ? AND version = ?{self._bumped}",
            (time.time(), *args, game_id, version),
        )
        if cur.rowcount != 1:
            row = self._db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
            raise StaleVersionError(-1 if row is None else int(row[0]))

    def add_action(
        self,
        game_id: str,
        version: int,
        ply: int,
        action: int,
        seat: int,
        winner: int | None,
        *,
        clock_ms: tuple[int, int] | None = None,
    ) -> None:
        """Append one applied action chosen at ``version`` (and the result, if it ended the
        game, and the clocks after it), clearing any undo request, in one transaction;
        ``StaleVersionError`` and nothing written if the game is no longer at that version."""
        with self._transaction():
            self._bump(
                game_id,
                version,
                "winner = ?",
                "undo_seat = NULL",
                "undo_keep = NULL",
                *clock_sets(clock_ms),
                args=(winner, *(clock_ms or ())),
            )
            self._db.execute(
                "INSERT INTO actions (game_id, ply, action, seat) VALUES (?,?,?,?)",
                (game_id, ply, action, seat),
            )

    def truncate(
        self, game_id: str, version: int, plies: int, clock_ms: tuple[int, int] | None = None
    ) -> None:
        """Undo at ``version``: keep only the first ``plies`` actions (one transaction)."""
        with self._transaction():
            self._bump(
                game_id,
                version,
                "undo_seat = NULL",
                "undo_keep = NULL",
                *clock_sets(clock_ms),
                args=tuple(clock_ms or ()),
            )
            self._db.execute("DELETE FROM actions WHERE game_id = ? AND ply >= ?", (game_id, plies))

    def end_game(
        self,
        game_id: str,
        version: int,
        winner: int | None,
        reason: str,
        clock_ms: tuple[int, int] | None = None,
    ) -> None:
        """End an unfinished game at ``version`` otherwise than by the rules (resign, time,
        abandoned), clearing any undo request."""
        with self._transaction():
            self._bump(
                game_id,
                version,
                "winner = ?",
                "reason = ?",
                "undo_seat = NULL",
                "undo_keep = NULL",
                *clock_sets(clock_ms),
                args=(winner, reason, *(clock_ms or ())),
            )

    def set_rematch_offer(self, game_id: str, version: int, seat: int | None) -> None:
        """A finished game's rematch offer (the seat offering; None: withdrawn, declined)."""
        with self._transaction():
            self._bump(game_id, version, "rematch_seat = ?", args=(seat,))

    def game_stamp(self, game_id: str) -> tuple[int, bool, bool] | None:
        """What tells whether a cached copy of the game is current: its version and which
        seats are taken (taking a seat does not bump the version); None: no such game."""
        with self._reading():
            row = self._db.execute(
                "SELECT version, token0 IS NOT NULL, token1 IS NOT NULL FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        return None if row is None else (int(row[0]), bool(row[1]), bool(row[2]))

    def own_computer(self, game_id: str) -> bool:  # noqa: ARG002 (PgStore's uses it)
        """Take the right to make the game's computer moves (True: this process has it). One
        process per SQLite file: always."""
        return True

    def release_computer(self, game_id: str) -> None:  # noqa: ARG002
        """Give back what ``own_computer`` took."""

    def set_presence(self, entries: list[tuple[str, int, bool]], *, notify: bool) -> None:
        """Seats' presence for other processes (PostgreSQL); one process per SQLite file."""

    def presence_of(self, game_ids: list[str]) -> dict[str, dict[int, tuple[bool, float]]]:  # noqa: ARG002
        """Seats' presence in other processes: none with SQLite."""
        return {}

    def games_of(self, token_hashes: Collection[str]) -> list[MyGame]:
        """The seats the token hashes open, newest activity first."""
        hashes = sorted(set(token_hashes))
        if not hashes:
            return []
        marks = ",".join("?" * len(hashes))
        with self._reading():
            rows = self._db.execute(
                "SELECT g.id, 0, g.mode, g.created,"
                " g.active, g.winner, g.reason, g.agent, g.computer_seat,"
                " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
                f" FROM games g WHERE g.token0 IN ({marks})"
                " UNION ALL "
                "SELECT g.id, 1, g.mode, g.created, g.active, g.winner, g.reason, g.agent,"
                " g.computer_seat, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
                f" FROM games g WHERE g.token1 IN ({marks})"
                " ORDER BY 5 DESC, 4 DESC, 1",
                (*hashes, *hashes),
            ).fetchall()
        return [MyGame(*row) for row in rows]

    def clocked_games(self) -> list[str]:
        """Unfinished games with a clock and both seats taken: their clocks run (a restarted
        server loads them at once, so a flag still falls when nobody asks for the game)."""
        with self._reading():
            rows = self._db.execute(
                "SELECT id FROM games WHERE winner IS NULL AND clock_initial IS NOT NULL"
                " AND token0 IS NOT NULL AND token1 IS NOT NULL"
            ).fetchall()
        return [gid for (gid,) in rows]

    def set_undo(self, game_id: str, version: int, request: tuple[int, int] | None) -> None:
        """Store a pending undo request (seat that asked, plies kept), or clear it (None), at
        ``version``: the state message shows it, so it bumps the version like any change."""
        seat, keep = request if request is not None else (None, None)
        with self._transaction():
            self._bump(game_id, version, "undo_seat = ?", "undo_keep = ?", args=(seat, keep))

    def take_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        """Fill an open seat; False if it was already taken (checked in the same statement)."""
        column = ("token0", "token1")[seat]
        with self._transaction():
            cur = self._db.execute(
                f"UPDATE games SET {column} = ?, active = ? WHERE id = ? AND {column} IS NULL",
                (token_hash, time.time(), game_id),
            )
        return cur.rowcount == 1

    def sweep(self, idle_before: float, keep: Collection[str] = ()) -> list[str]:
        """Delete the unfinished games with no activity since ``idle_before`` (a time.time()),
        except those in ``keep``, and the card lists no game uses any more. Finished games are
        kept for good. Returns the ids deleted."""
        deleted: list[str] = []
        while True:
            with self._transaction():
                ids = [
                    gid
                    for (gid,) in self._db.execute(
                        "SELECT id FROM games WHERE winner IS NULL AND active < ? LIMIT ?",
                        (idle_before, SWEEP_BATCH + len(keep)),
                    )
                    if gid not in keep
                ][:SWEEP_BATCH]
                if ids:  # "IN ()" is not SQL everywhere (PostgreSQL refuses it)
                    marks = ",".join("?" * len(ids))
                    self._db.execute(f"DELETE FROM actions WHERE game_id IN ({marks})", ids)
                    self._db.execute(f"DELETE FROM games WHERE id IN ({marks})", ids)
            deleted += ids
            if len(ids) < SWEEP_BATCH:
                break
        with self._transaction():
            self._db.execute(
                "DELETE FROM cardlists WHERE hash NOT IN (SELECT DISTINCT cards FROM games)"
            )
        return deleted

    def count_games(self) -> int:
        with self._reading():
            (n,) = self._db.execute("SELECT COUNT(*) FROM games").fetchone()
        return int(n)

    def count_cardlists(self) -> int:
        with self._reading():
            (n,) = self._db.execute("SELECT COUNT(*) FROM cardlists").fetchone()
        return int(n)
