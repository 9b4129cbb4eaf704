"""Bounds shared by every loop that plays a game to its end.

A module of its own just above the engine, so that the simulator, the lab and the OpenSpiel
game (``max_game_length``) take the same number without the env importing the simulator.
"""

from __future__ import annotations

#: A game that has not ended after this many decisions is an engine bug (a real game of random
#: play takes a few hundred); stop it loudly rather than loop for ever.
MAX_DECISIONS = 100_000
