"""Undo: against the computer at once, back to the last card shown to the player; in a
two-person game only with the other player's consent, and never across a card either has seen."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from server_helpers import act, auth, create, error, state, tokens, wait_turn


def undo(client: TestClient, gid: str, token: str) -> Any:
    return client.post(f"/api/games/{gid}/undo", headers=auth(token))


def answer(client: TestClient, gid: str, token: str, accept: bool) -> Any:
    return client.post(
        f"/api/games/{gid}/undo/answer", json={"accept": accept}, headers=auth(token)
    )


def test_against_the_computer_deploys_are_taken_back_but_not_a_draw(client: TestClient) -> None:
    created = create(client, mode="computer", opponent="random", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    error(undo(client, gid, tok), 409, "conflict")  # nothing to undo yet
    drawn = act(client, gid, tok, "draw 2")
    assert drawn["undo"]["allowed"] is False
    assert "showed you a hidden card" in error(undo(client, gid, tok), 409, "conflict")
    act(client, gid, tok, "deploy Rebel Soldier")
    deployed = act(client, gid, tok, "deploy Stunt Fighters")
    assert deployed["undo"]["allowed"] is True and deployed["version"] == 3
    back = undo(client, gid, tok).json()
    assert back["version"] == 2 and "Stunt Fighters" in back["view"]["you"]["hand"]
    back = undo(client, gid, tok).json()
    assert back["version"] == 1
    assert back["view"] == drawn["view"] and back["legal"] == drawn["legal"]
    error(undo(client, gid, tok), 409, "conflict")
    # The game goes on from there as if the deploys had never been made.
    assert act(client, gid, tok, "deploy Rebel Soldier")["version"] == 2


def test_against_the_computer_undo_stops_at_a_card_the_computer_showed(
    client: TestClient,
) -> None:
    created = create(client, mode="computer", opponent="heuristic", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    act(client, gid, tok, "draw 2")
    act(client, gid, tok, "done deploying")
    act(client, gid, tok, "end turn")
    msg = wait_turn(client, gid, tok, "rebel")
    imperial = msg["view"]["opponent"]
    assert imperial["active"] or imperial["inactive"]  # the computer deployed from its hand
    why = error(undo(client, gid, tok), 409, "conflict")
    assert "imperial's" in why and "showed you a hidden card" in why
    assert state(client, gid, tok) == msg


def test_two_person_undo_needs_the_other_players_consent(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    rebel, imperial = toks["rebel"], toks["imperial"]
    act(client, gid, rebel, "draw 2")
    before = act(client, gid, rebel, "done deploying")
    assert before["undo"]["allowed"] is True
    with client.websocket_connect(f"/api/games/{gid}/ws?token={imperial}") as ws:
        ws.receive_json()
        asked = undo(client, gid, rebel).json()
        assert asked["version"] == 2 and asked["undo"] == {
            "pending_from": "rebel",
            "allowed": False,
        }
        msg = ws.receive_json()
        assert msg == {"type": "undo_request", "from": "rebel"}
        assert ws.receive_json()["undo"]["pending_from"] == "rebel"
        error(undo(client, gid, rebel), 409, "conflict")  # one request at a time
        error(answer(client, gid, rebel, True), 409, "conflict")  # not your own request
        ws.send_json({"type": "undo_answer", "accept": True})
        after = ws.receive_json()
        assert after["version"] == 1 and after["undo"]["pending_from"] is None
    msg = state(client, gid, rebel)
    assert msg["view"]["step"] == "deploy" and msg["version"] == 1


def test_a_refused_undo_changes_nothing_and_the_asker_is_told(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    act(client, gid, toks["rebel"], "draw 2")
    act(client, gid, toks["rebel"], "done deploying")
    with client.websocket_connect(f"/api/games/{gid}/ws?token={toks['rebel']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "undo"})
        assert ws.receive_json()["undo"]["pending_from"] == "rebel"
        declined = answer(client, gid, toks["imperial"], False).json()
        assert declined["version"] == 2 and declined["undo"]["pending_from"] is None
        assert ws.receive_json() == {"type": "undo_answer", "from": "imperial", "accept": False}
    assert state(client, gid)["version"] == 2


def test_an_action_cancels_a_waiting_undo_request(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    act(client, gid, toks["rebel"], "draw 2")
    act(client, gid, toks["rebel"], "done deploying")
    undo(client, gid, toks["rebel"])
    assert act(client, gid, toks["rebel"], "end turn")["undo"]["pending_from"] is None
    error(answer(client, gid, toks["imperial"], True), 409, "conflict")
    assert state(client, gid)["version"] == 3


def test_two_person_undo_never_hides_a_card_the_other_player_saw(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    act(client, gid, toks["rebel"], "draw 2")
    deployed = act(client, gid, toks["rebel"], "deploy Rebel Soldier")
    assert deployed["undo"]["allowed"] is False
    why = error(undo(client, gid, toks["rebel"]), 409, "conflict")
    assert "showed the imperial player a hidden card" in why
    assert state(client, gid)["undo"]["pending_from"] is None


def test_the_computer_answers_the_same_in_another_server(client: TestClient, tmp_path: Any) -> None:
    """The computer's seed comes from the game's seed and the ply, so the same game asks the
    same question and gets the same answer (what a restart or an undo relies on)."""
    from rebelspace.server.app import create_app

    def computer_turn(c: TestClient) -> dict[str, Any]:
        created = create(c, mode="computer", opponent="heuristic", seed=4)
        gid, tok = created["game_id"], tokens(created)["rebel"]
        act(c, gid, tok, "draw 2")
        act(c, gid, tok, "done deploying")
        act(c, gid, tok, "end turn")
        return wait_turn(c, gid, tok, "rebel")

    first = computer_turn(client)
    assert first["version"] > 4  # the computer made its decisions
    with TestClient(create_app(str(tmp_path / "other.sqlite3"))) as other:
        assert computer_turn(other)["view"] == first["view"]
