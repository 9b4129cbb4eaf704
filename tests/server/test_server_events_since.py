"""State messages carry what is new (issue 33): the events (and log lines) from ``events_from``
on, the ones the client does not hold; a WebSocket is sent each event once, a (re)connecting
client or a REST read with ``since``/``since_version`` gets only what it is missing, and after
an undo a client is told to drop what was taken back. Every message is checked against the
game's own views and events and the protocol's JSON Schema (check_state_message)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from rebelspace.engine import GameState
from tests.server.server_helpers import (
    act,
    auth,
    check_state_message,
    create,
    error,
    expected_events,
    states_by_version,
    tokens,
    whole_views,
)
from tests.server.ws_helpers import play_over_websockets


def fold(held: list[dict[str, Any]], msg: dict[str, Any]) -> list[dict[str, Any]]:
    """What a client holds after a state message: its events before ``events_from``, then the
    message's (the protocol's rule for clients)."""
    start = msg["events_from"]
    assert start <= len(held), (start, len(held))
    return held[:start] + msg["events"]


def final_games(client: TestClient, gid: str) -> list[GameState]:
    record = client.get(f"/api/games/{gid}/record").json()
    return states_by_version(record)


def test_a_websocket_is_sent_each_event_once_and_holds_the_whole_stream(
    client: TestClient,
) -> None:
    created = create(client, mode="hotseat", seed=11)
    gid = created["game_id"]
    received = play_over_websockets(client, gid, tokens(created), seed=2, spectators=1)
    games = final_games(client, gid)
    for name, messages in received.items():
        seat = None if name.startswith("spectator") else name
        mine = [m for m in whole_views(messages) if m["type"] == "state" and m["seat"] == seat]
        held: list[dict[str, Any]] = []
        for msg in mine:
            check_state_message(msg, games)
            held = fold(held, msg)
            assert held == expected_events(games[msg["plies"]], seat)  # nothing missing
        assert mine[0]["events_from"] == 0  # the first message: the whole stream
        # No undo in this game: every event was sent once and only once, in order.
        assert sum(len(m["events"]) for m in mine) == len(held) > 100
        assert all(m["events_from"] == len(before) for m, before in _prefixes(mine))


def _prefixes(messages: list[dict[str, Any]]) -> list[tuple[dict[str, Any], list[Any]]]:
    """Each message with the events held before it."""
    out: list[tuple[dict[str, Any], list[Any]]] = []
    held: list[dict[str, Any]] = []
    for msg in messages:
        out.append((msg, held))
        held = fold(held, msg)
    return out


def test_a_reconnecting_websocket_gets_only_what_it_is_missing(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    first = act(client, gid, toks["rebel"], "draw 2")
    held, at = first["events"], first["version"]
    act(client, gid, toks["rebel"], "done deploying")  # missed while away: the Imperial's
    act(client, gid, toks["rebel"], "end turn")  # turn starts, it draws
    for url, hello in (
        (f"/api/games/{gid}/ws", {"since": len(held), "since_version": at}),
        (f"/api/games/{gid}/ws?token={toks['rebel']}&since={len(held)}&since_version={at}", {}),
    ):
        with client.websocket_connect(url) as ws:
            if hello:
                ws.send_text(json.dumps({"type": "auth", "token": toks["rebel"], **hello}))
            msg = ws.receive_json()
            while msg.get("seat") != "rebel":  # the spectator's state before the auth answer
                msg = ws.receive_json()
        assert msg["events_from"] == len(held) and msg["events"]
        games = final_games_at(client, gid, toks["rebel"])
        check_state_message(msg, games)
        assert fold(held, msg) == expected_events(games[msg["plies"]], "rebel")


def final_games_at(client: TestClient, gid: str, token: str) -> list[GameState]:
    """The game after each ply so far, from the engine's record of the server's session (an
    unfinished game has no public record)."""
    from rebelspace.engine import to_record

    session = client.app.state.server.sessions[gid]  # type: ignore[attr-defined]
    return states_by_version(to_record(session.state))


def test_a_rest_read_with_since_gets_only_the_new_events(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    drawn = act(client, gid, toks["rebel"], "draw 2")
    act(client, gid, toks["rebel"], "done deploying")
    url = f"/api/games/{gid}?since={len(drawn['events'])}&since_version={drawn['version']}"
    r = client.get(url, headers=auth(toks["rebel"]))
    assert r.status_code == 200, r.text
    msg = r.json()
    games = final_games_at(client, gid, toks["rebel"])
    check_state_message(msg, games)
    assert msg["events_from"] == len(drawn["events"]) and len(msg["view"]["log"]) == len(
        msg["events"]
    )
    assert fold(drawn["events"], msg) == expected_events(games[msg["plies"]], "rebel")
    # An action's answer too: the events it caused, after those the client holds.
    acted = client.post(
        f"/api/games/{gid}/actions?since={len(fold(drawn['events'], msg))}"
        f"&since_version={msg['version']}",
        json={"action": "end turn", "version": msg["version"]},
        headers=auth(toks["rebel"]),
    ).json()
    assert acted["events_from"] == len(fold(drawn["events"], msg)) > 0


def test_after_an_undo_a_client_drops_what_was_taken_back(client: TestClient) -> None:
    created = create(client, mode="computer", opponent="random", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    drawn = act(client, gid, tok, "draw 2")
    act(client, gid, tok, "deploy Rebel Soldier")
    deployed = act(client, gid, tok, "deploy Stunt Fighters")
    back = client.post(f"/api/games/{gid}/undo", headers=auth(tok)).json()
    back = client.post(f"/api/games/{gid}/undo", headers=auth(tok)).json()
    assert back["plies"] == drawn["plies"]
    # A client that holds the stream as of the deploys: told to keep only the undo's prefix.
    since = f"since={len(deployed['events'])}&since_version={deployed['version']}"
    msg = client.get(f"/api/games/{gid}?{since}", headers=auth(tok)).json()
    assert msg["events_from"] == len(drawn["events"]) < len(deployed["events"])
    assert fold(deployed["events"], msg) == drawn["events"]
    again = act(client, gid, tok, "deploy Rebel Soldier")
    msg = client.get(f"/api/games/{gid}?{since}", headers=auth(tok)).json()
    assert fold(deployed["events"], msg) == again["events"]
    check_state_message(msg, final_games_at(client, gid, tok))


def test_a_since_the_server_cannot_vouch_for_gets_the_whole_stream(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    drawn = act(client, gid, tok, "draw 2")
    n = len(drawn["events"])
    for since, version in ((n + 50, drawn["version"]), (n, drawn["version"] + 7)):
        msg = client.get(
            f"/api/games/{gid}?since={since}&since_version={version}", headers=auth(tok)
        ).json()
        assert msg["events_from"] == 0 and msg["events"] == drawn["events"]


def test_a_bad_since_is_refused_and_changes_nothing(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=4)
    gid, tok = created["game_id"], tokens(created)["rebel"]
    before = client.get(f"/api/games/{gid}", headers=auth(tok)).json()
    for query in (
        "since=3",
        "since_version=0",
        "since=-1&since_version=0",
        "since=x&since_version=0",
    ):
        error(client.get(f"/api/games/{gid}?{query}", headers=auth(tok)), 400, "bad_request")
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "auth", "token": tok, "since": "many"}))
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"] == "bad_request"
    assert client.get(f"/api/games/{gid}", headers=auth(tok)).json() == before
