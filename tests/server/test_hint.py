"""The hint and analysis calls (docs/protocol.md, "Hints", "Analysis"): who may ask, what
the answers hold (nothing of the opponent's hidden cards, R5), rates, and the schema."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from rebelspace.agents.advice import hint
from rebelspace.engine import context_for, replay
from rebelspace.seeds import ADVICE, agent_seed
from rebelspace.server.app import create_app
from rebelspace.server.computer import ComputerPlayers
from tests.server.schema_helpers import load_schema
from tests.server.server_helpers import act, auth, create, error, state, tokens

T = TypeVar("T")
SMALL = "ismcts:30"  # iterations only: the same answer on a busy machine


class ThreadSearch(ComputerPlayers):
    """Searches in a thread: no process pool to start in every test (the pool's own path is
    the computer's, tested with its moves)."""

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)


@pytest.fixture
def advised(db_path: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_path, computer=ThreadSearch())) as c:
        advisor = c.app.state.server.advisor  # type: ignore[attr-defined]
        advisor.hint_agent = SMALL
        advisor.analysis_agent = "ismcts:10"
        advisor.analyst = ThreadSearch()
        yield c


def validator(name: str) -> Draft202012Validator:
    schema = load_schema()
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": schema["$defs"]})


def get_hint(client: TestClient, game_id: str, token: str | None) -> Any:
    return client.get(f"/api/games/{game_id}/hint", headers=auth(token) if token else {})


def test_the_seat_to_move_gets_the_hint_of_its_own_view(advised: TestClient) -> None:
    created = create(advised, mode="hotseat", seed=7)
    gid, seat = created["game_id"], tokens(created)
    msg = state(advised, gid, seat["rebel"])
    r = get_hint(advised, gid, seat["rebel"])
    assert r.status_code == 200, r.text
    data = r.json()
    validator("hint_answer").validate(data)
    assert data["type"] == "hint" and data["game_id"] == gid
    assert data["version"] == msg["version"]
    assert data["hint"]["player"] == "rebel" and data["hint"]["agent"] == SMALL
    assert data["hint"]["best"]["action"] in [a["id"] for a in msg["legal"]]
    # The engine's own hint for that view and seed, made here: the server adds nothing.
    session = advised.app.state.server.sessions[gid]  # type: ignore[attr-defined]
    game = session.state
    expected = hint(
        game.view(0),
        game.legal_actions(),
        context_for(game.cards, game.options),
        agent_seed(7, ADVICE + 0),
        SMALL,
    )
    assert data["hint"] == expected.to_dict()


def test_only_the_seat_to_move_may_ask(advised: TestClient) -> None:
    created = create(advised, mode="hotseat", seed=3)
    gid, seat = created["game_id"], tokens(created)
    other_game = tokens(create(advised, mode="hotseat", seed=4))
    assert "Bearer" in error(get_hint(advised, gid, None), 403, "forbidden")  # a spectator
    error(get_hint(advised, gid, other_game["rebel"]), 403, "forbidden")  # another game's seat
    error(get_hint(advised, gid, "not-a-token"), 403, "forbidden")
    error(get_hint(advised, gid, seat["imperial"]), 409, "not_your_turn")
    error(get_hint(advised, "no-such-game", seat["rebel"]), 404, "not_found")


def test_the_hint_holds_nothing_of_the_opponents_hidden_hand(advised: TestClient) -> None:
    """R5: no card of the Imperial's hand that the Rebel's view does not show appears in the
    Rebel's hint, at the first decision and after some play."""
    created = create(advised, mode="hotseat", seed=11)
    gid, seat = created["game_id"], tokens(created)
    checked = 0
    for _ in range(3):
        msg = state(advised, gid, seat["rebel"])
        session = advised.app.state.server.sessions[gid]  # type: ignore[attr-defined]
        game = session.state
        visible = json.dumps(msg["view"])
        hidden = {game.name(c) for c in game.hand[1]} - {
            n for n in game.ctx.tables.names if n in visible
        }
        r = get_hint(advised, gid, seat["rebel"])
        assert r.status_code == 200, r.text
        assert hidden and not [n for n in hidden if n in r.text], hidden
        checked += 1
        # On to the Rebel's next decision: its first choices, the Imperial's too.
        while True:
            mover = state(advised, gid, seat["rebel"])["view"]["to_move"]
            legal = state(advised, gid, seat[mover])["legal"]
            act(advised, gid, seat[mover], legal[-1]["id"])
            msg = state(advised, gid, seat["rebel"])
            if msg["view"]["to_move"] == "rebel" and len(msg["legal"]) > 1:
                break
    assert checked == 3


