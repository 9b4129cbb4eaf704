"""Events: every change of a game as a small frozen record, with who may see it.

Over 500 lines: one small frozen record per event kind (about 30), each with its visibility and
its words; they are read and extended together.

The rules emit an event for each thing that happens (a draw, a deployment, a block, a battle's
result, damage, the end of the game). ``GameState.apply`` returns the events one decision
caused and the game keeps them all in ``GameState.events``. Everything readable is rendered
from them here, in one place: the game log (``render``) and the JSON of the protocol
(``to_json``). Consumers (the balance lab's tally, the server's undo limits, the terminal and
the browser) read events, never log text.

Fields are the engine's own values: players are 0 (Rebel) and 1 (Imperial), cards are card
*type* indices (as in actions: an event never tells which copy of a hidden card it was), groups
are 0-based. ``to_json`` turns them into names, sides and 1-based group numbers, as views and
action texts show them.

Visibility (R5): an event is public unless it shows hidden cards. ``CardsSeen`` is the only
private event: a player's own drawn cards and starting hand, or the hand a spy showed (R27). A
player's stream (``visible_events``) holds the public events and its own private ones; a
spectator's only the public ones. Searched heroes are shown to both players (R26), so
``HeroTaken`` is public.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from enum import IntEnum
from typing import Any, ClassVar

from .enums import KIND_NAMES, PLAYER_NAMES, SIDE_NAMES, GroupKind

PUBLIC = -1  # visible to everyone


class BattleResult(IntEnum):
    """How a battle ended (R18); a tie follows the ``tie`` rules option."""

    ATTACKER_WON = 0
    DEFENDER_WON = 1
    BOTH_DESTROYED = 2


RESULT_NAMES = ("attacker won", "defender won", "both destroyed")


class Seen(IntEnum):
    """Why cards were shown to a player."""

    STARTING_HAND = 0
    DRAW = 1
    SPIES = 2  # R27


class EndReason(IntEnum):
    """Why a deck emptied (R9): the loser's deck, after what."""

    STARTING_HAND = 0
    LAST_DRAW = 1
    SEARCH = 2  # R26: a search took the last card
    DAMAGE = 3


class Event:
    """Base of all events. ``type`` is the event's name on the wire (snake case)."""

    __slots__ = ()
    type: ClassVar[str]

    @property
    def visible_to(self) -> int:
        """PUBLIC, or the one player who may see this event (R5)."""
        return PUBLIC


@dataclass(frozen=True, slots=True)
class ScenarioStarted(Event):
    """A position set up from a scenario file (``engine/scenario.py``)."""

    type: ClassVar[str] = "scenario_started"
    turn: int
    player: int
    phase: str  # "draw", "attack", "deploy" or "end", as the scenario file names it


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    type: ClassVar[str] = "turn_started"
    turn: int
    player: int
    decks: tuple[int, int]  # both deck sizes at the start of the turn (public, R5)


@dataclass(frozen=True, slots=True)
class StartingHand(Event):
    """R6: a player drew the starting hand (the cards themselves: ``CardsSeen``)."""

    type: ClassVar[str] = "starting_hand"
    player: int
    n: int


@dataclass(frozen=True, slots=True)
class Drew(Event):
    """R8: a player drew ``n`` cards (the cards themselves: ``CardsSeen``)."""

    type: ClassVar[str] = "drew"
    player: int
    n: int


@dataclass(frozen=True, slots=True)
class CardsSeen(Event):
    """Hidden cards shown to one player: its own draw or starting hand, or the opponent's hand
    by a spy (R27, sorted by name, as the view's snapshot)."""

    type: ClassVar[str] = "cards_seen"
    to: int
    owner: int
    cards: tuple[int, ...]
    source: Seen

    @property
    def visible_to(self) -> int:
        return self.to


@dataclass(frozen=True, slots=True)
class NoAttacker(Event):
    """R11: the attack phase is skipped: no active unit of the player may attack."""

    type: ClassVar[str] = "no_attacker"
    player: int


@dataclass(frozen=True, slots=True)
class NoAttack(Event):
    type: ClassVar[str] = "no_attack"
    player: int


@dataclass(frozen=True, slots=True)
class GroupFormed(Event):
    """R12: a new attacking group with its first unit."""

    type: ClassVar[str] = "group_formed"
    player: int
    group: int
    kind: GroupKind
    card: int


@dataclass(frozen=True, slots=True)
class UnitAdded(Event):
    type: ClassVar[str] = "unit_added"
    player: int
    group: int
    card: int


