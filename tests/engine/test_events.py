"""Events (engine/events.py): every event type is produced by the rules and checked here, every
type renders a log line and a JSON form that reads back, the log is rendered from events
exactly as the engine wrote it before events existed (golden logs), and what a player's or
a spectator's event stream names is what R5 lets them know."""

from __future__ import annotations

import dataclasses
import enum
import json
import random
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from rebelspace.engine import (
    EVENT_TYPES,
    PUBLIC,
    BattleResult,
    EndReason,
    Event,
    GameState,
    GroupKind,
    Seen,
    damage_preview,
    event_json,
    load_cards,
    load_scenario,
    new_game,
    render_event,
    replay,
    to_record,
    visible_events,
)
from rebelspace.engine import events as ev
from rebelspace.engine.events import from_json
from tests.engine.helpers import IMPERIAL, REBEL, play, scenario, start

GOLDEN = Path(__file__).parent / "golden"


def names_of(game: GameState) -> tuple[str, ...]:
    return game.ctx.tables.names


def caused(game: GameState, *texts: str) -> list[Event]:
    """The events of the given actions, in order (as ``apply`` returned them)."""
    out: list[Event] = []
    for text in texts:
        out += game.apply(text)
    return out


def one(events: Sequence[Event], kind: type[Event]) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, f"{kind.__name__}: {found}"
    return found[0]


def card(game: GameState, name: str) -> int:
    return names_of(game).index(name)


# ----------------------------------------------------------------------------- every type


def example(cls: type[Event]) -> Event:
    """An instance of ``cls`` with a plain value in every field (card 0, group 0, ...)."""
    hints = typing.get_type_hints(cls)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        hint = hints[f.name]
        origin = typing.get_origin(hint)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            values[f.name] = next(iter(hint))
        elif hint is bool:
            values[f.name] = True
        elif hint is str:
            values[f.name] = "draw"
        elif origin is tuple and f.name == "dealers":
            values[f.name] = ((0, 2),)
        elif origin is tuple:
            values[f.name] = (0, 1) if f.name != "decks" else (30, 40)
        else:
            values[f.name] = 0
    return cls(**values)


@pytest.mark.parametrize("cls", EVENT_TYPES, ids=lambda c: c.type)
def test_every_event_type_renders_a_log_line_and_json_that_reads_back(cls: type[Event]) -> None:
    names = names_of(new_game(0))
    event = example(cls)
    line = render_event(event, names)
    assert isinstance(line, str) and line.strip() and "\n" not in line
    data = json.loads(json.dumps(event_json(event, names)))
    assert data["type"] == cls.type
    assert set(data) == {"type", *(f.name for f in dataclasses.fields(cls))}  # type: ignore[arg-type]
    assert from_json(data, names) == event
    assert event.visible_to in (PUBLIC, REBEL, IMPERIAL)


def test_event_type_names_are_unique_and_every_event_class_is_listed() -> None:
    assert len({cls.type for cls in EVENT_TYPES}) == len(EVENT_TYPES)
    classes = {
        obj
        for obj in vars(ev).values()
        if isinstance(obj, type) and issubclass(obj, Event) and obj is not Event
    }
    assert classes == set(EVENT_TYPES)


