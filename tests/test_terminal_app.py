"""The full-screen board (``terminal/app.py``) driven through Textual's pilot, as a person plays
it: whole games at 80×24, every kind of decision answered with the arrow keys, digits, the
mouse and typed text, hint, undo, the question before ending a phase, save and resume, Ctrl-C
while the computer thinks, a resize, NO_COLOR. Screenshots of the main screens are kept in
test-artifacts/ (SVG). Nothing is timed: the pilot waits for the app, however busy the machine.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
import sys
import threading
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList

from rebelspace import cli
from rebelspace.engine import IMPERIAL, REBEL, load_record, new_game, replay
from rebelspace.terminal import Opponent, Stop, TerminalGame, make_console
from rebelspace.terminal.app import BoardApp, Reading, YesNo
from rebelspace.terminal.launch import full_screen, keep, open_game
from rebelspace.terminal.saves import unfinished_games

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SMALL = (80, 24)
#: Every step of a turn at which the person may be asked (all but "over").
ALL_STEPS = {
    "draw",
    "form groups",
    "ion cannon",
    "block",
    "target",
    "battle tricks",
    "casualties",
    "deploy",
    "end",
    "discard",
}
WAITS = 200_000  # pauses of the pilot before a test gives up on the app (no clock involved)


def session(
    seed: int, *, side: int = REBEL, opponent: str = "heuristic", **kw: Any
) -> TerminalGame:
    console = make_console()
    console.file = io.StringIO()  # the board says nothing on stdout
    return TerminalGame(
        new_game(seed),
        side,
        Opponent(opponent, "normal", seed),
        hint_agent="heuristic",
        console=console,
        **kw,
    )


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def settle(pilot: Any, app: BoardApp) -> None:
    """Wait until the app waits for the person (a choice, a yes-or-no, the result)."""
    for _ in range(WAITS):
        if app.state in ("choosing", "asking", "over") and not app.hinting:
            await pilot.pause()
            return
        await pilot.pause(0.002)
    raise AssertionError(f"the app never waited for the person (state {app.state})")


def plain(thing: Any) -> str:
    """A Rich renderable as the text it shows, at 200 columns."""
    console = make_console()
    console.file, console.width = io.StringIO(), 200
    console.print(thing)
    return console.file.getvalue()


def shot(app: BoardApp, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    app.save_screenshot(f"{name}.svg", str(ARTIFACTS))


def board_on_screen(app: BoardApp) -> None:
    """The board's parts are all on the screen, none scrolled away or squeezed out."""
    width, height = app.size
    for part in ("#status", "#opponent-pane", "#you-pane", "#choices", "#details", "#log"):
        region = app.query_one(part).region
        assert region.width > 0 and region.height > 0, part
        assert region.x >= 0 and region.y >= 0, part
        assert region.right <= width and region.bottom <= height - 1, part  # above the footer
    assert app.query_one("#status").region.y == 0
    assert app.query_one("#choices").region.height >= 4  # a title and three choices


# --- whole games -------------------------------------------------------------------------------


def test_a_whole_game_at_80x24_with_the_board_always_on_screen() -> None:
    async def test() -> None:
        s = session(3)
        app = BoardApp(s, pace=0, saved=Path("/tmp/the game.json"))
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot, app)
            shot(app, "board-first-question")
            questions = 0
            while app.state != "over":
                if app.state == "asking":
                    assert isinstance(app.screen, YesNo)
                    await pilot.press("y")
                else:
                    board_on_screen(app)
                    questions += 1
                    if questions == 30:
                        shot(app, "board-mid-game")
                    await pilot.press("enter")
                await settle(pilot, app)
            shot(app, "board-game-over")
            assert "Game over" in app.log_text()
            assert isinstance(app.screen, Reading)
            said = plain(app.screen.body)
            assert "You lose." in said or "You win!" in said
            assert "the command that analyses your moves is printed" in said
            await pilot.press("enter")
        assert app.return_value == Stop.FINISHED
        assert s.game.is_over and questions > 10

    run(test)