@dataclass(frozen=True, slots=True)
class Attacked(Event):
    """The attacker declared its groups: one event per group, with its battle value (R13)."""

    type: ClassVar[str] = "attacked"
    player: int
    group: int
    kind: GroupKind
    units: tuple[int, ...]
    value: int


@dataclass(frozen=True, slots=True)
class IonCannonFired(Event):
    """R14: the defender's Ion Cannon destroyed an attacking Ship."""

    type: ClassVar[str] = "ion_cannon_fired"
    player: int  # the defender
    cannon: int
    ship: int
    group: int


@dataclass(frozen=True, slots=True)
class Blocked(Event):
    """R15: a defending unit joined the block of an attacking group."""

    type: ClassVar[str] = "blocked"
    player: int  # the defender
    group: int
    card: int


@dataclass(frozen=True, slots=True)
class Targeted(Event):
    """R16: an unblocked group targets an opposing unit."""

    type: ClassVar[str] = "targeted"
    player: int  # the attacker
    group: int
    card: int
    inactive: bool


@dataclass(frozen=True, slots=True)
class TrickPlayed(Event):
    """R17, R22, R30: Surprise Attack, Trap or Multiple Targets."""

    type: ClassVar[str] = "trick_played"
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class PsionPlayed(Event):
    """R24: a psion card played on a Psionic hero in a battle group."""

    type: ClassVar[str] = "psion_played"
    player: int
    card: int
    hero: int


@dataclass(frozen=True, slots=True)
class GotThrough(Event):
    """R20, R33: an unblocked, untargeting group's damage, measured when the battles begin.

    ``stopped`` is the damage Defense Shields took from its Ships; ``shields`` whether shields
    stood against Ships in this group. ``dealers`` is (card, damage) of each unit whose damage
    counts.
    """

    type: ClassVar[str] = "got_through"
    player: int  # the attacker
    group: int
    damage: int
    stopped: int
    shields: bool
    dealers: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class BattleResolved(Event):
    """R18: a group fought its blockers or its target; the loser's cards are destroyed."""

    type: ClassVar[str] = "battle_resolved"
    player: int  # the attacker
    group: int
    kind: GroupKind
    attackers: tuple[int, ...]
    attack_value: int
    defenders: tuple[int, ...]
    defense_value: int
    blocked: bool  # False: the defender was the group's target
    result: BattleResult


@dataclass(frozen=True, slots=True)
class CasualtyPicked(Event):
    """R19: the loser picked a unit of the winning group, at its rating in this battle."""

    type: ClassVar[str] = "casualty_picked"
    player: int  # who picked: the battle's loser
    group: int
    card: int
    rating: int


@dataclass(frozen=True, slots=True)
class DamageDealt(Event):
    """R20, R21: cards from the top of the defender's deck to its discard pile (public)."""

    type: ClassVar[str] = "damage_dealt"
    player: int  # whose deck
    cards: tuple[int, ...]  # in the order discarded
    left: int  # cards left in that deck


@dataclass(frozen=True, slots=True)
class ExtraAttackPhase(Event):
    """R22, R36: Multiple Targets gives the attacker another attack phase."""

    type: ClassVar[str] = "extra_attack_phase"
    player: int


@dataclass(frozen=True, slots=True)
class Deployed(Event):
    """R23: a unit from the hand into the Inactive Zone."""

    type: ClassVar[str] = "deployed"
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class Attached(Event):
    """R23: an item or companion attached to a hero."""

    type: ClassVar[str] = "attached"
    player: int
    card: int
    hero: int


@dataclass(frozen=True, slots=True)
class SpiesPlayed(Event):
    """R27: the player looks at the opponent's hand (the cards: a private ``CardsSeen``)."""

    type: ClassVar[str] = "spies_played"
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class ControlTaken(Event):
    """R28: Convert or Traitor takes an opposing hero (with its attachments)."""

    type: ClassVar[str] = "control_taken"
    player: int
    card: int
    hero: int


@dataclass(frozen=True, slots=True)
class Sabotaged(Event):
    """R29: Saboteur destroys an opposing Facility."""

    type: ClassVar[str] = "sabotaged"
    player: int
    card: int
    unit: int


@dataclass(frozen=True, slots=True)
class HeroTaken(Event):
    """R26: a search took a hero into the hand, shown to both players."""

    type: ClassVar[str] = "hero_taken"
    player: int
    card: int
    hero: int
    from_deck: bool  # False: from the discard pile; from the deck, the deck is then shuffled


