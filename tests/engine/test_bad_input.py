"""Bad input of every kind: each is refused with a typed error that says why, and changes nothing.

Illegal actions raise ``IllegalActionError``, malformed scenarios ``ScenarioError`` (naming the
field), malformed records ``RecordError``, bad rules options ``OptionsError``. Tests marked
``xfail(strict=True)`` are engine bugs reported to the lead; each says what it should do.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rebelspace.engine import (
    Action,
    ActionError,
    GameState,
    IllegalActionError,
    InvalidActionError,
    Kind,
    OptionsError,
    RebelSpaceError,
    RecordError,
    RulesOptions,
    ScenarioError,
    load_record,
    load_scenario,
    load_scenario_file,
    new_game,
    replay,
    to_record,
)

FUZZ = settings(max_examples=150, deadline=None, database=None)


def deploy_position() -> GameState:
    """Rebel deploys with 2 points: a Soldier (1) fits, a Warship (3) does not, no hero."""
    return load_scenario(
        {
            "seed": 2,
            "phase": "deploy",
            "deploy_points": 2,
            "rebel": {"hand": ["Rebel Warship", "Rebel Soldier", "Laser Sword"]},
        }
    )


def finished_game() -> GameState:
    game = load_scenario({"seed": 2, "rebel": {"deck_size": 1}})
    game.apply("draw 1")  # R9, R37: drawing the last card loses at once
    assert game.is_over
    return game


def refused(
    game: GameState,
    attempt: Callable[[], object],
    *words: str,
    error: type[ActionError] = IllegalActionError,
) -> str:
    """``attempt`` raises ``error`` (IllegalActionError: not legal now; InvalidActionError: not
    an action at all) whose message holds ``words``; nothing changes."""
    key, log, history = game.key(), list(game.events or []), list(game.history or [])
    legal = game.legal_actions()
    with pytest.raises(error) as info:
        attempt()
    message = str(info.value)
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    assert game.key() == key and list(game.events or []) == log
    assert list(game.history or []) == history and game.legal_actions() == legal
    return message


# ----------------------------------------------------------------------------- illegal actions


def test_an_action_of_another_step_is_refused() -> None:
    game = new_game(5)
    message = refused(game, lambda: game.apply("pass"), "'pass'", "draw step", "Rebel")
    assert message.endswith("Legal: draw 1; draw 2")


def test_drawing_more_than_allowed_is_refused() -> None:
    """R8: 1 or 2 cards with no extra-draw unit in play; the message lists the choices."""
    game = new_game(5)
    refused(game, lambda: game.apply("draw 3"), "'draw 3'", "may draw 1, 2")


def test_a_card_not_in_hand_is_refused() -> None:
    game = deploy_position()
    refused(game, lambda: game.apply("deploy Princess"), "'deploy Princess'", "no Princess in hand")


def test_a_card_costing_more_than_the_deploy_points_left_is_refused() -> None:
    """R23: the Warship costs 3, 2 points are left."""
    game = deploy_position()
    refused(
        game,
        lambda: game.apply("deploy Rebel Warship"),
        "'deploy Rebel Warship'",
        "costs more than the 2 deploy points",
    )


def test_a_group_that_does_not_exist_is_refused() -> None:
    game = load_scenario(
        {"seed": 2, "phase": "attack", "rebel": {"active": ["Rebel Soldier", "Grav Cycles"]}}
    )
    refused(game, lambda: game.apply("add Grav Cycles to group 3"), "there is no group 3")


def test_the_wrong_player_is_refused() -> None:
    game = deploy_position()
    refused(
        game,
        lambda: game.apply("deploy Rebel Soldier", player=1),
        "'deploy Rebel Soldier'",
        "it is Rebel's decision, not Imperial's",
    )
    game.apply("deploy Rebel Soldier", player=0)  # the right player may


@pytest.mark.parametrize("action", ["draw 1", 0, "no attack", "xyzzy"])
def test_any_action_after_the_game_is_over_is_refused(action: int | str) -> None:
    game = finished_game()
    if action == "xyzzy":  # not an action at all, over or not
        refused(game, lambda: game.apply(action), "'xyzzy'", error=InvalidActionError)
    else:
        refused(game, lambda: game.apply(action), "game is over", "Imperial won")
    assert game.legal_actions() == [] and not game.is_legal(action)


@pytest.mark.parametrize("action_id", [-1, -2933, 2933, 10**9])
def test_an_id_outside_the_action_space_is_refused(action_id: int) -> None:
    game = new_game(5)
    size = game.action_space.size
    action_id = action_id if abs(action_id) != 2933 else (size if action_id > 0 else -size)
    words = (f"action id {action_id}", f"0..{size - 1}")
    refused(game, lambda: game.apply(action_id), *words, error=InvalidActionError)
    assert not game.is_legal(action_id)


@pytest.mark.parametrize(
    "text", ["", "   ", "fly to the moon", "draw", "draw two", "deploy", "draw 2 please", "pass!"]
)
def test_text_that_is_no_action_is_refused(text: str) -> None:
    game = new_game(5)
    words = (repr(text), "not an action of Rebel Space")
    refused(game, lambda: game.apply(text), *words, error=InvalidActionError)
    assert not game.is_legal(text)


def test_action_text_ignores_case_and_spacing() -> None:
    game = new_game(5)
    game.apply("  DRAW\t 2 ")
    assert game.history == [game.parse_action("draw 2")]


@pytest.mark.parametrize("value", [True, False, None, 1.0, b"draw 1", ["draw 1"], {"id": 0}])
def test_values_that_are_no_action_are_refused(value: Any) -> None:
    """bool is an int in Python, but True is not action 1."""
    game = new_game(5)
    words = ("an action is an id, a text or an Action", repr(value))
    refused(game, lambda: game.apply(value), *words, error=InvalidActionError)
    assert not game.is_legal(value)


def test_an_action_value_of_the_right_space_is_accepted() -> None:
    game = new_game(5)
    action = game.action(game.parse_action("draw 2"))
    game.apply(action)
    assert game.history == [action.id]


def test_an_action_value_with_an_id_outside_the_space_is_refused() -> None:
    game = new_game(5)
    action = Action(10**6, Kind.PASS, text="pass")
    refused(game, lambda: game.apply(action), "10", error=InvalidActionError)


def test_an_action_value_of_another_action_space_is_not_misread() -> None:
    game = load_scenario(
        {"seed": 2, "rules": {"draw_max": 3}, "phase": "attack", "rebel": {"active": ["Princess"]}}
    )
    assert "no attack" in game.legal_action_texts()
    default_space = new_game(0).action_space
    foreign = default_space[default_space.parse("attack")]
    assert foreign.id == game.parse_action("no attack")  # the same id means "no attack" here
    try:
        game.apply(foreign)
    except InvalidActionError:
        return  # refusing a foreign Action is fine
    assert game.phase == "attack", f"{foreign.text!r} was applied as 'no attack'"


@pytest.mark.parametrize("player", [2, "rebel", -1])
def test_a_player_that_does_not_exist_is_refused(player: Any) -> None:
    game = new_game(5)
    refused(
        game, lambda: game.apply("draw 1", player=player), repr(player), error=InvalidActionError
    )


def test_views_of_a_player_that_does_not_exist_are_refused() -> None:
    game = new_game(5)
    for player in (2, -1, "rebel", None):
        with pytest.raises(ValueError, match="player must be 0"):
            game.view(player)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- scenarios

ATTACK = {"seed": 1, "phase": "attack"}


def with_battle(rebel: list[Any], imperial: list[Any], **battle: Any) -> dict[str, Any]:
    return {
        **ATTACK,
        "rebel": {"active": rebel},
        "imperial": {"active": imperial},
        "battle": battle,
    }


SCENARIO_ERRORS: list[tuple[str, Any, str]] = [
    ("not an object", ["rebel"], "a scenario is a JSON object"),
    ("not an object: string", "phase: draw", "a scenario is a JSON object"),
    ("unknown field", {"phase": "draw", "colour": "red"}, "field 'colour'"),
    ("unknown side field", {"rebel": {"hands": []}}, "field 'rebel.hands'"),
    ("unknown card name", {"rebel": {"hand": ["Princes"]}}, "field 'rebel.hand[0]'"),
    ("card name not a string", {"rebel": {"hand": [7]}}, "field 'rebel.hand[0]'"),
    ("too many copies", {"rebel": {"hand": ["Princess"], "discard": ["Princess"]}}, "copies"),
    ("other side's card in hand", {"rebel": {"hand": ["Trap"]}}, "field 'rebel.hand[0]'"),
    ("other side's card in deck", {"imperial": {"deck": ["Princess"]}}, "'imperial.deck[0]'"),
    ("non-unit in play", {"rebel": {"active": ["Laser Sword"]}}, "field 'rebel.active[0]'"),
    (
        "attachments on a non-hero",
        {"rebel": {"active": [{"name": "Rebel Soldier", "attachments": ["Laser Sword"]}]}},
        "field 'rebel.active[0]'",
    ),
    (
        "unknown unit field",
        {"rebel": {"active": [{"name": "Princess", "items": []}]}},
        "field 'rebel.active[0].items'",
    ),
    (
        "other side's non-hero in play",
        {"rebel": {"active": ["Troopers"]}},
        "field 'rebel.active[0]'",
    ),
    ("wrong type: seed", {"seed": "7"}, "field 'seed'"),
    ("wrong type: turn", {"turn": 2.0}, "field 'turn'"),
    ("wrong type: bool turn", {"turn": True}, "field 'turn'"),
    ("wrong type: side", {"rebel": ["Princess"]}, "field 'rebel'"),
    ("wrong type: hand", {"rebel": {"hand": "Princess"}}, "field 'rebel.hand'"),
    ("wrong type: actions", {"actions": "pass"}, "field 'actions'"),
    ("wrong type: rules", {"rules": ["tie"]}, "field 'rules'"),
    ("bad rules option", {"rules": {"tie": "nobody"}}, "field 'rules'"),
    ("unknown rules option", {"rules": {"ties": "both"}}, "field 'rules'"),
    ("turn 0", {"turn": 0}, "field 'turn'"),
    ("bad phase", {"phase": "lunch"}, "field 'phase'"),
    ("bad phase: over", {"phase": "over"}, "field 'phase'"),
    ("bad player", {"player": "empire"}, "field 'player'"),
    ("bad player: number", {"player": 1}, "field 'player'"),
    ("deploy points outside deploy", {"phase": "end", "deploy_points": 2}, "'deploy_points'"),
    ("battle outside attack", {"phase": "deploy", "battle": {}}, "field 'battle'"),
    (
        "battle with no attacker",
        {"phase": "attack", "battle": {"groups": []}},
        "field 'battle'",
    ),
    ("negative deck_size", {"rebel": {"deck_size": -1}}, "field 'rebel.deck_size'"),
    ("zero deck_size (R9)", {"imperial": {"deck_size": 0}}, "field 'imperial.deck_size'"),
    ("deck_size too big", {"rebel": {"deck_size": 77}}, "field 'rebel.deck_size'"),
    (
        "deck_size below the named deck",
        {"rebel": {"deck": ["Princess", "Rebel Soldier"], "deck_size": 1}},
        "field 'rebel.deck_size'",
    ),
    ("deck_size with exact deck", {"rebel": {"deck": ["Princess"], "deck_size": 3}}, "deck_size"),
    ("empty exact deck", {"rebel": {"deck": []}}, "field 'rebel.deck_size'"),
    ("deck_size not int", {"rebel": {"deck_size": "10"}}, "field 'rebel.deck_size'"),
    (
        "deck and deck_top",
        {"rebel": {"deck": ["Princess"], "deck_top": ["Smuggler"]}},
        "field 'rebel.deck_top'",
    ),
    ("illegal action", {"actions": ["draw 1", "pass"]}, "field 'actions[1]'"),
    ("action no text", {"actions": [1]}, "field 'actions[0]'"),
    ("action not an action", {"actions": ["warp"]}, "field 'actions[0]'"),
    (
        "R12: a space group started by a hero (R35)",
        with_battle(
            ["Smuggler", "Stunt Fighters"],
            [],
            groups=[{"kind": "space", "units": ["Smuggler", "Stunt Fighters"]}],
        ),
        "field 'battle.groups[0].units[0]'",
    ),  # fmt: skip
    (
        "R12: a space unit in a ground group",
        with_battle(
            ["Rebel Soldier", "Stunt Fighters"],
            [],
            groups=[{"kind": "ground", "units": ["Rebel Soldier", "Stunt Fighters"]}],
        ),
        "field 'battle.groups[0].units[1]'",
    ),  # fmt: skip
    (
        "R12: two pilots for one fighter",
        with_battle(
            ["Stunt Fighters", "Smuggler", "Superior Pilot"],
            [],
            groups=[{"kind": "space", "units": ["Stunt Fighters", "Superior Pilot", "Smuggler"]}],
        ),
        "field 'battle.groups[0].units[2]'",
    ),  # fmt: skip
    (
        "R12: a captain with no ship",
        with_battle(
            ["Stunt Fighters", "Princess"],
            [],
            groups=[{"kind": "space", "units": ["Stunt Fighters", "Princess"]}],
        ),
        "field 'battle.groups[0].units[1]'",
    ),  # fmt: skip
    (
        "R11: a Defense unit attacks",
        with_battle(["Ion Cannon", "Rebel Soldier"], [], groups=[{"units": ["Ion Cannon"]}]),
        "field 'battle.groups[0].units[0]'",
    ),
    (
        "R12: a space blocker for a ground group",
        with_battle(
            ["Rebel Soldier"],
            ["Interceptors"],
            groups=[{"units": ["Rebel Soldier"], "blockers": ["Interceptors"]}],
        ),
        "field 'battle.groups[0].blockers[0]'",
    ),  # fmt: skip
    (
        "R12: an empty group",
        with_battle(["Rebel Soldier"], [], groups=[{"units": []}]),
        "field 'battle.groups[0].units'",
    ),
    (
        "R15: a unit in two groups",
        with_battle(
            ["Rebel Soldier"],
            [],
            groups=[{"units": ["Rebel Soldier"]}, {"units": ["Rebel Soldier"]}],
        ),
        "field 'battle.groups[1].units[0]'",
    ),  # fmt: skip
    (
        "attacker not in the active zone",
        with_battle(["Rebel Soldier"], [], groups=[{"units": ["Grav Cycles"]}]),
        "field 'battle.groups[0].units[0]'",
    ),
    (
        "R16: a blocked group targets",
        with_battle(
            ["Rebel Soldier"],
            ["Troopers", "Battle Walkers"],
            groups=[
                {"units": ["Rebel Soldier"], "blockers": ["Troopers"], "target": "Battle Walkers"}
            ],
        ),
        "field 'battle.groups[0].target'",
    ),  # fmt: skip
    (
        "bad target zone",
        with_battle(
            ["Rebel Soldier"],
            ["Troopers"],
            groups=[{"units": ["Rebel Soldier"], "target": {"name": "Troopers", "zone": "hand"}}],
        ),
        "field 'battle.groups[0].target.zone'",
    ),  # fmt: skip
    (
        "bad group kind",
        with_battle(["Rebel Soldier"], [], groups=[{"kind": "air", "units": ["Rebel Soldier"]}]),
        "field 'battle.groups[0].kind'",
    ),
    (
        "bad battle step",
        with_battle(["Rebel Soldier"], [], step="casualties", groups=[]),
        "field 'battle.step'",
    ),
    (
        "battle step with no group",
        with_battle(["Rebel Soldier"], [], step="tricks", groups=[]),
        "field 'battle.groups'",
    ),
    (
        "too many groups (R32)",
        with_battle(["Rebel Soldier"] * 9, [], groups=[{"units": ["Rebel Soldier"]}] * 9),
        "field 'battle.groups'",
    ),
    (
        "unknown battle field",
        with_battle(["Rebel Soldier"], [], groups=[], damage=3),
        "field 'battle.damage'",
    ),
    (
        "group not an object",
        with_battle(["Rebel Soldier"], [], groups=["Rebel Soldier"]),
        "field 'battle.groups[0]'",
    ),
]


@pytest.mark.parametrize(
    ("data", "field"),
    [pytest.param(data, field, id=label) for label, data, field in SCENARIO_ERRORS],
)
def test_malformed_scenarios_name_the_field(data: Any, field: str) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario(data, source="bad.json")
    message = str(info.value)
    assert message.startswith("bad.json:"), message
    assert field in message, f"{field!r} not in {message!r}"


def test_a_scenario_error_is_also_a_value_error() -> None:
    with pytest.raises(ValueError):
        load_scenario({"phase": "lunch"})


SCENARIO_BUGS: list[tuple[str, Any, str]] = [
    (
        "a unit given as an attachment (R2, R23)",
        {"rebel": {"active": [{"name": "Princess", "attachments": ["Rebel Soldier"]}]}},
        "field 'rebel.active[0].attachments[0]'",
    ),
    (
        "a psion card attached outside an attack phase (R24)",
        {"rebel": {"active": [{"name": "Young Protagonist", "attachments": ["True Aim"]}]}},
        "field 'rebel.active[0].attachments[0]'",
    ),
    (
        "negative deploy points (R23)",
        {"phase": "deploy", "deploy_points": -1},
        "field 'deploy_points'",
    ),
    (
        "R16: a space group targets a ground-only unit",
        with_battle(
            ["Stunt Fighters"],
            ["Battle Walkers"],
            groups=[{"kind": "space", "units": ["Stunt Fighters"], "target": "Battle Walkers"}],
        ),
        "field 'battle.groups[0].target'",
    ),  # fmt: skip
    (
        "R16 option: an inactive target with target_inactive false",
        {
            **ATTACK,
            "rules": {"target_inactive": False},
            "rebel": {"active": ["Rebel Soldier"]},
            "imperial": {"inactive": ["Troopers"]},
            "battle": {
                "groups": [
                    {"units": ["Rebel Soldier"], "target": {"name": "Troopers", "zone": "inactive"}}
                ]
            },
        },
        "field 'battle.groups[0].target'",
    ),  # fmt: skip
    (
        "a target before the target step (the group can then also be blocked)",
        with_battle(
            ["Rebel Soldier"],
            ["Troopers", "Battle Walkers"],
            step="block",
            groups=[{"units": ["Rebel Soldier"], "target": "Battle Walkers"}],
        ),
        "field 'battle.groups[0].target'",
    ),  # fmt: skip
]


@pytest.mark.parametrize(
    ("data", "field"),
    [pytest.param(data, field, id=label) for label, data, field in SCENARIO_BUGS],
)
def test_inconsistent_scenarios_are_refused(data: Any, field: str) -> None:
    with pytest.raises(ScenarioError, match=field.replace("[", r"\[").replace("]", r"\]")):
        load_scenario(data)


def test_an_unreadable_scenario_file_is_a_scenario_error(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="cannot read the scenario"):
        load_scenario_file(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"phase": "draw",}', encoding="utf-8")
    with pytest.raises(ScenarioError, match="bad.json: not valid JSON"):
        load_scenario_file(bad)
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"phase": "lunch"}', encoding="utf-8")
    with pytest.raises(ScenarioError, match="wrong.json: field 'phase'"):
        load_scenario_file(wrong)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 80) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
scenario_keys = st.sampled_from(
    ["seed", "turn", "player", "phase", "deploy_points", "rebel", "imperial", "battle", "actions"]
)
side_values = st.dictionaries(
    st.sampled_from(["hand", "active", "inactive", "discard", "deck", "deck_top", "deck_size"]),
    json_values | st.lists(st.sampled_from(["Princess", "Rebel Soldier", "Trap", "Troopers"])),
    max_size=3,
)


@FUZZ
@given(
    st.one_of(
        json_values,
        st.dictionaries(scenario_keys, json_values | side_values, max_size=5),
    )
)
def test_any_json_is_a_position_or_a_scenario_error(data: Any) -> None:
    """Fuzz: whatever JSON a scenario file holds, loading it never fails in another way."""
    try:
        game = load_scenario(data)
    except ScenarioError:
        return
    assert isinstance(game, GameState)


def test_a_scenario_file_that_is_not_text_is_a_scenario_error(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00{}")
    with pytest.raises(ScenarioError, match="binary.json"):
        load_scenario_file(path)


# ----------------------------------------------------------------------------- records


def small_record() -> dict[str, Any]:
    game = new_game(3)
    for text in ("draw 2", "done deploying"):  # nothing in play yet: no attack phase
        game.apply(text)
    return to_record(game)


RECORD_ERRORS: list[tuple[str, Any, str]] = [
    ("not an object", ["draw 1"], "a record is a JSON object"),
    ("wrong format", {"format": "rebelspace-record/2"}, "field 'format'"),
    ("no format", {}, "field 'format'"),
    ("missing seed", {"seed": None}, "field 'seed'"),
    ("seed not an integer", {"seed": "3"}, "field 'seed'"),
    ("seed a bool", {"seed": True}, "field 'seed'"),
    ("bad rules", {"rules": {"tie": "nobody"}}, "field 'rules'"),
    ("unknown rule", {"rules": {"colour": 1}}, "field 'rules'"),
    ("rules not an object", {"rules": 5}, "field 'rules'"),
    ("bad cards", {"cards": [{"name": "X"}]}, "field 'cards'"),
    ("cards not a list", {"cards": "default"}, "field 'cards'"),
    ("actions not a list", {"actions": "draw 2"}, "field 'actions'"),
    ("action not a text", {"actions": ["draw 2", 7]}, "field 'actions'"),
    ("bad action", {"actions": ["draw 2", "attack"]}, "action 2 ('attack')"),
    ("not an action", {"actions": ["draw two"]}, "action 1 ('draw two')"),
]


@pytest.mark.parametrize(
    ("change", "words"),
    [pytest.param(change, words, id=label) for label, change, words in RECORD_ERRORS],
)
def test_malformed_records_are_record_errors(change: Any, words: str) -> None:
    if isinstance(change, dict) and change:
        record = small_record() | change
        if change.get("seed", 0) is None:
            del record["seed"]
    else:
        record = change
    with pytest.raises(RecordError) as info:
        replay(record, source="game.json")
    message = str(info.value)
    assert message.startswith("game.json:") and words in message, message


def test_the_end_of_a_long_record_replays_until_the_game_is_over() -> None:
    """A record with an action after the end fails at exactly that action (R9)."""
    record = small_record() | {"seed": 3, "actions": []}
    game = new_game(3)
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    full = to_record(game)
    with pytest.raises(RecordError, match=f"action {len(full['actions']) + 1} "):
        replay(full | {"actions": [*full["actions"], "draw 1"]})
    assert replay(record) == new_game(3)


def test_bad_record_files_are_record_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read the record"):
        load_record(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="cannot read the record"):
        load_record(tmp_path)  # a directory
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "rebelspace-record/1", "seed": 1,', encoding="utf-8")
    with pytest.raises(RecordError, match="bad.json: not valid JSON"):
        load_record(bad)
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(["draw 1"]), encoding="utf-8")
    with pytest.raises(RecordError, match="a record is a JSON object"):
        replay(load_record(listed))


def test_a_record_file_that_is_not_text_is_a_record_error(tmp_path: Path) -> None:
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00{}")
    with pytest.raises(RecordError, match="binary.json"):
        load_record(path)


def test_search_copies_and_scenarios_have_no_record() -> None:
    with pytest.raises(RecordError, match="search copy"):
        to_record(new_game(1).clone())
    with pytest.raises(RecordError):
        to_record(load_scenario({"seed": 1}))


record_keys = st.sampled_from(["format", "seed", "rules", "cards", "actions", "result"])


@FUZZ
@given(st.dictionaries(record_keys, json_values, max_size=6), st.booleans())
def test_any_json_is_a_game_or_a_record_error(change: dict[str, Any], on_top: bool) -> None:
    """Fuzz: a record with any fields changed replays or raises RecordError, nothing else."""
    record = (small_record() | change) if on_top else change
    try:
        game = replay(record)
    except RecordError:
        return
    assert isinstance(game, GameState)


# ----------------------------------------------------------------------------- rules options


OPTION_ERRORS: list[tuple[dict[str, Any], str]] = [
    ({"tie": "nobody"}, "tie"),
    ({"tie": None}, "tie"),
    ({"hand_limit": -1}, "hand_limit"),
    ({"hand_limit": 12.0}, "hand_limit"),
    ({"hand_limit": True}, "hand_limit"),
    ({"deploy_points": "3"}, "deploy_points"),
    ({"starting_hand": -5}, "starting_hand"),
    ({"draw_min": 0}, "draw_min"),
    ({"draw_max": 0}, "draw_max"),
    ({"draw_min": 3, "draw_max": 2}, "draw_min (3) is more than draw_max (2)"),
    ({"target_inactive": 1}, "target_inactive"),
    ({"target_inactive": "false"}, "target_inactive"),
    ({"max_groups": 0}, "max_groups"),
]


@pytest.mark.parametrize(("fields", "words"), OPTION_ERRORS)
def test_bad_rules_options_are_options_errors(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(OptionsError, match=words.replace("(", r"\(").replace(")", r"\)")):
        RulesOptions(**fields)
    with pytest.raises(OptionsError):
        RulesOptions.from_dict(fields)


def test_unknown_rules_options_are_options_errors() -> None:
    with pytest.raises(OptionsError, match="unknown rules option 'ties'"):
        RulesOptions.from_dict({"ties": "both"})
    with pytest.raises(TypeError):
        RulesOptions(ties="both")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        RulesOptions("both")  # type: ignore[misc]  # keyword-only


@pytest.mark.parametrize(
    ("setting", "words"),
    [
        ("tie", "name=value"),
        ("=defender", "name=value"),
        ("ties=defender", "unknown rules option 'ties'"),
        ("tie=nobody", "tie"),
        ("hand_limit=many", "hand_limit must be an integer"),
        ("hand_limit=-1", "hand_limit"),
        ("target_inactive=yes", "true or false"),
        ("max_groups=0", "max_groups"),
    ],
)
def test_bad_rules_settings_are_options_errors(setting: str, words: str) -> None:
    with pytest.raises(OptionsError, match=words):
        RulesOptions().with_setting(setting)


def test_options_errors_are_rebel_space_and_value_errors() -> None:
    with pytest.raises(RebelSpaceError):
        RulesOptions(tie="x")
    with pytest.raises(ValueError):
        RulesOptions(tie="x")


def test_good_rules_settings_parse() -> None:
    options = RulesOptions().with_setting(" tie = defender ").with_setting("target_inactive=FALSE")
    assert options == RulesOptions(tie="defender", target_inactive=False)
    assert RulesOptions.from_dict(options.to_dict()) == options


@settings(FUZZ, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(sorted(RulesOptions().to_dict())), json_values))
def test_any_options_dict_is_options_or_an_options_error(fields: dict[str, Any]) -> None:
    try:
        options = RulesOptions.from_dict(fields)
    except OptionsError:
        return
    assert RulesOptions.from_dict(options.to_dict()) == options
