"""Reading answers in the terminal: the standard library's ``readline`` where there is one
(line editing with the arrow keys, a history kept between games, Tab completion of the
choices, card names and commands); plain ``input`` in a pipe or where readline is missing."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from .saves import games_dir

Reader = Callable[[str], str]
HISTORY_LENGTH = 1000


def completer(candidates: Callable[[], Iterable[str]]) -> Callable[[str, int], str | None]:
    """readline's completer: the ``state``-th candidate that starts with ``text`` (case
    ignored). readline is told no word delimiters, so ``text`` is the whole answer typed so
    far and a choice of several words ("add Fighter Bombers to group 2") completes whole."""
    found: list[str] = []

    def complete(text: str, state: int) -> str | None:
        if state == 0:
            key = text.lower()
            found[:] = sorted({c for c in candidates() if c.lower().startswith(key)})
        return found[state] if state < len(found) else None

    return complete


def plain(prompt: str) -> str:
    """``input``, looked up when called (tests put their own in its place)."""
    return input(prompt)


def history_path() -> Path:
    return games_dir().parent / "history"


def line_reader(candidates: Callable[[], Iterable[str]]) -> Reader:
    """``input`` with readline's editing, history and completion of ``candidates()`` when
    the input is a terminal and readline exists; else ``input`` as it is."""
    if not sys.stdin.isatty():
        return plain
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input still works
        return plain
    path = history_path()
    with contextlib.suppress(OSError):  # none yet, or unreadable: start a new one
        readline.read_history_file(path)
    readline.set_history_length(HISTORY_LENGTH)
    readline.set_completer_delims("")
    readline.set_completer(completer(candidates))
    if "libedit" in (readline.__doc__ or ""):  # macOS's readline is libedit
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")

    def read(prompt: str) -> str:
        answer = input(prompt)
        if answer.strip():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                readline.write_history_file(path)
            except OSError:  # a history that cannot be kept is no reason to stop a game
                pass
        return answer

    return read
