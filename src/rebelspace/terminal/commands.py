"""What a player can type besides a choice: help, the table, cards, rules, why, undo, quit;
and how a typed choice becomes an action id."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markdown import Markdown
from rich.text import Text

from rebelspace.engine import ActionError, ActionView, GameState, InvalidActionError, PlayerView

PROMPT = "> "
QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
TABLE_WORDS = frozenset({"t", "table"})
YES_WORDS = frozenset({"y", "yes"})
NO_WORDS = frozenset({"n", "no"})

HELP = [
    ("1, 2 …", "play the choice with that number"),
    ("TEXT", "play the choice with that text, or the one choice it starts"),
    ("t, table", "show the table again"),
    ("?N", "the card of choice N in full (?1, ?2 …)"),
    ("card NAME", "any card in full: type, cost, ratings, keywords, ability"),
    ("rules [TOPIC]", "the rules: a section (blocks, psion, damage …) or a ruling (R19)"),
    ("why TEXT", "why an action is not one of your choices now"),
    ("hint", "what the computer would play now, and why (the battle, the damage race)"),
    ("undo", "take back your last decision (not across a card you were shown)"),
    ("q, Ctrl-D", "save the game and leave (Ctrl-C too); the next game offers to resume it"),
    ("help, ?", "this list"),
]


class Keys:
    """Choice numbers that stay put while a step lasts.

    The first time the person is asked in a step (turn, side, phase and step), the choices
    are numbered 1, 2, ... in the engine's order; later questions of the same step keep each
    choice's number (a choice that is gone leaves its number unused, a new choice gets the
    next one), so an answer typed from the last list never plays another choice.
    """

    def __init__(self) -> None:
        self.step: tuple[object, ...] | None = None
        self.numbers: dict[int, int] = {}  # action id -> its number in this step
        self.texts: dict[int, str] = {}  # number -> the text of the choice it was given to

    def number(
        self, step: tuple[object, ...], legal: Sequence[tuple[int, str]]
    ) -> list[tuple[int, int, str]]:
        """``(number, action id, text)`` for each legal action, by number."""
        if step != self.step:
            self.step, self.numbers, self.texts = step, {}, {}
        for action, text in legal:
            if action not in self.numbers:
                self.numbers[action] = max(self.numbers.values(), default=0) + 1
            self.texts[self.numbers[action]] = text
        return sorted((self.numbers[action], action, text) for action, text in legal)

    def gone(self, answer: str, shown: Sequence[int]) -> str | None:
        """Why ``answer`` is no choice when it is the number of one that is gone, else None."""
        number = answer.strip().rstrip(".")
        if not number.isdigit() or int(number) in shown or int(number) not in self.texts:
            return None
        text = self.texts[int(number)]
        return f"choice {int(number)} ({text!r}) is no longer possible: {numbers_words(shown)}"


def numbers_words(numbers: Sequence[int]) -> str:
    """``type a number from 1 to 4`` or ``type 1, 3 or 4``: the choices' numbers."""
    ordered = sorted(numbers)
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"type a number from {ordered[0]} to {ordered[-1]}"
    return "type " + ", ".join(map(str, ordered[:-1])) + f" or {ordered[-1]}"


def resolve_choice(
    answer: str,
    legal: Sequence[tuple[int, str]],
    why_illegal: Callable[[str], str | None] | None = None,
    numbers: Sequence[int] | None = None,
) -> tuple[int | None, str]:
    """Turn a typed answer into a legal action id, or ``(None, what was wrong)``.

    Accepted: the number shown beside an action (``numbers``, in the order of ``legal``;
    default 1, 2, ...), its text (case and spacing ignored), or the start of exactly one
    action's text. ``why_illegal(text)`` may explain a real action that is not legal now (the
    engine's reason); otherwise a generic message is given.
    """
    text = " ".join(answer.split())
    shown = list(numbers) if numbers is not None else list(range(1, len(legal) + 1))
    typed = numbers_words(shown)
    if not text:
        return None, f"{typed}, an action's text, or help"
    number = text[:-1] if text.endswith(".") else text
    if number.lstrip("+-").isdigit():
        k = int(number)
        if k in shown:
            return legal[shown.index(k)][0], ""
        return None, f"{k} is not one of the choices: {typed}"
    key = text.lower()
    for action_id, action_text in legal:
        if action_text.lower() == key:
            return action_id, ""
    starts = [(k, t) for k, (_, t) in zip(shown, legal, strict=True) if t.lower().startswith(key)]
    if len(starts) == 1:
        return legal[shown.index(starts[0][0])][0], ""
    if starts:
        options = "; ".join(f"{k}. {t}" for k, t in starts)
        return None, f"{text!r} could be any of: {options}. Type more of it, or its number"
    reason = why_illegal(text) if why_illegal is not None else None
    if reason:
        return None, reason
    return None, f"{text!r} is not one of the choices: {typed} or its text"


