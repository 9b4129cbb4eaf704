"""Replays of finished games (``GET /api/games/{id}/replay``) and the local replay of a record
(``rebelspace replay RECORD --open``).

A replay shows everything: both hands and the full log and events, since after the end every
card may be shown. It is built by playing the stored actions again from the seed (the engine
is deterministic), one frame for the start and one after each action. Nothing here reads or
changes a live ``Session``: the replay of a game is built from its stored row and actions, so
it can be built in a thread.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from rebelspace.engine import (
    GameState,
    RulesOptions,
    event_json,
    new_game,
    render_event,
    replay,
)
from rebelspace.engine.views import PlayerView, action_view

from .games import SEATS, cards_from_text, cards_text
from .messages import json_fields
from .store import Store, StoredGame


def full_view(state: GameState, log: tuple[str, ...]) -> PlayerView:
    """The whole position, nothing hidden: the public view (``you`` the Rebel side,
    ``opponent`` the Imperial side) with both hands by name. ``log``: the frame's own lines
    (those of its events, hidden ones too), not the whole log: repeating the log in every
    frame would make a replay grow with the square of the game's length."""
    return replace(
        state.public_view(),
        you=state.view(0).you,
        opponent=state.view(1).you,
        log=log,
    )


def replay_frames(stored: StoredGame) -> list[dict[str, Any]]:
    """The frames of a stored game: its start, then one after each applied action, each with
    the full view, the events that action caused (all of them) and the action with its side."""
    row = stored.row
    cards = cards_from_text(row.cards)
    state = new_game(row.seed, options=RulesOptions.from_dict(row.rules), cards=cards)
    names = state.ctx.tables.names
    seq = 0

    def frame(ply: int, items: Any, action: dict[str, Any] | None) -> dict[str, Any]:
        nonlocal seq
        events = []
        for event in items:
            events.append({**event_json(event, names), "seq": seq})
            seq += 1
        log = tuple(render_event(e, names) for e in items)
        return {"plies": ply, "view": full_view(state, log), "events": events, "action": action}

    frames = [frame(0, list(state.events or ()), None)]
    for ply, (action, seat) in enumerate(stored.actions, start=1):
        applied = {**json_fields(action_view(state, action)), "by": SEATS[seat]}
        frames.append(frame(ply, state.apply(action, player=seat), applied))
    return frames


def replay_text(
    stored: StoredGame,
    result: dict[str, Any] | None,
    seats: dict[str, Any],
) -> str:
    """The replay message as JSON text."""
    message = {
        "type": "replay",
        "game_id": stored.row.id,
        "mode": stored.row.mode,
        "result": result,
        "seats": seats,
        "frames": replay_frames(stored),
    }
    return json.dumps(message, default=json_fields, separators=(",", ":"))


def import_record(store: Store, record: dict[str, Any], game_id: str = "local") -> str:
    """Store a game record (``to_record``) as a game with no seats, for a local replay server:
    a hot-seat game nobody can act in. Raises the engine's ``RecordError`` for a bad record."""
    state = replay(record)
    assert state.history is not None
    store.create_game(
        game_id=game_id,
        mode="hotseat",
        seed=state.seed,
        rules=state.options.to_dict(),
        cards=cards_text(state.cards),
        agent=None,
        computer_seat=None,
        creator_seat=0,
        invite=None,
        token_hashes=(None, None),
    )
    # Who decided each ply: replay the ids again, noting whose decision each was.
    game = new_game(state.seed, options=state.options, cards=state.cards)
    outcome = state.outcome
    for ply, action in enumerate(state.history):
        seat = game.to_move
        game.apply(action, player=seat)
        last = ply == len(state.history) - 1
        winner = outcome.winner if last and outcome is not None else None
        store.add_action(game_id, ply, ply, action, seat, winner)
    return game_id
