"""Bounded resources per client: game creation and WebSocket connections are rate-limited per
client address (token buckets: 429 ``rate_limited`` with Retry-After), card lists are stored
once per distinct content, and long-idle unfinished games are swept away."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from rebelspace.engine import default_cards, new_game
from rebelspace.engine.cards import cards_from_data
from rebelspace.server import limits
from rebelspace.server.app import create_app
from rebelspace.server.games import ServerError, Session, cards_text
from rebelspace.server.limits import ClientLimits, Rate, RateLimits, TokenBuckets, parse_rate
from rebelspace.server.store import SCHEMA_VERSION, Store
from tests.server.server_helpers import act, create, error, state, tokens


def test_a_token_bucket_allows_a_burst_then_its_rate() -> None:
    now = [0.0]
    buckets = TokenBuckets(Rate(burst=3, per_minute=6), clock=lambda: now[0])
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert buckets.take("a") == pytest.approx(10.0)  # one token every 10 s
    assert buckets.take("b") == 0.0  # another address has its own bucket
    now[0] = 10.0
    assert buckets.take("a") == 0.0 and buckets.take("a") > 0
    now[0] = 1000.0  # refilled to the burst, not beyond
    assert [buckets.take("a") for _ in range(4)][-1] > 0


def test_token_buckets_forget_refilled_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_TRACKED_ADDRESSES", 10)
    now = [0.0]
    buckets = TokenBuckets(Rate(burst=2, per_minute=60), clock=lambda: now[0])
    for i in range(10):
        buckets.take(f"10.0.0.{i}")
    now[0] = 5.0  # every bucket is full again
    buckets.take("10.0.1.1")
    assert len(buckets._buckets) == 1


def test_a_rate_refusal_names_the_request_the_rate_and_the_wait() -> None:
    # One RateLimits for the server's rates and the advisor's (issue 34): the words are each
    # kind's own, the rest of the answer the same.
    rates = RateLimits(
        {"create": (Rate(1, 2), "requests creating games"), "hint": (Rate(2, 1), "hint requests")}
    )
    rates.check("create", "a")
    with pytest.raises(ServerError) as refused:
        rates.check("create", "a")
    assert (refused.value.status, refused.value.code, refused.value.retry_after) == (
        429,
        "rate_limited",
        30,
    )
    assert refused.value.message == (
        "too many requests creating games from your address "
        "(limit: 1 at once, then 2 a minute); try again later"
    )
    rates.check("create", "b")  # another address, its own bucket
    rates.check("hint", "a")  # another kind of request, its own bucket
    rates.check("hint", "a")
    with pytest.raises(ServerError, match="too many hint requests from your address"):
        rates.check("hint", "a")


def test_rates_on_the_command_line_are_checked() -> None:
    assert parse_rate("20/10") == Rate(20, 10.0)
    for bad in ("20", "0/10", "5/0", "x/1", "5/-1", "5/inf"):
        with pytest.raises(ValueError, match="BURST/PER_MINUTE"):
            parse_rate(bad)


def test_a_creation_flood_gets_429_and_the_database_stays_bounded(db_path: str) -> None:
    strict = ClientLimits(create=Rate(5, 1))
    with TestClient(create_app(db_path, limits=strict)) as flood:
        answers = [flood.post("/api/games", json={"mode": "hotseat"}) for _ in range(200)]
        assert [r.status_code for r in answers[:5]] == [201] * 5
        refused = answers[5:]
        assert {r.status_code for r in refused} == {429}
        error(refused[0], 429, "rate_limited")
        wait = int(refused[0].headers["Retry-After"])
        assert wait == refused[0].json()["retry_after"] and 1 <= wait <= 60
        # Another address is not held back by the flood.
        other = TestClient(flood.app, client=("203.0.113.9", 4000))
        assert other.post("/api/games", json={"mode": "hotseat"}).status_code == 201
        assert flood.app.state.server.store.count_games() == 6  # type: ignore[attr-defined]


def test_websocket_connections_are_rate_limited_per_address(db_path: str) -> None:
    strict = ClientLimits(connect=Rate(2, 1))
    with TestClient(create_app(db_path, limits=strict)) as client:
        gid = create(client, mode="hotseat")["game_id"]
        for _ in range(2):
            with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
                assert ws.receive_json()["type"] == "state"
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            msg = ws.receive_json()
            assert msg["error"] == "rate_limited" and msg["retry_after"] >= 1
            with pytest.raises(WebSocketDisconnect) as info:
                ws.receive_json()
            assert info.value.code == 4429


def test_card_lists_are_stored_once_per_distinct_content(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    with TestClient(create_app(db)) as client:
        for mode in ("hotseat", "computer", "online", "hotseat"):
            create(client, mode=mode)
        store = client.app.state.server.store  # type: ignore[attr-defined]
        assert store.count_games() == 4 and store.count_cardlists() == 1
    edited = default_cards().to_data()
    edited[0]["ground"] += 1
    with TestClient(create_app(db, cards=cards_from_data(edited))) as client:
        gid = create(client, mode="hotseat")["game_id"]
        store = client.app.state.server.store  # type: ignore[attr-defined]
        assert store.count_cardlists() == 2
        session = client.app.state.server.get(gid)  # type: ignore[attr-defined]
        assert session.state.cards.to_data() == edited


def age(db: str, game_id: str, days: float) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE games SET active = ? WHERE id = ?", (time.time() - days * 86400, game_id)
        )


def test_the_sweep_removes_idle_unfinished_games_and_keeps_finished_ones(db_path: str) -> None:
    with TestClient(create_app(db_path, idle_days=30)) as client:
        server = client.app.state.server  # type: ignore[attr-defined]
        idle = create(client, mode="hotseat", seed=1)
        recent = create(client, mode="hotseat", seed=2)
        finished = create(client, mode="computer", opponent="random", side="rebel", seed=3)
        fin_id, fin_tok = finished["game_id"], tokens(finished)["rebel"]
        rng = random.Random(0)
        msg = state(client, fin_id, fin_tok)
        while not msg["over"]:
            if msg["legal"]:
                msg = act(client, fin_id, fin_tok, rng.choice(msg["legal"])["id"], msg["version"])
            else:
                msg = state(client, fin_id, fin_tok)
        act(client, idle["game_id"], tokens(idle)["rebel"], "draw 2")
        age(db_path, idle["game_id"], 31)
        age(db_path, recent["game_id"], 29)
        age(db_path, fin_id, 400)
        server.sessions.clear()  # as after a restart: nothing held in memory
        assert server.sweep() == 1
        error(client.get(f"/api/games/{idle['game_id']}"), 404, "not_found")
        assert state(client, recent["game_id"])["plies"] == 0
        assert state(client, fin_id)["over"]
        assert client.get(f"/api/games/{fin_id}/record").status_code == 200
        with sqlite3.connect(db_path) as conn:
            left = conn.execute(
                "SELECT COUNT(*) FROM actions WHERE game_id = ?", (idle["game_id"],)
            )
            assert left.fetchone() == (0,)


def test_the_sweep_keeps_a_game_someone_is_connected_to(db_path: str) -> None:
    with TestClient(create_app(db_path)) as client:
        server = client.app.state.server  # type: ignore[attr-defined]
        gid = create(client, mode="hotseat")["game_id"]
        age(db_path, gid, 100)
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.receive_json()
            assert server.sweep() == 0
        assert server.sweep() == 1


# The first server's schema (user_version 0): each game held its own copy of the card list.
OLD_SCHEMA = """
CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, mode TEXT NOT NULL,
    seed INTEGER NOT NULL, rules TEXT NOT NULL, cards TEXT NOT NULL, agent TEXT,
    computer_seat INTEGER, creator_seat INTEGER NOT NULL, invite TEXT, token0 TEXT,
    token1 TEXT, winner INTEGER);
CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
    action INTEGER NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
"""


def test_a_database_of_the_first_server_is_upgraded_with_its_games(tmp_path: Path) -> None:
    db = str(tmp_path / "old.sqlite3")
    game = new_game(77)
    rng = random.Random(77)
    played = []
    for _ in range(40):
        seat = game.to_move
        action = rng.choice(game.legal_actions())
        game.apply(action)
        played.append((action, seat))
    cards = cards_text(default_cards())
    with sqlite3.connect(db) as conn:
        conn.executescript(OLD_SCHEMA)
        for gid in ("old1", "old2"):
            conn.execute(
                "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    gid,
                    1.0,
                    "hotseat",
                    77,
                    json.dumps({}),
                    cards,
                    None,
                    None,
                    0,
                    None,
                    "a",
                    "b",
                    None,
                ),
            )
        conn.executemany(
            "INSERT INTO actions VALUES ('old1', ?, ?, ?)",
            [(i, a, s) for i, (a, s) in enumerate(played)],
        )
    store = Store(db)
    try:
        stored = store.load_game("old1")
        assert stored is not None and stored.actions == played and stored.version == 40
        assert store.count_cardlists() == 1
        session = Session(stored)
        assert session.state.history == game.history and session.plies == 40
        other = store.load_game("old2")
        assert other is not None and other.version == 0 and other.actions == []
    finally:
        store.close()
    Store(db).close()  # opening an upgraded database again changes nothing
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
