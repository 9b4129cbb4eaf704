"""Resigning (issue 13): the game ends for both seats and spectators with ``result``, in every
mode; refusals change nothing; a resign races safely with actions (the version decides)."""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi.testclient import TestClient

from tests.server.server_helpers import act, auth, create, error, online_game, post, state, tokens
from tests.server.ws_helpers import receive_until

RESIGNED_BY_REBEL = {"winner": "imperial", "reason": "resign"}


def latest_state(ws: Any, version: int) -> dict[str, Any]:
    """The first pushed state at ``version`` or later."""
    for _ in range(20):
        msg = receive_until(ws, "state")
        if msg["version"] >= version:
            return msg
    raise AssertionError(f"no state at version {version}")


def test_resign_ends_the_game_for_both_seats_and_a_spectator(client: TestClient) -> None:
    gid, toks = online_game(client)
    before = state(client, gid, toks["rebel"])
    assert before["result"] is None and before["rematch"] is None and not before["over"]
    with contextlib.ExitStack() as stack:
        sockets = {}
        for name in ("rebel", "imperial", "spectator"):
            ws = stack.enter_context(client.websocket_connect(f"/api/games/{gid}/ws"))
            if name != "spectator":
                ws.send_text(json.dumps({"type": "auth", "token": toks[name]}))
            sockets[name] = ws
        r = post(client, f"/api/games/{gid}/resign", toks["rebel"], {})
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["result"] == RESIGNED_BY_REBEL and answer["over"]
        assert answer["winner"] == "imperial" and answer["version"] == before["version"] + 1
        for name, ws in sockets.items():
            pushed = latest_state(ws, answer["version"])
            assert pushed["result"] == RESIGNED_BY_REBEL and pushed["over"], name
            assert pushed["rematch"] == {"offered_by": None, "game_id": None}, name
            assert pushed["legal"] == [], name
    # Over: no more actions, no second resign, and the record is out.
    r = post(client, f"/api/games/{gid}/actions", toks["rebel"], {"action": 0, "version": 1})
    assert r.status_code == 409
    error(post(client, f"/api/games/{gid}/resign", toks["imperial"], {}), 409, "conflict")
    assert client.get(f"/api/games/{gid}/record").status_code == 200
    assert state(client, gid)["version"] == answer["version"]


def test_in_a_hotseat_game_the_token_says_which_side_resigns(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    r = post(client, f"/api/games/{gid}/resign", toks["imperial"], {"version": 0})
    assert r.status_code == 200, r.text
    assert r.json()["result"] == {"winner": "rebel", "reason": "resign"}
    assert r.json()["seat"] == "imperial"


def test_resigning_against_the_computer_stops_it(client: TestClient) -> None:
    created = create(client, mode="computer", opponent="random", side="imperial", seed=5)
    gid, tok = created["game_id"], tokens(created)["imperial"]
    r = post(client, f"/api/games/{gid}/resign", tok, {})
    assert r.status_code == 200, r.text
    assert r.json()["result"] == {"winner": "rebel", "reason": "resign"}
    plies = r.json()["plies"]
    # The computer's task sees the game over; the game stays where it was.
    for _ in range(20):
        assert state(client, gid, tok)["plies"] == plies


def test_a_resign_chosen_at_an_old_version_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    act(client, gid, toks["rebel"], "draw 2", version=0)
    before = state(client, gid, toks["rebel"])
    error(post(client, f"/api/games/{gid}/resign", toks["rebel"], {"version": 0}), 409, "stale")
    assert state(client, gid, toks["rebel"]) == before


def test_an_action_chosen_before_a_resign_is_refused_after_it(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    assert post(client, f"/api/games/{gid}/resign", toks["imperial"], {}).status_code == 200
    r = post(client, f"/api/games/{gid}/actions", toks["rebel"], {"action": "draw 2", "version": 0})
    error(r, 409, "stale")
    assert state(client, gid)["plies"] == 0


def test_bad_resign_requests_get_400_or_403_and_change_nothing(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    before = state(client, gid)
    url = f"/api/games/{gid}/resign"
    message = error(post(client, url, toks["rebel"], {"surrender": True}), 400, "bad_request")
    assert "surrender" in message
    message = error(post(client, url, toks["rebel"], {"version": "0"}), 400, "bad_request")
    assert "version" in message
    error(post(client, url, None, {}), 403, "forbidden")
    error(client.post(url, json={}, headers=auth("not-a-token")), 403, "forbidden")
    error(post(client, "/api/games/nope/resign", toks["rebel"], {}), 404, "not_found")
    assert state(client, gid) == before