def test_no_hint_once_the_game_is_over(advised: TestClient) -> None:
    created = create(advised, mode="hotseat", seed=5)
    gid, seat = created["game_id"], tokens(created)
    version = state(advised, gid, seat["rebel"])["version"]
    r = advised.post(
        f"/api/games/{gid}/resign", json={"version": version}, headers=auth(seat["rebel"])
    )
    assert r.status_code == 200, r.text
    error(get_hint(advised, gid, seat["rebel"]), 409, "conflict")


def test_hints_are_rate_limited_per_address(advised: TestClient) -> None:
    created = create(advised, mode="hotseat", seed=6)
    gid, seat = created["game_id"], tokens(created)
    for _ in range(10):
        assert get_hint(advised, gid, seat["rebel"]).status_code == 200
    r = get_hint(advised, gid, seat["rebel"])
    error(r, 429, "rate_limited")
    assert int(r.headers["Retry-After"]) >= 1


def finished_game(client: TestClient, seed: int, moves: int) -> tuple[str, dict[str, str]]:
    """A hot-seat game in which each side plays its first legal action ``moves`` times in all,
    then the Imperial resigns."""
    created = create(client, mode="hotseat", seed=seed)
    gid, seat = created["game_id"], tokens(created)
    for _ in range(moves):
        mover = state(client, gid, seat["rebel"])["view"]["to_move"]
        act(client, gid, seat[mover], state(client, gid, seat[mover])["legal"][0]["id"])
    version = state(client, gid, seat["rebel"])["version"]
    r = client.post(
        f"/api/games/{gid}/resign", json={"version": version}, headers=auth(seat["imperial"])
    )
    assert r.status_code == 200, r.text
    return gid, seat


def test_a_finished_games_analysis_is_for_anyone(advised: TestClient) -> None:
    created = create(advised, mode="hotseat", seed=9)
    error(advised.get(f"/api/games/{created['game_id']}/analysis"), 409, "conflict")

    gid, _ = finished_game(advised, 9, 40)
    r = advised.get(f"/api/games/{gid}/analysis?side=imperial")  # no token
    assert r.status_code == 200, r.text
    data = r.json()
    validator("analysis_answer").validate(data)
    record = advised.get(f"/api/games/{gid}/record").json()
    replayed = load_record_like(record)
    assert [d["ply"] for d in data["analysis"]["decisions"]] == replayed
    assert data["analysis"]["side"] == "imperial" and data["analysis"]["agent"] == "ismcts:10"
    assert advised.get(f"/api/games/{gid}/analysis?side=imperial").json() == data
    default = advised.get(f"/api/games/{gid}/analysis").json()  # hot-seat: the Rebel's
    assert default["analysis"]["side"] == "rebel"
    error(advised.get(f"/api/games/{gid}/analysis?side=spectator"), 400, "bad_request")


def load_record_like(record: dict[str, Any]) -> list[int]:
    """The plies of the Imperial's decisions with more than one legal action."""
    game = replay(dict(record, actions=[], action_ids=[], result=None), log=False)
    plies = []
    for ply, text in enumerate(record["actions"]):
        if game.to_move == 1 and len(game.legal_actions()) > 1:
            plies.append(ply)
        game.apply(text)
    return plies


def test_analyses_are_rate_limited_but_a_kept_one_is_free(advised: TestClient) -> None:
    games = [finished_game(advised, seed, 4)[0] for seed in range(20, 24)]
    for gid in games[:3]:
        assert advised.get(f"/api/games/{gid}/analysis").status_code == 200
    assert advised.get(f"/api/games/{games[0]}/analysis").status_code == 200  # kept
    error(advised.get(f"/api/games/{games[3]}/analysis"), 429, "rate_limited")


def test_the_hint_runs_in_the_process_pool(db_path: str) -> None:
    with TestClient(create_app(db_path)) as client:
        created = create(client, mode="computer", side="rebel", opponent="random", seed=2)
        gid, seat = created["game_id"], tokens(created)
        r = get_hint(client, gid, seat["rebel"])
        assert r.status_code == 200, r.text
        assert r.json()["hint"]["agent"] == "ismcts:normal"
