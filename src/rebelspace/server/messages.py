"""The protocol's state messages (docs/protocol.md): what a seat (or a spectator) is sent of a
game, built from a ``Session`` (games.py), which holds the game and its event streams. Only
what R5 lets that seat see goes in: its own view, or the public one, and its visible events."""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass, replace
from typing import Any

from rebelspace.engine import RulesOptions
from rebelspace.engine.cache import per_object
from rebelspace.engine.views import PlayerView

from .forecast import battle_forecast
from .games import SEATS, Session, Since, invite_path

# A state message before it is serialised (its view a PlayerView): what a connection was sent
# last, which the next push is compared with (build_state).
Message = dict[str, Any]
# The state messages pushed by one change, by (seat, first event, id of the message the
# client held: 0 for none), each with that message: built once per key (hub.broadcast).
Pushed = dict[tuple[int | None, int, int], tuple[str, Message]]


def state_text(session: Session, seat: int | None, since: Since | None = None) -> str:
    """The state message for a seat (None: a spectator) as JSON text, for a client that holds
    no view (a REST answer, a connection's first message): ``state_dict``'s, serialised."""
    return wire_text(state_dict(session, seat, since))


def state_message(session: Session, seat: int | None, since: Since | None = None) -> dict[str, Any]:
    """The state message as its client reads it: ``state_dict`` as plain JSON values
    (``plain``), what ``json.loads(state_text(...))`` gives, without the text."""
    data: dict[str, Any] = plain(state_dict(session, seat, since))
    return data


def build_state(
    session: Session, seat: int | None, since: Since | None = None, held: Message | None = None
) -> tuple[str, Message]:
    """The state message for a seat as JSON text, and the message itself (``state_dict``,
    its view a PlayerView), which the next push is compared with. With ``held``, the message
    this client was sent last (a WebSocket's previous one, for the same seat), the text is
    a ``delta``: the fields of ``DELTA_FIELDS`` equal to ``held``'s are left out, and of the
    view the parts equal to ``held``'s (``view_changes``)."""
    msg = state_dict(session, seat, since)
    sent = msg if held is None or held["seat"] != msg["seat"] else delta(msg, held)
    return wire_text(sent), msg


def wire_text(msg: Message) -> str:
    """A message as the wire carries it: the one place it is serialised (compact JSON, its
    dataclasses by ``json_fields``)."""
    return json.dumps(msg, default=json_fields, separators=(",", ":"))


def state_dict(session: Session, seat: int | None, since: Since | None = None) -> Message:
    """The state message for a seat (None: a spectator), before it is serialised (its view a
    PlayerView). It holds only the seat's own view (R5), or the public view for a spectator,
    and of the seat's events (and log lines, one per event) those from ``events_from``: the
    ones after what the client holds (``since``, see ``events_start``)."""
    state = session.state
    view = state.public_view() if seat is None else state.view(seat)
    start = session.events_start(seat, since)
    view = replace(view, log=view.log[start:])  # line i is events[i]'s (engine R5 rule)
    if session.ended is not None:  # resigned, out of time or abandoned: nobody decides now
        view = replace(view, to_move=None, legal_actions=())
    result = session.result_json()
    allowed = False
    if seat is not None and session.undo is None:
        allowed = session.undo_target(seat)[0] is not None
    msg: dict[str, Any] = {
        "type": "state",
        "game_id": session.id,
        "mode": session.mode,
        "seat": None if seat is None else SEATS[seat],
        "seats": {
            SEATS[p]: {
                "kind": "computer" if p == session.computer_seat else "human",
                "connected": session.connected(p),
                "taken": p == session.computer_seat or session.token_hashes[p] is not None,
            }
            for p in (0, 1)
        },
        "version": session.version,
        "plies": session.plies,
        # Serialised by json_fields: view.to_dict() without its copies and without
        # legal_actions, which the message carries once, as `legal`.
        "view": view,
        "legal": view.legal_actions,
        "undo": {
            "pending_from": None if session.undo is None else SEATS[session.undo.seat],
            "allowed": allowed,
        },
        "over": result is not None,
        "winner": None if result is None else result["winner"],
        "events_from": start,
        "events": session.events_json(seat)[start:],
        "result": result,
        "clock": clock_json(session),
        "claim": None,
        "rematch": None,
        # The game's rules options (the hand limit, deploy points, draws...): a client
        # words its prompts with these, never with numbers of its own.
        "rules": rules_json(state.ctx.options),
        "forecast": battle_forecast(view, state.ctx.options.tie),
        # The seat's views after each of the newest plies: the table's playback (web).
        "steps": steps_json(session, seat, start, view),
    }
    if seat is not None:
        wait = session.claim_in_ms(seat)
        msg["claim"] = None if wait is None else {"available_in_ms": wait}
    if result is not None:
        msg["rematch"] = {
            "offered_by": None if session.rematch_seat is None else SEATS[session.rematch_seat],
            "game_id": session.rematch_id,
        }
    if (
        seat == session.row.creator_seat
        and session.row.invite is not None
        and session.token_hashes[1 - seat] is None
    ):
        msg["invite"] = invite_path(session.id, session.row.invite)
    return msg


# What a push leaves out when it equals the connection's previous message (issue 33: a
# message carries what is new): the fields that change rarely. The others are always sent:
# the ids and counters, the decision (`legal`), the new events and steps, the end.
DELTA_FIELDS = ("seats", "undo", "result", "clock", "claim", "rematch", "rules", "forecast")


