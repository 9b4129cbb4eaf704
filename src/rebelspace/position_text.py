"""Positions as text: the ``rebelspace scenario`` designer tool, and the battle in progress.

The numbers beside units and groups are the view's, computed by the engine as the rules use
them (current ratings, battle values, damage after Defense Shields), never worked out here.
The terminal game itself (``rebelspace play``) is ``rebelspace.terminal``; it shows the battle
in progress with ``battle_lines``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rebelspace.engine import (
    BattleView,
    GameState,
    GroupView,
    UnitView,
    read,
)

Reader = Callable[[str], str]
Writer = Callable[[str], None]

NOTHING = "-"
WIDTH = 100  # wrap long zones between card names


# --- rendering ---------------------------------------------------------------------------------


def unit_text(unit: UnitView, side: str) -> str:
    """``Princess [Laser Sword] (6/0/2)``: name, attachments, then the unit's current
    ground/space/damage (attachments and psion cards counted, and the battle bonus while it
    fights, R13/R30); a hero in ``side``'s zone owned by the other side is marked (R28)."""
    text = unit.name
    if unit.attachments:
        text += " [" + ", ".join(unit.attachments) + "]"
    if unit.owner != side:
        text += f" (converted {unit.owner} hero)"
    return text + f" ({unit.ground}/{unit.space}/{unit.damage})"


def units_text(units: Sequence[UnitView], side: str) -> str:
    return ", ".join(unit_text(u, side) for u in units) or NOTHING


def grouped_units_text(units: Sequence[UnitView], side: str) -> str:
    """``units_text`` with identical units once, with their number: ``Interceptors ×2
    (0/2/1)`` (the narrow board, where every column counts)."""
    counts: dict[str, int] = {}
    for u in units:
        text = unit_text(u, side)
        counts[text] = counts.get(text, 0) + 1
    entries = [
        text if n == 1 else text.replace(" (", f" ×{n} (", 1) if " (" in text else f"{text} ×{n}"
        for text, n in counts.items()
    ]
    return ", ".join(entries) or NOTHING


def wrapped(head: str, names: Sequence[str], width: int = WIDTH) -> str:
    """``head`` and the names, wrapped between names (never inside one) at ``width``."""
    if not names:
        return head + NOTHING
    lines, line = [], head
    for k, name in enumerate(names):
        piece = name + ("," if k < len(names) - 1 else "")
        if line != head and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = "    " + piece
        else:
            line += ("" if line == head else " ") + piece
    lines.append(line)
    return "\n".join(lines)


#: Steps before the battles are fought: a group without blockers or target is unblocked then.
BEFORE_BATTLES = frozenset({"form groups", "ion cannon", "block", "target", "battle tricks"})


def battle_lines(
    battle: BattleView, attacker: str, step: str, *, grouped: bool = False
) -> list[str]:
    """The attack in progress: each group with its value, its blockers or target, or the
    damage it deals unblocked (after Defense Shields, R20), all as the view gives them.
    ``grouped``: identical units once, with their number (``grouped_units_text``).

    During the battles (casualty picks), groups after the one picking casualties have not
    fought yet; a group before it with no defender either got through or beat its defenders
    (the view does not say which, so neither do we).
    """
    defender = "imperial" if attacker == "rebel" else "rebel"
    bonus = []
    if battle.attack_bonus:
        bonus.append(f"attackers +{battle.attack_bonus} each")
    if battle.defense_bonus:
        bonus.append(f"defenders +{battle.defense_bonus} each")
    lines = [f"Battle ({attacker.capitalize()} attacks{': ' + '; '.join(bonus) if bonus else ''}):"]
    fighting = battle.casualty_group
    say = grouped_units_text if grouped else units_text
    for g in battle.groups:
        head = f"  group {g.number} ({g.kind}): "
        if not g.units:
            lines.append(head + "destroyed")
            continue
        text = f"{head}{say(g.units, attacker)} = {g.attack_value}"
        lines.append(text + _facing(g, defender, step, fighting, say))
    for card, hero in battle.psion_cards:
        lines.append(f"  psion: {card} on {hero}")
    if fighting is not None:
        lines.append(
            f"  casualties after group {fighting}'s battle: ratings up to "
            f"{battle.casualty_budget} in all"
        )
    return lines


def _facing(
    g: GroupView,
    defender: str,
    step: str,
    fighting: int | None,
    say: Callable[[Sequence[UnitView], str], str] = units_text,
) -> str:
    """What a group with units faces: its blockers or target, or how it stands without."""
    if g.blockers:
        return f"; blocked by {say(g.blockers, defender)} = {g.defense_value}"
    if g.target is not None:
        return f"; targets {unit_text(g.target, defender)} = {g.defense_value}"
    if g.damage is not None and (
        step in BEFORE_BATTLES or (fighting is not None and g.number > fighting)
    ):
        return f"; unblocked, damage {g.damage}"
    if g.number == fighting:
        return "; won its battle"
    return "; no defender left"


