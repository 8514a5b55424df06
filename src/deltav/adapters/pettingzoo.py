"""PettingZoo AEC environments of the four games: ``env(game, max_steps=0, **options)``.

Agents are ``player_0`` .. ``player_{n-1}``. Observations are dicts like PettingZoo's classic environments:
``{"observation": float32 vector of the player's view, "action_mask": int8 vector, 1 at the legal integer
actions}``; actions are the integers of the game's encoding (``deltav.games.<game>.encoding``). A simultaneous
node becomes turn-taking with hidden submissions (see ``deltav.adapters.table``). Rewards are the game's
``returns()`` at the end, 0 before; ``max_steps`` (applied actions, 0 = none) truncates a match. Owns the
PettingZoo binding only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from deltav.adapters.table import Table


class DeltavAEC(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "deltav_v0", "is_parallelizable": False}

    def __init__(self, game: str, max_steps: int = 0, render_mode: str | None = None, **options: Any):
        super().__init__()
        self.table = Table(game, options, max_steps)
        self.metadata = dict(self.metadata, name=f"deltav_{game}_v0")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.table.num_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        n, d = self.table.num_actions, self.table.obs_size
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, (d,), np.float32),
                "action_mask": spaces.Box(0, 1, (n,), np.int8),
            })
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self._np_random = np.random.default_rng()
        self.agents = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._np_random.integers(2**62))
        self.table.reset(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.to_move()]

    def observe(self, agent: str) -> dict:
        p = self._index[agent]
        return {
            "observation": np.asarray(self.table.observation(p), dtype=np.float32),
            "action_mask": np.asarray(self.table.legal_mask(p), dtype=np.int8),
        }

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.table.submit(self._index[agent], int(action))
        if self.table.is_over():
            returns = self.table.returns()
            truncated = self.table.is_truncated()
            for a in self.agents:
                self.rewards[a] = float(returns[self._index[a]])
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = self.possible_agents[self.table.to_move()]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.table.state.game.render_view(self.table.state.view(None)) or str(self.table.state)
        return None

    def close(self) -> None:
        pass


def env(game: str, max_steps: int = 0, render_mode: str | None = None, **options: Any) -> DeltavAEC:
    """The AEC environment of ``game`` (``mining``, ``knighthawks``, ``deepspace``, ``tactical``) with these rules
    options (``scenario=...`` and any named ruling)."""
    return DeltavAEC(game, max_steps=max_steps, render_mode=render_mode, **options)
