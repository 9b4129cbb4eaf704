"""Determinization: a full game state built from one player's view, for search.

A view says everything a player knows (R5) and nothing else. ``sample_state`` builds a game
state that agrees with the view in everything it shows, and draws what it hides at random:
the order of the player's own deck, and which of the opponent's unseen cards are in hand
(beyond those the player knows are there) and in what order the rest lie in the deck. Because
it reads only the view, two positions the player cannot tell apart give the same samples.

What the opponent knows about this player's hand (their spy snapshots) is not in the view and
is left empty in the sample.
"""

from __future__ import annotations

import random

from .cache import per_object
from .cards import SIDE_NAMES
from .errors import RebelSpaceError
from .events import RESULT_NAMES
from .rng import seed_state, shuffle
from .state import (
    GROUND_BATTLE,
    SPACE_BATTLE,
    STEP_NAMES,
    Casualties,
    GameContext,
    GameState,
    Outcome,
)
from .tables import Tables
from .values import NO_TARGET
from .views import PlayerView, UnitView


class SamplingError(RebelSpaceError, ValueError):
    """The view does not fit the card list it was sampled against."""


def sample_state(view: PlayerView, ctx: GameContext, seed: int) -> GameState:
    """A random full state consistent with ``view`` (made for the game's context ``ctx``)."""
    return _Sampler(view, ctx, seed).build()


