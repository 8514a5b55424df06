"""Running many independent matches: in this process, in a local process pool, or on a Ray cluster.

A job is ``(game_id, options, seed, specs, record_dir, index)`` (``specs``: one registry spec per seat, such as
``bot:hard``); :func:`play_one` plays it with ``play_match`` and returns a plain dict (winners, returns, steps,
timings, the saved record's path, the game's ``Game.scorecard`` of the record). :func:`run` runs a list of jobs
on a backend and returns the results in job order, so a sweep's outcome depends only on its jobs, never on the
backend or the scheduling: the Ray backend gives the local backend's results for the same seeds (only the
timings differ).

``backend="ray"`` connects to ``address`` (``ray start --head`` prints it; ``auto`` finds a local one) or
starts a local cluster when none is given; Ray is the optional ``ray`` extra. This module owns running jobs
only: what to play is the caller's (``deltav simulate``, ``deltav tournament``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from deltav.core.errors import DeltavError

BACKENDS = ("local", "ray")
Job = tuple  # (game_id, options, seed, specs, record_dir, index)


def _init_worker() -> None:
    """A pool process: the games loaded and the start-up heap frozen (``deltav.core.heap``) before any match."""
    from deltav.core.heap import freeze_startup
    from deltav.games import load_all

    load_all()
    freeze_startup()


class BackendError(DeltavError):
    """A backend that cannot run (Ray not installed, no cluster at the address)."""


def play_one(job: Job) -> dict:
    """Play one job's match; an agent's illegal action or an engine failure is reported, not raised."""
    from deltav.agents import make_agent
    from deltav.core.match import AgentError, play_match
    from deltav.core.protocol import get_game
    from deltav.games import load_all

    gid, opts, seed, specs, record_dir, index = job
    load_all()
    game = get_game(gid)
    try:
        agents = [make_agent(gid, s[4:] if s.startswith("bot:") else s) for s in specs]
        t0 = time.perf_counter()
        record, state, stats = play_match(game, opts, seed, agents, specs)
        dt = time.perf_counter() - t0
    except AgentError as exc:
        return {"index": index, "seed": seed, "specs": specs, "error": f"rejected bot action: {exc}"}
    except Exception as exc:  # an engine error must be reported, not crash the whole series
        return {"index": index, "seed": seed, "specs": specs, "error": f"{type(exc).__name__}: {exc}"}
    try:
        scorecard = game.scorecard(record)
    except Exception as exc:  # a scorecard failure is reported, not raised
        return {"index": index, "seed": seed, "specs": specs, "error": f"scorecard: {type(exc).__name__}: {exc}"}
    path = None
    if record_dir:
        path = str(record.save(Path(record_dir) / f"{gid}-{index:05d}-{seed}.json"))
    return {
        "index": index,
        "seed": seed,
        "specs": specs,
        "winners": record.result["winners"] if record.result else [],
        "reason": record.result["reason"] if record.result else "",
        "returns": record.returns,
        "steps": len(record.steps),
        "turns": state.turn_count(),
        "seconds": dt,
        "decisions": stats.decisions,
        "think": stats.think_seconds,
        "max_think": stats.max_think,
        "think_cpu": stats.think_cpu,
        "scorecard": scorecard,
        "engine_seconds": stats.engine_seconds,
        "record": path,
    }


def run(jobs: Sequence[Job], workers: int = 0, backend: str = "local", address: str | None = None,
        on_done: Callable[[dict], None] | None = None) -> list[dict]:
    """Every job's result, in job order. ``workers``: local processes (0 = one per core, 1 = this process);
    on Ray, the cluster decides (every job is one task of one CPU)."""
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r} (one of {', '.join(BACKENDS)})")
    results: list[dict | None] = [None] * len(jobs)

    def done(k: int, r: dict) -> None:
        results[k] = r
        if on_done is not None:
            on_done(r)

    if backend == "ray":
        _run_ray(jobs, address, done)
    else:
        workers = workers if workers > 0 else (os.cpu_count() or 1)
        if workers == 1 or len(jobs) <= 1:
            for k, job in enumerate(jobs):
                done(k, play_one(job))
        else:
            with ProcessPoolExecutor(max_workers=min(workers, len(jobs)), initializer=_init_worker) as pool:
                futures = {pool.submit(play_one, job): k for k, job in enumerate(jobs)}
                for fut in as_completed(futures):
                    done(futures[fut], fut.result())
    return results  # type: ignore[return-value]


def _run_ray(jobs: Sequence[Job], address: str | None, done: Callable[[int, dict], None]) -> None:
    try:
        import ray
    except ImportError as exc:
        raise BackendError(f"--backend ray needs Ray: pip install -e '.[ray]' ({exc})") from None
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, logging_level="warning", log_to_driver=False)
            else:
                ray.init(num_cpus=os.cpu_count() or 1, logging_level="warning", log_to_driver=False,
                         include_dashboard=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise BackendError(f"cannot reach a Ray cluster at {address or 'a new local one'}: {exc}") from None
        started = True
    try:
        task = ray.remote(num_cpus=1)(play_one)
        pending: dict[Any, int] = {task.remote(job): k for k, job in enumerate(jobs)}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                done(pending.pop(ref), ray.get(ref))
    finally:
        if started:
            ray.shutdown()
