"""REST: creating and joining games, acting, tokens, bad input, records."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelspace.cli import main
from rebelspace.server.app import create_app
from rebelspace.server.computer import ComputerPlayers
from tests.server.server_helpers import (
    act,
    auth,
    create,
    error,
    scenario_message,
    state,
    tokens,
    wait_turn,
)


def play_to_the_end(client: TestClient, game_id: str, toks: dict[str, str], seed: int) -> dict:
    """Random legal actions for the seats in ``toks``; the computer plays the other seat."""
    rng = random.Random(seed)
    msg = state(client, game_id, next(iter(toks.values())))
    for _ in range(5000):
        if msg["over"]:
            return msg
        seat = msg["view"]["to_move"]
        if seat not in toks:  # the computer's turn: it plays in the server's event loop
            time.sleep(0.001)
            msg = state(client, game_id, next(iter(toks.values())))
            continue
        mine = state(client, game_id, toks[seat])
        msg = act(client, game_id, toks[seat], rng.choice(mine["legal"])["id"])
    raise AssertionError("the game did not end")


def test_create_a_computer_game_and_play_it_to_the_end_then_replay_its_record(
    client: TestClient, tmp_path: Path, capsys: object
) -> None:
    created = create(client, mode="computer", opponent="random", side="imperial", seed=9)
    assert created["mode"] == "computer" and created["invite"] is None
    assert [s["player"] for s in created["seats"]] == ["imperial"]
    assert created["watch"] == f"/watch/{created['game_id']}"
    toks = tokens(created)
    gid = created["game_id"]
    msg = wait_turn(client, gid, toks["imperial"], "imperial")
    # The computer (Rebel) has made its first decisions on its own: it is the Imperial's turn.
    assert msg["seat"] == "imperial" and msg["version"] > 0
    assert msg["seats"]["rebel"]["kind"] == "computer" and msg["seats"]["imperial"]["taken"]
    assert msg["view"]["to_move"] == "imperial" and msg["legal"]
    error(client.get(f"/api/games/{gid}/record"), 409, "conflict")
    final = play_to_the_end(client, gid, toks, seed=1)
    assert final["over"] and final["winner"] in ("rebel", "imperial") and final["legal"] == []
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["seed"] == 9 and len(record["actions"]) == final["plies"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--json"]) == 0


def test_hotseat_returns_both_seats_and_each_token_acts_only_for_its_seat(
    client: TestClient,
) -> None:
    created = create(client, mode="hotseat", seed=4)
    toks = tokens(created)
    assert set(toks) == {"rebel", "imperial"} and toks["rebel"] != toks["imperial"]
    gid = created["game_id"]
    msg = state(client, gid, toks["rebel"])
    assert msg["seats"]["imperial"]["kind"] == "human" and msg["legal"]
    # The Imperial token cannot make the Rebel's decision.
    r = client.post(
        f"/api/games/{gid}/actions",
        json={"action": 1, "version": 0},
        headers=auth(toks["imperial"]),
    )
    assert "rebel's decision" in error(r, 409, "not_your_turn")
    assert state(client, gid, toks["rebel"]) == msg
    after = act(client, gid, toks["rebel"], "draw 2")
    assert after["version"] == 1 and after["view"]["you"]["hand_size"] == 7


def test_tokens_missing_wrong_or_malformed_are_refused_and_change_nothing(
    client: TestClient,
) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    other = tokens(create(client, mode="hotseat", seed=4))
    before = state(client, gid)
    url = f"/api/games/{gid}/actions"
    error(client.post(url, json={"action": 1, "version": 0}), 403, "forbidden")
    error(
        client.post(url, json={"action": 1, "version": 0}, headers=auth("x" * 32)), 403, "forbidden"
    )
    error(
        client.post(url, json={"action": 1, "version": 0}, headers=auth(other["rebel"])),
        403,
        "forbidden",
    )
    bad = {"Authorization": toks["rebel"]}  # no "Bearer"
    error(client.post(url, json={"action": 1, "version": 0}, headers=bad), 403, "forbidden")
    error(client.get(f"/api/games/{gid}", headers=auth("nope")), 403, "forbidden")
    for path in ("undo", "undo/answer"):
        body = {"accept": True} if path == "undo/answer" else None
        error(client.post(f"/api/games/{gid}/{path}", json=body), 403, "forbidden")
    assert state(client, gid) == before and before["version"] == 0


def test_bad_input_gets_a_clear_error_and_changes_nothing(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    url, h = f"/api/games/{gid}/actions", auth(tok)
    before = state(client, gid, tok)
    json_h = {**h, "content-type": "application/json"}
    assert "not valid JSON" in error(
        client.post(url, content=b"{oops", headers=json_h), 400, "bad_request"
    )
    error(client.post(url, json={}, headers=h), 400, "bad_request")
    error(
        client.post(url, json={"action": 1, "extra": 2, "version": 0}, headers=h),
        400,
        "bad_request",
    )
    error(client.post(url, json={"action": True, "version": 0}, headers=h), 400, "bad_request")
    error(client.post(url, json={"action": [1], "version": 0}, headers=h), 400, "bad_request")
    msg = error(
        client.post(url, json={"action": "deploy Princess", "version": 0}, headers=h),
        422,
        "illegal_action",
    )
    assert "deploy Princess" in msg
    # Not an action at all (InvalidActionError) is told apart from not legal now.
    error(
        client.post(url, json={"action": "fly away", "version": 0}, headers=h),
        422,
        "invalid_action",
    )
    error(client.post(url, json={"action": 10**9, "version": 0}, headers=h), 422, "invalid_action")
    error(client.post(url, json={"action": -1, "version": 0}, headers=h), 422, "invalid_action")
    error(client.post(url, json={"action": 1, "version": 0.5}, headers=h), 400, "bad_request")
    error(client.post(url, json={"action": 1, "version": "0"}, headers=h), 400, "bad_request")
    error(
        client.post(url, json={"action": "x" * 20_000, "version": 0}, headers=h), 413, "too_large"
    )
    error(client.post(url, json={"action": "x" * 500, "version": 0}, headers=h), 400, "bad_request")
    error(
        client.post("/api/games/nosuchgame/actions", json={"action": 1, "version": 0}, headers=h),
        404,
        "not_found",
    )
    error(client.get("/api/games/" + "z" * 300), 404, "not_found")
    error(client.get("/api/nothing"), 404, "not_found")
    assert state(client, gid, tok) == before


def test_a_chunked_oversize_body_is_refused_too(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]

    def chunks():  # no Content-Length: the body arrives in pieces
        yield b'{"action": "'
        for _ in range(40):
            yield b"x" * 1000
        yield b'"}'

    r = client.post(
        f"/api/games/{gid}/actions",
        content=chunks(),
        headers={**auth(tok), "content-type": "application/json"},
    )
    error(r, 413, "too_large")


def test_create_refuses_bad_fields(client: TestClient) -> None:
    for body in (
        {},
        {"mode": "solo"},
        {"mode": "computer", "opponent": "oracle"},
        {"mode": "computer", "level": "godlike"},
        {"mode": "hotseat", "side": "both"},
        {"mode": "hotseat", "seed": "7"},
        {"mode": "hotseat", "colour": "red"},
    ):
        error(client.post("/api/games", json=body), 400, "bad_request")
    msg = error(client.post("/api/games", json={"mode": "online", "seed": 3}), 400, "bad_request")
    assert "seed" in msg


def test_an_online_game_waits_for_the_invited_player(client: TestClient) -> None:
    created = create(client, mode="online", side="imperial")
    gid, mine = created["game_id"], tokens(created)
    assert list(mine) == ["imperial"]
    invite = created["invite"]
    assert invite.startswith(f"/join/{gid}/")
    code = invite.rsplit("/", 1)[1]
    msg = state(client, gid, mine["imperial"])
    assert msg["invite"] == invite and not msg["seats"]["rebel"]["taken"]
    assert "invite" not in state(client, gid)  # spectators do not get the invite
    error(client.post(f"/api/games/{gid}/join", json={"invite": "wrong"}), 403, "forbidden")
    r = client.post(f"/api/games/{gid}/join", json={"invite": code})
    assert r.status_code == 200 and r.json()["player"] == "rebel"
    rebel = r.json()["token"]
    error(client.post(f"/api/games/{gid}/join", json={"invite": code}), 409, "conflict")
    msg = state(client, gid, mine["imperial"])
    assert msg["seats"]["rebel"]["taken"] and "invite" not in msg
    assert act(client, gid, rebel, "draw 1")["version"] == 1


def test_actions_wait_until_the_online_game_has_two_players(client: TestClient) -> None:
    created = create(client, mode="online", side="rebel")
    gid, tok = created["game_id"], tokens(created)["rebel"]
    r = client.post(
        f"/api/games/{gid}/actions", json={"action": 1, "version": 0}, headers=auth(tok)
    )
    assert "wait" in error(r, 409, "conflict")


def test_joining_a_game_without_an_open_seat_is_refused(client: TestClient) -> None:
    gid = create(client, mode="hotseat")["game_id"]
    error(client.post(f"/api/games/{gid}/join", json={"invite": "x"}), 409, "conflict")
    error(client.post("/api/games/nosuch/join", json={"invite": "x"}), 404, "not_found")


def test_spectators_read_the_public_view(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    act(client, gid, toks["rebel"], "draw 2")
    public = state(client, gid)
    assert (
        public["seat"] is None and public["legal"] == [] and public["view"]["player"] == "spectator"
    )
    assert public["view"]["you"]["hand"] is None and public["view"]["opponent"]["hand"] is None
    assert public["view"]["own_deck_contents"] == []
    assert public["undo"] == {"pending_from": None, "allowed": False}


def test_the_openapi_document_lists_the_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/join",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/undo",
        "/api/games/{game_id}/undo/answer",
        "/api/games/{game_id}/record",
    ):
        assert path in paths


def test_the_client_pages_are_served(client: TestClient) -> None:
    for path in ("/", "/watch/abc", "/join/abc/def", "/game/abc"):
        r = client.get(path)
        assert r.status_code == 200 and "html" in r.headers["content-type"]


def test_the_ismcts_computer_plays_from_its_process_pool(client: TestClient) -> None:
    created = create(client, mode="computer", opponent="ismcts", level="easy", side="imperial")
    gid, tok = created["game_id"], tokens(created)["imperial"]
    msg = wait_turn(client, gid, tok, "imperial")
    assert msg["version"] > 0 and msg["seats"]["rebel"]["kind"] == "computer"


class SlowComputer(ComputerPlayers):
    """Thinks, off the event loop as a real search does, until ``release`` is set (at most
    30 s)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    async def decide(self, *args: Any, **kwargs: Any) -> int:
        await asyncio.to_thread(self.release.wait, 30)
        return await super().decide(*args, **kwargs)


