"""Bot seats and the bot workers: agents built from registry specs that decide outside the event loop, fairly,
within a budget, and whose failures never break the workers.

A bot seat keeps its agent and its own RNG (``derive_seed(seed, "seat", p)``, exactly as ``play_match``) in the
room's process. To decide, the agent, the :class:`~deltav.core.protocol.Decision` (its own view and legal
actions only) and the RNG are sent to a worker process (``spawn``), which returns the action and the agent and
RNG as they are after deciding; so stateful agents (the mining bots' ``observe`` memory) keep their memory and a
match of bots is the match ``deltav play`` plays with the same seed. ``workers=0`` decides on threads in the
server process instead (tests; a slow bot then shares the interpreter with the event loop, and nothing can
interrupt it).

:class:`BotRunner` owns the workers:

- **one decision per worker at a time**; the rest wait. Waiting work is of two kinds, bot seats' moves
  (:data:`MOVE`) and what people asked for (:data:`HELP`: hints, candidates), and belongs to a lane (the room).
  A free worker takes the kind not served last when both wait (a flood of hints cannot starve the bots, nor
  bots the hints), and within a kind the lanes in turn (round robin: one room's queue cannot starve another's).
- **a budget per decision** (:class:`~deltav.agents.budget.Budget`): every search stops at ``seconds`` of CPU
  time and at :data:`~deltav.agents.mcts.MAX_ITERATIONS` iterations, answering with what it found; any decision
  still running at ``HARD_FACTOR`` times the CPU budget is interrupted in its worker (``SIGPROF``), and a worker
  that does not answer for ``wall_limit`` seconds is killed and replaced. Both are a :class:`BotFailure`.
- **failures come back as data**: whatever a bot raises (a NaN search, an error no one can pickle) is turned into
  text in the worker and raised in the server as :class:`BotFailure`; a worker that dies is replaced. The pool
  never breaks: the next decision gets a working worker.
- **cancelled work stops**: a decision whose caller went away (its socket closed, its room closed) is never
  started if it still waits, and interrupted in its worker (``SIGUSR1``) if it runs.
- ``close()`` kills the workers at once (a server stopping never waits for a decision).

Rooms decide when a bot is asked and what a failure means for the seat (``rooms``); this module owns running
agents only.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import logging
import multiprocessing
import os
import pickle
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from deltav.agents.budget import Budget, limited
from deltav.agents.mcts import MAX_ITERATIONS
from deltav.core.agent import Agent
from deltav.core.protocol import Decision
from deltav.core.rng import Rng, derive_seed
from deltav.core.values import Action

log = logging.getLogger("deltav.server")

#: Kinds of work: a bot seat's own move, and help a person asked for (a hint, candidates).
MOVE, HELP = "move", "help"
#: The CPU time (seconds) a decision may take by default (``deltav serve --bot-seconds``).
BOT_SECONDS = 5.0
#: A decision still running at this many times the CPU budget is interrupted.
HARD_FACTOR = 2.0


class BotFailure(Exception):
    """A decision that gave no action: ``kind`` is ``error`` (the bot raised: ``reason`` says what),
    ``overrun`` (past its budget), ``crashed`` (its worker died) or ``cancelled``."""

    def __init__(self, kind: str, reason: str):
        super().__init__(f"{kind}: {reason}")
        self.kind = kind
        self.reason = reason


def _init_worker() -> None:
    from deltav.core.heap import freeze_startup
    from deltav.games import load_all

    load_all()
    freeze_startup()  # the worker's games and tables are never walked by a collection again


def _text(exc: BaseException) -> str:
    """An exception in words, never failing and never long."""
    try:
        text = str(exc)
    except Exception:
        text = ""
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "..."


def _decide(agent: Agent, decision: Decision, budget: Budget | None) -> tuple:
    """Decide in this thread under ``budget``: ``("ok", action, agent, rng)`` or ``("error", reason)``."""
    try:
        with limited(budget):
            action = agent.act(decision)
    except _Interrupted:
        raise  # the worker's own signal (see _worker_main)
    except BaseException as exc:  # noqa: BLE001 - a bot's failure (even SystemExit) is the seat's, never the worker's
        return ("error", _text(exc))
    return ("ok", action, agent, decision.rng)


def make_bot_agent(game_id: str, spec: str) -> Agent:
    """The agent of a seat spec ``bot:NAME[:params]`` (raises AgentSpecError / DeltavError when unknown)."""
    from deltav.agents import make_agent

    return make_agent(game_id, spec[4:] if spec.startswith("bot:") else spec)


def fallback_action(seed: int, seat: int, step: int, legal: list[Action]) -> Action:
    """The move a seat plays when its bot gave none: a uniformly random legal action, drawn from an RNG of its
    own (``derive_seed(seed, "fallback", seat, step)``), so the match plays on and replays."""
    return Rng(derive_seed(seed, "fallback", seat, step)).choice(legal)


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


# --- the worker process ---------------------------------------------------------------------------------------

class _Interrupted(BaseException):
    """Raised inside a decision by the worker's signal handler (not an Exception: a bot's ``except Exception``
    does not swallow it)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def _worker_main(conn: Any, cancel: Any, hard_seconds: float | None) -> None:
    """A worker process: decide one pickled decision at a time, answer with a pickled result, forever."""
    with contextlib.suppress(Exception):  # Linux: die with the server, even if it is killed
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the server stops its workers
    _init_worker()
    current = {"job": None}

    def interrupt(signum: int, frame: Any) -> None:
        job = current["job"]
        if job is None or (signum == signal.SIGUSR1 and cancel.value != job):
            return
        raise _Interrupted("cancelled" if signum == signal.SIGUSR1 else "overrun")

    signal.signal(signal.SIGUSR1, interrupt)
    signal.signal(signal.SIGPROF, interrupt)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the server went away
        try:
            try:
                job, agent, decision, budget = pickle.loads(data)
                current["job"] = job
                if hard_seconds:
                    signal.setitimer(signal.ITIMER_PROF, hard_seconds)
                try:
                    result = _decide(agent, decision, budget)
                finally:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                    current["job"] = None
                blob = pickle.dumps(result)
            except _Interrupted as exc:
                blob = pickle.dumps((exc.kind, "stopped by the server" if exc.kind == "cancelled" else
                                     f"still deciding after {hard_seconds:g} s of CPU time"))
        except BaseException as exc:  # noqa: BLE001 - an unpicklable result, a broken agent: data, not a crash
            blob = pickle.dumps(("error", _text(exc)))
        try:
            conn.send_bytes(blob)
        except (EOFError, OSError):
            return


