"""One WebSocket of a room: its outbound queue and writer task, its rate limit, and the encoding of messages.

A :class:`Conn` never blocks its room: messages are queued (a text each) and written by the connection's own
task, in order; a client that stops reading is dropped once :data:`OUTBOX_LIMIT` messages are queued. A text
queued for several connections (every spectator of a room gets the same state message) is the same string
object, encoded once (see docs/server.md, "Framing").

This module owns the socket side of a room only; rooms decide what is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, Protocol

import orjson

OUTBOX_LIMIT = 256  # queued outbound messages before a socket is considered dead and dropped


def dumps(obj: Any) -> str:
    """Compact JSON text of a message (orjson: several times faster than the standard encoder on snapshots)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class Bucket:
    """A token bucket: ``allow()`` is False once a connection sends faster than its rate allows."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, float(burst)
        self.level, self.t = float(burst), time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.t) * self.rate)
        self.t = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


class Conn:
    """One WebSocket in a room: a seat's (``seat`` set) or a spectator's."""

    def __init__(self, ws: Socket, seat: int | None, rate: float, burst: int):
        self.ws = ws
        self.seat = seat
        self.bucket = Bucket(rate, burst)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(OUTBOX_LIMIT)
        self.closed = False
        self.writer = asyncio.create_task(self._drain())

    def send(self, msg: dict | str) -> None:
        if self.closed:
            return
        text = msg if isinstance(msg, str) else dumps(msg)
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:  # the client does not read: drop it (it resyncs on reconnect)
            self.close(4008, "too slow")

    def close(self, code: int = 1000, reason: str = "") -> None:
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)

    async def _drain(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                if text is None:
                    await self.ws.close(self.close_code, self.close_reason)
                    return
                await self.ws.send_text(text)
        except Exception:  # the socket went away; the reader side detaches the connection
            self.closed = True
