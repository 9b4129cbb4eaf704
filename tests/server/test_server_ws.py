"""The WebSocket: bad messages keep the connection and change nothing, refusals at connect
time, opponents told of disconnects, reconnecting with the token."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.server_helpers import HeldView, create, state, tokens
from tests.server.server_process import HTTP, ServerProcess
from tests.server.ws_helpers import receive_until


def test_bad_messages_get_errors_and_the_connection_stays(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    before = state(client, gid)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={toks['imperial']}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == "imperial" and first["legal"] == []
        cases: list[tuple[str, str]] = [
            ("{not json", "bad_request"),
            ("[1, 2]", "bad_request"),
            ('{"type": "dance"}', "bad_request"),
            ('{"type": "action"}', "bad_request"),
            # The Rebel decides first.
            ('{"type": "action", "action": 1, "version": 0}', "not_your_turn"),
            ('{"type": "undo_answer", "accept": "yes"}', "bad_request"),
            ('{"type": "undo_answer", "accept": true}', "conflict"),
            ('{"type": "undo"}', "conflict"),
            (json.dumps({"type": "action", "action": "x" * 5000, "version": 0}), "too_large"),
        ]
        for text, code in cases:
            ws.send_text(text)
            msg = receive_until(ws, "error")
            assert msg["error"] == code, (text, msg)
            assert msg["message"]
        ws.send_json({"type": "ping"})
        assert receive_until(ws, "pong") == {"type": "pong"}
    assert state(client, gid) == before


def test_illegal_actions_over_the_websocket_are_refused_with_the_engines_reason(
    client: TestClient,
) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    with client.websocket_connect(f"/api/games/{gid}/ws?token={toks['rebel']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "action": "draw 3", "version": 0})
        msg = receive_until(ws, "error")
        assert msg["error"] == "illegal_action" and "draw 3" in msg["message"]
        # Not an action at all is told apart from an action not legal now, as over REST.
        for action in ("fly away", 10**9, -1):
            ws.send_json({"type": "action", "action": action, "version": 0})
            msg = receive_until(ws, "error")
            assert msg["error"] == "invalid_action" and msg["message"], (action, msg)
        assert state(client, gid)["version"] == 0
        ws.send_json({"type": "action", "action": "draw 2", "version": 0})
        msg = receive_until(ws, "state")
        assert msg["version"] == 1 and msg["view"]["you"]["hand_size"] == 7


def test_a_spectator_cannot_act(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid = created["game_id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_json({"type": "action", "action": 1, "version": 0})
        assert receive_until(ws, "error")["error"] == "forbidden"
    assert state(client, gid)["version"] == 0


@pytest.mark.parametrize(
    ("path", "code", "close"),
    [("/api/games/nosuch/ws", "not_found", 4404), ("{game}?token=wrong", "forbidden", 4403)],
)
def test_refused_connections_get_an_error_then_close(
    client: TestClient, path: str, code: str, close: int
) -> None:
    gid = create(client, mode="hotseat")["game_id"]
    url = path.replace("{game}", f"/api/games/{gid}/ws")
    with client.websocket_connect(url) as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"] == code
        with pytest.raises(WebSocketDisconnect) as info:
            ws.receive_json()
        assert info.value.code == close


def test_the_opponent_is_told_of_a_disconnect_and_the_seat_resumes(client: TestClient) -> None:
    created = create(client, mode="online", side="imperial")
    gid = created["game_id"]
    imperial = tokens(created)["imperial"]
    code = created["invite"].rsplit("/", 1)[1]
    rebel = client.post(f"/api/games/{gid}/join", json={"invite": code}).json()["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={imperial}") as watcher:
        held = HeldView()  # the watcher's view: its pushes carry what changed
        assert held.whole(watcher.receive_json())["type"] == "state"
        with client.websocket_connect(f"/api/games/{gid}/ws?token={rebel}") as ws:
            ws.receive_json()
            assert receive_until(watcher, "opponent", held) == {
                "type": "opponent",
                "connected": True,
            }
            msg = receive_until(watcher, "state", held)
            assert msg["seats"]["rebel"]["connected"]
            ws.send_json({"type": "action", "action": "draw 2", "version": 0})
            assert receive_until(ws, "state")["version"] == 1
        assert receive_until(watcher, "opponent", held) == {"type": "opponent", "connected": False}
        # The game waits: the seat is kept, and the token still opens it.
        msg = receive_until(watcher, "state", held)
        while msg["version"] < 1 or msg["seats"]["rebel"]["connected"]:
            msg = receive_until(watcher, "state", held)
        assert msg["seats"]["rebel"]["taken"] and msg["view"]["to_move"] == "rebel"
        with client.websocket_connect(f"/api/games/{gid}/ws?token={rebel}") as ws:
            again = ws.receive_json()
            assert again["version"] == 1 and again["legal"] and again["seat"] == "rebel"
            assert again["view"]["you"]["hand_size"] == 7


def test_a_real_server_closes_a_connection_that_sends_an_oversize_frame(
    server: ServerProcess,
) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    created = HTTP.post(f"{server.url}/api/games", json={"mode": "hotseat"}).json()
    gid, tok = created["game_id"], tokens(created)["rebel"]
    url = server.url.replace("http", "ws") + f"/api/games/{gid}/ws?token={tok}"
    with connect(url) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        ws.send("x" * 200_000)
        with pytest.raises(ConnectionClosed) as info:
            while True:
                ws.recv(timeout=10)
        assert info.value.rcvd is not None and info.value.rcvd.code == 1009
    # The game is untouched and the server goes on serving.
    assert HTTP.get(f"{server.url}/api/games/{gid}").json()["version"] == 0
