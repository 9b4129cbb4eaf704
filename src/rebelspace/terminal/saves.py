"""Where the terminal game keeps its games, and how to tell the player to go on with one.

Every game of ``rebelspace play`` is saved in its own record file under the user's data
folder (``platformdirs``: ``~/.local/share/rebelspace/games`` on Linux), written after each of
the player's decisions and when they leave, so no game is lost and none overwrites another.
``REBELSPACE_DATA_DIR`` points the game (and the tests) at another folder. A new game starts
with the offer to resume the newest unfinished one.

The hints that name a command name one that works where the player is: ``make play`` when
the game was started by make (a ``make play`` user has no ``rebelspace`` on PATH), the
``rebelspace`` script when it is on PATH, else the Python that runs the game.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

DATA_DIR_VARIABLE = "REBELSPACE_DATA_DIR"


def games_dir() -> Path:
    """The folder of saved games (not created here)."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override) / "games"
    import platformdirs

    return platformdirs.user_data_path("rebelspace", appauthor=False) / "games"


def new_save_path(seed: int, started: datetime, folder: Path | None = None) -> Path:
    """A new game's file: when it started and its seed, never an existing file's name."""
    folder = games_dir() if folder is None else folder
    stem = f"{started:%Y-%m-%d-%H%M%S}-seed{seed}"
    path, k = folder / f"{stem}.json", 1
    while path.exists():
        k += 1
        path = folder / f"{stem}-{k}.json"
    return path


@dataclass(frozen=True, slots=True)
class Saved:
    """An unfinished saved game: its file, when it was last saved, and who plays whom."""

    path: Path
    saved: datetime
    actions: int
    side: str | None
    turn: int | None  # in the record's meta, from the terminal game

    def describe(self) -> str:
        """``Thu 3 Dec 08:10, turn 4, you Rebel`` (or ``42 actions`` without the turn)."""
        if self.turn is not None:
            where = f"turn {self.turn}"
        else:
            where = f"{self.actions} action{'s' if self.actions != 1 else ''}"
        who = f", you {self.side.capitalize()}" if self.side else ""
        return f"{self.saved:%a %-d %b %H:%M}, {where}{who}"


def unfinished(path: Path) -> Saved | None:
    """The save at ``path`` if it is a game record with no result yet, else None (a finished
    game, another file, or a file that is not a record: left alone, never removed)."""
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        saved = datetime.fromtimestamp(path.stat().st_mtime)
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or "result" in record:
        return None
    actions = record.get("actions")
    if not isinstance(actions, list):
        return None
    meta = record.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    side, turn = meta.get("side"), meta.get("turn")
    return Saved(
        path,
        saved,
        len(actions),
        side if isinstance(side, str) else None,
        turn if type(turn) is int else None,
    )


def unfinished_games(folder: Path | None = None) -> list[Saved]:
    """The unfinished games saved in ``folder`` (default: ``games_dir()``), newest first."""
    folder = games_dir() if folder is None else folder
    try:
        paths = list(folder.glob("*.json"))
    except OSError:
        return []
    found = [s for s in map(unfinished, paths) if s is not None]
    return sorted(found, key=lambda s: (s.saved, s.path.name), reverse=True)


# --- the command that works where the player is ---------------------------------------------


def started_by_make() -> bool:
    """True when make started the game (``make play``): make sets MAKELEVEL for its children."""
    return "MAKELEVEL" in os.environ


def rebelspace_command() -> str:
    """How to run ``rebelspace`` here: the script when it is on PATH, else this Python."""
    if shutil.which("rebelspace"):
        return "rebelspace"
    python = sys.executable
    try:
        relative = os.path.relpath(python)
    except ValueError:  # another drive (Windows)
        relative = python
    if not relative.startswith(".."):
        python = relative if os.sep in relative else f".{os.sep}{relative}"
    return f"{shlex.quote(python)} -m rebelspace.cli"


def resume_command(path: Path | None) -> str:
    """The command that goes on with the game saved at ``path``; None: the newest unfinished
    game of the data folder, which ``play --resume`` alone finds (and ``make play`` offers)."""
    args = "--resume" if path is None else f"--resume {shlex.quote(str(path))}"
    if started_by_make():
        return "make play" if path is None else f"make play ARGS={shlex.quote(args)}"
    return f"{rebelspace_command()} play {args}"
