"""The game's own seeded random number generator.

SplitMix64 keeps its whole state in one integer, so copying a game state for search copies the
generator for free (``random.Random`` would cost several microseconds per copy).
"""

from __future__ import annotations

from typing import Final

# Final: compiled (mypyc), a constant, not a lookup in the module's globals at every use.
MASK64: Final = (1 << 64) - 1
GOLDEN: Final = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any integer, negative ones included)."""
    return (seed * GOLDEN) & MASK64


def mix64(z: int) -> int:
    """SplitMix64's output function: nearby inputs give unrelated 64-bit outputs."""
    z &= MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def next_u64(state: int) -> tuple[int, int]:
    """Advance the generator: returns (new state, 64-bit output)."""
    state = (state + GOLDEN) & MASK64
    return state, mix64(state)


def shuffle(items: list[int], state: int) -> int:
    """Fisher-Yates shuffle of ``items`` in place; returns the new generator state."""
    for i in range(len(items) - 1, 0, -1):
        state, r = next_u64(state)
        j = r % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state