@dataclass(frozen=True, slots=True)
class HandLimitDiscard(Event):
    """R25: a card discarded down to the hand limit."""

    type: ClassVar[str] = "hand_limit_discard"
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    """R9: a deck is empty; ``card`` is the search card that emptied it (``EndReason.SEARCH``)."""

    type: ClassVar[str] = "game_over"
    winner: int
    reason: EndReason
    card: int = -1


EVENT_TYPES: tuple[type[Event], ...] = (
    ScenarioStarted,
    TurnStarted,
    StartingHand,
    Drew,
    CardsSeen,
    NoAttacker,
    NoAttack,
    GroupFormed,
    UnitAdded,
    Attacked,
    IonCannonFired,
    Blocked,
    Targeted,
    TrickPlayed,
    PsionPlayed,
    GotThrough,
    BattleResolved,
    CasualtyPicked,
    DamageDealt,
    ExtraAttackPhase,
    Deployed,
    Attached,
    SpiesPlayed,
    ControlTaken,
    Sabotaged,
    HeroTaken,
    HandLimitDiscard,
    GameOver,
)
BY_TYPE: dict[str, type[Event]] = {cls.type: cls for cls in EVENT_TYPES}


def sees(player: int | None, event: Event) -> bool:
    """Whether ``player`` may see ``event`` (R5); ``None``: a spectator, public events only."""
    return event.visible_to in (PUBLIC, player)


def visible_events(events: Iterable[Event], player: int | None) -> list[Event]:
    """The events ``player`` may see (R5); ``None``: a spectator, public events only."""
    return [e for e in events if sees(player, e)]


# ----------------------------------------------------------------------------- reveals

# A card played or discarded from a hand shows it to the other player.
_FROM_HAND: tuple[type[Event], ...] = (
    Deployed,
    Attached,
    TrickPlayed,
    PsionPlayed,
    SpiesPlayed,
    ControlTaken,
    Sabotaged,
    HandLimitDiscard,
)


def reveals(events: Iterable[Event]) -> tuple[bool, bool]:
    """Whether the events of one action showed each player (Rebel, Imperial) a card that was
    hidden from them (R5): cards shown to that player (their own draw or starting hand, or the
    other hand by a spy, R27); a card that left the other player's hand (played, deployed,
    attached, discarded); the hero a search took into a hand, shown to both (R26); and damage,
    which shows both players cards from the top of a deck, whose order is hidden from both
    (R5): undoing it would let a player learn the deck's order and try again. Undo (the
    server's and the terminal's) never goes back across such an action, since what was seen
    cannot be unseen."""
    shown = [False, False]
    for e in events:
        if isinstance(e, CardsSeen):
            shown[e.to] = True
        elif isinstance(e, HeroTaken | DamageDealt):
            shown = [True, True]
        elif isinstance(e, _FROM_HAND):
            shown[1 - e.player] = True  # type: ignore[attr-defined]
    return shown[0], shown[1]


# ----------------------------------------------------------------------------- the log


def end_reason_text(reason: EndReason, loser: int, card: str) -> str:
    """Why the game ended, in words (``Outcome.reason``)."""
    who = PLAYER_NAMES[loser]
    if reason == EndReason.STARTING_HAND:
        return f"{who}'s deck is empty after the starting hand"
    if reason == EndReason.LAST_DRAW:
        return f"{who} drew the last card of their deck"
    if reason == EndReason.SEARCH:
        return f"{who}'s deck emptied by {card}"
    return f"{who}'s deck is empty"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"


def _battle_text(e: BattleResolved, n: Sequence[str]) -> str:
    p, d = PLAYER_NAMES[e.player], PLAYER_NAMES[1 - e.player]
    names_a = ", ".join(n[c] for c in e.attackers)
    names_d = ", ".join(n[c] for c in e.defenders)
    if e.result == BattleResult.ATTACKER_WON:
        outcome = f"{names_d} destroyed"
    elif e.result == BattleResult.DEFENDER_WON:
        outcome = f"{names_a} destroyed"
    else:
        outcome = "tie: both sides destroyed"
    kind = KIND_NAMES[e.kind]
    g = e.group + 1
    # Players are named in the possessive, as in the other lines ("Rebel's Rebel Warship"),
    # so a card name that starts with a side's name never doubles it.
    if e.blocked:
        verb = "block" if len(e.defenders) > 1 else "blocks"
        return (
            f"{d}'s {names_d} ({kind} {e.defense_value}) {verb} {p}'s {kind} group {g} "
            f"({names_a}: {e.attack_value}): {outcome}"
        )
    return (
        f"{p}'s {kind} group {g} ({names_a}: {e.attack_value}) fights {d}'s targeted "
        f"{names_d} ({kind} {e.defense_value}): {outcome}"
    )


