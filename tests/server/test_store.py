"""The store's promises, the same tests on both stores (SQLite and PostgreSQL, issue 33): a
game is stored as what rebuilds it; every change checks the version and bumps it in the same
transaction, so a write chosen at an old version writes nothing; seats are taken once; the
sweep deletes only idle unfinished games; the schema is created once and opened again as it
is. Then a whole game over WebSockets on each store, every message checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelspace.engine import to_record
from rebelspace.server.app import create_app
from rebelspace.server.store import (
    SCHEMA_VERSION,
    DatabaseInUseError,
    StaleVersionError,
    Store,
    open_store,
)
from tests.server import postgres
from tests.server.server_helpers import (
    act,
    auth,
    check_state_message,
    create,
    expected_events,
    states_by_version,
    tokens,
    whole_views,
)
from tests.server.server_process import HTTP, ServerProcess
from tests.server.ws_helpers import play_over_websockets


def new_game(store: Store, game_id: str = "g1", **extra: Any) -> None:
    fields: dict[str, Any] = {
        "game_id": game_id,
        "mode": "online",
        "seed": 2**62 - 1,  # the largest seed a game may have: 64-bit columns
        "rules": {"a": 1},
        "cards": '{"cards": []}',
        "agent": None,
        "computer_seat": None,
        "creator_seat": 0,
        "invite": "code",
        "token_hashes": ("h0", None),
        **extra,
    }
    store.create_game(**fields)


@pytest.fixture
def store(store_db: str) -> Any:
    s = open_store(store_db)
    yield s
    s.close()


def test_a_game_is_stored_as_what_rebuilds_it(store: Store) -> None:
    new_game(store, clock=(600, 5))
    store.add_action("g1", 0, 0, 17, 0, None, clock_ms=(599000, 600000))
    store.add_action("g1", 1, 1, 3, 1, None)
    stored = store.load_game("g1")
    assert stored is not None
    assert stored.row.seed == 2**62 - 1 and stored.row.rules == {"a": 1}
    assert stored.row.cards == '{"cards": []}' and stored.row.token_hashes == ("h0", None)
    assert stored.actions == [(17, 0), (3, 1)] and stored.version == 2
    assert stored.row.clock == (600, 5) and stored.clock_ms == (599000, 600000)
    assert store.load_game("nothing") is None


def test_a_write_at_an_old_version_writes_nothing(store: Store) -> None:
    new_game(store)
    store.add_action("g1", 0, 0, 5, 0, None)
    for write in (
        lambda: store.add_action("g1", 0, 1, 6, 1, None),
        lambda: store.truncate("g1", 0, 0),
        lambda: store.end_game("g1", 0, 1, "resign"),
        lambda: store.set_undo("g1", 0, (0, 0)),
        lambda: store.set_rematch_offer("g1", 0, 1),
    ):
        with pytest.raises(StaleVersionError) as info:
            write()
        assert info.value.version == 1
    stored = store.load_game("g1")
    assert stored is not None
    assert stored.actions == [(5, 0)] and stored.version == 1 and stored.undo is None
    assert stored.reason is None and stored.row.winner is None


def test_each_change_bumps_the_version(store: Store) -> None:
    new_game(store)
    store.add_action("g1", 0, 0, 5, 0, None)
    store.add_action("g1", 1, 1, 6, 1, None)
    store.set_undo("g1", 2, (1, 1))
    stored = store.load_game("g1")
    assert stored is not None and stored.undo == (1, 1) and stored.version == 3
    store.truncate("g1", 3, 1)
    store.end_game("g1", 4, 0, "resign")
    store.set_rematch_offer("g1", 5, 1)
    stored = store.load_game("g1")
    assert stored is not None and stored.actions == [(5, 0)] and stored.version == 6
    assert stored.undo is None and stored.reason == "resign" and stored.rematch == (1, None)


def test_a_rematch_is_recorded_in_the_same_transaction(store: Store) -> None:
    new_game(store)
    store.end_game("g1", 0, 0, "resign")
    new_game(store, "g2", rematch_of=("g1", 1))
    with pytest.raises(StaleVersionError):
        new_game(store, "g3", rematch_of=("g1", 1))  # the version moved: no second rematch
    assert store.load_game("g3") is None
    old = store.load_game("g1")
    assert old is not None and old.rematch == (None, "g2") and old.version == 2


def test_a_seat_is_taken_once_and_lists_its_games(store: Store) -> None:
    new_game(store)
    assert store.take_seat("g1", 1, "h1") is True
    assert store.take_seat("g1", 1, "h2") is False
    mine = store.games_of(["h1", "h0", "unknown"])
    assert sorted((g.id, g.seat) for g in mine) == [("g1", 0), ("g1", 1)]
    assert store.games_of([]) == []
    assert store.clocked_games() == []
    new_game(store, "g2", clock=(60, 0), token_hashes=("a", "b"))
    assert store.clocked_games() == ["g2"]


def test_the_sweep_deletes_only_idle_unfinished_games(store: Store) -> None:
    new_game(store, "idle")
    new_game(store, "kept")
    new_game(store, "done")
    store.end_game("done", 0, 1, "resign")
    assert store.sweep(idle_before=0.0) == []  # nothing is that old
    gone = store.sweep(idle_before=2**40, keep={"kept"})
    assert gone == ["idle"] and store.load_game("idle") is None
    assert store.load_game("kept") is not None and store.load_game("done") is not None
    assert store.count_games() == 2 and store.count_cardlists() == 1


def test_the_schema_is_created_once_and_opened_again_unchanged(store_db: str) -> None:
    first = open_store(store_db)
    try:
        new_game(first)
    finally:
        first.close()
    again = open_store(store_db)
    try:
        stored = again.load_game("g1")
        assert stored is not None and stored.version == 0
        version = getattr(again, "schema_version", None)
        if version is not None:  # PostgreSQL keeps it in a table; SQLite in user_version
            assert version() == SCHEMA_VERSION
    finally:
        again.close()


def test_a_whole_game_over_websockets_on_each_store(store_db: str) -> None:
    with TestClient(create_app(store_db)) as client:
        created = create(client, mode="hotseat", seed=6)
        gid = created["game_id"]
        received = play_over_websockets(client, gid, tokens(created), seed=4, spectators=1)
        games = states_by_version(client.get(f"/api/games/{gid}/record").json())
        for messages in received.values():
            for msg in whole_views(messages):
                if msg["type"] == "state":
                    check_state_message(msg, games)
    with TestClient(create_app(store_db)) as client:  # opened again: the game is there
        assert client.get(f"/api/games/{gid}").json()["over"] is True


def test_a_second_store_on_the_same_sqlite_file_is_refused(db_path: str) -> None:
    """One process per SQLite file: a second store (a second server process) is refused with a
    message that says why and what to do; once the first is closed, the file is free."""
    first = open_store(db_path)
    try:
        with pytest.raises(DatabaseInUseError, match="in use by another server process"):
            open_store(db_path)
    finally:
        first.close()
    open_store(db_path).close()


def test_two_stores_on_one_postgresql_database_see_each_others_writes(
    pg_cluster: postgres.Cluster,
) -> None:
    """PostgreSQL serves several processes: a second store opens, sees the first's game, and
    of two writes at one version only the first is written; the computer-turn lock is held by
    one store at a time and nests within one."""
    url = pg_cluster.new_database()
    first, second = open_store(url), open_store(url)
    try:
        new_game(first)
        assert second.game_stamp("g1") == (0, True, False)
        second.add_action("g1", 0, 0, 5, 0, None)
        with pytest.raises(StaleVersionError):
            first.add_action("g1", 0, 0, 6, 0, None)
        assert first.game_stamp("g1") == (1, True, False)
        assert first.take_seat("g1", 1, "h") and not second.take_seat("g1", 1, "h2")
        assert second.game_stamp("g1") == (1, True, True)
        assert first.own_computer("g1") and first.own_computer("g1")
        assert not second.own_computer("g1")
        first.release_computer("g1")
        assert not second.own_computer("g1")  # still held once
        first.release_computer("g1")
        assert second.own_computer("g1")
        assert not first.own_computer("g1")
    finally:
        first.close()
        second.close()


def test_a_second_server_process_on_postgresql_plays_the_same_game(
    pg_cluster: postgres.Cluster, tmp_path: Path
) -> None:
    """Real `rebelspace serve --db postgresql://...` processes on one database: an action
    acknowledged by one is seen by the other at once and the next is accepted there; a stale
    action is refused by either; after kill -9 of the first, the second still has it all."""
    url = pg_cluster.new_database()
    first = ServerProcess(url, tmp_path / "first.log")
    second = ServerProcess(url, tmp_path / "second.log")
    first.start()
    try:
        second.start()
        created = HTTP.post(f"{first.url}/api/games", json={"mode": "hotseat", "seed": 3}).json()
        gid = created["game_id"]
        toks = {s["player"]: s["token"] for s in created["seats"]}
        for version in range(6):
            where, other = (first, second) if version % 2 == 0 else (second, first)
            msg = HTTP.get(f"{where.url}/api/games/{gid}").json()
            assert msg["version"] == version  # the other process's write, seen here
            seat = msg["view"]["to_move"]
            legal = HTTP.get(
                f"{where.url}/api/games/{gid}", headers={"Authorization": f"Bearer {toks[seat]}"}
            ).json()["legal"]
            r = HTTP.post(
                f"{where.url}/api/games/{gid}/actions",
                json={"action": legal[0]["id"], "version": version},
                headers={"Authorization": f"Bearer {toks[seat]}"},
            )
            assert r.status_code == 200, r.text
            stale = HTTP.post(  # the same action again, to the other process
                f"{other.url}/api/games/{gid}/actions",
                json={"action": legal[0]["id"], "version": version},
                headers={"Authorization": f"Bearer {toks[seat]}"},
            )
            assert stale.status_code == 409 and stale.json()["error"] == "stale", stale.text
        first.kill()
        msg = HTTP.get(f"{second.url}/api/games/{gid}").json()
        assert msg["plies"] == 6 and msg["version"] == 6  # every acknowledged action is there
    finally:
        first.stop()
        second.stop()


def test_an_undo_in_one_process_cuts_the_stream_a_client_of_another_holds(
    pg_cluster: postgres.Cluster,
) -> None:
    """Two servers on one PostgreSQL database (two apps in this process, each with its own
    store and listener): a hot-seat game played on A, its undo asked on A and accepted on B.
    A client of A holding the stream from before the undo reads it again on A: A catches up
    (its copy is stale) and tells the client to drop what was taken back, nothing more."""
    url = pg_cluster.new_database()
    with TestClient(create_app(url)) as a, TestClient(create_app(url)) as b:
        created = create(a, mode="hotseat", seed=4)
        gid, toks = created["game_id"], tokens(created)
        rebel, imperial = toks["rebel"], toks["imperial"]
        act(a, gid, rebel, "draw 2")
        held = act(a, gid, rebel, "done deploying")  # the client holds all of the events
        asked = a.post(f"/api/games/{gid}/undo", headers=auth(rebel), json={})
        assert asked.status_code == 200, asked.text
        answered = b.post(
            f"/api/games/{gid}/undo/answer",
            headers=auth(imperial),
            json={"accept": True, "version": asked.json()["version"]},  # B had the request
        )
        assert answered.status_code == 200, answered.text
        since = f"since={len(held['events'])}&since_version={held['version']}"
        msg = a.get(f"/api/games/{gid}?{since}", headers=auth(rebel)).json()
        assert msg["plies"] == 1 and msg["version"] == answered.json()["version"]
        session = a.app.state.server.sessions[gid]  # type: ignore[attr-defined]
        games = states_by_version(to_record(session.state))
        check_state_message(msg, games)
        kept = held["events"][: msg["events_from"]] + msg["events"]
        assert kept == expected_events(games[1], "rebel")
        # A took the undo made on B as a cut: a client holding more than the kept plies'
        # events is told where to cut (events_from), as after an undo of its own.
        assert [at for at, _ in session.cuts] == [msg["version"]]
        assert msg["events_from"] <= len(expected_events(games[1], "rebel"))
