"""The terminal game's loop: a person plays one side against the computer.

Over 500 lines: the line-mode game loop, its commands (hint, undo, save, rules) and its prompts
share one TerminalGame object; drawing is in show.py.

The person sees only their own view (R5) and the events they may see; the computer gets its
own view. The table is shown when it changed under the person (at the start of their turn and
after the computer's moves) and on ``table``; each decision is one question with numbered
choices. A decision with one legal action plays itself (``confirm_forced`` asks instead).

The computer is rebuilt for each decision with a seed derived from the game's computer seed
and the decision's ply, so a resumed game or an undone decision asks the same question and
gets the same answer (ISMCTS with a time cap may stop early on a busy machine: then only its
iteration budget, not its answer, is the same).

Stopping: ``q``, end of input (Ctrl-D) and Ctrl-C (also while the computer thinks) end
``play`` with a ``Stop`` value and the game left at its last whole decision, so the caller can
save it; ``undo`` takes back the person's last decision unless a card was shown to them since
(``engine.reveals``, the server's rule).
"""

from __future__ import annotations

import re
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, NamedTuple

from rich.console import Console, RenderableType
from rich.text import Text

from rebelspace.agents import Agent
from rebelspace.agents.advice import ANALYSIS_AGENT, HINT_AGENT
from rebelspace.agents.registry import EXPERIMENTAL_LEVELS, EXPERIMENTAL_NOTE, LEVEL_NAMES
from rebelspace.engine import (
    PLAYER_NAMES,
    ActionView,
    CardDB,
    Event,
    GameState,
    PlayerView,
    RulesOptions,
    new_game,
    render_event,
    reveals,
    visible_events,
)
from rebelspace.engine import events as ev

from . import show
from .cards import card_lines, lookup_lines
from .commands import (
    HELP_WORDS,
    PROMPT,
    QUIT_WORDS,
    TABLE_WORDS,
    Keys,
    ask_yes_no,
    did_you_mean,
    ending_question,
    help_table,
    illegal_reason,
    numbers_words,
    resolve_choice,
    rules_answer,
    why,
)

Reader = Callable[[str], str]

#: Events the battle says (``_said_elsewhere``) and, of the person's own, those the choice
#: they typed says (their draw is said by the cards drawn, ``CardsSeen``).
SAID_BY_THE_BATTLE = (
    ev.GroupFormed,
    ev.UnitAdded,
    ev.Attacked,
    ev.Blocked,
    ev.Targeted,
    ev.IonCannonFired,
    ev.BattleResolved,
    ev.GotThrough,
    ev.CasualtyPicked,
    ev.DamageDealt,
)
SAID_BY_YOU = (ev.Drew, ev.NoAttack, ev.Deployed, ev.Attached, ev.TrickPlayed, ev.PsionPlayed)

OPPONENTS = ("random", "heuristic", "ismcts")
LEVELS = LEVEL_NAMES


class Stop(StrEnum):
    """How ``play`` ended."""

    FINISHED = "finished"
    QUIT = "quit"  # q
    EOF = "eof"  # end of input, Ctrl-D
    INTERRUPTED = "interrupted"  # Ctrl-C


class _Stopped(Exception):
    def __init__(self, why: Stop) -> None:
        self.why = why


