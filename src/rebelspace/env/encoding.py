"""The numeric observation of one player: what that player's view shows (R5), as a flat vector.

The encoder reads the game state through the engine's door (``engine/read.py``), not through a
``PlayerView`` (building one costs ~38 us; this costs a few): the cards from ``read.visible``
(``read.sight``, by position), the one decision of what R5 lets the player see, which the views
are built from too, and the rest from the door's public reads. ``tests/env/test_encoding.py``
proves it honest by checking that a state sampled from the player's view
(``engine.sampling.sample_state``) encodes the same, and that swapping the opponent's hidden
hand and deck cards changes nothing.

Everything is from the viewer's side ("own" = the observing player, "opp" = the other one), so
one policy can play both sides; ``side`` says which one it is. Cards are counted by card type
(54 types, in card-list order: ``card_type_names()``), never by instance: which copy of a card
is where is not something a player can know. Every entry is a small non-negative integer, sent
as float32. ``T`` is the number of card types (54), ``H`` the hero types (12), ``A`` the card
types that can be attached to a hero (11: items, companions, psion cards, the Convert/Traitor
marker), ``G`` the most attacking groups (``max_groups``, 8).

| slice        | size   | entries                                                              |
| ------------ | ------ | -------------------------------------------------------------------- |
| global       | 19     | side (0 Rebel, 1 Imperial), own turn, own decision, game over, won,  |
|              |        | turn number (capped at 255), deploy points (deploy step only), extra |
|              |        | attack phases to come (R22), step one-hot (11, ``STEP_NAMES``)       |
| counts       | 4      | own deck size, own hand size, opp deck size, opp hand size           |
| own_hand     | T      | cards in own hand                                                    |
| own_deck     | T      | what is left in own deck (order unknown)                             |
| opp_known    | T      | cards known to be in opp's hand (spied R27 / searched R26, unplayed) |
| own_discard  | T      | own discard pile (public)                                            |
| opp_discard  | T      | opp discard pile (public)                                            |
| own_active   | T      | units in own active zone (a converted hero counts for its controller)|
| own_inactive | T      | units in own inactive zone                                           |
| opp_active   | T      | units in opp active zone                                             |
| opp_inactive | T      | units in opp inactive zone                                           |
| attachments  | H x A  | per hero type (wherever it is in play): attached cards by type       |
| revealed     | 2 + T  | last hand of opp's revealed to us by a spy (R27): count of reveals,  |
|              |        | turn of the last one, its cards                                      |
| battle       | 12 + 4 | attack phase in progress (zero when none): in battle, groups, attack |
|              |        | bonus, defense bonus, passes in a row, Ion Cannons fired, next       |
|              |        | battle (1-based), pending damage, picking casualties, casualty group |
|              |        | (1-based), casualties from the defender's group (0 attacker),        |
|              |        | casualty budget; then psion cards played this phase by psion type (4)|
| group[g]     | 7 + 3T | per group g < G: exists, space battle, result one-hot (attacker won, |
|              |        | defender won, both destroyed), has target, target inactive; then     |
|              |        | attacking units, blocking units, target (each by type)               |

With the standard cards: 2,065 entries. ``observation_size(ctx)`` and ``layout(ctx)`` give the
sizes and offsets. Not encoded: the log text (whatever of it is public is in the piles and
boards above) and the order of discard piles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rebelspace.engine import STEP_NAMES, GameContext, GameState
from rebelspace.engine.cache import per_object
from rebelspace.engine.cards import ATTACHMENT, HERO, PSION
from rebelspace.engine.read import (
    ACTIVE,
    ATT,
    DECK,
    DISCARD,
    HAND,
    INACTIVE,
    KNOWN,
    OPP_ACTIVE,
    OPP_DECK_SIZE,
    OPP_DISCARD,
    OPP_HAND_SIZE,
    OPP_INACTIVE,
    REVEALED,
    SIDE,
    Battle,
    Seen,
    battle,
    deploy_points,
    extra_attacks,
    in_battle,
    target_inactive,
    visible,
)

GLOBAL, COUNTS, BATTLE_HEAD, GROUP_HEAD = 19, 4, 12, 7
_STEP_ONE_HOT = tuple(bytes(k == i for k in range(len(STEP_NAMES))) for i in range(len(STEP_NAMES)))
PILE_CACHE = 20_000  # remembered pile counts (about 0.5 KB each) before the cache starts over
ZONES = ("own_active", "own_inactive", "opp_active", "opp_inactive")


@dataclass(frozen=True, slots=True)
class Layout:
    """Offsets of the slices of the observation for one game context (see the module doc)."""

    types: int
    heroes: tuple[int, ...]  # card type index of each hero slot
    attachables: tuple[int, ...]  # card type index of each attachment slot
    psions: tuple[int, ...]
    groups: int
    offsets: dict[str, int]
    size: int

    def slice(self, name: str) -> slice:
        start = self.offsets[name]
        names = list(self.offsets)
        i = names.index(name)
        end = self.offsets[names[i + 1]] if i + 1 < len(names) else self.size
        return slice(start, end)


def _stays(ctx: GameContext, card_type: int) -> bool:
    """An action card that stays attached to its target (R28, the Convert/Traitor marker)."""
    effect = ctx.tables.type_effect[card_type]
    return effect is not None and effect.stays


def _build_layout(ctx: GameContext) -> Layout:
    db = ctx.cards
    types = len(db.types)
    heroes = tuple(ct.index for ct in db.types if ct.kind == HERO)
    attachables = tuple(
        ct.index for ct in db.types if ct.kind in (ATTACHMENT, PSION) or _stays(ctx, ct.index)
    )
    psions = tuple(ct.index for ct in db.types if ct.kind == PSION)
    sizes = [("global", GLOBAL), ("counts", COUNTS)]
    for name in ("own_hand", "own_deck", "opp_known", "own_discard", "opp_discard"):
        sizes.append((name, types))
    for name in ("own_active", "own_inactive", "opp_active", "opp_inactive"):
        sizes.append((name, types))
    sizes.append(("attachments", len(heroes) * len(attachables)))
    sizes.append(("revealed", 2 + types))
    sizes.append(("battle", BATTLE_HEAD + len(psions)))
    groups = ctx.options.max_groups
    for g in range(groups):
        sizes.append((f"group{g}", GROUP_HEAD + 3 * types))
    offsets: dict[str, int] = {}
    at = 0
    for name, size in sizes:
        offsets[name] = at
        at += size
    return Layout(types, heroes, attachables, psions, groups, offsets, at)


class Encoder:
    """Encodes states of one game context; built once per context (``encoder_for``)."""

    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        self.layout = lay = _build_layout(ctx)
        t = ctx.tables
        self.type_of = t.type_of
        self.is_hero = t.is_hero
        self.type_index = {name: i for i, name in enumerate(t.names)}
        hero_slot = {ct: k for k, ct in enumerate(lay.heroes)}
        att_slot = {ct: k for k, ct in enumerate(lay.attachables)}
        width = len(lay.attachables)
        base = lay.offsets["attachments"]
        # Per instance: where a card attached to a hero is counted, by (hero type, attached type).
        self.att_at = {
            (h, a): base + hero_slot[h] * width + att_slot[a] for h in hero_slot for a in att_slot
        }
        self.psion_at = {
            ct: lay.offsets["battle"] + BATTLE_HEAD + k for k, ct in enumerate(lay.psions)
        }
        # Per slice of per-type counts: the entry each card instance is counted in.
        self.at = {name: tuple(lay.offsets[name] + ct for ct in t.type_of) for name in ZONES}
        self.group_at = tuple(lay.offsets[f"group{g}"] for g in range(lay.groups))
        self.size = lay.size
        self._labels: list[str] | None = None
        self._pile_cache: dict[tuple[int, ...], bytes] = {}

    def encode(self, s: GameState, player: int) -> bytearray:
        """The observation of ``player`` as bytes (one per entry). Reads only what R5 shows."""
        off = self.layout.offsets
        types = self.layout.types
        v = bytearray(self.size)
        w = visible(s, player)
        self.write_head(s, w, v)
        counts = self.pile_counts
        for name, pile in (
            ("own_hand", w[HAND]),
            ("own_deck", w[DECK]),
            ("own_discard", w[DISCARD]),
            ("opp_discard", w[OPP_DISCARD]),
        ):
            o = off[name]
            v[o : o + types] = counts(pile)
        if w[KNOWN]:
            self.write_known(w[KNOWN], v)
        self._zones(w, v)
        if w[REVEALED]:
            self.write_revealed(w[REVEALED], v)
        if in_battle(s):
            b = battle(s)
            self.write_battle_head(b, v)
            self.write_groups(s, b, v)
        return v

    # The slice writers below (all but ``write_head``) count into ``v`` with ``+=`` or write only
    # some entries: their slices must be zero first (a fresh vector in ``encode``;
    # ``IncrementalEncoder`` zeroes the slices it rewrites).

    def write_head(self, s: GameState, w: Seen, v: bytearray) -> None:
        """The global and counts slices, every entry written (so no zeroing first): public
        information and the player's own (the sizes of hands and decks are public, R5)."""
        player = w[SIDE]
        out = s.outcome
        v[0] = player
        v[1] = s.player == player
        v[2] = s.to_move == player
        v[3] = out is not None
        v[4] = out is not None and out.winner == player
        turn = s.turn
        v[5] = turn if turn < 255 else 255
        points = deploy_points(s)
        v[6] = 0 if points is None else points
        v[7] = extra_attacks(s)
        v[8:GLOBAL] = _STEP_ONE_HOT[s.step]
        # counts, capped: an edited card list may hold more than 255 cards
        n = len(w[DECK])
        v[GLOBAL] = n if n < 255 else 255
        n = len(w[HAND])
        v[GLOBAL + 1] = n if n < 255 else 255
        n = w[OPP_DECK_SIZE]
        v[GLOBAL + 2] = n if n < 255 else 255
        n = w[OPP_HAND_SIZE]
        v[GLOBAL + 3] = n if n < 255 else 255

    def write_known(self, known: tuple[int, ...], v: bytearray) -> None:
        o = self.layout.offsets["opp_known"]
        for ct in known:
            v[o + ct] += 1

    def _zones(self, w: Seen, v: bytearray) -> None:
        """The four zone slices and the attachments slice, in one pass (``_zone`` and
        ``_attachments`` write the same, separately, for ``IncrementalEncoder``)."""
        at = self.at
        to = self.type_of
        is_hero = self.is_hero
        att = w[ATT]
        att_at = self.att_at
        for name, zone in zip(ZONES, self.zones_of(w), strict=True):
            p = at[name]
            for u in zone:
                v[p[u]] += 1
                if is_hero[u]:
                    h = to[u]
                    for a in att[u]:
                        v[att_at[h, to[a]]] += 1

    @staticmethod
    def zones_of(w: Seen) -> tuple[Sequence[int], ...]:
        """The zones in the order of ``ZONES``: own active, own inactive, opp's two."""
        return (w[ACTIVE], w[INACTIVE], w[OPP_ACTIVE], w[OPP_INACTIVE])

    def write_zone(self, k: int, zone: Sequence[int], v: bytearray) -> None:
        p = self.at[ZONES[k]]
        for u in zone:
            v[p[u]] += 1

    def write_attachments(
        self, zones: Sequence[Sequence[int]], att: Sequence[tuple[int, ...]], v: bytearray
    ) -> None:
        to = self.type_of
        is_hero = self.is_hero
        att_at = self.att_at
        for zone in zones:
            for u in zone:
                if is_hero[u]:
                    h = to[u]
                    for a in att[u]:
                        v[att_at[h, to[a]]] += 1

    def write_revealed(self, seen: Sequence[tuple[int, tuple[str, ...]]], v: bytearray) -> None:
        if seen:
            o = self.layout.offsets["revealed"]
            v[o] = len(seen)
            turn, names = seen[-1]
            v[o + 1] = min(turn, 255)
            index = self.type_index
            for n in names:
                v[o + 2 + index[n]] += 1

    def pile_counts(self, pile: Sequence[int]) -> bytes:
        """Per-type counts of a pile, remembered: decks and discard piles change at a few
        decisions only, and a cache hit (~0.3 us) beats counting a 40-card deck (~2 us)."""
        key = tuple(pile)
        hit = self._pile_cache.get(key)
        if hit is None:
            b = bytearray(self.layout.types)
            to = self.type_of
            for card in pile:
                b[to[card]] += 1
            hit = bytes(b)
            if len(self._pile_cache) >= PILE_CACHE:
                self._pile_cache.clear()
            self._pile_cache[key] = hit
        return hit

    def write_battle_head(self, b: Battle, v: bytearray) -> None:
        """The battle slice: the attack phase's counters and the psion cards that count."""
        off = self.layout.offsets
        to = self.type_of
        o = off["battle"]
        v[o] = 1
        v[o + 1] = len(b.groups)
        v[o + 2] = b.attack_bonus
        v[o + 3] = b.defense_bonus
        v[o + 4] = b.passes
        v[o + 5] = b.ion_cannons_fired
        v[o + 6] = b.next_battle + 1
        v[o + 7] = b.pending_damage
        cas = b.casualty
        if cas is not None:
            v[o + 8] = 1
            v[o + 9] = cas.group + 1
            v[o + 10] = cas.side
            v[o + 11] = cas.budget
        for card, _hero in b.psions:
            v[self.psion_at[to[card]]] += 1

    def write_groups(self, s: GameState, b: Battle, v: bytearray) -> None:
        """The group slices (from the battle's groups, kinds, results, targets, blocks and
        whether each target is in the defender's inactive zone)."""
        to = self.type_of
        types = self.layout.types
        group_at = self.group_at
        kinds, results, targets, blocks = b.kinds, b.results, b.targets, b.blocks
        for g, units in enumerate(b.groups):
            o = group_at[g]
            v[o] = 1
            v[o + 1] = kinds[g]
            if results[g] >= 0:
                v[o + 2 + results[g]] = 1
            target = targets[g]
            u = o + GROUP_HEAD
            for unit in units:
                v[u + to[unit]] += 1
            for unit in blocks[g]:
                v[u + types + to[unit]] += 1
            if target >= 0:
                v[o + 5] = 1
                v[o + 6] = target_inactive(s, g)
                v[u + 2 * types + to[target]] += 1

    def labels(self) -> list[str]:
        """A name for every entry, e.g. ``own_hand:Princess`` (for readable strings)."""
        if self._labels is None:
            self._labels = _labels(self.layout, self.ctx)
        return self._labels

    def describe(self, s: GameState, player: int) -> str:
        """The observation as text: the non-zero entries, ``label=value``, in layout order."""
        v = self.encode(s, player)
        labels = self.labels()
        nonzero = np.flatnonzero(np.frombuffer(v, dtype=np.uint8))
        return " ".join(f"{labels[i]}={v[i]}" for i in nonzero)

    def observation(self, s: GameState, player: int) -> np.ndarray:
        """The observation of ``player`` as a float32 vector (see the module doc)."""
        return np.frombuffer(self.encode(s, player), dtype=np.uint8).astype(np.float32)


