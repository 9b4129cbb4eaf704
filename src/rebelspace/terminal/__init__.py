"""The terminal game (``rebelspace play``): a full-screen board on a terminal, a line mode
elsewhere.

On a terminal the game is a Textual app (``app``): a board that stays put, choices picked with
the arrow keys, their numbers or the mouse, keys for hint, undo and the rules. With
``--plain``, or when input or output is not a terminal (a pipe, a script, the pexpect tests),
it is the line mode, built on Rich: it prints what happened and asks one question at a time,
with readline editing where there is one. Both are views over one ``TerminalGame``
(``session``: the loop, saving as it goes, undo, the computer); modules: ``launch`` (the
``play`` command: which game, kept where, which mode), ``saves`` (saved games and the commands
that go on with them), ``show`` (what is printed), ``commands`` (what a player may type,
choice numbers, yes/no), ``cards`` (cards in plain words), ``lines`` (readline).
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
