"""The turn's step graph: which step follows which, and which steps play themselves (R34).

::

    setup (R6) -> DRAW -> activation (R10) -> attack phase -> DEPLOY -> END [-> DISCARD] -> DRAW
    attack phase:  FORM -> ION -> BLOCK -> TARGET -> TRICKS -> battles [CASUALTY while the
                   loser picks] -> damage (R21) -> another attack phase (R22) or DEPLOY;
                   "no attack" goes from FORM straight to DEPLOY.
    R9 ends the game after a draw, a search or the damage (``GameState.finish``).

The phase modules (``turn``, ``attack``, ``battle``) list each step's legal actions and do
what each action does to the position; they never move the game to another step and never
import each other. This module moves it: it imports them, and they do not import it. The
handlers here are the actions that end a step (or pass the decision to the other player).

The steps that play themselves instead of asking a player are declared in ``Automation``,
as pokerkit declares its automations, so a reader sees every decision the engine takes for a
player in one place.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from ..events import ExtraAttackPhase, NoAttack, NoAttacker, TurnStarted
from ..options import FIRST_PLAYERS
from ..steps import BLOCK, CASUALTY, DEPLOY, DISCARD, DRAW, END, FORM, ION, TARGET, TRICKS
from . import attack, battle, turn
from .copies import chosen

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..actions import Action
    from ..state import GameState


class Automation(Enum):
    """A step that plays itself, and when (R34, "No empty decisions").

    Each condition follows from public information (units in play, never a hand), so that a
    skipped step tells nobody anything hidden. Steps whose options depend on a hand (draw,
    battle tricks, deploy, end, discard) are always offered, even when "done" or "pass" is the
    only choice (R17, R34). A condition is tested when the game enters its step (and, for the
    Ion Cannon and targets, after each shot or target); once a player is deciding, "done" is
    theirs to say, after the last possible block say.
    """

    NO_ATTACKER = (FORM, "the attacker has no unit that can attack (R11): no attack phase")
    NO_ION_SHOT = (ION, "no ready Ion Cannon, or no attacking Ship to shoot (R14)")
    NO_BLOCK = (BLOCK, "no defending unit can block any group (R15)")
    NO_TARGET = (TARGET, "no unblocked group has a unit it could target (R16)")
    NO_CASUALTY = (CASUALTY, "no unit of the winning group fits the loser's budget (R19)")
    NOTHING_TO_FIGHT = (TRICKS, "the Ion Cannon destroyed every attacking unit (R34 on R17)")

    # Read from the value, not set by an __init__: mypyc (setup.py) compiles an Enum's
    # __init__ so that it rejects the members Enum passes it. The same two attributes.
    @property
    def step(self) -> int:
        step: int = self.value[0]
        return step

    @property
    def when(self) -> str:
        when: str = self.value[1]
        return when


# ----------------------------------------------------------------------------- the turn


def setup(s: GameState) -> None:
    """R6: deal, then the Rebel begins (unless the ``first_player`` option says otherwise)."""
    turn.deal(s)
    if s.outcome is None:
        begin_turn(s, FIRST_PLAYERS.index(s.ctx.options.first_player))


def begin_turn(s: GameState, player: int) -> None:
    s.player = player
    s.step = DRAW
    s.to_move = player
    if s.events is not None:
        s.emit(TurnStarted(s.turn, player, (len(s.deck[0]), len(s.deck[1]))))


def do_draw(s: GameState, a: Action) -> None:
    turn.draw(s, a.count)
    if s.outcome is None:
        begin_attack(s)


def begin_deploy(s: GameState) -> None:
    s.step = DEPLOY
    s.to_move = s.player
    s.points = s.ctx.options.deploy_points
    # R22: an extra attack phase left unused (no unit could attack, or the player did not
    # attack) ends with the attack phases of this turn; it never passes to the opponent.
    s.extra_attacks = 0


def do_done_deploying(s: GameState, _a: Action) -> None:
    s.step = END
    s.to_move = s.player


def do_end_turn(s: GameState, _a: Action) -> None:
    if turn.over_hand_limit(s):  # R25
        s.step = DISCARD
        s.to_move = s.player
        return
    _next_turn(s)


def do_discard(s: GameState, a: Action) -> None:
    turn.discard(s, a.card)
    if not turn.over_hand_limit(s):
        _next_turn(s)


def _next_turn(s: GameState) -> None:
    s.turn += 1
    begin_turn(s, 1 - s.player)


# ----------------------------------------------------------------------------- the attack phase


def begin_attack(s: GameState) -> None:
    """An attack phase (R11), the extra one of R22 too."""
    attack.reset_attack(s)
    s.step = FORM
    s.to_move = s.player
    if not attack.has_attacker(s):  # Automation.NO_ATTACKER
        if s.events is not None:
            s.emit(NoAttacker(s.player))
        begin_deploy(s)


def do_no_attack(s: GameState, _a: Action) -> None:
    if s.events is not None:
        s.emit(NoAttack(s.player))
    begin_deploy(s)


def do_attack(s: GameState, _a: Action) -> None:
    attack.announce_attack(s)
    _begin_ion(s)


def _ask_unless_done_is_all(
    s: GameState,
    skip: Automation,
    player: int,
    legal_of: Callable[[GameState], list[int]],
    otherwise: Callable[[GameState], None],
) -> None:
    """Wait for ``player``'s decision in ``skip.step``, unless "done" is all it could do: then
    go on to ``otherwise`` (R34)."""
    legal = legal_of(s)
    if len(legal) > 1:
        s.offer(skip.step, player, legal)
    else:
        otherwise(s)


def _begin_ion(s: GameState) -> None:
    _ask_unless_done_is_all(s, Automation.NO_ION_SHOT, 1 - s.player, attack.legal_ion, _begin_block)


def do_ion(s: GameState, a: Action) -> None:
    attack.fire_ion_cannon(s, a.card, a.group)
    _begin_ion(s)


def do_ion_hold(s: GameState, _a: Action) -> None:
    _begin_block(s)


def _begin_block(s: GameState) -> None:
    _ask_unless_done_is_all(s, Automation.NO_BLOCK, 1 - s.player, attack.legal_block, _begin_target)


def do_done_blocking(s: GameState, _a: Action) -> None:
    _begin_target(s)


def _begin_target(s: GameState) -> None:
    _ask_unless_done_is_all(s, Automation.NO_TARGET, s.player, attack.legal_target, _begin_tricks)


def do_target(s: GameState, a: Action) -> None:
    attack.choose_target(s, a.card, a.group, a.zone, chosen(s, a) if a.copy else -1)
    _begin_target(s)


def do_done_targeting(s: GameState, _a: Action) -> None:
    _begin_tricks(s)


def _begin_tricks(s: GameState) -> None:
    """R17: the window opens for both players once groups are declared, even for a player
    with nothing to play, so that whether it opened never reveals a hand."""
    if not any(s.groups):  # Automation.NOTHING_TO_FIGHT
        _begin_battles(s)
        return
    s.step = TRICKS
    s.to_move = s.player
    s.passes = 0


def do_play_trick(s: GameState, a: Action) -> None:
    attack.play_trick(s, a.card)
    _answer_trick(s)


def do_play_psion(s: GameState, a: Action) -> None:
    attack.play_psion(s, a.card, a.target, chosen(s, a) if a.copy else -1)
    _answer_trick(s)


def _answer_trick(s: GameState) -> None:
    """R17: a card played, the other player may answer; the window stays open."""
    s.passes = 0
    s.to_move = 1 - s.to_move


def do_pass(s: GameState, _a: Action) -> None:
    """R17: the window closes when both players pass in a row."""
    s.passes += 1
    if s.passes >= 2:
        _begin_battles(s)
    else:
        s.to_move = 1 - s.to_move


# ----------------------------------------------------------------------------- the battles


def _begin_battles(s: GameState) -> None:
    battle.measure_damage(s)
    _fight_battles(s)


def _fight_battles(s: GameState) -> None:
    """Fight the remaining battles in group order (R18, R21), stopping while a loser picks
    casualties (R19)."""
    while s.battle_next < len(s.groups):
        g = s.battle_next
        s.battle_next += 1
        if battle.fight(s, g):
            if battle.eligible(s):
                s.step = CASUALTY
                s.to_move = battle.picker(s)
                return
            s.cas = None  # Automation.NO_CASUALTY
    _end_attack(s)


def do_pick(s: GameState, a: Action) -> None:
    battle.pick(s, a.card, chosen(s, a) if a.copy else -1)
    if not battle.eligible(s):  # Automation.NO_CASUALTY: the last pick that fitted
        s.cas = None
        _fight_battles(s)


def _end_attack(s: GameState) -> None:
    battle.end_attack(s)
    if s.outcome is not None:  # R9
        return
    if s.extra_attacks:  # R22
        s.extra_attacks -= 1
        if s.events is not None:
            s.emit(ExtraAttackPhase(s.player))
        begin_attack(s)
        return
    begin_deploy(s)
