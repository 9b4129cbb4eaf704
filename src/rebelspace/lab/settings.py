"""What a balance run is: two agents, a seed, card changes and rules options.

A run's identity is a hash of everything that decides its games (agents, seed, the full card
data after changes, the rules options), so asking for the same settings again finds the same
run in the database and adds to it (resume), whatever the spelling on the command line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rebelspace.agents.registry import AgentSpecError, make_agent
from rebelspace.engine import CardDB, RebelSpaceError, RulesOptions, context_for, load_cards
from rebelspace.engine.cards import cards_from_data


class SettingsError(RebelSpaceError, ValueError):
    """A ``--set`` or ``--rule`` that cannot be applied, or agents that do not exist."""


def parse_set(text: str) -> tuple[str, str, int]:
    """``"Space Cruiser.space=8"`` -> ``("Space Cruiser", "space", 8)``."""
    target, sep, raw = text.partition("=")
    name, dot, fld = target.rpartition(".")
    if not sep or not dot or not name.strip() or not fld.strip():
        raise SettingsError(f'a card change looks like "Card Name.field=value", got {text!r}')
    try:
        value = int(raw.strip())
    except ValueError:
        raise SettingsError(f"the value in {text!r} must be a whole number") from None
    return name.strip(), fld.strip(), value


def apply_sets(cards: CardDB, sets: Sequence[str]) -> CardDB:
    changes: dict[str, dict[str, int]] = {}
    for text in sets:
        name, fld, value = parse_set(text)
        changes.setdefault(name, {})[fld] = value
    return cards.with_changes(changes) if changes else cards


@dataclass(frozen=True)
class RunSettings:
    """Everything that decides a run's games. Build with ``RunSettings.build``."""

    agents: tuple[str, str]  # (a, b): game 2k has a as the Rebel, game 2k+1 has b (``play``)
    seed: int
    card_data: tuple[tuple[tuple[str, Any], ...], ...]  # the full card list, hashable
    options: tuple[tuple[str, Any], ...]
    sets: tuple[str, ...] = ()  # how the cards were changed, for people to read
    rules: tuple[str, ...] = ()
    kind: str = "balance"

    @classmethod
    def build(
        cls,
        agents: Sequence[str],
        seed: int,
        *,
        sets: Sequence[str] = (),
        rules: Sequence[str] = (),
        cards: CardDB | None = None,
        kind: str = "balance",
    ) -> RunSettings:
        if len(agents) != 2:
            raise SettingsError(
                f"a run has two agents (the same one twice for a mirror), got {agents!r}"
            )
        plain = cls(
            agents=(agents[0], agents[1]),
            seed=seed,
            card_data=_rows(cards if cards is not None else load_cards()),
            options=_options(RulesOptions()),
            kind=kind,
        )
        run = plain.with_changes(sets, rules)
        ctx = context_for(run.cards(), run.rules_options())
        for spec in agents:  # fail here, not in a worker
            try:
                make_agent(spec, ctx, 0)
            except AgentSpecError as e:
                raise SettingsError(str(e)) from None
        return run

    def cards(self) -> CardDB:
        return cards_from_data([dict(row) for row in self.card_data], source="run settings")

    def rules_options(self) -> RulesOptions:
        return RulesOptions.from_dict(dict(self.options))

    @property
    def twinned(self) -> bool:
        """Two different agents: each deal is played twice with the sides swapped. A mirror
        run (the same agent twice) deals every game afresh: its twin would be a copy."""
        return self.agents[0] != self.agents[1]

    def identity(self) -> dict[str, Any]:
        """What decides the games (not the labels): the hash input."""
        out: dict[str, Any] = {
            "agents": list(self.agents),
            "seed": self.seed,
            "cards": [dict(row) for row in self.card_data],
            "options": dict(self.options),
        }
        if not self.twinned:
            # Mirror runs once played each deal twice (identical games); their new ids keep
            # such old games out of new statistics. Twinned runs keep their ids and games.
            out["deals"] = "distinct"
        return out

    @property
    def run_id(self) -> str:
        blob = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def label(self) -> str:
        a, b = self.agents
        who = a if a == b else f"{a} vs {b}"
        changes = ", ".join((*self.sets, *self.rules))
        return f"{who}, seed {self.seed}" + (f", {changes}" if changes else "")

    def to_json(self) -> dict[str, Any]:
        return {
            **self.identity(),
            "sets": list(self.sets),
            "rules": list(self.rules),
            "kind": self.kind,
            "label": self.label(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunSettings:
        return cls(
            agents=(data["agents"][0], data["agents"][1]),
            seed=data["seed"],
            card_data=tuple(tuple(sorted(row.items())) for row in data["cards"]),
            options=tuple(sorted(data["options"].items())),
            sets=tuple(data.get("sets", ())),
            rules=tuple(data.get("rules", ())),
            kind=data.get("kind", "balance"),
        )

    def with_changes(
        self, sets: Sequence[str] = (), rules: Sequence[str] = (), kind: str = ""
    ) -> RunSettings:
        """The same run with more card changes or rules on top (for ablations and sweeps)."""
        db = apply_sets(self.cards(), sets)
        options = self.rules_options()
        for text in rules:
            options = options.with_setting(text)
        return RunSettings(
            agents=self.agents,
            seed=self.seed,
            card_data=_rows(db),
            options=_options(options),
            sets=(*self.sets, *sets),
            rules=(*self.rules, *rules),
            kind=kind or self.kind,
        )


def _rows(db: CardDB) -> tuple[tuple[tuple[str, Any], ...], ...]:
    return tuple(tuple(sorted(row.items())) for row in db.to_data())


def _options(options: RulesOptions) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(options.to_dict().items()))
