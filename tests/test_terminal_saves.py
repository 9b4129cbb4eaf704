"""The terminal game's saves (never lost, never overwritten without asking), the commands its
hints name, and choices that don't move (issue 32). Every test runs with its own data folder
(tests/conftest.py)."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rebelspace import cli
from rebelspace.engine import REBEL, load_record, new_game
from rebelspace.terminal import Opponent, TerminalGame, make_console, yes_no
from rebelspace.terminal.commands import Keys, numbers_words, resolve_choice
from rebelspace.terminal.saves import (
    games_dir,
    new_save_path,
    resume_command,
    unfinished,
    unfinished_games,
)
from tests.playing import REAL_INPUT, answer_first_choices, first_choice


def feed(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    """``input`` reads these lines, then meets the end of input."""
    monkeypatch.setattr("builtins.input", REAL_INPUT)
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in lines)))


def left_game(monkeypatch: pytest.MonkeyPatch, seed: int, answers: int = 6) -> Path:
    """A game of the random computer left after ``answers`` answers: its file."""
    answer_first_choices(monkeypatch, answers)
    assert cli.main(["play", "--opponent", "random", "--seed", str(seed)]) == 0
    newest = unfinished_games()[0]
    assert load_record(newest.path)["seed"] == seed
    return newest.path


# --- saves ---------------------------------------------------------------------------------


def test_each_game_gets_a_file_of_its_own_in_the_data_folder(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = left_game(monkeypatch, 5)
    second = left_game(monkeypatch, 5)  # the same seed again: another file, the first kept
    assert first != second and first.parent == second.parent == games_dir()
    assert {s.path for s in unfinished_games()} == {first, second}
    capsys.readouterr()


def test_a_new_file_name_never_is_an_existing_one(tmp_path: Path) -> None:
    from datetime import datetime

    when = datetime(2026, 12, 3, 8, 10, 0)
    one = new_save_path(7, when, tmp_path)
    one.write_text("{}")
    two = new_save_path(7, when, tmp_path)
    assert one.name == "2026-12-03-081000-seed7.json" and two != one and not two.exists()


def test_start_up_offers_the_newest_unfinished_game_and_resumes_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = left_game(monkeypatch, 9)
    before = load_record(path)["actions"]
    capsys.readouterr()
    feed(monkeypatch, "maybe", "y", "q")
    assert cli.main(["play"]) == 0
    out = capsys.readouterr().out
    assert "A saved game from " in out and "found: resume? [Y/n]" in out
    assert "Please answer yes or no (y or n)." in out  # "maybe" is no answer
    assert "Resumed on turn " in out and "Computer: random." in out
    assert load_record(path)["actions"] == before  # resumed, left at once: the same game
    assert [s.path for s in unfinished_games()] == [path]


def test_declining_the_offer_starts_a_new_game_and_keeps_the_old_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = left_game(monkeypatch, 9)
    before = path.read_text()
    feed(monkeypatch, "n", "1", "q")  # no; draw 1; leave
    assert cli.main(["play", "--opponent", "random"]) == 0
    assert path.read_text() == before
    assert len(unfinished_games()) == 2
    assert "(1 other unfinished game in " not in capsys.readouterr().out
    feed(monkeypatch)  # the next start names the other game, and end of input leaves
    assert cli.main(["play"]) == 0
    out = capsys.readouterr().out
    assert "(1 other unfinished game in " in out and "resume? [Y/n]" in out
    assert len(unfinished_games()) == 2 and path.read_text() == before


def test_end_of_input_or_ctrl_c_at_the_offer_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = left_game(monkeypatch, 3)
    before = path.read_text()
    feed(monkeypatch)
    assert cli.main(["play"]) == 0

    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    assert cli.main(["play"]) == 0
    assert path.read_text() == before and len(unfinished_games()) == 1
    capsys.readouterr()


def test_no_offer_when_a_new_game_is_asked_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    left_game(monkeypatch, 3)
    capsys.readouterr()
    for args in (["--new"], ["--seed", "4"]):
        feed(monkeypatch, "q")
        assert cli.main(["play", "--opponent", "random", *args]) == 0
        assert "resume?" not in capsys.readouterr().out


def test_resume_alone_takes_the_newest_unfinished_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch)
    assert cli.main(["play", "--resume"]) == 2
    assert "no unfinished game is saved in " in capsys.readouterr().err
    left_game(monkeypatch, 3)
    newest = left_game(monkeypatch, 4)
    capsys.readouterr()
    feed(monkeypatch, "q")
    assert cli.main(["play", "--resume"]) == 0
    out = capsys.readouterr().out
    assert "Game seed 4." in out and "Resumed on turn" in out
    assert out.splitlines()[-3] == f"  {newest}"


def test_save_over_an_existing_file_asks_first(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = left_game(monkeypatch, 6)
    mine = tmp_path / "mine.json"
    mine.write_text(path.read_text())
    before = mine.read_text()
    feed(monkeypatch, "n")
    assert cli.main(["play", "--opponent", "random", "--seed", "1", "--save", str(mine)]) == 2
    out, err = capsys.readouterr()
    assert f"{mine} holds an unfinished game (" in out and "replace it? [y/N]" in out
    assert "left as it was" in err and mine.read_text() == before
    feed(monkeypatch)  # end of input at the question: no
    assert cli.main(["play", "--opponent", "random", "--seed", "1", "--save", str(mine)]) == 2
    assert mine.read_text() == before
    feed(monkeypatch, "yes", "2", "q")
    assert cli.main(["play", "--opponent", "random", "--seed", "1", "--save", str(mine)]) == 0
    assert load_record(mine)["seed"] == 1 and load_record(mine)["actions"] == ["draw 2"]
    capsys.readouterr()


def test_the_game_is_saved_before_each_question(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Were the program killed at a question, the game up to it is on disk already."""
    checked: list[int] = []

    def read(prompt: str) -> str:
        if len(checked) == 8:
            raise EOFError
        saved = unfinished_games()
        if saved:
            actions = load_record(saved[0].path)["actions"]
            checked.append(len(actions))
        else:
            checked.append(0)
        return first_choice(sys.stdout.getvalue())  # type: ignore[union-attr]

    monkeypatch.setattr("builtins.input", read)
    assert cli.main(["play", "--opponent", "random", "--seed", "12"]) == 0
    capsys.readouterr()
    # The first question comes before any action (nothing to save yet); then each one finds
    # a longer game on disk than the one before.
    assert checked[0] == 0 and all(b > a for a, b in zip(checked, checked[1:], strict=False))


