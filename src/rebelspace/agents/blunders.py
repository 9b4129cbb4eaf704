"""Blunders a player would spot in a played game, counted from the engine's events and the
states along the way (issue 17). Structured values only: no log text is read.

Two kinds are counted, each on the player who made the choice:

**Attacks for nothing.** An *attack* is one attack phase in which the attacker declared groups
(an extra phase from Multiple Targets is an attack of its own). It was *for nothing* when

1. it dealt no damage (the ``GotThrough`` damage of the phase is 0), and
2. the defender lost no unit (no battle ended with the defenders destroyed, no casualty taken
   from a winning defence), and
3. at least one *blocked* battle destroyed attackers (lost, or tied under R18). Blockers come
   from the defender's Active Zone, which the attacker saw when it declared the attack; a lost
   fight with its own target, or a Ship lost to the Ion Cannon, does not count.

``AttackCheck.visible`` says whether such a battle was lost *on visible numbers*: the blockers'
battle value without tricks or psion cards (their ratings when the attack was declared, which
nothing changes before the battle tricks, R17) was at least the group's value measured the
same way. Otherwise a hidden card decided it (a Trap or a psion card the attacker did not
answer): an attack into possible tricks, the other half of the same mistake.

**Battle cards that changed nothing.** Every card played in the battle-tricks window (R17:
Surprise Attack, Trap, Multiple Targets and the psion cards, R24) is judged against a
counterfactual: from the state just before it, the player passes instead and so does the
opponent, which closes the window (the opponent's later cards were answers to this one, and
the player's own later cards could not have been played); the battles are then fought with
the *same later choices where legal*: each casualty of a battle is the loser's real pick when
still legal, else the heuristic's. The card *changed nothing* when the attack phase ends with
the same result either way: for every battle, the same group, blocked or targeted, and winner
(``BattleResult``); the same casualties (card types per group and side); and the same damage.
Battle values may differ: a bigger win is the same win. So a Surprise Attack answered by a
Trap that restores a tie changed nothing (two cards burnt), while that Trap changed the
result (it turned a loss into the tie). Multiple Targets changes no battle; it also changed
nothing when the extra attack phase it gave (R22) had no battle and dealt no damage. (If two
copies are played in one window, both are judged by that one extra phase.) The counterfactual
is a hindsight measure: an opponent that would have played its card anyway, had the player
passed, is not modelled, so a card that pre-empted such a play may count as changing nothing.

``find_blunders(start, actions)`` replays ``actions`` from a copy of ``start`` (a position with
events recorded, e.g. a fresh ``new_game(seed)`` or a scenario) and returns one
``AttackCheck`` per attack and one ``CardCheck`` per battle card. It reads the true state: it is
an analysis tool for finished games, never a player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from rebelspace.engine import (
    BATTLE_CARD_KINDS,
    BattleResult,
    GameState,
    Step,
    group_value,
    read,
)
from rebelspace.engine.events import (
    BattleResolved,
    CasualtyPicked,
    Event,
    ExtraAttackPhase,
    GotThrough,
)

from .heuristic import heuristic_action

ATTACK_STEPS = frozenset({Step.FORM, Step.ION, Step.BLOCK, Step.TARGET, Step.TRICKS, Step.CASUALTY})
MAX_COUNTERFACTUAL_PLIES = 500  # a window and its casualties take a few dozen at most


class Outcome(NamedTuple):
    """What an attack phase came to, the battle values left out (module doc)."""

    battles: tuple[tuple[int, bool, int], ...]  # (group, blocked, BattleResult), sorted
    casualties: tuple[tuple[int, int, int], ...]  # (group, whose: 0 attacker, card type), sorted
    damage: int

    @property
    def empty(self) -> bool:
        """No battle and no damage."""
        return not self.battles and self.damage == 0


class AttackCheck(NamedTuple):
    """One attack (attack phase with groups) and whether it was for nothing."""

    ply: int  # index in ``actions`` of the first decision after the groups were declared
    player: int  # the attacker
    groups: int
    for_nothing: bool
    visible: bool  # for nothing, and lost on visible numbers (module doc)


class CardCheck(NamedTuple):
    """One card played in a battle-tricks window and whether it changed anything."""

    ply: int  # index in ``actions``
    player: int
    card: int  # card type
    changed: bool


class GameBlunders(NamedTuple):
    attacks: list[AttackCheck]
    cards: list[CardCheck]


class Ply(NamedTuple):
    """One decision of the replayed game, as pass 1 saw it."""

    step: int
    player: int
    action: int
    phase: int  # index into the phases, -1 outside attack phases
    first_event: int  # its events are ``events[first_event:last_event]``
    last_event: int
    cas_group: int  # the battle whose casualty is picked (CASUALTY step), else -1


def outcome(events: Iterable[Event], attacker: int) -> Outcome:
    """The ``Outcome`` of the battle events of one attack phase."""
    battles: list[tuple[int, bool, int]] = []
    casualties: list[tuple[int, int, int]] = []
    damage = 0
    for e in events:
        if isinstance(e, BattleResolved):
            battles.append((e.group, e.blocked, int(e.result)))
        elif isinstance(e, CasualtyPicked):
            # The picker lost the battle: the casualty is the other side's unit.
            casualties.append((e.group, int(e.player == attacker), e.card))
        elif isinstance(e, GotThrough):
            damage += e.damage
    return Outcome(tuple(sorted(battles)), tuple(sorted(casualties)), damage)


# ----------------------------------------------------------------------------- pass 1: replay


class _Phase:
    """An attack phase being replayed."""

    __slots__ = ("turn", "attacker", "plies", "open_values", "groups", "extra_follows", "first_ply")

    def __init__(self, turn: int, attacker: int, first_ply: int) -> None:
        self.turn = turn
        self.attacker = attacker
        self.first_ply = first_ply
        self.plies: list[int] = []
        # Per blocked group: (attack value, blockers' value) without tricks or psion cards.
        self.open_values: dict[int, tuple[int, int]] | None = None
        self.groups = 0  # groups that went into the battle tricks
        self.extra_follows = False


def _open_values(s: GameState) -> dict[int, tuple[int, int]]:
    """Each blocked group's value and its blockers' value, before any trick (bonus 0)."""
    out: dict[int, tuple[int, int]] = {}
    b = read.battle(s)
    for g, units in enumerate(b.groups):
        if units and b.blocks[g]:
            kind = b.kinds[g]
            out[g] = (group_value(s, units, kind, 0), group_value(s, b.blocks[g], kind, 0))
    return out


class _Replay:
    """Pass 1: the game played again, with each decision's step, phase and events, and a copy
    of the state before each battle card."""

    def __init__(self, start: GameState, actions: Sequence[int]) -> None:
        if start.events is None:
            raise ValueError("find_blunders needs a position that records events (log=True)")
        self.state = start.clone(keep_log=True)
        self.plies: list[Ply] = []
        self.phases: list[_Phase] = []
        self.before_card: dict[int, GameState] = {}
        for a in actions:
            self._apply(a)

    def _phase_of(self, s: GameState) -> int:
        """The phase this decision belongs to, starting a new one where a phase begins."""
        if s.step not in ATTACK_STEPS:
            return -1
        prev = self.plies[-1] if self.plies else None
        new = prev is None or prev.phase < 0 or (s.step == Step.FORM and prev.step != Step.FORM)
        if new:
            self.phases.append(_Phase(s.turn, s.player, len(self.plies)))
        return len(self.phases) - 1

    def _apply(self, a: int) -> None:
        s = self.state
        i = len(self.plies)
        phase = self._phase_of(s)
        if phase >= 0:
            ph = self.phases[phase]
            ph.plies.append(i)
            if ph.open_values is None and s.step == Step.TRICKS:
                ph.open_values = _open_values(s)
                ph.groups = sum(1 for units in read.battle(s).groups if units)
        if s.step == Step.TRICKS and s.ctx.space.actions[a].kind in BATTLE_CARD_KINDS:
            self.before_card[i] = s.clone(keep_log=True)
        cas = read.casualty(s)
        cas_group = cas.group if s.step == Step.CASUALTY and cas is not None else -1
        assert s.events is not None
        first = len(s.events)
        step, player = s.step, s.to_move
        new = s.apply(a)
        if phase >= 0 and any(isinstance(e, ExtraAttackPhase) for e in new):
            self.phases[phase].extra_follows = True
        self.plies.append(Ply(step, player, a, phase, first, len(s.events), cas_group))

    def phase_events(self, phase: int, from_ply: int = 0) -> list[Event]:
        events = self.state.events
        assert events is not None
        out: list[Event] = []
        for i in self.phases[phase].plies:
            if i >= from_ply:
                p = self.plies[i]
                out.extend(events[p.first_event : p.last_event])
        return out

    def extra_phase(self, phase: int) -> int | None:
        """The extra attack phase that followed ``phase`` (R22), if it had any decision."""
        ph = self.phases[phase]
        nxt = phase + 1
        if ph.extra_follows and nxt < len(self.phases) and self.phases[nxt].turn == ph.turn:
            return nxt
        return None


# ----------------------------------------------------------------------------- attacks


def _attack_check(r: _Replay, phase: int) -> AttackCheck | None:
    ph = r.phases[phase]
    if ph.open_values is None:  # no groups fought: "no attack", or all lost to the Ion Cannon
        return None
    got = outcome(r.phase_events(phase), ph.attacker)
    defender_lost = any(res != BattleResult.DEFENDER_WON for _, _, res in got.battles) or any(
        whose == 1 for _, whose, _ in got.casualties
    )
    lost = [g for g, blocked, res in got.battles if blocked and res != BattleResult.ATTACKER_WON]
    visible_loss = any(
        g in ph.open_values and ph.open_values[g][1] >= ph.open_values[g][0] for g in lost
    )
    first = next(i for i in ph.plies if r.plies[i].step != Step.FORM)
    nothing = bool(lost) and got.damage == 0 and not defender_lost
    return AttackCheck(first, ph.attacker, ph.groups, nothing, nothing and visible_loss)


# ----------------------------------------------------------------------------- battle cards


def _later_picks(r: _Replay, phase: int, ply: int) -> dict[int, list[int]]:
    """The real casualty picks after ``ply`` in ``phase``, per battle (group), in order."""
    picks: dict[int, list[int]] = {}
    for i in r.phases[phase].plies:
        p = r.plies[i]
        if i > ply and p.step == Step.CASUALTY:
            picks.setdefault(p.cas_group, []).append(p.action)
    return picks


def _take_first_legal(wanted: list[int], legal: Sequence[int]) -> int | None:
    for k, a in enumerate(wanted):
        if a in legal:
            del wanted[k]
            return a
    return None


def counterfactual_outcome(before: GameState, picks: dict[int, list[int]]) -> Outcome:
    """The attack phase's outcome had both players passed at ``before`` (module doc); each
    casualty is the next of ``picks`` for its battle that is legal, else the heuristic's."""
    s = before.clone(keep_log=True)
    attacker = s.player
    events: list[Event] = []
    for _ in range(MAX_COUNTERFACTUAL_PLIES):
        if s.step == Step.TRICKS:
            a = s.ctx.space.pass_
        elif s.step == Step.CASUALTY:
            cas = read.casualty(s)
            assert cas is not None
            legal = s.legal_actions()
            wanted = _take_first_legal(picks.get(cas.group, []), legal)
            a = heuristic_action(s, legal) if wanted is None else wanted
        else:
            return outcome(events, attacker)
        events.extend(s.apply(a))
    raise RuntimeError("a counterfactual battle window did not close")


def _card_check(r: _Replay, ply: int) -> CardCheck:
    p = r.plies[ply]
    phase = p.phase
    attacker = r.phases[phase].attacker
    real = outcome(r.phase_events(phase, ply), attacker)
    before = r.before_card[ply]
    imagined = counterfactual_outcome(before, _later_picks(r, phase, ply))
    changed = real != imagined
    card = before.ctx.space.actions[p.action].card
    tables = before.ctx.tables
    effect = tables.type_effect[card]
    if effect is not None and effect.extra_attacks:  # its extra attack phase counts too (R22)
        extra = r.extra_phase(phase)
        if extra is not None:
            changed = changed or not outcome(r.phase_events(extra), attacker).empty
    return CardCheck(ply, p.player, card, changed)


def find_blunders(start: GameState, actions: Sequence[int]) -> GameBlunders:
    """Every attack and battle card of the game ``actions`` play from ``start`` (module doc)."""
    r = _Replay(start, actions)
    attacks = [c for k in range(len(r.phases)) if (c := _attack_check(r, k)) is not None]
    cards = [_card_check(r, i) for i in sorted(r.before_card)]
    return GameBlunders(attacks, cards)
