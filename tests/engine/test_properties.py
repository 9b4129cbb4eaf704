"""Property tests over many random games: invariants that every position of every game keeps.

Each game is driven by three Hypothesis-drawn values: the game seed (``new_game(seed)``), a
choice seed for the ``random.Random`` that picks among the legal actions, and a policy (uniform,
eager to act, or eager to pass). Some properties also draw the rules options. A failure report
shows those values and a note with the game's action texts, so ``play(...)`` below replays the
exact game. Probes that look at a position (illegal actions, clones, views) use their own random
generator, never the one that picks the game's actions, so probing never changes the game.

Properties: (1) cards are conserved and zones stay consistent, (2) games end, the loser out of
cards (R9), (3) records replay to equal games, (4) illegal input changes nothing, (5) views hide
what R5 hides, (6) legal actions are well formed, (7) clones are equal and independent, (8) the
same seed and choices give the same game; and all of them on edited card lists.

The quick tests run a few dozen whole games per property (about 30 s in all); the tests marked
``slow`` run about 3,500 more games (3-4 min): select with ``-m slow`` or ``-m "not slow"``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import string
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rebelspace.engine import (
    Ability,
    ActionError,
    CardDB,
    IllegalActionError,
    InvalidActionError,
    Kind,
    RulesOptions,
    load_cards,
    new_game,
    replay,
    to_record,
)
from rebelspace.engine.enums import PLAYER_NAMES
from rebelspace.engine.events import Event, render, to_json, visible_events
from rebelspace.engine.rules.explain import HAND_KINDS, STEP_KINDS
from rebelspace.engine.state import (
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
    TARGET,
    TRICKS,
    GameState,
    Outcome,
)
from rebelspace.engine.values import rating
from tests.common import check_each, history_texts, per_profile, rules_options

# Each property plays as many whole games as the Hypothesis profile says (tests/conftest.py);
# a few choose their own counts below.

MAX_DECISIONS = 5000  # random games take a few hundred decisions; this is the R9 bound we test
ATTACK_STEPS = frozenset({FORM, ION, BLOCK, TARGET, TRICKS, CASUALTY})
DONE_KINDS = frozenset(
    {
        Kind.NO_ATTACK,
        Kind.ATTACK,
        Kind.ION_HOLD,
        Kind.DONE_BLOCKING,
        Kind.DONE_TARGETING,
        Kind.PASS,
        Kind.DONE_DEPLOYING,
        Kind.END_TURN,
    }
)
POLICIES = ("uniform", "eager", "passive")

# ----------------------------------------------------------------------------- strategies

game_seeds = st.integers(min_value=-(2**63), max_value=2**64)
choice_seeds = st.integers(min_value=0, max_value=2**32 - 1)
policies = st.sampled_from(POLICIES)


maybe_options = st.one_of(st.none(), rules_options())

# ----------------------------------------------------------------------------- random games


def choose(game: GameState, rng: random.Random, policy: str) -> int:
    """One legal action. "eager" prefers doing something (attacks, plays) over "done"/"pass";
    "passive" prefers ending steps, which makes long games and full hands (hand limit)."""
    legal = game.legal_actions()
    if policy == "uniform" or len(legal) == 1:
        return rng.choice(legal)
    space = game.action_space
    done = [a for a in legal if space[a].kind in DONE_KINDS]
    doing = [a for a in legal if space[a].kind not in DONE_KINDS]
    preferred = doing if policy == "eager" else done
    if preferred and rng.random() < 0.8:
        return rng.choice(preferred)
    return rng.choice(legal)


def positions(
    seed: int,
    choice_seed: int,
    policy: str,
    options: RulesOptions | None = None,
    *,
    log: bool = True,
) -> Iterator[GameState]:
    """Play a random game, yielding the (same, live) state before each decision and at the end.

    A caller may probe the yielded state but must leave it as it found it.
    """
    game = new_game(seed, options=options, log=log)
    rng = random.Random(choice_seed)
    for _ in range(MAX_DECISIONS):
        yield game
        if game.is_over:
            return
        game.apply(choose(game, rng, policy))
    raise AssertionError(f"no outcome after {MAX_DECISIONS} decisions (R9 should end every game)")


def play(
    seed: int,
    choice_seed: int,
    policy: str = "uniform",
    options: RulesOptions | None = None,
    *,
    log: bool = True,
) -> GameState:
    """The finished random game of these seeds (the reproduction helper for any failure)."""
    last = None
    for position in positions(seed, choice_seed, policy, options, log=log):
        last = position  # the same object each time: the finished game once the loop ends
    assert last is not None
    return last


def each_position(
    seed: int,
    choice_seed: int,
    policy: str,
    options: RulesOptions | None,
    check: Callable[[GameState], None],
) -> GameState:
    """Run ``check`` on every position; on failure, note the actions that led there."""
    return check_each(positions(seed, choice_seed, policy, options), check)


def probe_rng(choice_seed: int) -> random.Random:
    """A second generator for probes, independent of the one that picks the game's actions."""
    return random.Random(choice_seed ^ 0x5EED)


# ----------------------------------------------------------------------------- 1. cards