def action_lines(legal: Sequence[tuple[int, str]]) -> list[str]:
    width = len(str(len(legal)))
    return [f"  {n:>{width}}. {text}" for n, (_, text) in enumerate(legal, start=1)]


# --- a whole position, for designers (``rebelspace scenario``) -----------------------------------
# A scenario is a design and test tool, so this shows everything: both hands and the order of
# both decks. It is never used during play, where each side sees only its own view.


def unit_dict(unit: UnitView) -> dict[str, Any]:
    """A unit as a scenario file writes it, so a printed zone can be pasted into a scenario."""
    return {"name": unit.name, "attachments": list(unit.attachments)}


def battle_dict(battle: BattleView, attacker: str) -> dict[str, Any]:
    groups = []
    for g in battle.groups:
        groups.append(
            {
                "number": g.number,
                "kind": g.kind,
                "units": [unit_dict(u) for u in g.units],
                "value": g.attack_value if g.units else None,
                "blockers": [unit_dict(u) for u in g.blockers],
                "target": unit_dict(g.target) if g.target is not None else None,
                "defense_value": g.defense_value,
            }
        )
    return {
        "attacker": attacker,
        "groups": groups,
        "attack_bonus": battle.attack_bonus,
        "defense_bonus": battle.defense_bonus,
        "psion_cards": [list(pair) for pair in battle.psion_cards],
        "casualty_group": battle.casualty_group,
        "casualty_budget": battle.casualty_budget,
    }


def position_dict(game: GameState) -> dict[str, Any]:
    """Everything about a position: the JSON of ``rebelspace scenario --json``.

    Zones are per side: ``hand`` (sorted), ``deck`` (top card first, as a scenario's ``deck``
    field), ``discard`` (oldest first), ``active``/``inactive`` (units as ``{"name",
    "attachments"}``). ``battle`` is null outside an attack with groups.
    """
    views = (game.view(0), game.view(1))
    zones: dict[str, Any] = {}
    for p, view in enumerate(views):
        side = view.you
        zones[side.player] = {
            "hand": list(side.hand or ()),
            # Deck order is hidden from both players (R5), so no view holds it; this designer
            # tool reads it from the state, top card (the end of the list) first.
            "deck": [game.name(c) for c in reversed(read.deck_order(game, p))],
            "discard": list(side.discard),
            "active": [unit_dict(u) for u in side.active],
            "inactive": [unit_dict(u) for u in side.inactive],
        }
    v = views[0]
    return {
        "turn": v.turn,
        "phase": v.phase,
        "step": v.step,
        "player": v.active_player,
        "to_move": v.to_move,
        "deploy_points": v.deploy_points,
        "zones": zones,
        "battle": None if v.battle is None else battle_dict(v.battle, v.active_player),
        "legal_actions": game.legal_action_texts(),
        "winner": v.winner,
        "end_reason": v.end_reason,
        "log": game.log_lines(),
    }


def position_lines(game: GameState, width: int = WIDTH) -> list[str]:
    """``position_dict`` as readable text (``rebelspace scenario``)."""
    views = (game.view(0), game.view(1))
    v = views[0]
    deciding = "game over" if v.to_move is None else f"{v.to_move.capitalize()} to decide"
    lines = [
        f"Turn {v.turn}, {v.active_player.capitalize()}'s turn: {v.phase} phase, step {v.step}; "
        f"{deciding}"
        + (f"; {v.deploy_points} deploy points left" if v.deploy_points is not None else "")
    ]
    for p, view in enumerate(views):
        side = view.you
        # top first, see position_dict
        deck = [game.name(c) for c in reversed(read.deck_order(game, p))]
        lines += [
            f"{side.player.capitalize()}:",
            wrapped(f"  hand ({side.hand_size}): ", list(side.hand or ()), width),
            wrapped(f"  deck ({len(deck)}, top first): ", deck, width),
            wrapped(f"  discard ({len(side.discard)}): ", list(side.discard), width),
            wrapped("  active:   ", [unit_text(u, side.player) for u in side.active]),
            wrapped("  inactive: ", [unit_text(u, side.player) for u in side.inactive]),
        ]
    if v.battle is not None:
        lines += battle_lines(v.battle, v.active_player, v.step)
    if v.winner is not None:
        lines.append(f"Game over: {v.winner.capitalize()} wins ({v.end_reason})")
    else:
        lines.append(f"Legal actions ({(v.to_move or '').capitalize()}):")
        lines += action_lines(list(enumerate(game.legal_action_texts())))
    lines.append("Log:")
    lines += [f"  | {line}" for line in game.log_lines()]
    return lines