def test_every_event_type_but_the_scenario_start_happens_in_random_games() -> None:
    """A coverage check of the rules' emitting: over random games (and two scenarios for the
    rarest), each event type is produced."""
    seen: set[str] = set()
    for seed in range(300):
        game = new_game(seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        seen |= {e.type for e in game.events or ()}
        if len(seen) >= len(EVENT_TYPES) - 1:
            break
    missing = {cls.type for cls in EVENT_TYPES} - seen - {"scenario_started"}
    assert not missing, f"never produced in 300 random games: {sorted(missing)}"


# ----------------------------------------------------------------------------- each type checked


def test_setup_and_draw_events_say_who_drew_and_show_the_cards_only_to_the_drawer() -> None:
    game = new_game(3)
    events = game.events or []
    starting = [e for e in events if isinstance(e, ev.StartingHand)]
    assert [(e.player, e.n) for e in starting] == [(REBEL, 5), (IMPERIAL, 5)]
    seen = [e for e in events if isinstance(e, ev.CardsSeen)]
    assert [(e.to, e.owner, e.source) for e in seen] == [
        (REBEL, REBEL, Seen.STARTING_HAND),
        (IMPERIAL, IMPERIAL, Seen.STARTING_HAND),
    ]
    t = game.ctx.tables
    assert sorted(seen[0].cards) == sorted(t.type_of[c] for c in game.hand[REBEL])
    turn = one(events, ev.TurnStarted)
    assert (turn.turn, turn.player, turn.decks) == (
        1,
        REBEL,
        (len(game.deck[0]), len(game.deck[1])),
    )
    drew = caused(game, "draw 2")
    assert isinstance(drew[0], ev.Drew) and (drew[0].player, drew[0].n) == (REBEL, 2)
    cards = one(drew, ev.CardsSeen)
    assert cards.visible_to == REBEL and cards.source == Seen.DRAW
    assert list(cards.cards) == [t.type_of[c] for c in game.hand[REBEL][-2:]]
    assert cards not in game.visible_events(IMPERIAL) and drew[0] in game.visible_events(IMPERIAL)
    assert cards not in game.visible_events(None)


def test_attack_events_forming_groups_and_declaring_them_with_their_values() -> None:
    s = start(phase="attack", rebel={"active": ["Rebel Soldier", "Rebel Soldier", "Princess"]})
    assert isinstance(s.events[0], ev.ScenarioStarted)  # type: ignore[index]
    soldier, princess = card(s, "Rebel Soldier"), card(s, "Princess")
    formed = one(caused(s, "new ground group with Rebel Soldier"), ev.GroupFormed)
    assert (formed.player, formed.group, formed.kind, formed.card) == (
        REBEL,
        0,
        GroupKind.GROUND,
        soldier,
    )
    added = one(caused(s, "add Princess to group 1"), ev.UnitAdded)
    assert (added.group, added.card) == (0, princess)
    attacked = one(caused(s, "attack"), ev.Attacked)
    ground = {t.name: t.ground for t in s.cards}
    assert attacked.units == (soldier, princess)
    assert attacked.value == ground["Rebel Soldier"] + ground["Princess"]
    s2 = start(phase="attack", rebel={"active": ["Rebel Soldier"]})
    assert one(caused(s2, "no attack"), ev.NoAttack).player == REBEL
    s3 = start(phase="attack", rebel={"active": ["Ion Cannon"]})
    assert one(s3.events or [], ev.NoAttacker).player == REBEL


def test_ion_cannon_block_target_and_battle_events() -> None:
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Ion Cannon", "Rebel Soldier"], "inactive": ["Princess"]},
        imperial={"active": ["Space Cruiser", "Space Cruiser", "Troopers", "Troopers"]},
    )
    play(s, "new space group with Space Cruiser", "add Space Cruiser to group 1")
    play(s, "new ground group with Troopers", "new ground group with Troopers", "attack")
    fired = one(caused(s, "Ion Cannon destroys Space Cruiser in group 1"), ev.IonCannonFired)
    assert (fired.player, fired.cannon, fired.ship, fired.group) == (
        REBEL,
        card(s, "Ion Cannon"),
        card(s, "Space Cruiser"),
        0,
    )
    blocked = one(caused(s, "block group 2 with Rebel Soldier"), ev.Blocked)
    assert (blocked.player, blocked.group, blocked.card) == (REBEL, 1, card(s, "Rebel Soldier"))
    s.apply("done blocking")
    targeted = one(caused(s, "group 3 targets inactive Princess"), ev.Targeted)
    assert (targeted.player, targeted.group, targeted.inactive) == (IMPERIAL, 2, True)
    events = caused(s, *(["pass"] * 2))
    battles = [e for e in events if isinstance(e, ev.BattleResolved)]
    assert [(b.group, b.blocked) for b in battles] == [(1, True), (2, False)]
    for b in battles:
        winner = (
            b.result == BattleResult.ATTACKER_WON
            if b.attack_value > b.defense_value
            else b.result != BattleResult.ATTACKER_WON
        )
        assert winner, b
    through = one(events, ev.GotThrough)
    assert through.group == 0 and through.damage == sum(d for _, d in through.dealers)


