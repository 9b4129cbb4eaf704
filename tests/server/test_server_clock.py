"""Clocks of online games (issue 13): created with a setting, running for the side to decide
once both seats are taken, increments, a flag fall ends the game at once (a timer, pushed to
everyone), and the clocks survive a restart (time while the server was down is not charged).
Time is the tests' own (``FakeTime``): nothing here sleeps for a clock."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelspace.server.app import create_app
from tests.server.server_helpers import (
    FakeTime,
    create,
    error,
    online_game,
    post,
    state,
    wake_timers,
)
from tests.server.ws_helpers import receive_until

CLOCK = {"initial_s": 10, "increment_s": 5}


def clock(msg: dict[str, Any]) -> tuple[int, int, str | None]:
    c = msg["clock"]
    assert (c["initial_s"], c["increment_s"]) == (10, 5)
    return c["rebel_ms"], c["imperial_ms"], c["running"]


def first_action(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    msg = state(client, gid, token)
    body = {"action": msg["legal"][0]["id"], "version": msg["version"]}
    r = post(client, f"/api/games/{gid}/actions", token, body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_the_clock_waits_for_the_second_player_then_runs_for_the_side_to_decide(
    timed_client: TestClient, fake_time: FakeTime
) -> None:
    created = create(timed_client, mode="online", side="rebel", clock=CLOCK)
    gid = created["game_id"]
    fake_time.advance(100)
    assert clock(state(timed_client, gid)) == (10000, 10000, None)
    code = created["invite"].rsplit("/", 1)[1]
    imperial = timed_client.post(f"/api/games/{gid}/join", json={"invite": code}).json()["token"]
    fake_time.advance(3)
    rebel = created["seats"][0]["token"]
    assert clock(state(timed_client, gid, imperial)) == (7000, 10000, "rebel")
    answer = first_action(timed_client, gid, rebel)
    # 10 s - 3 s spent + 5 s increment; the next decision's side runs from here.
    running = answer["view"]["to_move"]
    assert clock(answer) == (12000, 10000, running)


def test_a_clock_runs_out_and_the_timer_ends_the_game_for_everyone(
    timed_client: TestClient, fake_time: FakeTime
) -> None:
    gid, toks = online_game(timed_client, clock=CLOCK)
    with timed_client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        first = receive_until(spectator, "state")
        assert first["clock"]["running"] == "rebel"
        fake_time.advance(10.5)
        wake_timers(timed_client)
        for _ in range(10):
            msg = receive_until(spectator, "state")
            if msg["over"]:
                break
        assert msg["result"] == {"winner": "imperial", "reason": "time"}
        assert clock(msg) == (0, 10000, None) and msg["version"] == first["version"] + 1
    r = post(timed_client, f"/api/games/{gid}/actions", toks["rebel"], {"action": 0, "version": 1})
    assert r.status_code == 409
    error(post(timed_client, f"/api/games/{gid}/resign", toks["rebel"], {}), 409, "conflict")


def test_a_decision_after_the_flag_fell_is_refused_and_the_game_ends_on_time(
    timed_client: TestClient, fake_time: FakeTime
) -> None:
    gid, toks = online_game(timed_client, clock=CLOCK)
    msg = state(timed_client, gid, toks["rebel"])
    fake_time.advance(11)  # no timer has run: the request itself finds the flag down
    body = {"action": msg["legal"][0]["id"], "version": msg["version"]}
    r = post(timed_client, f"/api/games/{gid}/actions", toks["rebel"], body)
    assert r.status_code == 409, r.text
    after = state(timed_client, gid, toks["imperial"])
    assert after["result"] == {"winner": "imperial", "reason": "time"} and after["plies"] == 0


def test_a_restart_keeps_the_clocks_and_charges_no_time_while_down(
    db_path: str, fake_time: FakeTime
) -> None:
    with TestClient(create_app(db_path, now=fake_time)) as client:
        gid, toks = online_game(client, clock=CLOCK)
        fake_time.advance(4)
        answer = first_action(client, gid, toks["rebel"])
        running = answer["view"]["to_move"]
        fake_time.advance(2)  # spent by the running side, but never stored: lost at the restart
    fake_time.advance(1000)  # the server is down
    with TestClient(create_app(db_path, now=fake_time)) as client:
        # Loaded at start, before anyone asks: its clock runs.
        assert gid in client.app.state.server.sessions  # type: ignore[attr-defined]
        assert clock(state(client, gid)) == (11000, 10000, running)
        fake_time.advance(1)
        rebel_ms, imperial_ms, _ = clock(state(client, gid))
        assert (rebel_ms, imperial_ms) == ((10000, 10000) if running == "rebel" else (11000, 9000))


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"mode": "computer", "clock": CLOCK}, "online"),
        ({"mode": "hotseat", "clock": CLOCK}, "online"),
        ({"mode": "online", "clock": {"initial_s": 9, "increment_s": 0}}, "initial_s"),
        ({"mode": "online", "clock": {"initial_s": 7201, "increment_s": 0}}, "initial_s"),
        ({"mode": "online", "clock": {"initial_s": 60, "increment_s": 121}}, "increment_s"),
        ({"mode": "online", "clock": {"initial_s": 60, "increment_s": -1}}, "increment_s"),
        ({"mode": "online", "clock": {"initial_s": "60", "increment_s": 0}}, "initial_s"),
        ({"mode": "online", "clock": {"initial_s": 60.5, "increment_s": 0}}, "initial_s"),
        ({"mode": "online", "clock": {"initial_s": 60}}, "increment_s"),
        ({"mode": "online", "clock": {"initial_s": 60, "increment_s": 0, "x": 1}}, "x"),
        ({"mode": "online", "clock": 600}, "clock"),
    ],
)
def test_a_bad_clock_setting_gets_400_and_creates_nothing(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    store = client.app.state.server.store  # type: ignore[attr-defined]
    before = store.count_games()
    r = client.post("/api/games", json=body)
    message = error(r, 400, "bad_request")
    assert words in message, message
    assert store.count_games() == before
