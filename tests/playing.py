"""Scripted players for the terminal game's tests: answers read off the screen as a person
reads them (choice numbers stay put within a step, so "1" is not always a choice)."""

from __future__ import annotations

import builtins
import re
import sys
from collections.abc import Callable

import pytest

QUESTION = "Your move ("
REAL_INPUT = builtins.input
CHOICE = re.compile(r"^\s*(\d+)\. ", re.MULTILINE)


def first_choice(screen: str) -> str:
    """The number of the first choice of the last question on ``screen``; no when the last
    question is a yes-or-no one (the analysis offered after the game)."""
    asked = screen.rfind(QUESTION)
    if screen.rfind("[y/n]") > asked:
        return "n"
    assert asked >= 0, "no question on the screen"
    found = CHOICE.search(screen, asked)
    assert found is not None, screen[asked:]
    return found.group(1)


def answer_first_choices(monkeypatch: pytest.MonkeyPatch, answers: int = 5000) -> None:
    """``cli.main(["play", ...])`` under capsys answers the first choice shown at each of
    ``answers`` questions, then meets the end of input."""
    left = [answers]

    def read(prompt: str) -> str:
        print(prompt, end="")
        if left[0] == 0:
            raise EOFError
        left[0] -= 1
        screen: str = sys.stdout.getvalue()  # type: ignore[union-attr]  # capsys's buffer
        return first_choice(screen)

    monkeypatch.setattr("builtins.input", read)


def reader_of_first_choices(screen: Callable[[], str]) -> Callable[[str], str]:
    """A ``TerminalGame`` reader answering the first choice of what ``screen()`` shows."""
    return lambda prompt: first_choice(screen())
