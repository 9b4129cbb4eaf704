"""Whatever a WebSocket client sends, the server answers: an ``error`` message, the connection
kept, the game unchanged and no traceback in the log. And a seat authenticates with its first
message, so its token is never in a URL."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from tests.server.server_helpers import create, state, tokens
from tests.server.ws_helpers import receive_until

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)
KINDS = st.sampled_from(["action", "undo", "undo_answer", "auth", "ping", "dance", ""])
# Objects that look like messages, with wrong or odd field values.
MESSAGES = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    KINDS,
    st.dictionaries(
        st.sampled_from(["action", "version", "accept", "token", "type"]),
        JSON | st.integers(min_value=-(10**30), max_value=10**30),
    ),
)
NESTED = st.integers(min_value=1, max_value=2000).map(lambda n: "[" * n + "]" * n)
DEEP_OBJECT = st.integers(min_value=500, max_value=1300).map(
    lambda n: '{"type": "action", "action": ' + "[" * n + "]" * n + "}"
)
HUGE = st.sampled_from(
    [
        '{"type": "action", "action": 1e999, "version": 0}',
        '{"type": "action", "action": 1, "version": ' + "9" * 4000 + "}",
        '{"type": "action", "action": -1e-999, "version": -0}',
        '{"type": "action", "action": NaN, "version": Infinity}',
    ]
)
TEXTS = st.one_of(
    JSON.map(json.dumps),
    MESSAGES.map(json.dumps),
    NESTED,
    DEEP_OBJECT,
    HUGE,
    st.text(max_size=200),
)
BINARY = st.one_of(st.binary(max_size=200), TEXTS.map(str.encode))


def test_fuzzed_messages_get_an_error_and_change_nothing(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    before = state(client, gid)
    caplog.set_level(logging.DEBUG)
    # The Imperial seat: it is not its decision, so no message can be a legal action.
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["seat"] is None
        ws.send_text(json.dumps({"type": "auth", "token": toks["imperial"]}))
        assert receive_until(ws, "state")["seat"] == "imperial"

        @settings(
            max_examples=400,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(st.one_of(TEXTS.map(lambda t: ("text", t)), BINARY.map(lambda b: ("bytes", b))))
        def one(message: tuple[str, Any]) -> None:
            how, payload = message
            if how == "text":
                ws.send_text(payload)
            else:
                ws.send_bytes(payload)
            ws.send_text('{"type": "ping"}')
            pongs = 1 + _is_ping(payload)  # a ping among the fuzzed messages gets its own
            answers = []
            while pongs:
                msg = ws.receive_json()
                if msg["type"] == "pong":
                    pongs -= 1
                else:
                    answers.append(msg)
            assert answers or _is_ping(payload), f"no answer to {payload!r}"
            assert all(a["type"] == "error" and a["message"] for a in answers), answers

        one()
    assert state(client, gid) == before
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert tracebacks == []


def _is_ping(payload: str | bytes) -> bool:
    try:
        msg = json.loads(payload)
    except (ValueError, RecursionError):
        return False
    return isinstance(msg, dict) and msg.get("type") == "ping"


def test_a_message_of_nested_brackets_gets_an_error_not_a_dropped_connection(
    client: TestClient,
) -> None:
    gid = create(client, mode="hotseat", seed=4)["game_id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_text("[" * 2000 + "]" * 2000)
        assert receive_until(ws, "error")["error"] == "bad_request"
        ws.send_text('{"type": "ping"}')
        assert receive_until(ws, "pong") == {"type": "pong"}


def test_a_seat_authenticates_with_its_first_message(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["seat"] is None  # a spectator until it says who it is
        ws.send_text(json.dumps({"type": "auth", "token": toks["rebel"]}))
        msg = receive_until(ws, "state")
        assert msg["seat"] == "rebel" and msg["legal"]
        ws.send_text(json.dumps({"type": "auth", "token": toks["imperial"]}))
        assert receive_until(ws, "error")["error"] == "conflict"  # one seat per connection
        ws.send_text(json.dumps({"type": "action", "action": "draw 2", "version": 0}))
        assert receive_until(ws, "state")["plies"] == 1


def test_a_wrong_token_in_the_auth_message_closes_the_connection(client: TestClient) -> None:
    gid = create(client, mode="hotseat", seed=4)["game_id"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "auth", "token": "not-a-token"}))
        assert receive_until(ws, "error")["error"] == "forbidden"
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                ws.receive_json()
        assert info.value.code == 4403


def test_the_opponent_is_told_when_a_seat_authenticates(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    with client.websocket_connect(f"/api/games/{gid}/ws") as imperial:
        imperial.receive_json()
        imperial.send_text(json.dumps({"type": "auth", "token": toks["imperial"]}))
        assert receive_until(imperial, "state")["seat"] == "imperial"
        with client.websocket_connect(f"/api/games/{gid}/ws") as rebel:
            rebel.receive_json()
            rebel.send_text(json.dumps({"type": "auth", "token": toks["rebel"]}))
            assert receive_until(imperial, "opponent") == {"type": "opponent", "connected": True}
