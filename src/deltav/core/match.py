"""Playing one match between agents, turning it into a match record.

The runner asks each deciding player's agent for an action with only that player's view, submits it to a
:class:`~deltav.core.session.Session` (which applies it and records the step), and feeds every agent the events
its seat may see. At a simultaneous node every deciding player is asked against the same position; the session
buffers the choices and applies them together, so nobody sees another's choice.

This module owns the agent loop only; applying, recording and the simultaneous buffer belong to the session.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from deltav.core.agent import Agent
from deltav.core.errors import IllegalAction
from deltav.core.protocol import Game, State
from deltav.core.records import MatchRecord
from deltav.core.rng import Rng, derive_seed
from deltav.core.session import Session


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
    think_cpu: list[float] = field(default_factory=list)  # per seat: CPU seconds of this thread (time.thread_time)


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
    n = game.num_players(opts)
    if len(agents) != n:
        raise ValueError(f"{game.id} with these options has {n} players, got {len(agents)} agents")
    session = Session(game, opts, seed, list(seats) if seats else [a.name for a in agents])
    labels = session.seats
    rngs = [Rng(derive_seed(seed, "seat", p)) for p in range(n)]
    stats = MatchStats([0] * n, [0.0] * n, 0.0, [0.0] * n, [0.0] * n)
    limit = max_steps if max_steps is not None else game.max_decisions(opts)
    while not session.is_over():
        players = list(session.deciding())
        if not players:
            raise RuntimeError(f"{game.id}: a non-terminal state with nobody to act")
        chosen = []
        for p in players:
            decision = session.decision(p, rngs[p])
            t0, c0 = time.perf_counter(), time.thread_time()
            action = agents[p].act(decision)
            dt = time.perf_counter() - t0
            stats.think_cpu[p] += time.thread_time() - c0
            stats.think_seconds[p] += dt
            stats.max_think[p] = max(stats.max_think[p], dt)
            stats.decisions[p] += 1
            chosen.append((p, action))
        for p, action in chosen:
            t0 = time.perf_counter()
            try:
                outcome = session.submit_action(p, action)
            except IllegalAction as exc:
                raise AgentError(p, labels[p], session.step, exc, action) from exc
            stats.engine_seconds += time.perf_counter() - t0
            for applied in outcome.applied:
                for q in range(n):
                    visible = applied.events_for(q)
                    if visible:
                        agents[q].observe(q, visible)
                if on_step is not None:
                    on_step(applied.index, session.state, list(applied.events))
                if applied.index + 1 > limit:
                    raise RuntimeError(f"{game.id}: more than {limit} steps without an end (documented bound broken)")
    return session.record, session.state, stats
