"""Scenario files: set up any position by hand, then optionally play some actions.

A scenario is a JSON object (all fields optional unless said):

.. code-block:: json

    {
      "seed": 7,                       "shuffles the cards not placed by hand",
      "rules": {"tie": "both"},        "RulesOptions fields",
      "turn": 3,
      "player": "rebel",               "whose turn it is",
      "phase": "attack",               "draw | attack | deploy | end",
      "deploy_points": 3,              "deploy phase only: points left",
      "rebel": {
        "hand": ["Princess", "Rebel Spies"],
        "active": ["Rebel Soldier", {"name": "Princess", "attachments": ["Laser Sword"]}],
        "inactive": [],
        "discard": ["Grav Cycles"],
        "deck": ["Air Speeders", "Rebel Soldier"],   "exact deck, top first",
        "deck_top": ["Air Speeders"],                 "or: these on top, the rest shuffled",
        "deck_size": 10                               "deck size; unplaced extras are discarded"
      },
      "imperial": {"...": "same fields"},
      "battle": {                                     "attack phase only",
        "step": "tricks",              "form groups | block | target | tricks",
        "groups": [
          {"kind": "ground", "units": ["Princess", "Rebel Soldier"],
           "blockers": ["Battle Walkers"], "target": null}
        ]
      },
      "actions": ["pass", "pass"]
    }

Every card named comes from its owner's card list (names are unique across both lists), so a
hero listed in the other side's zone is a converted hero (R28). Cards of a side that the
scenario does not place go into that side's deck, shuffled by the seed (or, past
``deck_size``, into its discard pile). A target is ``"Battle Walkers"`` or
``{"name": "Battle Walkers", "zone": "inactive"}``. Any mistake raises ``ScenarioError``
naming the field.
"""

from __future__ import annotations

import os
from typing import Any, NoReturn

from .cards import SIDE_NAMES, CardDB
from .enums import KIND_NAMES
from .errors import ActionError, RebelSpaceError, ScenarioError, read_json
from .events import ScenarioStarted
from .options import RulesOptions
from .rules.attack import fits, starts
from .rules.flow import begin_attack, begin_deploy
from .state import (
    BLOCK,
    DRAW,
    END,
    FORM,
    SPACE_BATTLE,
    TARGET,
    TRICKS,
    GameState,
    context_for,
)

PHASES = ("draw", "attack", "deploy", "end")
BATTLE_STEPS = {"form groups": FORM, "block": BLOCK, "target": TARGET, "tricks": TRICKS}
SIDE_FIELDS = {"hand", "active", "inactive", "discard", "deck", "deck_top", "deck_size"}
TOP_FIELDS = {
    "seed",
    "rules",
    "turn",
    "player",
    "phase",
    "deploy_points",
    "rebel",
    "imperial",
    "battle",
    "actions",
    "description",
}


def load_scenario_file(path: str | os.PathLike[str], cards: CardDB | None = None) -> GameState:
    data = read_json(path, ScenarioError, "scenario")
    return load_scenario(data, cards=cards, source=str(path))


def load_scenario(
    data: Any, *, cards: CardDB | None = None, source: str = "scenario", log: bool = True
) -> GameState:
    """Build the position a scenario describes and play its actions."""
    return _Builder(data, cards, source, log).build()


