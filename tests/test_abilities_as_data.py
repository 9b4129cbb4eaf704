"""Card abilities as data (issue 34): each ability is one module of ``engine/abilities/``, and a
card with an existing ability is one edit to ``cards.toml``, nothing else."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rebelspace.engine import EFFECTS, Ability, Kind, When, load_cards, new_game
from rebelspace.engine.abilities import ABILITY_NOTES, BY_KEY, Pool, effect_of
from rebelspace.engine.cards import ABILITIES
from rebelspace.engine.events import ControlTaken, Event, TrickPlayed
from rebelspace.server.app import card_catalogue
from rebelspace.terminal.cards import card_lines

PACKAGED = Path(__file__).resolve().parents[1] / "src" / "rebelspace" / "data" / "cards.toml"


def test_each_ability_code_has_exactly_one_effect() -> None:
    assert sorted(e.ability for e in EFFECTS) == [a for a in Ability if a is not Ability.NONE]
    assert effect_of(Ability.NONE) is None
    assert all(effect_of(e.ability) is e for e in EFFECTS)
    assert len({e.key for e in EFFECTS}) == len({e.notes for e in EFFECTS}) == len(EFFECTS)


def test_the_card_loader_reads_the_abilities_notes_from_the_effects() -> None:
    assert {e.notes: e.key for e in EFFECTS} == ABILITY_NOTES
    assert frozenset(BY_KEY) == ABILITIES


def test_an_effect_with_a_target_is_an_end_phase_card_and_a_trick_has_none() -> None:
    for e in EFFECTS:
        assert e.is_trick == (e.when is not When.END), e.key
        if e.is_trick:
            assert e.target is None, e.key
        assert e.rule in e.words, e.key


# Two new cards, each with an existing ability: a second Convert-like card for the Imperial
# side and a Rebel Trap-like trick, added as lines of a copy of the packaged list.
NEW_CARDS = """

[[card]]
name = "Double Agent"
side = "imperial"
type = "Act"
count = 3
notes = "Take control of opposing Hero for rest of game"

[[card]]
name = "Ambush"
side = "rebel"
type = "Act"
count = 3
notes = "All defending units get Ground or Space +2"
"""


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cards") / "cards.toml"
    path.write_text(PACKAGED.read_text(encoding="utf-8") + NEW_CARDS, encoding="utf-8")
    return path


def _random_games(path: Path, games: int) -> list[Event]:
    events: list[Event] = []
    db = load_cards(path)
    for seed in range(games):
        game = new_game(seed, cards=db)
        rng = random.Random(seed)
        while not game.is_over:
            events += game.apply(rng.choice(game.legal_actions()))
    return events


def test_a_card_with_an_existing_ability_plays_from_an_edited_card_list_alone(
    edited: Path,
) -> None:
    db = load_cards(edited)
    agent, ambush = db.by_name("Double Agent"), db.by_name("Ambush")
    assert (agent.ability, ambush.ability) == ("convert", "trap")
    game = new_game(0, cards=db)
    texts = {a.text for a in game.action_space.actions}
    assert "play Double Agent on Princess" in texts and "play Ambush" in texts
    events = _random_games(edited, 40)
    took = [e for e in events if isinstance(e, ControlTaken) and e.card == agent.index]
    trapped = [e for e in events if isinstance(e, TrickPlayed) and e.card == ambush.index]
    assert took and trapped, "random games never played the new cards"


def test_the_new_cards_action_space_follows_their_effects(edited: Path) -> None:
    db = load_cards(edited)
    space = new_game(0, cards=db).action_space
    agent, ambush = db.by_name("Double Agent").index, db.by_name("Ambush").index
    kinds_of = {k: {a.kind for a in space.actions if a.card == k} for k in (agent, ambush)}
    assert Kind.PLAY_END_ON in kinds_of[agent] and Kind.PLAY_TRICK not in kinds_of[agent]
    assert Kind.PLAY_TRICK in kinds_of[ambush] and Kind.PLAY_END_ON not in kinds_of[ambush]
    assert BY_KEY["convert"].target is not None
    assert BY_KEY["convert"].target.pool is Pool.OPPOSING_HEROES


def test_the_terminal_and_the_catalogue_describe_the_new_cards_from_their_effects(
    edited: Path,
) -> None:
    db = load_cards(edited)
    lines = card_lines(db.by_name("Double Agent"))
    assert lines[0].startswith("Double Agent: Imperial action card")
    assert BY_KEY["convert"].words in lines
    catalogue = {c["name"]: c for c in card_catalogue(db)}
    assert catalogue["Double Agent"]["ability_menu"] == "take control of {target}"
    assert catalogue["Ambush"]["ability_when"] == "defending"
    assert catalogue["Ambush"]["ability_words"] == BY_KEY["trap"].words
