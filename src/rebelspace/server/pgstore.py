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

Several server processes may share one database (README, "Several server processes"):
every write that bumps a game's version also sends ``NOTIFY rebelspace, '<game id> <version>'``
in its transaction (PostgreSQL delivers it at commit, never for a rolled-back write), as does
taking a seat, so each process's listener (``notify.py``) refreshes its copy of the game and
pushes the change to its WebSocket clients. A process's computer turns are owned through
session advisory locks held on a connection of its own (``own_computer``): PostgreSQL drops
them when that connection ends, so when a process dies (kill -9 included) another one takes
its games' computer turns over.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Collection, Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .store import SCHEMA_VERSION, StaleVersionError, Store, StoredGame, clock_sets

try:
    import psycopg
    from psycopg_pool import ConnectionPool
except ModuleNotFoundError as e:  # without the server extra: its one-line hint
    from rebelspace.extras import raise_missing

    raise_missing("rebelspace.server.pgstore", e)

MIGRATE_LOCK = 0x52EB5  # pg_advisory_xact_lock key of schema migrations
COMPUTER_LOCKS = 0x52EB7  # pg_try_advisory_lock(COMPUTER_LOCKS, hashtext(game id)): its owner
CHANNEL = "rebelspace"  # LISTEN/NOTIFY channel of game changes: "<game id> <version>"

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