def locations(game: GameState) -> dict[int, str]:
    """Where every card instance is; fails if one is in two places or in none."""
    t = game.ctx.tables
    where: dict[int, str] = {}

    def put(card: int, place: str) -> None:
        assert card not in where, f"{game.name(card)} ({card}) is in {where[card]} and {place}"
        where[card] = place

    in_play: set[int] = set()
    for p in (0, 1):
        for zone in ("deck", "hand", "discard", "active", "inactive"):
            for c in getattr(game, zone)[p]:
                put(c, f"{PLAYER_NAMES[p]} {zone}")
        in_play.update(game.active[p], game.inactive[p])
    for hero, attached in enumerate(game.att):
        if attached:
            assert hero in in_play, f"{game.name(hero)} is not in play but carries {attached}"
        for c in attached:
            put(c, f"attached to {game.name(hero)} ({hero})")
    missing = sorted(set(range(t.n)) - set(where))
    assert not missing, f"cards in no place: {[game.name(c) for c in missing]}"
    return where


def check_conservation(game: GameState) -> None:
    """Property 1: each card is in exactly one place; each side's cards are its card list; a
    deck, hand or discard pile holds only its player's own cards (R4)."""
    t = game.ctx.tables
    locations(game)
    for p in (0, 1):
        owned = Counter(
            game.name(c)
            for zones in (game.deck, game.hand, game.discard, game.active, game.inactive)
            for zone in zones
            for c in zone
            if t.owner[c] == p
        )
        owned.update(game.name(c) for att in game.att for c in att if t.owner[c] == p)
        printed = Counter({ct.name: ct.count for ct in game.cards.side_types(p) if ct.count})
        assert owned == printed, f"{PLAYER_NAMES[p]}'s cards differ from the card list"
        for zone in ("deck", "hand", "discard"):
            strays = [game.name(c) for c in getattr(game, zone)[p] if t.owner[c] != p]
            assert not strays, f"{PLAYER_NAMES[p]}'s {zone} holds the other side's {strays}"


def group_breaks_r12(game: GameState, units: tuple[int, ...], kind: int) -> str | None:
    """Why a battle group breaks R11/R12/R35 as formed (None if it is fine). Written apart from
    the engine's own check, so that the two can disagree."""
    t = game.ctx.tables
    if not units:
        return "an empty group"
    if kind == GROUND_BATTLE:
        bad = [u for u in units if not (t.is_ground_unit[u] or t.is_hero[u])]
        return f"{game.name(bad[0])} in a ground group" if bad else None
    if t.is_hero[units[0]]:
        return "a hero starts a space group (R35)"
    heroes = [u for u in units if t.is_hero[u]]
    bad = [u for u in units if not t.is_hero[u] and not t.is_space_unit[u]]
    if bad:
        return f"{game.name(bad[0])} in a space group"
    fighters = sum(t.fighter[u] for u in units)
    ships = sum(t.ship[u] for u in units)
    # Seat the heroes: pilots in fighters, captains in ships, either-kind heroes where room is.
    for hero in sorted(heroes, key=lambda h: t.pilot[h] and t.captain[h]):
        if t.pilot[hero] and not t.captain[hero] and fighters:
            fighters -= 1
        elif t.captain[hero] and not t.pilot[hero] and ships:
            ships -= 1
        elif t.pilot[hero] and t.captain[hero] and (fighters or ships):
            if fighters:
                fighters -= 1
            else:
                ships -= 1
        else:
            return f"no pilot or captain place for {game.name(hero)}"
    return None


