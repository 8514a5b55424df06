"""The bot interface every agent implements, and the random agent.

An agent gets a :class:`~deltav.core.protocol.Decision`: its player's view, its legal actions, its own seeded
RNG and a determinizer that samples full states consistent with the view. It never gets the true state.
Agents are deterministic given their seed: budgets are counted in iterations (a time cap, where an agent
has one, is a safety net documented with the agent).

This module owns the interface only; generic search lives in ``deltav.agents``, scripted bots with their game.
"""

from __future__ import annotations

from deltav.core.protocol import Decision
from deltav.core.values import Action, Event


class Agent:
    """Base class of bots. One instance plays one seat of one match (it may keep memory between calls)."""

    name: str = "agent"

    def act(self, decision: Decision) -> Action:
        raise NotImplementedError

    def observe(self, player: int, events: list[Event]) -> None:
        """Called with the events this seat may see after every action of the match (optional)."""


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def act(self, decision: Decision) -> Action:
        return decision.rng.choice(decision.legal_actions)