class _Builder:
    def __init__(self, data: Any, cards: CardDB | None, source: str, log: bool) -> None:
        self.source = source
        if not isinstance(data, dict):
            self.fail("", "a scenario is a JSON object")
        unknown = sorted(set(data) - TOP_FIELDS)
        if unknown:
            self.fail(unknown[0], f"unknown field; known fields: {sorted(TOP_FIELDS)}")
        self.data = data
        rules = self.get("rules", dict, {})
        try:
            options = RulesOptions.from_dict(rules)
        except (RebelSpaceError, TypeError) as e:
            self.fail("rules", str(e))
        self.ctx = context_for(cards, options)
        self.log = log
        t = self.ctx.tables
        # Free instances of each card name, per owner: named cards are taken from here.
        self.pool: dict[str, list[int]] = {}
        for i in range(t.n):
            self.pool.setdefault(t.names[t.type_of[i]], []).append(i)

    def fail(self, field: str, message: str) -> NoReturn:
        where = f" field {field!r}:" if field else ""
        raise ScenarioError(f"{self.source}:{where} {message}")

    def get(self, field: str, kind: type, default: Any, data: Any = None, path: str = "") -> Any:
        data = self.data if data is None else data
        value = data.get(field, default)
        if (
            kind is int
            and type(value) is not int
            or kind is not int
            and not isinstance(value, kind)
        ):
            self.fail(path + field, f"must be {kind.__name__}, got {value!r}")
        return value

    def take(self, name: Any, field: str) -> int:
        if not isinstance(name, str):
            self.fail(field, f"a card is named by a string, got {name!r}")
        free = self.pool.get(name)
        if free is None:
            self.fail(field, f"no card named {name!r} in the card list")
        if not free:
            self.fail(field, f"more copies of {name!r} than the card list holds")
        return free.pop(0)

    def build(self) -> GameState:
        t = self.ctx.tables
        seed = self.get("seed", int, 0)
        s = GameState.empty(self.ctx, seed, self.log)
        s.turn = self.get("turn", int, 1)
        if s.turn < 1:
            self.fail("turn", "must be 1 or more")
        player = self.get("player", str, "rebel")
        if player not in SIDE_NAMES:
            self.fail("player", f"must be one of {SIDE_NAMES}, got {player!r}")
        s.player = SIDE_NAMES.index(player)
        for p, side in enumerate(SIDE_NAMES):
            self.place_side(s, p, self.get(side, dict, {}), side)
        for p, side in enumerate(SIDE_NAMES):
            self.fill_deck(s, p, self.get(side, dict, {}), side)
        for u in range(t.n):
            if s.att[u] and not t.is_hero[u]:
                self.fail("attachments", f"{s.name(u)} is not a hero; only heroes carry cards")
        phase = self.get("phase", str, "draw")
        if phase not in PHASES:
            self.fail("phase", f"must be one of {PHASES}, got {phase!r}")
        s.emit(ScenarioStarted(s.turn, s.player, phase))
        self.start_phase(s, phase)
        s.history = None  # a scenario is not replayable from a seed alone
        self.apply_actions(s)
        return s

    def apply_actions(self, s: GameState) -> None:
        """The scenario's ``actions``, played from the position it sets up."""
        actions = self.get("actions", list, [])
        for i, text in enumerate(actions):
            if not isinstance(text, str):
                self.fail(f"actions[{i}]", f"an action is its text form, got {text!r}")
            try:
                s.apply(text)
            except ActionError as e:
                self.fail(f"actions[{i}]", str(e))

    def start_phase(self, s: GameState, phase: str) -> None:
        """Put the game at the start of ``phase`` (with the battle or deploy points given)."""
        if "battle" in self.data and phase != "attack":
            self.fail("battle", "only an attack phase has a battle")
        if phase == "draw":
            s.step = DRAW
            s.to_move = s.player
        elif phase == "attack":
            begin_attack(s)
            if "battle" in self.data:
                self.place_battle(s, self.get("battle", dict, {}))
        elif phase == "deploy":
            begin_deploy(s)
            s.points = self.get("deploy_points", int, self.ctx.options.deploy_points)
            if s.points < 0:
                self.fail("deploy_points", f"must be 0 or more, got {s.points}")
        elif phase == "end":
            s.step = END
            s.to_move = s.player
        if "deploy_points" in self.data and phase != "deploy":
            self.fail("deploy_points", "only the deploy phase has deploy points")

    def place_side(self, s: GameState, p: int, side: dict[str, Any], name: str) -> None:
        unknown = sorted(set(side) - SIDE_FIELDS)
        if unknown:
            self.fail(f"{name}.{unknown[0]}", f"unknown field; known: {sorted(SIDE_FIELDS)}")
        t = self.ctx.tables
        for zone_name in ("hand", "discard"):
            zone = getattr(s, zone_name)[p]
            for i, card in enumerate(self.get(zone_name, list, [], side, f"{name}.")):
                zone.append(self.take(card, f"{name}.{zone_name}[{i}]"))
        for zone_name in ("active", "inactive"):
            zone = getattr(s, zone_name)[p]
            for i, entry in enumerate(self.get(zone_name, list, [], side, f"{name}.")):
                zone.append(self.place_unit(s, p, entry, f"{name}.{zone_name}[{i}]", name))
        self.place_deck(s, p, side, name)
        for zone_name in ("hand", "discard"):
            for i, c in enumerate(getattr(s, zone_name)[p]):
                if t.owner[c] != p:
                    self.fail(f"{name}.{zone_name}[{i}]", f"{s.name(c)} is not a {name} card")

    def place_deck(self, s: GameState, p: int, side: dict[str, Any], name: str) -> None:
        """The cards named on top of the deck (``deck``: the whole deck)."""
        t = self.ctx.tables
        for field in ("deck", "deck_top"):
            for i, card in enumerate(self.get(field, list, [], side, f"{name}.")):
                u = self.take(card, f"{name}.{field}[{i}]")
                if t.owner[u] != p:
                    self.fail(f"{name}.{field}[{i}]", f"{card} is not a {name} card")
                s.deck[p].append(u)
        if "deck" in side and "deck_top" in side:
            self.fail(f"{name}.deck_top", "give either deck or deck_top, not both")

    def place_unit(self, s: GameState, p: int, entry: Any, field: str, name: str) -> int:
        """The unit a zone's entry names (a name, or a name with attachments), with its
        attachments on it."""
        t = self.ctx.tables
        attachments: list[Any] = []
        if isinstance(entry, dict):
            extra = sorted(set(entry) - {"name", "attachments"})
            if extra:
                self.fail(f"{field}.{extra[0]}", "unknown field; known: name, attachments")
            attachments = self.get("attachments", list, [], entry, field + ".")
            entry = entry.get("name")
        u = self.take(entry, field)
        if not t.is_unit[u]:
            self.fail(field, f"{entry} is not a unit; attach it to a hero instead")
        if attachments and not t.is_hero[u]:
            self.fail(field, f"{entry} is not a hero; only heroes carry attachments")
        if t.owner[u] != p and not t.is_hero[u]:
            self.fail(field, f"{entry} is not {name}'s card; only heroes change sides")
        cards = tuple(self.take(a, f"{field}.attachments[{j}]") for j, a in enumerate(attachments))
        self.check_attachments(s, p, cards, field, name)
        s.att[u] = cards
        return u

    def check_attachments(
        self, s: GameState, p: int, cards: tuple[int, ...], field: str, name: str
    ) -> None:
        t = self.ctx.tables
        markers = 0
        for j, c in enumerate(cards):
            where = f"{field}.attachments[{j}]"
            effect = t.type_effect[t.type_of[c]]
            if effect is not None and effect.stays:  # R28: the card that took the hero
                markers += 1
                if t.owner[c] != p or markers > 1:
                    self.fail(
                        where,
                        f"{s.name(c)} can only mark a hero that {name} took with it, once (R28)",
                    )
            elif not t.is_attachment[c]:
                self.fail(
                    where,
                    f"{s.name(c)} is not an item or companion; psion "
                    "cards are played in battle tricks (R24), units deployed",
                )

    def fill_deck(self, s: GameState, p: int, side: dict[str, Any], name: str) -> None:
        t = self.ctx.tables
        rest = [i for i in t.instances_of_side[p] if i in self._free()]
        for i in rest:
            self.pool[s.name(i)].remove(i)
        s.rng, shuffled = _shuffled(rest, s.rng)
        named = s.deck[p]
        if "deck" in side:
            top, fill = named, []
            s.discard[p].extend(shuffled)
        else:
            top, fill = named, shuffled
        size = self.get("deck_size", int, len(top) + len(fill), side, f"{name}.")
        if size < len(top) or size < 0:
            self.fail(f"{name}.deck_size", f"must be at least the {len(top)} cards named on top")
        if size > len(top) + len(fill):
            self.fail(f"{name}.deck_size", f"only {len(top) + len(fill)} cards are left for it")
        keep = fill[: size - len(top)]
        s.discard[p].extend(fill[size - len(top) :])
        # Deck lists run bottom to top; scenario lists name the top card first.
        s.deck[p] = keep + list(reversed(top))
        if not s.deck[p]:
            self.fail(f"{name}.deck_size", "a deck of 0 cards has already lost (R9)")

    def _free(self) -> set[int]:
        return {i for free in self.pool.values() for i in free}

    def place_battle(self, s: GameState, battle: dict[str, Any]) -> None:
        p, d = s.player, 1 - s.player
        extra = sorted(set(battle) - {"step", "groups"})
        if extra:
            self.fail(f"battle.{extra[0]}", "unknown field; known: step, groups")
        if s.step != FORM:
            self.fail("battle", "the attacker has no unit that can attack")
        step_name = self.get("step", str, "tricks", battle, "battle.")
        if step_name not in BATTLE_STEPS:
            self.fail("battle.step", f"must be one of {sorted(BATTLE_STEPS)}, got {step_name!r}")
        groups = self.get("groups", list, [], battle, "battle.")
        if len(groups) > self.ctx.options.max_groups:
            self.fail("battle.groups", f"at most {self.ctx.options.max_groups} groups")
        for g, group in enumerate(groups):
            self.place_group(s, group, f"battle.groups[{g}]", step_name)
        s.step = BATTLE_STEPS[step_name]
        s.to_move = d if s.step == BLOCK else p
        if s.step != FORM and not s.groups:
            self.fail("battle.groups", f"the {step_name} step needs at least one group")

    def place_group(self, s: GameState, group: Any, field: str, step_name: str) -> None:
        """One attack group, with its blockers or target, as ``step_name`` allows."""
        p, d = s.player, 1 - s.player
        if not isinstance(group, dict):
            self.fail(field, "a group is an object with kind, units, blockers, target")
        kind_name = self.get("kind", str, "ground", group, field + ".")
        if kind_name not in KIND_NAMES:
            self.fail(field + ".kind", f"must be ground or space, got {kind_name!r}")
        kind = KIND_NAMES.index(kind_name)  # GROUND_BATTLE or SPACE_BATTLE
        units = self.pick(
            s, s.active[p], self.get("units", list, [], group, field + "."), field + ".units"
        )
        if not units:
            self.fail(field + ".units", "a group holds at least one unit")
        blockers = self.pick(
            s,
            s.active[d],
            self.get("blockers", list, [], group, field + "."),
            field + ".blockers",
        )
        if blockers and step_name == "form groups":
            self.fail(field + ".blockers", "blocks come after the groups are formed")
        target = -1
        if group.get("target") is not None:
            if step_name in ("form groups", "block"):
                self.fail(field + ".target", f"targets come after blocks, not at {step_name}")
            if blockers:
                self.fail(field + ".target", "a blocked group cannot target")
            target = self.group_target(s, group["target"], field + ".target", kind, kind_name)
        self.check_members(s, units, blockers, field, kind, kind_name)
        s.groups.append(units)
        s.gkind.append(kind)
        s.blocks.append(blockers)
        s.targets.append(target)
        s.results.append(-1)

    def group_target(self, s: GameState, spec: Any, field: str, kind: int, kind_name: str) -> int:
        """The defending unit a group targets (a name, or a name and its zone; R16)."""
        t = self.ctx.tables
        zone = "active"
        if isinstance(spec, dict):
            zone = spec.get("zone", "active")
            spec = spec.get("name")
        if zone not in ("active", "inactive"):
            self.fail(field + ".zone", f"must be active or inactive, got {zone!r}")
        if zone == "inactive" and not self.ctx.options.target_inactive:
            self.fail(field, "an inactive target, but the rules option target_inactive is off")
        target = self.pick(s, getattr(s, zone)[1 - s.player], [spec], field)[0]
        fits_kind = (
            t.is_space_unit[target]
            if kind == SPACE_BATTLE
            else t.is_ground_unit[target] or t.is_hero[target]
        )
        if not fits_kind:
            self.fail(field, f"a {kind_name} group cannot target {s.name(target)} (R16)")
        return target

    def check_members(
        self,
        s: GameState,
        units: tuple[int, ...],
        blockers: tuple[int, ...],
        field: str,
        kind: int,
        kind_name: str,
    ) -> None:
        """Each attacker and each blocker may be in a group of this kind (R11, R12)."""
        t = self.ctx.tables
        for members, label in ((units, "units"), (blockers, "blockers")):
            for j, u in enumerate(members):
                ok = starts(t, kind, u) if j == 0 else fits(t, members[:j], kind, u)
                if label == "units" and not t.can_attack[u]:
                    ok = False
                if not ok:
                    self.fail(
                        f"{field}.{label}[{j}]",
                        f"{s.name(u)} cannot be in this {kind_name} group (R11, R12)",
                    )

    def pick(self, s: GameState, zone: list[int], names: list[Any], field: str) -> tuple[int, ...]:
        t = self.ctx.tables
        out = []
        for i, name in enumerate(names):
            u = next((x for x in zone if t.names[t.type_of[x]] == name and not s.busy[x]), None)
            if u is None:
                self.fail(f"{field}[{i}]", f"no free {name!r} in that zone")
            s.busy[u] = 1
            out.append(u)
        return tuple(out)


def _shuffled(cards: list[int], rng: int) -> tuple[int, list[int]]:
    from .rng import shuffle

    out = list(cards)
    return shuffle(out, rng), out