def test_a_thinking_computer_does_not_hold_up_other_games(db_path: str) -> None:
    computer = SlowComputer()
    with TestClient(create_app(db_path, computer=computer)) as client:
        slow = create(client, mode="computer", opponent="random", side="imperial")
        created = create(client, mode="hotseat", seed=4)
        gid, toks = created["game_id"], tokens(created)
        # Had the thinking held the event loop, these would have waited for it to end (30 s)
        # and the computer would have moved by now.
        act(client, gid, toks["rebel"], "draw 2")
        act(client, gid, toks["rebel"], "done deploying")
        assert state(client, slow["game_id"])["version"] == 0  # still thinking
        computer.release.set()


def test_the_card_catalogue_lists_every_card_as_printed(client: TestClient) -> None:
    cards = client.get("/api/cards").json()["cards"]
    by_name = {c["name"]: c for c in cards}
    soldier = by_name["Rebel Soldier"]
    assert soldier["side"] == "rebel" and soldier["kind"] == "ground"
    assert {"ground", "space", "damage", "cost", "type", "count", "keywords", "notes"} <= set(
        soldier
    )
    assert sorted(c["side"] for c in cards).count("imperial") > 10
    assert all(c["keywords"] == sorted(c["keywords"]) for c in cards)


def test_the_card_catalogue_carries_each_abilitys_words_from_its_effect(
    client: TestClient,
) -> None:
    by_name = {c["name"]: c for c in client.get("/api/cards").json()["cards"]}
    convert, trap, spies = by_name["Convert"], by_name["Trap"], by_name["Rebel Spies"]
    assert convert["ability_when"] == "end"
    assert convert["ability_menu"] == "take control of {target}"
    assert "R28" in convert["ability_words"]
    assert trap["ability_when"] == "defending" and trap["ability_menu"] is None
    assert spies["ability_when"] == "end" and spies["ability_menu"] is None
    soldier = by_name["Rebel Soldier"]
    assert soldier["ability_words"] is soldier["ability_when"] is soldier["ability_menu"] is None


