"""What a player can type besides a choice: help, the table, cards, rules, why, undo, quit;
and how a typed choice becomes an action id."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.markdown import Markdown
from rich.text import Text

from rebelspace.engine import ActionError, GameState, InvalidActionError

PROMPT = "> "
QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "h", "help"})
TABLE_WORDS = frozenset({"t", "table"})

HELP = [
    ("1, 2 …", "play the choice with that number"),
    ("TEXT", "play the choice with that text, or the one choice it starts"),
    ("t, table", "show the table again"),
    ("?N", "the Nth card of your hand in full (?1, ?2 …)"),
    ("card NAME", "any card in full: type, cost, ratings, keywords, ability"),
    ("rules [TOPIC]", "the rules: a section (blocks, psion, damage …) or a ruling (R19)"),
    ("why TEXT", "why an action is not one of your choices now"),
    ("hint", "what the computer would play now, and why (the battle, the damage race)"),
    ("undo", "take back your last decision (not across a card you were shown)"),
    ("q, Ctrl-D", "save the game and leave (Ctrl-C too); play --resume FILE goes on"),
    ("help, ?", "this list"),
]


def resolve_choice(
    answer: str,
    legal: Sequence[tuple[int, str]],
    why_illegal: Callable[[str], str | None] | None = None,
) -> tuple[int | None, str]:
    """Turn a typed answer into a legal action id, or ``(None, what was wrong)``.

    Accepted: the number shown beside an action, its text (case and spacing ignored), or the
    start of exactly one action's text. ``why_illegal(text)`` may explain a real action that
    is not legal now (the engine's reason); otherwise a generic message is given.
    """
    text = " ".join(answer.split())
    n = len(legal)
    if not text:
        return None, f"type a number from 1 to {n}, an action's text, or help"
    number = text[:-1] if text.endswith(".") else text
    if number.lstrip("+-").isdigit():
        k = int(number)
        if 1 <= k <= n:
            return legal[k - 1][0], ""
        return None, f"{k} is not one of the choices: type a number from 1 to {n}"
    key = text.lower()
    for action_id, action_text in legal:
        if action_text.lower() == key:
            return action_id, ""
    starts = [(i, t) for i, (_, t) in enumerate(legal, start=1) if t.lower().startswith(key)]
    if len(starts) == 1:
        return legal[starts[0][0] - 1][0], ""
    if starts:
        options = "; ".join(f"{i}. {t}" for i, t in starts)
        return None, f"{text!r} could be any of: {options}. Type more of it, or its number"
    reason = why_illegal(text) if why_illegal is not None else None
    if reason:
        return None, reason
    return None, f"{text!r} is not one of the choices: type a number from 1 to {n} or its text"


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


def why(game: GameState, player: int, text: str) -> str:
    """``why TEXT``: why an action is not one of the choices now, in the engine's words."""
    text = " ".join(text.split())
    if not text:
        return "Type why and an action, e.g. why deploy Rebel Warship."
    try:
        action = game.action_space.parse(text)
    except InvalidActionError as e:
        return f"{text!r} is no action of this game: {e}"
    if game.to_move == player and action in game.legal_actions():
        number = game.legal_actions().index(action) + 1
        return f"{text!r} is legal now: it is choice {number}."
    reason = illegal_reason(game, player, text)
    return reason or f"{text!r} is not legal now."


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
