"""Several processes on one PostgreSQL database: another process's action reaches a process
through its notification, which carries the action itself, so a copy one action behind
applies it without reading the game; any other copy reads it (``refresh``). An action naming
the version a copy is at is checked by the versioned write alone (no query before it), which
refuses it as stale if the database has moved on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from rebelspace.server.games import ServerError, Session
from rebelspace.server.manager import GameServer, NewGame
from rebelspace.server.pgstore import CHANNEL, PgStore
from tests.server import postgres


@pytest.fixture
def two(pg_cluster: postgres.Cluster) -> Iterator[tuple[GameServer, GameServer, str]]:
    """Two game servers (as two processes) on one fresh database, and its URL."""
    url = pg_cluster.new_database()
    first, second = GameServer(PgStore(url)), GameServer(PgStore(url))
    yield first, second, url
    first.store.close()
    second.store.close()


def _notes(url: str) -> psycopg.Connection[Any]:
    conn = psycopg.connect(url, autocommit=True)
    conn.execute(f"LISTEN {CHANNEL}")
    return conn


def _received(conn: psycopg.Connection[Any], count: int) -> list[str]:
    return [n.payload for n in conn.notifies(timeout=10, stop_after=count)]


def _play_one(server: GameServer, session: Session, rng: random.Random) -> None:
    seat = session.state.to_move
    server.act(session, seat, rng.choice(session.state.legal_actions()), session.version)


def _reads(server: GameServer) -> list[str]:
    """Counts the game reads of ``server``'s store from now on (the ids read)."""
    read: list[str] = []
    load = server.store.load_game

    def counting(game_id: str, cards: str | None = None) -> Any:
        read.append(game_id)
        return load(game_id, cards)

    server.store.load_game = counting  # type: ignore[method-assign]
    return read


def test_a_copy_one_action_behind_applies_the_notified_action_without_reading(
    two: tuple[GameServer, GameServer, str],
) -> None:
    writer, follower, url = two
    session, _, _ = writer.create(NewGame(mode="hotseat", seed=5))
    copy = follower.get(session.id)
    watcher = follower.connect(copy, None)  # a spectator there: the news is pushed to it
    watcher.outbox.get_nowait()  # its first state
    listening = _notes(url)
    reads = _reads(follower)
    rng = random.Random(3)
    for _ in range(12):
        _play_one(writer, session, rng)
        (note,) = _received(listening, 1)
        assert " action " in note
        follower.on_change(note)
        assert copy.version == session.version
        assert copy.actions() == session.actions()
        pushed = watcher.outbox.get_nowait()
        assert pushed is not None and f'"version":{session.version}' in pushed
    assert reads == []
    listening.close()


def test_a_copy_further_behind_reads_the_game(two: tuple[GameServer, GameServer, str]) -> None:
    writer, follower, url = two
    session, _, _ = writer.create(NewGame(mode="hotseat", seed=6))
    copy = follower.get(session.id)
    follower.connect(copy, None)
    listening = _notes(url)
    reads = _reads(follower)
    rng = random.Random(4)
    _play_one(writer, session, rng)
    _play_one(writer, session, rng)
    first, second = _received(listening, 2)
    follower.on_change(second)  # the first missed: two actions behind
    assert reads == [session.id]
    assert copy.version == session.version and copy.actions() == session.actions()
    follower.on_change(first)  # late: already held, changes nothing
    assert reads == [session.id] and copy.actions() == session.actions()
    listening.close()


def test_an_action_at_a_version_the_database_has_left_is_stale(
    two: tuple[GameServer, GameServer, str],
) -> None:
    writer, other, _ = two
    session, _, _ = writer.create(NewGame(mode="hotseat", seed=7))
    copy = other.get(session.id)  # then not told of the writer's action
    rng = random.Random(5)
    _play_one(writer, session, rng)
    seat = copy.state.to_move
    action = copy.state.legal_actions()[0]
    same = other.get(session.id, writing_at=0)  # this copy's version: no query
    assert same is copy and copy.version == 0
    with pytest.raises(ServerError) as refused:
        other.act(copy, seat, action, 0)
    assert refused.value.code == "stale" and refused.value.version == 1
    assert copy.plies == 0  # nothing applied here either
    assert other.get(session.id).actions() == session.actions()  # a read catches up


def test_presence_is_written_and_told_in_one_statement(
    two: tuple[GameServer, GameServer, str],
) -> None:
    writer, reader, url = two
    session, _, _ = writer.create(NewGame(mode="hotseat", seed=8))
    listening = _notes(url)
    assert isinstance(writer.store, PgStore) and isinstance(reader.store, PgStore)
    writer.store.set_presence([(session.id, 0, True), (session.id, 1, False)], notify=True)
    assert _received(listening, 1) == [f"{session.id} 0 presence"]
    seats = reader.store.presence_of([session.id])[session.id]
    assert seats[0][0] is True and seats[1][0] is False
    writer.store.set_presence([(session.id, 0, False)], notify=False)
    assert reader.store.presence_of([session.id])[session.id][0][0] is False
    assert list(listening.notifies(timeout=0.5, stop_after=1)) == []  # not told
    listening.close()