def illegal_reason(game: GameState, player: int, text: str) -> str | None:
    """The engine's reason why the action ``text`` is not legal now for ``player`` (its
    ``IllegalActionError``), or None when it is no action at all or is legal. Tried on a copy:
    the game never changes."""
    try:
        game.action_space.parse(text)
    except InvalidActionError:
        return None
    try:
        game.clone().apply(text, player=player)
    except ActionError as e:
        return str(e)
    return None


def why(game: GameState, player: int, text: str, keys: Keys | None = None) -> str:
    """``why TEXT``: why an action is not one of the choices now, in the engine's words
    (``keys``: the choices' numbers now, else 1, 2, ... in the engine's order)."""
    text = " ".join(text.split())
    if not text:
        return "Type why and an action, e.g. why deploy Rebel Warship."
    try:
        action = game.action_space.parse(text)
    except InvalidActionError as e:
        return f"{text!r} is no action of this game: {e}"
    if game.to_move == player and action in game.legal_actions():
        number = (
            keys.numbers[action]
            if keys is not None and action in keys.numbers
            else game.legal_actions().index(action) + 1
        )
        return f"{text!r} is legal now: it is choice {number}."
    reason = illegal_reason(game, player, text)
    return reason or f"{text!r} is not legal now."


#: The commands' words, for did-you-mean.
COMMAND_WORDS = ("help", "table", "card", "rules", "why", "hint", "undo", "quit")


def did_you_mean(word: str) -> str:
    """`` Did you mean hint?`` when ``word`` looks like a command's word (``difflib``), else
    nothing."""
    import difflib

    if not word.isalpha() or word in COMMAND_WORDS:
        return ""
    close = difflib.get_close_matches(word.lower(), COMMAND_WORDS, n=1, cutoff=0.7)
    return f" Did you mean {close[0]}?" if close else ""


def help_table() -> list[tuple[str, Text]]:
    return [(word, Text(what)) for word, what in HELP]


def rules_answer(topic: str) -> Markdown | Text:
    """``rules [TOPIC]``: a section or ruling of docs/rules.md, or the list of sections."""
    from rebelspace.rules_doc import RulesNotFoundError, rules_section, rules_text, rules_topics

    try:
        text = rules_text()
    except RulesNotFoundError as e:
        return Text(str(e))
    if topic.strip():
        section = rules_section(topic, text)
        if section is not None:
            return Markdown(section)
        head = f"No ruling or section {topic.strip()!r}. "
    else:
        head = ""
    return Text(
        head + "Sections: " + "; ".join(rules_topics(text)) + ". Type rules and a section's "
        "first word, or a ruling such as rules R19."
    )


def yes_no(answer: str, default: bool | None) -> bool | None:
    """``y``/``yes`` True, ``n``/``no`` False (case ignored), an empty answer ``default``;
    anything else None: not an answer ("maybe" is not a no)."""
    word = answer.strip().lower()
    if not word:
        return default
    if word in YES_WORDS:
        return True
    if word in NO_WORDS:
        return False
    return None


def ask_yes_no(
    read: Callable[[str], str], console: Console, question: str, default: bool | None
) -> bool | None:
    """Ask until the answer is yes or no (or Enter, for ``default``); None at end of input."""
    console.print(question, soft_wrap=True)
    while True:
        try:
            answer = yes_no(read(PROMPT), default)
        except EOFError:
            console.print("")
            return None
        if answer is not None:
            return answer
        console.print("Please answer yes or no (y or n).")


#: The actions that end a phase, and the kinds of the choices they leave unplayed.
ENDINGS = {
    "done_deploying": ("end the deploy phase", frozenset({"deploy", "attach"})),
    "end_turn": ("end your turn", frozenset({"play_end", "play_end_on"})),
}


def ending_question(view: PlayerView, action: ActionView) -> str | None:
    """The question to ask before ``action`` ends the deploy phase or the turn while cards
    could still be played (and points spent), else None."""
    if action.kind not in ENDINGS:
        return None
    what, kinds = ENDINGS[action.kind]
    cards = list(dict.fromkeys(a.card for a in view.legal_actions if a.kind in kinds and a.card))
    if not cards:
        return None
    points = view.deploy_points
    left = f"{points} deploy point{'s' if points != 1 else ''} left and " if points else ""
    return f"You have {left}could still play {', '.join(cards)}: {what}? [y/n]"
