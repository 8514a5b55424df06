"""The per-decision budget: at most so many search iterations and so many seconds of CPU time per decision.

Whoever runs a decision for someone else (the server's bot workers, ``deltav.server.bot_workers``) runs it inside
:func:`limited`; every search agent (:mod:`deltav.agents.mcts`) reads :func:`current` and stops its search at
the budget (the iterations it was asked for, capped; the CPU time of the deciding thread, measured with
``time.thread_time``), then answers with what it found: a legal action, as always. Outside :func:`limited`
nothing is capped beyond the agents' own parameters (a research run may search as long as it was told).

Iterations are counted, so a search the budget does not cut replays exactly; a search cut by CPU time depends
on the machine (like the agents' own ``max_seconds``). Bots that do not search (the games' scripted bots) have
bounded parameters instead; the server's workers interrupt any decision that still runs well past the budget.

This module owns the budget only; it knows no game and no agent.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """The most one decision may take: ``seconds`` of CPU time of the deciding thread, ``iterations`` of a
    search (None: no cap of that kind)."""

    seconds: float | None = None
    iterations: int | None = None


_CURRENT: ContextVar[Budget | None] = ContextVar("deltav_decision_budget", default=None)


def current() -> Budget | None:
    """The budget the decision being made runs under (None: uncapped)."""
    return _CURRENT.get()


@contextlib.contextmanager
def limited(budget: Budget | None) -> Iterator[None]:
    """Run the decisions made inside under ``budget``."""
    token = _CURRENT.set(budget)
    try:
        yield
    finally:
        _CURRENT.reset(token)


class Deadline:
    """When a search stops: a wall-clock time (``perf_counter``: an agent's own ``max_seconds``) and a CPU time
    of the deciding thread (``thread_time``: the budget); either may be None."""

    __slots__ = ("wall", "cpu")

    def __init__(self, wall: float | None = None, cpu: float | None = None):
        self.wall = wall
        self.cpu = cpu

    @classmethod
    def for_decision(cls, max_seconds: float | None) -> Deadline | None:
        """The deadline of a decision starting now: the agent's ``max_seconds`` and the current budget."""
        budget = current()
        cpu = time.thread_time() + budget.seconds if budget is not None and budget.seconds is not None else None
        wall = time.perf_counter() + max_seconds if max_seconds is not None else None
        return cls(wall, cpu) if wall is not None or cpu is not None else None

    def passed(self) -> bool:
        return (self.wall is not None and time.perf_counter() > self.wall) or (
            self.cpu is not None and time.thread_time() > self.cpu)


def capped_iterations(asked: int) -> int:
    """``asked`` iterations, capped by the current budget."""
    budget = current()
    if budget is not None and budget.iterations is not None:
        return min(asked, budget.iterations)
    return asked
