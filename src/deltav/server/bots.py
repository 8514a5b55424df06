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
import heapq
import itertools
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
    """Runs decisions on the workers, at most one per worker at a time; the rest wait in order of urgency, then of
    arrival. A hint (a person pressed a key and waits for it) goes ahead of bot seats' own decisions, which
    otherwise queue first come, first served across every room: with one worker (``deltav serve`` on 2 cores)
    a hint used to wait behind every room's queued bot moves."""

    #: worker threads when ``workers`` is 0
    THREADS = 2

    def __init__(self, workers: int):
        self.workers = workers
        self._pool: Executor | None = None
        self._slots = workers if workers > 0 else self.THREADS
        self._running = 0
        self._waiting: list[tuple[int, int, asyncio.Future]] = []
        self._arrival = itertools.count()

    def _executor(self) -> Executor:
        if self._pool is None:
            if self.workers <= 0:
                self._pool = ThreadPoolExecutor(max_workers=self.THREADS, thread_name_prefix="deltav-bot")
            else:
                ctx = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_init_worker)
        return self._pool

    async def decide(self, bot: BotSeat, decision: Decision, urgent: bool = False) -> Action:
        """Ask ``bot`` for its action; on return the bot's agent and RNG are the ones that decided. ``urgent``:
        ahead of every decision not urgent that is still waiting for a worker."""
        loop = asyncio.get_running_loop()
        await self._slot(urgent)
        try:
            action, agent, rng = await loop.run_in_executor(self._executor(), _decide, bot.agent, decision)
        finally:
            self._release()
        bot.agent, bot.rng = agent, rng
        return action

    async def _slot(self, urgent: bool) -> None:
        if self._running < self._slots and not self._waiting:
            self._running += 1
            return
        turn: asyncio.Future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if urgent else 1, next(self._arrival), turn))
        try:
            await turn  # _release hands a finished decision's worker over (the running count stays)
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # handed a worker just as the caller went away: pass it on
            raise

    def _release(self) -> None:
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():  # a waiter cancelled meanwhile is skipped
                turn.set_result(None)
                return
        self._running -= 1

    def waiting(self) -> int:
        """Decisions waiting for a worker now."""
        return sum(1 for *_, t in self._waiting if not t.done())

    def close(self) -> None:
        for *_, turn in self._waiting:
            if not turn.done():
                turn.cancel()
        self._waiting.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
