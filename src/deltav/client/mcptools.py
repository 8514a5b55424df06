"""An MCP server for LLM agents (the official ``mcp`` SDK, ``MCPServer``): tools to find, create and join rooms
on a deltav server, read a seat's observation, act, and wait for the seat's turn; resources for each game's
rules page and a match's log.

``deltav mcp --server URL`` runs it over stdio for a local agent. It is a client of the deltav server like
``deltav agent`` (:mod:`deltav.client`): each seat it holds keeps one WebSocket, read by a background task so
the seat's newest snapshot is always at hand and the server never has to drop a slow reader.

Tools: ``list_games``, ``list_rooms``, ``create_room``, ``join_room``, ``observe``, ``act``, ``wait_for_turn``.
The observation is the snapshot envelope trimmed for reading: ``seat``, ``step``, ``status``, ``to_act``,
``legal`` as ``[{"index", "text", "action"}]``, ``candidates`` (what built-in bots would play: the seat asks the
server's ``suggest`` at each decision; in a room without a bot seat each is ``{"spec", "error": "no_bot_help"}``), ``view``, the
newest ``log`` lines, ``result``. Resources: ``deltav://rules/{game}`` (the game's ``docs/<game>.md``: the
rules as this project implements them; the rules texts themselves are not shipped) and
``deltav://rooms/{code}/log`` (every event this seat may see, one line each).

Every call is bounded in time and holds no thread: the tools speak HTTP through an async client (``httpx2``,
which the ``mcp`` SDK itself depends on) with :data:`HTTP_SECONDS` per request, a seat's socket must open and show
its first state within :data:`CONNECT_SECONDS`, a submission's answer comes within :data:`ANSWER_SECONDS`, and
``wait_for_turn`` waits at most :data:`MAX_WAIT_SECONDS`. Room codes are checked (5 letters) and every path part
is escaped, so a tool argument can never name another route. Mounted on ``deltav serve`` (``server`` None), the
tools call that server itself, at the address the request arrived on (the socket's own address, never the
``Host`` header, which a client chooses).

This module owns the MCP tools only; the protocol is :mod:`deltav.client.seat`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

import httpx2
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from deltav.client.rooms import http_base
from deltav.client.seat import AsyncSeat, Refused, ServerError

DOCS = Path(__file__).resolve().parents[3] / "docs"
DEFAULT_CANDIDATES = ("bot:easy", "bot:normal")
HTTP_SECONDS = 10.0  # one HTTP request to the deltav server, connecting included
CONNECT_SECONDS = 10.0  # a seat's WebSocket: open it and receive its first state
ANSWER_SECONDS = 30.0  # the server's answer to a submission (and the state message that follows it)
MAX_WAIT_SECONDS = 120.0  # the longest wait_for_turn
ROOM_LISTS = ("open", "live", "finished")


def anticipated(fn: Any) -> Any:
    """A tool whose foreseen failures (a bad argument, a refusal or an error of the deltav server, a time-out)
    reach the model in words (the SDK's ToolError); anything else stays a crash, logged by the SDK."""
    @functools.wraps(fn)
    async def tool(*args: Any, **kwargs: Any) -> Any:
        try:
            return await fn(*args, **kwargs)
        except (ValueError, ServerError) as exc:
            raise ToolError(str(exc)) from exc

    return tool


def room_code(code: str) -> str:
    """A room code as typed (any case, spaces around), checked: 5 letters; anything else is refused here, so it
    can never reach the server as another path."""
    text = str(code).strip().upper()
    if not re.fullmatch(r"[A-Z]{5}", text):
        raise ValueError(f"{code!r} is not a room code (5 letters, like KXMPT)")
    return text


def path(*parts: str, query: dict | None = None) -> str:
    """A route of the server from its parts, each escaped whole (``/`` included)."""
    out = "".join("/" + urllib.parse.quote(str(p), safe="") for p in parts)
    return out + ("?" + urllib.parse.urlencode(query) if query else "")


async def request(base: str, method: str, route: str, body: dict | None = None) -> Any:
    """One JSON request to the deltav server at ``base``, bounded by HTTP_SECONDS; errors as ServerError (the
    server's ``code`` and ``message``; ``timeout`` or ``unreachable`` when it does not answer)."""
    try:
        async with httpx2.AsyncClient(timeout=HTTP_SECONDS, follow_redirects=False) as client:
            r = await client.request(method, http_base(base) + route, json=body,
                                     headers={"accept": "application/json"})
    except httpx2.TimeoutException:
        raise ServerError("timeout", f"the deltav server at {base} did not answer within {HTTP_SECONDS:g} s") from None
    except httpx2.HTTPError as exc:
        raise ServerError("unreachable", f"cannot reach {base}: {exc}") from None
    try:
        obj = json.loads(r.content)
    except ValueError:
        raise ServerError("bad_answer", f"the answer to {method} {route} is not JSON (HTTP {r.status_code})") from None
    if r.status_code >= 400:
        if isinstance(obj, dict) and "error" in obj:
            extra = {k: v for k, v in obj.items() if k not in ("error", "message")}
            raise ServerError(str(obj["error"]), str(obj.get("message", "")), r.status_code, **extra)
        raise ServerError("http", f"HTTP {r.status_code} from {route}", r.status_code)
    return obj


class Held:
    """One seat this MCP server holds: its socket, read continuously, and the answers to its submissions."""

    def __init__(self, seat: AsyncSeat):
        self.seat = seat
        self.changed = asyncio.Condition()
        self.answers: dict[str, asyncio.Future] = {}
        self.error: Exception | None = None
        self.task: asyncio.Task | None = None
        self._ids = itertools.count(1)

    async def start(self) -> None:
        try:
            await asyncio.wait_for(self.seat.connect(), CONNECT_SECONDS)
        except TimeoutError:
            raise ServerError("timeout", f"the room's socket did not open within {CONNECT_SECONDS:g} s") from None
        self.task = asyncio.create_task(self._read())
        if not await self.wait(lambda: self.seat.state is not None, CONNECT_SECONDS):
            raise ServerError("timeout", f"the room sent no state within {CONNECT_SECONDS:g} s")

    async def _read(self) -> None:
        while True:
            try:
                msg = await self.seat.recv()
            except Exception as exc:  # the seat is gone (bad token, server lost): every waiter learns it
                self.error = exc
                async with self.changed:
                    self.changed.notify_all()
                for fut in self.answers.values():
                    if not fut.done():
                        fut.set_exception(exc)
                return
            ref = msg.get("id")
            if msg["type"] in ("accepted", "error") and ref in self.answers:
                fut = self.answers.pop(ref)
                if not fut.done():
                    fut.set_result(msg)
            async with self.changed:
                self.changed.notify_all()

    async def wait(self, pred: Any, timeout: float) -> bool:
        async with self.changed:
            try:
                await asyncio.wait_for(self.changed.wait_for(lambda: self.error is not None or pred()), timeout)
            except TimeoutError:
                return False
        if self.error is not None:
            raise self.error
        return True

    async def submit(self, action: dict, step: int) -> dict:
        ref = f"m{next(self._ids)}"
        fut = asyncio.get_running_loop().create_future()
        self.answers[ref] = fut
        await self.seat.send({"type": "submit", "step": step, "action": action, "id": ref})
        try:
            return await asyncio.wait_for(fut, ANSWER_SECONDS)
        except TimeoutError:
            raise ServerError("timeout", f"the server did not answer the submission within {ANSWER_SECONDS:g} s") from None

    async def log(self) -> list[dict]:
        await self.seat.send({"type": "sync", "since": 0})
        n = len(self.seat.messages)
        before = self.seat.state
        await self.wait(lambda: self.seat.state is not before or len(self.seat.messages) != n, ANSWER_SECONDS)
        return self.seat.state["snapshot"]["log"]

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        with contextlib.suppress(Exception):
            await self.seat.close()


def observation(msg: dict) -> dict:
    snap, room = msg["snapshot"], msg["room"]
    out = {
        "room": room["code"], "match": room["match"], "room_status": room["status"], "seat": snap["seat"],
        "seats": snap["seats"], "step": snap["step"], "status": snap["status"],
        "to_act": snap["to_act"] and room["status"] == "live",
        "legal": [{"index": i, "text": e["text"], "action": e["action"], **({"note": e["note"]} if "note" in e else {})}
                  for i, e in enumerate(snap["legal"])],
        "view": snap["view"],
        "log": [f"{e['step']}: {e['text']}" for e in snap["log"]],
        "result": snap["result"], "returns": snap["returns"], "forfeit": room.get("forfeit"),
    }
    if "candidates" in msg:
        out["candidates"] = msg["candidates"]
    if snap["submitted"] is not None:
        out["submitted"] = snap["submitted"]["text"]
    return out


def build(server: str | None, candidates: tuple[str, ...] = DEFAULT_CANDIDATES, stateless: bool = False) -> Any:
    """The MCP server (an ``mcp.server.mcpserver.MCPServer``) playing on the deltav server at ``server``.

    Over stdio (``stateless`` False) the MCP server holds the seats it created or joined: the tools need only
    the room code. ``stateless`` (streamable HTTP, where every call may be a new session) holds nothing:
    ``create_room``/``join_room`` return the seat's ``token`` and the other tools take it back, each call
    connecting for itself. ``server`` None: the deltav server is the one the MCP request came to (mounted)."""
    held: dict[str, Held] = {}
    app = MCPServer("deltav", instructions=(
        "Play deltav's space tabletop games on a deltav server. Find or create a room (list_rooms, create_room, "
        "join_room), then loop: wait_for_turn, read the observation (legal actions with their text; candidates "
        "are what the built-in bots would play), act with an index into legal. Rules: deltav://rules/{game}."
        + (" Keep the token create_room or join_room returns and pass it to every call." if stateless else "")))

    def base(ctx: Context | None) -> str:
        if server is not None:
            return server
        incoming = ctx.request_context.request if ctx is not None else None
        if incoming is None:
            raise ValueError("no deltav server: this MCP server runs outside an HTTP request")
        # this very server, where the request arrived (its socket's address): never the Host header, which the
        # client writes (it once made the tools call any port of this machine)
        host, port = incoming.scope["server"]
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"

    async def take(url: str, code: str, token: str) -> Held:
        code = room_code(code)
        old = held.pop(code, None)
        if old is not None:
            await old.close()
        h = Held(AsyncSeat(url, code, token, candidates=candidates))
        await h.start()
        held[code] = h
        return h

    @contextlib.asynccontextmanager
    async def using(code: str, token: str | None, ctx: Context | None):
        """The seat of room ``code``: held (stdio), or connected for this call with ``token``."""
        code = room_code(code)
        if token is None and not stateless:
            h = held.get(code)
            if h is None:
                raise ValueError(f"this MCP server holds no seat in room {code!r}: create_room or join_room first")
            if h.error is not None:
                raise h.error
            yield h
            return
        if token is None:
            raise ValueError("give the token that create_room or join_room returned")
        h = Held(AsyncSeat(base(ctx), code, token, candidates=candidates))
        try:
            await h.start()
            yield h
        finally:
            await h.close()

    def settled(h: Held) -> bool:
        msg = h.seat.state
        return msg is not None and (observation(msg)["to_act"] or msg["snapshot"]["status"] == "over"
                                    or msg["room"]["status"] == "finished")

    def seat_answer(got: dict) -> dict:
        out = {"code": got["code"], "seat": got["seat"], "status": got["room"]["status"]}
        if stateless:
            out["token"] = got["token"]
        return out

    @app.tool()
    @anticipated
    async def list_games(ctx: Context) -> dict:
        """Every game on the server: id, title, scenarios (id and title), player counts, the bot specs."""
        games = await request(base(ctx), "GET", "/games")
        return {"games": [{"id": g.get("id"), "title": g.get("title"),
                           "players": [g.get("min_players"), g.get("max_players")],
                           "scenarios": [{"id": s.get("id"), "title": s.get("title")} for s in g.get("scenarios", [])],
                           "bots": g.get("bots", [])} for g in games]}

    @app.tool()
    @anticipated
    async def list_rooms(ctx: Context, status: str = "open") -> dict:
        """The newest rooms open to anyone with this status (open: waiting for players; live; finished)."""
        if status not in ROOM_LISTS:
            raise ValueError(f"status must be one of {', '.join(ROOM_LISTS)}")
        return {"rooms": await request(base(ctx), "GET", path("rooms", query={"status": status}))}

    @app.tool()
    @anticipated
    async def create_room(ctx: Context, game: str, seats: list[str], scenario: str | None = None,
                          name: str | None = None, seed: int | None = None, options: dict | None = None,
                          public: bool = False) -> dict:
        """Create a room and take its first human seat. seats: one entry per seat, "human" or a bot spec such
        as "bot:normal" (e.g. ["human", "bot:normal"]). public: list it for anyone to join or watch (default:
        private, joined by its code only). Returns the room code and your seat."""
        opts = dict(options or {})
        if scenario:
            opts["scenario"] = scenario
        url = base(ctx)
        body: dict[str, Any] = {"game": game, "seats": list(seats), "options": opts}
        for key, v in (("seed", seed), ("name", name), ("public", public or None)):
            if v is not None:
                body[key] = v
        got = await request(url, "POST", "/rooms", body)
        if got["token"] is None:
            return {"code": got["code"], "seat": None, "note": "no human seat: a bot match to watch"}
        if not stateless:
            await take(url, got["code"], got["token"])
        return seat_answer(got)

    @app.tool()
    @anticipated
    async def join_room(ctx: Context, code: str, seat: int | None = None, name: str | None = None) -> dict:
        """Take a free human seat of room ``code`` (any free one unless ``seat`` is given)."""
        url = base(ctx)
        body = {k: v for k, v in (("seat", seat), ("name", name)) if v is not None}
        got = await request(url, "POST", path("rooms", room_code(code), "join"), body)
        if not stateless:
            await take(url, got["code"], got["token"])
        return seat_answer(got)

    @app.tool()
    @anticipated
    async def observe(ctx: Context, code: str, token: str | None = None) -> dict:
        """Your seat's observation in room ``code``: your view, whether you must act, the legal actions
        (index, text, action), candidates, the newest log lines, the result once over."""
        async with using(code, token, ctx) as h:
            if candidates and observation(h.seat.state)["to_act"]:
                await h.wait(lambda: "candidates" in h.seat.state, ANSWER_SECONDS)
            return observation(h.seat.state)

    @app.tool()
    @anticipated
    async def act(ctx: Context, code: str, index: int | None = None, action: dict | None = None,
                  token: str | None = None) -> dict:
        """Play legal action number ``index`` of the observation (or an ``action`` object from it) at the current
        step. Returns accepted, or the refusal with the rule and its reason (nothing changed then)."""
        if (index is None) == (action is None):
            raise ValueError("give exactly one of index (into legal) and action")
        async with using(code, token, ctx) as h:
            snap = h.seat.state["snapshot"]
            if index is not None:
                if not 0 <= index < len(snap["legal"]):
                    return {"accepted": False, "code": "bad_index",
                            "message": f"index {index} is outside legal (0..{len(snap['legal']) - 1})"}
                action = snap["legal"][index]["action"]
            answer = await h.submit(action, snap["step"])
            if answer["type"] == "accepted":  # the state message follows the answer: wait for it
                await h.wait(lambda: h.seat.state["snapshot"]["step"] != snap["step"]
                             or h.seat.state["snapshot"]["submitted"] is not None, ANSWER_SECONDS)
                return {"accepted": True, "step": answer["step"], "buffered": answer.get("buffered", False)}
            return {"accepted": False, **{k: answer[k] for k in ("code", "message", "rule", "field") if k in answer}}

    @app.tool()
    @anticipated
    async def wait_for_turn(ctx: Context, code: str, timeout_seconds: float = 60.0, token: str | None = None) -> dict:
        """Wait until your seat must act or the match is over (at most ``timeout_seconds``, 120 at most), then
        observe."""
        async with using(code, token, ctx) as h:
            done = await h.wait(lambda: settled(h), max(0.0, min(timeout_seconds, MAX_WAIT_SECONDS)))
            if done and candidates and observation(h.seat.state)["to_act"]:
                await h.wait(lambda: "candidates" in h.seat.state, ANSWER_SECONDS)
            out = observation(h.seat.state)
            out["timed_out"] = not done
            return out

    @app.resource("deltav://rules/{game}", mime_type="text/markdown")
    def rules(game: str) -> str:
        """The game's page of this project's docs (the rules as implemented, options and rulings)."""
        path = DOCS / f"{game}.md"
        if game.isidentifier() and path.is_file():
            return path.read_text()
        return f"No docs page for {game!r} here; it is docs/{game}.md in the deltav sources."

    @app.resource("deltav://rooms/{code}/log", mime_type="text/plain")
    async def match_log(code: str) -> str:
        """Every event of the current match that your seat may see (a seat this MCP server holds; else the
        public events a spectator sees), one per line."""
        h = held.get(room_code(code))
        if h is not None:
            entries = await h.log()
        else:
            if server is None:
                raise ValueError("the log of a room this MCP server holds no seat in is at GET /rooms/{code}")
            spectator = Held(AsyncSeat(server, code))
            try:
                await spectator.start()
                entries = await spectator.log()
            finally:
                await spectator.close()
        return "\n".join(f"{e['step']}: {e['text']}" for e in entries)

    app.held = held  # for tests and shutdown
    return app


def run_stdio(server: str, candidates: tuple[str, ...] = DEFAULT_CANDIDATES) -> None:
    from deltav.client import rooms as http

    try:
        http.request(server, "GET", "/healthz", timeout=HTTP_SECONDS)
    except ServerError as exc:
        raise ServerError(exc.code, f"the deltav server at {server} does not answer: {exc.message}") from None
    build(server, candidates).run("stdio")


__all__ = ["Held", "Refused", "build", "observation", "run_stdio"]