def check_structure(game: GameState) -> None:
    """Zones hold what the rules allow: units in play, attachments on heroes, converted heroes
    marked (R28), psion cards only during the attack phase (R24), battle bookkeeping (R12-R16),
    non-empty decks while the game goes on (R9), the hand limit (R25)."""
    t = game.ctx.tables
    opts = game.options
    attacking = game.step in ATTACK_STEPS
    in_play: dict[int, int] = {}
    for p in (0, 1):
        for u in game.active[p] + game.inactive[p]:
            assert t.is_unit[u], f"{game.name(u)} is in play but is not a unit"
            in_play[u] = p
            if t.owner[u] != p:
                assert t.is_hero[u], f"{PLAYER_NAMES[p]} controls the other side's {game.name(u)}"
    psion_cards = {c for c, _ in game.psions}
    for u, attached in enumerate(game.att):
        if not attached:
            continue
        assert t.is_hero[u], f"{game.name(u)} is not a hero but carries cards"
        markers = [c for c in attached if t.ability[c] == Ability.CONVERT]
        assert len(markers) <= 1, f"{game.name(u)} carries two Convert/Traitor cards"
        if markers:
            assert t.owner[markers[0]] == in_play[u], f"{game.name(u)}'s marker is not its owner's"
        elif t.owner[u] != in_play[u]:
            raise AssertionError(f"converted {game.name(u)} carries no Convert/Traitor (R28)")
        for c in attached:
            if t.is_psion[c]:
                assert attacking and c in psion_cards, f"{game.name(c)} stays attached (R24)"
            elif t.ability[c] != Ability.CONVERT:
                assert t.is_attachment[c], f"{game.name(c)} is attached to {game.name(u)}"
    for p in (0, 1):
        unknown = Counter(game.known[p]) - Counter(t.type_of[c] for c in game.hand[1 - p])
        assert not unknown, f"{PLAYER_NAMES[p]} 'knows' cards that are not in the hand"
    if not attacking:
        assert not any(game.busy), "units stay busy outside the attack phase"
        assert not game.groups and not game.psions and game.cas is None
    else:
        assert len(game.groups) <= opts.max_groups, "more groups than R32 allows"
        n = len(game.groups)
        assert len(game.gkind) == len(game.blocks) == len(game.targets) == n
        fighting: set[int] = set()
        for g in range(n):
            fighting.update(game.groups[g], game.blocks[g])
            if game.targets[g] >= 0:
                assert not game.blocks[g], f"group {g + 1} is both blocked and targeting"
                fighting.add(game.targets[g])
            for u in game.groups[g]:
                assert u in game.active[game.player], f"attacker {game.name(u)} not active"
                assert t.can_attack[u], f"{game.name(u)} cannot attack (R11)"
            for u in game.blocks[g]:
                assert u in game.active[1 - game.player], f"blocker {game.name(u)} not active"
            kind = game.gkind[g]
            # R14: the Ion Cannon and casualties may leave a group that no longer fits R12 (even
            # empty); with several cannons (edited lists) the step stays ION after one fired.
            if game.step == FORM or (game.step == ION and not game.ion_used):
                why = group_breaks_r12(game, game.groups[g], kind)
                assert why is None, f"group {g + 1}: {why}"
            if game.step in (BLOCK, TARGET, TRICKS) and game.blocks[g]:
                why = group_breaks_r12(game, game.blocks[g], kind)
                assert why is None, f"blockers of group {g + 1}: {why}"
            target = game.targets[g]
            if target >= 0:
                ok = (
                    t.is_space_unit[target]
                    if kind
                    else t.is_ground_unit[target] or t.is_hero[target]
                )
                assert ok, f"group {g + 1} targets {game.name(target)} (R16)"
                d = 1 - game.player
                zone = game.active[d] + game.inactive[d] if opts.target_inactive else game.active[d]
                assert target in zone, f"group {g + 1} targets {game.name(target)} out of reach"
        assert len(fighting) == sum(
            len(game.groups[g]) + len(game.blocks[g]) + (game.targets[g] >= 0) for g in range(n)
        ), "a unit fights twice in one attack phase (R15)"
        for u in in_play:
            assert bool(game.busy[u]) == (u in fighting), f"busy flag of {game.name(u)}"
    if game.is_over:
        assert game.step == OVER and game.to_move == -1
    else:
        assert game.deck[0] and game.deck[1], "an empty deck did not end the game (R9)"
        if game.step == DRAW and game.turn > 1:
            assert len(game.hand[1 - game.player]) <= opts.hand_limit, "hand limit (R25)"
        if game.step == DEPLOY:
            assert 0 <= game.points <= opts.deploy_points, "deploy points (R23)"
        expected = {ION: 1 - game.player, BLOCK: 1 - game.player}.get(game.step, game.player)
        if game.step not in (TRICKS, CASUALTY):
            assert game.to_move == expected, f"wrong player to move in {game.step}"


def check_conservation_and_structure(game: GameState) -> None:
    check_conservation(game)
    check_structure(game)


def test_conservation_and_structure_hold_in_every_position() -> None:
    """A fixed game first, so that a broken engine fails here with a short, stable report."""
    each_position(7, 7, "eager", None, check_conservation_and_structure)


@given(game_seeds, choice_seeds, policies, maybe_options)
def test_cards_are_conserved(seed: int, choice_seed: int, policy: str, options: Any) -> None:
    each_position(seed, choice_seed, policy, options, check_conservation)


@given(game_seeds, choice_seeds, policies, maybe_options)
def test_zones_and_battle_bookkeeping_stay_consistent(
    seed: int, choice_seed: int, policy: str, options: Any
) -> None:
    each_position(seed, choice_seed, policy, options, check_structure)


# ----------------------------------------------------------------------------- 2. games end


def check_finished(game: GameState) -> None:
    """Property 2: an outcome whose loser has an empty deck (R9), and nothing left to do."""
    out = game.outcome
    assert out is not None and game.is_over
    assert game.winner == out.winner and out.loser == 1 - out.winner
    assert not game.deck[out.loser], "the loser's deck is not empty (R9)"
    # Both decks can be empty only when an edited card list holds no more than the starting
    # hands; then R9 is checked for the Rebel first (the rules do not say).
    assert game.deck[out.winner] or game.history == [], "the winner's deck is empty too"
    assert game.history is not None and len(game.history) < MAX_DECISIONS
    assert game.phase == "over" and game.to_move == -1
    assert game.legal_actions() == [] and not any(game.legal_action_mask())
    for view in (game.view(0), game.view(1)):
        assert view.winner == out.winner_name.lower() and view.legal_actions == ()
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(game.action_space.pass_)
    if game.events is not None:
        assert game.log_lines()[-1].startswith(f"{out.winner_name} wins")


# Checking only the end of a game is cheap: many more games than the other properties.
@settings(max_examples=per_profile(quick=60, ci=1500))
@given(game_seeds, choice_seeds, policies, maybe_options)
def test_games_end_with_the_loser_out_of_cards(
    seed: int, choice_seed: int, policy: str, options: Any
) -> None:
    check_finished(play(seed, choice_seed, policy, options))


# ----------------------------------------------------------------------------- edited cards

# Card lists are data a designer edits (R1): every property must hold for other counts and
# ratings too, a count of 0 included.
_CARDS = load_cards()
# Cards whose actions take a target card type (R26, R28, R29).
TARGETED_END_CARDS = (
    "Medi-Bot",
    "Recruit",
    "Convert",
    "Traitor",
    "Shuttle",
    "Cybernetics",
    "Saboteur",
)