def test_damage_events_count_shields_and_name_the_discarded_cards() -> None:
    """R20: Defense Shields stop the Ships' damage: the event says how much they stopped, and
    the damage dealt names the cards that went from the top of the deck to the discard pile."""
    s = start(
        player="imperial",
        phase="attack",
        rebel={"active": ["Defense Shields"], "deck_top": ["Rebel Soldier", "Princess"]},
        imperial={"active": ["Space Cruiser", "Bombers"]},
        battle={"groups": [{"kind": "space", "units": ["Space Cruiser", "Bombers"]}]},
    )
    dmg = {t.name: t.damage for t in s.cards}
    preview = damage_preview(s, 0)
    assert preview is not None and preview.damage == dmg["Bombers"]
    assert s.view(REBEL).battle.groups[0].damage == dmg["Bombers"]  # type: ignore[union-attr]
    top = [s.ctx.tables.type_of[c] for c in s.deck[REBEL][-dmg["Bombers"] :]]
    events = caused(s, "pass", "pass")
    through = one(events, ev.GotThrough)
    assert (through.damage, through.stopped, through.shields) == (
        dmg["Bombers"],
        dmg["Space Cruiser"],
        True,
    )
    dealt = one(events, ev.DamageDealt)
    assert dealt.player == REBEL and list(dealt.cards) == top[::-1]
    assert dealt.left == len(s.deck[REBEL])


def test_trick_psion_and_casualty_events() -> None:
    s = start(
        phase="attack",
        rebel={
            "active": ["Young Protagonist", "Rebel Soldier", "Rebel Soldier"],
            "hand": ["Danger Sense"],
        },
        imperial={"active": ["Troopers"], "hand": ["Trap"]},
        battle={
            "groups": [
                {
                    "kind": "ground",
                    "units": ["Young Protagonist", "Rebel Soldier", "Rebel Soldier"],
                    "blockers": ["Troopers"],
                }
            ]
        },
    )
    psion = one(caused(s, "play Danger Sense on Young Protagonist"), ev.PsionPlayed)
    assert (psion.player, psion.card, psion.hero) == (
        REBEL,
        card(s, "Danger Sense"),
        card(s, "Young Protagonist"),
    )
    trap = one(caused(s, "play Trap"), ev.TrickPlayed)
    assert (trap.player, trap.card) == (IMPERIAL, card(s, "Trap"))
    ground = {t.name: t.ground for t in s.cards}
    group = s.view(REBEL).battle.groups[0]  # type: ignore[union-attr]
    events = caused(s, "pass", "pass")
    battle = one(events, ev.BattleResolved)
    attack = ground["Young Protagonist"] + ground["Danger Sense"] + 2 * ground["Rebel Soldier"]
    assert (battle.attack_value, battle.defense_value) == (attack, ground["Troopers"] + 2)
    assert (group.attack_value, group.defense_value) == (attack, ground["Troopers"] + 2)
    assert battle.result == BattleResult.ATTACKER_WON
    assert s.to_move == IMPERIAL  # R19: the loser picks casualties from the winners
    pick = one(caused(s, "pick Rebel Soldier as a casualty"), ev.CasualtyPicked)
    assert (pick.player, pick.group, pick.card) == (IMPERIAL, 0, card(s, "Rebel Soldier"))
    assert pick.rating == ground["Rebel Soldier"]


def test_extra_attack_phase_event() -> None:
    s = start(
        phase="attack",
        rebel={"active": ["Rebel Soldier", "Rebel Soldier"], "hand": ["Multiple Targets"]},
        battle={"groups": [{"kind": "ground", "units": ["Rebel Soldier"]}]},
    )
    events = caused(s, "play Multiple Targets", "pass", "pass")
    assert one(events, ev.ExtraAttackPhase).player == REBEL


def test_deploy_and_end_phase_events() -> None:
    s = start(
        phase="deploy",
        rebel={"inactive": ["Princess"], "hand": ["Rebel Soldier", "Laser Sword"]},
    )
    deployed = one(caused(s, "deploy Rebel Soldier"), ev.Deployed)
    assert (deployed.player, deployed.card) == (REBEL, card(s, "Rebel Soldier"))
    attached = one(caused(s, "attach Laser Sword to Princess"), ev.Attached)
    assert (attached.card, attached.hero) == (card(s, "Laser Sword"), card(s, "Princess"))

    s = start(phase="end", rebel={"hand": ["Rebel Spies"]}, imperial={"hand": ["Traitor", "ESP"]})
    events = caused(s, "play Rebel Spies")
    assert one(events, ev.SpiesPlayed).visible_to == PUBLIC
    shown = one(events, ev.CardsSeen)
    assert (shown.to, shown.owner, shown.source) == (REBEL, IMPERIAL, Seen.SPIES)
    assert [names_of(s)[c] for c in shown.cards] == ["ESP", "Traitor"]  # sorted by name
    assert shown not in s.visible_events(IMPERIAL) and shown not in s.visible_events(None)

    s = start(phase="end", rebel={"hand": ["Convert"]}, imperial={"active": ["Emperors Henchman"]})
    taken = one(caused(s, "play Convert on Emperors Henchman"), ev.ControlTaken)
    assert (taken.player, taken.hero) == (REBEL, card(s, "Emperors Henchman"))

    s = start(phase="end", rebel={"hand": ["Medi-Bot"], "discard": ["Princess"]})
    hero = one(caused(s, "play Medi-Bot for Princess"), ev.HeroTaken)
    assert (hero.hero, hero.from_deck, hero.visible_to) == (card(s, "Princess"), False, PUBLIC)
    s = start(phase="end", rebel={"hand": ["Recruit"], "deck_top": ["Rebel Soldier"]})
    assert one(caused(s, "play Recruit for Smuggler"), ev.HeroTaken).from_deck


