"""Undo: against the computer at once, back to the last card shown to the player; in a
two-person game only with the other player's consent, and never across a card either has seen."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.server_helpers import act, auth, create, error, state, tokens, wait_turn


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
    assert back["plies"] == 2 and "Stunt Fighters" in back["view"]["you"]["hand"]
    back = undo(client, gid, tok).json()
    # The version counts changes, undos too: it never goes down.
    assert back["plies"] == 1 and back["version"] == 5
    assert back["view"] == drawn["view"] and back["legal"] == drawn["legal"]
    error(undo(client, gid, tok), 409, "conflict")
    # The game goes on from there as if the deploys had never been made.
    again = act(client, gid, tok, "deploy Rebel Soldier")
    assert again["plies"] == 2 and again["version"] == 6


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
        assert asked["version"] == before["version"] + 1  # the message changed: a new version
        assert asked["plies"] == 2 and asked["undo"] == {
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
        assert after["plies"] == 1 and after["undo"]["pending_from"] is None
    msg = state(client, gid, rebel)
    # Versions: 2 actions, the request, its acceptance.
    assert msg["view"]["step"] == "deploy" and msg["plies"] == 1 and msg["version"] == 4


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
        assert declined["plies"] == 2 and declined["undo"]["pending_from"] is None
        assert ws.receive_json() == {"type": "undo_answer", "from": "imperial", "accept": False}
    # The request and its refusal each changed the message (a new version), not the game.
    after = state(client, gid)
    assert after["version"] == 4 and after["plies"] == 2


def test_an_action_cancels_a_waiting_undo_request(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    act(client, gid, toks["rebel"], "draw 2")
    act(client, gid, toks["rebel"], "done deploying")
    undo(client, gid, toks["rebel"])
    assert act(client, gid, toks["rebel"], "end turn")["undo"]["pending_from"] is None
    error(answer(client, gid, toks["imperial"], True), 409, "conflict")
    assert state(client, gid)["version"] == 4  # 3 actions and the request


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


def aggressive(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A policy that attacks with everything and never blocks: damage soon gets through."""
    order: tuple[str, ...] = ("draw", "form_ground", "form_space", "attack", "done_blocking")
    order += ("done_targeting", "pass", "deploy", "done_deploying", "end_turn", "discard", "pick")
    order += ("no_attack",)
    return min(legal, key=lambda a: order.index(a["kind"]) if a["kind"] in order else 99)


def test_undo_never_crosses_damage(client: TestClient) -> None:
    """Damage shows both players cards from the top of a deck, whose order is hidden from both
    (R5): the pass that resolved an attack dealing damage cannot be undone, though the passes
    before it could."""
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    for _ in range(200):
        seat = state(client, gid)["view"]["to_move"]
        other = "imperial" if seat == "rebel" else "rebel"
        before = state(client, gid, toks[other])
        mine = state(client, gid, toks[seat])
        action = aggressive(mine["legal"])
        after = act(client, gid, toks[seat], action["id"])
        new = [e for e in after["events"] if e["seq"] >= len(mine["events"])]
        if any(e["type"] == "damage_dealt" for e in new):
            break
    else:
        raise AssertionError("no damage was dealt")
    assert action["kind"] == "pass" and [e["seq"] for e in after["events"]] == list(
        range(len(after["events"]))
    )
    # Just before, the other seat's undo would only have taken back actions that showed
    # nothing; now it would take back the damage.
    assert before["undo"]["allowed"] is True
    for name in (seat, other):
        assert state(client, gid, toks[name])["undo"]["allowed"] is False
    why = error(undo(client, gid, toks[other]), 409, "conflict")
    assert f"{seat}'s 'pass'" in why and "hidden card" in why
    error(undo(client, gid, toks[seat]), 409, "conflict")


REBEL_SOLDIER_BLOCKED = {
    "phase": "attack",
    "rebel": {"active": ["Rebel Soldier"]},
    "imperial": {"active": ["Troopers"]},
    "battle": {
        "step": "tricks",
        "groups": [{"units": ["Rebel Soldier"], "blockers": ["Troopers"]}],
    },
}
REBEL_SOLDIER_UNBLOCKED = {
    "phase": "attack",
    "rebel": {"active": ["Rebel Soldier"]},
    "imperial": {"inactive": ["Troopers"]},
    "battle": {"step": "tricks", "groups": [{"units": ["Rebel Soldier"]}]},
}


@pytest.mark.parametrize(
    ("scenario", "actions", "shown"),
    [
        ({"phase": "draw"}, ["draw 2"], (True, False)),  # own draw
        ({"phase": "draw", "player": "imperial"}, ["draw 1"], (False, True)),
        (
            {"phase": "deploy", "rebel": {"hand": ["Rebel Soldier"]}},
            ["deploy Rebel Soldier"],
            (False, True),
        ),
        (
            {"phase": "deploy", "rebel": {"hand": ["Laser Sword"], "active": ["Princess"]}},
            ["attach Laser Sword to Princess"],
            (False, True),
        ),
        (
            {
                **REBEL_SOLDIER_BLOCKED,
                "rebel": {"active": ["Rebel Soldier"], "hand": ["Surprise Attack"]},
            },
            ["play Surprise Attack"],
            (False, True),
        ),
        # A spy shows the other hand to its player; the spy card itself is seen by the other.
        ({"phase": "end", "rebel": {"hand": ["Rebel Spies"]}}, ["play Rebel Spies"], (True, True)),
        # R26: the hero a search takes is shown to both players.
        (
            {"phase": "end", "rebel": {"hand": ["Recruit"]}},
            ["play Recruit for Princess"],
            (True, True),
        ),
        (
            {"phase": "end", "rebel": {"hand": ["Medi-Bot"], "discard": ["Princess"]}},
            ["play Medi-Bot for Princess"],
            (True, True),
        ),
        (
            {
                "phase": "end",
                "rebel": {"hand": ["Convert"]},
                "imperial": {"active": ["Bounty Hunter"]},
            },
            ["play Convert on Bounty Hunter"],
            (False, True),
        ),
        (
            {"phase": "end", "rules": {"hand_limit": 2}, "rebel": {"hand": ["Rebel Soldier"] * 3}},
            ["end turn", "discard Rebel Soldier"],
            (False, True),
        ),
        # Damage: cards from the top of a deck, whose order is hidden from both (R5).
        (REBEL_SOLDIER_UNBLOCKED, ["pass", "pass"], (True, True)),
        # Nothing hidden: forming groups, passing, a battle between units in play.
        (
            {"phase": "attack", "rebel": {"active": ["Rebel Soldier"]}},
            ["new ground group with Rebel Soldier"],
            (False, False),
        ),
        (REBEL_SOLDIER_BLOCKED, ["pass", "pass"], (False, False)),
        (REBEL_SOLDIER_BLOCKED, ["pass"], (False, False)),
    ],
)
def test_what_each_action_reveals_is_read_from_its_events(
    scenario: dict[str, Any], actions: list[str], shown: tuple[bool, bool]
) -> None:
    from rebelspace.engine import load_scenario, reveals

    game = load_scenario({"seed": 4, **scenario})
    for text in actions[:-1]:
        game.apply(text)
    events = game.apply(actions[-1])
    assert reveals(events) == shown, [e.type for e in events]