@st.composite
def edited_cards(draw: st.DrawFn) -> CardDB:
    changes: dict[str, dict[str, int]] = {}
    for row in _CARDS.to_data():
        # Each deck keeps its basic troops, so it outlasts the starting hand.
        low = 6 if row["name"] in ("Rebel Soldier", "Troopers") else 0
        counts = sorted(c for c in {0, 1, 2, 5, 6, row["count"]} if c >= low)
        change = {"count": draw(st.sampled_from(counts))}
        for field in ("ground", "space", "damage", "cost"):
            if field in row and draw(st.integers(0, 4)) == 0:
                change[field] = draw(st.sampled_from([0, 1, 5, 9]))
        changes[row["name"]] = change
    return _CARDS.with_changes(changes)


def check_edited_cards(
    seed: int, choice_seed: int, policy: str, options: Any, cards: CardDB
) -> None:
    game = new_game(seed, options=options, cards=cards)
    rng = random.Random(choice_seed)
    while not game.is_over:
        check_conservation(game)
        check_structure(game)
        check_legal_actions(game)
        game.apply(choose(game, rng, policy))
        assert game.history is not None and len(game.history) < MAX_DECISIONS
    check_conservation(game)
    check_finished(game)
    check_replay(game)


# Every check on every position of each game: fewer games than the other properties.
@settings(max_examples=per_profile(quick=30, ci=200))
@given(game_seeds, choice_seeds, policies, maybe_options, edited_cards())
def test_properties_hold_for_edited_card_lists(
    seed: int, choice_seed: int, policy: str, options: Any, cards: CardDB
) -> None:
    check_edited_cards(seed, choice_seed, policy, options, cards)


@pytest.mark.parametrize("name", TARGETED_END_CARDS)
def test_a_card_list_without_some_end_phase_card_still_plays(name: str) -> None:
    game = new_game(0, cards=_CARDS.with_changes({name: {"count": 0}}))
    assert game.legal_action_texts() == ["draw 1", "draw 2"]


# ----------------------------------------------------------------------------- 3. replay


def check_replay(game: GameState) -> None:
    """Property 3: a record replays to an equal state with the same log, also through JSON."""
    record = to_record(game)
    again = replay(record)
    assert again == game and again.key() == game.key()
    assert again.events == game.events and again.history == game.history
    through_json = replay(json.loads(json.dumps(record)))
    assert through_json == game and through_json.events == game.events
    assert replay(record, log=False) == game
    assert record["action_ids"] == game.history
    assert [game.parse_action(text) for text in record["actions"]] == game.history
    assert ("result" in record) == game.is_over


def check_replay_cut(seed: int, choice_seed: int, policy: str, options: Any, stop: float) -> None:
    """Finished games, and games stopped part-way (``stop`` is the fraction played)."""
    game = play(seed, choice_seed, policy, options)
    assert game.history is not None
    cut = round(stop * len(game.history))
    if cut < len(game.history):
        # The record of the game as it stood after ``cut`` actions: no result yet.
        record = {k: v for k, v in to_record(game).items() if k != "result"}
        record |= {"actions": history_texts(game)[:cut], "action_ids": game.history[:cut]}
        game = replay(record)
    check_replay(game)


@given(game_seeds, choice_seeds, policies, maybe_options, st.floats(0, 1))
def test_replay_of_a_record_equals_the_game(
    seed: int, choice_seed: int, policy: str, options: Any, stop: float
) -> None:
    check_replay_cut(seed, choice_seed, policy, options, stop)


# ----------------------------------------------------------------------------- 4. illegal


def junk_text(rng: random.Random) -> str:
    alphabet = string.ascii_letters + string.digits + " -'\t\n\u00e9\u4e2d"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))


def near_miss_text(game: GameState, rng: random.Random) -> str:
    """A legal action's text with one word changed: close to an action, but not one."""
    words = game.action_text(rng.choice(game.legal_actions())).split()
    words[rng.randrange(len(words))] = rng.choice(["Gizmo", "99", "groupe", "Rebel-Soldier"])
    return " ".join(words)


def expect_unchanged(
    game: GameState,
    attempt: Callable[[], object],
    *,
    names: str,
    error: type[ActionError] = IllegalActionError,
) -> str:
    """``attempt`` must raise ``error`` naming ``names`` and change nothing."""
    key, log = game.key(), list(game.events or [])
    history = list(game.history or [])
    legal = game.legal_actions()
    with pytest.raises(error) as info:
        attempt()
    message = str(info.value)
    assert names in message, f"{message!r} does not name {names!r}"
    assert game.key() == key and list(game.events or []) == log and game.history == history
    assert game.legal_actions() == legal
    return message


def probe_illegal(game: GameState, rng: random.Random) -> None:
    space = game.action_space
    legal = set(game.legal_actions())
    for _ in range(3):
        a = rng.randrange(space.size)
        if a in legal:
            continue
        assert not game.is_legal(a)
        form = rng.choice(["id", "text", "action"])
        arg: Any = a if form == "id" else space.text(a) if form == "text" else space[a]
        message = expect_unchanged(game, partial(game.apply, arg), names=space.text(a))
        assert "not legal" in message
    text = rng.choice([junk_text(rng), near_miss_text(game, rng)]) if legal else junk_text(rng)
    if not game.is_legal(text):
        error: type[ActionError]
        try:  # a text that happens to be an action is named in its usual spelling
            named, error = repr(space.text(space.parse(text))), IllegalActionError
        except InvalidActionError:  # not an action at all
            named, error = repr(text), InvalidActionError
        expect_unchanged(game, lambda: game.apply(text), names=named, error=error)
    if legal:
        a = rng.choice(sorted(legal))
        other = 1 - game.to_move
        message = expect_unchanged(game, lambda: game.apply(a, player=other), names=space.text(a))
        assert PLAYER_NAMES[other] in message and PLAYER_NAMES[game.to_move] in message


