"""Playing many games: the layer between the agents and the tools that need many games.

``engine`` (the rules) → ``agents`` (who chooses) → ``play`` (games between agents, in bulk,
and what is computed of them) → ``lab``, ``server``, ``env``, ``cli``. One match runner
(``match``) plays every game here, whoever asks: ``simulate``, the engine ``bench``, the
``arena`` and the balance lab. ``schedule`` says which deal and which sides game *i* of a
duplicate series gets, ``pool`` spreads games over the local cores, ``stats`` holds the
intervals and ratings, ``progress`` the progress bar.
"""

from .match import Decider, Match, bulk_agent, decider_for, play_match, play_out, run_game

__all__ = [
    "Decider",
    "Match",
    "bulk_agent",
    "decider_for",
    "play_match",
    "play_out",
    "run_game",
]
