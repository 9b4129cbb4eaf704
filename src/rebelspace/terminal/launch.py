"""``rebelspace play``: find or start the game, play it, and keep it (``saves``).

Before a game: ``--resume`` alone takes the newest unfinished game of the data folder; with no
``--resume``, ``--new``, ``--seed`` or ``--save`` the newest unfinished game is offered ("A
saved game from ... found: resume? [Y/n]"); ``--save FILE`` over an existing file asks first.
During it the game is saved before each of the player's questions (``TerminalGame.autosave``).
After it: where it is saved and the command that goes on with it, each on a line of its own
(printed as they are, never wrapped inside a command, so they can be copied). Leaving with
Ctrl-C saves the game and exits 0, like q: nothing failed, and ``make play`` adds no
``Error 130`` to it. The game is played on the full-screen board (``app``) when input and
output are a terminal, in the line mode with ``--plain`` or elsewhere; the offer to resume and
the words after the game are the same lines in both.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from rebelspace.cliargs import EXIT_OK, cards_from, fail, rules_from
from rebelspace.engine import (
    PLAYER_NAMES,
    SIDE_NAMES,
    RebelSpaceError,
    RecordError,
    load_record,
    new_game,
    replay,
    save_record,
)

from .commands import ask_yes_no
from .lines import line_reader
from .saves import (
    games_dir,
    new_save_path,
    rebelspace_command,
    resume_command,
    unfinished,
    unfinished_games,
)
from .session import Opponent, Reader, Stop, TerminalGame, ctrl_c_ignored, make_console, rebuild

#: ``--resume`` given without a file: the newest unfinished game of the data folder.
NEWEST = ""


class _Refused(Exception):
    """The game cannot start as asked; the message says why (nothing was changed)."""


@dataclass(slots=True)
class Opened:
    """A game ready to play: the session, the file it is kept in, whether that file was
    named (by --save or --resume: kept even before anything is played) and whether the game
    was resumed."""

    terminal: TerminalGame
    save: Path
    named: bool
    resumed: bool
    board: bool = False  # played on the board, which offers no analysis itself


def run_play(
    args: argparse.Namespace,
    read: Reader | None = None,
    console: Console | None = None,
) -> int:
    """The ``play`` command: 0 when the game ended or was saved, 2 on bad input. Full-screen
    (``terminal.app``) on a terminal, the line mode with ``--plain``, in a pipe, or when a
    test passes ``read``."""
    console = console if console is not None else make_console()
    opened = open_game(args, read, console)
    if isinstance(opened, int):
        return opened
    terminal = opened.terminal
    if read is None and full_screen(args):
        from .app import run_app

        opened.board = True
        stop = run_app(terminal, pace=args.pace, resumed=opened.resumed, saved=opened.save)
    else:
        if read is None:
            terminal.read = line_reader(terminal.completions)
        stop = terminal.play(resumed=opened.resumed)
    with ctrl_c_ignored():
        return keep(opened, stop, console)


def full_screen(args: argparse.Namespace) -> bool:
    """Whether to play on the full-screen board: not with ``--plain``, and only when both
    input and output are a terminal that can draw one (a pipe, a script or TERM=dumb get the
    line mode)."""
    if getattr(args, "plain", False) or os.environ.get("TERM", "") in ("", "dumb"):
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


def open_game(args: argparse.Namespace, read: Reader | None, console: Console) -> Opened | int:
    """The game ``args`` ask for, saved as it goes; or the exit code when it cannot start
    (2, with the reason said) or the player left at a question before it (0)."""
    read = read if read is not None else input  # looked up now: tests replace builtins.input
    try:
        resume, save = _choose_game(args, read, console)
        terminal = _terminal(args, resume, read, console)
    except _Refused as exc:
        return fail("play", exc)
    except KeyboardInterrupt:  # at a question before the game: nothing started, nothing lost
        console.print("")
        return EXIT_OK
    named = save is not None
    if save is None:
        folder = games_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return fail("play", f"cannot make the folder for saved games {folder}: {exc.strerror}")
        save = new_save_path(terminal.game.seed, datetime.now(), folder)
    terminal.autosave = _autosaver(terminal, save)
    return Opened(terminal, save, named, resume is not None)


def _choose_game(
    args: argparse.Namespace, read: Reader, console: Console
) -> tuple[Path | None, Path | None]:
    """The game to resume (None: a new one) and the file to keep it in (None: a new file in
    the data folder). Raises _Refused, or KeyboardInterrupt at a question."""
    resume: Path | None = None
    if args.resume == NEWEST:
        found = unfinished_games()
        if not found:
            raise _Refused(f"--resume: no unfinished game is saved in {games_dir()}")
        resume = found[0].path
    elif args.resume is not None:
        resume = Path(args.resume)
    elif not (args.new or args.seed is not None or args.save is not None):
        resume = _offer_newest(read, console)
    save = Path(args.save) if args.save is not None else resume
    if args.save is not None:
        _check_save(Path(args.save), resume, read, console)
    return resume, save


def _offer_newest(read: Reader, console: Console) -> Path | None:
    """Offer the newest unfinished saved game: its path if taken, None for a new game."""
    found = unfinished_games()
    if not found:
        return None
    newest = found[0]
    if len(found) > 1:
        others = len(found) - 1
        console.print(
            f"({others} other unfinished game{'s' if others > 1 else ''} in {games_dir()})",
            soft_wrap=True,
        )
    answer = ask_yes_no(
        read, console, f"A saved game from {newest.describe()} found: resume? [Y/n]", True
    )
    if answer is None:
        raise KeyboardInterrupt  # end of input at the question: leave, nothing changed
    return newest.path if answer else None


def _check_save(save: Path, resume: Path | None, read: Reader, console: Console) -> None:
    """A game may be written to ``save``: a new file, the game resumed, or a file the player
    agrees to replace; a game record is never overwritten without asking."""
    folder = save.absolute().parent
    if not folder.is_dir():  # say so now, not after a whole game
        raise _Refused(f"--save {save}: folder {folder} does not exist")
    if not save.exists() or (resume is not None and resume.exists() and save.samefile(resume)):
        return
    saved = unfinished(save)
    what = f"an unfinished game ({saved.describe()})" if saved is not None else "a file"
    if not ask_yes_no(read, console, f"{save} holds {what}: replace it? [y/N]", False):
        raise _Refused(f"--save {save}: left as it was; give another file")


def _terminal(
    args: argparse.Namespace, resume: Path | None, read: Reader, console: Console
) -> TerminalGame:
    from rebelspace.seeds import TERMINAL_OPPONENT, agent_seed

    if resume is not None:
        try:
            record = load_record(resume)
            done = replay(record, source=str(resume))
        except RecordError as exc:
            raise _Refused(exc) from None
        if done.is_over:
            raise _Refused(f"{resume}: this game is over (see `replay`)")
        assert done.history is not None
        found = record.get("meta")  # written by `play` (absent in older records)
        meta: dict[str, Any] = found if isinstance(found, dict) else {}
        side = meta["side"] if meta.get("side") in SIDE_NAMES else args.side
        person = SIDE_NAMES.index(side)
        opponent = Opponent.from_meta(meta.get("computer")) or Opponent(
            args.opponent, args.level, agent_seed(done.seed, TERMINAL_OPPONENT + person)
        )
        game, plies = rebuild(done.seed, done.options, done.cards, done.history)
    else:
        try:
            cards, options = cards_from(args), rules_from(args)
        except RebelSpaceError as exc:
            raise _Refused(exc) from None
        # A fresh seed comes from the OS, not the clock: the game itself stays seeded
        # (docs/architecture.md, style point 8).
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
        game, plies = new_game(seed, options=options, cards=cards), []
        person = SIDE_NAMES.index(args.side)
        # The computer's seeds derive from the game's, so --seed S replays the same opponent.
        opponent = Opponent(args.opponent, args.level, agent_seed(seed, TERMINAL_OPPONENT + person))
    return TerminalGame(
        game,
        person,
        opponent,
        plies=plies,
        read=read,
        console=console,
        confirm_forced=args.confirm_forced,
        ask_before_ending=not args.end_without_asking,
    )


def _autosaver(terminal: TerminalGame, path: Path) -> Callable[[], None]:
    """Save the game to ``path``; a failure is said once (where the game says things: the
    console or the board's log) and the game goes on."""
    failed: list[str] = []

    def autosave() -> None:
        try:
            save_record(terminal.game, path, meta=terminal.meta())
        except RecordError as exc:
            if not failed:
                failed.append(str(exc))
                terminal.out(Text(f"Cannot save the game as it goes: {exc}", style="red"))

    return autosave


def keep(opened: Opened, stop: Stop, console: Console) -> int:
    """Save the game at its end or where the player left it, and say how to go on. A new
    game left before anything was played is not worth a file of its own."""
    terminal, save, named = opened.terminal, opened.save, opened.named
    if not named and not terminal.game.history:
        console.print("Nothing was played yet: nothing to save.")
        return EXIT_OK
    try:
        save_record(terminal.game, save, meta=terminal.meta())
    except RecordError as exc:
        return fail("play", exc)
    # Paths and commands on lines of their own, printed as they are (never wrapped by Rich
    # inside them), so they can be copied whole.
    if stop == Stop.FINISHED:
        print("Game record saved in")
        print(f"  {save}")
        if opened.board:  # the line mode offered the analysis at the end; the board did not
            side = PLAYER_NAMES[terminal.person].lower()
            print("To analyse your moves, run")
            print(f"  {rebelspace_command()} analyse {shlex.quote(str(save))} --side {side}")
        return EXIT_OK
    newest = unfinished_games()
    in_folder = bool(newest) and newest[0].path.resolve() == save.resolve()
    print(f"Game saved in\n  {save}\nTo go on with it, run")
    print(f"  {resume_command(None if in_folder else save)}")
    return EXIT_OK
