"""Hidden information stays hidden: every message of whole games, to every seat and spectator,
is exactly what that seat's view allows (recomputed from the server's own game), holds no
seed, and does not change when hidden cards are swapped."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelspace.engine import GameState
from rebelspace.server.games import Session
from rebelspace.server.messages import state_text
from tests.server.server_helpers import (
    SEATS,
    check_state_message,
    create,
    states_by_version,
    tokens,
    whole_views,
)
from tests.server.ws_helpers import Messages, play_over_websockets


def check_all(client: TestClient, game_id: str, received: Messages) -> list[GameState]:
    record = client.get(f"/api/games/{game_id}/record").json()
    games = states_by_version(record)
    seed = str(record["seed"])
    for name, messages in received.items():
        states = [m for m in messages if m["type"] == "state"]
        assert states and states[-1]["over"]
        seat = None if name.startswith("spectator") else name
        authenticated = seat is None
        for msg in whole_views(messages):
            assert seed not in json.dumps(msg), f"the seed reached {name}"
            if msg["type"] == "state":
                # A seat's connection is a spectator's until its "auth" message is answered.
                authenticated = authenticated or msg["seat"] == seat
                assert msg["seat"] == (seat if authenticated else None), msg["seat"]
                assert msg["game_id"] == game_id
                check_state_message(msg, games)
            else:
                assert msg["type"] == "opponent" and seat is not None, msg
        versions = [m["version"] for m in states]
        assert versions == sorted(versions)  # pushed in order
    return games


def swap_hidden(game: GameState, owner: int) -> bool:
    """Swap a card of ``owner``'s hand with a card of another name in their deck, and reverse
    their deck's order; False if there is nothing to swap."""
    hand, deck = game.hand[owner], game.deck[owner]
    deck.reverse()
    for i, h in enumerate(hand):
        for j, d in enumerate(deck):
            if game.name(h) != game.name(d):
                hand[i], deck[j] = deck[j], hand[i]
                return True
    return False


def check_swaps(session: Session, games: list[GameState]) -> int:
    """The server's messages for each seat are unchanged when the other seat's hidden cards
    (and the seat's own deck order) change; the spectator's when both players' do."""
    swapped = 0
    for version in range(0, len(games), 7):
        game = games[version]
        for seat in (0, 1, None):
            changed = game.clone(keep_log=True)
            owners = (0, 1) if seat is None else (1 - seat,)
            if not all([swap_hidden(changed, p) for p in owners]):
                continue
            if seat is not None:
                changed.deck[seat].reverse()
            assert changed != game
            real, other = copy.copy(session), copy.copy(session)
            for s, g in ((real, game), (other, changed)):
                s.state = g
                s.seats = session.seats[:version]
                s.revealed = session.revealed[:version]
            assert state_text(real, seat) == state_text(other, seat)
            swapped += 1
    return swapped


@pytest.mark.parametrize("opponent", ["random", "heuristic"])
def test_every_message_of_a_game_against_the_computer(client: TestClient, opponent: str) -> None:
    created = create(client, mode="computer", opponent=opponent, side="rebel")
    gid = created["game_id"]
    received = play_over_websockets(client, gid, tokens(created), seed=3, spectators=1)
    games = check_all(client, gid, received)
    assert len(games) > 50
    session = client.app.state.server.sessions[gid]  # type: ignore[attr-defined]
    assert check_swaps(session, games) > 10


def test_every_message_of_a_hotseat_game_with_two_spectators(client: TestClient) -> None:
    created = create(client, mode="hotseat")
    gid = created["game_id"]
    received = play_over_websockets(client, gid, tokens(created), seed=5, spectators=2)
    games = check_all(client, gid, received)
    # Each seat saw only its own hand: the other seat's hand never appears as a hand.
    for seat, messages in received.items():
        if seat in SEATS:
            for msg in whole_views(messages):  # each view as its client holds it
                if msg["type"] == "state":
                    assert msg["view"]["opponent"]["hand"] is None
    session = client.app.state.server.sessions[gid]  # type: ignore[attr-defined]
    assert check_swaps(session, games) > 10


def test_an_online_game_played_by_two_clients(client: TestClient) -> None:
    created = create(client, mode="online", side="imperial")
    gid = created["game_id"]
    code = created["invite"].rsplit("/", 1)[1]
    joined = client.post(f"/api/games/{gid}/join", json={"invite": code}).json()
    seats: dict[str, Any] = {**tokens(created), joined["player"]: joined["token"]}
    received = play_over_websockets(client, gid, seats, seed=8, spectators=1)
    check_all(client, gid, received)
