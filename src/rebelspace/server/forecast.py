"""Each battle group's forecast in words, for the battle panel: who wins the battle as the cards
stand ("you lose this battle: 5 against 7", "tie: both destroyed"), or the damage a group that
nobody fights deals ("3 damage if unblocked"). From the view's battle values (the engine's,
``values.py``) and the rules' own battle result (R18, with the ``tie`` option), told from the
seat's side; a spectator is told the sides' names. The client only shows these words.
"""

from __future__ import annotations

from typing import Any

from rebelspace.engine import SIDE_NAMES, BattleResult, GroupView, PlayerView, battle_result

# The steps in which the defender may still block: an unblocked group's damage is "if unblocked".
BEFORE_BLOCKS = frozenset({"form groups", "ion cannon", "block"})
OUTCOME_NAMES = {
    BattleResult.ATTACKER_WON: "attacker",
    BattleResult.DEFENDER_WON: "defender",
    BattleResult.BOTH_DESTROYED: "both",
}
FOUGHT = {"attacker won": "attacker", "defender won": "defender", "both destroyed": "both"}


def _cap(side: str) -> str:
    return side[:1].upper() + side[1:]


def _shields(group: GroupView) -> str:
    if group.stopped > 0:
        return f" (Defense Shields stop {group.stopped} damage from Ships)"
    return ""


class _Sides:
    """Who attacks, who defends, and whose seat the words are for (None: a spectator)."""

    def __init__(self, view: PlayerView) -> None:
        self.attacker = str(view.active_player)
        self.defender = SIDE_NAMES[1 - SIDE_NAMES.index(self.attacker)]
        seat = str(view.player)
        self.me = seat if seat in SIDE_NAMES else None  # "spectator": the public view

    def verdict(self, winner: str, fought: bool) -> str:
        if self.me is None:
            return f"{_cap(winner)} {'won' if fought else 'wins'} this battle"
        mine = winner == self.me
        if fought:
            return f"you {'won' if mine else 'lost'} this battle"
        return f"you {'win' if mine else 'lose'} this battle"


def _fought(sides: _Sides, result: str) -> tuple[str, str]:
    outcome = FOUGHT[result]
    if outcome == "both":
        return outcome, "fought: a tie, both sides destroyed"
    winner = sides.attacker if outcome == "attacker" else sides.defender
    return outcome, f"fought: {sides.verdict(winner, fought=True)}"


def _unblocked(sides: _Sides, group: GroupView, step: str) -> tuple[str, str]:
    if not group.units or group.damage is None:
        return "none", "no unit left"
    if step in BEFORE_BLOCKS:
        return "unblocked", f"not blocked yet: {group.damage} damage if unblocked{_shields(group)}"
    deck = "your" if sides.me == sides.defender else f"{_cap(sides.defender)}'s"
    return "unblocked", f"unblocked: {group.damage} damage to {deck} deck{_shields(group)}"


def _battle(sides: _Sides, attack: int, defense: int, tie: str) -> tuple[str, str]:
    outcome = OUTCOME_NAMES[battle_result(attack, defense, tie)]
    # The seat's own value first ("5 against 7" for the side with 5); a spectator is told whose.
    if sides.me is None:
        score = f"{_cap(sides.attacker)} {attack} against {_cap(sides.defender)} {defense}"
    elif sides.me == sides.defender:
        score = f"{defense} against {attack}"
    else:
        score = f"{attack} against {defense}"
    if outcome == "both":
        return outcome, f"tie: both destroyed, {score}"
    winner = sides.attacker if outcome == "attacker" else sides.defender
    text = f"{sides.verdict(winner, fought=False)}: {score}"
    if attack == defense:  # the tie rules option gives it to one side
        text += f" (a tie goes to the {outcome})"
    return outcome, text


def group_forecast(view: PlayerView, group: GroupView, tie: str) -> dict[str, Any]:
    """One group's forecast: ``outcome`` ("attacker", "defender", "both", "unblocked" or
    "none"), ``fought`` (the battle is over: ``outcome`` is its result) and ``text``."""
    sides = _Sides(view)
    if group.result is not None:
        outcome, text = _fought(sides, group.result)
    elif group.defense_value is None:
        outcome, text = _unblocked(sides, group, str(view.step))
    else:
        outcome, text = _battle(sides, group.attack_value, group.defense_value, tie)
    return {
        "group": group.number,
        "outcome": outcome,
        "fought": group.result is not None,
        "text": text,
    }


def battle_forecast(view: PlayerView, tie: str) -> list[dict[str, Any]] | None:
    """Every group's forecast (``group_forecast``), in group order; None with no battle on."""
    if view.battle is None:
        return None
    return [group_forecast(view, g, tie) for g in view.battle.groups]
