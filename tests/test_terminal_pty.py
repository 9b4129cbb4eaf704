"""`rebelspace play` through a pseudo-terminal of 80 columns (pexpect), as a person plays it:
a whole game, Ctrl-C at a prompt and while the computer thinks, Ctrl-D, resume, and the
commands. Timeouts are generous and nothing is timed: the machine may be busy."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from rebelspace.engine import load_record, replay
from rebelspace.terminal.lines import history_path
from rebelspace.terminal.saves import unfinished_games
from tests.common import with_ctrl_c
from tests.playing import first_choice

pexpect = pytest.importorskip("pexpect")
# A pexpect.spawn: pexpect ships no type information.
Child = Any

COLUMNS = 80
TIMEOUT = 120  # seconds for one expected piece of output, on a busy machine
PROMPT = r"\n> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def spawn(tmp_path: Path, *args: str) -> Child:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env.update(TERM="xterm-256color", PYTHONUNBUFFERED="1")
    return pexpect.spawn(
        sys.executable,
        ["-m", "rebelspace.cli", "play", "--plain", *args],
        cwd=str(tmp_path),
        env=env,
        dimensions=(40, COLUMNS),
        encoding="utf-8",
        timeout=TIMEOUT,
        preexec_fn=with_ctrl_c,
    )


def screen_lines(text: str) -> list[str]:
    return ANSI.sub("", text).replace("\r\n", "\n").split("\n")


def answer_first_choices(child: Child) -> str:
    """Answer the first choice shown at every question until the game ends; everything
    printed."""
    seen = []
    while True:
        k = child.expect([PROMPT, pexpect.EOF])
        seen.append(child.before + (child.after if k == 0 else ""))
        if k == 1:
            return "".join(seen)
        child.sendline(first_choice(ANSI.sub("", "".join(seen)).replace("\r\n", "\n")))


def finish(child: Child) -> int:
    """The exit status, once the program has exited by itself. (``close()`` would kill a
    program still tearing down after closing its output, e.g. freeing a big search tree on a
    busy machine.)"""
    child.expect(pexpect.EOF)
    status = child.wait()
    child.close()
    assert child.signalstatus is None, child.signalstatus
    return int(status)


def test_a_whole_game_at_80_columns_with_the_commands(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--opponent", "random", "--seed", "3", "--save", "game.json")
    child.expect(PROMPT)
    start = child.before
    for command, answer in [
        ("help", "card NAME"),
        ("card true aim", "psion card"),
        ("?1", r"names\s+no\s+card"),  # choice 1 is draw 1
        ("rules r19", "R19 Casualties"),
        ("why deploy Princess", "draw"),
        ("undo", "Cannot undo"),
        ("t", "Turn 1: your turn"),
    ]:
        child.sendline(command)
        child.expect(answer)
        child.expect(PROMPT)
    child.sendline("1")
    out = start + answer_first_choices(child)
    assert finish(child) == 0
    lines = screen_lines(out)
    assert lines[0].startswith("Rebel Space: you play Rebel. Computer: random. Game seed 3.")
    assert "\x1b[" in out  # colour on a terminal
    wide = [line for line in lines if len(line) > COLUMNS]
    assert not wide
    assert "Traceback" not in out
    assert "You win!" in out or "You lose." in out
    record = load_record(tmp_path / "game.json")
    assert replay(record).outcome is not None and record["meta"]["side"] == "rebel"


def test_ctrl_c_at_a_prompt_saves_and_resume_plays_to_the_end(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--opponent", "random", "--seed", "8")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()
    # Saved in the data folder, and 0: leaving is no failure (and `make play` adds no
    # "Error 130" to it).
    child.expect("Game saved in")
    assert finish(child) == 0
    assert "Traceback" not in child.before
    (found,) = unfinished_games()
    saved = load_record(found.path)
    assert saved["actions"] and "result" not in saved

    child = spawn(tmp_path, "--resume")
    child.expect("Resumed on turn ")
    out = answer_first_choices(child)
    assert finish(child) == 0
    assert "Traceback" not in out and ("You win!" in out or "You lose." in out)
    done = load_record(found.path)
    assert done["actions"][: len(saved["actions"])] == saved["actions"]
    assert replay(done).outcome is not None


def test_ctrl_c_while_the_computer_thinks(tmp_path: Path) -> None:
    # A million iterations a decision: the computer is still thinking when Ctrl-C arrives.
    child = spawn(tmp_path, "--level", "1000000", "--seed", "2")
    child.expect("Computer: ISMCTS, 1000000 iterations a decision")
    seen = ""
    while child.expect([PROMPT, "Computer is thinking"]) == 0:
        seen += child.before + child.after
        child.sendline(first_choice(ANSI.sub("", seen).replace("\r\n", "\n")))
    child.sendintr()
    child.expect("Game saved in")
    assert finish(child) == 0
    assert "Traceback" not in child.before
    (found,) = unfinished_games()
    saved = load_record(found.path)
    assert saved["meta"]["computer"]["level"] == "1000000"
    # The game stops at its last whole decision: the person's, before the computer's.
    game = replay(saved)
    assert game.to_move == 1 and len(game.legal_actions()) > 1


def test_leaving_before_anything_was_played_saves_nothing(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--side", "imperial", "--level", "1000000", "--seed", "2")
    child.expect("Computer is thinking")
    child.sendintr()
    child.expect("Nothing was played yet: nothing to save.")
    assert finish(child) == 0
    assert unfinished_games() == []


def test_ctrl_d_saves_and_exits_0(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--opponent", "random", "--seed", "4", "--save", "mine.json")
    child.expect(PROMPT)
    child.sendeof()
    child.expect(r"Game saved in\r\n  mine.json\r\n")
    assert finish(child) == 0
    assert "Traceback" not in child.before
    assert load_record(tmp_path / "mine.json")["meta"]["computer"]["kind"] == "random"


def test_tab_completes_a_choice_and_the_arrow_keys_edit(tmp_path: Path) -> None:
    """readline at the prompt: Tab completes "dra" to "draw " (both choices start so), Left
    and Backspace edit the line instead of being typed into it, and the history is kept."""
    child = spawn(tmp_path, "--opponent", "random", "--seed", "4", "--save", "tab.json")
    child.expect(PROMPT)
    child.send("dra\t")
    child.expect("dra(\x07)?w ")  # completed as far as both choices go (and a bell)
    child.send("21\x1b[D\x7f\r")  # "draw 21", Left, Backspace: "draw 1"... then Enter
    child.expect(PROMPT)
    child.sendline("q")
    assert finish(child) == 0
    assert load_record(tmp_path / "tab.json")["actions"][0] == "draw 1"
    assert "draw 1" in history_path().read_text().splitlines()
