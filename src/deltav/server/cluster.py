"""Several server processes on one database: this process's identity, the fan-out bus, and its lease loop.

- :class:`Bus` is Redis pub/sub on one channel. A notice carries only ``(node, room, match, seq)``: "room CODE's
  match NO has a stored submission SEQ" (``seq`` -1: "its seats, status or meta changed"), or with the word
  ``chat`` after it: "room CODE has a stored chat line of id SEQ". Pub/sub is fire-and-forget, so a notice is
  only a hint to re-read the database, the one truth; a process that missed one catches up at its next notice
  or its periodic check.
- :class:`LeaseLoop` renews this process's room leases every third of their time, notices the rooms it lost
  (another process took them after its lease expired), and takes over the unfinished rooms nobody owns (their
  owner died) by replaying them from the database.

This module owns the coordination between processes only; rooms and the hub decide what a notice means.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

log = logging.getLogger("deltav.server")

CHANNEL = "deltav:rooms"


@dataclass
class ClusterConfig:
    bus_url: str  # redis://host:port/db
    advertise: str  # this process's base URL as clients reach it, e.g. http://10.0.0.5:8000
    lease_seconds: float = 10.0  # a dead owner's rooms are taken over after at most this long
    node: str = field(default_factory=lambda: secrets.token_hex(6))

    @property
    def ws_base(self) -> str:
        return self.advertise.rstrip("/").replace("https://", "wss://").replace("http://", "ws://")


Notice = Callable[[str, int, int, str], Awaitable[None]]  # (room, match, seq, kind: "room" | "chat")
KINDS = ("room", "chat")


class Bus:
    """Redis pub/sub carrying ``(room, match, seq[, chat])`` notices between processes."""

    def __init__(self, url: str, node: str, on_notice: Notice):
        self.url, self.node, self.on_notice = url, node, on_notice
        self.connected = False
        self._redis = None
        self._task: asyncio.Task | None = None
        self._handlers: set[asyncio.Task] = set()

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self._redis = aioredis.from_url(self.url)
        await self._redis.ping()  # fail at start-up, not later, when the bus is unreachable
        ready = asyncio.Event()
        self._task = asyncio.create_task(self._listen(ready))
        await asyncio.wait_for(ready.wait(), 10)

    async def _listen(self, ready: asyncio.Event) -> None:
        while True:
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(CHANNEL)
                self.connected = True
                ready.set()
                async for msg in pubsub.listen():
                    if msg.get("type") != "message":
                        continue
                    try:
                        node, code, no, seq, *kind = msg["data"].decode().split()
                        notice = (code, int(no), int(seq), kind[0] if kind else "room")
                        if len(kind) > 1 or notice[3] not in KINDS:
                            raise ValueError(kind)
                    except (ValueError, UnicodeDecodeError):
                        log.warning("bus: ignoring a malformed notice %r", msg.get("data"))
                        continue
                    if node == self.node:
                        continue
                    task = asyncio.create_task(self._handle(*notice))
                    self._handlers.add(task)
                    task.add_done_callback(self._handlers.discard)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis went away: notices are hints, the database still holds everything
                self.connected = False
                log.warning("bus: %s; reconnecting", exc)
                await asyncio.sleep(0.5)

    async def _handle(self, code: str, no: int, seq: int, kind: str) -> None:
        try:
            await self.on_notice(code, no, seq, kind)
        except Exception:
            log.exception("bus: handling the notice (%s, %d, %d, %s) failed", code, no, seq, kind)

    async def publish(self, code: str, no: int, seq: int, kind: str = "room") -> None:
        try:
            await self._redis.publish(CHANNEL, f"{self.node} {code} {no} {seq}" + (f" {kind}" if kind != "room" else ""))
        except Exception as exc:  # fire-and-forget: the others catch up from the database
            log.warning("bus: publishing (%s, %d, %d) failed: %s", code, no, seq, exc)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        for t in list(self._handlers):
            t.cancel()
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
        self.connected = False


class LeaseLoop:
    """Every ``lease_seconds / 3``: renew, drop what was lost, take over the orphans, let replicas catch up."""

    def __init__(self, config: ClusterConfig, renew: Callable[[], Awaitable[None]]):
        self.config = config
        self.renew = renew
        self._task: asyncio.Task | None = None
        self.healthy = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self.renew()
                self.healthy = True
            except asyncio.CancelledError:
                raise
            except Exception:
                self.healthy = False
                log.exception("lease loop failed (retrying)")
            await asyncio.sleep(self.config.lease_seconds / 3)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