def _labels(lay: Layout, ctx: GameContext) -> list[str]:
    names = ctx.tables.names
    glob = ["side", "own_turn", "own_decision", "over", "won", "turn", "points", "extra_attacks"]
    glob += [f"step_{n.replace(' ', '_')}" for n in STEP_NAMES]
    out = glob + ["own_deck_size", "own_hand_size", "opp_deck_size", "opp_hand_size"]
    for name in ("own_hand", "own_deck", "opp_known", "own_discard", "opp_discard"):
        out += [f"{name}:{n}" for n in names]
    for name in ("own_active", "own_inactive", "opp_active", "opp_inactive"):
        out += [f"{name}:{n}" for n in names]
    out += [f"att:{names[h]}+{names[a]}" for h in lay.heroes for a in lay.attachables]
    out += ["revealed", "revealed_turn"] + [f"revealed:{n}" for n in names]
    out += ["battle", "groups", "atk_bonus", "def_bonus", "passes", "ion_fired", "next_battle"]
    out += ["pending_damage", "casualties", "cas_group", "cas_from_defender", "cas_budget"]
    out += [f"psion:{names[p]}" for p in lay.psions]
    for g in range(lay.groups):
        head = ["", "space", "attacker_won", "defender_won", "both_destroyed", "target"]
        out += [f"g{g + 1}{'.' if h else ''}{h}" for h in head] + [f"g{g + 1}.target_inactive"]
        for part in ("unit", "blocker", "target"):
            out += [f"g{g + 1}.{part}:{n}" for n in names]
    assert len(out) == lay.size
    return out


