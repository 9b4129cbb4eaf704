"""A WebSocket push carries what changed (issue 33, docs/protocol.md "What a message carries"):
after a connection's first state message, each push is a ``delta`` that leaves out the fields
and view parts equal to the previous message's. Put back from that message (as web/api.js
does), it must be exactly the whole message of that moment; the newest ply's playback step
and the view's legal actions are not sent twice; and at ply 259 of a random game a push is at
most 5 KB (the issue's target, over seeded games)."""

from __future__ import annotations

import enum
import json
import os
import random
import tempfile
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rebelspace.server.games import Since
from rebelspace.server.manager import GameServer, NewGame
from rebelspace.server.messages import (
    DELTA_FIELDS,
    Message,
    build_state,
    plain,
    state_message,
    state_text,
)
from rebelspace.server.store import Store
from tests.server.server_helpers import HeldView, create, tokens
from tests.server.ws_helpers import play_over_websockets

TARGET = 5 * 1024


def pushes(seed: int, plies: int) -> list[tuple[int, int, str, str]]:
    """Each seat's pushes of a random hot-seat game (seed), as a WebSocket gets them, with the
    whole message of the same moment: (ply, seat, push, whole)."""
    out = []
    with tempfile.TemporaryDirectory() as folder:
        store = Store(os.path.join(folder, "games.sqlite3"))
        try:
            server = GameServer(store)
            session, _seats, _invite = server.create(NewGame("hotseat", seed=seed))
            rng = random.Random(seed)
            since: dict[int, Since | None] = {0: None, 1: None}
            held: dict[int, Message | None] = {0: None, 1: None}
            while session.plies < plies and not session.over:
                seat = session.state.to_move
                session.commit(rng.choice(session.state.legal_actions()), seat, store)
                for p in (0, 1):
                    text, held[p] = build_state(session, p, since[p], held[p])
                    out.append((session.plies, p, text, state_text(session, p, since[p])))
                    since[p] = (len(session.events_json(p)), session.version)
        finally:
            store.close()
    return out


def test_the_state_message_is_its_text_read_back_and_the_text_its_serialisation() -> None:
    # state_message is built from the dict, not parsed from the text (issue 34): the two must
    # still agree, to the byte, for both seats and a spectator, from the start to the end.
    with tempfile.TemporaryDirectory() as folder:
        store = Store(os.path.join(folder, "games.sqlite3"))
        try:
            server = GameServer(store)
            session, _seats, _invite = server.create(NewGame("hotseat", seed=4))
            rng = random.Random(4)
            checked = 0
            while True:  # every 7th ply's state, and the game's end
                for seat in (0, 1, None) if session.plies % 7 == 0 or session.over else ():
                    since = None if seat is None or session.plies < 3 else (2, 0)
                    text = state_text(session, seat, since)
                    data = state_message(session, seat, since)
                    assert data == json.loads(text), (session.plies, seat)
                    assert json.dumps(data, separators=(",", ":")) == text, (session.plies, seat)
                    checked += 1
                if session.over:
                    break
                seat = session.state.to_move
                session.commit(rng.choice(session.state.legal_actions()), seat, store)
        finally:
            store.close()
    assert checked > 30 and session.over


class _Text(str, enum.Enum):  # noqa: UP042 (on purpose: its str() is "_Text.A", its JSON "a")
    A = "a"


class _Number(enum.IntEnum):
    B = 2


def test_plain_gives_what_json_reads_back_for_enums_tuples_and_keys() -> None:
    value = {_Text.A: [_Text.A, _Number.B, (1, 2.5)], _Number.B: None, 3: True, None: "x"}
    read_back = json.loads(json.dumps(value))
    assert plain(value) == read_back
    assert [type(v) for v in plain(value)["a"][:2]] == [str, int]
    assert json.dumps(plain(value)) == json.dumps(value)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_push_put_back_together_is_the_whole_message_of_that_moment(seed: int) -> None:
    held = {0: HeldView(), 1: HeldView()}
    first = {0: True, 1: True}
    for ply, seat, push, whole in pushes(seed, 120):
        sent = json.loads(push)
        assert sent.get("delta", False) is not first[seat], ply  # whole once, then deltas
        first[seat] = False
        assert held[seat].whole(sent) == json.loads(whole), (ply, seat)
        assert len(push) <= len(whole)


def test_a_delta_leaves_out_what_did_not_change_and_sends_the_decision() -> None:
    left_out: set[str] = set()
    parts_left_out: set[str] = set()
    for _ply, _seat, push, _whole in pushes(5, 80)[2:]:
        sent = json.loads(push)
        assert sent["delta"] is True
        assert {"legal", "events", "events_from", "steps", "version", "plies"} <= set(sent)
        left_out |= set(DELTA_FIELDS) - set(sent)
        view = sent["view"]
        assert "log" in view and "legal_actions" not in view
        parts_left_out |= {"own_deck_contents", "turn"} - set(view)
        for side in ("you", "opponent"):
            parts_left_out |= {
                f"{side}.{k}"
                for k in ("discard", "hand")
                if k not in view.get(side, {})  # a side left out whole: all its parts are
            }
    assert {"rules", "seats", "undo"} <= left_out
    assert {"own_deck_contents", "you.discard", "opponent.discard"} <= parts_left_out


def test_the_newest_plys_step_is_the_messages_own_view() -> None:
    newest = 0
    for ply, _seat, _push, whole in pushes(4, 60):
        msg: dict[str, Any] = json.loads(whole)
        for step in msg["steps"]:
            if step["ply"] == ply:
                assert step["view"] is None and step["forecast"] is None
                newest += 1
            else:
                assert step["view"] is not None
    assert newest > 20


@pytest.mark.parametrize("seed", range(1, 21))
def test_a_push_at_ply_259_of_a_random_game_is_at_most_5_kb(seed: int) -> None:
    sizes = [len(push.encode()) for ply, _s, push, _w in pushes(seed, 259) if ply == 259]
    assert all(size <= TARGET for size in sizes), sizes


def test_a_websocket_after_its_first_message_is_sent_deltas(client: TestClient) -> None:
    created = create(client, mode="hotseat", seed=2)
    gid = created["game_id"]
    received = play_over_websockets(client, gid, tokens(created), seed=9, spectators=1)
    for name, messages in received.items():
        states = [m for m in messages if m["type"] == "state"]
        # A seat's connection starts as a spectator's until its auth is answered: each
        # seat's first message is whole again, then deltas.
        seats = [m["seat"] for m in states]
        firsts = {seats.index(s) for s in set(seats)}
        for i, m in enumerate(states):
            assert bool(m.get("delta")) is (i not in firsts), (name, i)
