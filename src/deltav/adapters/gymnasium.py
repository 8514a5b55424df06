"""A Gymnasium single-agent environment: one seat of a game against deltav bots.

``make(game, opponent="bot:normal", seat=0, max_steps=0, **options)``. Every other seat is played by
``deltav.agents.registry.make_agent(game, spec)`` (``bot:`` is an optional prefix: ``bot:normal``, ``scripted``,
``random``, ``mcts:iterations=50``...), deciding from its own view only, with the RNG ``play_match`` would give
it. Observations and actions as in ``deltav.adapters.pettingzoo``. An illegal action ends the episode with
reward -1 (``info["illegal_action"]``); otherwise the reward is the seat's ``returns()`` at the end, 0 before.
Owns the Gymnasium binding only.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from deltav.adapters.table import Table
from deltav.core.errors import IllegalAction
from deltav.core.protocol import Decision
from deltav.core.rng import Rng, derive_seed


class DeltavEnv(gym.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str, opponent: str = "bot:normal", seat: int = 0, max_steps: int = 0,
                 render_mode: str | None = None, **options: Any):
        from deltav.agents.registry import make_agent

        self.game_id = game
        self.table = Table(game, options, max_steps)
        if not 0 <= seat < self.table.num_players:
            raise ValueError(f"seat {seat} is not a seat of this {game} match (0..{self.table.num_players - 1})")
        self.seat = seat
        self.opponent = opponent[4:] if opponent.startswith("bot:") else opponent
        make_agent(game, self.opponent)  # a bad spec fails here, naming what is available
        self._make_agent = make_agent
        self.render_mode = render_mode
        n, d = self.table.num_actions, self.table.obs_size
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (d,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8),
        })
        self.action_space = spaces.Discrete(n)
        self.agents: dict = {}
        self.rngs: dict = {}

    def _obs(self) -> dict:
        return {
            "observation": np.asarray(self.table.observation(self.seat), dtype=np.float32),
            "action_mask": np.asarray(self.table.legal_mask(self.seat), dtype=np.int8),
        }

    def _feed(self, applied) -> None:
        for _, events in applied:
            for q, agent in self.agents.items():
                visible = [e for e in events if e.visible_to(q)]
                if visible:
                    agent.observe(q, visible)

    def _advance(self) -> None:
        """Let the bots choose until the learner must, or the match is over."""
        t = self.table
        while not t.is_over():
            p = t.to_move()
            if p == self.seat:
                return
            st = t.state
            decision = Decision(t.game, p, st.view(p), st.legal_actions(p), self.rngs[p], t.options)
            action = self.agents[p].act(decision)
            self._feed(t.submit(p, t.enc.encode(st, action, p)))

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**62))
        self.table.reset(game_seed)
        others = [p for p in range(self.table.num_players) if p != self.seat]
        self.agents = {p: self._make_agent(self.game_id, self.opponent) for p in others}
        self.rngs = {p: Rng(derive_seed(game_seed, "seat", p)) for p in others}
        self._advance()
        return self._obs(), {}

    def step(self, action):
        t = self.table
        try:
            self._feed(t.submit(self.seat, int(action)))
        except IllegalAction as exc:
            return self._obs(), -1.0, True, False, {"illegal_action": True, "error": exc.message}
        self._advance()
        reward = float(t.returns()[self.seat]) if t.is_terminal() else 0.0
        return self._obs(), reward, t.is_terminal(), t.is_truncated(), {}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            st = self.table.state
            return st.game.render_view(st.view(self.seat)) or str(st)
        return None


def make(game: str, opponent: str = "bot:normal", seat: int = 0, max_steps: int = 0, **options: Any) -> DeltavEnv:
    """The single-agent environment of ``game`` for ``seat`` against ``opponent`` bots (rules options as keywords)."""
    return DeltavEnv(game, opponent=opponent, seat=seat, max_steps=max_steps, **options)