#: The encoder of a game context, built once (contexts are immutable and shared).
encoder_for = per_object(Encoder)


def observation_size(ctx: GameContext) -> int:
    return encoder_for(ctx).size


def layout(ctx: GameContext) -> Layout:
    return encoder_for(ctx).layout


def encode(state: GameState, player: int) -> np.ndarray:
    """``player``'s observation of ``state`` (float32, ``observation_size`` entries)."""
    return encoder_for(state.ctx).observation(state, player)


def card_type_names(ctx: GameContext) -> tuple[str, ...]:
    """Card type names in the order of every per-type slice."""
    return ctx.tables.names


def legal_mask(legal: Sequence[int], size: int) -> np.ndarray:
    """A new int8 mask of ``size`` entries, 1 at the ``legal`` ids: the one mask builder of the
    environments and policy agents. Legal lists are mostly a few ids: setting them one by one
    beats a fancy-index assignment, which first converts the list to an index array."""
    if len(legal) <= 4:
        mask = np.zeros(size, dtype=np.int8)
        for a in legal:
            mask[a] = 1
        return mask
    buf = bytearray(size)
    for a in legal:
        buf[a] = 1
    return np.frombuffer(buf, dtype=np.int8)


def action_mask(state: GameState) -> np.ndarray:
    """int8 mask over the fixed action space: 1 where legal for the player to move."""
    return legal_mask(state.legal_actions(), state.ctx.space.size)


STEPS = len(STEP_NAMES)
assert GLOBAL == 8 + STEPS
