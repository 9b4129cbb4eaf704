"""docs/protocol.schema.json: messages validate against it, it and docs/protocol.md describe
every event type, and it refuses what the protocol does not say.

Every state message of whole games (against the computer, hot-seat with spectators, online) is
validated by ``check_state_message`` in test_server_secrets.py, which also compares each
message with the engine's view and events."""

from __future__ import annotations

import copy
import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelspace.engine import EVENT_TYPES, to_record
from tests.server.schema_helpers import check_schema, load_schema, schema_validator
from tests.server.server_helpers import (
    FakeTime,
    check_state_message,
    create,
    online_game,
    post,
    scenario_message,
    state,
    states_by_version,
    tokens,
)

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_rest_answers_and_an_invite_validate(client: TestClient) -> None:
    created = create(client, mode="online", side="rebel")
    msg = state(client, created["game_id"], tokens(created)["rebel"])
    assert msg["invite"].startswith("/join/")
    schema_validator().validate(msg)
    schema_validator().validate(state(client, created["game_id"]))


def test_a_battle_validates_with_its_values_and_events(client: TestClient) -> None:
    # The Imperial attacks; the Rebel's Defense Shields stop the Space Cruiser's damage (R20).
    scenario = {
        "seed": 4,
        "player": "imperial",
        "phase": "attack",
        "imperial": {"active": ["Troopers", "Space Cruiser"]},
        "rebel": {"active": ["Rebel Soldier", "Defense Shields"]},
        "battle": {
            "step": "tricks",
            "groups": [
                {"units": ["Troopers"], "blockers": ["Rebel Soldier"]},
                {"kind": "space", "units": ["Space Cruiser"]},
            ],
        },
        "actions": ["pass", "pass"],
    }
    for seat in (0, 1, None):
        msg = scenario_message(client, scenario, seat)
        schema_validator().validate(msg)
        kinds = [e["type"] for e in msg["events"]]
        assert kinds == ["scenario_started", "got_through", "battle_resolved"]
        through = msg["events"][1]
        assert (through["group"], through["damage"], through["stopped"]) == (2, 0, 1)
        assert through["shields"] is True and through["dealers"] == []


def test_every_event_type_is_in_the_schema_with_its_fields() -> None:
    schema = load_schema()
    defs = schema["$defs"]
    listed = defs["event"]["properties"]["type"]["enum"]
    assert sorted(listed) == sorted(cls.type for cls in EVENT_TYPES)
    selected = {
        branch["if"]["properties"]["type"]["const"]: branch["then"]["$ref"]
        for branch in defs["event"]["allOf"]
    }
    for cls in EVENT_TYPES:
        ref = selected[cls.type]
        sub = defs[ref.rsplit("/", 1)[1]]
        assert dataclasses.is_dataclass(cls), cls
        fields = {"type", "seq"} | {f.name for f in dataclasses.fields(cls)}
        assert set(sub["properties"]) == fields, cls.type
        assert set(sub["required"]) == fields, cls.type
        assert sub["additionalProperties"] is False
        assert sub["properties"]["type"] == {"const": cls.type}
    assert schema["additionalProperties"] is False


def test_every_event_type_is_documented_in_the_protocol() -> None:
    text = PROTOCOL.read_text(encoding="utf-8")
    events = text[text.index("## Events") :]
    events = events[: events.index("\n## ", 1)] if "\n## " in events[1:] else events
    for cls in EVENT_TYPES:
        row = re.search(rf"^\| `{cls.type}` \|(.*)$", events, re.MULTILINE)
        assert row, f"docs/protocol.md, Events: no row for {cls.type}"
        assert dataclasses.is_dataclass(cls), cls
        for f in dataclasses.fields(cls):
            assert f"`{f.name}`" in row.group(1), f"{cls.type}: field {f.name} not documented"
    assert "invalid_action" in text and "`seq`" in events


def valid_message(client: TestClient) -> dict[str, Any]:
    created = create(client, mode="hotseat", seed=4)
    gid, toks = created["game_id"], tokens(created)
    client.post(
        f"/api/games/{gid}/actions",
        json={"action": "draw 2", "version": 0},
        headers={"Authorization": f"Bearer {toks['rebel']}"},
    )
    msg = state(client, gid, toks["rebel"])
    schema_validator().validate(msg)
    assert [e["type"] for e in msg["events"]][-3:] == ["drew", "cards_seen", "no_attacker"]
    return msg


