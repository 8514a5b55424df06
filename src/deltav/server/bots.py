"""Bot seats: agents built from registry specs that decide outside the event loop.

A bot seat keeps its agent and its own RNG (``derive_seed(seed, "seat", p)``, exactly as ``play_match``) in the
room's process. To decide, the agent, the :class:`~deltav.core.protocol.Decision` (its own view and legal
actions only) and the RNG are sent to a worker process (a ``spawn`` pool), which returns the action and the
agent and RNG as they are after deciding; so stateful agents (the mining bots' ``observe`` memory) keep their
memory and a match of bots is the match ``deltav play`` plays with the same seed. ``workers=0`` decides on
threads in the server process instead (tests; a slow bot then shares the interpreter with the event loop).

This module owns running agents only; rooms decide when a bot is asked.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass

from deltav.core.agent import Agent
from deltav.core.protocol import Decision
from deltav.core.rng import Rng, derive_seed
from deltav.core.values import Action


def _init_worker() -> None:
    from deltav.core.heap import freeze_startup
    from deltav.games import load_all

    load_all()
    freeze_startup()  # the worker's games and tables are never walked by a collection again


def _decide(agent: Agent, decision: Decision) -> tuple[Action, Agent, Rng]:
    action = agent.act(decision)
    return action, agent, decision.rng


def make_bot_agent(game_id: str, spec: str) -> Agent:
    """The agent of a seat spec ``bot:NAME[:params]`` (raises AgentSpecError / DeltavError when unknown)."""
    from deltav.agents import make_agent

    return make_agent(game_id, spec[4:] if spec.startswith("bot:") else spec)


@dataclass
class BotSeat:
    seat: int
    spec: str
    agent: Agent
    rng: Rng
    thinking: bool = False
    failed_step: int | None = None  # a step at which its decision failed (it is not asked again there)

    @classmethod
    def new(cls, game_id: str, seed: int, seat: int, spec: str) -> BotSeat:
        return cls(seat, spec, make_bot_agent(game_id, spec), Rng(derive_seed(seed, "seat", seat)))

    def dump(self) -> bytes:
        """The agent and RNG as they are now (saved with each of its decisions, restored on a restart)."""
        return pickle.dumps((self.agent, self.rng))

    def load(self, blob: bytes) -> None:
        self.agent, self.rng = pickle.loads(blob)


class BotRunner:
    def __init__(self, workers: int):
        self.workers = workers
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers <= 0:
                self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="deltav-bot")
            else:
                ctx = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_init_worker)
        return self._pool

    async def decide(self, bot: BotSeat, decision: Decision) -> Action:
        """Ask ``bot`` for its action; on return the bot's agent and RNG are the ones that decided."""
        loop = asyncio.get_running_loop()
        action, agent, rng = await loop.run_in_executor(self._executor(), _decide, bot.agent, decision)
        bot.agent, bot.rng = agent, rng
        return action

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