def probe_every_id(game: GameState) -> None:
    """Every id of the action space that is not legal here is refused with a message naming
    it (``explain_illegal`` must cope with any id in any step)."""
    space = game.action_space
    key, log, history = game.key(), list(game.events or []), list(game.history or [])
    legal = set(game.legal_actions())
    for a in range(space.size):
        if a in legal:
            continue
        try:
            game.apply(a)
        except IllegalActionError as e:
            assert space.text(a) in str(e), f"{str(e)!r} does not name {space.text(a)!r}"
        else:
            raise AssertionError(f"{space.text(a)!r} was applied but is not legal")
    assert game.key() == key and list(game.events or []) == log and game.history == history


def check_illegal_probes(seed: int, choice_seed: int, policy: str, options: Any) -> None:
    """Property 4: illegal input raises and changes nothing, so the probed game ends exactly
    like the same game played without probes. Once per game, every illegal id is tried."""
    rng = probe_rng(choice_seed)
    every_id_at = rng.randrange(200)

    def probe(game: GameState) -> None:
        if game.history is not None and len(game.history) == every_id_at:
            probe_every_id(game)
        if rng.random() < 0.15 or game.is_over:
            probe_illegal(game, rng)

    probed = each_position(seed, choice_seed, policy, options, probe)
    clean = play(seed, choice_seed, policy, options)
    assert probed == clean and probed.events == clean.events and probed.history == clean.history


@given(game_seeds, choice_seeds, policies, maybe_options)
def test_illegal_actions_change_nothing(
    seed: int, choice_seed: int, policy: str, options: Any
) -> None:
    check_illegal_probes(seed, choice_seed, policy, options)


# ----------------------------------------------------------------------------- 5. views (R5)

# The only integers a view holds, by key: sizes, counts, turns, group numbers and action ids.
# Anything else would be a card instance number, which tells which card it is.
INT_KEYS = frozenset(
    {
        "turn",
        "deploy_points",
        "deck_size",
        "hand_size",
        "number",
        "attack_bonus",
        "defense_bonus",
        "casualty_budget",
        "casualty_group",
        "passes",
        "ion_cannons_fired",
        "next_battle",
        "pending_damage",
        "extra_attacks",
        # computed values (engine/values.py)
        "ground",
        "space",
        "damage",
        "attack_value",
        "defense_value",
        "stopped",
        # a space group's hero places and heroes aboard (R12, values.hero_places): counts
        "fighters",
        "ships",
        "heroes",
        # structured legal actions: the id, the group number and the number of cards drawn
        "id",
        "copy",
        "group",
        "n",
    }
)


def check_view_schema(view_dict: dict[str, Any], card_names: set[str]) -> None:
    """Property 5b: no card instance numbers anywhere in a view; cards appear by name."""

    def walk(value: Any, path: tuple[Any, ...]) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, (*path, k))
        elif isinstance(value, list | tuple):
            for i, v in enumerate(value):
                walk(v, (*path, i))
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            return
        elif isinstance(value, int):
            keys = [k for k in path if isinstance(k, str)]
            ok = keys[-1] in INT_KEYS or (keys[-1] == "revealed_hands" and path[-1] == 0)
            assert ok, f"integer {value} at {path} in a view"
        else:
            raise AssertionError(f"{type(value).__name__} at {path} in a view")

    walk(view_dict, ())
    json.dumps(view_dict)  # views go over the wire as JSON
    names: list[str] = []
    for side in (view_dict["you"], view_dict["opponent"]):
        names += [*side["discard"], *(side["hand"] or ())]
        for unit in (*side["active"], *side["inactive"]):
            names += [unit["name"], *unit["attachments"]]
    names += [*view_dict["own_deck_contents"], *view_dict["opponent_known_hand"]]
    for _, hand in view_dict["revealed_hands"]:
        names += hand
    for action in view_dict["legal_actions"]:
        names += [name for name in (action["card"], action["target"]) if name is not None]
    assert set(names) <= card_names, f"not card names: {set(names) - card_names}"
    assert view_dict["opponent"]["hand"] is None


def hidden_variant(game: GameState, player: int, rng: random.Random) -> GameState | None:
    """A position ``player`` cannot tell from ``game`` (R5): the opponent's hand and deck mixed
    (a hand card swapped with a deck card of another name) and both decks' order shuffled.

    Cards ``player`` knows to be in that hand (a spy's snapshot, a search: ``known``) stay."""
    other = game.clone(keep_log=True)
    o = 1 - player
    hand, deck = other.hand[o], other.deck[o]
    type_of = game.ctx.tables.type_of
    spare = Counter(type_of[c] for c in hand) - Counter(game.known[player])
    pairs = [
        (i, j)
        for i, h in enumerate(hand)
        if spare[type_of[h]]
        for j, d in enumerate(deck)
        if other.name(h) != other.name(d)
    ]
    if not pairs:
        return None
    i, j = rng.choice(pairs)
    hand[i], deck[j] = deck[j], hand[i]
    for p in (0, 1):
        rng.shuffle(other.deck[p])
    rng.shuffle(other.hand[o])
    other.forget_legal()  # the internals changed under the cached legal actions: recompute
    assert other != game
    return other