def test_an_unreadable_or_finished_file_is_no_unfinished_game(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "done.json").write_text(json.dumps({"actions": [], "result": {}}))
    (tmp_path / "list.json").write_text("[]")
    assert unfinished_games(tmp_path) == []
    assert unfinished(tmp_path / "missing.json") is None


# --- the commands hints name ----------------------------------------------------------------


def test_the_resume_command_is_one_that_works_where_the_player_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MAKELEVEL", "1")
    assert resume_command(None) == "make play"
    assert (
        resume_command(Path("my game.json"))
        == "make play ARGS='--resume '\"'\"'my game.json'\"'\"''"
    )
    monkeypatch.delenv("MAKELEVEL")
    monkeypatch.setattr("shutil.which", lambda name: "/usr/bin/rebelspace")
    assert resume_command(None) == "rebelspace play --resume"
    assert resume_command(Path("g.json")) == "rebelspace play --resume g.json"
    monkeypatch.setattr("shutil.which", lambda name: None)  # not on PATH: this Python
    assert resume_command(None).endswith(" -m rebelspace.cli play --resume")


# --- answers --------------------------------------------------------------------------------


def test_yes_or_no_only() -> None:
    assert yes_no("Y", None) is True and yes_no(" yes ", None) is True
    assert yes_no("n", True) is False and yes_no("NO", True) is False
    assert yes_no("", True) is True and yes_no("", None) is None
    assert yes_no("maybe", False) is None and yes_no("1", True) is None