def delta(msg: Message, held: Message) -> Message:
    """``msg`` as a push to a client that holds ``held``: ``delta`` true, the fields of
    ``DELTA_FIELDS`` equal to ``held``'s left out, the view's parts too (``view_changes``).
    The client puts back what is left out from the message it holds (web/api.js)."""
    out = {k: v for k, v in msg.items() if k not in DELTA_FIELDS or v != held[k]}
    out["view"] = view_changes(msg["view"], held["view"])
    out["delta"] = True
    return out


# The view's parts compared one level further down: a side's hand, zones and discard pile
# change one at a time (a deployment changes the hand and the active zone, not the rest).
_BY_PART = ("you", "opponent")


def view_changes(view: PlayerView, held: PlayerView) -> dict[str, Any]:
    """The parts of ``view`` that differ from ``held`` (the view the client holds), and of
    ``you`` and ``opponent`` the parts of those that differ: a part left out is ``held``'s.
    The log is always sent: it holds only the new events' lines."""
    changed: dict[str, Any] = {}
    for name, now in json_fields(view).items():
        if name == "log" or now != getattr(held, name):
            changed[name] = now
    for name in _BY_PART:
        if name in changed:
            before = json_fields(getattr(held, name))
            changed[name] = {k: v for k, v in json_fields(changed[name]).items() if v != before[k]}
    return changed


def steps_json(
    session: Session, seat: int | None, start: int, shown: PlayerView
) -> list[dict[str, Any]]:
    """The playback's frames for a seat's events from ``start``: for each kept ply that
    added events to the seat's stream, the seat's own view after that ply (R5: the
    engine's per-player view, never more) and its forecast; ``events_to``: the stream's
    length after the ply, so event ``seq`` belongs to the first step with a larger one.
    The newest ply's step has ``view`` and ``forecast`` null: they are the message's own
    (``shown``), which would otherwise be sent twice (issue 33: the message's size)."""
    column = 2 if seat is None else seat
    tie = session.state.ctx.options.tie
    out: list[dict[str, Any]] = []
    for ply in sorted(session.views_after):
        if ply > session.plies:
            continue
        end, before = session.stream_ends[ply][column], session.stream_ends[ply - 1][column]
        if end <= max(start, before):
            continue
        kept = session.views_after[ply][column]
        if ply == session.plies and replace(kept, log=shown.log) == shown:
            out.append({"ply": ply, "events_to": end, "view": None, "forecast": None})
            continue
        view = replace(kept, log=())  # no view on the wire has legal actions (_NOT_SENT)
        forecast = battle_forecast(view, tie)
        out.append({"ply": ply, "events_to": end, "view": view, "forecast": forecast})
    return out


def clock_json(session: Session) -> dict[str, Any] | None:
    clocks = session.clocks_at(session.now())
    if clocks is None:
        return None
    assert session.row.clock is not None
    running = session.clock_running()
    return {
        "initial_s": session.row.clock[0],
        "increment_s": session.row.clock[1],
        "rebel_ms": clocks[0],
        "imperial_ms": clocks[1],
        "running": None if running is None else SEATS[running],
    }


@per_object
def rules_json(options: RulesOptions) -> dict[str, Any]:
    return options.to_dict()


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}

# Fields the wire leaves out of a dataclass: a state message carries the seat's legal
# actions once, as its `legal` (docs/protocol.md), and a step or a replay has none.
_NOT_SENT: dict[type, frozenset[str]] = {PlayerView: frozenset({"legal_actions"})}


def json_fields(obj: object) -> dict[str, Any]:
    """JSON for the view's frozen dataclasses: their fields in order, as ``asdict`` gives them
    (tuples become lists either way), but without ``asdict``'s deep copies (4x faster), and
    without the fields of ``_NOT_SENT``."""
    names = _FIELD_NAMES.get(type(obj))
    if names is None:
        if not is_dataclass(obj) or isinstance(obj, type):
            raise TypeError(f"cannot serialise {type(obj).__name__}")
        left_out = _NOT_SENT.get(type(obj), frozenset())
        names = tuple(f.name for f in fields(obj) if f.name not in left_out)
        _FIELD_NAMES[type(obj)] = names
    return {name: getattr(obj, name) for name in names}


# The types JSON reads back as they are (exactly these: a subclass, an enum, is turned into
# its plain value by ``plain``).
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})


def plain(value: object) -> Any:
    """``value`` as JSON reads it back (what ``json.loads(wire_text(value))`` gives): dicts
    with text keys, lists for tuples, the dataclasses by ``json_fields``, plain numbers and
    texts for their subclasses (enums). The exact types are looked at first: they are most
    of a message."""
    if type(value) in _PLAIN_TYPES:
        return value
    if isinstance(value, dict):
        return {_plain_key(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, bool | int | float | str):
        return _plain_scalar(value)
    return plain(json_fields(value))


def _plain_scalar(value: bool | int | float | str) -> bool | int | float | str:
    """A subclass's value (an enum's) as JSON writes it: its plain bool, number or text."""
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str.__str__(value)  # the text itself, whatever the subclass's __str__
    return int(value) if isinstance(value, int) else float(value)


def _plain_key(key: object) -> str:
    """A dict key as JSON writes it (``json.dumps``: text as it is, numbers by their repr,
    true, false and null)."""
    if type(key) is str:
        return key
    if isinstance(key, str):
        return str.__str__(key)
    if key is None or isinstance(key, bool | int | float):
        return json.dumps(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
