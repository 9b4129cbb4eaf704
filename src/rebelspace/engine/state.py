"""The game state of Rebel Space and the public API every player, agent and tool uses.

Over 500 lines: it is the engine's whole public API (python-chess's Board is one module for the
same reason); the rules are in rules/, the views in views.py.

A ``GameState`` is a handful of flat lists of card instances (small integers, see
``tables.py``), so that copying it for tree search costs a few microseconds. The rules that
change it live in ``rules/``, one module per part of the turn; this module only holds the
data, dispatches decisions to the rules and guards legality in one place (``apply``).
"""

from __future__ import annotations

import functools
import operator
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

from . import rules
from .actions import Action, ActionSpace
from .cache import per_object
from .cards import IMPERIAL, REBEL, CardDB, load_cards
from .enums import PLAYER_NAMES
from .errors import IllegalActionError, InvalidActionError
from .events import (
    EndReason,
    Event,
    GameOver,
    end_reason_text,
    render,
    sees,
    visible_events,
)
from .options import RulesOptions
from .rng import seed_state, shuffle
from .steps import (
    BLOCK,
    CASUALTY,
    DEPLOY,
    DISCARD,
    DRAW,
    END,
    FORM,
    GROUND_BATTLE,
    ION,
    OVER,
    PHASE_OF_STEP,
    SPACE_BATTLE,
    STEP_NAMES,
    TARGET,
    TRICKS,
    Casualties,
    Step,
)
from .tables import Tables
from .tally import Tally

if TYPE_CHECKING:
    from .views import PlayerView

# The steps and their constants live in ``steps.py`` (below the rules, which read them); they
# are re-exported here, where the state's readers have always found them.
__all__ = [
    "BLOCK",
    "CASUALTY",
    "DEPLOY",
    "DISCARD",
    "DRAW",
    "END",
    "FORM",
    "GROUND_BATTLE",
    "ION",
    "NO_EVENTS",
    "OVER",
    "PHASE_OF_STEP",
    "PLAYERS",
    "SPACE_BATTLE",
    "STEP_NAMES",
    "TARGET",
    "TRICKS",
    "Casualties",
    "GameContext",
    "GameState",
    "Outcome",
    "Step",
    "context_for",
    "default_cards",
    "new_game",
]

PLAYERS = (REBEL, IMPERIAL)


