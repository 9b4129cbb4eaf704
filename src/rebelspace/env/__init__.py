"""AI research environments for Rebel Space (the ``rl`` extra: ``pip install rebelspace[rl]``).

- ``env()`` / ``raw_env``: a PettingZoo AEC environment (agents ``rebel`` and ``imperial``),
  built like PettingZoo's classic games (``aec.py``).
- ``RebelSpaceEnv``: a Gymnasium environment, registered as ``RebelSpace-v0`` on import: the
  learner against a built-in agent (``gym_env.py``).
- ``encoding.py``: the observation encoding of one player's view, documented slice by slice.
- ``openspiel_game.py``: the OpenSpiel game ``python_rebel_space`` (import it to register it;
  it needs ``open_spiel``).
"""

from __future__ import annotations

from rebelspace.extras import raise_missing

try:
    import gymnasium

    from .aec import AGENTS, env, raw_env
    from .encoding import action_mask, encode, layout, observation_size
    from .gym_env import RebelSpaceEnv
except ModuleNotFoundError as e:  # without the rl extra: its one-line hint
    raise_missing("rebelspace.env", e)

GYM_ID = "RebelSpace-v0"

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="rebelspace.env.gym_env:RebelSpaceEnv")

__all__ = [
    "AGENTS",
    "GYM_ID",
    "RebelSpaceEnv",
    "action_mask",
    "encode",
    "env",
    "layout",
    "observation_size",
    "raw_env",
]
