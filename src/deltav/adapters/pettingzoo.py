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
from pettingzoo import AECEnv, ParallelEnv

from deltav.adapters.table import Table
from deltav.core.errors import IllegalAction


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


class DeltavParallel(ParallelEnv):
    """The Parallel API: each ``step`` takes one action from every player; the players deciding now (one at a
    sequential node, several at a simultaneous one) give a game action, the others the extra action ``WAIT``
    (the last integer, ``n``: the only one set in their mask; whatever they send is ignored). The deciders'
    actions are applied in the order ``current_players()`` lists them, as ``play_match`` does. The spaces have
    ``n + 1`` actions. A decider's illegal action ends the match: reward -1 to each offender, 0 to the others,
    ``info["illegal_action"]`` set for the offenders, and nothing is applied."""

    metadata = {"render_modes": ["ansi"], "name": "deltav_parallel_v0"}

    def __init__(self, game: str, max_steps: int = 0, render_mode: str | None = None, **options: Any):
        self.table = Table(game, options, max_steps)
        self.metadata = dict(self.metadata, name=f"deltav_{game}_parallel_v0")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.table.num_players)]
        self._index = {a: i for i, a in enumerate(self.possible_agents)}
        n, d = self.table.num_actions, self.table.obs_size
        self.WAIT = n
        self._observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, (d,), np.float32),
                "action_mask": spaces.Box(0, 1, (n + 1,), np.int8),
            })
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(n + 1) for a in self.possible_agents}
        self._np_random = np.random.default_rng()
        self.agents = []

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    def _observe(self, agent: str) -> dict:
        p = self._index[agent]
        mask = np.zeros(self.WAIT + 1, np.int8)
        legal = self.table.enc.action_space(self.table.state).legal_ints(self.table.state, p) \
            if p in self.table.deciders() else []
        if legal:
            mask[legal] = 1
        else:
            mask[self.WAIT] = 1
        return {"observation": np.asarray(self.table.observation(p), dtype=np.float32), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            game_seed = int(self._np_random.integers(2**62))
        self.table.reset(game_seed)
        self.agents = self.possible_agents[:]
        return {a: self._observe(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions: dict):
        t = self.table
        deciders = t.deciders()
        chosen: dict[int, int] = {}
        offenders = []
        for agent in self.agents:
            p = self._index[agent]
            if p not in deciders:
                continue
            raw = actions.get(agent)
            code = int(raw) if raw is not None else self.WAIT
            try:
                action = t.decode(p, code) if code != self.WAIT else None
            except IllegalAction:
                action = None
            if action is None or action not in t.state.legal_actions(p):
                offenders.append(agent)
            chosen[p] = code
        live = self.agents
        if offenders:
            self.agents = []
            obs = {a: self._observe(a) for a in live}
            return (obs, {a: -1.0 if a in offenders else 0.0 for a in live}, {a: True for a in live},
                    {a: False for a in live}, {a: {"illegal_action": a in offenders} for a in live})
        for p in deciders:  # the engine's order, every choice checked against the same position
            t.submit(p, chosen[p])
        over = t.is_over()
        returns = t.returns()
        rewards = {a: float(returns[self._index[a]]) if over else 0.0 for a in live}
        truncated = t.is_truncated()
        terms = {a: over and not truncated for a in live}
        truncs = {a: truncated for a in live}
        obs = {a: self._observe(a) for a in live}
        infos = {a: {} for a in live}
        if over:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            st = self.table.state
            return st.game.render_view(st.view(None)) or str(st)
        return None

    def close(self) -> None:
        pass


def parallel_env(game: str, max_steps: int = 0, render_mode: str | None = None, **options: Any) -> DeltavParallel:
    """The Parallel environment of ``game`` (every player acts each step; non-deciders send ``WAIT``)."""
    return DeltavParallel(game, max_steps=max_steps, render_mode=render_mode, **options)