def broken(msg: dict[str, Any], change: Any) -> dict[str, Any]:
    out = copy.deepcopy(msg)
    change(out)
    return out


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda m: m["events"][0].update(type="teleported"), id="unknown event type"),
        pytest.param(lambda m: m["events"][-2].pop("cards"), id="missing event field"),
        pytest.param(lambda m: m["events"][-1].pop("seq"), id="missing seq"),
        pytest.param(lambda m: m["events"][-1].update(secret=1), id="undocumented event field"),
        pytest.param(lambda m: m["events"][-2].update(source="magic"), id="bad enum"),
        pytest.param(lambda m: m["events"][-3].update(player=0), id="player as a number"),
        pytest.param(lambda m: m.pop("events"), id="no events"),
        pytest.param(lambda m: m.update(battle_values=[]), id="undocumented message field"),
        pytest.param(lambda m: m["legal"][0].pop("kind"), id="action without kind"),
        pytest.param(lambda m: m["view"]["you"].update(deck_order=[]), id="undocumented view"),
    ],
)
def test_the_schema_refuses_what_the_protocol_does_not_say(client: TestClient, change: Any) -> None:
    bad = broken(valid_message(client), change)
    assert not schema_validator().is_valid(bad)
    with pytest.raises(AssertionError, match="schema"):
        check_schema(bad)


def test_the_message_checks_of_whole_games_validate_against_the_schema(
    client: TestClient,
) -> None:
    msg = valid_message(client)
    session = client.app.state.server.sessions[msg["game_id"]]  # type: ignore[attr-defined]
    games = states_by_version(to_record(session.state))
    check_state_message(msg, games)
    with pytest.raises(AssertionError, match="schema"):
        check_state_message(broken(msg, lambda m: m["events"][0].update(type="x")), games)


def ending_messages(client: TestClient, fake_time: FakeTime) -> list[dict[str, Any]]:
    """Messages with every new field of issue 13 set: a clock, a claim, a result, a rematch
    offer and a rematch game."""
    out = []
    gid, toks = online_game(client, clock={"initial_s": 60, "increment_s": 1})
    out.append(state(client, gid, toks["rebel"]))  # a running clock
    assert post(client, f"/api/games/{gid}/resign", toks["rebel"], {}).status_code == 200
    out.append(state(client, gid))  # a result, a stopped clock
    out.append(post(client, f"/api/games/{gid}/rematch", toks["rebel"], {"offer": True}).json())
    out.append(post(client, f"/api/games/{gid}/rematch", toks["imperial"], {"offer": True}).json())
    gid, toks = online_game(client)
    fake_time.advance(5)
    out.append(state(client, gid, toks["imperial"]))  # a claim on its way
    assert out[0]["clock"]["running"] == "rebel" and out[1]["result"]["reason"] == "resign"
    assert out[2]["rematch"]["offered_by"] == "rebel" and out[3]["rematch"]["game_id"]
    assert out[4]["claim"] == {"available_in_ms": 55000}
    return out


def test_the_ending_fields_validate_and_match_the_games(
    timed_client: TestClient, fake_time: FakeTime
) -> None:
    for msg in ending_messages(timed_client, fake_time):
        session = timed_client.app.state.server.sessions[msg["game_id"]]  # type: ignore[attr-defined]
        check_state_message(msg, states_by_version(to_record(session.state)))


@pytest.mark.parametrize(
    ("index", "change"),
    [
        pytest.param(1, lambda m: m["result"].update(reason="quit"), id="unknown reason"),
        pytest.param(1, lambda m: m["result"].pop("winner"), id="result without winner"),
        pytest.param(0, lambda m: m["clock"].update(running="both"), id="bad running side"),
        pytest.param(0, lambda m: m["clock"].pop("rebel_ms"), id="clock without a side"),
        pytest.param(0, lambda m: m["clock"].update(rebel_ms=-1), id="negative time"),
        pytest.param(4, lambda m: m["claim"].update(available_in_ms=-5), id="negative claim"),
        pytest.param(2, lambda m: m["rematch"].update(token="x"), id="undocumented rematch"),
        pytest.param(0, lambda m: m.pop("rematch"), id="no rematch field"),
    ],
)
def test_the_schema_refuses_bad_ending_fields(
    timed_client: TestClient, fake_time: FakeTime, index: int, change: Any
) -> None:
    msg = ending_messages(timed_client, fake_time)[index]
    schema_validator().validate(msg)
    assert not schema_validator().is_valid(broken(msg, change))
