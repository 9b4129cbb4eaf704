"""Cards in plain words: ``card NAME`` in the game and ``rebelspace card NAME`` in the shell.

Everything here comes from the card data (``CardType``: type, cost, ratings, the keywords
and the ability its notes give, R2/R3); the words for each keyword and ability are the ones
of the rules' tables (``docs/rules.md``, "Cards and card types" and "Card abilities"), with
the ruling to read for the details. An ability's words are its effect's (engine/abilities/).
"""

from __future__ import annotations

from rebelspace.engine import EFFECTS, PLAYER_NAMES, CardDB
from rebelspace.engine.cards import ACTION, ATTACHMENT, GROUND, GS, HERO, PSION, SPACE, CardType

KIND_WORDS: dict[str, str] = {
    HERO: "hero (a unit; fights on the ground and in space)",
    GROUND: "ground unit",
    SPACE: "space unit",
    GS: "ground and space unit",
    ATTACHMENT: "attachment (deployed onto a hero you control)",
    PSION: "psion card",
    ACTION: "action card",
}

#: What each keyword does (R3's table), with the rulings that say more.
KEYWORD_WORDS: dict[str, str] = {
    "pilot": "Pilot: the hero may ride in a space group in a Fighter's place (R12).",
    "captain": "Captain: the hero may ride in a space group in a Ship's place (R12).",
    "psionic": "Psionic: psion cards may be played on this hero in battle (R24).",
    "fighter": "Fighter: carries one Pilot hero in a space group (R12).",
    "ship": "Ship: carries one Captain hero in a space group; the Ion Cannon and Defense "
    "Shields act on it (R12, R14, R20).",
    "facility": "Facility: never attacks unless it says May Attack; Saboteur can destroy "
    "it (R11, R29).",
    "defense": "Defense: never attacks, but it can block (R11, R12).",
    "may_attack": "May Attack: a Facility that may attack all the same (R11).",
    "extra_draw": "Draw 1 extra card per turn: its controller may draw one card more (R8).",
    "ion_cannon": "Destroy 1 attacking Ship: while active, it destroys one attacking Ship "
    "before blocks, once per attack phase (R14).",
    "shields": "Attacking Ships do no Damage: while it is active, Ships that get through "
    "unblocked deal no damage; the other units of their group still do (R20).",
    "companion": "Companion: attaches to a hero you control and adds its ratings (R23, R13).",
    "attach_to_hero": "Attach to Hero: attaches to a hero you control and adds its ratings "
    "(R23, R13).",
}

#: What each action card's ability does, when, and what: its effect's words (engine/abilities/).
ABILITY_WORDS: dict[str, str] = {e.key: e.words for e in EFFECTS}

PSION_WORDS = (
    "Played free in battle tricks onto one of your Psionic heroes in a battle group: its "
    "ratings add to the hero's until the attack phase ends (R24)."
)
ACTION_WORDS = "Costs nothing; goes to your discard pile once resolved (R31)."


def ratings(card: CardType) -> str:
    """``0/7/1``: ground/space/damage as printed."""
    return f"{card.ground}/{card.space}/{card.damage}"


def brief(card: CardType) -> str:
    """What a hand or a deploy choice shows beside a card: ``cost 3, 0/7/1``, ``psion 2/1/0``
    or ``action``."""
    if card.kind == ACTION:
        return "action"
    if card.kind == PSION:
        return f"psion {ratings(card)}"
    return f"cost {card.cost}, {ratings(card)}"


def find_cards(db: CardDB, query: str) -> list[CardType]:
    """Cards whose name is ``query`` (case ignored), else those it starts, else those that
    contain it: one card, several to choose from, or none."""
    key = " ".join(query.split()).lower()
    if not key:
        return []
    cards = list(db)
    for match in (str.__eq__, str.startswith, str.__contains__):
        found = [c for c in cards if match(c.name.lower(), key)]
        if found:
            return found
    return []


def card_lines(card: CardType) -> list[str]:
    """The whole card in plain words, one paragraph a line."""
    side = PLAYER_NAMES[card.side]
    copies = f"{card.count} {'copy' if card.count == 1 else 'copies'}"
    lines = [
        f"{card.name}: {side} {KIND_WORDS[card.kind]}, printed type {card.printed_type}, "
        f"{copies} in the deck."
    ]
    if card.kind == PSION:
        lines.append(f"Ground {card.ground}, space {card.space}, damage {card.damage}; no cost.")
        lines.append(PSION_WORDS)
    elif card.kind == ACTION:
        lines.append(ACTION_WORDS)
    else:
        lines.append(
            f"Cost {card.cost}; ground {card.ground}, space {card.space}, damage {card.damage}."
        )
    if card.notes:
        lines.append(f"Notes as printed: {card.notes}")
    lines += [KEYWORD_WORDS[k] for k in sorted(card.keywords) if k in KEYWORD_WORDS]
    if card.ability is not None:
        lines.append(ABILITY_WORDS.get(card.ability, card.notes))
    return lines


def lookup_lines(db: CardDB, query: str) -> list[str]:
    """``card QUERY``'s answer: the card, or the names it could mean, or why not (with the
    names it looks like: a typing slip is not a card that does not exist)."""
    if not query.strip():
        return ["Type card and a card's name or its start, e.g. card Princess."]
    found = find_cards(db, query)
    if len(found) == 1:
        return card_lines(found[0])
    if found:
        return [f"{query!r} could be: " + ", ".join(c.name for c in found) + "."]
    close = similar_names(db, query)
    if close:
        return [f"No card is called {query!r}. Did you mean {' or '.join(close)}?"]
    return [f"No card is called {query!r}."]


def similar_names(db: CardDB, query: str) -> list[str]:
    """Up to three card names that look like ``query`` (``difflib``), case ignored."""
    import difflib

    names = {c.name.lower(): c.name for c in db}
    key = " ".join(query.split()).lower()
    return [names[n] for n in difflib.get_close_matches(key, names, n=3, cutoff=0.6)]
