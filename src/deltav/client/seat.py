"""One seat's (or a spectator's) WebSocket to a room: snapshots, submissions, refusals, reconnection.

:class:`AsyncSeat` speaks the protocol of docs/server.md on ``websockets``: it keeps the newest ``state``
message (``.state``; its ``snapshot`` is the session's full envelope, never a delta), submits actions with the
step they were made for (so a repeated or late submission can never be applied twice), turns the server's
``error`` answers into :class:`Refused`, and reconnects with its token when the connection drops (the server
then sends a fresh ``welcome`` and ``state``). :meth:`AsyncSeat.play` is the whole loop of a remote player.
:class:`Seat` is the same on a private event loop, for synchronous code.

This module owns the socket side of a client only: what to play is the decider's business
(:mod:`deltav.client.players`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import inspect
import itertools
import json
import urllib.parse
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from deltav.client.rooms import ServerError, ws_base
from deltav.core.session import LOG_TAIL

#: close codes after which reconnecting cannot help: replaced by a newer socket, a bad token (or a refused hello),
#: no such room
FATAL_CLOSE = {4000: "bad_candidates", 4001: "replaced", 4003: "bad_token", 4004: "unknown_room"}
#: refusals on connecting that end the seat (the socket closes next)
FATAL_ERRORS = ("bad_token", "unknown_room", "bad_candidates", "token_in_url", "hello_expected", "bad_origin")
#: refusals that only mean "the match moved on": the next snapshot says what to do
HARMLESS = ("stale_step", "already_decided", "not_your_turn", "not_started", "game_over")

Decider = Callable[[dict], "dict | int | None | Awaitable[dict | int | None]"]


class Refused(ServerError):
    """The server refused a message (an ``error`` message): ``code``, ``message`` and, when given, ``rule``,
    ``field`` and ``step``."""

    def __init__(self, msg: dict):
        extra = {k: v for k, v in msg.items() if k not in ("type", "code", "message")}
        super().__init__(str(msg.get("code")), str(msg.get("message", "")), **extra)
        self.rule = msg.get("rule")
        self.field = msg.get("field")
        self.step = msg.get("step")


def _import_websockets() -> Any:
    try:
        import websockets
    except ImportError as exc:  # pragma: no cover - the extra is installed in tests
        raise ServerError("missing_package", f"the client needs websockets: pip install -e '.[client]' ({exc})") from None
    return websockets


class AsyncSeat:
    """A WebSocket to room ``code`` on ``server`` (http(s):// or ws(s)://) holding ``token``'s seat, or a
    spectator's without a token. ``candidates`` (bot specs): whenever a state message says this seat must decide
    in a live room, the seat asks the server what those bots would play (a ``suggest`` message, docs/server.md
    "Advice") and adds the answer to that state message as ``candidates`` before returning it. Use as ``async
    with``."""

    def __init__(self, server: str, code: str, token: str | None = None, *, candidates: Sequence[str] = (),
                 reconnect_tries: int = 8, backoff: float = 0.25, timeout: float = 600.0):
        # the token never goes in the address (addresses end up in logs): it is the first message's
        self.token = token or None
        self.candidates = [c.strip() for c in candidates if c.strip()]
        self.url = f"{ws_base(server)}/ws/{urllib.parse.quote(code.strip().upper(), safe='')}"
        self.code = code.strip().upper()
        self.reconnect_tries = reconnect_tries
        self.backoff = backoff
        self.timeout = timeout
        self.ws: Any = None
        self.welcome: dict | None = None
        self.state: dict | None = None  # the newest state message
        self.log: list[dict] = []  # the newest log entries (see _keep_log)
        self.messages: list[dict] = []  # other messages (chat, forfeit, rematch...), oldest first
        self._held: collections.deque[dict] = collections.deque()  # read while waiting for an answer, not yet returned
        self.reconnects = 0
        self._ids = itertools.count(1)
        self._closed = False

    # --- connection ------------------------------------------------------------------------------------
    @property
    def seat(self) -> int | None:
        return self.welcome.get("seat") if self.welcome else None

    @property
    def snapshot(self) -> dict | None:
        return self.state["snapshot"] if self.state else None

    async def connect(self) -> AsyncSeat:
        self.ws = await self._open()
        return self

    async def _open(self) -> Any:
        """A socket to the room that has said hello (with this seat's token; none for a spectator)."""
        websockets = _import_websockets()
        ws = await websockets.connect(self.url, max_size=2**24, open_timeout=30)
        # refused at once (an unknown room, a limit): the refusal is there to read
        with contextlib.suppress(websockets.ConnectionClosed):
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
        return ws

    async def close(self) -> None:
        self._closed = True
        if self.ws is not None:
            await self.ws.close()

    async def __aenter__(self) -> AsyncSeat:
        return await self.connect()

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def _reconnect(self, why: Exception) -> None:
        websockets = _import_websockets()
        code = getattr(getattr(why, "rcvd", None), "code", None)
        if code in FATAL_CLOSE:
            raise ServerError(FATAL_CLOSE[code], f"the server closed the connection ({code})") from None
        for k in range(self.reconnect_tries):
            await asyncio.sleep(self.backoff * (2**k))
            try:
                self.ws = await self._open()
                self.reconnects += 1
                return
            except (TimeoutError, OSError, websockets.InvalidHandshake, websockets.ConnectionClosed):
                continue
        raise ServerError("unreachable", f"lost the connection to {self.url} and could not reconnect ({why})")

    def _keep_log(self, msg: dict) -> None:
        """The snapshot's log, kept here: a state message carries it whole on connecting, on ``sync``, for a new
        match or renamed seats, and otherwise only the entries its action added (``events``, sent once); those
        are appended to the log kept, whose newest entries become the snapshot's ``log`` again, so ``.snapshot``
        is always the complete envelope."""
        snap = msg.get("snapshot")
        if not isinstance(snap, dict):
            return
        if "log" in snap:
            self.log = list(snap["log"][-LOG_TAIL:])
        else:
            self.log = [*self.log, *(msg.get("events") or [])][-LOG_TAIL:]
            snap["log"] = list(self.log)

    async def recv(self) -> dict:
        """The next message (reconnecting when the connection drops). State messages update ``.state`` (with
        their ``candidates`` when this seat asks for some); ``welcome`` updates ``.welcome``; a fatal ``error`` on
        connecting (bad_token, unknown_room) raises."""
        msg = self._held.popleft() if self._held else await self._read()
        kind = msg.get("type")
        if kind == "state":
            self._keep_log(msg)
            if self.candidates and self._deciding(msg):
                await self._ask_candidates(msg)
            self.state = msg
        elif kind == "welcome":
            self.welcome = msg
        elif kind == "error" and msg.get("code") in FATAL_ERRORS:
            raise Refused(msg)
        elif kind not in ("accepted", "error", "pong", "suggestion"):
            self.messages.append(msg)
        return msg

    def _deciding(self, msg: dict) -> bool:
        snap, room = msg.get("snapshot") or {}, msg.get("room") or {}
        return bool(snap.get("to_act")) and snap.get("seat") is not None and room.get("status") == "live"

    async def _ask_candidates(self, msg: dict) -> None:
        """Ask the server what :attr:`candidates` would play for ``msg``'s decision and add the answer to it
        (``[{"spec", "action", "text"} | {"spec", "error"}]``); the messages read meanwhile are returned next,
        in order. A bad list (``bad_candidates``, ``over_budget``) raises :class:`Refused`; another refusal (say
        ``no_bot_help``) becomes each spec's ``error``; ``suggest_rate`` waits and asks
        again; a dropped connection gives up (the state sent on reconnecting asks again)."""
        held: list[dict] = []
        try:
            while True:
                ref = f"q{next(self._ids)}"
                before = self.reconnects
                await self.send({"type": "suggest", "bots": self.candidates, "id": ref})
                while True:
                    got = await self._read()
                    if self.reconnects != before:
                        held.append(got)
                        return
                    if got.get("id") == ref and got.get("type") in ("suggestion", "error"):
                        break
                    held.append(got)
                if got["type"] == "suggestion":
                    msg["candidates"] = got.get("candidates", [])
                    return
                if got.get("code") in (*FATAL_ERRORS, "over_budget", "bad_message"):  # the seat's candidates are wrong
                    raise Refused(got)
                if got.get("code") == "suggest_rate":
                    await asyncio.sleep(float(got.get("retry_after") or 1.0))
                    continue
                msg["candidates"] = [{"spec": spec, "error": got.get("code")} for spec in self.candidates]
                return
        finally:
            self._held.extend(held)

    async def _read(self) -> dict:
        """The next message off the socket, reconnecting when the connection drops."""
        websockets = _import_websockets()
        while True:
            if self.ws is None:
                await self.connect()
            try:
                raw = await asyncio.wait_for(self.ws.recv(), self.timeout)
            except websockets.ConnectionClosed as exc:
                if self._closed:
                    raise ServerError("closed", "the connection was closed") from None
                await self._reconnect(exc)
                continue
            except OSError as exc:
                await self._reconnect(exc)
                continue
            return json.loads(raw)

    async def send(self, msg: dict) -> None:
        """Send one message; a dropped connection is reconnected and the message sent again (safe: a
        submission carries its step, so it is never applied twice)."""
        websockets = _import_websockets()
        if self.ws is None:
            await self.connect()
        text = json.dumps(msg, separators=(",", ":"))
        try:
            await self.ws.send(text)
        except websockets.ConnectionClosed as exc:
            if self._closed:
                raise ServerError("closed", "the connection was closed") from None
            await self._reconnect(exc)
            await self.ws.send(text)

    async def next_state(self) -> dict:
        """Wait for the next state message."""
        while True:
            msg = await self.recv()
            if msg["type"] == "state":
                return msg

    async def sync(self, since: int | None = None) -> dict:
        """Ask for this seat's snapshot again (``since``: its log from that step on) and return the state
        message answering it (a ping after the request tells it from older queued states)."""
        ref = f"s{next(self._ids)}"
        await self.send({"type": "sync", **({"since": since} if since is not None else {})})
        await self.send({"type": "ping", "id": ref})
        before = self.reconnects
        while True:
            msg = await self.recv()
            if self.reconnects != before:  # the connection dropped meanwhile: ask again
                return await self.sync(since)
            if msg["type"] == "pong" and msg.get("id") == ref:
                return self.state

    async def submit(self, action: dict, step: int | None = None) -> dict:
        """Submit ``action`` (one of ``snapshot.legal[i].action``) for ``step`` (default: the newest
        snapshot's). Returns the ``accepted`` message; raises :class:`Refused` with the server's reason. State
        messages that arrive meanwhile update ``.state``. If the connection drops before the answer, the
        outcome is unknown: a :class:`Refused` ``lost`` is raised and the next snapshot tells."""
        if step is None:
            step = self.snapshot["step"] if self.snapshot else 0
        ref = f"c{next(self._ids)}"
        await self.send({"type": "submit", "step": step, "action": action, "id": ref})
        before = self.reconnects
        while True:
            msg = await self.recv()
            if self.reconnects != before:
                raise Refused({"code": "lost", "message": "the connection dropped before the answer"})
            if msg["type"] in ("accepted", "error") and msg.get("id") == ref:
                if msg["type"] == "error":
                    raise Refused(msg)
                return msg

    # --- the player's loop -----------------------------------------------------------------------------
    async def play(self, decide: Decider, on_state: Callable[[dict], Any] | None = None,
                   max_refusals: int = 3) -> dict:
        """Play this seat to the end of the match: whenever the newest snapshot says the seat must act in a
        live room, ``decide(state_message)`` returns an action (a JSON object from ``snapshot.legal``, or an
        index into it; it may be a coroutine) which is submitted for that step. Refusals that only mean the
        match moved on are ignored; ``max_refusals`` other refusals at one step raise. Returns the final state
        message (the match over, or finished by a forfeit)."""
        refusals: dict[tuple[int, int], int] = {}
        done: set[tuple[int, int]] = set()
        msg = self.state or await self.next_state()
        while True:
            if on_state is not None:
                on_state(msg)
            snap, room = msg["snapshot"], msg["room"]
            if snap["status"] == "over" or room["status"] == "finished":
                return msg
            key = (room["match"], snap["step"])
            if room["status"] == "live" and snap["to_act"] and key not in done:
                choice = decide(msg)
                if inspect.isawaitable(choice):
                    choice = await choice
                if isinstance(choice, bool) or not isinstance(choice, int | dict):
                    raise ServerError("no_action", f"the decider gave {choice!r} at step {snap['step']}, not an "
                                                   "action object or an index into snapshot.legal")
                if isinstance(choice, int):
                    if not 0 <= choice < len(snap["legal"]):
                        raise ServerError("no_action", f"index {choice} is outside snapshot.legal "
                                                       f"(0..{len(snap['legal']) - 1})")
                    choice = snap["legal"][choice]["action"]
                try:
                    await self.submit(choice, snap["step"])
                    done.add(key)
                    self.last_refusal = None
                except Refused as exc:
                    if exc.code == "lost":  # unknown whether it was applied: decide again on the new snapshot
                        msg = self.state or msg  # (sending it again is safe: the step guards it)
                        continue
                    if exc.code in HARMLESS:
                        done.add(key)
                    else:  # the action was refused and nothing changed: ask the decider again
                        refusals[key] = refusals.get(key, 0) + 1
                        if refusals[key] >= max_refusals:
                            raise
                        self.last_refusal = exc
                        msg = self.state or msg
                        continue
                if self.state is not None and self.state is not msg:  # states that came while submitting
                    msg = self.state
                    continue
            msg = await self.next_state()

    #: the refusal of the decider's last action at this step (None once an action was accepted)
    last_refusal: Refused | None = None


class Seat:
    """:class:`AsyncSeat` for synchronous code: the same methods, each run on a private event loop."""

    def __init__(self, server: str, code: str, token: str | None = None, **kw: Any):
        self._loop = asyncio.new_event_loop()
        self.aseat = AsyncSeat(server, code, token, **kw)

    def _run(self, coro: Awaitable) -> Any:
        return self._loop.run_until_complete(coro)

    @property
    def state(self) -> dict | None:
        return self.aseat.state

    @property
    def snapshot(self) -> dict | None:
        return self.aseat.snapshot

    @property
    def seat(self) -> int | None:
        return self.aseat.seat

    def connect(self) -> Seat:
        self._run(self.aseat.connect())
        return self

    def close(self) -> None:
        try:
            self._run(self.aseat.close())
        finally:
            self._loop.close()

    def __enter__(self) -> Seat:
        return self.connect()

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def recv(self) -> dict:
        return self._run(self.aseat.recv())

    def next_state(self) -> dict:
        return self._run(self.aseat.next_state())

    def sync(self, since: int | None = None) -> dict:
        return self._run(self.aseat.sync(since))

    def submit(self, action: dict, step: int | None = None) -> dict:
        return self._run(self.aseat.submit(action, step))

    def play(self, decide: Callable[[dict], dict | int | None], on_state: Callable[[dict], Any] | None = None,
             max_refusals: int = 3) -> dict:
        return self._run(self.aseat.play(decide, on_state, max_refusals))
