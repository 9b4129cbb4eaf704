"""Helpers of the server tests: create games, act, and check messages against the views the
server's own state allows."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

from fastapi.testclient import TestClient

from rebelspace.engine import GameState, event_json, load_scenario, replay
from rebelspace.server.forecast import battle_forecast
from rebelspace.server.messages import DELTA_FIELDS, state_message
from tests.server.schema_helpers import check_schema

SEATS = ("rebel", "imperial")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def tokens(created: dict[str, Any]) -> dict[str, str]:
    return {s["player"]: s["token"] for s in created["seats"]}


def state(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/games/{game_id}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_turn(client: TestClient, game_id: str, token: str, seat: str) -> dict[str, Any]:
    """Read the state until it is ``seat``'s decision or the game is over (the computer plays
    in the server's event loop, after the request that gave it the turn has been answered)."""
    for _ in range(2000):
        msg = state(client, game_id, token)
        if msg["over"] or msg["view"]["to_move"] == seat:
            return msg
        time.sleep(0.002)
    raise AssertionError(f"it never became {seat}'s turn")


def act(
    client: TestClient, game_id: str, token: str, action: int | str, version: int | None = None
) -> dict[str, Any]:
    """Act as the seat of ``token``, at ``version`` (default: the game's current version)."""
    if version is None:
        version = state(client, game_id, token)["version"]
    body = {"action": action, "version": version}
    r = client.post(f"/api/games/{game_id}/actions", json=body, headers=auth(token))
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def scenario_message(client: TestClient, scenario: dict[str, Any], seat: int | None) -> Any:
    """The state message of a scenario's position (``load_scenario``) for a seat (None: a
    spectator). The server's games start from a seed, so the scenario's game is put into a copy
    of a real session."""
    gid = create(client, mode="hotseat", seed=4)["game_id"]
    session = copy.copy(client.app.state.server.sessions[gid])  # type: ignore[attr-defined]
    session.state = load_scenario(scenario)
    session.seats, session.revealed = [], []
    return state_message(session, seat)


def error(response: Any, status: int, code: str) -> str:
    """Assert a refusal's status and code; returns its message."""
    assert response.status_code == status, response.text
    body = response.json()
    extra = {"stale": {"version"}, "rate_limited": {"retry_after"}}.get(code, set())
    assert set(body) == {"error", "message", *extra} and body["error"] == code, body
    assert isinstance(body["message"], str) and body["message"]
    return str(body["message"])


def states_by_version(record: dict[str, Any]) -> list[GameState]:
    """The game of a record after each number of plies 0..n (n = the number of actions)."""
    game = replay({**record, "actions": [], "action_ids": [], "result": None})
    out = [game.clone(keep_log=True)]
    for text in record["actions"]:
        game.apply(text)
        out.append(game.clone(keep_log=True))
    return out


def expected_view(game: GameState, seat: str | None) -> Any:
    """The view as the protocol sends it: the engine's, without ``legal_actions`` (a state
    message carries them once, as ``legal``)."""
    view = game.public_view() if seat is None else game.view(SEATS.index(seat))
    expected = json.loads(json.dumps(view.to_dict()))
    expected.pop("legal_actions")
    return expected


def expected_events(game: GameState, seat: str | None) -> Any:
    """The events a seat may see (R5; None: a spectator's, the public ones) as the protocol
    sends them, each with its index in that stream."""
    player = None if seat is None else SEATS.index(seat)
    names = tuple(t.name for t in game.cards)
    events = [{**event_json(e, names), "seq": i} for i, e in enumerate(game.visible_events(player))]
    return json.loads(json.dumps(events))


class HeldView:
    """One WebSocket client's last state message, as web/api.js keeps it: after a
    connection's first state message, a push is a ``delta`` that leaves out what did not
    change since the previous one, put back here from it (docs/protocol.md)."""

    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None

    def whole(self, msg: dict[str, Any]) -> dict[str, Any]:
        """``msg`` as its client reads it: a state message whole (validated first as it was
        sent); any other message unchanged."""
        if msg.get("type") != "state":
            return msg
        check_schema(msg)
        whole = {k: v for k, v in msg.items() if k != "delta"}
        if msg.get("delta"):
            last = self.last
            assert last is not None, "a connection's first state message is whole"
            assert msg["seat"] == last["seat"], "a delta is of the same seat's messages"
            whole |= {k: last[k] for k in DELTA_FIELDS if k not in msg}
            view = whole["view"] = {**last["view"], **msg["view"]}
            for side in ("you", "opponent"):
                view[side] = {**last["view"][side], **msg["view"].get(side, {})}
        self.last = whole
        return whole