def answering(rng: random.Random, app: BoardApp, pilot: Any) -> Callable[[int], Awaitable[int]]:
    """Answer the question with a random choice, by one of the ways a person may: arrows and
    Enter, its number then Enter, a click, or typing its text after ':'. Returns the action."""

    async def answer(k: int) -> int:
        question = app.question
        assert question is not None
        pick = rng.randrange(len(question.numbers))
        action, text = question.legal[pick]
        way = k % 4
        choices = app.query_one("#choices")
        rows = [
            len(f"{n}. {t}") for n, (_, t) in zip(question.numbers, question.legal, strict=True)
        ]
        if way == 2 and (pick >= choices.region.height - 1 or max(rows) >= choices.region.width):
            way = 1  # a click on a row shown whole at the top (one line a choice), else digits
        if way == 0:
            await pilot.press(*(["down"] * pick), "enter")
        elif way == 1:
            await pilot.press(*str(question.numbers[pick]), "enter")
        elif way == 2:
            choices.scroll_home(animate=False)
            await pilot.pause()
            await pilot.click("#choices", offset=(4, 1 + pick))  # under the title
        else:  # typed: the text when short (a key press a letter is slow), else the number
            typed = text if len(text) <= 14 else str(question.numbers[pick])
            await pilot.press("colon", *typed, "enter")
        return action

    return answer


@pytest.mark.slow  # two whole games, every decision asked: minutes on a busy machine
def test_every_kind_of_decision_answered_by_keys_digits_mouse_and_text() -> None:
    """Rebel against the random computer, every decision asked (one-choice ones too): seeds
    10 and 17 between them reach every step at which a player decides (ion cannon in 17,
    discard in 10). Each answer plays the choice it picked, whichever way it was given."""
    seen: set[str] = set()

    async def game(seed: int) -> None:
        s = session(seed, opponent="random", confirm_forced=True, ask_before_ending=False)
        rng = random.Random(seed)
        app = BoardApp(s, pace=0)
        async with app.run_test(size=SMALL) as pilot:
            answer = answering(rng, app, pilot)
            await settle(pilot, app)
            k = 0
            while app.state != "over":
                assert app.state == "choosing"
                assert s.game.history is not None
                step = s.game.view(REBEL).step.value
                if step not in seen:
                    shot(app, f"board-step-{step.replace(' ', '-')}")
                seen.add(step)
                before = len(s.game.history)
                action = await answer(k)
                await settle(pilot, app)
                assert s.game.history[before] == action, (k, s.game.action_text(action))
                k += 1
            await pilot.press("enter")
        assert app.return_value == Stop.FINISHED

    for seed in (10, 17):
        run(lambda seed=seed: game(seed))  # type: ignore[misc]
    assert seen == ALL_STEPS


# --- keys --------------------------------------------------------------------------------------


async def play_until(pilot: Any, app: BoardApp, wanted: Callable[[list[str]], bool]) -> None:
    """Play the first choice (yes to ending a phase) until the choices are ``wanted``."""
    await settle(pilot, app)
    for _ in range(400):
        if app.state == "choosing" and wanted(list(app.choice_texts())):
            return
        await pilot.press("y" if app.state == "asking" else "enter")
        await settle(pilot, app)
    raise AssertionError("the choices never came")


