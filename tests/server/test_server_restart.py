"""Nothing lost: a real `rebelspace serve` process on a real SQLite file is killed (SIGKILL) and
started again; every game resumes exactly where it was and plays on to its end."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from rebelspace.engine import replay
from rebelspace.server.app import create_app
from rebelspace.server.computer import ComputerPlayers
from tests.server.server_helpers import create, tokens, wait_turn
from tests.server.server_process import HTTP, ServerProcess


def get(url: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = HTTP.get(url, headers=headers)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def play(server: ServerProcess, gid: str, toks: dict[str, str], rng: random.Random, n: int) -> int:
    """Up to ``n`` random actions of the seats in ``toks``; checks each is stored before it is
    acknowledged. Returns the version reached."""
    url = f"{server.url}/api/games/{gid}"
    any_token = next(iter(toks.values()))
    for _ in range(n * 50):
        msg = get(url, any_token)
        if msg["over"] or n == 0:
            return int(msg["version"])
        seat = msg["view"]["to_move"]
        if seat not in toks:
            time.sleep(0.005)  # the computer is thinking
            continue
        mine = get(url, toks[seat])
        r = HTTP.post(
            f"{url}/actions",
            json={"action": rng.choice(mine["legal"])["text"], "version": mine["version"]},
            headers={"Authorization": f"Bearer {toks[seat]}"},
        )
        assert r.status_code == 200, r.text
        with sqlite3.connect(server.db) as db:  # a second reader of the live database
            (stored,) = db.execute(
                "SELECT COUNT(*) FROM actions WHERE game_id = ?", (gid,)
            ).fetchone()
        assert stored >= r.json()["version"]
        n -= 1
    raise AssertionError("no progress")


def snapshot(server: ServerProcess, gid: str, toks: dict[str, str]) -> list[dict[str, Any]]:
    url = f"{server.url}/api/games/{gid}"
    return [get(url, t) for t in toks.values()] + [get(url)]


def test_games_resume_exactly_after_the_server_is_killed(server: ServerProcess) -> None:
    games = {}
    for body in (
        {"mode": "hotseat", "seed": 7},
        {"mode": "computer", "opponent": "random", "seed": 8, "side": "imperial"},
        {"mode": "computer", "opponent": "heuristic", "seed": 9},
    ):
        created = HTTP.post(f"{server.url}/api/games", json=body).json()
        games[created["game_id"]] = tokens(created)
    rng = random.Random(1)
    for gid, toks in games.items():
        play(server, gid, toks, rng, 40)
    before = {gid: snapshot(server, gid, toks) for gid, toks in games.items()}
    server.kill()
    server.start()
    for gid, toks in games.items():
        assert snapshot(server, gid, toks) == before[gid]
    # A reconnecting seat gets the same state on its WebSocket.
    from websockets.sync.client import connect

    gid, toks = next(iter(games.items()))
    ws_url = server.url.replace("http", "ws") + f"/api/games/{gid}/ws?token={toks['rebel']}"
    with connect(ws_url) as ws:
        pushed = json.loads(ws.recv(timeout=10))
    expected = dict(before[gid][0])
    pushed["seats"]["rebel"]["connected"] = False  # the only difference: it is connected now
    assert pushed == expected
    # Every game plays on to its end, and its record replays to the same result.
    for gid, toks in games.items():
        play(server, gid, toks, rng, 10_000)
        record = get(f"{server.url}/api/games/{gid}/record")
        game = replay(record)  # checks the stated result against the replayed one
        assert game.is_over and record["result"]["winner"] in ("rebel", "imperial")
    server.kill()
    server.start()
    for gid in games:  # finished games keep their records
        assert get(f"{server.url}/api/games/{gid}/record")["result"]["winner"] in (
            "rebel",
            "imperial",
        )


class StuckComputer(ComputerPlayers):
    """A computer that never decides: the server is stopped in the middle of its turn."""

    async def decide(self, *args: Any, **kwargs: Any) -> int:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def test_a_computer_turn_cut_off_by_a_restart_is_played_when_the_game_is_opened(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(db, computer=StuckComputer())) as client:
        created = create(client, mode="computer", opponent="random", side="imperial", seed=5)
        gid, tok = created["game_id"], tokens(created)["imperial"]
        msg = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {tok}"}).json()
        assert msg["version"] == 0 and msg["view"]["to_move"] == "rebel"
    with TestClient(create_app(db)) as client:
        msg = wait_turn(client, gid, tok, "imperial")
        assert msg["version"] > 0 and msg["legal"]


def test_the_store_is_in_wal_mode(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(str(db))) as client:
        create(client, mode="hotseat")
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        (stored,) = conn.execute("SELECT token0 FROM games").fetchone()
    assert len(stored) == 64  # a SHA-256 hex digest, not the token itself
    assert os.path.getsize(db) > 0


def test_idle_games_leave_memory_and_come_back_from_the_database(client: TestClient) -> None:
    server = client.app.state.server  # type: ignore[attr-defined]
    server.cache_size = 2
    first = create(client, mode="hotseat", seed=4)
    gid, toks = first["game_id"], tokens(first)
    client.post(
        f"/api/games/{gid}/actions",
        json={"action": "draw 2", "version": 0},
        headers={"Authorization": f"Bearer {toks['rebel']}"},
    )
    before = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {toks['rebel']}"})
    for _ in range(4):
        create(client, mode="hotseat")
    assert gid not in server.sessions and len(server.sessions) <= 3
    after = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {toks['rebel']}"})
    assert after.json() == before.json() and after.json()["version"] == 1


def test_a_pending_undo_request_survives_a_crash_and_its_answer_reaches_the_asker(
    server: ServerProcess,
) -> None:
    from websockets.sync.client import connect

    created = HTTP.post(f"{server.url}/api/games", json={"mode": "hotseat", "seed": 4}).json()
    gid, toks = created["game_id"], tokens(created)
    url = f"{server.url}/api/games/{gid}"

    def post(path: str, seat: str, body: dict[str, Any]) -> dict[str, Any]:
        r = HTTP.post(f"{url}/{path}", json=body, headers={"Authorization": f"Bearer {toks[seat]}"})
        assert r.status_code == 200, r.text
        data: dict[str, Any] = r.json()
        return data

    post("actions", "rebel", {"action": "draw 2", "version": 0})
    post("actions", "rebel", {"action": "done deploying", "version": 1})
    asked = post("undo", "rebel", {"version": 2})
    assert asked["undo"]["pending_from"] == "rebel"
    server.kill()
    server.start()
    assert get(url, toks["imperial"])["undo"]["pending_from"] == "rebel"
    with connect(f"ws://127.0.0.1:{server.port}/api/games/{gid}/ws") as ws:
        ws.send(json.dumps({"type": "auth", "token": toks["rebel"]}))
        seen: list[dict[str, Any]] = []
        while not (seen and seen[-1].get("seat") == "rebel"):
            seen.append(json.loads(ws.recv(timeout=30)))
        # Version 3: two actions and the request (stored with it, so kept by the restart).
        answered = post("undo/answer", "imperial", {"accept": True, "version": 3})
        assert answered["plies"] == 1 and answered["undo"]["pending_from"] is None
        while (msg := json.loads(ws.recv(timeout=30)))["type"] != "undo_answer":
            pass
        assert msg == {"type": "undo_answer", "from": "imperial", "accept": True}
