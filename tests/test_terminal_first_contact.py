"""First contact with the terminal game (issue 32): `rebelspace` alone, did-you-mean for
commands and cards, `card` without a name, the levels with their measured strength, the
rules on a terminal, and the analysis's progress and duration."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest

from rebelspace import cli
from rebelspace.engine import REBEL, new_game
from rebelspace.engine.cards import load_cards
from rebelspace.play.ratings import level_ratings
from rebelspace.terminal import Opponent, TerminalGame, make_console
from rebelspace.terminal.cards import lookup_lines
from rebelspace.terminal.commands import did_you_mean
from rebelspace.terminal.levels import levels_words, strength


def test_rebelspace_alone_says_in_three_lines_how_to_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3
    assert lines[1].startswith("Play against the computer:") and lines[1].endswith(" play")
    assert lines[2].endswith(" --help")


def test_a_command_with_a_typing_slip_gets_the_names_it_looks_like(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["plya"]) == 2
    assert "no command 'plya'; did you mean play" in capsys.readouterr().err
    assert cli.main(["zzzzzz"]) == 2
    err = capsys.readouterr().err
    assert "no command 'zzzzzz' (" in err and "did you mean" not in err


def test_card_names_with_a_typing_slip_get_did_you_mean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = load_cards()
    assert lookup_lines(db, "prinsess") == ["No card is called 'prinsess'. Did you mean Princess?"]
    assert lookup_lines(db, "qqqqqqqq") == ["No card is called 'qqqqqqqq'."]
    assert lookup_lines(db, "  ") == [
        "Type card and a card's name or its start, e.g. card Princess."
    ]
    assert cli.main(["card", "prinsess"]) == 2
    assert "Did you mean Princess?" in capsys.readouterr().err


def test_commands_typed_with_a_slip_in_the_game_get_did_you_mean() -> None:
    assert did_you_mean("hlep") == " Did you mean help?"
    assert did_you_mean("hnit") == " Did you mean hint?"
    assert did_you_mean("draw") == "" and did_you_mean("12") == ""
    answers: Iterator[str] = iter(["hlep", "card", "q"])
    screen = io.StringIO()
    console = make_console()
    console.file = screen
    terminal = TerminalGame(
        new_game(1),
        REBEL,
        Opponent("random", "normal", 1),
        read=lambda prompt: next(answers),
        console=console,
    )
    terminal.play()
    out = " ".join(screen.getvalue().split())
    assert "Not understood: 'hlep' is not one of the choices" in out
    assert "Did you mean help?" in out
    assert "Type card and a card's name or its start, e.g. card Princess." in out


def test_levels_are_described_with_their_published_strength(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ratings = {r["level"]: r for r in level_ratings()["levels"]}
    normal = ratings["normal"]
    low, high = normal["ci95"]
    assert strength("normal") == f"Elo {normal['elo']:.0f} ({low:.0f}-{high:.0f})"
    assert strength("no such level") is None
    words = levels_words()
    for level in ("easy", "normal", "hard", "expert"):
        assert f"{level} {strength(level)}" in words
    assert Opponent("ismcts", "normal", 1).label == f"ISMCTS, normal level, {strength('normal')}"
    assert Opponent("ismcts", "300", 1).label == "ISMCTS, 300 iterations a decision"
    with pytest.raises(SystemExit):
        cli.main(["play", "--help"])
    assert "Measured strength (Elo with 95% intervals" in " ".join(capsys.readouterr().out.split())


def test_rules_on_a_terminal_go_through_the_pager_rendered(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    paged: list[str] = []
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("pydoc.pager", paged.append)
    monkeypatch.setenv("LESS", "")
    monkeypatch.delenv("LESS")  # absent, and put back as it was after the test
    assert cli.main(["rules", "R19"]) == 0
    (text,) = paged
    assert "R19 Casualties." in text and "**R19" not in text  # rendered, not raw Markdown
    import os

    assert os.environ["LESS"] == "-R"
    assert capsys.readouterr().out == ""


def test_tab_completion_offers_the_choices_commands_and_cards() -> None:
    from rebelspace.terminal.lines import completer

    complete = completer(lambda: ["draw 1", "draw 2", "card Princess", "card Princeps"])
    assert [complete("DRA", k) for k in range(3)] == ["draw 1", "draw 2", None]
    assert complete("card prince", 0) == "card Princeps" and complete("zz", 0) is None
    terminal = TerminalGame(new_game(1), REBEL, Opponent("random", "normal", 1))
    assert "hint" in terminal.completions() and "card Princess" in terminal.completions()