# Which process has each seat of a game connected or saw its last request (several processes:
# claims and the ``connected`` flags count every process's). ``backend`` is the process's
# holder connection (pg_backend_pid): a row whose backend is gone is a dead process's.
PRESENCE = """CREATE TABLE IF NOT EXISTS presence (
    game_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    backend INTEGER NOT NULL,
    connected BOOLEAN NOT NULL,      -- a WebSocket of the seat open in that process
    seen DOUBLE PRECISION NOT NULL,  -- time.time() of the seat's last request or heartbeat there
    PRIMARY KEY (game_id, seat, backend)
)"""

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

    shared = True  # other processes write it too

    def __init__(self, url: str, *, pool_size: int = 2) -> None:
        self.path = url
        self._lock_fd = None  # no lock file: several processes may serve the database
        self._lock = threading.Lock()
        # The computer-turn locks live on this connection: they go when the process does.
        self._holder = psycopg.connect(url, autocommit=True)
        self.backend = self._backend_pid()
        self._owned: dict[str, int] = {}  # game id -> times own_computer took it (re-entrant)
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
        """Reads of one statement each (load_game is one), so no transaction is needed."""
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
            # PostgreSQL's alone (SQLite has one process), so outside the shared versions.
            self._db.execute(PRESENCE)

    # The bump tells every process in the same statement (no round trip of its own): the
    # notification goes at commit, with the version written.
    _bumped = f" RETURNING pg_notify('{CHANNEL}', id || ' ' || version)"

    def load_game(self, game_id: str, cards: str | None = None) -> StoredGame | None:
        """One statement, so one snapshot: never a row and actions torn apart by another
        process's write between two reads (read committed gives each statement its own).
        ``cards``: the game's card list, already known (a refresh): not read again."""
        join = "" if cards is not None else " JOIN cardlists c ON c.hash = g.cards"
        with self._connected(transaction=False):
            row = self._db.execute(
                "SELECT g.id, g.mode, g.seed, g.rules,"
                f" {'NULL' if cards is not None else 'c.cards'}, g.agent, g.computer_seat,"
                " g.creator_seat, g.invite, g.token0, g.token1, g.winner, g.version,"
                " g.undo_seat, g.undo_keep, g.reason, g.clock_initial, g.clock_increment,"
                " g.clock0_ms, g.clock1_ms, g.rematch_seat, g.rematch_id,"
                " ARRAY(SELECT a.action FROM actions a WHERE a.game_id = g.id ORDER BY a.ply),"
                " ARRAY(SELECT a.seat FROM actions a WHERE a.game_id = g.id ORDER BY a.ply)"
                f" FROM games g{join} WHERE g.id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            return None
        if cards is not None:  # a game's card list never changes
            row = (*row[:4], cards, *row[5:])
        return self._stored(row, list(zip(row[22], row[23], strict=True)))

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
        """The SQLite store's two statements in one (a data-modifying CTE; autocommit makes
        it one transaction): one round trip instead of four (BEGIN, UPDATE, INSERT, COMMIT),
        on the event loop of every action. Its notification carries the action itself
        (``"<id> <version> action <ply> <action> <seat>"``), so that another process holding
        the game at the version before applies it without reading the database (``GameServer
        .on_change``). No row bumped: nothing inserted, and ``StaleVersionError``."""
        sets = ", ".join(
            ("version = version + 1", "active = ?", "winner = ?", "undo_seat = NULL",
             "undo_keep = NULL", *clock_sets(clock_ms))
        )  # fmt: skip
        note = f"id || ' ' || version || ' action {int(ply)} {int(action)} {int(seat)}'"
        with self._reading():
            row = self._db.execute(
                f"WITH bumped AS (UPDATE games SET {sets} WHERE id = ? AND version = ?"
                f" RETURNING id, pg_notify('{CHANNEL}', {note})),"
                " added AS (INSERT INTO actions (game_id, ply, action, seat)"
                " SELECT id, ?, ?, ? FROM bumped RETURNING 1)"
                " SELECT count(*) FROM added",
                (time.time(), winner, *(clock_ms or ()), game_id, version, ply, action, seat),
            ).fetchone()
            if row is None or int(row[0]) != 1:
                current = self._db.execute(
                    "SELECT version FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                raise StaleVersionError(-1 if current is None else int(current[0]))

    def _notify(self, game_id: str, version: int, extra: str = "") -> None:
        """Inside the write's transaction: tell every process of the change (at commit)."""
        self._db.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id} {version}{extra}"))

    def take_seat(self, game_id: str, seat: int, token_hash: str) -> bool:
        column = ("token0", "token1")[seat]
        with self._transaction():
            row = self._db.execute(
                f"UPDATE games SET {column} = ?, active = ? WHERE id = ? AND {column} IS NULL"
                " RETURNING version",
                (token_hash, time.time(), game_id),
            ).fetchone()
            if row is not None:
                self._notify(game_id, int(row[0]), " seat")
        return row is not None

    def _backend_pid(self) -> int:
        row = self._holder.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        return int(row[0])

    def set_presence(self, entries: list[tuple[str, int, bool]], *, notify: bool) -> None:
        """This process's presence of seats: (game id, seat, connected here), seen now; with
        ``notify``, the other processes holding those games are told (a connection opened or
        closed), else they read it when they need it (a claim, their heartbeat)."""
        if not entries:
            return
        games, seats, connected = (list(column) for column in zip(*entries, strict=True))
        # One statement for all (a heartbeat may carry hundreds of seats), its notifications
        # in it: one round trip (autocommit makes it one transaction).
        told = (
            ", told AS (SELECT pg_notify(?, g || ' 0 presence')"
            " FROM (SELECT DISTINCT game_id AS g FROM written) AS w)"
            if notify
            else ""
        )
        with self._reading():
            self._db.execute(
                "WITH written AS (INSERT INTO presence (game_id, seat, backend, connected, seen)"
                " SELECT g, s, ?, c, ? FROM unnest(?::text[], ?::int[], ?::bool[]) AS t(g, s, c)"
                " ON CONFLICT (game_id, seat, backend)"
                " DO UPDATE SET connected = EXCLUDED.connected, seen = EXCLUDED.seen"
                # A CTE that only reads runs if used: the count makes the notifications go.
                f" RETURNING game_id){told} SELECT {'count(*) FROM told' if notify else '1'}",
                (
                    self.backend,
                    time.time(),
                    games,
                    seats,
                    connected,
                    *((CHANNEL,) if notify else ()),
                ),
            )

    def presence_of(self, game_ids: list[str]) -> dict[str, dict[int, tuple[bool, float]]]:
        """The seats' presence in the other live processes: game id -> seat -> (connected in
        one of them, last seen in any, time.time()). A dead process's rows say when it last
        saw the seat (its heartbeat), never that it is connected."""
        if not game_ids:
            return {}
        with self._connected(transaction=False):
            rows = self._db.execute(
                "SELECT p.game_id, p.seat, bool_or(p.connected AND a.pid IS NOT NULL),"
                " max(p.seen) FROM presence p LEFT JOIN pg_stat_activity a ON a.pid = p.backend"
                " WHERE p.game_id = ANY(?) AND p.backend <> ? GROUP BY p.game_id, p.seat",
                (list(game_ids), self.backend),
            ).fetchall()
        out: dict[str, dict[int, tuple[bool, float]]] = {}
        for game_id, seat, connected, seen in rows:
            out.setdefault(game_id, {})[int(seat)] = (bool(connected), float(seen))
        return out

    def sweep(self, idle_before: float, keep: Collection[str] = ()) -> list[str]:
        deleted = super().sweep(idle_before, keep)
        with self._transaction():  # dead processes' presence rows once they are that old
            self._db.execute(
                "DELETE FROM presence p WHERE p.seen < ? AND NOT EXISTS"
                " (SELECT 1 FROM pg_stat_activity a WHERE a.pid = p.backend)",
                (idle_before,),
            )
        return deleted

    def own_computer(self, game_id: str) -> bool:
        """A session advisory lock on the game (keyed by its id's hash; a collision only makes
        two games' computer turns wait for each other): the one process making its computer
        moves. Locks of one session nest, so each success must be released once."""
        with self._lock:
            try:
                row = self._holder.execute(
                    "SELECT pg_try_advisory_lock(%s, hashtext(%s))", (COMPUTER_LOCKS, game_id)
                ).fetchone()
            except psycopg.OperationalError:  # the connection broke: its locks went with it
                self._reconnect_holder()
                return False
            mine = row is not None and bool(row[0])
            if mine:
                self._owned[game_id] = self._owned.get(game_id, 0) + 1
            return mine

    def release_computer(self, game_id: str) -> None:
        with self._lock:
            count = self._owned.get(game_id, 0)
            if count == 0:
                return  # lost with a broken connection already
            if count == 1:
                del self._owned[game_id]
            else:
                self._owned[game_id] = count - 1
            try:
                self._holder.execute(
                    "SELECT pg_advisory_unlock(%s, hashtext(%s))", (COMPUTER_LOCKS, game_id)
                )
            except psycopg.OperationalError:
                self._reconnect_holder()

    def _reconnect_holder(self) -> None:
        """Under the lock: a fresh holder connection (the locks of the old one are gone, so
        another process may own those games now; each turn asks again before moving)."""
        self._owned.clear()
        with contextlib.suppress(Exception):
            self._holder.close()
        # The database may be down: then the next own_computer fails and tries again.
        with contextlib.suppress(psycopg.OperationalError):
            self._holder = psycopg.connect(self.path, autocommit=True)
            self.backend = self._backend_pid()  # the heartbeat writes the seats under it

    def schema_version(self) -> int:
        with self._reading():
            (version,) = self._db.execute("SELECT version FROM schema_version").fetchone()
        return int(version)

    def close(self) -> None:
        with self._lock:
            self._pool.close()
            self._holder.close()  # the computer-turn locks go with it


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":<redacted>@", 1)
    return urlunsplit(parts._replace(netloc=netloc))
