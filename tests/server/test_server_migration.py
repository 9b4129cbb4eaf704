"""A database of the server before issue 13 (PRAGMA user_version 2) keeps working: it is
upgraded on open (results, clocks, rematches, token indexes) with its games, which play on."""

from __future__ import annotations

import random
import sqlite3
import time
from pathlib import Path

from fastapi.testclient import TestClient

from rebelspace.engine import default_cards, new_game
from rebelspace.server.app import create_app
from rebelspace.server.games import cards_text
from rebelspace.server.store import SCHEMA_VERSION, hash_text, hash_token
from tests.server.server_helpers import auth, post, state

# The schema of user_version 2, as that server created it.
SCHEMA_2 = """
CREATE TABLE games (id TEXT PRIMARY KEY, created REAL NOT NULL, mode TEXT NOT NULL,
    seed INTEGER NOT NULL, rules TEXT NOT NULL, cards TEXT NOT NULL, agent TEXT,
    computer_seat INTEGER, creator_seat INTEGER NOT NULL, invite TEXT, token0 TEXT,
    token1 TEXT, winner INTEGER, version INTEGER NOT NULL DEFAULT 0,
    active REAL NOT NULL DEFAULT 0, undo_seat INTEGER, undo_keep INTEGER);
CREATE TABLE actions (game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,
    action INTEGER NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
CREATE TABLE cardlists (hash TEXT PRIMARY KEY, cards TEXT NOT NULL) WITHOUT ROWID;
CREATE INDEX games_idle ON games (active) WHERE winner IS NULL;
PRAGMA user_version = 2;
"""


def test_a_database_of_schema_2_is_upgraded_and_its_games_play_on(tmp_path: Path) -> None:
    db = str(tmp_path / "v2.sqlite3")
    game = new_game(5)
    rng = random.Random(5)
    played = []
    for _ in range(12):
        seat = game.to_move
        action = rng.choice(game.legal_actions())
        game.apply(action)
        played.append((action, seat))
    cards = cards_text(default_cards())
    now = time.time()
    with sqlite3.connect(db) as conn:
        conn.executescript(SCHEMA_2)
        conn.execute("INSERT INTO cardlists VALUES (?, ?)", (hash_text(cards), cards))
        conn.execute(
            "INSERT INTO games (id, created, mode, seed, rules, cards, creator_seat, token0,"
            " token1, version, active) VALUES ('old', ?, 'hotseat', 5, '{}', ?, 0, ?, ?, 12, ?)",
            # Active now: the idle-game sweep at start leaves it alone.
            (now, hash_text(cards), hash_token("tok-rebel"), hash_token("tok-imperial"), now),
        )
        conn.executemany(
            "INSERT INTO actions VALUES ('old', ?, ?, ?)",
            [(i, a, s) for i, (a, s) in enumerate(played)],
        )
    with TestClient(create_app(db)) as client:
        msg = state(client, "old", "tok-rebel")
        assert msg["plies"] == 12 and msg["version"] == 12
        assert (msg["result"], msg["clock"], msg["claim"], msg["rematch"]) == (None,) * 4
        mine = client.post("/api/games/mine", json={"tokens": ["tok-imperial"]}).json()
        assert [(g["game_id"], g["seat"], g["plies"]) for g in mine["games"]] == [
            ("old", "imperial", 12)
        ]
        r = post(client, "/api/games/old/resign", "tok-imperial", {"version": 12})
        assert r.status_code == 200, r.text
        r = client.post("/api/games/old/rematch", json={"offer": True}, headers=auth("tok-rebel"))
        assert r.json()["rematch"]["game_id"]
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
        (reason,) = conn.execute("SELECT reason FROM games WHERE id = 'old'").fetchone()
    assert reason == "resign"
    with TestClient(create_app(db)) as client:  # opened again: nothing changes, all is kept
        assert state(client, "old")["result"] == {"winner": "rebel", "reason": "resign"}