def test_saboteur_event() -> None:
    s = start(
        player="imperial",
        phase="end",
        rebel={"active": ["Defense Shields"]},
        imperial={"hand": ["Saboteur"]},
    )
    sabotaged = one(caused(s, "play Saboteur on Defense Shields"), ev.Sabotaged)
    assert (sabotaged.player, sabotaged.card, sabotaged.unit) == (
        IMPERIAL,
        card(s, "Saboteur"),
        card(s, "Defense Shields"),
    )


def test_hand_limit_discard_and_game_over_events() -> None:
    s = load_scenario(
        scenario(phase="end", rules={"hand_limit": 1}, rebel={"hand": ["Medi-Bot", "Convert"]}),
    )
    s.apply("end turn")
    discarded = one(caused(s, "discard Medi-Bot"), ev.HandLimitDiscard)
    assert (discarded.player, discarded.card) == (REBEL, card(s, "Medi-Bot"))

    s = start(phase="end", rebel={"hand": ["Recruit"], "deck": ["Wise Mentor"]})
    over = one(caused(s, "play Recruit for Wise Mentor"), ev.GameOver)
    assert (over.winner, over.reason, over.card) == (IMPERIAL, EndReason.SEARCH, card(s, "Recruit"))
    assert s.outcome is not None and s.outcome.reason == "Rebel's deck emptied by Recruit"


# ----------------------------------------------------------------------------- the log


