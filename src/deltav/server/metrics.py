"""Prometheus metrics of one server process (``GET /metrics``), through ``prometheus-client``.

- ``deltav_rooms{role="owner"|"replica"}``: rooms this process holds (several processes: owner or replica);
- ``deltav_sockets``: open WebSockets (seats and spectators);
- ``deltav_actions_total``: accepted submissions stored by this process (a rate of it is actions/s);
- ``deltav_submit_seconds``: a histogram of the time from a submission's arrival to its broadcast being queued
  (the check, the database commit, every viewer's snapshot);
- ``deltav_store_write_seconds``: a histogram of the time from handing an accepted submission to the store to its
  commit (part of ``deltav_submit_seconds``; submissions arriving during a commit wait for the next one);
- ``deltav_gc_pause_seconds{generation}``: a histogram of the cyclic garbage collector's pauses (the process
  stops while it runs: the usual cause of a latency tail), and ``deltav_gc_pause_max_seconds{generation}``, the
  longest so far;
- ``deltav_store_writable`` (1 or 0: 0 while the database refuses writes) and
  ``deltav_store_failed_writes_total`` (writes the database refused, probes included);
- ``deltav_loop_lag_seconds``: a histogram of how late the event loop runs a timer set every 50 ms (the time a
  message waits before the process gets to it: CPU saturation, a long collector pause or a slow callback).

Each app has its own registry (several apps may live in one test process). This module owns the metric objects
only; rooms and the app update them.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
LAG_PERIOD = 0.05
LAG_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
GC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self, rooms: Callable[[str], int], sockets: Callable[[], int], store_health: Any = None):
        self.registry = CollectorRegistry()
        g = Gauge("deltav_rooms", "rooms held by this process", ["role"], registry=self.registry)
        g.labels("owner").set_function(lambda: rooms("owner"))
        g.labels("replica").set_function(lambda: rooms("replica"))
        Gauge("deltav_sockets", "open WebSockets", registry=self.registry).set_function(sockets)
        if store_health is not None:  # deltav.server.store.WriteHealth
            Gauge("deltav_store_writable", "1 while the database takes writes", registry=self.registry
                  ).set_function(lambda: 1 if store_health.writable else 0)
            Gauge("deltav_store_failed_writes_total", "writes the database refused", registry=self.registry
                  ).set_function(lambda: store_health.failed_writes)
        self.actions = Counter("deltav_actions", "accepted submissions stored", registry=self.registry)
        self.latency = Histogram("deltav_submit_seconds", "submission arrival to broadcast", buckets=BUCKETS,
                                 registry=self.registry)

        self.gc_pause = Histogram("deltav_gc_pause_seconds", "cyclic garbage collector pauses", ["generation"],
                                  buckets=GC_BUCKETS, registry=self.registry)
        self.gc_max = Gauge("deltav_gc_pause_max_seconds", "longest collector pause", ["generation"],
                            registry=self.registry)
        self.store_write = Histogram("deltav_store_write_seconds", "accepted submission to its commit",
                                     buckets=BUCKETS, registry=self.registry)
        self.loop_lag = Histogram("deltav_loop_lag_seconds", "event loop lag behind a 50 ms timer",
                                  buckets=LAG_BUCKETS, registry=self.registry)
        self._lag_task: asyncio.Task | None = None
        self._gc_started = 0.0
        self._gc_longest: dict[str, float] = {}
        gc.callbacks.append(self._on_gc)

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
            return
        pause = time.perf_counter() - self._gc_started
        gen = str(info.get("generation", "?"))
        self.gc_pause.labels(gen).observe(pause)
        if pause > self._gc_longest.get(gen, 0.0):
            self._gc_longest[gen] = pause
            self.gc_max.labels(gen).set(pause)

    def start(self) -> None:
        """Start sampling the event loop's lag (call from the running loop)."""
        if self._lag_task is None:
            self._lag_task = asyncio.get_running_loop().create_task(self._sample_lag())

    async def _sample_lag(self) -> None:
        while True:
            due = time.perf_counter() + LAG_PERIOD
            await asyncio.sleep(LAG_PERIOD)
            self.loop_lag.observe(max(0.0, time.perf_counter() - due))

    async def aclose(self) -> None:
        """Stop the lag sampler and the collector timing."""
        if self._lag_task is not None:
            self._lag_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lag_task
            self._lag_task = None
        self.close()

    def close(self) -> None:
        """Stop timing the collector (the callback is process-wide; an app that shuts down removes its own)."""
        if self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    def render(self) -> bytes:
        return generate_latest(self.registry)
