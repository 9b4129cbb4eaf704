"""Run settings (--set, --rule, identity) and one balance game's statistics."""

from __future__ import annotations

import pytest

from rebelspace.engine import CardDataError, OptionsError, context_for
from rebelspace.lab.games import deal_seed, ending_of, play_batch, play_game, sides
from rebelspace.lab.settings import RunSettings, SettingsError, parse_set


def test_parse_set_reads_card_field_and_value() -> None:
    assert parse_set("Space Cruiser.space=8") == ("Space Cruiser", "space", 8)
    assert parse_set(" Medi-Bot.count = 0 ") == ("Medi-Bot", "count", 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Space Cruiser=8", "Card Name.field=value"),
        ("Space Cruiser.space", "Card Name.field=value"),
        ("Space Cruiser.space=eight", "whole number"),
        (".space=8", "Card Name.field=value"),
    ],
)
def test_parse_set_rejects_malformed_changes(text: str, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        parse_set(text)


def test_set_changes_the_card_numbers_of_the_run() -> None:
    run = RunSettings.build(("heuristic", "heuristic"), 1, sets=["Space Cruiser.space=8"])
    assert run.cards().by_name("Space Cruiser").space == 8
    assert run.label() == "heuristic, seed 1, Space Cruiser.space=8 (printed 10)"


def test_bad_set_rule_or_agent_names_the_problem() -> None:
    with pytest.raises(CardDataError, match="Space Crusier"):
        RunSettings.build(("heuristic", "heuristic"), 1, sets=["Space Crusier.space=8"])
    with pytest.raises(CardDataError, match="hyperdrive"):
        RunSettings.build(("heuristic", "heuristic"), 1, sets=["Space Cruiser.hyperdrive=8"])
    with pytest.raises(OptionsError, match="tie"):
        RunSettings.build(("heuristic", "heuristic"), 1, rules=["tie=nobody"])
    with pytest.raises(SettingsError, match="unknown agent"):
        RunSettings.build(("heuristic", "grandmaster"), 1)


def test_run_identity_depends_on_what_decides_the_games_only() -> None:
    a = RunSettings.build(("heuristic", "random"), 3, rules=["tie=both"])  # the default anyway
    b = RunSettings.build(("heuristic", "random"), 3)
    assert a.run_id == b.run_id
    assert RunSettings.from_json(a.to_json()).run_id == a.run_id
    others = [
        RunSettings.build(("heuristic", "random"), 4),
        RunSettings.build(("random", "heuristic"), 3),
        RunSettings.build(("heuristic", "random"), 3, rules=["tie=defender"]),
        RunSettings.build(("heuristic", "random"), 3, sets=["Rebel Soldier.count=9"]),
    ]
    assert len({a.run_id, *(o.run_id for o in others)}) == 5


def test_games_come_in_duplicate_pairs_with_sides_swapped() -> None:
    run = RunSettings.build(("heuristic", "random"), 7)
    assert deal_seed(run, 0) == deal_seed(run, 1) != deal_seed(run, 2)
    assert sides(run, 0) == ("heuristic", "random")
    assert sides(run, 1) == ("random", "heuristic")
    g0, g1 = play_batch(run, [0, 1])
    assert (g0.rebel_agent, g1.rebel_agent) == ("heuristic", "random")


def test_a_game_row_holds_consistent_statistics() -> None:
    run = RunSettings.build(("heuristic", "heuristic"), 2)
    row = play_game(run, 5)
    assert row == play_game(run, 5)  # a game is a function of the settings and its index
    assert row.winner in (0, 1) and row.first_player == 0
    assert len(row.deck_sizes) == row.turns and row.deck_sizes[0] == (71, 62)
    assert row.ending == ending_of(row.reason)
    cards = {t.name: t for t in run.cards().types}
    for counts in (row.plays, row.kills, row.damage):
        assert set(counts) <= set(cards) and all(n > 0 for n in counts.values())
    # No card is played more often than it has copies.
    assert all(n <= cards[name].count for name, n in row.plays.items())
    # Only units fight and get damage through.
    assert all(cards[name].is_unit for name in (*row.kills, *row.damage))


def test_the_first_player_rule_is_recorded() -> None:
    run = RunSettings.build(("random", "random"), 2, rules=["first_player=imperial"])
    assert play_game(run, 0).first_player == 1


def test_endings_are_sorted_into_kinds() -> None:
    assert ending_of("Imperial's deck is empty") == "battle damage emptying a deck"
    assert ending_of("Rebel drew the last card of their deck") == (
        "a player drawing their last card"
    )
    assert ending_of("Imperial's deck emptied by Saboteur") == "a card ability emptying a deck"


def test_a_searching_agent_plays_through_its_view_and_is_repeatable() -> None:
    run = RunSettings.build(("heuristic", "ismcts:5"), 3)
    row = play_game(run, 1)  # ismcts:5 is the Rebel in odd games
    assert row.rebel_agent == "ismcts:5" and row.winner in (0, 1)
    assert play_game(run, 1) == row


def test_the_heuristic_on_the_true_state_plays_the_game_its_views_would() -> None:
    # The lab lets the heuristic decide on the true state (it reads nothing hidden); through the
    # Agent interface, from views and sampled states, it must play the very same games.
    from rebelspace.agents.heuristic import HeuristicAgent
    from rebelspace.engine import context_for, new_game
    from rebelspace.play import play_out

    run = RunSettings.build(("heuristic", "heuristic"), 8)
    ctx = context_for(run.cards(), run.rules_options())
    for index in range(4):
        row = play_game(run, index)
        game = new_game(deal_seed(run, index), options=ctx.options, cards=ctx.cards)
        decisions = play_out(game, [HeuristicAgent(1, ctx), HeuristicAgent(2, ctx)])
        assert (game.winner, game.turn, decisions) == (row.winner, row.turns, row.decisions)


def test_a_run_label_names_the_variant_and_its_card_differences(tmp_path) -> None:
    from rebelspace.engine import load_cards

    printed = RunSettings.build(("heuristic", "heuristic"), 1)
    assert printed.label() == "heuristic, seed 1, cards as printed"
    edited = load_cards().with_changes({"Space Cruiser": {"space": 8}})
    from_file = RunSettings.build(("heuristic", "heuristic"), 1, cards=edited, name="cheap ships")
    assert from_file.diff == ("Space Cruiser.space=8 (printed 10)",)
    assert from_file.label() == "cheap ships: heuristic, seed 1, Space Cruiser.space=8 (printed 10)"
    assert from_file.run_id != printed.run_id
    assert RunSettings.from_json(from_file.to_json()).label() == from_file.label()


def test_batches_of_one_run_share_one_card_list_and_so_one_game_context() -> None:
    # Each batch asks its settings for the cards; a new card list object per batch would build
    # a new context (tables and action space, about 0.1 s) for every batch.
    run = RunSettings.build(("random", "random"), 3)
    again = RunSettings.build(("random", "random"), 4)
    assert run.cards() is run.cards() is again.cards()
    assert context_for(run.cards(), run.rules_options()) is context_for(
        again.cards(), again.rules_options()
    )
    changed = RunSettings.build(("random", "random"), 3, sets=["Space Cruiser.space=8"])
    assert changed.cards() is not run.cards()
    assert changed.cards().by_name("Space Cruiser").space == 8