def probe_views(game: GameState, rng: random.Random, card_names: set[str]) -> None:
    views = [game.view(0), game.view(1)]
    for p, view in enumerate(views):
        # The log is text (tested by LogWatch); leaving it out keeps to_dict() cheap here.
        assert all(isinstance(line, str) for line in view.log)
        check_view_schema(dataclasses.replace(view, log=()).to_dict(), card_names)
        assert view.you.hand == tuple(sorted(game.name(c) for c in game.hand[p]))
        assert view.opponent.hand is None and view.opponent.hand_size == len(game.hand[1 - p])
        mine = p == game.to_move
        legal = [(a.id, a.text) for a in view.legal_actions]
        assert legal == ([(a, game.action_text(a)) for a in game.legal_actions()] if mine else [])
        assert view.revealed_hands == tuple(game.seen[p])
    # 5c: deck order (and hand order) never shows in either view.
    shuffled = game.clone(keep_log=True)
    for p in (0, 1):
        rng.shuffle(shuffled.deck[p])
        rng.shuffle(shuffled.hand[p])
    shuffled.forget_legal()
    assert [shuffled.view(0), shuffled.view(1)] == views, "deck or hand order shows in a view"
    # 5a: the opponent's hidden cards never show in a player's view.
    for p in (0, 1):
        variant = hidden_variant(game, p, rng)
        if variant is not None:
            assert variant.view(p) == views[p], f"{PLAYER_NAMES[p]} sees the opponent's hand"


class LogWatch:
    """Follows the log through a game: it only grows, and the opponent's part of it never names
    the cards a player draws (R5; that a player draws is public, what is drawn is not)."""

    def __init__(self) -> None:
        self.past: list[Event] = []
        self.hands: list[set[int]] = [set(), set()]
        self.decks: list[set[int]] = [set(), set()]

    def check(self, game: GameState) -> None:
        log = game.events or []
        n = len(self.past)
        assert log[:n] == self.past, "the log changed its past lines"
        last = game.history[-1] if game.history else None
        if last is not None and game.action_space[last].kind == Kind.DRAW:
            p = game.player  # the drawer, also when drawing the last card ended the game
            secret = {game.name(c) for c in (set(game.hand[p]) - self.hands[p]) & self.decks[p]}
            names = game.ctx.tables.names
            for event in visible_events(log[n:], 1 - p):  # what the opponent may see
                line = f"{render(event, names)} {json.dumps(to_json(event, names))}"
                leaked = [name for name in secret if name in line]
                assert not leaked, f"{PLAYER_NAMES[1 - p]} reads {leaked} in {line!r}"
        for p in (0, 1):
            self.hands[p] = set(game.hand[p])
            self.decks[p] = set(game.deck[p])
        self.past = log[:]


def check_views(seed: int, choice_seed: int, policy: str, options: Any, rate: float) -> None:
    rng = probe_rng(choice_seed)
    names: set[str] = set()
    watch = LogWatch()

    def check(game: GameState) -> None:
        if not names:
            names.update(ct.name for ct in game.cards)
        watch.check(game)
        if rng.random() < rate or game.is_over:
            probe_views(game, rng, names)

    each_position(seed, choice_seed, policy, options, check)


@settings(max_examples=per_profile(quick=60, ci=250))
@given(game_seeds, choice_seeds, policies, maybe_options)
def test_views_hide_what_r5_hides(seed: int, choice_seed: int, policy: str, options: Any) -> None:
    check_views(seed, choice_seed, policy, options, rate=per_profile(quick=0.2, ci=0.25))


# ----------------------------------------------------------------------------- 6. actions


