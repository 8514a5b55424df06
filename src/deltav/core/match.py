"""Playing one match between agents, turning it into a match record.

The runner asks each deciding player's agent for an action with only that player's view, applies it, feeds
every agent the events its seat may see, and records every step. At a simultaneous node every deciding
player is asked against the same position before anything is applied, so nobody sees another's choice.

This module owns the match loop only.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deltav.core.agent import Agent
from deltav.core.errors import IllegalAction
from deltav.core.protocol import Decision, Game, State
from deltav.core.records import MatchRecord, Step, events_json, record_for, result_of
from deltav.core.rng import Rng, derive_seed


class AgentError(Exception):
    """An agent returned an illegal action (a bug in the agent)."""

    def __init__(self, seat: int, agent: str, step: int, error: IllegalAction, action: Any):
        super().__init__(f"seat {seat} ({agent}) at step {step} sent an illegal action {action!r}: {error}")
        self.seat = seat
        self.agent = agent
        self.step = step
        self.error = error


@dataclass
class MatchStats:
    decisions: list[int] = field(default_factory=list)  # per seat
    think_seconds: list[float] = field(default_factory=list)  # per seat
    engine_seconds: float = 0.0
    max_think: list[float] = field(default_factory=list)


def play_match(
    game: type[Game],
    options: Mapping[str, Any] | None,
    seed: int,
    agents: Sequence[Agent],
    seats: Sequence[str] | None = None,
    max_steps: int | None = None,
    on_step: Callable[[int, State, list], None] | None = None,
) -> tuple[MatchRecord, State, MatchStats]:
    """Play one match. ``agents[p]`` plays seat ``p``. Returns the record, the final state and timing stats."""
    opts = game.resolve_options(options)
    state = game.new_initial_state(opts, seed)
    n = state.num_players
    if len(agents) != n:
        raise ValueError(f"{game.id} with these options has {n} players, got {len(agents)} agents")
    labels = list(seats) if seats else [a.name for a in agents]
    record = record_for(game, opts, seed, labels)
    rngs = [Rng(derive_seed(seed, "seat", p)) for p in range(n)]
    stats = MatchStats([0] * n, [0.0] * n, 0.0, [0.0] * n)
    limit = max_steps if max_steps is not None else game.max_decisions(opts)
    steps = 0
    while not state.is_terminal():
        players = list(state.current_players())
        if not players:
            raise RuntimeError(f"{game.id}: a non-terminal state with nobody to act")
        chosen = []
        for p in players:
            legal = state.legal_actions(p)
            decision = Decision(game, p, state.view(p), legal, rngs[p], opts)
            t0 = time.perf_counter()
            action = agents[p].act(decision)
            dt = time.perf_counter() - t0
            stats.think_seconds[p] += dt
            stats.max_think[p] = max(stats.max_think[p], dt)
            stats.decisions[p] += 1
            chosen.append((p, action))
        for p, action in chosen:
            if state.is_terminal():
                break
            t0 = time.perf_counter()
            try:
                events = state.apply_action(p, action)
            except IllegalAction as exc:
                raise AgentError(p, labels[p], steps, exc, action) from exc
            stats.engine_seconds += time.perf_counter() - t0
            record.steps.append(Step(p, action.to_json(), events_json(events)))
            for q in range(n):
                visible = [e for e in events if e.visible_to(q)]
                if visible:
                    agents[q].observe(q, visible)
            if on_step is not None:
                on_step(steps, state, events)
            steps += 1
            if steps > limit:
                raise RuntimeError(f"{game.id}: more than {limit} steps without an end (documented bound broken)")
    record.result = result_of(state)
    record.returns = state.returns()
    return record, state, stats
