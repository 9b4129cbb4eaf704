"""One player's observation kept up to date from one decision to the next (the environments' hot
path): the same values as ``Encoder.observation``, at a fraction of the cost.

Between two decisions most of the state is unchanged: a card moves from hand to board, the
step advances. So the encoding is held in one buffer per player, and each slice is rewritten
only when what it is computed from differs from what it was computed from last time (compared
by value, never by identity: the engine edits its lists in place, and a reset brings a new
state). The global and counts slices are always rewritten; the battle slices whenever a battle
is in progress or has just ended. ``tests/env/test_incremental.py`` checks every observation of
whole games, across resets and jumps between unrelated states, against ``Encoder.encode``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rebelspace.engine import GameState
from rebelspace.engine.read import Sight, battle, in_battle, inactive, visible

from .encoding import COUNTS, GLOBAL, ZONES, Encoder

HEAD = GLOBAL + COUNTS


class IncrementalEncoder:
    """``observation(state)`` of one player, for a stream of states (see the module doc)."""

    __slots__ = (
        "encoder",
        "player",
        "_v",
        "_u8",
        "_zeros",
        "_at",
        "_inputs",
        "_groups_in",
        "_in_battle",
    )

    def __init__(self, encoder: Encoder, player: int) -> None:
        self.encoder = encoder
        self.player = player
        self._v = bytearray(encoder.size)
        # A uint8 view of the buffer: one astype() per observation makes the float32 copy.
        self._u8 = np.frombuffer(self._v, dtype=np.uint8)
        self._zeros = memoryview(bytes(encoder.size))  # slices of a memoryview: no copies
        lay = encoder.layout
        off = lay.offsets
        # Where the slices start, in the order of ``_inputs``, then the battle and the groups.
        self._at = [off[name] for name in ("own_hand", "own_deck", "own_discard", "opp_discard")]
        self._at += [off["opp_known"]] + [off[name] for name in ZONES]
        self._at += [off["attachments"], off["revealed"], off["battle"]]
        self._at.append(off["group0"] if lay.groups else encoder.size)
        # Copies of what the slices now in the buffer were computed from (None: not yet): the
        # player's ``read.visible`` (the four piles, opp_known, the four zones, the attachments of
        # every hero, revealed, in its field order); and the six inputs of the group slices.
        # _in_battle: the battle slices may hold something.
        self._inputs: tuple[Any, ...] = ()
        self._groups_in: tuple[Any, ...] = ()
        self._in_battle = True
        self._forget()

    def observation(self, s: GameState) -> np.ndarray:
        """``player``'s observation of ``s`` as a new float32 vector."""
        v = self._v
        p = self.player
        inputs = visible(s, p)
        self.encoder.write_head(s, inputs, v)  # changes at almost every decision
        try:
            if inputs != self._inputs:  # one comparison, in C, when nothing moved
                self._rewrite(inputs)
            if self._in_battle or in_battle(s):
                self._battle(s)
        except BaseException:
            self._forget()  # a slice may be half written (a count over 255): trust none
            raise
        return self._u8.astype(np.float32)

    def _forget(self) -> None:
        self._inputs = (None,) * len(Sight._fields)
        self._groups_in = (None,) * 6
        self._in_battle = True

    def _rewrite(self, inputs: tuple[Any, ...]) -> None:
        """Rewrite the slices whose inputs changed (``inputs``: ``read.visible``'s, by position);
        remember copies of the new inputs (the engine edits its lists in place)."""
        enc = self.encoder
        v = self._v
        at = self._at
        zeros = self._zeros
        types = enc.layout.types
        old = self._inputs
        kept = list(old)
        for k in range(4):
            if inputs[k] != old[k]:
                kept[k] = inputs[k][:]
                self._pile(at[k], inputs[k], old[k])
        if inputs[4] != old[4]:
            kept[4] = inputs[4]  # a tuple
            v[at[4] : at[4] + types] = zeros[:types]
            enc.write_known(inputs[4], v)
        board = False
        for k in range(5, 10):
            if inputs[k] != old[k]:
                board = True
                kept[k] = inputs[k][:]
                if k < 9:
                    v[at[k] : at[k] + types] = zeros[:types]
                    enc.write_zone(k - 5, inputs[k], v)
        if board:  # a hero came or went, or what is attached to one changed
            v[at[9] : at[10]] = zeros[: at[10] - at[9]]
            enc.write_attachments(inputs[5:9], inputs[9], v)
        if inputs[10] != old[10]:
            kept[10] = inputs[10][:]
            v[at[10] : at[11]] = zeros[: at[11] - at[10]]
            enc.write_revealed(inputs[10], v)
        kept[11:] = inputs[11:]  # the other hand's and deck's sizes (in the head), the side...
        self._inputs = tuple(kept)

    def _pile(self, start: int, now: Sequence[int], before: Sequence[int] | None) -> None:
        """Counts of a pile. Decks lose cards from the top (the end of the list) and discard
        piles gain them there: count just those cards when that is all that happened."""
        v = self._v
        to = self.encoder.type_of
        if before is not None:
            n, m = len(now), len(before)
            if n < m and now == before[:n]:
                for card in before[n:]:
                    v[start + to[card]] -= 1
                return
            if n > m and now[:m] == before:
                for card in now[m:]:
                    v[start + to[card]] += 1
                return
        v[start : start + self.encoder.layout.types] = self.encoder.pile_counts(now)

    def _battle(self, s: GameState) -> None:
        """The battle slice (rewritten: its counters move at most decisions), and the group
        slices when their inputs changed (they stay put through blocks and battle tricks)."""
        enc = self.encoder
        v = self._v
        zeros = self._zeros
        start, groups_start = self._at[11], self._at[12]
        v[start:groups_start] = zeros[: groups_start - start]
        b = battle(s)
        self._in_battle = bool(b.groups)
        if b.groups:
            enc.write_battle_head(b, v)
        groups, gkind, blocks, targets, results = b.groups, b.kinds, b.blocks, b.targets, b.results
        defender_inactive = inactive(s, 1 - s.player)
        inputs = (groups, gkind, blocks, targets, results, defender_inactive)
        if inputs != self._groups_in:
            self._groups_in = (
                groups[:],
                gkind[:],
                blocks[:],
                targets[:],
                results[:],
                defender_inactive[:],
            )
            v[groups_start:] = zeros[groups_start:]
            enc.write_groups(s, b, v)
