"""Card data: the packaged lists as printed (R1-R3), validation errors, and `rebelspace decks`."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest

from rebelspace import cli
from rebelspace.engine import cards
from rebelspace.engine.cards import (
    ACTION,
    ATTACHMENT,
    GROUND,
    GS,
    HERO,
    IMPERIAL,
    PSION,
    REBEL,
    SPACE,
    CardDB,
    UnknownCardError,
    cards_from_data,
    deck_report,
    load_cards,
)
from rebelspace.engine.errors import CardDataError, RebelSpaceError

RULE_SHEET_NAMES_REBEL = [
    "Young Protagonist", "Princess", "Smuggler", "Robot Sidekick", "Alien Companion",
    "Laser Sword", "Wise Mentor", "Rebel Commander", "Superior Pilot", "Rebel Soldier",
    "Grav Cycles", "Air Speeders", "Rebel Base", "Ion Cannon", "Defense Shields",
    "Stunt Fighters", "Fighter Bombers", "Converted Freighter", "Rebel Warship", "Danger Sense",
    "True Aim", "Medi-Bot", "Recruit", "Convert", "Surprise Attack", "Multiple Targets",
    "Rebel Spies",
]  # fmt: skip
RULE_SHEET_NAMES_IMPERIAL = [
    "Mysterious Emperor", "Emperors Henchman", "Imperial Commodore", "Imperial Captain",
    "Bounty Hunter", "Alien Crime Boss", "Squad Leader", "Elite Bodyguards", "Assault Troopers",
    "Troopers", "Fixed Defenses", "Battle Walkers", "Plasma Sword", "Robotic Probe",
    "Elite Interceptors", "Interceptors", "Bombers", "Space Cruiser", "Giant Space Station",
    "Telekinetics", "ESP", "Imperial Spy", "Traitor", "Shuttle", "Cybernetics", "Saboteur",
    "Trap",
]  # fmt: skip


@pytest.fixture(scope="module")
def db() -> CardDB:
    return load_cards()


def minimal_rows() -> list[dict[str, Any]]:
    """A small valid card list, one card of several kinds per side, to break one field at a time."""
    return [
        {"name": "Space Cruiser", "side": "imperial", "type": "Space", "count": 5,
         "ground": 0, "space": 10, "damage": 1, "cost": 3, "notes": "Ship"},
        {"name": "ESP", "side": "imperial", "type": "Psi", "count": 1,
         "ground": 0, "space": 0, "damage": 3, "notes": ""},
        {"name": "Rebel Soldier", "side": "rebel", "type": "Ground", "count": 10,
         "ground": 1, "space": 0, "damage": 1, "cost": 1, "notes": ""},
        {"name": "Recruit", "side": "rebel", "type": "Act", "count": 1,
         "notes": "Take any Hero from your deck and put it in your hand"},
    ]  # fmt: skip


def toml_value(value: Any) -> str:
    return json.dumps(value)  # JSON strings, ints and bools are valid TOML values


def write_toml(path: Path, rows: list[dict[str, Any]]) -> Path:
    parts = []
    for row in rows:
        parts.append("[[card]]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in row.items()))
    path.write_text("\n".join(parts), encoding="utf-8")
    return path


# --- the packaged lists (R1-R3) ------------------------------------------------------------------


def test_packaged_lists_load_in_printed_order(db: CardDB) -> None:
    assert [t.name for t in db.side_types(REBEL)] == RULE_SHEET_NAMES_REBEL
    assert [t.name for t in db.side_types(IMPERIAL)] == RULE_SHEET_NAMES_IMPERIAL
    assert [t.index for t in db] == list(range(len(db)))
    assert len(db) == 54


def test_r1_deck_totals_as_printed(db: CardDB) -> None:
    assert db.deck_size(REBEL) == 76
    assert db.deck_size(IMPERIAL) == 67


def test_r2_kinds(db: CardDB) -> None:
    kinds = {t.name: t.kind for t in db}
    assert kinds["Princess"] == HERO
    assert kinds["Rebel Soldier"] == GROUND
    assert kinds["Stunt Fighters"] == SPACE
    assert kinds["Fixed Defenses"] == kinds["Robotic Probe"] == GS
    for name in ("Robot Sidekick", "Elite Bodyguards", "Laser Sword"):
        assert kinds[name] == ATTACHMENT
    assert kinds["ESP"] == kinds["True Aim"] == PSION
    assert kinds["Convert"] == kinds["Medi-Bot"] == ACTION
    probe = db.by_name("Robotic Probe")
    assert probe.is_unit and probe.is_ground_unit and probe.is_space_unit
    hero = db.by_name("Princess")
    assert hero.is_unit and hero.is_hero and not hero.is_ground_unit and not hero.is_space_unit
    assert not db.by_name("Laser Sword").is_unit


def test_spot_checks_printed_numbers(db: CardDB) -> None:
    walkers = db.by_name("Battle Walkers")
    assert (walkers.ground, walkers.space, walkers.damage, walkers.cost, walkers.count) == (
        5, 0, 1, 2, 4)  # fmt: skip
    station = db.by_name("Giant Space Station")
    assert (station.ground, station.space, station.damage, station.cost) == (0, 12, 3, 3)
    assert station.keywords == {"facility", "may_attack"}
    assert not station.has("ship")  # R3: neither Shields nor Ion Cannon touch it
    henchman = db.by_name("Emperors Henchman")
    assert (henchman.ground, henchman.space, henchman.damage, henchman.cost) == (8, 6, 2, 3)
    assert henchman.keywords == {"pilot", "captain", "psionic"}
    bodyguards = db.by_name("Elite Bodyguards")
    assert bodyguards.printed_type == "Compan" and bodyguards.count == 2
    assert bodyguards.keywords == {"companion"}
    cruiser = db.by_name("Space Cruiser")
    assert (cruiser.space, cruiser.count, cruiser.keywords) == (10, 5, frozenset({"ship"}))
    assert db.by_name("Stunt Fighters").count == 15
    assert db.by_name("Laser Sword").keywords == {"attach_to_hero"}
    assert db.by_name("Plasma Sword").notes == ""


def test_r3_rebel_base_is_not_a_facility(db: CardDB) -> None:
    base = db.by_name("Rebel Base")
    assert base.keywords == {"extra_draw"}
    assert not base.has("facility")


def test_r3_only_printed_fighters_and_ships(db: CardDB) -> None:
    for name in ("Interceptors", "Bombers", "Fighter Bombers"):
        card = db.by_name(name)
        assert not card.has("fighter") and not card.has("ship"), name
    assert {t.name for t in db if t.has("fighter")} == {"Stunt Fighters", "Elite Interceptors"}
    assert {t.name for t in db if t.has("ship")} == {
        "Converted Freighter", "Rebel Warship", "Space Cruiser"}  # fmt: skip


def test_r3_mysterious_emperor(db: CardDB) -> None:
    emperor = db.by_name("Mysterious Emperor")
    assert emperor.keywords == {"captain", "psionic", "extra_draw"}


def test_r3_defenses_and_facilities(db: CardDB) -> None:
    assert db.by_name("Ion Cannon").keywords == {"facility", "defense", "ion_cannon"}
    assert db.by_name("Defense Shields").keywords == {"facility", "defense", "shields"}
    assert db.by_name("Fixed Defenses").keywords == {"facility", "defense"}


def test_psi_and_action_cards(db: CardDB) -> None:
    sense = db.by_name("Danger Sense")
    assert (sense.ground, sense.space, sense.damage, sense.cost) == (2, 1, 0, None)
    assert sense.ability is None
    medibot = db.by_name("Medi-Bot")
    assert (medibot.ground, medibot.space, medibot.damage, medibot.cost) == (0, 0, 0, None)
    abilities = {t.name: t.ability for t in db if t.is_action}
    assert abilities == {
        "Medi-Bot": "hero_from_discard", "Cybernetics": "hero_from_discard",
        "Recruit": "hero_from_deck", "Shuttle": "hero_from_deck",
        "Convert": "convert", "Traitor": "convert",
        "Surprise Attack": "surprise_attack", "Trap": "trap",
        "Multiple Targets": "extra_attack", "Rebel Spies": "spy", "Imperial Spy": "spy",
        "Saboteur": "saboteur",
    }  # fmt: skip
    assert all(t.ability is None for t in db if not t.is_action)
    assert db.by_name("Convert").printed_type == "State"


def test_by_name_unknown_suggests(db: CardDB) -> None:
    with pytest.raises(KeyError) as info:
        db.by_name("Space Cruisr")
    assert isinstance(info.value, UnknownCardError)
    assert "Space Cruisr" in str(info.value) and "Space Cruiser" in str(info.value)


def test_round_trip_through_data(db: CardDB) -> None:
    data = db.to_data()
    json.dumps(data)  # serialisable
    assert cards_from_data(data) == db
    assert "cost" not in db.to_data()[db.by_name("ESP").index]
    assert set(data[db.by_name("Recruit").index]) == {"name", "side", "type", "count", "notes"}


def test_packaged_file_matches_to_data(db: CardDB, tmp_path: Path) -> None:
    path = write_toml(tmp_path / "copy.toml", db.to_data())
    assert load_cards(path) == db


def test_with_changes(db: CardDB) -> None:
    changed = db.with_changes({"Space Cruiser": {"space": 8, "count": 0}})
    assert changed.by_name("Space Cruiser").space == 8
    assert changed.deck_size(IMPERIAL) == 62
    assert db.by_name("Space Cruiser").space == 10  # the original is untouched
    assert changed != db


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"Space Crusier": {"space": 8}}, ["Space Crusier", "Space Cruiser"]),
        ({"Space Cruiser": {"speed": 8}}, ["Space Cruiser", '"speed"']),
        ({"Space Cruiser": {"name": 8}}, ["Space Cruiser", '"name"']),
        ({"ESP": {"cost": 1}}, ["ESP", '"cost"']),
        ({"Space Cruiser": {"space": -1}}, ["Space Cruiser", '"space"', "-1"]),
    ],
)
def test_with_changes_rejects(
    db: CardDB, changes: dict[str, dict[str, int]], words: list[str]
) -> None:
    with pytest.raises(CardDataError) as info:
        db.with_changes(changes)
    for word in words:
        assert word in str(info.value)


def test_card_module_doctests() -> None:
    assert doctest.testmod(cards).failed == 0


# --- validation: one test per kind of error ------------------------------------------------------


def check_error(tmp_path: Path, rows: list[dict[str, Any]], card: str, field: str) -> str:
    """Load ``rows`` from a file; the error must name the file, the card and the field."""
    path = write_toml(tmp_path / "bad.toml", rows)
    with pytest.raises(CardDataError) as info:
        load_cards(path)
    message = str(info.value)
    assert "bad.toml" in message
    assert card in message
    assert f'field "{field}"' in message
    assert isinstance(info.value, ValueError) and isinstance(info.value, RebelSpaceError)
    return message


def test_minimal_rows_are_valid(tmp_path: Path) -> None:
    db = load_cards(write_toml(tmp_path / "ok.toml", minimal_rows()))
    assert db.deck_size(REBEL) == 11 and db.deck_size(IMPERIAL) == 6


@pytest.mark.parametrize("field", ["side", "type", "count", "notes"])
def test_missing_required_field(tmp_path: Path, field: str) -> None:
    rows = minimal_rows()
    del rows[0][field]
    message = check_error(tmp_path, rows, '"Space Cruiser"', field)
    assert "missing" in message


def test_missing_name_uses_row_number(tmp_path: Path) -> None:
    rows = minimal_rows()
    del rows[2]["name"]
    check_error(tmp_path, rows, "card #3", "name")


@pytest.mark.parametrize("field", ["ground", "space", "damage", "cost"])
def test_missing_unit_rating(tmp_path: Path, field: str) -> None:
    rows = minimal_rows()
    del rows[0][field]
    check_error(tmp_path, rows, '"Space Cruiser"', field)


@pytest.mark.parametrize("field", ["ground", "space", "damage"])
def test_missing_psi_rating(tmp_path: Path, field: str) -> None:
    rows = minimal_rows()
    del rows[1][field]
    check_error(tmp_path, rows, '"ESP"', field)


def test_rating_not_printed_for_kind(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[1]["cost"] = 1  # Psi prints "-"
    check_error(tmp_path, rows, '"ESP"', "cost")
    rows = minimal_rows()
    rows[3]["ground"] = 1  # actions print no ratings
    check_error(tmp_path, rows, '"Recruit"', "ground")


def test_unknown_side(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["side"] = "empire"
    message = check_error(tmp_path, rows, '"Space Cruiser"', "side")
    assert "empire" in message


def test_unknown_type(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["type"] = "Starship"
    check_error(tmp_path, rows, '"Space Cruiser"', "type")


def test_unknown_note_piece(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["notes"] = "Ship; Cloaking"
    message = check_error(tmp_path, rows, '"Space Cruiser"', "notes")
    assert "Cloaking" in message


def test_keywords_are_case_sensitive(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["notes"] = "ship"
    check_error(tmp_path, rows, '"Space Cruiser"', "notes")


def test_negative_rating(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["space"] = -1
    message = check_error(tmp_path, rows, '"Space Cruiser"', "space")
    assert message.endswith('field "space" must be a non-negative integer, got -1')


def test_negative_count(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["count"] = -1
    check_error(tmp_path, rows, '"Space Cruiser"', "count")


def test_zero_count_allowed(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["count"] = 0
    db = load_cards(write_toml(tmp_path / "ok.toml", rows))
    assert db.by_name("Space Cruiser").count == 0 and db.deck_size(IMPERIAL) == 1


@pytest.mark.parametrize("cost", [-1, 10])
def test_cost_out_of_range(tmp_path: Path, cost: int) -> None:
    rows = minimal_rows()
    rows[0]["cost"] = cost
    check_error(tmp_path, rows, '"Space Cruiser"', "cost")


@pytest.mark.parametrize(("field", "value"), [("count", "5"), ("space", True), ("damage", 1.0)])
def test_wrong_value_type(tmp_path: Path, field: str, value: Any) -> None:
    rows = minimal_rows()
    rows[0][field] = value
    check_error(tmp_path, rows, '"Space Cruiser"', field)


def test_wrong_notes_type(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["notes"] = 3
    check_error(tmp_path, rows, '"Space Cruiser"', "notes")


def test_unknown_extra_field(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["speed"] = 3
    check_error(tmp_path, rows, '"Space Cruiser"', "speed")


def test_duplicate_name(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows.append(dict(rows[0]))
    check_error(tmp_path, rows, '"Space Cruiser"', "name")


def test_action_needs_exactly_one_ability(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[3]["notes"] = ""
    check_error(tmp_path, rows, '"Recruit"', "notes")
    rows[3]["notes"] = "Look at opponents hand; Destroy one opposing facility"
    check_error(tmp_path, rows, '"Recruit"', "notes")


def test_non_action_cannot_have_ability(tmp_path: Path) -> None:
    rows = minimal_rows()
    rows[0]["notes"] = "Ship, Look at opponents hand"
    check_error(tmp_path, rows, '"Space Cruiser"', "notes")


def test_no_cards_for_a_side(tmp_path: Path) -> None:
    rows = [r for r in minimal_rows() if r["side"] == "rebel"]
    path = write_toml(tmp_path / "bad.toml", rows)
    with pytest.raises(CardDataError, match=r"bad\.toml.*field \"side\".*imperial"):
        load_cards(path)


def test_toml_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[[card]]\nname = "Space Cruiser\n', encoding="utf-8")
    with pytest.raises(CardDataError, match=r"bad\.toml.*TOML syntax error"):
        load_cards(path)


def test_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match=r"missing\.toml.*not found"):
        load_cards(tmp_path / "missing.toml")


def test_cards_from_data_names_source() -> None:
    rows = minimal_rows()
    rows[0]["space"] = -1
    with pytest.raises(CardDataError, match=r'^balance run 7: card "Space Cruiser": field "space"'):
        cards_from_data(rows, source="balance run 7")


# --- deck report and `rebelspace decks` (R1) -----------------------------------------------------


def test_deck_report_lists_every_card(db: CardDB) -> None:
    report = deck_report(db)
    for t in db:
        assert t.name in report
    assert "Rebel deck: 76 cards (stated 65, difference +11)" in report
    assert "Imperial deck: 67 cards (stated 65, difference +2)" in report


def test_cli_decks(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["decks"]) == 0
    out = capsys.readouterr().out
    assert "difference +11" in out
    assert "difference +2" in out
    assert "Giant Space Station" in out


def test_cli_decks_custom_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_toml(tmp_path / "mine.toml", minimal_rows())
    assert cli.main(["decks", "--cards", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Rebel deck: 11 cards (stated 65, difference -54)" in out


def test_cli_decks_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = minimal_rows()
    rows[0]["space"] = -1
    path = write_toml(tmp_path / "bad.toml", rows)
    assert cli.main(["decks", "--cards", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "bad.toml" in captured.err and "Space Cruiser" in captured.err
