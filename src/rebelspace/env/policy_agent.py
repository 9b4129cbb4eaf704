"""``policy:PATH``: a trained masked policy (sb3-contrib ``MaskableActorCriticPolicy``) as an agent.

The file is what ``examples/train_maskable_ppo.py`` saves (``policy.save(PATH)``). The agent
gets only its ``PlayerView``; the observation encoder reads a game state, so the agent samples
a state from the view (``sample_state``) and encodes that. The encoding reads only what the
view shows (``tests/env/test_encoding.py``), so every sample gives the same observation: the
policy never sees a hidden card. It picks the most likely legal action (deterministic).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from rebelspace.agents.base import ThinkingAgent
from rebelspace.agents.registry import AgentSpecError
from rebelspace.engine import GameContext, PlayerView
from rebelspace.engine.sampling import sample_state

from .encoding import encoder_for, legal_mask


# Returns a MaskableActorCriticPolicy; sb3-contrib ships no types.
def load_policy(path: str | os.PathLike[str]) -> Any:
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    torch.set_num_threads(1)  # one decision at a time: threads only add overhead
    return MaskableActorCriticPolicy.load(os.fspath(path), device="cpu")


class PolicyAgent(ThinkingAgent):
    """Plays a saved masked policy, deterministically, from its own view."""

    def __init__(self, path: str | os.PathLike[str], ctx: GameContext, seed: int = 0) -> None:
        self.path = os.fspath(path)
        self.ctx = ctx
        self.seed = seed
        self.encoder = encoder_for(ctx)
        self.policy = load_policy(path)
        expected = self.policy.observation_space.shape
        if expected != (self.encoder.size,):
            raise ValueError(
                f"policy {self.path!r} expects observations of shape {expected}, "
                f"this game's encoding has {self.encoder.size} entries"
            )

    def choose(self, view: PlayerView, legal: Sequence[int]) -> int:
        state = sample_state(view, self.ctx, self.seed)
        obs = self.encoder.observation(state, state.to_move)
        mask = legal_mask(legal, self.ctx.space.size).view(bool)
        action, _ = self.policy.predict(obs, deterministic=True, action_masks=mask)
        return int(action)

    def __repr__(self) -> str:
        return f"PolicyAgent({self.path!r})"


def make_policy_agent(arg: str, ctx: GameContext, seed: int) -> PolicyAgent:
    """The registry's ``policy:PATH`` (``rebelspace.agents.registry``)."""
    if not arg:
        raise AgentSpecError("the policy agent needs a file: policy:PATH")
    if not os.path.isfile(arg):
        raise AgentSpecError(f"policy file {arg!r} does not exist")
    return PolicyAgent(arg, ctx, seed)