NO_EVENTS: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner and why (R9)."""

    winner: int
    reason: str

    @property
    def winner_name(self) -> str:
        return PLAYER_NAMES[self.winner]

    @property
    def loser(self) -> int:
        return 1 - self.winner


class GameContext:
    """Everything a game shares and never changes: cards, rules options, action space."""

    __slots__ = ("cards", "options", "tables", "space")

    def __init__(self, cards: CardDB, options: RulesOptions) -> None:
        self.cards = cards
        self.options = options
        self.tables = Tables.build(cards, options.draw_max)
        self.space = ActionSpace(self.tables, options.max_groups)


@functools.cache
def default_cards() -> CardDB:
    """The packaged card lists, loaded once."""
    return load_cards()


def _no_contexts(_cards: CardDB) -> dict[RulesOptions, GameContext]:
    return {}


_contexts_of = per_object(_no_contexts)  # card list -> its contexts, by rules


def context_for(cards: CardDB | None = None, options: RulesOptions | None = None) -> GameContext:
    """The shared context for a card list and rules, built once and reused (it is immutable)."""
    db = cards if cards is not None else default_cards()
    opts = options if options is not None else RulesOptions()
    contexts = _contexts_of(db)
    ctx = contexts.get(opts)
    if ctx is None:
        ctx = contexts[opts] = GameContext(db, opts)
    return ctx


def new_game(
    seed: int = 0,
    *,
    options: RulesOptions | None = None,
    cards: CardDB | str | os.PathLike[str] | None = None,
    log: bool = True,
    tally: bool = False,
) -> GameState:
    """Shuffle both decks with ``seed``, deal the starting hands and wait for the first draw (R6).

    ``log=False`` records no events (``engine/events.py``), so no log either: simulations and
    search don't read them. ``tally=True`` counts kills, damage and deck sizes for the balance
    lab (``engine/tally.py``, which reads the events, so it records them).
    """
    db = cards if isinstance(cards, CardDB) or cards is None else load_cards(cards)
    ctx = context_for(db, options)
    state = GameState.empty(ctx, seed, log or tally)
    if tally:
        state.tally = Tally(len(ctx.cards.types))
    rules.setup(state)
    if state.tally is not None and state.events is not None:
        state.tally.read(state.events)
    return state


def _action_id(space: ActionSpace, action: object) -> int:
    """``space.ids(action)`` for a value of any type: the engine's InvalidActionError for one
    that is no action (not mypyc's TypeError, see ``GameState.apply``)."""
    if isinstance(action, (int, str, Action)) and not isinstance(action, bool):
        return space.ids(action)
    if isinstance(action, SupportsIndex) and not isinstance(action, bool):
        return space.ids(operator.index(action))  # integer types such as numpy's
    raise InvalidActionError(f"an action is an id, a text or an Action, got {action!r}")


class GameState:
    """One position of a game, with everything the rules need. Use ``new_game`` to make one."""

    __slots__ = (
        "ctx",
        "seed",
        "deck",
        "hand",
        "discard",
        "active",
        "inactive",
        "att",
        "busy",
        "turn",
        "player",
        "step",
        "to_move",
        "points",
        "groups",
        "gkind",
        "blocks",
        "targets",
        "results",
        "ion_used",
        "atk_bonus",
        "def_bonus",
        "passes",
        "psions",
        "battle_next",
        "cas",
        "pending_damage",
        "extra_attacks",
        "seen",
        "known",
        "outcome",
        "rng",
        "events",
        "history",
        "tally",
        "_legal",
        "_lines",
    )

    ctx: GameContext
    seed: int
    deck: list[list[int]]  # top of the deck is the end of the list
    hand: list[list[int]]
    discard: list[list[int]]
    active: list[list[int]]  # units only; attachments live in ``att`` of their hero
    inactive: list[list[int]]
    att: list[tuple[int, ...]]  # per instance: cards attached to it (items, companions, psion, R28)
    busy: bytearray  # per instance: 1 while in a battle group, block or target this attack phase
    turn: int
    player: int  # whose turn it is
    step: int
    to_move: int  # whose decision it is; -1 once the game is over
    points: int  # deploy points left (R23)
    groups: list[tuple[int, ...]]  # attacking battle groups
    gkind: list[int]  # GROUND_BATTLE or SPACE_BATTLE per group
    blocks: list[tuple[int, ...]]  # blocking group per attacking group (empty: not blocked)
    targets: list[int]  # targeted unit per group, or values.NO_TARGET / TARGET_DESTROYED (R16)
    results: list[int]  # per group: -1 no battle (yet), else a battle.py result code
    ion_used: tuple[int, ...]  # Ion Cannons fired this attack phase (R14)
    atk_bonus: int  # R30 Surprise Attack
    def_bonus: int  # R30 Trap
    passes: int  # consecutive passes in the battle-tricks window (R17)
    psions: tuple[tuple[int, int], ...]  # (psion card, hero) played this attack phase (R24)
    battle_next: int  # next group whose battle resolves
    cas: Casualties | None  # while the loser picks casualties (R19)
    pending_damage: int  # damage of this attack phase, dealt when its battles are over (R21)
    extra_attacks: int  # R22 Multiple Targets
    seen: list[list[tuple[int, tuple[str, ...]]]]  # R27: hands shown to each player by spies
    # Card types each player knows to be in the other's hand: what a spy showed (R27) or a
    # search took (R26), less what has been played from that hand since. Sorted.
    known: list[tuple[int, ...]]
    outcome: Outcome | None
    rng: int
    events: list[Event] | None  # everything that happened (None: not recorded)
    history: list[int] | None
    tally: Tally | None  # statistics for the balance lab; not part of the game
    _legal: list[int] | None
    # The log's lines of ``events[:len(_lines)]``, rendered once each: a view carries the log,
    # and rendering the whole of it for every view made a game's views cost O(plies²).
    _lines: list[str]

    @classmethod
    def empty(cls, ctx: GameContext, seed: int, log: bool) -> GameState:
        """A state with empty piles and no decision yet, for ``new_game``, scenarios and
        sampling to fill in (R6 is ``rules.setup``)."""
        # cls() and not cls.__new__(cls): the same for a class without __init__, and mypyc
        # compiles no __new__ for its native classes (setup.py).
        state = cls()
        cls._init_empty(state, ctx, seed, log)
        return state

    def _init_empty(self, ctx: GameContext, seed: int, log: bool) -> None:
        n = ctx.tables.n
        self.ctx = ctx
        self.seed = seed
        self.deck = [[], []]
        self.hand = [[], []]
        self.discard = [[], []]
        self.active = [[], []]
        self.inactive = [[], []]
        self.att = [()] * n
        self.busy = bytearray(n)
        self.turn = 1
        self.player = REBEL
        self.step = DRAW
        self.to_move = REBEL
        self.points = 0
        self.groups = []
        self.gkind = []
        self.blocks = []
        self.targets = []
        self.results = []
        self.ion_used = ()
        self.atk_bonus = 0
        self.def_bonus = 0
        self.passes = 0
        self.psions = ()
        self.battle_next = 0
        self.cas = None
        self.pending_damage = 0
        self.extra_attacks = 0
        self.seen = [[], []]
        self.known = [(), ()]
        self.outcome = None
        self.rng = seed_state(seed)
        self.events = [] if log else None
        self.history = []
        self.tally = None
        self._legal = None
        self._lines = []

    # ----------------------------------------------------------------- public API

    @property
    def options(self) -> RulesOptions:
        return self.ctx.options

    @property
    def cards(self) -> CardDB:
        return self.ctx.cards

    @property
    def action_space(self) -> ActionSpace:
        return self.ctx.space

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def winner(self) -> int | None:
        return None if self.outcome is None else self.outcome.winner

    @property
    def phase(self) -> str:
        return PHASE_OF_STEP[self.step]

    def legal_actions(self) -> list[int]:
        """The ids of every legal action for the player to move, ascending (empty when over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = rules.legal(self)
        # Sorted, so the list depends only on what the player knows, not on hand order.
        return sorted(legal)

    def legal_action_mask(self) -> list[bool]:
        mask = [False] * self.ctx.space.size
        for a in self.legal_actions():
            mask[a] = True
        return mask

    # The public methods that take an action or a player are typed ``object`` in their
    # implementation and check the type themselves (``_action_id``, ``_check_turn``, ``view``),
    # with the typed signature as an overload for type checkers. Why: compiled by mypyc, a
    # method checks its arguments against its annotation when called from Python, so
    # ``apply(None)`` raised mypyc's TypeError there instead of the engine's
    # InvalidActionError that the pure build raises (tests/engine/test_bad_input.py, run on
    # both builds by tests/compiled/). An ``object`` parameter costs no check at all.

    @overload
    def is_legal(self, action: int) -> bool: ...
    @overload
    def is_legal(self, action: str | Action) -> bool: ...
    def is_legal(self, action: object) -> bool:
        try:
            a = _action_id(self.ctx.space, action)
        except InvalidActionError:
            return False
        if self._legal is None:
            self.legal_actions()
        assert self._legal is not None
        return a in self._legal

    @overload
    def apply(self, action: int, *, player: int | None = None) -> Sequence[Event]: ...
    @overload
    def apply(self, action: str | Action, *, player: int | None = None) -> Sequence[Event]: ...
    def apply(self, action: object, *, player: object = None) -> Sequence[Event]:
        """Make one decision and return the events it caused (none when events are not
        recorded). Raises ``IllegalActionError`` (and changes nothing) if not legal.

        ``player``, when given, must be the player whose decision it is.
        """
        space = self.ctx.space
        if type(action) is int and 0 <= action < space.size:
            a: int = action
        else:
            a = _action_id(space, action)
        if self.outcome is not None or player is not None:
            self._check_turn(a, player)
        legal = self._legal
        if legal is None:
            legal = rules.legal(self)
        if a not in legal:
            raise IllegalActionError(rules.explain_illegal(self, a, legal))
        self._legal = None
        decoded = space.actions[a]
        if self.history is not None:
            self.history.append(a)
        events = self.events
        first = 0 if events is None else len(events)
        rules.HANDLERS[decoded.kind](self, decoded)
        if events is None:
            return NO_EVENTS
        new = events[first:]
        if self.tally is not None:
            self.tally.read(new)
        return new

    def _check_turn(self, a: int, player: object) -> None:
        """Raise unless the game goes on and ``player`` (when given) is the player to move."""
        space = self.ctx.space
        if self.outcome is not None:
            raise IllegalActionError(
                f"{space.text(a)!r} is not legal: the game is over "
                f"({self.outcome.winner_name} won: {self.outcome.reason})"
            )
        if player is None:
            return
        if type(player) is not int or player not in PLAYERS:
            raise InvalidActionError(f"player must be 0 (Rebel) or 1 (Imperial), got {player!r}")
        if player != self.to_move:
            raise IllegalActionError(
                f"{space.text(a)!r} is not legal: it is {PLAYER_NAMES[self.to_move]}'s decision, "
                f"not {PLAYER_NAMES[player]}'s"
            )

    def action(self, action_id: int) -> Action:
        return self.ctx.space[action_id]

    def action_text(self, action_id: int) -> str:
        return self.ctx.space.text(action_id)

    def parse_action(self, text: str) -> int:
        return self.ctx.space.parse(text)

    def legal_action_texts(self) -> list[str]:
        space = self.ctx.space
        return [space.text(a) for a in self.legal_actions()]

    def view(self, player: object) -> PlayerView:
        """What ``player`` (0 or 1) may know of this position (R5). Typed ``object`` and
        checked here: see ``apply``."""
        from .views import make_view

        if type(player) is not int or player not in PLAYERS:
            raise ValueError(f"player must be 0 (Rebel) or 1 (Imperial), got {player!r}")
        return make_view(self, player)

    def public_view(self) -> PlayerView:
        """What a spectator may know of this position: public information only."""
        from .views import make_public_view

        return make_public_view(self)

    def visible_events(self, player: int | None) -> list[Event]:
        """The events ``player`` may see (R5); None: a spectator's, the public ones."""
        return visible_events(self.events or (), player)

    def public_log_lines(self) -> list[str]:
        """The log without either player's hidden lines (what a spectator may read)."""
        return self._lines_for(None)

    def log_lines(self, player: int | None = None) -> list[str]:
        """The game log, as ``player`` may read it (None: the full log, for records)."""
        return self._rendered()[:] if player is None else self._lines_for(player)

    def _lines_for(self, reader: int | None) -> list[str]:
        """The log's lines that ``reader`` may see (R5; None: a spectator)."""
        events = self.events or ()
        return [line for e, line in zip(events, self._rendered(), strict=True) if sees(reader, e)]

    def _rendered(self) -> list[str]:
        """Every event's line of the log, each rendered once (events are only appended)."""
        events = self.events or ()
        lines = self._lines
        if len(lines) < len(events):
            names = self.ctx.tables.names
            lines.extend(render(e, names) for e in events[len(lines) :])
        return lines

    def clone(self, *, keep_log: bool = False) -> GameState:
        """A copy for search, sharing only immutable parts. The log and history are dropped
        unless ``keep_log`` (search does not read them; copying them would dominate the cost)."""
        c = GameState()  # not GameState.__new__: see empty()
        c.ctx = self.ctx
        c.seed = self.seed
        d = self.deck
        c.deck = [d[0][:], d[1][:]]
        d = self.hand
        c.hand = [d[0][:], d[1][:]]
        d = self.discard
        c.discard = [d[0][:], d[1][:]]
        d = self.active
        c.active = [d[0][:], d[1][:]]
        d = self.inactive
        c.inactive = [d[0][:], d[1][:]]
        c.att = self.att[:]
        c.busy = self.busy[:]
        c.turn = self.turn
        c.player = self.player
        c.step = self.step
        c.to_move = self.to_move
        c.points = self.points
        c.groups = self.groups[:]
        c.gkind = self.gkind[:]
        c.blocks = self.blocks[:]
        c.targets = self.targets[:]
        c.results = self.results[:]
        c.ion_used = self.ion_used
        c.atk_bonus = self.atk_bonus
        c.def_bonus = self.def_bonus
        c.passes = self.passes
        c.psions = self.psions
        c.battle_next = self.battle_next
        c.cas = self.cas
        c.pending_damage = self.pending_damage
        c.extra_attacks = self.extra_attacks
        s = self.seen
        c.seen = [s[0][:], s[1][:]]
        c.known = self.known[:]
        c.outcome = self.outcome
        c.rng = self.rng
        if keep_log:
            c.events = None if self.events is None else self.events[:]
            c.history = None if self.history is None else self.history[:]
            c._lines = self._lines[:]  # noqa: SLF001
        else:
            c.events = None
            c.history = None
            c._lines = []  # noqa: SLF001
        c.tally = None
        c._legal = self._legal  # noqa: SLF001 (c is a GameState: its own class's field)
        return c

    def key(self) -> tuple[Any, ...]:
        """Everything that decides the game from here on (not the log): equal keys, equal games."""
        return (
            self.ctx.cards.types,
            self.ctx.options,
            tuple(map(tuple, self.deck)),
            tuple(tuple(sorted(h)) for h in self.hand),
            tuple(map(tuple, self.discard)),
            tuple(map(tuple, self.active)),
            tuple(map(tuple, self.inactive)),
            tuple(self.att),
            bytes(self.busy),
            self.turn,
            self.player,
            self.step,
            self.to_move,
            self.points,
            tuple(self.groups),
            tuple(self.gkind),
            tuple(self.blocks),
            tuple(self.targets),
            tuple(self.results),
            self.ion_used,
            self.atk_bonus,
            self.def_bonus,
            self.passes,
            self.psions,
            self.battle_next,
            self.cas,
            self.pending_damage,
            self.extra_attacks,
            tuple(map(tuple, self.seen)),
            tuple(self.known),
            self.outcome,
            self.rng,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self.key() == other.key()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<GameState turn {self.turn} {PLAYER_NAMES[self.player]} {STEP_NAMES[self.step]}"
            f" decks {len(self.deck[0])}/{len(self.deck[1])}>"
        )

    # ----------------------------------------------------------------- helpers for the rules

    def offer(self, step: int, player: int, legal: list[int]) -> None:
        """Wait for ``player``'s decision in ``step``, whose legal actions the rules have just
        listed (to know whether to skip the step, R34): kept, so they are not listed twice."""
        self.step = step
        self.to_move = player
        self._legal = legal

    def forget_legal(self) -> None:
        """Drop the legal actions listed so far: for code that changed the position by hand (a
        redeal, a test); they are listed again when next asked."""
        self._legal = None

    def mark_over(self, outcome: Outcome) -> None:
        """The game is over with ``outcome`` and no action is legal: for a position rebuilt
        from a view (``finish`` is how the rules end a game)."""
        self.outcome = outcome
        self._legal = []

    def emit(self, event: Event) -> None:
        """Record an event. Rules guard the call with ``if s.events is not None`` where building
        the event costs anything, so search and simulation pay nothing."""
        if self.events is not None:
            self.events.append(event)

    def name(self, instance: int) -> str:
        t = self.ctx.tables
        return t.names[t.type_of[instance]]

    def take_from_hand(self, player: int, card_type: int) -> int:
        """Remove a card of ``card_type`` from a hand (it is being played or discarded)."""
        type_of = self.ctx.tables.type_of
        hand = self.hand[player]
        for c in hand:
            if type_of[c] == card_type:
                hand.remove(c)
                known = self.known[1 - player]
                if card_type in known:
                    rest = list(known)
                    rest.remove(card_type)
                    self.known[1 - player] = tuple(rest)
                return c
        raise AssertionError("a legal action names a card that is not in the hand")

    def show_into_hand(self, player: int, card: int) -> None:
        """Put a card into a hand in front of both players (R26)."""
        self.hand[player].append(card)
        opponent = 1 - player
        self.known[opponent] = tuple(sorted((*self.known[opponent], self.ctx.tables.type_of[card])))

    def shuffle_deck(self, player: int) -> None:
        self.rng = shuffle(self.deck[player], self.rng)

    def finish(self, winner: int, reason: EndReason, card: int = -1) -> None:
        """R9: the game is over; ``card`` is the search card that emptied the deck, if one did."""
        t = self.ctx.tables
        card_type = t.type_of[card] if card >= 0 else -1
        name = t.names[card_type] if card >= 0 else ""
        self.outcome = Outcome(winner, end_reason_text(reason, 1 - winner, name))
        self.step = OVER
        self.to_move = -1
        self._legal = []
        self.emit(GameOver(winner, reason, card_type))

    def remove_from_play(self, unit: int) -> None:
        for zones in (self.active, self.inactive):
            for zone in zones:
                if unit in zone:
                    zone.remove(unit)
                    return
        raise AssertionError(f"unit {unit} is not in play")

    def to_discard(self, card: int) -> None:
        """R4: a card always goes to its owner's discard pile."""
        self.discard[self.ctx.tables.owner[card]].append(card)

    def destroy(self, unit: int) -> None:
        """Discard a unit in play with everything attached to it (R18, R28)."""
        self.remove_from_play(unit)
        self.to_discard(unit)
        for card in self.att[unit]:
            self.to_discard(card)
        self.att[unit] = ()
