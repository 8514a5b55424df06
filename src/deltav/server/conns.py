"""One WebSocket of a room: its outbound queue and writer task, its rate limit, and the encoding of messages.

A :class:`Conn` never blocks its room: messages are queued (a text each) and written by the connection's own
task, in order. A client that stops reading is dropped (close 4008) once :data:`OUTBOX_LIMIT` messages or
:data:`OUTBOX_BYTES` characters wait in its queue (a single message larger than that still goes to an empty
queue). Closing is bounded: a socket that has not closed :data:`CLOSE_SECONDS` after it was told to (its peer
stopped reading, so not even the close frame gets out) has its connection aborted (``wsproto`` gives the app
that abort; without it, as in Starlette's test client, the writer is only cancelled). A text queued for several
connections (every spectator of a room gets the same state message) is the same string object, encoded once
(see docs/server.md, "Framing").

This module owns the socket side of a room only; rooms decide what is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, Protocol

import orjson

OUTBOX_LIMIT = 256  # queued outbound messages before a socket is considered dead and dropped
OUTBOX_BYTES = 1024 * 1024  # queued outbound characters (JSON text, ASCII but for names and chat) likewise
CLOSE_SECONDS = 5.0  # a socket told to close that has not closed by then is aborted


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


def transport_abort(ws: Any) -> Any:
    """The callable that aborts ``ws``'s TCP connection (``wsproto``'s scope extension), found through the
    wrappers of a socket (``.ws``); None when the server offers none."""
    for _ in range(4):
        scope = getattr(ws, "scope", None)
        if isinstance(scope, dict):
            return scope.get("extensions", {}).get("deltav.transport", {}).get("abort")
        ws = getattr(ws, "ws", None)
    return None


class Conn:
    """One WebSocket in a room: a seat's (``seat`` set) or a spectator's."""

    def __init__(self, ws: Socket, seat: int | None, rate: float, burst: int, *, max_bytes: int = OUTBOX_BYTES,
                 close_seconds: float = CLOSE_SECONDS):
        self.ws = ws
        self.seat = seat
        self.bucket = Bucket(rate, burst)
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()  # bounded by send() in messages and characters
        self.queued = 0  # characters waiting in the outbox
        self.max_bytes = max_bytes
        self.close_seconds = close_seconds
        self.closed = False
        self.close_code, self.close_reason = 1000, ""
        # the room's log epoch whose log this socket was last sent whole (rooms.py: until then its state messages
        # carry the snapshot's log; after, only the new entries)
        self.log_epoch = -1
        self.abort = transport_abort(ws)
        self.writer = asyncio.create_task(self._drain())
        self._watchdog: asyncio.Task | None = None

    def send(self, msg: dict | str) -> None:
        if self.closed:
            return
        text = msg if isinstance(msg, str) else dumps(msg)
        if self.outbox.qsize() >= OUTBOX_LIMIT or (self.queued and self.queued + len(text) > self.max_bytes):
            self.drop(4008, "too slow")  # the client does not read: drop it (it resyncs on reconnect)
            return
        self.queued += len(text)
        self.outbox.put_nowait(text)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close after what is queued has been written; aborted if that takes more than ``close_seconds``."""
        if self.closed:
            return
        self.closed = True
        self.close_code, self.close_reason = code, reason
        self.outbox.put_nowait(None)
        self._watch()

    def drop(self, code: int, reason: str) -> None:
        """Close now, forgetting what is queued (a client that does not read)."""
        if self.closed:
            return
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.queued = 0
        self.close(code, reason)

    def _watch(self) -> None:
        if self._watchdog is None:
            with contextlib.suppress(RuntimeError):  # no running loop: nothing to watch
                self._watchdog = asyncio.get_running_loop().create_task(self._close_within())

    async def _close_within(self) -> None:
        """Give the writer ``close_seconds`` to write the close frame; then cancel it and abort the connection
        (a peer that stops reading never takes the close frame, and a transport's own close waits to flush)."""
        done, _ = await asyncio.wait({self.writer}, timeout=self.close_seconds)
        if done:  # the close frame is out (the server's protocol bounds the closing handshake) or the socket went
            return
        self.writer.cancel()
        with contextlib.suppress(BaseException):
            await self.writer
        if self.abort is not None:
            self.abort()

    async def _drain(self) -> None:
        try:
            while True:
                text = await self.outbox.get()
                if text is None:
                    await self.ws.close(self.close_code, self.close_reason)
                    return
                self.queued -= len(text)
                await self.ws.send_text(text)
        except Exception:  # the socket went away; the reader side detaches the connection
            self.closed = True