def whole_views(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One connection's messages, in the order received, with whole views (``HeldView``)."""
    held = HeldView()
    return [held.whole(m) for m in messages]


def check_state_message(
    msg: dict[str, Any], games: list[GameState], streams: dict[str | None, Any] | None = None
) -> None:
    """A state message holds exactly the view its seat may have at its version, nothing more:
    the view and the events recomputed from the server's game, and the legal list only on that
    seat's turn. It validates against the protocol's JSON Schema. ``streams``: each seat's
    events at the last of ``games``, when known (a game with no undo: the events at any ply
    are the first ones of those, so they are not converted again for each message)."""
    check_schema(msg)
    game = games[msg["plies"]]
    assert msg["version"] >= msg["plies"]
    seat = msg["seat"]
    ended = msg["result"] is not None and msg["result"]["reason"] != "rules"
    expected = expected_view(game, seat)
    if ended:  # resign, time or a claim: the engine's game goes on, nobody decides any more
        expected.update(to_move=None)
    # The events (and their log lines, one each) from events_from on: what the client lacks.
    start = msg["events_from"]
    expected["log"] = expected["log"][start:]
    assert msg["view"] == expected
    if streams is None:
        events = expected_events(game, seat)
    else:
        player = None if seat is None else SEATS.index(seat)
        events = streams[seat][: len(game.visible_events(player))]
    assert msg["events"] == events[start:]
    assert len(msg["view"]["log"]) == len(msg["events"])
    # R5: cards shown to a player (draws, starting hands, spied hands) reach only that player.
    for event in msg["events"]:
        if event["type"] == "cards_seen":
            assert seat is not None and event["to"] == seat, event
    mine = not ended and seat is not None and game.to_move == SEATS.index(seat)
    assert [a["id"] for a in msg["legal"]] == (game.legal_actions() if mine else [])
    assert [a["text"] for a in msg["legal"]] == [game.action_text(a["id"]) for a in msg["legal"]]
    view = game.view(SEATS.index(seat)) if seat is not None else None
    if mine and view is not None:  # structured, as the engine's view has them
        assert msg["legal"] == json.loads(json.dumps(view.to_dict()))["legal_actions"]
    assert "legal_actions" not in msg["view"]  # sent once, as `legal` (issue 33)
    allowed = {
        "type",
        "game_id",
        "mode",
        "seat",
        "seats",
        "version",
        "plies",
        "view",
        "legal",
        "undo",
        "over",
        "winner",
        "invite",
        "events",
        "events_from",
        "result",
        "clock",
        "claim",
        "rematch",
        "rules",
        "forecast",
        "steps",
    }
    assert set(msg) <= allowed
    # The game's own rules options, and each battle group's forecast from the seat's view.
    assert msg["rules"] == game.ctx.options.to_dict()
    view = game.public_view() if seat is None else game.view(SEATS.index(seat))
    assert msg["forecast"] == battle_forecast(view, game.ctx.options.tie)
    groups = (msg["view"]["battle"] or {}).get("groups", [])
    for g in groups:
        assert (g["defense_value"] is None) == (not g["blockers"] and g["target"] is None)
    check_steps(msg, games)


def check_steps(msg: dict[str, Any], games: list[GameState]) -> None:
    """The playback's steps (R5): each is the seat's own view after its ply, recomputed from
    the game at that ply (log and legal actions left out), in ply order, each ending in the
    events the message carries."""
    seat = msg["seat"]
    player = None if seat is None else SEATS.index(seat)
    plies = [step["ply"] for step in msg["steps"]]
    assert plies == sorted(set(plies)) and all(p <= msg["plies"] for p in plies)
    for step in msg["steps"]:
        game = games[step["ply"]]
        expected = expected_view(game, seat)
        assert step["events_to"] == len(game.visible_events(player)) > msg["events_from"]
        view = game.public_view() if seat is None else game.view(SEATS.index(seat))
        if step["view"] is None:  # the newest ply's step: its view is the message's own
            assert step["forecast"] is None and step["ply"] == msg["plies"]
            assert msg["view"] == {**expected, "log": msg["view"]["log"]}
            continue
        expected.update(log=[])
        assert step["view"] == expected
        assert step["forecast"] == battle_forecast(view, game.ctx.options.tie)


class FakeTime:
    """A time source for the server's clocks and claims that moves only when told."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def online_game(client: TestClient, **body: Any) -> tuple[str, dict[str, str]]:
    """An online game with both seats taken: its id and the tokens by side."""
    created = create(client, mode="online", side="rebel", **body)
    gid = created["game_id"]
    code = created["invite"].rsplit("/", 1)[1]
    r = client.post(f"/api/games/{gid}/join", json={"invite": code})
    assert r.status_code == 200, r.text
    return gid, {"rebel": tokens(created)["rebel"], "imperial": r.json()["token"]}


def post(client: TestClient, path: str, token: str | None, body: Any) -> Any:
    return client.post(path, json=body, headers=auth(token) if token else {})


def wake_timers(client: TestClient) -> None:
    """The server's timers look at the (fake) time again, as they do after every change."""
    portal = client.portal
    assert portal is not None, "use the test client in a with block"
    server: Any = client.app.state.server  # type: ignore[attr-defined]
    portal.call(server.wake_timers)
