"""What a balance run is: two agents, a seed, card changes and rules options.

A run's identity is a hash of everything that decides its games (agents, seed, the full card
data after changes, the rules options, and the version of the engine and agents that play
them, ``lab/version.py``), so asking for the same settings again finds the same run in the
database and adds to it (resume), whatever the spelling on the command line, and code that
plays differently starts a run of its own.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from rebelspace.agents.registry import AgentSpecError, make_agent
from rebelspace.engine import CardDB, RebelSpaceError, RulesOptions, context_for, load_cards
from rebelspace.engine.cards import cards_from_data

from .version import code_version

#: The agent the lab plays unless told otherwise: the strongest that sustains bulk play (about
#: 0.4 s a game on one core), because a verdict belongs to the player who produced it and the
#: heuristic's (Rebel about 80%) is the opposite of strong play's (Rebel about 33%, issue 35).
BULK_AGENT = "distilled"

#: The cost of a blanked card: above the deploy points of a turn, so it is never deployed.
BLANK_COST = 9


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


# One card list object per run's card data, so that every batch a process plays shares one game
# context (``context_for`` keys on the object): building a context's action space costs about
# 0.1 s, more than a batch of random games.
@functools.lru_cache(maxsize=16)
def _cards_of(card_data: tuple[tuple[tuple[str, Any], ...], ...]) -> CardDB:
    return cards_from_data([dict(row) for row in card_data], source="run settings", stored=True)


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
    # The study this run was made for (e.g. the ablation of one card of one base run): part of
    # the identity, so one study never reads another's runs as its own (``suggest``'s screens
    # are not ablations even when they change the same card the same way).
    study: tuple[tuple[str, str], ...] = ()
    name: str = ""  # the designer's short label for the variant (``--label``)
    diff: tuple[str, ...] = ()  # the card list against the printed one, in ``--set`` words
    # The behaviour fingerprints of the engine and the agents that play the run's games
    # (``version.code_version``); empty in runs stored before runs were versioned.
    version: tuple[tuple[str, str], ...] = ()

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
        name: str = "",
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
            name=name.strip(),
        )
        run = plain.with_changes(sets, rules)
        ctx = context_for(run.cards(), run.rules_options())
        for spec in agents:  # fail here, not in a worker
            try:
                make_agent(spec, ctx, 0)
            except AgentSpecError as e:
                raise SettingsError(str(e)) from None
        return replace(run, version=code_version(run.agents))

    def cards(self) -> CardDB:
        return _cards_of(self.card_data)

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
        if self.study:
            out["study"] = dict(self.study)
        if self.version:
            out["version"] = dict(self.version)
        return out

    def played_by_this_code(self) -> bool:
        """Whether the engine and agents here play this run's games as they were played."""
        return self.version == code_version(self.agents)

    @property
    def run_id(self) -> str:
        blob = json.dumps(self.identity(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def label(self) -> str:
        """How people tell this run from others: its name, agents, seed, and what differs
        from the game as printed (cards and rules)."""
        a, b = self.agents
        who = a if a == b else f"{a} vs {b}"
        diff = list(self.diff)
        if len(diff) > 4:
            diff = [*diff[:3], f"{len(diff) - 3} more card changes"]
        changes = ", ".join((*diff, *self.rules))
        text = f"{who}, seed {self.seed}" + (f", {changes}" if changes else "")
        text += "" if changes else ", cards as printed"
        return f"{self.name}: {text}" if self.name else text

    def to_json(self) -> dict[str, Any]:
        return {
            **self.identity(),
            "sets": list(self.sets),
            "rules": list(self.rules),
            "kind": self.kind,
            "name": self.name,
            "card_diff": list(self.diff),
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
            study=tuple(sorted(data.get("study", {}).items())),
            name=data.get("name", ""),
            diff=tuple(data.get("card_diff", data.get("sets", ()))),
            version=tuple(sorted(data.get("version", {}).items())),
        )

    def with_changes(
        self, sets: Sequence[str] = (), rules: Sequence[str] = (), kind: str = ""
    ) -> RunSettings:
        """The same run with more card changes or rules on top (for ablations and sweeps)."""
        db = apply_sets(self.cards(), sets)
        options = self.rules_options()
        for text in rules:
            options = options.with_setting(text)
        out = RunSettings(
            agents=self.agents,
            seed=self.seed,
            card_data=_rows(db),
            options=_options(options),
            sets=(*self.sets, *sets),
            rules=(*self.rules, *rules),
            kind=kind or self.kind,
            study=self.study,
            name=self.name,
            version=self.version,
        )
        return replace(out, diff=tuple(out.card_diff()))

    def for_study(self, kind: str, **study: str) -> RunSettings:
        """The same games, marked as made for one study (its own run id)."""
        return replace(self, kind=kind, study=tuple(sorted({"kind": kind, **study}.items())))

    def with_blank(self, card: str) -> RunSettings:
        """The run with every copy of ``card`` left in its deck but without effect: a unit
        with no ratings that costs more than a turn's deploy points (R23), so it is drawn, held
        and discarded like any card but never played. The deck keeps its size."""
        options = self.rules_options()
        if options.deploy_points >= BLANK_COST:
            raise SettingsError(
                f"cannot blank {card!r}: with deploy_points={options.deploy_points} a blank "
                f"card (cost {BLANK_COST}) could be deployed; ablate by removal instead"
            )
        rows = [dict(row) for row in self.card_data]
        for i, row in enumerate(rows):
            if row["name"] == card:
                rows[i] = {
                    "name": card,
                    "side": row["side"],
                    "type": "Ground",
                    "count": row["count"],
                    "ground": 0,
                    "space": 0,
                    "damage": 0,
                    "cost": BLANK_COST,
                    "notes": "",
                }
                break
        else:
            raise SettingsError(f"no card named {card!r} in this run's card list")
        db = cards_from_data(rows, source="blanked cards")
        out = replace(self, card_data=_rows(db), sets=(*self.sets, f"{card} blanked"))
        return replace(out, diff=tuple(out.card_diff()))

    def card_diff(self, printed: CardDB | None = None) -> list[str]:
        """How this run's card list differs from the printed one, in ``--set`` words."""
        mine = {dict(row)["name"]: dict(row) for row in self.card_data}
        theirs = {row["name"]: row for row in (printed or _printed()).to_data()}
        out = []
        for name, row in mine.items():
            old = theirs.get(name)
            if old is None:
                out.append(f"{name} added")
                continue
            if row.get("type") != old.get("type") or row.get("notes") != old.get("notes"):
                out.append(
                    f"{name}: {old.get('type')} '{old.get('notes')}' -> "
                    f"{row.get('type')} '{row.get('notes')}'"
                )
            for field in ("count", "ground", "space", "damage", "cost"):
                if row.get(field) != old.get(field) and field in row:
                    out.append(f"{name}.{field}={row[field]} (printed {old.get(field)})")
        out += [f"{name} removed" for name in theirs if name not in mine]
        return out


@functools.cache
def _printed() -> CardDB:
    return load_cards()


def _rows(db: CardDB) -> tuple[tuple[tuple[str, Any], ...], ...]:
    return tuple(tuple(sorted(row.items())) for row in db.to_data())


def _options(options: RulesOptions) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(options.to_dict().items()))
