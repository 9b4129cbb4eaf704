"""Helpers that several test folders use: the Hypothesis profiles' names and per-profile values, a
Hypothesis strategy for rules options, checks run on every position of a game, and a second
true state that a player cannot tell from the first (for the R5 hiding tests)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TypeVar

from hypothesis import currently_in_test_context, note, settings
from hypothesis import strategies as st

from rebelspace.engine import GameState, RulesOptions
from rebelspace.engine.options import FIRST_PLAYERS, TIE_RESULTS

# The Hypothesis profiles, registered and loaded in tests/conftest.py.
QUICK, CI = "quick", "ci"

T = TypeVar("T")


def per_profile(*, quick: T, ci: T) -> T:
    """A test's own value for the loaded Hypothesis profile: ``quick`` under the quick profile
    (`make test-quick`), ``ci`` otherwise (`make test`)."""
    return quick if settings.get_current_profile_name() == QUICK else ci


@st.composite
def rules_options(draw: st.DrawFn) -> RulesOptions:
    """Any valid rules options, small limits included: every property must hold for them all."""
    draw_max = draw(st.integers(1, 3))
    return RulesOptions(
        tie=draw(st.sampled_from(TIE_RESULTS)),
        hand_limit=draw(st.integers(0, 14)),
        deploy_points=draw(st.integers(0, 6)),
        starting_hand=draw(st.integers(0, 9)),
        draw_min=draw(st.integers(1, draw_max)),
        draw_max=draw_max,
        target_inactive=draw(st.booleans()),
        max_groups=draw(st.integers(1, 8)),
        first_player=draw(st.sampled_from(FIRST_PLAYERS)),
    )


def twin(game: GameState, player: int, rng: random.Random) -> GameState | None:
    """Another true state ``player`` cannot tell from ``game``: an opponent hand card the player
    does not know of swapped with an opponent deck card of another name, both decks shuffled,
    a new engine RNG. None when no such swap exists."""
    opp = 1 - player
    t = game.ctx.tables
    known = Counter(game.known[player])
    in_hand = Counter(t.type_of[c] for c in game.hand[opp])
    unknown = [
        i for i, c in enumerate(game.hand[opp]) if in_hand[t.type_of[c]] > known[t.type_of[c]]
    ]
    if not unknown:
        return None
    h = rng.choice(unknown)
    card = game.hand[opp][h]
    others = [j for j, c in enumerate(game.deck[opp]) if t.type_of[c] != t.type_of[card]]
    if not others:
        return None
    d = rng.choice(others)
    c = game.clone()
    c.hand[opp][h], c.deck[opp][d] = c.deck[opp][d], c.hand[opp][h]
    rng.shuffle(c.deck[opp])
    rng.shuffle(c.deck[player])
    c.rng = rng.getrandbits(62) + 1
    c.forget_legal()  # the cached legal actions belong to the state before the swap
    return c


def check_each(positions: Iterable[GameState], check: Callable[[GameState], None]) -> GameState:
    """Run ``check`` on every position (one live game, as yielded); on failure, note the
    actions that led there. Returns the final position."""
    game = None
    try:
        for game in positions:
            check(game)
    except BaseException:
        if game is not None and game.history is not None and currently_in_test_context():
            note(f"after {len(game.history)} actions: {history_texts(game)}")
        raise
    assert game is not None
    return game


def history_texts(game: GameState) -> list[str]:
    assert game.history is not None
    return [game.action_text(a) for a in game.history]


def run_into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """``rebelspace ARGS | head`` with the reader gone before the command writes: its stdout is
    a pipe whose read end is already closed, so its first write fails, every run."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run(
            [sys.executable, "-m", "rebelspace.cli", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)


def with_ctrl_c() -> None:
    """``preexec_fn`` of a child that a test stops with Ctrl-C (SIGINT): a shell starts a
    background job (``make test &``) with SIGINT ignored, and children inherit that, so the
    child would never see the test's Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