def test_hint_and_undo_keys() -> None:
    async def test() -> None:
        s = session(5)
        app = BoardApp(s, pace=0)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot, app)
            await pilot.press("u")  # nothing to take back yet
            await pilot.pause()
            assert "Cannot undo: you have made no decision" in app.log_text()
            await play_until(pilot, app, lambda texts: any(t.startswith("deploy ") for t in texts))
            await pilot.press("h")
            await settle(pilot, app)
            assert "Hint: the computer (heuristic) would play" in app.log_text()
            recommended = re.findall(r"would play choice ([0-9]+)", app.log_text())[-1]
            assert app.question is not None
            highlighted = app.query_one("#choices", OptionList).highlighted
            assert highlighted == app.question.numbers.index(int(recommended))
            shot(app, "board-hint")
            first = app.choice_texts()
            assert app.question is not None and s.game.history is not None
            deploy = next(k for k, t in enumerate(first) if t.startswith("deploy "))
            await pilot.press(*str(app.question.numbers[deploy]), "enter")
            await settle(pilot, app)
            played = len(s.game.history)
            await pilot.press("u")
            await settle(pilot, app)
            assert f"Took back {first[deploy]!r}" in app.log_text()
            assert len(s.game.history) == played - 1
            assert app.choice_texts() == first  # the same question again, numbers and all
            await pilot.press("q")
        assert app.return_value == Stop.QUIT

    run(test)


def test_ending_a_phase_with_cards_left_asks_first() -> None:
    async def test() -> None:
        s = session(3)
        app = BoardApp(s, pace=0)
        async with app.run_test(size=SMALL) as pilot:
            await play_until(pilot, app, lambda texts: "done deploying" in texts and len(texts) > 1)
            assert "done deploying" in app.choice_texts()
            assert s.game.history is not None
            played = len(s.game.history)
            assert app.question is not None
            number = app.question.numbers[app.choice_texts().index("done deploying")]
            await pilot.press(*str(number), "enter")
            await settle(pilot, app)
            assert isinstance(app.screen, YesNo)
            shot(app, "board-ending-question")
            await pilot.press("n")
            await settle(pilot, app)
            assert len(s.game.history) == played and "done deploying" in app.choice_texts()
            await pilot.press(*str(number), "enter")
            await settle(pilot, app)
            await pilot.press("y")
            await settle(pilot, app)
            assert len(s.game.history) > played
            assert s.game.action_text(s.game.history[played]) == "done deploying"

    run(test)


def test_typed_commands_answer_in_the_log() -> None:
    async def test() -> None:
        s = session(4)
        app = BoardApp(s, pace=0)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot, app)
            await pilot.press("colon", *"card princess", "enter")
            await pilot.pause()
            assert "Princess: Rebel" in app.log_text()
            await pilot.press("colon", *"hnit", "enter")
            await pilot.pause()
            assert "Did you mean hint?" in app.log_text()
            await pilot.press("colon", *"draw 2", "enter")
            await settle(pilot, app)
            assert s.game.history is not None
            assert s.game.action_text(s.game.history[0]) == "draw 2"

    run(test)


def test_rules_and_help_screens_open_and_close() -> None:
    async def test() -> None:
        app = BoardApp(session(4), pace=0)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot, app)
            await pilot.press("r")
            await pilot.pause()
            assert app.screen.query_one("#reading").border_title == "Rules"
            shot(app, "board-rules")
            await pilot.press("escape")
            await pilot.press("question_mark")
            await pilot.pause()
            assert app.screen.query_one("#reading").border_title == "Keys"
            shot(app, "board-help")
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is app.screen_stack[0] and app.state == "choosing"

    run(test)


def test_the_computer_plays_step_by_step_at_the_pace() -> None:
    """With a pace, each of the computer's moves is on the board before the next: the app
    waits between them (a timer, not a sleep: the board stays live)."""

    async def test() -> None:
        s = session(3, side=IMPERIAL)  # the computer, Rebel, moves first
        app = BoardApp(s, pace=0.2)  # long enough to be seen on a busy machine
        async with app.run_test(size=SMALL) as pilot:
            paced = 0
            for _ in range(WAITS):
                paced += app.state == "pacing"
                if app.state == "choosing":
                    break
                await pilot.pause(0.002)
            assert app.state == "choosing" and paced > 0
            await pilot.press("p")
            assert app.pace == 0.4

    run(test)


# --- the screen --------------------------------------------------------------------------------


