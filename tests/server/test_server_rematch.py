"""Rematches (issue 13): sides swapped, the same tokens open the other side's seats in the new
game (the other side's token cannot act for it), online offers wait for the other seat,
computer and hot-seat rematches start at once; offering twice is harmless."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.server_helpers import create, error, online_game, post, state, tokens, wait_turn


def resign(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    r = post(client, f"/api/games/{gid}/resign", token, {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def rematch(client: TestClient, gid: str, token: str, offer: bool) -> dict[str, Any]:
    r = post(client, f"/api/games/{gid}/rematch", token, {"offer": offer})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_an_online_rematch_waits_for_the_other_seat_and_swaps_sides(client: TestClient) -> None:
    gid, toks = online_game(client, clock={"initial_s": 300, "increment_s": 2})
    resign(client, gid, toks["rebel"])
    offered = rematch(client, gid, toks["rebel"], True)
    assert offered["rematch"] == {"offered_by": "rebel", "game_id": None}
    again = rematch(client, gid, toks["rebel"], True)  # idempotent
    assert again["version"] == offered["version"] and again["rematch"] == offered["rematch"]
    seen = state(client, gid, toks["imperial"])
    assert seen["rematch"]["offered_by"] == "rebel"
    declined = rematch(client, gid, toks["imperial"], False)
    assert declined["rematch"] == {"offered_by": None, "game_id": None}
    assert declined["version"] == offered["version"] + 1
    rematch(client, gid, toks["rebel"], True)
    accepted = rematch(client, gid, toks["imperial"], True)
    new_id = accepted["rematch"]["game_id"]
    assert new_id and new_id != gid and accepted["rematch"]["offered_by"] is None
    assert state(client, gid)["rematch"]["game_id"] == new_id  # spectators see it too
    assert rematch(client, gid, toks["rebel"], True)["rematch"]["game_id"] == new_id
    error(
        post(client, f"/api/games/{gid}/rematch", toks["rebel"], {"offer": False}), 409, "conflict"
    )

    # The old Rebel token is the new game's Imperial seat, and the other way round.
    as_imperial = state(client, new_id, toks["rebel"])
    as_rebel = state(client, new_id, toks["imperial"])
    assert as_imperial["seat"] == "imperial" and as_rebel["seat"] == "rebel"
    assert as_rebel["mode"] == "online" and as_rebel["seats"]["imperial"]["taken"]
    assert "invite" not in as_rebel and as_rebel["result"] is None
    clock = as_rebel["clock"]
    assert (clock["initial_s"], clock["increment_s"], clock["running"]) == (300, 2, "rebel")
    # The Rebel decides first: the old Imperial token acts, the old Rebel token cannot.
    body = {"action": as_rebel["legal"][0]["id"], "version": as_rebel["version"]}
    r = post(client, f"/api/games/{new_id}/actions", toks["rebel"], body)
    error(r, 409, "not_your_turn")
    r = post(client, f"/api/games/{new_id}/actions", toks["imperial"], body)
    assert r.status_code == 200, r.text
    assert r.json()["plies"] == 1


def test_a_computer_rematch_starts_at_once_with_the_computer_on_the_other_side(
    client: TestClient,
) -> None:
    created = create(client, mode="computer", opponent="random", side="rebel", seed=3)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    resign(client, gid, tok)
    new_id = rematch(client, gid, tok, True)["rematch"]["game_id"]
    assert new_id
    # Now the person is the Imperial; the computer (Rebel) moves first, then it is ours.
    msg = wait_turn(client, new_id, tok, "imperial")
    assert msg["seat"] == "imperial" and msg["seats"]["rebel"]["kind"] == "computer"
    assert msg["plies"] >= 1 and msg["legal"]
    body = {"action": msg["legal"][0]["id"], "version": msg["version"]}
    assert post(client, f"/api/games/{new_id}/actions", tok, body).status_code == 200


def test_a_hotseat_rematch_swaps_both_tokens(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    resign(client, gid, toks["imperial"])
    new_id = rematch(client, gid, toks["imperial"], True)["rematch"]["game_id"]
    assert state(client, new_id, toks["rebel"])["seat"] == "imperial"
    assert state(client, new_id, toks["imperial"])["seat"] == "rebel"
    assert state(client, new_id)["mode"] == "hotseat"


def test_a_rematch_of_a_game_in_progress_or_a_bad_body_is_refused_and_changes_nothing(
    client: TestClient,
) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    before = state(client, gid)
    url = f"/api/games/{gid}/rematch"
    error(post(client, url, toks["rebel"], {"offer": True}), 409, "conflict")
    error(post(client, url, toks["rebel"], {"offer": "yes"}), 400, "bad_request")
    error(post(client, url, toks["rebel"], {}), 400, "bad_request")
    error(post(client, url, toks["rebel"], {"offer": True, "side": "rebel"}), 400, "bad_request")
    error(post(client, url, None, {"offer": True}), 403, "forbidden")
    assert state(client, gid) == before
