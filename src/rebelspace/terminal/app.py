"""The full-screen terminal game (``rebelspace play`` on a terminal), built on Textual.

Over 500 lines: a Textual App is one class whose widgets, bindings and handlers refer to each
other; the drawing lives in show.py and the game loop in session.py already.

A view over the same ``TerminalGame`` the line mode plays (``session``): the same numbered
choices that stay put (``Keys``), the same answers typed (``resolve``), commands, undo, hint,
saving before each question and the same computer; this module only draws the board and
turns keys into those calls. The board stays put: the opponent's zones, the battle, yours and
your choices on the left; the card of the highlighted choice and the log on the right; keys
in the footer.

The computer and the hint think on a thread of their own (``computer_job``, ``hint_job``:
they read a view taken before they start, never the game as it changes), so the board stays
live and Ctrl-C or q leave at once: the game is left at its last whole decision, a late
answer from the thread is dropped, and the caller saves the game (``launch.keep``). The
computer's moves are played on the board one at a time, ``pace`` seconds apart (p changes
it). Textual turns colour off under ``NO_COLOR`` by itself.
"""

from __future__ import annotations

import contextlib
import io
import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar, TypeVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from rebelspace.engine import PLAYER_NAMES
from rebelspace.position_text import battle_lines

from . import show
from .cards import card_lines
from .commands import HELP, QUIT_WORDS, did_you_mean, ending_question
from .session import Question, Stop, TerminalGame

T = TypeVar("T")

#: The paces p steps through: seconds between the computer's moves on the board.
PACES = (0.0, 0.4, 0.8, 1.6)
DEFAULT_PACE = 0.8
#: ``group 1 (space):`` in ``battle_lines``, shortened to ``1 space:`` on the board.
GROUP_HEAD = re.compile(r"^group ([0-9]+) \((ground|space)\):")
RATINGS = re.compile(r" \([0-9]+/[0-9]+/[0-9]+\)")
SIDE_COLOURS = ("#ff8700", "#00afff")  # Rebel, Imperial: show.STYLES' dark_orange, sky blue

#: The keys of the board, for the help screen (the footer shows them too).
KEYS = [
    ("↑ ↓, 1 2 …", "pick a choice (its number); Enter or a click plays it"),
    (":", "type a choice's text or a command (card NAME, why TEXT, rules TOPIC …)"),
    ("h", "hint: what the computer would play now, and why (its choice highlighted)"),
    ("u", "undo your last decision (not across a card you were shown)"),
    ("r", "the rules"),
    ("p", "the pace of the computer's moves"),
    ("q, Ctrl-C", "save the game and leave; the next game offers to resume it"),
    ("?", "this help"),
]


class YesNo(ModalScreen[bool]):
    """A yes-or-no question: y or n (Escape is no)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question.removesuffix(" [y/n]")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.question))
            yield Static(Text("y: yes · n: no", style="bold"))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class Reading(ModalScreen[None]):
    """Something to read (the rules, the help, the result): arrows and PgUp/PgDn scroll,
    Escape, q or Enter close it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter", "close", "close"),
    ]

    def __init__(self, title: str, body: RenderableType, *, short: bool = False) -> None:
        super().__init__()
        self.title_text, self.body, self.short = title, body, short

    def compose(self) -> ComposeResult:
        scroll = VerticalScroll(Static(self.body), id="reading", classes="short" * self.short)
        scroll.border_title = self.title_text
        scroll.border_subtitle = "Esc: close"
        yield scroll

    def action_close(self) -> None:
        self.dismiss(None)