def check_legal_actions(game: GameState) -> None:
    """Property 6: legal ids are unique, in the space, round-trip through text, match their
    ``Action`` and the mask, belong to the step, and name cards and groups that are there."""
    space = game.action_space
    t = game.ctx.tables
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal), "a legal action is listed twice"
    assert game.legal_action_texts() == [space.text(a) for a in legal]
    mask = game.legal_action_mask()
    assert len(mask) == space.size
    assert [i for i, m in enumerate(mask) if m] == sorted(legal)
    fresh = game.clone()
    fresh.forget_legal()  # the list the rules keep when they check R34 skips must be right
    assert fresh.legal_actions() == legal, "cached legal actions differ from recomputed ones"
    if game.is_over:
        assert legal == []
        return
    assert legal, "no legal action in a game that is not over"
    mover = game.to_move
    hand_types = {t.type_of[c] for c in game.hand[mover]}
    for a in legal:
        assert 0 <= a < space.size
        action = space[a]
        assert action is game.action(a) and action.id == a
        assert str(action) == action.text == space.text(a) == game.action_text(a)
        assert space.parse(action.text) == a and space.parse(action.text.upper()) == a
        assert space.ids(action) == a and game.is_legal(a) and game.is_legal(action.text)
        assert space.encode(action) == space.encode(action.key) == a
        assert space.decode(a) is action
        assert action.kind in STEP_KINDS[game.step], f"{action.text} in step {game.step}"
        if action.card >= 0:
            assert t.names[action.card] in action.text
        if action.target >= 0:
            assert t.names[action.target] in action.text
        if action.group >= 0:
            assert f"group {action.group + 1}" in action.text
            assert action.group < len(game.groups), f"{action.text}: no such group"
        if action.kind in HAND_KINDS:
            assert action.card in hand_types, f"{action.text}: not in {PLAYER_NAMES[mover]}'s hand"
        if action.copy:  # only copied heroes have copy actions (actions.py, "Copies")
            hero = (
                action.target
                if action.kind in (Kind.ATTACH, Kind.PLAY_PSION, Kind.PLAY_END_ON)
                else action.card
            )
            assert hero in t.copied_heroes and f"{t.names[hero]} #{action.copy}" in action.text
        if action.kind == Kind.DRAW:
            assert action.text == f"draw {action.n}"
            assert 1 <= action.n <= len(game.deck[game.player]), "R37: no more than the deck"
    assert PHASE_OF_STEP[game.step] == game.phase
    texts = set(game.legal_action_texts())
    always = {
        FORM: "attack" if game.groups else "no attack",
        ION: "Ion Cannon holds fire",
        BLOCK: "done blocking",
        TARGET: "done targeting",
        TRICKS: "pass",
        DEPLOY: "done deploying",
        END: "end turn",
    }
    if game.step in always:
        assert always[game.step] in texts, f"no {always[game.step]!r} in {game.step}"
    if game.step == DRAW:  # R8, R37: 1..2 plus one per extra-draw unit controlled, deck allowing
        p = game.player
        extra = sum(t.extra_draw[u] for u in game.active[p] + game.inactive[p])
        deck = len(game.deck[p])
        low, high = min(game.options.draw_min, deck), min(game.options.draw_max + extra, deck)
        assert texts == {f"draw {n}" for n in range(low, high + 1)}
    if game.step == CASUALTY:  # R19; copy actions name a later, different copy (actions.py)
        choices = casualty_choices(game)
        plain = {space.text(a) for a in legal if not space[a].copy}
        assert plain == {f"pick {name} as a casualty" for name in choices}
        assert {t.names[space[a].card] for a in legal if space[a].copy} <= choices
    if game.step == DISCARD:
        assert len(game.hand[game.player]) > game.options.hand_limit
        assert texts == {f"discard {game.name(c)}" for c in game.hand[game.player]}


def casualty_choices(game: GameState) -> set[str]:
    """R19, computed apart from the engine: the winners' units that fit the loser's remaining
    budget, never a unit rated 0, heroes only once no non-hero is left, one unit always kept."""
    assert game.cas is not None
    g, side, budget, kind = game.cas
    assert budget >= 0 and game.to_move == (game.player if side else 1 - game.player)
    t = game.ctx.tables
    if side == 0:
        winners, bonus = game.groups[g], game.atk_bonus
    else:
        target = game.targets[g]
        winners = game.blocks[g] or ((target,) if target >= 0 else ())
        bonus = game.def_bonus
    if len(winners) < 2:
        return set()
    heroes_only = all(t.is_hero[u] for u in winners)
    return {
        game.name(u)
        for u in winners
        if (heroes_only or not t.is_hero[u]) and 0 < rating(game, u, kind) + bonus <= budget
    }


@given(game_seeds, choice_seeds, policies, maybe_options)
def test_legal_actions_are_well_formed(
    seed: int, choice_seed: int, policy: str, options: Any
) -> None:
    each_position(seed, choice_seed, policy, options, check_legal_actions)


@pytest.mark.parametrize("options", [RulesOptions(), RulesOptions(max_groups=2, draw_max=4)])
def test_every_action_text_round_trips(options: RulesOptions) -> None:
    """Over the whole action space, not just the actions random games reach."""
    space = new_game(0, options=options).action_space
    assert [space.parse(space.text(a)) for a in range(space.size)] == list(range(space.size))
    assert [space[a].id for a in range(space.size)] == list(range(space.size))


# ----------------------------------------------------------------------------- 7. clones


def probe_clone(game: GameState, rng: random.Random) -> None:
    """Property 7: a clone equals its original, stays equal under the same action, and
    changing it (more actions, or its lists) never changes the original."""
    key = game.key()
    log = list(game.events or [])
    history = list(game.history or [])
    legal = game.legal_actions()
    clone = game.clone()
    assert clone == game and clone.history is None and clone.events is None
    assert clone.legal_actions() == legal
    kept = game.clone(keep_log=True)
    assert kept == game and kept.events == game.events and kept.history == game.history
    assert kept.events is not game.events and kept.history is not game.history
    if legal:
        a = rng.choice(legal)
        twin = game.clone()
        twin.apply(a)
        clone.apply(a)
        assert clone == twin and clone != game
        assert game.key() == key, "applying an action to a clone changed the original"
        for _ in range(rng.randrange(60)):  # and on, along another path
            if clone.is_over:
                break
            clone.apply(rng.choice(clone.legal_actions()))
        if kept.legal_actions():
            kept.apply(rng.choice(kept.legal_actions()))
    for zones in (clone.deck, clone.hand, clone.discard, clone.active, clone.inactive):
        zones[0].append(-1)
        zones[1].clear()
    clone.att[0] = (-1,)
    clone.busy[0] = 7
    clone.groups.append((-1,))
    clone.seen[0].append((0, ("x",)))
    assert game.key() == key, "changing a clone changed the original"
    assert list(game.events or []) == log and list(game.history or []) == history
    assert game.legal_actions() == legal


