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
from tests.common import with_ctrl_c

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
        ["-m", "rebelspace.cli", "play", *args],
        cwd=str(tmp_path),
        env=env,
        dimensions=(40, COLUMNS),
        encoding="utf-8",
        timeout=TIMEOUT,
        preexec_fn=with_ctrl_c,
    )


def screen_lines(text: str) -> list[str]:
    return ANSI.sub("", text).replace("\r\n", "\n").split("\n")


def answer_ones(child: Child) -> str:
    """Answer 1 to every question until the game ends; everything printed."""
    seen = []
    while True:
        k = child.expect([PROMPT, pexpect.EOF])
        seen.append(child.before + (child.after if k == 0 else ""))
        if k == 1:
            return "".join(seen)
        child.sendline("1")


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
        ("?1", r"printed\s+type"),
        ("rules r19", "R19 Casualties"),
        ("why deploy Princess", "draw"),
        ("undo", "Cannot undo"),
        ("t", "Turn 1: your turn"),
    ]:
        child.sendline(command)
        child.expect(answer)
        child.expect(PROMPT)
    child.sendline("1")
    out = start + answer_ones(child)
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
    child.expect("Interrupted: game saved to rebelspace-game.json")
    assert finish(child) == 130
    assert "Traceback" not in child.before
    saved = load_record(tmp_path / "rebelspace-game.json")
    assert saved["actions"] and "result" not in saved

    child = spawn(tmp_path, "--resume", "rebelspace-game.json")
    child.expect("Resumed on turn ")
    out = answer_ones(child)
    assert finish(child) == 0
    assert "Traceback" not in out and ("You win!" in out or "You lose." in out)
    done = load_record(tmp_path / "rebelspace-game.json")
    assert done["actions"][: len(saved["actions"])] == saved["actions"]
    assert replay(done).outcome is not None


def test_ctrl_c_while_the_computer_thinks(tmp_path: Path) -> None:
    # A million iterations a decision: the computer is still thinking when Ctrl-C arrives.
    child = spawn(tmp_path, "--side", "imperial", "--level", "1000000", "--seed", "2")
    child.expect("Computer: ISMCTS, 1000000 iterations a decision")
    child.expect("Computer is thinking")
    child.sendintr()
    child.expect("Interrupted: game saved to rebelspace-game.json")
    assert finish(child) == 130
    assert "Traceback" not in child.before
    saved = load_record(tmp_path / "rebelspace-game.json")
    assert saved["meta"]["computer"]["level"] == "1000000"


def test_ctrl_d_saves_and_exits_0(tmp_path: Path) -> None:
    child = spawn(tmp_path, "--opponent", "random", "--seed", "4", "--save", "mine.json")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("Saved: game saved to mine.json")
    assert finish(child) == 0
    assert "Traceback" not in child.before
    assert load_record(tmp_path / "mine.json")["meta"]["computer"]["kind"] == "random"