@pytest.mark.parametrize("seed", [0, 7])
def test_the_log_rerendered_from_recorded_events_is_byte_identical_to_the_golden_log(
    seed: int,
) -> None:
    """Golden logs written by the engine before events existed (random legal play, seeded;
    only the battle lines were rewritten since, when their grammar was fixed: see
    ``test_battle_lines_name_each_side_once_and_agree_in_number``): the game replayed from its
    record, its events through JSON and back, renders them again byte for byte."""
    game = new_game(seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    again = replay(json.loads(json.dumps(to_record(game))))
    names = names_of(again)
    events = [
        from_json(json.loads(json.dumps(event_json(e, names))), names) for e in again.events or []
    ]
    text = "".join(render_event(e, names) + "\n" for e in events)
    assert text == (GOLDEN / f"random-game-seed-{seed}.log").read_text()
    assert text == "".join(line + "\n" for line in game.log_lines())


def test_battle_lines_name_each_side_once_and_agree_in_number() -> None:
    """A card named after its side is not preceded by the side again ("the targeted Rebel Rebel
    Warship"), and one blocker blocks where two block."""
    names = names_of(new_game(0))

    def battle(defenders: tuple[str, ...], blocked: bool) -> str:
        e = ev.BattleResolved(
            player=IMPERIAL,
            group=0,
            kind=GroupKind.SPACE,
            attackers=(names.index("Interceptors"),),
            attack_value=2,
            defenders=tuple(names.index(d) for d in defenders),
            defense_value=7,
            blocked=blocked,
            result=ev.BattleResult.DEFENDER_WON,
        )
        return render_event(e, names)

    assert battle(("Rebel Warship",), False) == (
        "Imperial's space group 1 (Interceptors: 2) fights Rebel's targeted Rebel Warship "
        "(space 7): Interceptors destroyed"
    )
    assert battle(("Rebel Warship",), True).startswith(
        "Rebel's Rebel Warship (space 7) blocks Imperial's space group 1"
    )
    assert battle(("Rebel Warship", "Stunt Fighters"), True).startswith(
        "Rebel's Rebel Warship, Stunt Fighters (space 7) block Imperial's space group 1"
    )


def test_apply_returns_the_events_it_caused_and_the_game_keeps_them() -> None:
    game = new_game(5)
    before = list(game.events or [])
    new = game.apply("draw 2")
    assert list(game.events or []) == before + list(new)
    assert [type(e) for e in new[:2]] == [ev.Drew, ev.CardsSeen]
    quiet = new_game(5, log=False)
    assert quiet.apply("draw 2") == () and quiet.events is None and quiet.log_lines() == []


# ----------------------------------------------------------------------------- R5 on events


def named_cards(event: Event) -> set[int]:
    out: set[int] = set()
    for f in dataclasses.fields(event):  # type: ignore[arg-type]
        v = getattr(event, f.name)
        if f.name in ("card", "cannon", "ship", "hero", "unit") and v >= 0:
            out.add(v)
        elif f.name in ("cards", "units", "attackers", "defenders"):
            out |= set(v)
        elif f.name == "dealers":
            out |= {c for c, _ in v}
    return out


def check_event_visibility(game: GameState, before: GameState, new: Sequence[Event]) -> None:
    """Each event names only what its readers may know (R5): a card shown to one player is in
    the hand it is said to be in; a public event names cards that are now public (in play, in
    a discard pile, revealed into a hand by a search) or were just played from a hand."""
    t = game.ctx.tables

    def types(cards: Sequence[int]) -> set[int]:
        return {t.type_of[c] for c in cards}

    public = set()
    for p in (0, 1):
        public |= types(game.active[p]) | types(game.inactive[p]) | types(game.discard[p])
        public |= types(before.active[p]) | types(before.inactive[p]) | types(before.discard[p])
        for u in game.active[p] + game.inactive[p] + before.active[p] + before.inactive[p]:
            public |= types(game.att[u] if u < len(game.att) else ())
            public |= types(before.att[u])
    for e in new:
        if isinstance(e, ev.CardsSeen):
            hand = types(game.hand[e.owner]) | types(before.hand[e.owner])
            assert set(e.cards) <= hand, e
            assert e.visible_to == e.to
            continue
        assert e.visible_to == PUBLIC, e
        named = named_cards(e)
        if isinstance(e, ev.HeroTaken):
            named.discard(e.hero)  # shown to both players (R26)
        assert named <= public, (e, named - public)


@pytest.mark.parametrize("seed", range(40))
def test_events_never_name_what_r5_hides(seed: int) -> None:
    game = new_game(seed)
    rng = random.Random(seed)
    while not game.is_over:
        before = game.clone()
        new = game.apply(rng.choice(game.legal_actions()))
        check_event_visibility(game, before, new)
        assert visible_events(new, None) == [e for e in new if e.visible_to == PUBLIC]


# ----------------------------------------------------------------------------- values


def check_damage_previews(seed: int, cards: Any = None, views: float = 1.0) -> int:
    """The damage preview (values.damage_preview, and the view's group damage, checked at a
    share ``views`` of the positions) equals the damage the group then gets through (R20,
    R33), for every unblocked group."""
    game = new_game(seed, cards=cards)
    rng = random.Random(seed)
    checked = 0
    while not game.is_over:
        previews = [damage_preview(game, g) for g in range(len(game.groups))]
        if game.groups and rng.random() < views:
            battle = game.view(game.to_move).battle
            assert battle is not None
            for p, group in zip(previews, battle.groups, strict=True):
                assert group.damage == (None if p is None else p.damage)
        for e in game.apply(rng.choice(game.legal_actions())):
            if isinstance(e, ev.GotThrough):
                preview = previews[e.group]
                assert preview is not None and preview.damage == e.damage, (preview, e)
                assert preview.stopped == e.stopped
                checked += 1
    return checked


def test_the_damage_preview_equals_the_damage_dealt() -> None:
    assert sum(check_damage_previews(seed, views=0.3) for seed in range(60)) > 50


@pytest.mark.slow
def test_the_damage_preview_equals_the_damage_dealt_in_thousands_of_games() -> None:
    """2,000 games, a quarter of them with four Defense Shields per Rebel deck."""
    shields = load_cards().with_changes({"Defense Shields": {"count": 4}})
    checked = sum(check_damage_previews(seed, views=0.02) for seed in range(1000, 2500))
    checked += sum(check_damage_previews(seed, shields, views=0.02) for seed in range(500))
    assert checked > 1000
