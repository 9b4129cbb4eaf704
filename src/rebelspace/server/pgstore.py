"""The server's PostgreSQL store (``serve --db postgresql://...``): the same tables, the same
statements and the same promises as the SQLite store (``store.Store``, whose methods it
inherits): every write is one transaction, committed before anything is acknowledged, and a
write that changes a game checks its ``version`` and bumps it in that transaction. Under
PostgreSQL's default isolation (read committed) a second writer's ``UPDATE ... WHERE version =
?`` waits for the first to commit and then finds the version moved on, so of two processes
writing the same game at the same version exactly one succeeds (``StaleVersionError`` for the
other), which is what lets several server processes share one database.

psycopg 3 with its connection pool (``psycopg_pool``) rather than asyncpg: the store's callers
are synchronous (each request's check, engine step and write run with no ``await`` between
them, ``games.py``), as with SQLite, and the pool replaces a connection broken by a database
restart instead of failing every later request.

Schema versions are the SQLite store's numbers (``SCHEMA_VERSION``), kept in a one-row table
``schema_version``; ``MIGRATIONS`` take a database from each version to the next, under an
advisory lock so that processes starting at once migrate it once.

One server process per database, for now, as with SQLite: a process caches its games and is
not yet told of another's writes, so it holds a session advisory lock (``SERVE_LOCK``) on a
connection of its own for its life, and a second process refuses to start
(``DatabaseInUseError``). PostgreSQL drops the lock when that connection ends, so a process
that dies (kill -9 included) leaves none behind.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .store import SCHEMA_VERSION, DatabaseInUseError, Store

try:
    import psycopg
    from psycopg_pool import ConnectionPool
except ModuleNotFoundError as e:  # without the server extra: its one-line hint
    from rebelspace.extras import raise_missing

    raise_missing("rebelspace.server.pgstore", e)

MIGRATE_LOCK = 0x52EB5  # pg_advisory_xact_lock key of schema migrations
SERVE_LOCK = 0x52EB6  # pg_advisory_lock key held by the one process serving the database

# The SQLite tables in PostgreSQL's types: seeds need 64 bits, times are seconds as doubles.
TABLES = (
    """CREATE TABLE games (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    mode TEXT NOT NULL,
    seed BIGINT NOT NULL,
    rules TEXT NOT NULL,
    cards TEXT NOT NULL,
    agent TEXT,
    computer_seat INTEGER,
    creator_seat INTEGER NOT NULL,
    invite TEXT,
    token0 TEXT,
    token1 TEXT,
    winner INTEGER,
    version BIGINT NOT NULL DEFAULT 0,
    active DOUBLE PRECISION NOT NULL DEFAULT 0,
    undo_seat INTEGER,
    undo_keep INTEGER,
    reason TEXT,
    clock_initial INTEGER,
    clock_increment INTEGER,
    clock0_ms BIGINT,
    clock1_ms BIGINT,
    rematch_seat INTEGER,
    rematch_id TEXT
)""",
    """CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    ply INTEGER NOT NULL,
    action INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
)""",
    """CREATE TABLE cardlists (
    hash TEXT PRIMARY KEY,
    cards TEXT NOT NULL
)""",
    "CREATE INDEX games_idle ON games (active) WHERE winner IS NULL",
    "CREATE INDEX games_token0 ON games (token0)",
    "CREATE INDEX games_token1 ON games (token1)",
)

# version -> the statements that bring a database at the version before it up to it. The first
# PostgreSQL schema is SQLite's version 3; a later change adds its step here and in store.py.
MIGRATIONS: dict[int, tuple[str, ...]] = {SCHEMA_VERSION: TABLES}


class _Connection:
    """A psycopg connection that takes the SQLite store's statements: ``?`` placeholders."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, args: Any = ()) -> psycopg.Cursor[Any]:
        return self._conn.execute(sql.replace("?", "%s"), tuple(args))


class PgStore(Store):
    """A pool of connections to one PostgreSQL database; calls are serialised by a lock, as
    the SQLite store's (the event loop makes them one at a time anyway)."""

    def __init__(self, url: str, *, pool_size: int = 2) -> None:
        self.path = url
        self._lock_fd = None  # the lock is the database's own (SERVE_LOCK), not a file
        self._lock = threading.Lock()
        self._holder = psycopg.connect(url, autocommit=True)
        row = self._holder.execute("SELECT pg_try_advisory_lock(%s)", (SERVE_LOCK,)).fetchone()
        mine = row is not None and bool(row[0])
        if not mine:
            self._holder.close()
            raise DatabaseInUseError(
                f"{redact(url)} is in use by another server process: a database serves one "
                "process for now; stop that one or give this one another --db"
            )
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True},  # transactions are explicit: conn.transaction()
            open=False,
        )
        self._pool.open(wait=True, timeout=30)
        self._db: Any = None  # the connection of the call in progress (under the lock)
        self._upgrade()

    @contextlib.contextmanager
    def _connected(self, transaction: bool) -> Iterator[None]:
        with self._lock, self._pool.connection() as conn:
            self._db = _Connection(conn)
            try:
                if transaction:
                    with conn.transaction():
                        yield
                else:
                    yield
            finally:
                self._db = None

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._connected(transaction=True):
            yield

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        with self._connected(transaction=False):
            yield

    def _upgrade(self) -> None:
        with self._transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATE_LOCK,))
            self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            row = self._db.execute("SELECT version FROM schema_version").fetchone()
            version = 0 if row is None else int(row[0])
            for step in sorted(MIGRATIONS):
                if step > version:
                    for statement in MIGRATIONS[step]:
                        self._db.execute(statement)
            if row is None:
                self._db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))
            elif version < SCHEMA_VERSION:
                self._db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    def schema_version(self) -> int:
        with self._reading():
            (version,) = self._db.execute("SELECT version FROM schema_version").fetchone()
        return int(version)

    def close(self) -> None:
        with self._lock:
            self._pool.close()
            self._holder.close()  # the serve lock goes with it


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":<redacted>@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
