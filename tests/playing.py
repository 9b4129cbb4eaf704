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
CHOICE = re.compile(r"(?<![0-9])([0-9]+)\. ")


def first_choice(screen: str) -> str:
    """The number of the first choice of the last question on ``screen``; for a yes-or-no
    question, yes to ending a phase with cards left (the first choice may end it when a
    choice came up later in the step, with a higher number) and no to the analysis."""
    asked = screen.rfind(QUESTION)
    yes_or_no = screen.rfind("[y/n]")
    if yes_or_no > asked:
        return "y" if screen.rfind("You have ", asked) >= 0 else "n"
    assert asked >= 0, "no question on the screen"
    found = CHOICE.search(screen, screen.find("):", asked))  # after the question's head
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
