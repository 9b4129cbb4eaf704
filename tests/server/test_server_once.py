"""Every action is applied exactly once: an action names the version it was chosen at, and one
sent twice (a retried request, two tabs of one seat, REST and WebSocket at once) is refused
with 409 ``stale`` the second time, the game unchanged."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection, connect

from rebelspace.server.app import create_app
from rebelspace.server.store import StaleVersionError, Store
from tests.server.server_helpers import act, auth, create, error, state, tokens
from tests.server.server_process import HTTP, ServerProcess


def test_the_same_deploy_sent_twice_is_applied_once(client: TestClient) -> None:
    # The report's case: hot-seat seed 1002, "draw 1", then the same deploy twice.
    created = create(client, mode="hotseat", seed=1002)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    drawn = act(client, gid, tok, "draw 1")
    body = {"action": "deploy Rebel Soldier", "version": drawn["version"]}
    url = f"/api/games/{gid}/actions"
    first = client.post(url, json=body, headers=auth(tok))
    assert first.status_code == 200, first.text
    after = first.json()
    assert after["version"] == drawn["version"] + 1
    again = client.post(url, json=body, headers=auth(tok))
    error(again, 409, "stale")
    assert again.json()["version"] == after["version"]
    assert state(client, gid, tok) == after
    soldiers = drawn["view"]["you"]["hand"].count("Rebel Soldier")
    assert after["view"]["you"]["hand"].count("Rebel Soldier") == soldiers - 1


def test_an_action_needs_the_version_it_was_chosen_at(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    url, h = f"/api/games/{gid}/actions", auth(tok)
    assert "version" in error(client.post(url, json={"action": 1}, headers=h), 400, "bad_request")
    for bad in ("0", 0.5, None, True, -1, 2**60):  # 1.0 is an integer (JSON Schema)
        r = client.post(url, json={"action": 1, "version": bad}, headers=h)
        error(r, 400, "bad_request")
    stale = client.post(url, json={"action": "draw 2", "version": 7}, headers=h)
    assert "version 0" in error(stale, 409, "stale") and stale.json()["version"] == 0
    assert state(client, gid)["version"] == 0


def test_a_repeated_undo_or_answer_is_refused_as_stale(client: TestClient) -> None:
    created = create(client, mode="computer", opponent="random", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    act(client, gid, tok, "draw 2")
    act(client, gid, tok, "deploy Rebel Soldier")
    deployed = act(client, gid, tok, "deploy Stunt Fighters")
    url = f"/api/games/{gid}/undo"
    body = {"version": deployed["version"]}
    back = client.post(url, json=body, headers=auth(tok))
    assert back.status_code == 200 and back.json()["plies"] == deployed["plies"] - 1
    error(client.post(url, json=body, headers=auth(tok)), 409, "stale")  # not a second undo
    assert state(client, gid, tok)["plies"] == deployed["plies"] - 1
    # Two-person games: an answer at an older version is refused and the request stays.
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    act(client, gid, toks["rebel"], "draw 2")
    asked_at = act(client, gid, toks["rebel"], "done deploying")["version"]
    client.post(f"/api/games/{gid}/undo", json={"version": asked_at}, headers=auth(toks["rebel"]))
    # The request is a change (version asked_at + 1): an answer chosen before it is stale.
    r = client.post(
        f"/api/games/{gid}/undo/answer",
        json={"accept": True, "version": asked_at},
        headers=auth(toks["imperial"]),
    )
    error(r, 409, "stale")
    assert state(client, gid)["undo"]["pending_from"] == "rebel"


def test_the_store_refuses_a_write_at_an_old_version(tmp_path: Path) -> None:
    """The version check and the write are one transaction: a second writer (another process on
    the same database) cannot append at a version that has moved on."""
    db = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(db)) as client:
        created = create(client, mode="hotseat", seed=4)
        gid, tok = created["game_id"], tokens(created)["rebel"]
        act(client, gid, tok, "draw 2")
    store = Store(db)
    try:
        with pytest.raises(StaleVersionError) as info:
            store.add_action(gid, 0, 1, 0, 0, None)  # chosen at version 0; the game is at 1
        assert info.value.version == 1
        with pytest.raises(StaleVersionError):
            store.truncate(gid, 0, 0)
        stored = store.load_game(gid)
        assert stored is not None and len(stored.actions) == 1 and stored.version == 1
    finally:
        store.close()


class Seat:
    """One seat's senders: two REST clients (two tabs) and a WebSocket."""

    def __init__(self, server: ServerProcess, gid: str, token: str, ws: ClientConnection) -> None:
        self.url, self.token, self.ws = f"{server.url}/api/games/{gid}", token, ws
        self.ws.send(json.dumps({"type": "auth", "token": token}))

    def rest(self, action: int, version: int) -> str:
        r = HTTP.post(
            f"{self.url}/actions",
            json={"action": action, "version": version},
            headers=auth(self.token),
        )
        if r.status_code == 200:
            return "applied"
        assert r.status_code == 409 and r.json()["error"] == "stale", r.text
        return "stale"

    def websocket(self, action: int, version: int) -> str:
        """Send, then a ping: the messages before the pong answer this action, in order."""
        self.ws.send(json.dumps({"type": "action", "action": action, "version": version}))
        self.ws.send(json.dumps({"type": "ping"}))
        outcome = "applied"
        while (msg := json.loads(self.ws.recv(timeout=60)))["type"] != "pong":
            if msg["type"] == "error":
                assert msg["error"] == "stale", msg
                outcome = "stale"
        return outcome


def race(senders: tuple[Callable[[int, int], str], ...], action: int, version: int) -> list[str]:
    """Each sender sends the same action at the same version, released at the same moment."""
    outcomes: list[str] = []
    start = threading.Barrier(len(senders))

    def send(how: Callable[[int, int], str]) -> None:
        start.wait()
        outcomes.append(how(action, version))

    threads = [threading.Thread(target=send, args=(how,)) for how in senders]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes


def test_concurrent_duplicates_over_rest_and_websocket_apply_once(server: ServerProcess) -> None:
    rng = random.Random(12)
    decisions = 0
    for game in range(4):
        created = HTTP.post(f"{server.url}/api/games", json={"mode": "hotseat", "seed": game})
        gid, toks = created.json()["game_id"], tokens(created.json())
        sockets = contextlib.ExitStack()
        ws_url = f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws"
        seats = {
            name: Seat(server, gid, tok, sockets.enter_context(connect(ws_url, max_size=2**23)))
            for name, tok in toks.items()
        }
        for _ in range(30):
            msg = HTTP.get(f"{server.url}/api/games/{gid}", headers=auth(toks["rebel"])).json()
            if msg["over"]:
                break
            seat = seats[msg["view"]["to_move"]]
            mine = HTTP.get(seat.url, headers=auth(seat.token)).json()
            action = rng.choice(mine["legal"])["id"]
            outcomes = race((seat.rest, seat.rest, seat.websocket), action, mine["version"])
            assert sorted(outcomes) == ["applied", "stale", "stale"], outcomes
            after = HTTP.get(seat.url, headers=auth(seat.token)).json()
            assert after["plies"] == mine["plies"] + 1 and after["version"] == mine["version"] + 1
            decisions += 1
        sockets.close()
        with sqlite3.connect(server.db) as db:
            (stored,) = db.execute(
                "SELECT COUNT(*) FROM actions WHERE game_id = ?", (gid,)
            ).fetchone()
        assert stored == after["plies"]
    assert decisions >= 100