SURPRISE_ATTACK = {
    "seed": 4,
    "phase": "attack",
    "rebel": {"active": ["Rebel Soldier", "Rebel Soldier"], "hand": ["Surprise Attack"]},
    "imperial": {"active": ["Troopers"], "hand": []},
    "battle": {
        "step": "tricks",
        "groups": [
            {"units": ["Rebel Soldier"], "blockers": ["Troopers"]},
            {"units": ["Rebel Soldier"]},
        ],
    },
    "actions": ["play Surprise Attack"],
}


def test_the_views_groups_carry_the_engines_battle_values(client: TestClient) -> None:
    cards = {t.name: t for t in client.app.state.server.cards}  # type: ignore[attr-defined]
    soldier, troopers = cards["Rebel Soldier"], cards["Troopers"]
    for seat in (0, 1, None):
        msg = scenario_message(client, SURPRISE_ATTACK, seat)
        assert "battle_values" not in msg
        groups = msg["view"]["battle"]["groups"]
        values = [
            (g["number"], g["attack_value"], g["defense_value"], g["damage"], g["stopped"])
            for g in groups
        ]
        # Surprise Attack's +2 (R30) counts for each attacking unit; the blocked group deals
        # no damage (null), the unblocked one its Damage rating.
        assert values == [
            (1, soldier.ground + 2, troopers.ground, None, 0),
            (2, soldier.ground + 2, None, soldier.damage, 0),
        ]
        types = [(e["seq"], e["type"]) for e in msg["events"]]
        assert types == [(0, "scenario_started"), (1, "trick_played")]
        assert msg["events"][1] == {
            "type": "trick_played",
            "player": "rebel",
            "card": "Surprise Attack",
            "seq": 1,
        }
    assert scenario_message(client, {"seed": 4}, 0)["view"]["battle"] is None


