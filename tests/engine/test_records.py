"""Game records: save, load and replay give back the same game, finished or not."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rebelspace.engine import (
    GameState,
    RecordError,
    RulesOptions,
    load_cards,
    load_record,
    new_game,
    replay,
    save_record,
    to_record,
)
from rebelspace.engine.records import RECORD_FORMAT


def random_game(seed: int, decisions: int | None = None, **kwargs: object) -> GameState:
    """A game of random legal choices, stopped after ``decisions`` (None: played to the end)."""
    game = new_game(seed, **kwargs)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not game.is_over and (decisions is None or len(game.history or []) < decisions):
        game.apply(rng.choice(game.legal_actions()))
    return game


def assert_same_game(again: GameState, game: GameState) -> None:
    assert again == game
    assert again.events == game.events and again.history == game.history
    assert again.legal_actions() == game.legal_actions()
    assert again.view(0) == game.view(0) and again.view(1) == game.view(1)


def test_a_finished_game_round_trips_through_a_file(tmp_path: Path) -> None:
    game = random_game(11)
    path = tmp_path / "game.json"
    save_record(game, path)
    record = load_record(path)
    assert record == to_record(game)
    assert_same_game(replay(record), game)
    assert json.loads(path.read_text(encoding="utf-8")) == record


def test_a_record_holds_what_replay_needs_and_the_result() -> None:
    game = random_game(12)
    assert game.outcome is not None and game.history is not None
    record = to_record(game)
    assert record["format"] == RECORD_FORMAT
    assert record["seed"] == 12
    assert record["rules"] == RulesOptions().to_dict()
    assert record["cards"] == game.cards.to_data()
    assert record["actions"] == [game.action_text(a) for a in game.history]
    assert record["action_ids"] == game.history
    assert record["result"] == {
        "winner": game.outcome.winner_name.lower(),
        "reason": game.outcome.reason,
        "turns": game.turn,
    }


@pytest.mark.parametrize("decisions", [0, 1, 7, 60, 151])
def test_an_unfinished_game_replays_to_the_same_position(tmp_path: Path, decisions: int) -> None:
    """Stopped anywhere, mid-battle included; both copies then go on the same way."""
    game = random_game(13, decisions)
    assert not game.is_over
    path = tmp_path / "unfinished.json"
    save_record(game, path)
    record = load_record(path)
    assert "result" not in record
    again = replay(record)
    assert_same_game(again, game)
    rng = random.Random(99)
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        again.apply(action)
    assert_same_game(again, game)


def test_records_keep_the_rules_options(tmp_path: Path) -> None:
    options = RulesOptions(tie="defender", hand_limit=4, draw_max=3, max_groups=3)
    game = random_game(14, options=options)
    path = tmp_path / "options.json"
    save_record(game, path)
    again = replay(load_record(path))
    assert again.options == options
    assert_same_game(again, game)


def test_records_keep_edited_card_data(tmp_path: Path) -> None:
    """A designer's edited card list goes into the record, so the game replays without it."""
    changes = {"Space Cruiser": {"space": 8}, "Rebel Soldier": {"count": 12}}
    cards = load_cards().with_changes(changes)
    game = random_game(15, cards=cards)
    path = tmp_path / "cards.json"
    save_record(game, path)
    again = replay(load_record(path))
    assert again.cards == cards and again.cards.by_name("Space Cruiser").space == 8
    assert_same_game(again, game)


def test_a_record_without_cards_uses_the_packaged_card_list() -> None:
    game = random_game(16, 40)
    record = to_record(game)
    del record["cards"]
    assert_same_game(replay(record), game)


@pytest.mark.parametrize("seed", [0, -1, 2**63 - 1, 2**64 + 5, -(2**70)])
def test_any_integer_seed_round_trips_through_json(tmp_path: Path, seed: int) -> None:
    game = random_game(seed, 30)
    path = tmp_path / "seed.json"
    save_record(game, path)
    assert_same_game(replay(load_record(path)), game)


def test_replay_without_a_log_gives_the_same_state() -> None:
    game = random_game(17)
    quiet = replay(to_record(game), log=False)
    assert quiet == game and quiet.events is None and quiet.log_lines() == []
    assert quiet.history == game.history


def test_saving_is_deterministic(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    save_record(random_game(18), first)
    save_record(random_game(18), second)
    assert first.read_bytes() == second.read_bytes()


def test_a_replayed_game_records_the_same_record() -> None:
    game = random_game(19)
    assert to_record(replay(to_record(game))) == to_record(game)


def test_a_record_of_a_clone_with_its_log_replays() -> None:
    game = random_game(20, 80)
    copy = game.clone(keep_log=True)
    assert_same_game(replay(to_record(copy)), game)


def test_a_failed_save_leaves_an_existing_record_alone(tmp_path: Path) -> None:
    """Saving a search copy fails before the file is opened, not after emptying it."""
    game = random_game(21, 20)
    path = tmp_path / "game.json"
    save_record(game, path)
    before = path.read_bytes()
    with pytest.raises(RecordError):
        save_record(game.clone(), path)
    assert path.read_bytes() == before
