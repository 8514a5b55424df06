"""A wrapper that weakens any bot: with probability ``epsilon`` it plays a uniformly random legal action instead
of the bot's choice (drawn from the decision's RNG, so matches still replay exactly). Used by the presets to
make an *easy* level out of a scripted bot.

This module owns the wrapper only.
"""

from __future__ import annotations

from deltav.core.agent import Agent
from deltav.core.protocol import Decision
from deltav.core.values import Action, Event


class EpsilonAgent(Agent):
    """``base``'s choice, or with probability ``epsilon`` a random legal action. The base bot still sees every
    decision's events through ``observe`` (so a bot with memory keeps it)."""

    def __init__(self, base: Agent, epsilon: float):
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be in [0, 1], got {epsilon!r}")
        self.base = base
        self.epsilon = epsilon
        self.name = f"{base.name}~{epsilon:g}"

    def act(self, decision: Decision) -> Action:
        if self.epsilon and decision.rng.random() < self.epsilon:
            return decision.rng.choice(decision.legal_actions)
        return self.base.act(decision)

    def observe(self, player: int, events: list[Event]) -> None:
        self.base.observe(player, events)