class _ProcessWorker:
    """One worker process and the pipe to it; restarted when it died or was killed."""

    POLL = 0.05

    def __init__(self, ctx: Any, hard_seconds: float | None, wall_limit: float):
        self.ctx = ctx
        self.hard_seconds = hard_seconds
        self.wall_limit = wall_limit
        self.proc: Any = None
        self.conn: Any = None
        self.cancel_job: Any = None
        self.closed = False

    def ensure_started(self) -> None:
        """Start the process if it is not running (called on the event loop's thread)."""
        if self.closed or (self.proc is not None and self.proc.is_alive()):
            return
        self.stop()
        parent, child = self.ctx.Pipe()
        self.cancel_job = self.ctx.Value("q", -1, lock=False)
        self.proc = self.ctx.Process(target=_worker_main, args=(child, self.cancel_job, self.hard_seconds),
                                     name="deltav-bot", daemon=True)
        self.proc.start()
        child.close()
        self.conn = parent

    def run(self, job: int, agent: Agent, decision: Decision, budget: Budget | None) -> tuple:
        """Send one decision and wait for its result (in a runner thread)."""
        proc, conn = self.proc, self.conn
        if proc is None or conn is None:
            return ("crashed", "the worker was not running")
        try:
            payload = pickle.dumps((job, agent, decision, budget))
        except Exception as exc:
            return ("error", f"the decision cannot be sent to a worker: {_text(exc)}")
        try:
            conn.send_bytes(payload)
            limit = time.monotonic() + self.wall_limit
            while not conn.poll(self.POLL):
                if self.closed:
                    return ("cancelled", "the server is stopping")
                if not proc.is_alive():
                    return ("crashed", f"the worker process died (exit code {proc.exitcode})")
                if time.monotonic() > limit:
                    log.warning("bot worker %s gave no answer in %g s: killed", proc.pid, self.wall_limit)
                    self.stop()
                    return ("overrun", f"no answer within {self.wall_limit:g} s")
            return pickle.loads(conn.recv_bytes())
        except (EOFError, OSError):  # the pipe closed: the worker died (or was killed by close())
            with contextlib.suppress(Exception):
                proc.join(2)
            return ("crashed", f"the worker process died (exit code {proc.exitcode})")
        except Exception as exc:  # a result that does not unpickle
            return ("error", f"the worker's answer could not be read: {_text(exc)}")

    def cancel(self, job: int) -> None:
        """Interrupt ``job`` if this worker is deciding it (a no-op once it has answered)."""
        proc = self.proc
        if proc is not None and proc.is_alive() and self.cancel_job is not None:
            self.cancel_job.value = job
            with contextlib.suppress(OSError):
                os.kill(proc.pid, signal.SIGUSR1)

    def stop(self) -> None:
        proc, conn = self.proc, self.conn
        self.proc = self.conn = None
        if proc is not None:
            with contextlib.suppress(Exception):
                proc.kill()
            with contextlib.suppress(Exception):
                proc.join(1)
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def close(self) -> None:
        self.closed = True
        self.stop()


class _ThreadWorker:
    """A thread of the server process (``workers=0``): decides in place, cannot be interrupted."""

    closed = False

    def ensure_started(self) -> None:
        pass

    def run(self, job: int, agent: Agent, decision: Decision, budget: Budget | None) -> tuple:
        return _decide(agent, decision, budget)

    def cancel(self, job: int) -> None:
        pass

    def close(self) -> None:
        self.closed = True


# --- the runner ----------------------------------------------------------------------------------------------