def _by_name(t: Tables) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each card name with its instances, in ascending order (``take`` pops the last)."""
    pool: dict[str, list[int]] = {}
    for i in range(t.n):
        pool.setdefault(t.names[t.type_of[i]], []).append(i)
    return tuple((name, tuple(ids)) for name, ids in pool.items())


_instances_by_name = per_object(_by_name)  # built once per card list, copied per sample


class _Sampler:
    def __init__(self, view: PlayerView, ctx: GameContext, seed: int) -> None:
        self.view = view
        self.ctx = ctx
        self.pool = {name: list(ids) for name, ids in _instances_by_name(ctx.tables)}
        self.s = s = GameState.empty(ctx, seed, False)
        s.history = None

    def take(self, name: str) -> int:
        free = self.pool.get(name)
        if not free:
            raise SamplingError(f"the view shows a {name!r} that the card list cannot supply")
        return free.pop()

    def unit(self, u: UnitView) -> int:
        i = self.take(u.name)
        self.s.att[i] = tuple(self.take(a) for a in u.attachments)
        return i

    def build(self) -> GameState:
        v, s = self.view, self.s
        me = SIDE_NAMES.index(v.player)
        opp = 1 - me
        for p, side in ((me, v.you), (opp, v.opponent)):
            s.discard[p] = [self.take(n) for n in side.discard]
            s.active[p] = [self.unit(u) for u in side.active]
            s.inactive[p] = [self.unit(u) for u in side.inactive]
        self.hidden(s, me)
        s.turn = v.turn
        s.player = SIDE_NAMES.index(v.active_player)
        s.step = STEP_NAMES.index(v.step)
        s.to_move = SIDE_NAMES.index(v.to_move) if v.to_move is not None else -1
        s.points = v.deploy_points or 0
        s.extra_attacks = v.extra_attacks
        if v.winner is not None:
            s.mark_over(Outcome(SIDE_NAMES.index(v.winner), v.end_reason or ""))
        if v.battle is not None:
            self.battle(s)
        return s

    def hidden(self, s: GameState, me: int) -> None:
        """The hands and decks: ``me``'s own known, the opponent's dealt from the unseen cards
        (its known hand cards first)."""
        v, t = self.view, self.ctx.tables
        opp = 1 - me
        assert v.you.hand is not None
        s.hand[me] = [self.take(n) for n in v.you.hand]
        own_deck = [self.take(n) for n in v.own_deck_contents]
        s.rng = shuffle(own_deck, s.rng)
        s.deck[me] = own_deck
        known = [self.take(n) for n in v.opponent_known_hand]
        unseen = [i for free in self.pool.values() for i in free if t.owner[i] == opp]
        unseen.sort()
        s.rng = shuffle(unseen, s.rng)
        extra = v.opponent.hand_size - len(known)
        if extra < 0 or len(unseen) != extra + v.opponent.deck_size:
            raise SamplingError("the view's hand and deck sizes do not fit the card list")
        s.hand[opp] = known + unseen[:extra]
        s.deck[opp] = unseen[extra:]
        s.known[me] = tuple(sorted(t.type_of[i] for i in known))
        s.seen[me] = list(v.revealed_hands)

    def battle(self, s: GameState) -> None:
        b = self.view.battle
        assert b is not None
        t = self.ctx.tables
        p, d = s.player, 1 - s.player
        for g in b.groups:
            s.groups.append(tuple(_find(s, p, s.active[p], u) for u in g.units))
            s.gkind.append(GROUND_BATTLE if g.kind == "ground" else SPACE_BATTLE)
            s.blocks.append(tuple(_find(s, d, s.active[d], u) for u in g.blockers))
            s.results.append(RESULT_NAMES.index(g.result) if g.result else -1)
            if g.target is None:
                s.targets.append(NO_TARGET)
            else:
                zone = s.inactive[d] if g.target_zone == "inactive" else s.active[d]
                s.targets.append(_find(s, d, zone, g.target))
        s.atk_bonus = b.attack_bonus
        s.def_bonus = b.defense_bonus
        s.passes = b.passes
        s.battle_next = b.next_battle - 1
        s.pending_damage = b.pending_damage
        # A cannon that fired may since have been destroyed in a battle of this phase.
        cannons = [u for u in (*s.active[d], *s.discard[d]) if t.ion_cannon[u]]
        s.ion_used = tuple(cannons[: b.ion_cannons_fired])
        s.psions = tuple(_psion(s, card, hero) for card, hero in b.psion_cards)
        if b.casualty_group is not None:
            cg = b.casualty_group - 1
            side = 0 if b.casualty_from == "attacker" else 1
            s.cas = Casualties(cg, side, b.casualty_budget or 0, s.gkind[cg])


def _find(s: GameState, side: int, zone: list[int], u: UnitView) -> int:
    """The unit the battle shows: the copy the view numbers (UnitView.copy)."""
    t = s.ctx.tables
    names, type_of = t.names, t.type_of
    k = 0
    for i in s.active[side] + s.inactive[side]:
        if names[type_of[i]] != u.name:
            continue
        k += 1
        if k == u.copy:
            look = tuple(names[type_of[a]] for a in s.att[i])
            if i in zone and not s.busy[i] and look == u.attachments:
                s.busy[i] = 1
                return i
            break
    raise SamplingError(f"the battle shows a {u.name!r} that is not in its zone")


def _psion(s: GameState, card_name: str, hero_name: str) -> tuple[int, int]:
    """(psion card, hero) of a psion card the battle shows on a fighting hero (R24)."""
    t = s.ctx.tables
    names, type_of = t.names, t.type_of
    hero = next(
        h
        for zone in (s.active[0], s.active[1], s.inactive[0], s.inactive[1])
        for h in zone
        if names[type_of[h]] == hero_name and s.busy[h]
    )
    card = next(a for a in s.att[hero] if names[type_of[a]] == card_name)
    return card, hero


def redeal(state: GameState, player: int, rng: random.Random) -> GameState:
    """A copy of a sampled state with ``player``'s hidden information dealt again at random.

    Equivalent in distribution to a fresh ``sample_state`` of the same view, at a fraction of
    the cost: the opponent's unknown hand cards and deck are pooled and dealt again, the
    player's own deck is shuffled, and the copy gets a fresh engine seed (the real one is
    hidden: it decides future shuffles).
    """
    c = state.clone()
    t = state.ctx.tables
    opp = 1 - player
    hand = c.hand[opp]
    keep: list[int] = []
    if c.known[player]:
        wanted = list(c.known[player])
        rest = []
        for card in hand:
            ct = t.type_of[card]
            if ct in wanted:
                wanted.remove(ct)
                keep.append(card)
            else:
                rest.append(card)
    else:
        rest = hand
    pool = rest + c.deck[opp]
    rng.shuffle(pool)
    n = len(rest)
    c.hand[opp] = keep + pool[:n]
    c.deck[opp] = pool[n:]
    rng.shuffle(c.deck[player])
    c.rng = seed_state(rng.getrandbits(62))
    c.forget_legal()
    return c