def check_clones(seed: int, choice_seed: int, policy: str, options: Any, rate: float) -> None:
    """Every position is cloned (with and without its log) and the clone is given the action
    the game then takes: it must equal the game after it. Some positions are probed further."""
    rng = probe_rng(choice_seed)
    follower: list[GameState] = []

    def check(game: GameState) -> None:
        if follower:
            copy, with_log = follower
            assert game.history
            copy.apply(game.history[-1])
            with_log.apply(game.action_text(game.history[-1]))
            assert copy == game, "a clone given the same action differs from the original"
            assert with_log == game and with_log.events == game.events
            assert with_log.history == game.history
        follower[:] = [game.clone(), game.clone(keep_log=True)]
        if rng.random() < rate or game.is_over:
            probe_clone(game, rng)

    probed = each_position(seed, choice_seed, policy, options, check)
    assert probed == play(seed, choice_seed, policy, options)


@given(game_seeds, choice_seeds, policies, maybe_options)
def test_clones_are_equal_and_independent(
    seed: int, choice_seed: int, policy: str, options: Any
) -> None:
    check_clones(seed, choice_seed, policy, options, rate=per_profile(quick=0.1, ci=0.3))


# Slots that do not decide the game: shared context, the seed (the generator state ``rng``
# carries it), the log, the history and the legal-action cache.
# The tally is the balance lab's statistics, not part of the game (engine/tally.py).
# The log and what is derived from it (``_lines``: its rendered lines) never decide the game.
NOT_IN_KEY = frozenset({"ctx", "seed", "events", "history", "tally", "_legal", "_lines"})


def changed(value: Any) -> Any:
    """A different value of the same shape, for any slot type a GameState holds."""
    if value is None:
        return (0, 0, 0, 0)  # ``cas``; ``outcome`` gets an Outcome below
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, bytearray):
        return bytearray(b ^ 1 for b in value)
    if isinstance(value, list):
        if value and isinstance(value[0], list):
            return [[*value[0], -1], *value[1:]]
        return [*value, ()]
    if isinstance(value, tuple):
        return (*value, (-1, -1))
    raise AssertionError(f"a GameState slot holds a {type(value).__name__}: teach this test")


def test_key_and_clone_cover_every_slot() -> None:
    """Every slot of GameState decides equality (``key``) and is copied, unshared, by ``clone``:
    a slot added to the engine and forgotten in ``key`` or ``clone`` fails here."""
    game = play_until(31, lambda g: g.step == TRICKS and len(g.groups) > 1)
    clone = game.clone(keep_log=True)
    for slot in GameState.__slots__:
        value, copy = getattr(game, slot), getattr(clone, slot)
        assert copy == value, f"clone() does not copy {slot}"
        if isinstance(value, list | bytearray | dict) and slot != "_legal":
            assert copy is not value, f"clone() shares {slot} with the original"
        if slot in NOT_IN_KEY:
            continue
        other = game.clone()
        setattr(other, slot, changed(value) if slot != "outcome" else Outcome(0, "test"))
        assert other != game, f"key() ignores {slot}"


def play_until(seed: int, stop: Callable[[GameState], bool]) -> GameState:
    for game in positions(seed, seed, "eager"):
        if stop(game):
            return game
    raise AssertionError("the game ended before the position looked for")


# ----------------------------------------------------------------------------- 8. determinism


def check_determinism(seed: int, choice_seed: int, policy: str, options: Any) -> None:
    """Property 8: the same seed and choices give equal games, logs and histories, whether the
    log is kept or not (the log never feeds back into the rules)."""
    first = play(seed, choice_seed, policy, options)
    second = play(seed, choice_seed, policy, options)
    assert first == second and first.events == second.events and first.history == second.history
    assert first.log_lines(0) == second.log_lines(0)
    assert play(seed, choice_seed, policy, options, log=False) == first
    assert first.history is not None
    by_text = new_game(seed, options=options)
    for text in history_texts(first):  # the same choices, made by text this time
        by_text.apply(text, player=by_text.to_move)
    assert by_text == first and by_text.events == first.events
    assert new_game(seed, options=options) == new_game(seed, options=options)


@given(game_seeds, choice_seeds, policies, maybe_options)
def test_same_seed_and_choices_give_the_same_game(
    seed: int, choice_seed: int, policy: str, options: Any
) -> None:
    check_determinism(seed, choice_seed, policy, options)


HASH_SEED_GAME = """
import json, random
from rebelspace.engine import new_game, to_record
game = new_game(5)
rng = random.Random(5)
while not game.is_over:
    game.apply(rng.choice(game.legal_actions()))
print(json.dumps(to_record(game)))
"""


def test_games_do_not_depend_on_string_hashing() -> None:
    """Records replay in other processes: nothing may iterate a set of names in hash order."""
    runs = [
        subprocess.run(
            [sys.executable, "-c", HASH_SEED_GAME],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        ).stdout
        for hash_seed in ("0", "1", "4242")
    ]
    assert runs[0] == runs[1] == runs[2]
    assert replay(json.loads(runs[0])) == replay(json.loads(runs[1]))


def test_different_seeds_deal_different_games() -> None:
    """A sanity check that the seed is used at all (equal games would hide most bugs above)."""
    keys = {new_game(seed).key() for seed in range(20)}
    assert len(keys) == 20