class BoardApp(App[Stop]):
    """The game on a board. ``run()`` returns how it ended; the game is ``session.game``."""

    TITLE = "Rebel Space"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $panel; text-style: bold; padding: 0 1; }
    #main { height: 1fr; }
    #left { width: 1fr; }
    #right { width: 32%; min-width: 26; }
    .pane { height: auto; padding: 0 0 0 1; scrollbar-size-vertical: 1; }
    #opponent-pane { max-height: 28%; }
    #you-pane { max-height: 34%; }
    #battle-pane { max-height: 24%; border-left: thick yellow; }
    #left.fighting #opponent-pane { max-height: 22%; }
    #left.fighting #you-pane { max-height: 26%; }
    #left.fighting #battle-pane { max-height: 34%; }
    #choices { height: 1fr; min-height: 4; border: none; border-top: solid $accent;
               padding: 0 0; }
    #details { height: auto; max-height: 11; padding: 0 1; border-top: solid $secondary; }
    #log { height: 1fr; border-top: solid $secondary; padding: 0 0 0 1; overflow-x: hidden; }
    #command { dock: bottom; display: none; }
    YesNo, Reading { align: center middle; }
    #dialog { width: 60; max-width: 90%; height: auto; border: thick $warning;
              background: $surface; padding: 1 2; }
    #reading { width: 90%; height: 90%; border: thick $accent; background: $surface;
               padding: 0 1; }
    #reading.short { width: 64; max-width: 90%; height: auto; max-height: 90%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "hint"),
        Binding("u", "undo", "undo"),
        Binding("r", "rules", "rules"),
        Binding("colon", "command", "type"),
        Binding("p", "pace", "pace"),
        Binding("question_mark", "help", "help", key_display="?"),
        Binding("q", "leave", "save & quit"),
        Binding("ctrl+c", "interrupt", "save & quit", show=False, priority=True),
    ]

    def __init__(
        self,
        session: TerminalGame,
        *,
        pace: float = DEFAULT_PACE,
        resumed: bool = False,
        saved: Path | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.saved = saved  # the game's file (the caller prints how to analyse it)
        session.board = True  # the board shows the table: the log gets what happened
        session.echo = self._say
        self.pace = pace
        self.resumed = resumed
        #: What the app waits for: "start", "choosing", "thinking" (the computer), "pacing"
        #: (between the computer's moves), "asking" (a yes-or-no), "over".
        self.state = "start"
        self.question: Question | None = None
        self.hinting = False
        #: Bumped whenever a thread's answer would come too late (undo, leaving): a thread
        #: started in an older generation is ignored.
        self.generation = 0
        self.digits = ""  # the choice number typed so far
        self.said: list[RenderableType] = []  # everything logged (tests read it)

    # --- layout

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                # Each part in a pane that scrolls when it holds more than its share of the
                # screen (a long battle at 80×24), so the choices below always keep theirs.
                for part in ("opponent", "battle", "you"):
                    with VerticalScroll(id=f"{part}-pane", classes="pane"):
                        yield Static(id=part)
                yield OptionList(id="choices")
            with Vertical(id="right"):
                yield Static(id="details")
                yield RichLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
        yield Input(id="command", placeholder="a choice's number or text, or a command")
        yield Footer()

    def on_mount(self) -> None:
        s = self.session
        you = s.person
        self.query_one("#opponent-pane").styles.border_left = ("thick", SIDE_COLOURS[s.other])
        self.query_one("#you-pane").styles.border_left = ("thick", SIDE_COLOURS[you])
        self.query_one("#choices").border_title = "Your move"
        self.query_one("#details").border_title = "Card"
        self.query_one("#log").border_title = "Log"
        self.query_one("#details", Static).update(Text("The highlighted choice's card.", "dim"))
        # Made once before the game, as the line mode does: the computer's modules are
        # imported now, not on the thread of its first decision.
        s.opponent.agent(s.game.ctx, 0)
        head = Text("You play ")
        head.append(PLAYER_NAMES[you], style=show.STYLES[you])
        head.append(f" against the computer ({s.opponent.label}). Game seed {s.game.seed}.")
        self._say(head)
        if self.resumed:
            assert s.game.history is not None
            self._say(Text(f"Resumed on turn {s.game.turn} after {len(s.game.history)} actions."))
        else:
            s.pending.extend(s.game.visible_events(you))
        self._say(Text("Arrows or a number pick a choice, Enter plays it; ? lists the keys."))
        self.call_after_refresh(self._advance)

    def _say(self, thing: RenderableType) -> None:
        self.said.append(thing)
        self.query_one("#log", RichLog).write(thing)

    # --- the game going on

    def _advance(self) -> None:
        """Play on until the person has a real choice, the computer has to think, or the
        game is over; forced moves play themselves (the log says what they did)."""
        s = self.session
        while True:
            s.flush()
            self._draw()
            if s.game.to_move < 0:
                self._over()
                return
            legal = s.game.legal_actions()
            if s.game.to_move == s.other:
                if len(legal) > 1:
                    self._think(legal)
                    return
                s.apply(legal[0], s.other)
            elif len(legal) == 1 and not s.confirm_forced:
                s.apply(legal[0], s.person)
            else:
                self._ask()
                return

    def _think(self, legal: list[int]) -> None:
        self.state = "thinking"
        self._status()
        self._in_thread(self.session.computer_job(legal), self._computed)

    def _in_thread(self, job: Callable[[], T], then: Callable[[T], None]) -> None:
        """Run ``job`` on a thread of its own (daemon: leaving never waits for it) and
        ``then`` with its answer on the app's thread, unless the app moved on meanwhile."""
        generation = self.generation

        def done(answer: T) -> None:
            if generation == self.generation:
                then(answer)

        def failed(exc: Exception) -> None:
            raise exc  # on the app's thread: Textual shows it and closes; the game is saved

        def run() -> None:
            try:
                answer = job()
            except Exception as exc:
                self._from_thread(generation, failed, exc)
                return
            self._from_thread(generation, done, answer)

        threading.Thread(target=run, name="rebelspace-think", daemon=True).start()

    def _from_thread(self, generation: int, call: Callable[[T], None], arg: T) -> None:
        """``call(arg)`` on the app's thread, unless the app has moved on or closed."""
        if generation != self.generation or not self.is_running:
            return  # left meanwhile (q, Ctrl-C, undo): nothing waits for the answer
        # RuntimeError: the app closed between the check and the call.
        with contextlib.suppress(RuntimeError):
            self.call_from_thread(call, arg)

    def _computed(self, action: int) -> None:
        s = self.session
        s.apply(action, s.other)
        if self.pace <= 0:
            self._advance()
            return
        # The computer's move on the board, then the next one after the pace's pause.
        self.state = "pacing"
        s.flush()
        self._draw()
        generation = self.generation
        self.set_timer(
            self.pace, lambda: self._advance() if generation == self.generation else None
        )

    def _ask(self) -> None:
        s = self.session
        question = s.question()
        self.question, self.state, self.digits = question, "choosing", ""
        if s.autosave is not None and s.game.history:
            s.autosave()
        choices = self.query_one("#choices", OptionList)
        choices.clear_options()
        choices.add_options(
            [
                Option(f"{n}. {show.choice_text(action, s.db)}", id=str(action.id))
                for n, action in zip(question.numbers, question.view.legal_actions, strict=True)
            ]
        )
        choices.highlighted = 0
        choices.border_title = self._move_title(question)
        if not self.query_one("#command", Input).display:
            choices.focus()
        self._status()

    def _move_title(self, question: Question) -> str:
        view = question.view
        where = view.phase.value + (f", {view.step}" if view.step.value != view.phase.value else "")
        points = view.deploy_points
        left = "" if points is None else f", {points} point{'s' if points != 1 else ''} left"
        return f"Your move: {where}{left}"

    def _choose(self, action: int) -> None:
        """Play ``action`` for the person; first ask when it ends a phase with cards left."""
        s, question = self.session, self.question
        if self.state != "choosing" or question is None or action not in question.by_id:
            return
        asking = ending_question(question.view, question.by_id[action])
        if not s.ask_before_ending or asking is None:
            self._play(action)
            return
        self.state = "asking"

        def answered(yes: bool | None) -> None:
            self.state = "choosing"
            if yes:
                self._play(action)

        self.push_screen(YesNo(asking), answered)

    def _play(self, action: int) -> None:
        s = self.session
        self.state = "busy"
        self.query_one("#choices", OptionList).clear_options()
        s.apply(action, s.person)
        self._advance()

    def _over(self) -> None:
        s = self.session
        self.state = "over"
        self.query_one("#choices", OptionList).clear_options()
        s.say_result()
        outcome = s.game.outcome
        assert outcome is not None
        won = outcome.winner == s.person
        body = Group(
            Text("You win!" if won else "You lose.", style="bold green" if won else "bold red"),
            Text(f"{outcome.winner_name} wins on turn {s.game.turn} ({outcome.reason})."),
            Text(
                "Enter or q: leave. The game record is saved; the command that analyses "
                "your moves is printed when the board closes."
                if self.saved is not None
                else "Enter or q: leave.",
                style="dim",
            ),
        )
        self._status()
        self.push_screen(Reading("Game over", body, short=True), lambda _: self.exit(Stop.FINISHED))

    # --- the board

    def _draw(self) -> None:
        s = self.session
        view = s.game.view(s.person)
        opponent = f"{view.opponent.player.capitalize()} (computer)"
        theirs: list[RenderableType] = show.side_block(view.opponent, opponent, None, s.db)
        # What Spies showed, while it is news: on the turn it was shown and the next.
        for turn, hand in view.revealed_hands[-1:]:
            if turn >= view.turn - 1:
                seen = ", ".join(hand) or "no cards"
                theirs.append(show.labelled([(f"hand on turn {turn}:", seen)], indent=2))
        self.query_one("#opponent", Static).update(Group(*theirs))
        yours = show.side_block(view.you, f"{view.player.capitalize()} (you)", None, s.db)
        self.query_one("#you", Static).update(Group(*yours))
        self.query_one("#battle-pane").display = view.battle is not None
        if view.battle is not None:
            # A line a group, as short as it reads ("1 space: Bombers ×2 = 2; unblocked,
            # damage 4"): the group's value, not each unit's ratings (the zones have those).
            head, *rows = battle_lines(view.battle, view.active_player, view.step, grouped=True)
            attacker = show.side_style(view.active_player)
            lines = [Text(RATINGS.sub("", GROUP_HEAD.sub(r"\1 \2:", row.strip()))) for row in rows]
            self.query_one("#battle", Static).update(Group(Text(head, style=attacker), *lines))
        # In a battle, the battle gets the room the zones can spare.
        self.query_one("#left").set_class(view.battle is not None, "fighting")
        self._status()

    def _status(self) -> None:
        s = self.session
        view = s.game.view(s.person)
        if s.game.is_over:
            line = Text(f"Turn {view.turn}: game over")
        else:
            whose = "your" if view.active_player == view.player else "the computer's"
            line = Text(f"Turn {view.turn}: {whose} turn, {view.phase} phase")
            if view.deploy_points is not None:
                line.append(f" · {view.deploy_points} deploy points")
        if self.state in ("thinking", "pacing"):
            line.append("  the computer is thinking…" if self.state == "thinking" else "")
        if self.hinting:
            line.append("  thinking of a hint…", style="italic")
        line.append(f"  pace {self.pace:g} s", style="dim")
        self.query_one("#status", Static).update(line)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        question = self.question
        if question is None or event.option.id is None:
            return
        action = question.by_id.get(int(event.option.id))
        details = self.query_one("#details", Static)
        if action is None or action.card is None:
            text = action.text if action is not None else ""
            details.update(Text(f"{text!r} plays no card.", style="dim"))
            return
        lines = card_lines(self.session.db.by_name(action.card))
        details.update(Group(*(Text(line) for line in lines)))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self._choose(int(event.option.id))

    def on_key(self, event: events.Key) -> None:
        """A digit picks the choice with that number (two digits for 10 and up)."""
        if self.state != "choosing" or self.question is None or not event.character:
            return
        if not event.character.isdigit() or self.screen is not self.screen_stack[0]:
            self.digits = ""
            return
        if self.query_one("#command", Input).has_focus:
            return
        event.stop()
        numbers = self.question.numbers
        typed = self.digits + event.character
        if not any(str(n).startswith(typed) for n in numbers):
            typed = event.character
        self.digits = typed
        if typed.isdigit() and int(typed) in numbers:
            choices = self.query_one("#choices", OptionList)
            choices.highlighted = numbers.index(int(typed))
            choices.focus()

    # --- keys

    def action_hint(self) -> None:
        if self.state != "choosing" or self.hinting:
            self.notify("A hint is for your own decisions.", severity="warning")
            return
        self.hinting = True
        self._status()

        def hinted(answer: tuple[list[str], int]) -> None:
            lines, action = answer
            self.hinting = False
            self._status()
            for line in lines:
                self._say(Text(line, style="green" if line.startswith("Hint:") else ""))
            # The recommended choice highlighted, so Enter plays it.
            question = self.question
            if self.state == "choosing" and question is not None:
                ids = [a for a, _ in question.legal]
                if action in ids:
                    self.query_one("#choices", OptionList).highlighted = ids.index(action)

        self._in_thread(self.session.hint_job(), hinted)

    def action_undo(self) -> None:
        if self.state != "choosing":
            self.notify("Undo when it is your decision.", severity="warning")
            return
        if self.session.undo():
            self.generation += 1  # a hint asked before the undo is for another decision
            self.hinting = False
            self._advance()

    def action_rules(self) -> None:
        from rich.markdown import Markdown

        from rebelspace.rules_doc import RulesNotFoundError, rules_text

        try:
            body: RenderableType = Markdown(rules_text())
        except RulesNotFoundError as exc:
            body = Text(str(exc))
        self.push_screen(Reading("Rules", body))

    def action_help(self) -> None:
        table = Table(box=None, show_header=False, pad_edge=False)
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, what in KEYS:
            table.add_row(key, what)
        typed = Table(box=None, show_header=False, pad_edge=False, title="Typed after :")
        typed.add_column(style="bold", no_wrap=True)
        typed.add_column()
        for word, what in HELP:
            typed.add_row(word, what)
        self.push_screen(Reading("Keys", Group(table, Text(""), typed)))

    def action_pace(self) -> None:
        later = [p for p in PACES if p > self.pace]
        self.pace = later[0] if later else PACES[0]
        self._status()

    def action_command(self) -> None:
        command = self.query_one("#command", Input)
        command.display = True
        command.value = ""
        command.focus()

    def action_leave(self) -> None:
        self._leave(Stop.FINISHED if self.state == "over" else Stop.QUIT)

    def action_interrupt(self) -> None:
        self._leave(Stop.FINISHED if self.state == "over" else Stop.INTERRUPTED)

    def _leave(self, why: Stop) -> None:
        self.generation += 1  # the computer's late answer is dropped: the game stays whole
        self.exit(why)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        command = self.query_one("#command", Input)
        command.display = False
        self.query_one("#choices", OptionList).focus()
        self.answer(event.value)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget is self.query_one("#command", Input):
            event.widget.display = False

    def answer(self, typed: str) -> None:
        """A typed answer, as in the line mode: a choice's number or text, or a command."""
        s = self.session
        word, _, rest = typed.strip().partition(" ")
        word = word.lower()
        if word in QUIT_WORDS and not rest:
            self.action_leave()
            return
        if word in ("undo", "hint") and not rest:
            (self.action_undo if word == "undo" else self.action_hint)()
            return
        question = self.question
        if self.state != "choosing" or question is None:
            self.notify("Wait for your decision.", severity="warning")
            return
        if not word:
            if len(question.legal) == 1:
                self._choose(question.legal[0][0])
            return
        if s.command(question.view, word, rest):
            return
        action, problem = s.resolve(question, typed)
        if action is None:
            self._say(Text(f"Not understood: {problem}{did_you_mean(word)}", style="red"))
            return
        self._choose(action)

    # --- for tests

    def log_text(self) -> str:
        """The log so far as plain text, a line an entry (not wrapped)."""
        from rich.console import Console

        console = Console(width=1000, record=True, file=io.StringIO(), color_system=None)
        for thing in self.said:
            console.print(thing)
        return console.export_text()

    def choice_texts(self) -> Sequence[str]:
        question = self.question
        return [] if question is None else [text for _, text in question.legal]


def run_app(
    session: TerminalGame,
    *,
    pace: float = DEFAULT_PACE,
    resumed: bool = False,
    saved: Path | None = None,
) -> Stop:
    """Play ``session`` full-screen; how it ended (a crash of the app counts as leaving: the
    game, whole at its last decision, is saved by the caller all the same)."""
    result = BoardApp(session, pace=pace, resumed=resumed, saved=saved).run()
    return result if result is not None else Stop.QUIT
