"""Game records: a game as JSON (seed, rules, card data, actions), and its exact replay."""

from __future__ import annotations

import json
import os
from typing import Any

from .cards import CardDB, cards_from_data
from .errors import ActionError, RebelSpaceError, RecordError, read_json
from .options import RulesOptions
from .state import GameState, new_game

RECORD_FORMAT = "rebelspace-record/1"


def to_record(state: GameState, meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """A JSON-ready record of a game from its start (finished or not).

    ``meta`` is whatever the program that played the game needs to go on with it (the
    terminal game keeps the computer's side, kind, level and seed there); replaying ignores
    it, so records with or without it replay alike."""
    if state.history is None:
        raise RecordError("this state is a search copy without a history; record the game itself")
    space = state.action_space
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "seed": state.seed,
        "rules": state.options.to_dict(),
        "cards": state.cards.to_data(),
        "actions": [space.text(a) for a in state.history],
        "action_ids": list(state.history),
    }
    if state.outcome is not None:
        record["result"] = {
            "winner": state.outcome.winner_name.lower(),
            "reason": state.outcome.reason,
            "turns": state.turn,
        }
    if meta is not None:
        record["meta"] = meta
    return record


def save_record(
    state: GameState, path: str | os.PathLike[str], meta: dict[str, Any] | None = None
) -> None:
    """Write the record next to ``path`` and move it into place, so a failed save never
    leaves a half-written or emptied file behind."""
    text = json.dumps(to_record(state, meta), indent=1) + "\n"
    tmp = f"{os.fspath(path)}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise RecordError(f"{path}: cannot write the record: {e.strerror}") from None
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def load_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    data: dict[str, Any] = read_json(path, RecordError, "record")
    return data


def replay(record: dict[str, Any], *, log: bool = True, source: str = "record") -> GameState:
    """Play a record's actions again from its seed; the result is the same game exactly."""
    if not isinstance(record, dict):
        raise RecordError(f"{source}: a record is a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"{source}: field 'format' must be {RECORD_FORMAT!r}")
    seed, options, cards = _game_settings(record, source)
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError(f"{source}: field 'actions' must be a list of action texts")
    # The texts are the record; the ids, where given, must agree with them (a changed card
    # list or action space would make them drift).
    ids = record.get("action_ids")
    if ids is not None and not isinstance(ids, list):
        raise RecordError(f"{source}: field 'action_ids' must be a list of action ids")
    state = new_game(seed, options=options, cards=cards, log=log)
    for i, text in enumerate(actions):
        _replay_action(state, i, text, ids, source)
    stated = record.get("result")
    if stated is not None:
        _check_result(state, stated, source)
    return state


def _game_settings(record: dict[str, Any], source: str) -> tuple[int, RulesOptions, CardDB | None]:
    """The record's seed, rules options and card list (None: the standard cards)."""
    seed = record.get("seed")
    if type(seed) is not int:
        raise RecordError(f"{source}: field 'seed' must be an integer, got {seed!r}")
    try:
        options = RulesOptions.from_dict(record.get("rules") or {})
    except (RebelSpaceError, TypeError) as e:
        raise RecordError(f"{source}: field 'rules': {e}") from None
    cards: CardDB | None = None
    if record.get("cards") is not None:
        try:
            cards = cards_from_data(record["cards"], source=f"{source} cards", stored=True)
        except RebelSpaceError as e:
            raise RecordError(f"{source}: field 'cards': {e}") from None
    return seed, options, cards


def _replay_action(state: GameState, i: int, text: str, ids: list[Any] | None, source: str) -> None:
    """Apply the record's action ``i`` (its text), checking its id if the record gives one."""
    try:
        state.apply(text)
    except ActionError as e:
        raise RecordError(f"{source}: action {i + 1} ({text!r}) cannot be replayed: {e}") from None
    if (
        ids is not None
        and i < len(ids)
        and state.history is not None
        and (state.history[-1] != ids[i])
    ):
        raise RecordError(
            f"{source}: action {i + 1} ({text!r}) has id {state.history[-1]}, but the "
            f"record says {ids[i]!r}"
        )


def _check_result(state: GameState, stated: object, source: str) -> None:
    """The replayed game must end as the record says it did."""
    outcome = state.outcome
    replayed = (
        None
        if outcome is None
        else {"winner": outcome.winner_name.lower(), "reason": outcome.reason}
    )
    if (
        not isinstance(stated, dict)
        or replayed is None
        or ({k: stated.get(k) for k in replayed} != replayed)
    ):
        raise RecordError(
            f"{source}: the record states the result {stated!r}, but replaying it gives "
            f"{replayed!r}"
        )