def test_serve_cards_and_rules_apply_to_new_games_and_stay_with_each_game(db_path: str) -> None:
    # `serve --cards FILE --rule starting_hand=3`: new games use them, and a game keeps its own
    # card list and rules when the server restarts with others.
    from rebelspace.engine import RulesOptions, load_cards

    edited = load_cards().with_changes({"Space Cruiser": {"space": 8}})
    options = RulesOptions(starting_hand=3)
    with TestClient(create_app(db_path, cards=edited, options=options)) as c:
        catalogue = {x["name"]: x for x in c.get("/api/cards").json()["cards"]}
        assert catalogue["Space Cruiser"]["space"] == 8
        created = create(c, mode="hotseat", seed=4)
        gid, toks = created["game_id"], tokens(created)
        view = state(c, gid, toks["rebel"])["view"]
        assert view["you"]["hand_size"] == 3 and view["opponent"]["hand_size"] == 3
    with TestClient(create_app(db_path)) as c:  # restarted as printed
        view = state(c, gid, toks["rebel"])["view"]
        assert view["you"]["hand_size"] == 3  # the game kept its rules
        record = c.get(f"/api/games/{gid}/record")
        assert record.status_code == 409  # not over: the record (with its cards) stays hidden
        fresh = create(c, mode="hotseat", seed=4)
        assert state(c, fresh["game_id"], tokens(fresh)["rebel"])["view"]["you"]["hand_size"] == 5


def test_serve_refuses_a_bad_rule_or_card_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.sqlite3")
    assert main(["serve", "--db", db, "--rule", "tie=sometimes"]) == 2
    assert "tie" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--cards", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml" in capsys.readouterr().err


@pytest.mark.parametrize("port", ["99999", "0", "http"])
def test_serve_refuses_a_port_that_is_not_one_before_starting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], port: str
) -> None:
    """A port beyond 65535 used to leave ``serve`` hanging instead of saying so."""
    db = tmp_path / "g.sqlite3"
    with pytest.raises(SystemExit) as info:
        main(["serve", "--db", str(db), "--port", port])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--port" in err and port in err
    assert not db.exists()


def test_the_levels_call_gives_the_ratings_the_lobby_may_show(client: TestClient) -> None:
    from rebelspace.play.ratings import level_ratings, published

    answer = client.get("/api/levels").json()
    table = published()
    assert table is not None, "the package ships the ladder's table (rebelspace ladder --publish)"
    assert answer == level_ratings()
    assert answer["games_per_pair"] == table["table"]["games_per_pair"] > 0
    assert answer["experimental"] == ["ismcts:hard", "ismcts:expert"]


def test_a_whole_number_written_as_a_float_is_an_integer(client: TestClient) -> None:
    """JSON Schema counts 4851.0 an integer, so the server does too (REST and WebSocket):
    a stale one is refused as stale, not as malformed, and a current one is applied."""
    created = create(client, mode="hotseat", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    url, h = f"/api/games/{gid}/actions", auth(tok)
    error(client.post(url, json={"action": 0, "version": 4851.0}, headers=h), 409, "stale")
    draw = state(client, gid, tok)["legal"][0]["id"]
    r = client.post(url, json={"action": float(draw), "version": 0.0}, headers=h)
    assert r.status_code == 200, r.text
    assert r.json()["version"] == 1 and r.json()["plies"] == 1
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_json({"type": "auth", "token": tok})
        while ws.receive_json().get("seat") != "rebel":  # the spectator's state comes first
            pass
        ws.send_json({"type": "action", "action": "done deploying", "version": 1.0})
        msg = ws.receive_json()
        assert msg["type"] == "state" and msg["version"] == 2, msg


def test_the_openapi_document_gives_action_ids_a_minimum_of_0(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    choices = schemas["ActionBody"]["properties"]["action"]["anyOf"]
    assert {"type": "integer", "minimum": 0} in choices
    assert schemas["ActionBody"]["properties"]["version"]["type"] == "integer"