def test_choice_numbers_stay_put_while_the_step_lasts() -> None:
    keys = Keys()
    step = (3, "rebel", "deploy", "deploy")
    first = keys.number(step, [(16, "deploy Rebel Soldier"), (17, "deploy X"), (18, "done")])
    assert [n for n, _, _ in first] == [1, 2, 3]
    later = keys.number(step, [(17, "deploy X"), (18, "done")])
    assert [(n, a) for n, a, _ in later] == [(2, 17), (3, 18)]  # "done" is still 3
    assert keys.gone("1", [2, 3]) == (
        "choice 1 ('deploy Rebel Soldier') is no longer possible: type a number from 2 to 3"
    )
    assert keys.gone("2", [2, 3]) is None and keys.gone("9", [2, 3]) is None
    grown = keys.number(step, [(17, "deploy X"), (18, "done"), (20, "new")])
    assert [(n, a) for n, a, _ in grown] == [(2, 17), (3, 18), (4, 20)]
    fresh = keys.number((3, "rebel", "end", "end"), [(18, "done")])
    assert [n for n, _, _ in fresh] == [1]  # a new step numbers from 1


def test_numbers_are_typed_as_shown() -> None:
    legal = [(17, "deploy X"), (18, "done deploying")]
    assert resolve_choice("3", legal, numbers=[2, 3]) == (18, "")
    assert resolve_choice("1", legal, numbers=[2, 4])[1] == (
        "1 is not one of the choices: type 2 or 4"
    )
    assert resolve_choice("done", legal, numbers=[2, 3]) == (18, "")
    assert numbers_words([1, 2, 3]) == "type a number from 1 to 3"
    assert numbers_words([1, 3, 4]) == "type 1, 3 or 4"


def deploying(
    answers: list[str], *, confirm_forced: bool = False, ask_before_ending: bool = True
) -> tuple[TerminalGame, str]:
    """Game 3 after the Rebel's draw 2: the deploy phase with 3 points, and Rebel Soldier,
    Grav Cycles and Stunt Fighters to deploy; answered so, then q."""
    left: Iterator[str] = iter(["2", *answers, "q"])
    screen = io.StringIO()
    console = make_console()
    console.file = screen
    terminal = TerminalGame(
        new_game(3),
        REBEL,
        Opponent("random", "normal", 1),
        read=lambda prompt: next(left),
        console=console,
        confirm_forced=confirm_forced,
        ask_before_ending=ask_before_ending,
    )
    terminal.play()
    return terminal, screen.getvalue()


def played(terminal: TerminalGame) -> list[str]:
    return [terminal.game.action_text(a) for a in terminal.game.history or []]


def test_numbers_stay_put_in_the_game_and_an_old_number_plays_nothing() -> None:
    terminal, out = deploying(["1", "1", "3"])
    flat = " ".join(out.split())
    # Rebel Soldier deployed as 1; then 1 is gone and the others keep their numbers.
    assert "deploy: 1. Rebel Soldier" in flat and "4. done deploying" in flat
    assert (
        "choice 1 ('deploy Rebel Soldier') is no longer possible: type a number from 2 to 4" in flat
    )
    assert played(terminal) == ["draw 2", "deploy Rebel Soldier", "deploy Stunt Fighters"]
    later = flat.split("2 points left):")[-1]
    assert "deploy: 2. Grav Cycles" in later and "4. done deploying" in later


def test_ending_the_deploy_phase_with_cards_left_asks_first() -> None:
    terminal, out = deploying(["done deploying", "maybe", "n", "3"])
    flat = " ".join(out.split())
    assert (
        "You have 3 deploy points left and could still play Rebel Soldier, Grav Cycles, "
        "Stunt Fighters: end the deploy phase? [y/n]" in flat
    )
    assert "Please answer yes or no" in flat
    # No: the question again, and 3 deploys Stunt Fighters.
    assert played(terminal) == ["draw 2", "deploy Stunt Fighters"]
    terminal, out = deploying(["done deploying", "y"])
    assert played(terminal)[:2] == ["draw 2", "done deploying"]
    terminal, out = deploying(["done deploying"], ask_before_ending=False)
    assert "[y/n]" not in out and played(terminal)[:2] == ["draw 2", "done deploying"]


def test_enter_takes_the_only_choice_and_nothing_else() -> None:
    # With four choices, Enter plays none of them.
    terminal, out = deploying([""])
    assert "Not understood: type a number from 1 to 4, an action's text, or help" in (
        " ".join(out.split())
    )
    assert played(terminal) == ["draw 2"]
    # With one (asked for by confirm_forced), Enter plays it.
    terminal, out = deploying(["done deploying", "y", ""], confirm_forced=True)
    assert "(your only choice)" not in out
    assert played(terminal)[:3] == ["draw 2", "done deploying", "end turn"]
