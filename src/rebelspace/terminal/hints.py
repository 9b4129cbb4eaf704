"""The hint in plain words: what the computer would play and why, from ``agents.advice``'s
numbers (the battle values, the damage race, the search's estimates)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rebelspace.agents.advice import Battle, Choice, Hint, Race


def percent(p: float) -> str:
    return f"{round(100 * p)}%"


def choice_words(c: Choice) -> str:
    """``'draw 2' (62% to win)``, or the bare text when the search gave it no value."""
    return f"{c.text!r}" + (f" ({percent(c.win)} to win)" if c.win is not None else "")


def battle_words(b: Battle) -> str:
    """The battle the move leads to, from the mover's side of it."""
    if b.you_attack:
        mine, theirs, you_win = b.attack, b.defense, b.winner == "attacker"
        who = f"your group {b.group} ({b.kind})"
    else:
        mine, theirs, you_win = b.defense, b.attack, b.winner == "defender"
        who = f"your defense against group {b.group} ({b.kind})"
    if b.winner == "both":
        result = "a tie: both sides lose the battle (R18)"
    else:
        result = "you would win the battle" if you_win else "you would lose the battle"
    return (
        f"Battle: {who} at {mine} against {theirs}: {result}, as the cards in play stand "
        "(battle tricks may still change it)."
    )


def race_words(r: Race) -> str:
    if abs(r.your_turns - r.their_turns) < 0.5:
        lead = "the race is even"
    elif r.your_turns > r.their_turns:
        lead = "you are ahead in the race"
    else:
        lead = "you are behind in the race"
    return (
        f"Race: your deck ({r.your_deck} cards) lasts about {r.your_turns:.1f} turns at the "
        f"current rates, theirs ({r.their_deck}) about {r.their_turns:.1f}: {lead}. Hands: "
        f"you {r.your_hand}, they {r.their_hand}."
    )


#: Why a hint recommends what it does, when its estimates alone do not say it.
REASON_WORDS = {
    "deploy_over_done": "Deploy: 'done deploying' scored a little higher, but by less than the "
    "search's noise, and you have points to spend and units to deploy.",
    "done_clearly_best": "Done deploying: with points to spend and units in hand, keeping them "
    "scored clearly higher than any deployment.",
}


def hint_lines(
    h: Hint, legal: Sequence[int], numbers: Mapping[int, int] | None = None
) -> list[str]:
    """The hint as lines; ``numbers`` gives each action's choice number (default: its place
    in ``legal``, from 1)."""
    if numbers is not None:
        number = numbers.get(h.best.action)
    else:
        number = list(legal).index(h.best.action) + 1 if h.best.action in legal else None
    which = f"choice {number}, " if number is not None else ""
    if h.forced:
        return [f"Hint: {which}{h.best.text!r} is your only choice."]
    lines = [f"Hint: the computer ({h.agent}) would play {which}{choice_words(h.best)}."]
    if h.reason in REASON_WORDS:
        lines.append(REASON_WORDS[h.reason])
    if h.battle is not None:
        lines.append(battle_words(h.battle))
    lines.append(race_words(h.race))
    if h.alternatives:
        others = "; ".join(choice_words(c) for c in h.alternatives)
        lines.append(f"Next best: {others}.")
    lines.append(
        "The chances are the computer's estimate from your view only (your hand and the "
        "public cards): it guesses the hidden cards many times over."
    )
    return lines
