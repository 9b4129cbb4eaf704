"""The line mode says each fact once (issue 32): a deck hit names the cards discarded, the
table leaves out the zones that did not change, forced moves play without a word, and a
whole game prints far fewer lines than it did."""

from __future__ import annotations

import io
import re

from rebelspace.engine import REBEL, new_game
from rebelspace.engine import events as ev
from rebelspace.terminal import Opponent, TerminalGame, make_console


def played(seed: int) -> tuple[TerminalGame, str, list[ev.Event]]:
    """Game ``seed`` against the heuristic, the person answering the engine's first legal
    action, its screen at 80 columns, and every event the person saw."""
    screen = io.StringIO()
    console = make_console()
    console.file = screen
    console.width = 80
    terminal = TerminalGame(
        new_game(seed), REBEL, Opponent("heuristic", "normal", seed), console=console
    )
    terminal.offer_analysis = False
    terminal.read = lambda prompt: terminal.game.legal_action_texts()[0]
    terminal.play()
    return terminal, screen.getvalue(), terminal.game.visible_events(REBEL)


def test_a_deck_hit_names_the_cards_it_discarded() -> None:
    terminal, out, events = played(3)
    names = terminal.names
    hits = [e for e in events if isinstance(e, ev.DamageDealt) and e.player == REBEL]
    assert hits
    flat = " ".join(out.split())
    for hit in hits:
        first = names[hit.cards[0]]
        assert f"Rebel discards {first}" in flat
        assert f"from the deck ({hit.left} left)" in flat
    # Said once: no log line repeats the damage the battle's table gives.
    assert "  | Rebel discards" not in out


def test_forced_moves_play_without_a_word_and_the_table_leaves_out_what_did_not_change() -> None:
    terminal, out, _ = played(3)
    assert "(your only choice)" not in out
    tables = re.findall(r"^Turn [0-9]+: your turn.*$", out, re.MULTILINE)
    assert tables[0].endswith("draw phase")  # the first table is whole
    # Later ones leave out the zones as they were (when some are): never the first.
    assert any(t.endswith("(unchanged zones left out; t: all)") for t in tables[1:])
    # The game's turns each show the table once at most.
    assert len(tables) == len(set(tables))


def test_t_shows_the_whole_table_again() -> None:
    answers = iter(["2", "t", "q"])
    screen = io.StringIO()
    console = make_console()
    console.file = screen
    terminal = TerminalGame(
        new_game(3),
        REBEL,
        Opponent("random", "normal", 1),
        console=console,
        read=lambda p: next(answers),
    )
    terminal.play()
    out = screen.getvalue()
    whole = out.split("\nTurn 1: your turn")[-1]
    assert "inactive" in whole and "hand     " in whole