class _Waiting:
    """Requests waiting for a worker, by kind and lane (see the module docstring for the order they leave in)."""

    def __init__(self) -> None:
        self.lanes: dict[str, collections.OrderedDict[Any, collections.deque]] = {
            MOVE: collections.OrderedDict(), HELP: collections.OrderedDict()}
        self.last = HELP  # the kind served last

    def push(self, kind: str, lane: Any, turn: asyncio.Future) -> None:
        self.lanes[kind].setdefault(lane, collections.deque()).append(turn)

    def pop(self) -> asyncio.Future | None:
        other = MOVE if self.last == HELP else HELP
        for kind in (other, self.last):
            lanes = self.lanes[kind]
            while lanes:
                lane, queue = next(iter(lanes.items()))
                turn = queue.popleft()
                del lanes[lane]
                if queue:
                    lanes[lane] = queue  # to the back: the next lane goes first next time
                if not turn.done():  # a waiter cancelled meanwhile is skipped
                    self.last = kind
                    return turn
        return None

    def count(self) -> int:
        return sum(1 for lanes in self.lanes.values() for q in lanes.values() for t in q if not t.done())

    def cancel_all(self) -> None:
        for lanes in self.lanes.values():
            for q in lanes.values():
                for turn in q:
                    if not turn.done():
                        turn.cancel()
            lanes.clear()


class BotRunner:
    """Runs decisions on the workers (see the module docstring): fair turns between kinds and lanes, a budget
    per decision, failures as :class:`BotFailure`, cancelled work stopped."""

    #: worker threads when ``workers`` is 0
    THREADS = 2

    def __init__(self, workers: int, seconds: float | None = BOT_SECONDS, wall_limit: float | None = None):
        self.workers = workers
        self.budget = Budget(seconds=seconds, iterations=MAX_ITERATIONS)
        hard = seconds * HARD_FACTOR if seconds else None
        wall = wall_limit if wall_limit is not None else max(60.0, 20 * (seconds or 5.0))
        n = workers if workers > 0 else self.THREADS
        if workers > 0:
            ctx = multiprocessing.get_context("spawn")
            self._all: list[Any] = [_ProcessWorker(ctx, hard, wall) for _ in range(n)]
        else:
            self._all = [_ThreadWorker() for _ in range(n)]
        self._free: list[Any] = list(self._all)
        self._threads = ThreadPoolExecutor(max_workers=n, thread_name_prefix="deltav-bot")
        self._waiting = _Waiting()
        self._jobs = itertools.count(1)
        self._closed = False
        self._lock = threading.Lock()

    async def decide(self, bot: BotSeat, decision: Decision, kind: str = MOVE, lane: Any = None) -> Action:
        """Ask ``bot`` for its action; on return the bot's agent and RNG are the ones that decided. ``kind``
        (:data:`MOVE` or :data:`HELP`) and ``lane`` (the room) set its turn among waiting work. Raises
        :class:`BotFailure` when the decision gave no action."""
        if self._closed:
            raise BotFailure("cancelled", "the server is stopping")
        loop = asyncio.get_running_loop()
        worker = await self._acquire(kind, lane)
        job = next(self._jobs)
        try:
            worker.ensure_started()
            cf = self._threads.submit(worker.run, job, bot.agent, decision, self.budget)
        except Exception as exc:  # no process could be started (out of memory, the server stopping)
            self._release(worker)
            raise BotFailure("crashed", f"no worker could be started: {_text(exc)}") from None
        except BaseException:
            self._release(worker)
            raise

        def done(_: Any) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server has stopped
                loop.call_soon_threadsafe(self._release, worker)

        cf.add_done_callback(done)
        try:
            result = await asyncio.wrap_future(cf)
        except asyncio.CancelledError:
            worker.cancel(job)  # nobody waits for it any more: the worker stops working for it
            raise
        if result[0] == "ok":
            _, action, agent, rng = result
            bot.agent, bot.rng = agent, rng
            return action
        raise BotFailure(result[0], result[1])

    async def _acquire(self, kind: str, lane: Any) -> Any:
        if self._free and not self._waiting.count():
            return self._free.pop()
        turn: asyncio.Future = asyncio.get_running_loop().create_future()
        self._waiting.push(kind, lane, turn)
        try:
            return await turn  # _release hands a finished decision's worker over
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(turn.result())  # handed a worker just as the caller went away: pass it on
            raise

    def _release(self, worker: Any) -> None:
        if self._closed:
            return
        turn = self._waiting.pop()
        if turn is not None:
            turn.set_result(worker)
        else:
            self._free.append(worker)

    def waiting(self) -> int:
        """Decisions waiting for a worker now."""
        return self._waiting.count()

    def busy(self) -> int:
        """Workers deciding now."""
        return len(self._all) - len(self._free)

    def close(self) -> None:
        """Stop at once: waiting requests are cancelled, worker processes killed (a running decision is lost)."""
        self._closed = True
        self._waiting.cancel_all()
        for w in self._all:
            w.close()
        self._threads.shutdown(wait=False, cancel_futures=True)