def test_a_resize_to_80x24_keeps_the_board_on_screen() -> None:
    async def test() -> None:
        app = BoardApp(session(6), pace=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, app)
            board_on_screen(app)
            shot(app, "board-120x40")
            await pilot.resize_terminal(*SMALL)
            await pilot.pause()
            assert tuple(app.size) == SMALL
            board_on_screen(app)
            shot(app, "board-resized-80x24")

    run(test)


def test_colours_say_whose_and_no_color_turns_them_off(monkeypatch: pytest.MonkeyPatch) -> None:
    rebel_orange = "#ff8700"

    async def screenshot() -> str:
        app = BoardApp(session(6), pace=0)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot, app)
            return app.export_screenshot()

    coloured = asyncio.run(screenshot())
    monkeypatch.setenv("NO_COLOR", "1")
    plain = asyncio.run(screenshot())
    assert rebel_orange in coloured.lower()
    assert rebel_orange not in plain.lower()


# --- saves -------------------------------------------------------------------------------------


def saved_actions(path: Path) -> list[int]:
    """The actions of the game saved at ``path``, replayed."""
    return list(replay(load_record(path)).history or [])


def play_args(*words: str) -> Any:
    return cli.build_parser().parse_args(["play", *words])


def test_leaving_saves_and_resume_goes_on_on_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    async def leave_after(opened: Any, answers: int) -> Stop | None:
        app = BoardApp(opened.terminal, pace=0, resumed=opened.resumed)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot, app)
            for _ in range(answers):
                await pilot.press("enter")
                await settle(pilot, app)
                if app.state == "asking":
                    await pilot.press("y")
                    await settle(pilot, app)
            if opened.resumed:
                assert "Resumed on turn" in app.log_text()
            await pilot.press("q")
        return app.return_value

    console = make_console()
    opened = open_game(play_args("--opponent", "heuristic", "--seed", "8"), None, console)
    assert not isinstance(opened, int)
    assert asyncio.run(leave_after(opened, 5)) == Stop.QUIT
    assert keep(opened, Stop.QUIT, console) == 0
    history = list(opened.terminal.game.history or [])
    saved = unfinished_games()
    assert len(saved) == 1 and saved_actions(saved[0].path) == history
    assert "To go on with it, run" in capsys.readouterr().out

    again = open_game(play_args("--resume"), None, console)
    assert not isinstance(again, int) and again.resumed
    assert list(again.terminal.game.history or []) == history
    assert asyncio.run(leave_after(again, 3)) == Stop.QUIT
    assert keep(again, Stop.QUIT, console) == 0
    actions = saved_actions(saved[0].path)
    assert actions[: len(history)] == history and len(actions) > len(history)


def test_ctrl_c_while_the_computer_thinks_saves_the_game() -> None:
    """The computer is held thinking (its job waits); Ctrl-C leaves at once, the game is
    saved at its last whole decision, and the computer's late answer changes nothing."""
    release = threading.Event()

    async def test(opened: Any) -> Stop | None:
        s = opened.terminal
        real_job = s.computer_job

        def held_job(legal: list[int]) -> Callable[[], int]:
            job = real_job(legal)

            def slow() -> int:
                release.wait()
                return job()

            return slow

        s.computer_job = held_job
        app = BoardApp(s, pace=0)
        async with app.run_test(size=SMALL) as pilot:
            await settle(pilot, app)
            while app.state != "thinking":
                await pilot.press("enter")
                for _ in range(WAITS):
                    if app.state in ("choosing", "asking", "thinking"):
                        break
                    await pilot.pause(0.002)
                if app.state == "asking":
                    await pilot.press("y")
                    await pilot.pause()
            shot(app, "board-computer-thinking")
            assert "thinking" in str(app.query_one("#status").render())
            await pilot.press("ctrl+c")
        return app.return_value

    console = make_console()
    opened = open_game(play_args("--opponent", "heuristic", "--seed", "9"), None, console)
    assert not isinstance(opened, int)
    assert asyncio.run(test(opened)) == Stop.INTERRUPTED
    history = list(opened.terminal.game.history or [])
    assert keep(opened, Stop.INTERRUPTED, console) == 0
    release.set()  # the computer answers now, to an app that has closed
    assert list(opened.terminal.game.history or []) == history
    assert saved_actions(opened.save) == history
    assert opened.terminal.game.to_move == 1 - opened.terminal.person  # the computer's turn