def _seen_text(e: CardsSeen, n: Sequence[str]) -> str:
    if e.source == Seen.SPIES:
        return f"{PLAYER_NAMES[e.owner]}'s hand: {', '.join(n[c] for c in e.cards) or 'empty'}"
    cards = ", ".join(n[c] for c in e.cards) or "nothing"
    if e.source == Seen.STARTING_HAND:
        return f"{PLAYER_NAMES[e.owner]}'s starting hand: {cards}"
    return f"{PLAYER_NAMES[e.owner]} draws {cards}"


def _game_over_text(e: GameOver, n: Sequence[str]) -> str:
    card = n[e.card] if e.card >= 0 else ""
    return f"{PLAYER_NAMES[e.winner]} wins: {end_reason_text(e.reason, 1 - e.winner, card)}"


def _got_through_text(e: GotThrough, _n: Sequence[str]) -> str:
    note = " (Defense Shields stop the Ships' damage)" if e.shields else ""
    who = PLAYER_NAMES[e.player]
    return f"{who}'s group {e.group + 1} gets through for {e.damage} damage{note}"


def _attacked_text(e: Attacked, n: Sequence[str]) -> str:
    kind = KIND_NAMES[e.kind]
    units = ", ".join(n[c] for c in e.units)
    return (
        f"{PLAYER_NAMES[e.player]} attacks with {kind} group {e.group + 1}"
        f" ({units}: {kind} {e.value})"
    )


def _damage_text(e: DamageDealt, _n: Sequence[str]) -> str:
    who = PLAYER_NAMES[e.player]
    return (
        f"{who} discards {_plural(len(e.cards), 'card')} from the top of the deck ({e.left} left)"
    )


def _targeted_text(e: Targeted, n: Sequence[str]) -> str:
    where = " (inactive)" if e.inactive else ""
    return (
        f"{PLAYER_NAMES[e.player]}'s group {e.group + 1} targets "
        f"{PLAYER_NAMES[1 - e.player]}'s {n[e.card]}{where}"
    )


def _hero_taken_text(e: HeroTaken, n: Sequence[str]) -> str:
    where = "the deck; the deck is shuffled" if e.from_deck else "the discard pile"
    return f"{PLAYER_NAMES[e.player]} plays {n[e.card]} and takes {n[e.hero]} from {where}"


def render(e: Event, names: Sequence[str]) -> str:
    """One line of the game log; ``names`` are the card list's names by type index."""
    return _TEXT[type(e)](e, names)


def _p(e: Any) -> str:
    name: str = PLAYER_NAMES[e.player]
    return name


# Each event type's line of the log (render).
_TEXT: dict[type[Event], Callable[[Any, Any], str]] = {
    BattleResolved: _battle_text,
    CardsSeen: _seen_text,
    GameOver: _game_over_text,
    GotThrough: _got_through_text,
    Attacked: _attacked_text,
    DamageDealt: _damage_text,
    Targeted: _targeted_text,
    HeroTaken: _hero_taken_text,
    ScenarioStarted: lambda e, _n: (
        f"Scenario: turn {e.turn}, {SIDE_NAMES[e.player]} {e.phase} phase"
    ),
    TurnStarted: lambda e, _n: f"-- Turn {e.turn}: {_p(e)} --",
    StartingHand: lambda e, _n: f"{_p(e)} draws a starting hand of {e.n} cards",
    Drew: lambda e, _n: f"{_p(e)} draws {_plural(e.n, 'card')}",
    NoAttacker: lambda e, _n: f"{_p(e)} has no unit that can attack",
    NoAttack: lambda e, _n: f"{_p(e)} does not attack",
    GroupFormed: lambda e, n: (
        f"{_p(e)} forms {KIND_NAMES[e.kind]} group {e.group + 1} with {n[e.card]}"
    ),
    UnitAdded: lambda e, n: f"{_p(e)} adds {n[e.card]} to group {e.group + 1}",
    IonCannonFired: lambda e, n: (
        f"{_p(e)}'s {n[e.cannon]} destroys {n[e.ship]} in group {e.group + 1}"
    ),
    Blocked: lambda e, n: f"{_p(e)} blocks group {e.group + 1} with {n[e.card]}",
    TrickPlayed: lambda e, n: f"{_p(e)} plays {n[e.card]}",
    PsionPlayed: lambda e, n: f"{_p(e)} plays {n[e.card]} on {n[e.hero]}",
    CasualtyPicked: lambda e, n: f"{_p(e)} picks {n[e.card]} ({e.rating}) as a casualty",
    ExtraAttackPhase: lambda e, _n: f"{_p(e)} gets an extra attack phase (Multiple Targets)",
    Deployed: lambda e, n: f"{_p(e)} deploys {n[e.card]}",
    Attached: lambda e, n: f"{_p(e)} attaches {n[e.card]} to {n[e.hero]}",
    SpiesPlayed: lambda e, n: (
        f"{_p(e)} plays {n[e.card]} and looks at {PLAYER_NAMES[1 - e.player]}'s hand"
    ),
    ControlTaken: lambda e, n: f"{_p(e)} plays {n[e.card]} and takes control of {n[e.hero]}",
    Sabotaged: lambda e, n: (
        f"{_p(e)} plays {n[e.card]} and destroys {PLAYER_NAMES[1 - e.player]}'s {n[e.unit]}"
    ),
    HandLimitDiscard: lambda e, n: f"{_p(e)} discards {n[e.card]} (hand limit)",
}


