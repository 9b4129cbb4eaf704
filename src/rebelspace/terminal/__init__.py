"""The terminal game (``rebelspace play``), built on Rich.

A line-oriented game rather than a full-screen one (Textual): it prints what happened and asks
one question at a time, so it works the same in a terminal, through a pipe, in a script and
under a pseudo-terminal in tests; Rich gives it colour, tables and wrapping to the terminal's
width. Modules: ``launch`` (the ``play`` command: which game, kept where), ``saves`` (saved
games and the commands that go on with them), ``session`` (the loop, saving as it goes, undo),
``show`` (what is printed), ``commands`` (what a player may type, choice numbers, yes/no),
``cards`` (cards in plain words).
"""

from .cards import card_lines, find_cards, lookup_lines
from .commands import PROMPT, ask_yes_no, resolve_choice, yes_no
from .session import (
    Opponent,
    Stop,
    TerminalGame,
    ctrl_c_ignored,
    make_console,
    play_game,
    rebuild,
)

__all__ = [
    "ask_yes_no",
    "yes_no",
    "ctrl_c_ignored",
    "PROMPT",
    "Opponent",
    "Stop",
    "TerminalGame",
    "card_lines",
    "find_cards",
    "lookup_lines",
    "make_console",
    "play_game",
    "rebuild",
    "resolve_choice",
]