@dataclass(frozen=True, slots=True)
class Opponent:
    """The computer: its kind, its ISMCTS level (a level name or a number of iterations) and
    the seed its per-decision seeds derive from."""

    kind: str
    level: str
    seed: int

    @property
    def spec(self) -> str:
        """The agent registry's name (``rebelspace.agents.registry``)."""
        return f"ismcts:{self.level}" if self.kind == "ismcts" else self.kind

    @property
    def label(self) -> str:
        """``ISMCTS, normal level, Elo 1759 (1692-1842)``, ``heuristic`` or ``random``."""
        from .levels import strength

        if self.kind != "ismcts":
            return self.kind
        if self.level.isdigit():
            return f"ISMCTS, {self.level} iterations a decision"
        note = f" ({EXPERIMENTAL_NOTE})" if self.level in EXPERIMENTAL_LEVELS else ""
        measured = strength(self.level)
        return f"ISMCTS, {self.level} level{note}" + (f", {measured}" if measured else "")

    def agent(self, ctx: Any, ply: int) -> Agent:
        """The computer for the decision at ``ply`` (actions applied before it)."""
        from rebelspace.agents.registry import make_agent
        from rebelspace.seeds import OPPONENT_PLY, agent_seed

        return make_agent(self.spec, ctx, agent_seed(self.seed, OPPONENT_PLY + ply))

    def to_meta(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "seed": self.seed}

    @classmethod
    def from_meta(cls, data: Any) -> Opponent | None:
        """The opponent a record's ``meta`` names, or None when it names none (or not well)."""
        if not isinstance(data, dict):
            return None
        kind, level, seed = data.get("kind"), data.get("level"), data.get("seed")
        if kind not in OPPONENTS or not isinstance(level, str) or type(seed) is not int:
            return None
        if level not in LEVELS and not (level.isascii() and level.isdigit()):
            return None
        return cls(kind, level, seed)


class Question(NamedTuple):
    """The person's choices at a decision: the view (its legal actions in the order of their
    numbers), the actions by id, ``(id, text)`` and the numbers, in that order."""

    view: PlayerView
    by_id: dict[int, ActionView]
    legal: list[tuple[int, str]]
    numbers: list[int]


class Ply(NamedTuple):
    """One applied action: who decided, whether it was their only choice, and whom it showed
    a hidden card (Rebel, Imperial; ``engine.reveals``)."""

    seat: int
    forced: bool
    shown: tuple[bool, bool]


def rebuild(
    seed: int, options: RulesOptions, cards: CardDB, actions: Sequence[int]
) -> tuple[GameState, list[Ply]]:
    """The game after ``actions``, with what each of them was (for undo)."""
    game = new_game(seed, options=options, cards=cards)
    plies = []
    for action in actions:
        seat = game.to_move
        forced = len(game.legal_actions()) == 1
        plies.append(Ply(seat, forced, reveals(game.apply(action, player=seat))))
    return game, plies


@contextmanager
def _whole() -> Iterator[None]:
    """Ctrl-C waits until the block is over: the game never stops half-way through an
    action."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
        if caught:
            raise KeyboardInterrupt


@contextmanager
def ctrl_c_ignored() -> Iterator[None]:
    """Ctrl-C does nothing in the block: once the game has stopped at a whole decision, a
    second Ctrl-C (pressed again because quitting seemed slow) must not lose its save."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def make_console() -> Console:
    """Rich's console on stdout: the terminal's width and colours, plain text in a pipe. Text
    is never read as markup ("[Laser Sword]" is an attachment, not a style)."""
    return Console(markup=False, highlight=False, emoji=False)


