"""Claiming the win against an opponent who stayed disconnected (issue 13): online games
without a clock only, after ``claim_after`` seconds (60 here) with the opponent's seat taken but
not connected; a state is pushed when the claim becomes available; refused before, refused
once the opponent is back, and never in a game with a clock. Time is the tests' own."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.server.server_helpers import (
    FakeTime,
    act,
    error,
    online_game,
    post,
    state,
    wake_timers,
)
from tests.server.server_process import HTTP, ServerProcess
from tests.server.ws_helpers import receive_until


def claim_of(msg: dict[str, Any]) -> int | None:
    return None if msg["claim"] is None else int(msg["claim"]["available_in_ms"])


def next_state(ws: Any, seat: str, claim: int | None | str = "any") -> dict[str, Any]:
    """The next pushed state for ``seat`` whose claim is ``claim`` ms away (None: no claim)."""
    for _ in range(10):
        msg = receive_until(ws, "state")
        if msg["seat"] == seat and claim in ("any", claim_of(msg)):
            return msg
    raise AssertionError(f"no state for {seat} with a claim in {claim} ms")


def test_a_claim_becomes_available_after_the_opponent_stays_away(
    timed_client: TestClient, fake_time: FakeTime
) -> None:
    gid, toks = online_game(timed_client)
    url = f"/api/games/{gid}/claim"
    with timed_client.websocket_connect(f"/api/games/{gid}/ws") as rebel:
        rebel.send_text(json.dumps({"type": "auth", "token": toks["rebel"]}))
        with timed_client.websocket_connect(f"/api/games/{gid}/ws") as imperial:
            imperial.send_text(json.dumps({"type": "auth", "token": toks["imperial"]}))
            next_state(imperial, "imperial", None)
            next_state(rebel, "rebel", None)
        # The Imperial left: the Rebel is told how long until it may claim.
        next_state(rebel, "rebel", 60000)
        # The absent seat has no claim (asked now: a request of its own counts as presence,
        # and at the time it left changes nothing).
        assert claim_of(state(timed_client, gid, toks["imperial"])) is None
        before = state(timed_client, gid, toks["rebel"])
        message = error(post(timed_client, url, toks["rebel"], {}), 409, "conflict")
        assert "60 s" in message
        fake_time.advance(59.5)
        assert claim_of(state(timed_client, gid, toks["rebel"])) == 500
        error(post(timed_client, url, toks["rebel"], {}), 409, "conflict")
        assert state(timed_client, gid)["version"] == before["version"]
        fake_time.advance(1)
        wake_timers(timed_client)
        next_state(rebel, "rebel", 0)  # pushed by the server when it became available
        assert claim_of(state(timed_client, gid)) is None  # a spectator has no claim
        r = post(timed_client, url, toks["rebel"], {})
        assert r.status_code == 200, r.text
        assert r.json()["result"] == {"winner": "rebel", "reason": "abandoned"}
        assert r.json()["version"] == before["version"] + 1 and r.json()["claim"] is None


def test_no_claim_once_the_opponent_is_back(timed_client: TestClient, fake_time: FakeTime) -> None:
    gid, toks = online_game(timed_client)
    fake_time.advance(120)  # the Imperial never connected since joining
    assert claim_of(state(timed_client, gid, toks["rebel"])) == 0
    with timed_client.websocket_connect(f"/api/games/{gid}/ws") as imperial:
        imperial.send_text(json.dumps({"type": "auth", "token": toks["imperial"]}))
        next_state(imperial, "imperial")
        assert claim_of(state(timed_client, gid, toks["rebel"])) is None
        r = post(timed_client, f"/api/games/{gid}/claim", toks["rebel"], {})
        error(r, 409, "conflict")
    assert state(timed_client, gid)["result"] is None


def test_no_claim_in_a_game_with_a_clock_or_against_the_computer(
    timed_client: TestClient, fake_time: FakeTime
) -> None:
    gid, toks = online_game(timed_client, clock={"initial_s": 600, "increment_s": 0})
    fake_time.advance(300)
    assert claim_of(state(timed_client, gid, toks["imperial"])) is None
    error(post(timed_client, f"/api/games/{gid}/claim", toks["imperial"], {}), 409, "conflict")
    created = timed_client.post("/api/games", json={"mode": "hotseat", "seed": 1}).json()
    token = created["seats"][0]["token"]
    r = post(timed_client, f"/api/games/{created['game_id']}/claim", token, {})
    error(r, 409, "conflict")


def test_a_bad_claim_request_gets_400_and_changes_nothing(
    timed_client: TestClient, fake_time: FakeTime
) -> None:
    gid, toks = online_game(timed_client)
    fake_time.advance(120)
    before = state(timed_client, gid)
    url = f"/api/games/{gid}/claim"
    error(post(timed_client, url, toks["rebel"], {"win": True}), 400, "bad_request")
    error(post(timed_client, url, toks["rebel"], {"version": "x"}), 400, "bad_request")
    error(post(timed_client, url, toks["rebel"], {"version": 7}), 409, "stale")
    assert state(timed_client, gid) == before


def test_serve_claim_after_sets_the_wait(tmp_path: Path) -> None:
    """`rebelspace serve --claim-after 1`: a real server, real time (polled, no timing
    assertion): the Imperial joined and never connected, so the Rebel may claim soon."""
    proc = ServerProcess(tmp_path / "g.sqlite3", tmp_path / "log", ["--claim-after", "1"])
    proc.start()
    try:
        created = HTTP.post(f"{proc.url}/api/games", json={"mode": "online"}).json()
        gid, code = created["game_id"], created["invite"].rsplit("/", 1)[1]
        HTTP.post(f"{proc.url}/api/games/{gid}/join", json={"invite": code})
        rebel = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        first = HTTP.get(f"{proc.url}/api/games/{gid}", headers=rebel).json()
        assert 0 <= claim_of(first) <= 1000  # type: ignore[operator]
        for _ in range(300):
            if claim_of(HTTP.get(f"{proc.url}/api/games/{gid}", headers=rebel).json()) == 0:
                break
            time.sleep(0.05)
        r = HTTP.post(f"{proc.url}/api/games/{gid}/claim", json={}, headers=rebel)
        assert r.status_code == 200, r.text
        assert r.json()["result"] == {"winner": "rebel", "reason": "abandoned"}
    finally:
        proc.stop()


def test_a_player_who_plays_by_rest_is_never_claimable(
    timed_client: TestClient, fake_time: FakeTime
) -> None:
    """Presence counts any request with the seat's token, not only an open WebSocket: the
    Rebel plays by REST alone, 50 s between requests, and is never claimable; once it stops,
    the claim comes 60 s after its last request."""
    gid, toks = online_game(timed_client)
    claim_url = f"/api/games/{gid}/claim"
    fake_time.advance(50)
    act(timed_client, gid, toks["rebel"], "draw 2")  # reads the state, then acts: two requests
    fake_time.advance(50)
    state(timed_client, gid, toks["rebel"])
    fake_time.advance(50)  # 150 s since the join, 50 s since the Rebel's last request
    assert claim_of(state(timed_client, gid, toks["imperial"])) == 10_000
    error(post(timed_client, claim_url, toks["imperial"], {}), 409, "conflict")
    assert state(timed_client, gid)["result"] is None
    fake_time.advance(10)
    r = post(timed_client, claim_url, toks["imperial"], {})
    assert r.status_code == 200, r.text
    assert r.json()["result"] == {"winner": "imperial", "reason": "abandoned"}
