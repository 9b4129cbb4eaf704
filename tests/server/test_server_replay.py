"""Replays of finished games (issue 13): refused while a game goes on, then every frame with
full information, the last one the finished game's position (checked against the engine on
whole games); and the list of a player's games, ``POST /api/games/mine``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelspace.engine import GameState, event_json, replay
from tests.server.schema_helpers import check_view
from tests.server.server_helpers import create, error, online_game, post, state, tokens

SEATS = ("rebel", "imperial")


def play_to_the_end(client: TestClient, gid: str, toks: dict[str, str], seed: int) -> int:
    """Random legal actions of both hot-seat seats until the game is over; the plies."""
    rng = random.Random(seed)
    for _ in range(5000):
        msg = state(client, gid, toks["rebel"])
        if msg["over"]:
            return int(msg["plies"])
        seat = msg["view"]["to_move"]
        mine = msg if seat == "rebel" else state(client, gid, toks[seat])
        body = {"action": rng.choice(mine["legal"])["id"], "version": mine["version"]}
        r = post(client, f"/api/games/{gid}/actions", toks[seat], body)
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def whole_position(game: GameState, logged: int) -> Any:
    """The engine's position with nothing hidden: the public view, both hands (each as its
    player sees it), and the full log's lines from ``logged`` on (a frame's own lines); no
    legal actions (no view on the wire has them, docs/protocol.md)."""
    view = game.public_view().to_dict()
    del view["legal_actions"]
    view["you"]["hand"] = game.view(0).you.hand
    view["opponent"]["hand"] = game.view(1).you.hand
    view["log"] = game.log_lines(None)[logged:]
    return json.loads(json.dumps(view))


def check_replay_against_the_engine(data: dict[str, Any], record: dict[str, Any]) -> None:
    """Each frame is the engine's position after that many actions, with both hands; the
    actions and events are the engine's, in order; the last frame is the final position."""
    game = replay({**record, "actions": [], "action_ids": [], "result": None})
    names = tuple(t.name for t in game.cards)
    frames = data["frames"]
    assert len(frames) == len(record["actions"]) + 1
    assert [f["plies"] for f in frames] == list(range(len(frames)))
    events: list[dict[str, Any]] = []
    logged = 0  # the log's lines before this frame's action
    for i, frame in enumerate(frames):
        if i > 0:
            logged = len(game.log_lines(None))
            action = frame["action"]
            assert action["id"] == record["action_ids"][i - 1]
            assert action["text"] == record["actions"][i - 1]
            assert action["by"] == SEATS[game.to_move]
            game.apply(action["id"])
        else:
            assert frame["action"] is None
        view = frame["view"]
        assert view == whole_position(game, logged)
        assert view["you"]["hand"] is not None and view["opponent"]["hand"] is not None
        events += frame["events"]
        if i % 25 == 0 or i == len(frames) - 1:
            check_view(view)
    assert frames[-1]["view"] == whole_position(game, logged)  # the game's final position
    assert [line for f in frames for line in f["view"]["log"]] == game.log_lines(None)
    assert events == [{**event_json(e, names), "seq": i} for i, e in enumerate(game.events or ())]
    assert [e["seq"] for e in events] == list(range(len(events)))


@pytest.mark.parametrize("seed", [4, 11])
def test_a_replay_of_a_whole_game_matches_the_engine_and_its_final_position(
    client: TestClient, seed: int
) -> None:
    created = create(client, mode="hotseat", seed=seed)
    gid, toks = created["game_id"], tokens(created)
    url = f"/api/games/{gid}/replay"
    message = error(client.get(url), 409, "conflict")
    assert "over" in message
    plies = play_to_the_end(client, gid, toks, seed)
    r = client.get(url)
    assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
    data = r.json()
    assert data["type"] == "replay" and data["game_id"] == gid and data["mode"] == "hotseat"
    final = state(client, gid)
    assert data["result"] == final["result"] and data["result"]["reason"] == "rules"
    assert data["seats"] == final["seats"] and len(data["frames"]) == plies + 1
    record = client.get(f"/api/games/{gid}/record").json()
    check_replay_against_the_engine(data, record)
    assert client.get(url).json() == data  # the cached answer is the same


def test_a_resigned_game_replays_to_the_position_it_was_resigned_in(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    post(client, f"/api/games/{gid}/actions", toks["rebel"], {"action": "draw 2", "version": 0})
    assert post(client, f"/api/games/{gid}/resign", toks["rebel"], {}).status_code == 200
    data = client.get(f"/api/games/{gid}/replay").json()
    assert data["result"] == {"winner": "imperial", "reason": "resign"}
    record = client.get(f"/api/games/{gid}/record").json()
    check_replay_against_the_engine(data, record)
    assert len(data["frames"]) == 2


def test_mine_lists_only_the_games_of_valid_tokens_newest_first(client: TestClient) -> None:
    # The person decides first: the computer changes nothing meanwhile (the order is by time).
    computer = create(client, mode="computer", opponent="heuristic", side="rebel", seed=2)
    hotseat = create(client, mode="hotseat", seed=3)
    gid, online = online_game(client)
    post(client, f"/api/games/{gid}/resign", online["imperial"], {})
    body = {"tokens": [tokens(computer)["rebel"], online["imperial"], tokens(hotseat)["rebel"]]}
    body["tokens"] += ["not-a-token", online["rebel"][::-1]]
    r = client.post("/api/games/mine", json=body)
    assert r.status_code == 200, r.text
    games = r.json()["games"]
    assert [(g["game_id"], g["seat"]) for g in games] == [
        (gid, "imperial"),
        (hotseat["game_id"], "rebel"),
        (computer["game_id"], "rebel"),
    ]
    online_entry, hotseat_entry, computer_entry = games
    assert online_entry["over"] and online_entry["turn"] is None
    assert online_entry["result"] == {"winner": "rebel", "reason": "resign"}
    assert online_entry["opponent"] == {"kind": "human", "name": None, "level": None}
    assert hotseat_entry["turn"] == "rebel" and hotseat_entry["plies"] == 0
    assert not hotseat_entry["over"] and hotseat_entry["result"] is None
    assert computer_entry["opponent"] == {"kind": "computer", "name": "heuristic", "level": None}
    assert computer_entry["mode"] == "computer"
    for g in games:
        assert g["created"].endswith("Z") and g["updated"] >= g["created"]
        assert set(g) == {
            "game_id", "seat", "mode", "created", "updated", "over", "result", "opponent",
            "plies", "turn",
        }  # fmt: skip
    assert client.post("/api/games/mine", json={"tokens": []}).json() == {"games": []}


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"tokens": ["x"] * 101}, "tokens"),
        ({"tokens": "abc"}, "tokens"),
        ({"tokens": [1]}, "tokens"),
        ({"tokens": [], "all": True}, "all"),
        ({}, "tokens"),
    ],
)
def test_bad_mine_requests_get_400(client: TestClient, body: dict[str, Any], words: str) -> None:
    message = error(client.post("/api/games/mine", json=body), 400, "bad_request")
    assert words in message, message


def test_an_ismcts_opponent_is_listed_with_its_level(client: TestClient) -> None:
    created = create(client, mode="computer", opponent="ismcts", level="easy", seed=2)
    r = client.post("/api/games/mine", json={"tokens": [tokens(created)["rebel"]]})
    (entry,) = r.json()["games"]
    assert entry["opponent"] == {"kind": "computer", "name": "ismcts", "level": "easy"}