# --- which mode --------------------------------------------------------------------------------


def test_the_board_only_on_a_terminal_and_never_with_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    class Tty:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setattr(sys, "stdin", Tty(True))
    monkeypatch.setattr(sys, "stdout", Tty(True))
    assert full_screen(play_args())
    assert not full_screen(play_args("--plain"))
    monkeypatch.setenv("TERM", "dumb")
    assert not full_screen(play_args())
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setattr(sys, "stdout", Tty(False))  # output to a pipe
    assert not full_screen(play_args())
    monkeypatch.setattr(sys, "stdout", Tty(True))
    monkeypatch.setattr(sys, "stdin", Tty(False))  # input from a pipe
    assert not full_screen(play_args())


def test_pace_must_be_a_sensible_number_of_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    assert play_args("--pace", "0").pace == 0
    assert play_args("--pace", "1.5").pace == 1.5
    for bad in ("-1", "11", "soon"):
        with pytest.raises(SystemExit):
            play_args("--pace", bad)
    assert "seconds from 0 to 10" in capsys.readouterr().err


# --- in a real terminal ------------------------------------------------------------------------


def test_the_board_in_a_pseudo_terminal_saves_on_ctrl_c_and_exits_0(tmp_path: Path) -> None:
    """``rebelspace play`` on a terminal (pexpect's, 80×24) is the board, not the line mode;
    Ctrl-C there saves the game, prints where and how to go on, and exits 0."""
    import os

    pexpect = pytest.importorskip("pexpect")
    # Not started by make (make test sets MAKELEVEL, and the advice would name `make play`).
    dropped = ("COLUMNS", "LINES", "NO_COLOR", "MAKELEVEL", "MAKEFLAGS", "MFLAGS")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(TERM="xterm-256color")
    if "PYTHONPATH" in env:  # this tree's sources, from the spawned process's folder too
        env["PYTHONPATH"] = os.pathsep.join(
            str(Path(p).resolve()) for p in env["PYTHONPATH"].split(os.pathsep)
        )
    args = ["play", "--opponent", "heuristic", "--seed", "3", "--new", "--pace", "0"]
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rebelspace.cli", *args],
        cwd=str(tmp_path),
        env=env,
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=120,
    )
    child.expect("Your move")  # the choices' title on the board
    child.expect("save & quit")  # the footer
    child.send("\r")  # plays the highlighted choice, the first
    child.expect("your turn, (attack|deploy) phase")  # the status line, past the draw
    child.send("\x03")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and child.signalstatus is None
    assert "Game saved in" in child.before and "--resume" in child.before
    (saved,) = unfinished_games()
    assert saved.actions >= 1


def test_after_a_game_on_the_board_the_analyse_command_is_printed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The board offers no analysis itself (it would hold the board for a minute): when it
    closes after a finished game, the command that analyses the game's file is printed on a
    line of its own, and it is one the CLI takes."""
    import shlex

    from rebelspace.terminal.launch import Opened

    rng = random.Random(2)
    game = new_game(2)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()), player=game.to_move)
    s = TerminalGame(game, REBEL, Opponent("random", "normal", 2), plies=[])
    for board in (False, True):
        save = tmp_path / f"board-{board}.json"
        assert keep(Opened(s, save, True, False, board), Stop.FINISHED, make_console()) == 0
        out = capsys.readouterr().out
        assert ("To analyse your moves, run" in out) == board
    command = out.splitlines()[-1].strip()
    words = shlex.split(command)
    analyse = words.index("analyse")
    args = cli.build_parser().parse_args(words[analyse:])
    assert Path(args.record) == save and args.side == "rebel"