class TerminalGame:
    """One game at the terminal. ``play()`` runs it; ``game`` and ``meta()`` make its record."""

    def __init__(
        self,
        game: GameState,
        person: int,
        opponent: Opponent,
        *,
        plies: list[Ply] | None = None,
        read: Reader = input,
        console: Console | None = None,
        confirm_forced: bool = False,
        ask_before_ending: bool = True,
        hint_agent: str = HINT_AGENT,
        offer_analysis: bool = True,
    ) -> None:
        self.game = game
        self.person = person
        self.other = 1 - person
        self.opponent = opponent
        if plies is None:
            assert game.history is not None and not game.history, "pass the plies of a game"
            plies = []
        self.plies = plies
        self.read = read
        self.console = console if console is not None else make_console()
        self.confirm_forced = confirm_forced
        self.ask_before_ending = ask_before_ending
        self.keys = Keys()
        self.shown: list[tuple[int, int, str]] = []  # the choices last shown: number, id, text
        self.hint_agent = hint_agent
        self.offer_analysis = offer_analysis
        self.db: CardDB = game.cards
        self.names = game.ctx.tables.names
        self.pending: list[Event] = []
        #: The log lines of one player's consecutive moves, said as one line when something
        #: else is said (``flush``).
        self.run = show.LogRun()
        #: Cards whose cost and ratings were said since the table was last shown.
        self.briefed: set[str] = set()
        self.book = show.BattleBook(person)
        self.table_due = True
        self.battle_shown: str | None = None  # the battle as last shown, and in which step
        self.battle_step: str | None = None
        self.rows_shown: dict[str, str] = {}  # the table's rows as last shown
        self.asked = False  # the first question says how to answer; the others need not
        self.thinking_said = False
        #: Called before each of the person's questions, to save the game as it goes.
        self.autosave: Callable[[], None] | None = None
        #: Where ``out`` sends what it says instead of the console (the full-screen app's
        #: log pane, ``terminal.app``).
        self.echo: Callable[[RenderableType], None] | None = None
        #: True when a board on screen shows the table and the battle as they are (the app):
        #: then they are not printed as they change, only the log's lines and battle results.
        self.board = False

    def meta(self) -> dict[str, Any]:
        """What a record needs beyond the engine's to go on with this game (``--resume``), and
        the turn it was saved on (for the offer to resume it)."""
        return {
            "side": PLAYER_NAMES[self.person].lower(),
            "computer": self.opponent.to_meta(),
            "turn": self.game.turn,
        }

    def out(self, *things: RenderableType | str) -> None:
        self.say_run()
        for thing in things:
            shown = Text(thing) if isinstance(thing, str) else thing
            if self.echo is not None:
                self.echo(shown)
            else:
                self.console.print(shown)

    # --- the loop

    def play(self, *, resumed: bool = False) -> Stop:
        """Play to the end or until the person stops; the game is left at a whole decision."""
        try:
            # Made once before the game so that the computer's modules are imported now: a
            # Ctrl-C during an import runs into class-building eval() calls, and CPython 3.11
            # then exits by SIGINT even though the interrupt is caught (`python -m` only).
            self.opponent.agent(self.game.ctx, 0)
            self._intro(resumed)
            while self.game.to_move >= 0:
                self.flush()
                legal = self.game.legal_actions()
                if self.game.to_move == self.other:
                    self._computer(legal)
                elif len(legal) == 1 and not self.confirm_forced:
                    # Played without a word: what it does, the log and the battle say.
                    self.apply(legal[0], self.person)
                else:
                    action = self._ask()
                    if action is not None:  # None: undone
                        self.apply(action, self.person)
            self.flush()
            self.say_result()
            if self.offer_analysis:
                self._offer_analysis()
            return Stop.FINISHED
        except _Stopped as stop:
            self.out(f"You left the game on turn {self.game.turn}.")
            return stop.why
        except KeyboardInterrupt:
            self.out("")
            self.out(f"You left the game on turn {self.game.turn}.")
            return Stop.INTERRUPTED

    def _intro(self, resumed: bool) -> None:
        side = PLAYER_NAMES[self.person]
        head = Text("Rebel Space: you play ")
        head.append(side, style=show.STYLES[self.person])
        head.append(f". Computer: {self.opponent.label}. Game seed {self.game.seed}.")
        self.out(head)
        if resumed:
            assert self.game.history is not None
            self.out(f"Resumed on turn {self.game.turn} after {len(self.game.history)} actions.")
        else:
            self.pending.extend(self.game.visible_events(self.person))
        self.out("Type a choice's number or text; help or ? lists the other commands.")

    def apply(self, action: int, seat: int) -> None:
        with _whole():
            forced = len(self.game.legal_actions()) == 1
            events = self.game.apply(action, player=seat)
            self.plies.append(Ply(seat, forced, reveals(events)))
            self.pending.extend(visible_events(events, self.person))

    def _computer(self, legal: list[int]) -> None:
        action = legal[0]
        if len(legal) > 1:
            if self.opponent.kind == "ismcts" and not self.thinking_said:
                self.out(Text("Computer is thinking...", style="dim"))
                self.thinking_said = True
            action = self.computer_job(legal)()
        self.apply(action, self.other)

    def computer_job(self, legal: list[int]) -> Callable[[], int]:
        """The computer's decision now, as a job that reads nothing of the game as it goes on
        (the app runs it on a thread of its own while the board stays live)."""
        assert self.game.history is not None
        agent = self.opponent.agent(self.game.ctx, len(self.game.history))
        view = self.game.view(self.other)
        return lambda: agent.act(view, legal)

    def flush(self) -> None:
        """Tell the person what happened, each fact once, and the table when it changed:
        the whole table at the start of their turn, the battle before their decisions in it."""
        for event in self.pending:
            if isinstance(event, ev.Attacked):
                self._battle_table()
            self.book.add(event)
            if isinstance(event, ev.TurnStarted) and event.player == self.person:
                self.say_run()
                self.table_due = True  # its title says whose turn it is
            elif not self._said_elsewhere(event):
                self._log(render_event(event, self.names))
        self.pending.clear()
        if self.game.phase != "attack":
            self._battle_table()
        if self.game.to_move != self.person or self.board:
            return
        if self.table_due:
            self._table()
        elif len(self.game.legal_actions()) > 1 or self.confirm_forced:
            self._battle()  # not for a move that plays itself: the battle's table follows

    def _log(self, text: str) -> None:
        """A log line: on the line of the same player's moves before it, if any."""
        if not self.run.add(text):
            self.say_run()
            self.run.add(text)
        if self.board:  # the board's log pane shows each move as it is played
            self.say_run()

    def say_run(self) -> None:
        """Say the log lines gathered in ``run`` (before anything else is said)."""
        if self.run:
            line = self.run.line()
            self.run.clear()
            self.out(line)

    def _said_elsewhere(self, event: Event) -> bool:
        """Whether another part of the screen says what ``event`` says: the battle (its groups,
        blockers and targets before the person decides, its table with results, casualties
        and the cards discarded once the attack is over), or the choice the person typed."""
        if isinstance(event, SAID_BY_THE_BATTLE):
            return True
        return getattr(event, "player", None) == self.person and isinstance(event, SAID_BY_YOU)

    def _battle(self) -> None:
        """The battle, before the person's decisions in it, when it changed since shown
        (not while they form their own groups: the choices say what they form)."""
        view = self.game.view(self.person)
        if view.battle is None or view.step == "form groups":
            return
        key = show.battle_key(view)
        own = bool(self.plies) and self.plies[-1].seat == self.person
        if key != self.battle_shown and not (own and view.step == self.battle_step):
            self.out(*show.battle(view))  # changed by the computer, or a new step
        self.battle_shown, self.battle_step = key, view.step

    def _battle_table(self) -> None:
        table = self.book.table(self.names, narrow=self.board)
        if table is not None:
            self.out(table)
            self.battle_shown = None

    def _table(self, *, whole: bool = False) -> None:
        """The table; but for ``whole``, without the rows shown last time as they are now."""
        view = self.game.view(self.person)
        rows = show.table_rows(view, self.db)
        same = set() if whole else {k for k, v in rows.items() if self.rows_shown.get(k) == v}
        self.out(*show.table(view, self.db, "computer", same))
        # The cards whose cost and ratings the hand row just gave: the choices need not.
        hand = f"{PLAYER_NAMES[self.person].lower()} hand"
        shown_hand = hand not in same and view.you.hand is not None
        self.briefed = set(view.you.hand or ()) if shown_hand else set()
        self.rows_shown = rows
        self.table_due = False
        self.battle_shown = show.battle_key(view)

    def say_result(self) -> None:
        outcome = self.game.outcome
        assert outcome is not None
        self.out(
            f"Game over on turn {self.game.turn}: {outcome.winner_name} wins ({outcome.reason})."
        )
        self.out(Text("You win!" if outcome.winner == self.person else "You lose.", style="bold"))

    # --- a decision

    def completions(self) -> list[str]:
        """What Tab completes at the prompt: the choices shown, the commands, and card names
        after ``card``."""
        from .commands import COMMAND_WORDS

        names = sorted({card.name for card in self.db})
        return [
            *(text for _, _, text in self.shown),
            *COMMAND_WORDS,
            *(f"card {name}" for name in names),
            *(f"why {text}" for text in self.game.legal_action_texts()),
        ]

    def question(self) -> Question:
        """The person's choices now, numbered to stay put while the step lasts (``Keys``)."""
        view = self.game.view(self.person)
        step = (view.turn, view.active_player, view.phase, view.step)
        numbered = self.keys.number(step, [(a.id, a.text) for a in view.legal_actions])
        by_id = {a.id: a for a in view.legal_actions}
        view = replace(view, legal_actions=tuple(by_id[action] for _, action, _ in numbered))
        self.shown = numbered
        return Question(
            view,
            by_id,
            [(action, text) for _, action, text in numbered],
            [number for number, _, _ in numbered],
        )

    def resolve(self, question: Question, answer: str) -> tuple[int | None, str]:
        """The action a typed answer to ``question`` plays, or None and what was wrong (a
        number whose choice is gone plays nothing)."""
        gone = self.keys.gone(answer, question.numbers)
        if gone:
            return None, gone
        return resolve_choice(
            answer,
            question.legal,
            lambda text: illegal_reason(self.game, self.person, text),
            question.numbers,
        )

    def _ask(self) -> int | None:
        """The person's action, or None after an undo."""
        self.thinking_said = False
        question = self.question()
        view, by_id, legal, numbers = question
        self.out(*show.choices(view, self.db, numbers, hint=not self.asked, known=self.briefed))
        self.briefed.update(a.card for a in view.legal_actions if a.card is not None)
        self.asked = True
        if self.autosave is not None and self.game.history:
            with _whole():
                self.autosave()
        while True:
            try:
                answer = self.read(PROMPT)
            except EOFError:
                self.out("")
                raise _Stopped(Stop.EOF) from None
            word, _, rest = answer.strip().partition(" ")
            word = word.lower()
            if not word and len(legal) == 1:  # Enter takes the only choice
                return legal[0][0]
            if word == "undo" and not rest:
                if self.undo():
                    return None
                continue
            if self.command(view, word, rest):
                continue
            action, problem = self.resolve(question, answer)
            if action is not None and self._sure(view, by_id[action]):
                return action
            if action is None:
                self.out(Text(f"Not understood: {problem}{did_you_mean(word)}", style="red"))

    def _sure(self, view: PlayerView, action: ActionView) -> bool:
        """Whether to play ``action``: yes, unless it ends the deploy phase or the turn with
        cards still playable and the person, asked, says no (``ask_before_ending``)."""
        if not self.ask_before_ending:
            return True
        question = ending_question(view, action)
        if question is None:
            return True
        answer = ask_yes_no(self.read, self.console, question, None)
        if answer is None:
            raise _Stopped(Stop.EOF)
        return answer

    def command(self, view: PlayerView, word: str, rest: str) -> bool:
        """Answer a command other than undo (help, table, a card, the rules...); False when
        the answer is no such command (so perhaps an action)."""
        if word in QUIT_WORDS and not rest:
            raise _Stopped(Stop.QUIT)
        if word in HELP_WORDS and not rest:
            self.out(show.labelled(help_table(), indent=0))
        elif word in TABLE_WORDS and not rest:
            self._table(whole=True)
            self.out(*show.choices(view, self.db, [n for n, _, _ in self.shown]))
        elif re.fullmatch(r"\?[0-9]+", word) and not rest:
            self._choice_card(int(word[1:]))
        elif word == "card":
            self.out(*lookup_lines(self.db, rest))
        elif word == "rules":
            self.out(rules_answer(rest))
        elif word == "why":
            self.out(why(self.game, self.person, rest, self.keys))
        elif word == "hint" and not rest:
            self._hint()
        else:
            return False
        return True

    def _hint(self) -> None:
        """What the computer would play for the person, from the person's view only (R5)."""
        self.out(Text("Thinking...", style="dim"))
        self.out(*self.hint_job()()[0])

    def hint_job(self) -> Callable[[], tuple[list[str], int]]:
        """The hint for the decision now, as a job that reads nothing of the game as it goes
        on (the app runs it on a thread of its own while the board stays live): its lines and
        the action it recommends."""
        from rebelspace.agents.advice import hint
        from rebelspace.seeds import ADVICE, agent_seed

        from .hints import hint_lines

        assert self.game.history is not None
        legal = self.game.legal_actions()  # the engine's order: the hint's seed depends on it
        seed = agent_seed(self.game.seed, ADVICE + len(self.game.history))
        view, ctx, agent = self.game.view(self.person), self.game.ctx, self.hint_agent
        numbers = dict(self.keys.numbers)

        def job() -> tuple[list[str], int]:
            advice = hint(view, legal, ctx, seed, agent)
            return hint_lines(advice, legal, numbers), advice.best.action

        return job

    def _offer_analysis(self) -> None:
        """Offer the analysis of the person's decisions (yes or no; end of input is no)."""
        from rebelspace.engine import to_record

        from .analysis import analysis_lines, run_with_progress

        if not ask_yes_no(self.read, self.console, "Analyse your moves? [y/n]", None):
            return
        side = PLAYER_NAMES[self.person].lower()
        try:
            analysis = run_with_progress(to_record(self.game), side, ANALYSIS_AGENT, self.console)
        except KeyboardInterrupt:
            self.out("Analysis stopped.")
            return
        self.out(*analysis_lines(analysis))

    def _choice_card(self, n: int) -> None:
        """``?N``: the card that choice N plays or names, in full."""
        found = next(((a, t) for k, a, t in self.shown if k == n), None)
        if found is None:
            numbers = [k for k, _, _ in self.shown]
            self.out(f"There is no choice {n}: {numbers_words(numbers)} after ?.")
            return
        card = self.game.view(self.person).legal_actions
        names = [a.card for a in card if a.id == found[0] and a.card is not None]
        if not names:
            self.out(f"Choice {n} ({found[1]!r}) names no card; card NAME shows any card.")
            return
        self.out(*card_lines(self.db.by_name(names[0])))

    # --- undo

    def undo_target(self) -> int | str:
        """The plies to keep to take back the person's last decision, or why not."""
        if self.game.is_over:
            return "the game is over"
        last = next(
            (
                i
                for i in range(len(self.plies) - 1, -1, -1)
                if self.plies[i].seat == self.person
                and (self.confirm_forced or not self.plies[i].forced)
            ),
            None,
        )
        if last is None:
            return "you have made no decision to take back yet"
        assert self.game.history is not None
        for i in range(last, len(self.plies)):
            if self.plies[i].shown[self.person]:
                text = self.game.action_text(self.game.history[i])
                whose = "your" if self.plies[i].seat == self.person else "the computer's"
                return f"undo would take back {whose} {text!r}, which showed you a hidden card"
        return last

    def undo(self) -> bool:
        keep = self.undo_target()
        if isinstance(keep, str):
            self.out(f"Cannot undo: {keep}.")
            return False
        game = self.game
        assert game.history is not None
        history = list(game.history)
        taken = game.action_text(history[keep])
        self.game, self.plies = rebuild(game.seed, game.options, game.cards, history[:keep])
        self.pending.clear()
        self.book = show.BattleBook(self.person)
        later = len(history) - keep - 1
        also = (
            ""
            if not later
            else " and the action after it"
            if later == 1
            else (f" and the {later} actions after it")
        )
        self.out(f"Took back {taken!r}{also}.")
        self.table_due = True
        self.flush()
        return True


def play_game(
    game: GameState,
    person: int,
    opponent: Opponent,
    *,
    read: Reader = input,
    console: Console | None = None,
    confirm_forced: bool = False,
    offer_analysis: bool = False,
) -> Stop:
    """Play a new ``game`` with ``person`` at the terminal (see ``TerminalGame``); a script
    that plays through this gets no analysis offer at the end unless it asks for one."""
    return TerminalGame(
        game,
        person,
        opponent,
        read=read,
        console=console,
        confirm_forced=confirm_forced,
        offer_analysis=offer_analysis,
    ).play()