# ----------------------------------------------------------------------------- JSON

# How each field reads on the wire: players as sides, cards as names, groups 1-based.
_PLAYER_FIELDS = frozenset({"player", "to", "owner", "winner"})
_CARD_FIELDS = frozenset({"card", "cannon", "ship", "hero", "unit"})
_CARDS_FIELDS = frozenset({"cards", "units", "attackers", "defenders"})


# Each field's conversion to the wire (given the card names) and back (given name -> index);
# a field not listed goes as it is.
_TO_WIRE: dict[str, Callable[[Any, Sequence[str]], Any]] = {
    **dict.fromkeys(_PLAYER_FIELDS, lambda v, _n: SIDE_NAMES[v]),
    **dict.fromkeys(_CARD_FIELDS, lambda v, n: n[v] if v >= 0 else None),
    **dict.fromkeys(_CARDS_FIELDS, lambda v, n: [n[c] for c in v]),
    "group": lambda v, _n: v + 1,
    "kind": lambda v, _n: KIND_NAMES[v],
    "result": lambda v, _n: RESULT_NAMES[v],
    "source": lambda v, _n: v.name.lower(),
    "reason": lambda v, _n: v.name.lower(),
    "dealers": lambda v, n: [{"card": n[c], "damage": d} for c, d in v],
    "decks": lambda v, _n: {"rebel": v[0], "imperial": v[1]},
}
_FROM_WIRE: dict[str, Callable[[Any, dict[str, int]], Any]] = {
    **dict.fromkeys(_PLAYER_FIELDS, lambda v, _i: SIDE_NAMES.index(v)),
    **dict.fromkeys(_CARD_FIELDS, lambda v, i: i[v] if v is not None else -1),
    **dict.fromkeys(_CARDS_FIELDS, lambda v, i: tuple(i[c] for c in v)),
    "group": lambda v, _i: v - 1,
    "kind": lambda v, _i: GroupKind(KIND_NAMES.index(v)),
    "result": lambda v, _i: BattleResult(RESULT_NAMES.index(v)),
    "source": lambda v, _i: Seen[v.upper()],
    "reason": lambda v, _i: EndReason[v.upper()],
    "dealers": lambda v, i: tuple((i[d["card"]], d["damage"]) for d in v),
    "decks": lambda v, _i: (v["rebel"], v["imperial"]),
}


def to_json(e: Event, names: Sequence[str]) -> dict[str, Any]:
    """The event as the protocol sends it (docs/protocol.md, "Events")."""
    out: dict[str, Any] = {"type": e.type}
    for f in fields(e):  # type: ignore[arg-type]
        v = getattr(e, f.name)
        convert = _TO_WIRE.get(f.name)
        out[f.name] = v if convert is None else convert(v, names)
    return out


def from_json(data: dict[str, Any], names: Sequence[str]) -> Event:
    """The event ``to_json`` made (a record's or the protocol's event read back)."""
    index = {name: i for i, name in enumerate(names)}
    cls = BY_TYPE[data["type"]]
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]
        v = data[f.name]
        convert = _FROM_WIRE.get(f.name)
        values[f.name] = v if convert is None else convert(v, index)
    return cls(**values)
