"""The Starlette application: HTTP routes for games and rooms, the WebSocket of a match, start and shutdown.

Routes (docs/server.md has every JSON form): the browser client's pages (``/``, ``/play/{code}``,
``/watch/{code}``, ``/replay/{code}``, ``/board``) and its assets, ``GET /healthz``, ``GET /games``,
``GET /games/{game}/board``, ``GET /rooms``, ``POST /rooms``, ``GET /rooms/{code}``, ``POST /rooms/{code}/join``,
``GET /rooms/{code}/record``, ``GET /rooms/{code}/replay``, ``GET``/``POST /rooms/{code}/review``,
``GET /rooms/{code}/briefing``, the quick-match queue (``POST /queue``, ``/queue/poll``, ``/queue/cancel``,
``/queue/bots``: matchmaking.py), and the WebSocket ``/ws/{code}``, whose first message is a hello with the
seat's token (none: a spectator). On start the store is opened (and migrated) and every unfinished room is
reloaded before ``/healthz`` answers 200. Every route sits behind ``guard.Guard`` (rate limits, where changes may
come from, security headers).

This module owns HTTP and WebSocket plumbing only; rooms own the rules of play.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from pathlib import Path
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from deltav.core import jsonin
from deltav.core.errors import DeltavError, RecordError
from deltav.core.protocol import Game, GameInfoJson, check_briefing
from deltav.server.guard import CLOSE_TOO_MANY, Guard
from deltav.server.hub import Hub
from deltav.server.limits import client_id, client_key
from deltav.server.replays import ReplayCache, parse_view
from deltav.server.reviews import ReviewRefused, Reviews, server_budget
from deltav.server.rooms import ClientError, Room, Settings, message_ref, seat_names
from deltav.server.store import Store, StoreUnavailable, default_url
from deltav.server.tokens import normalize_code

log = logging.getLogger("deltav.server")

MAX_BODY_BYTES = 64 * 1024
MAX_MATCH = 2**31 - 1  # the largest match (and replay step) number a query may name
HELLO_SECONDS = 10.0  # a room's socket must say hello (and give its token) this soon
ROOM_LISTS = ("open", "live", "finished")
LIST_SECONDS = 2.0  # GET /rooms answers are reused this long (another process's changes show within it)


class GameEntryJson(GameInfoJson):
    """A game of ``GET /games``: ``Game.describe()`` and the bots the server offers for it."""

    bots: list[str]
    """The bot specs a seat may take ("bot:normal")."""

#: Shown in place of the client when it was not built (a source checkout before ``make setup``).
NOT_BUILT = """<!doctype html><meta charset="utf-8"><title>deltav server</title>
<h1>deltav</h1><p>The game server is running, but the browser client was not built: run <code>make setup</code>
(or <code>cd web &amp;&amp; npm ci &amp;&amp; node build.mjs</code>) and restart it. The JSON API and the WebSocket
protocol are described in docs/server.md: <a href="/games">games</a> &middot; <a href="/rooms">rooms</a>.</p>"""
#: The environment variable naming another folder of the built client (the browser tests build into a temp dir).
WEB_DIR_ENV = "DELTAV_WEB_DIR"


def _error(exc: ClientError) -> JSONResponse:
    return JSONResponse({"error": exc.code, "message": exc.message, **exc.extra}, status_code=exc.status)


#: The bounds of a request body (the one bounded reader, deltav.core.jsonin): a room's options and seats are shallow.
BODY_LIMITS = jsonin.Limits(max_bytes=MAX_BODY_BYTES, max_depth=16, max_digits=20)


async def _body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ClientError("too_large", f"a request body may hold at most {MAX_BODY_BYTES} bytes", 413)
    if not raw.strip():
        return {}
    try:
        obj = jsonin.read(raw, "body", BODY_LIMITS)
    except jsonin.JSONInputError as exc:
        raise ClientError("bad_json", f"the body is refused: {exc}", field=exc.field) from None
    if not isinstance(obj, dict):
        raise ClientError("bad_request", "the body must be a JSON object")
    return obj


def _query_int(request: Request, name: str, default: Any, lo: int, hi: int) -> Any:
    """An integer query parameter (``?match=2``): plain ASCII digits within ``lo..hi`` (``default`` when absent),
    else ``bad_request`` naming it (never a 500: a 5,000-digit number or ``²`` is refused before ``int``)."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 12 and lo <= int(raw) <= hi):
        raise ClientError("bad_request", f"{name} must be an integer from {lo} to {hi}, not {jsonin.shown(raw)}",
                          field=name)
    return int(raw)


def _field(obj: dict, name: str, kind: type | tuple, default: Any = None, required: bool = False) -> Any:
    if name not in obj or obj[name] is None:
        if required:
            raise ClientError("bad_request", f"field {name!r} is required")
        return default
    v = obj[name]
    if isinstance(v, bool) and kind is not bool or not isinstance(v, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ClientError("bad_request", f"field {name!r} must be {names}")
    return v


def _name(obj: dict) -> str | None:
    name = _field(obj, "name", str)
    if name is None:
        return None
    name = " ".join(name.split())[:40]
    return name or None


async def hello(ws: WebSocket) -> str | None:
    """The first message of a room's socket, ``{"type": "hello", "token": ...}`` (no token, or null: a spectator),
    within HELLO_SECONDS: the seat's token travels there, never in the address (addresses end up in logs).
    ClientError ``hello_expected`` otherwise."""
    want = (f'the first message must be {{"type": "hello"}}, with "token" for a seat, within {HELLO_SECONDS:g} s '
            "(docs/server.md)")
    try:
        msg = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
    except TimeoutError:
        raise ClientError("hello_expected", want) from None
    if msg["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(msg.get("code", 1000))
    text = msg.get("text")
    if not isinstance(text, str):
        raise ClientError("hello_expected", want)
    try:  # the one bounded reader (4 KiB of "[" is refused, never a RecursionError)
        obj = jsonin.read(text, "hello", jsonin.Limits(max_bytes=4096, max_depth=4, max_digits=20))
    except jsonin.JSONInputError:
        raise ClientError("hello_expected", want) from None
    if not isinstance(obj, dict) or obj.get("type") != "hello":
        raise ClientError("hello_expected", want)
    token = obj.get("token")
    if token is not None and (not isinstance(token, str) or len(token) > 200):
        raise ClientError("bad_token", "field 'token' must be a seat token (a string) or null for a spectator")
    return token or None


def web_dir(explicit: str | Path | None = None) -> Path | None:
    """The folder of the built client to serve: ``explicit``, else $DELTAV_WEB_DIR, else the package's build;
    None when that folder holds no build."""
    from deltav import web_static

    chosen = explicit or os.environ.get(WEB_DIR_ENV)
    folder = Path(chosen) if chosen else web_static.static_dir()
    return folder if (folder / "index.html").is_file() and (folder / "build-info.json").is_file() else None


def create_app(db_url: str | None = None, settings: Settings | None = None,
               client_dir: str | Path | None = None) -> Starlette:
    settings = settings or Settings()
    state: dict[str, Any] = {}
    client = web_dir(client_dir)
    from deltav.server import mcp_http

    mcp_mount = mcp_http.mount()  # the MCP server on streamable HTTP at /mcp (when the mcp package is there)

    def hub() -> Hub:
        return state["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        from deltav.games import load_all
        from deltav.server.metrics import Metrics

        store = await Store.open(db_url or default_url(), pool=settings.db_pool)
        state["hub"] = Hub(store, settings, load_all())
        h = state["hub"]
        h.metrics = Metrics(lambda role: sum(1 for r in h.rooms.values() if r.owned == (role == "owner")),
                            lambda: sum(len(r.conns) + len(r.spectators) for r in h.rooms.values()),
                            store.health)
        h.metrics.start()
        restored = await hub().restore()
        log.info("deltav server ready (%d rooms restored)", restored)
        app.state.hub = hub()
        try:
            yield
        finally:
            if "reviews" in state:
                state["reviews"].close()
            if mcp_mount:
                await mcp_mount[1].close()
            if h.metrics is not None:
                await h.metrics.aclose()
            await hub().close()
            await store.close()

    def page(name: str):
        async def serve_page(request: Request) -> Response:
            if client is None:
                return HTMLResponse(NOT_BUILT, status_code=200 if name == "index.html" else 404)
            # the page is tiny and names the current bundle: never cached, so a new build is picked up at once
            return FileResponse(client / name, headers={"cache-control": "no-cache"})

        return serve_page

    async def game_board(request: Request) -> JSONResponse:
        try:
            gid = request.path_params["game"]
            if gid not in hub().games:
                raise ClientError("unknown_game", f"unknown game {gid!r} (allowed: {', '.join(sorted(hub().games))})", 404)
            game = hub().game(gid)
            options = Hub.resolve_options(game, dict(request.query_params))
            doc = game.board(options)
        except ClientError as exc:
            return _error(exc)
        except DeltavError as exc:
            return _error(ClientError("bad_options", str(exc)))
        if doc is None:
            return _error(ClientError("no_board", f"{game.id} has no fixed board (its view carries the map)", 404))
        return JSONResponse(doc, headers={"cache-control": "max-age=3600"})

    async def healthz(request: Request) -> JSONResponse:
        h = state.get("hub")
        if h is None or not h.ready:
            return JSONResponse({"status": "starting"}, status_code=503)
        return JSONResponse({"status": "ok", "rooms": len(h.rooms)})

    async def readyz(request: Request) -> JSONResponse:
        """Ready for traffic: rooms restored, the database answers, the bus (several processes) is connected."""
        h = state.get("hub")
        problems = []
        if h is None or not h.ready:
            problems.append("starting")
        else:
            try:
                await asyncio.wait_for(h.store.ping(), 5)
            except Exception as exc:
                problems.append(f"database: {type(exc).__name__}")
            if not h.store.health.writable:
                problems.append(f"database: refuses writes ({h.store.health.reason})")
            if h.bus is not None and not h.bus.connected:
                problems.append("bus: not connected")
            if h.lease_loop is not None and not h.lease_loop.healthy:
                problems.append("leases: the last renewal failed")
        if problems:
            return JSONResponse({"status": "not_ready", "problems": problems}, status_code=503)
        return JSONResponse({"status": "ready", "node": h.cluster.node if h.cluster else None,
                             "rooms": sum(1 for r in h.rooms.values() if r.owned)})

    async def metrics(request: Request) -> Response:
        h = state.get("hub")
        if h is None or h.metrics is None:
            return Response("starting\n", status_code=503)
        return Response(h.metrics.render(), media_type=h.metrics.content_type)

    async def games(request: Request) -> JSONResponse:
        """``GET /games``: the catalogue, one ``GameEntryJson`` per game."""
        from deltav.agents.registry import available_specs

        out = []
        for gid, game in sorted(hub().games.items()):
            d = game.describe()
            d["bots"] = [f"bot:{n}" for n in available_specs(gid)]
            out.append(d)
        return JSONResponse(out)

    lists: dict[str | None, tuple[float, int, bytes]] = {}  # status -> (made at, hub.list_version, the answer)

    async def list_rooms(request: Request) -> Response:
        """The newest rooms open to anyone; the answer is kept for LIST_SECONDS unless a room changed here."""
        status = request.query_params.get("status")
        if status is not None and status not in ROOM_LISTS:
            return _error(ClientError("bad_request", f"status must be one of {', '.join(ROOM_LISTS)}"))
        now = time.monotonic()
        got = lists.get(status)
        if got is None or now - got[0] > LIST_SECONDS or got[1] != hub().list_version:
            version = hub().list_version
            body = orjson.dumps(await hub().store.list_rooms(status))
            got = lists[status] = (now, version, body)
        return Response(got[2], media_type="application/json")

    async def create_room(request: Request) -> JSONResponse:
        try:
            body = await _body(request)
            game = _field(body, "game", str, required=True)
            options = _field(body, "options", dict, {})
            if "scenario" in body:
                options = {**options, "scenario": _field(body, "scenario", str)}
            seats = _field(body, "seats", list, required=True)
            if not all(isinstance(s, str) for s in seats):
                raise ClientError("bad_request", "field 'seats' must be a list of strings ('human' or 'bot:NAME')")
            seed = _field(body, "seed", int)
            if seed is not None and not 0 <= seed < 2**63:
                raise ClientError("bad_request", "field 'seed' must be in 0..2**63-1")
            out = await hub().create(game, options, seats, seed, _field(body, "seat", int), _name(body),
                                     clock=body.get("clock"), public=_field(body, "public", bool, False),
                                     client=client_id(client_key(request.scope)))
        except ClientError as exc:
            return _error(exc)
        return JSONResponse(out, status_code=201)

    async def room_code(request: Request) -> str:
        code = normalize_code(request.path_params["code"])
        if code is None:
            raise ClientError("unknown_room", f"{request.path_params['code']!r} is not a room code", 404)
        return code

    async def room_of(request: Request) -> tuple[str, Room]:
        """The code and the room a route names (ClientError ``unknown_room`` when there is none)."""
        code = await room_code(request)
        room = await hub().get(code)
        if room is None:
            raise ClientError("unknown_room", f"no room {code!r}", 404)
        return code, room

    async def finished_record(code: str, no: int) -> dict:
        """The stored record of match ``no`` of a room (ClientError ``not_finished`` while it has none)."""
        record = await hub().store.record(code, no)
        if record is None:
            raise ClientError("not_finished", f"match {no} of room {code} has no record yet (not finished)", 409)
        return record

    async def show_room(request: Request) -> JSONResponse:
        try:
            code, room = await room_of(request)
            await room.settled()
            return JSONResponse({**room.room_info(), "game": room.game.id, "options": room.session.options,
                                 "step": room.session.step})
        except ClientError as exc:
            return _error(exc)

    async def join_room(request: Request) -> JSONResponse:
        try:
            code = await room_code(request)
            body = await _body(request)
            out = await hub().join(code, _field(body, "seat", int), _name(body),
                                   client=client_id(client_key(request.scope)))
        except ClientError as exc:
            return _error(exc)
        return JSONResponse(out)

    async def room_record(request: Request) -> JSONResponse:
        try:
            code, room = await room_of(request)
            no = _query_int(request, "match", room.no, 1, MAX_MATCH)
            record = await finished_record(code, no)
        except ClientError as exc:
            return _error(exc)
        return JSONResponse(record, headers={"content-disposition": f'attachment; filename="{code}-{no}.json"'})

    replays = ReplayCache()

    async def room_replay(request: Request) -> JSONResponse:
        try:
            code, room = await room_of(request)
            no = _query_int(request, "match", room.no, 1, MAX_MATCH)
            step = _query_int(request, "step", 0, 0, MAX_MATCH)
            record = await finished_record(code, no)
            seats = record.get("seats") if isinstance(record, dict) else None
            try:  # full (the default: the match is over), spectator, or a seat number
                view = parse_view(request.query_params.get("view"), len(seats) if isinstance(seats, list) else 0)
            except ValueError as exc:
                raise ClientError("bad_request", str(exc), field="view") from None
            try:
                replay = await asyncio.to_thread(replays.get, (code, no), record, hub().games, view)
            except RecordError as exc:
                log.warning("room %s match %d: the record does not replay: %s", code, no, exc)
                raise ClientError("bad_record", f"the stored record does not replay: {exc}", 500) from None
        except ClientError as exc:
            return _error(exc)
        i = replay.at(step)
        return JSONResponse({"code": code, "match": no, "view": view, "positions": list(replay.positions), "index": i,
                             "step": replay.positions[i], "snapshot": replay.snapshots[i],
                             "events": list(replay.events[i])})

    def reviews() -> Reviews:
        if "reviews" not in state:
            state["reviews"] = Reviews(hub().bots, hub().games, server_budget(settings.review_budget))
        return state["reviews"]

    async def room_review(request: Request) -> JSONResponse:
        """POST: start the review of a finished match (server/reviews.py); GET: its progress, then the review."""
        try:
            code, room = await room_of(request)
            no = _query_int(request, "match", room.no, 1, MAX_MATCH)
            if request.method != "POST":
                return JSONResponse(reviews().status(code, no))
            await _body(request)  # bounded like every body; nothing in it is read yet
            record = await finished_record(code, no)
            try:
                out = reviews().start(code, no, record)
            except ReviewRefused as exc:
                raise ClientError(exc.code, exc.message, exc.status) from None
        except ClientError as exc:
            return _error(exc)
        return JSONResponse(out, status_code=200 if out["status"] == "done" else 202)

    async def room_briefing(request: Request) -> JSONResponse:
        """``GET /rooms/{code}/briefing?match=N&seat=S``: ``Game.briefing`` of that match for that seat (absent:
        a spectator), with the match's options and the seats' names."""
        try:
            code, room = await room_of(request)
            no = _query_int(request, "match", room.no, 1, room.no)
            if no == room.no:
                options, names = room.session.options, room.session.display_names()
            else:
                row = await hub().store.load_match(code, no, with_submissions=False)
                if row is None:
                    raise ClientError("bad_request", f"match {no} of room {code} is not stored", field="match")
                options, names = row.options, seat_names(row.seats)
            seat = _query_int(request, "seat", None, 0, len(names) - 1)  # absent: a spectator
        except ClientError as exc:
            return _error(exc)
        game = room.game
        try:
            briefing = check_briefing(game.briefing(options, seat, names), len(names))
        except Exception:  # a bug of the game's briefing: its default, logged
            log.exception("room %s: %s.briefing failed", code, game.id)
            briefing = Game.briefing.__func__(game, options, seat, names)
        return JSONResponse(briefing)

    from deltav.server.leaderboard import Leaderboard
    from deltav.server.matchmaking import Matchmaker

    board = Leaderboard()  # one per process: the leaderboard's routes and the quick match's rating bands

    def matchmaker() -> Matchmaker:
        if "matchmaker" not in state:
            state["matchmaker"] = Matchmaker(hub(), board)
        return state["matchmaker"]

    async def queue_join(request: Request) -> JSONResponse:
        """``POST /queue``: join the quick-match queue (server/matchmaking.py)."""
        try:
            body = await _body(request)
            out = await matchmaker().join(client_id(client_key(request.scope)), _field(body, "game", str, required=True),
                                          _field(body, "scenario", str), _field(body, "players", int), _name(body))
        except ClientError as exc:
            return _error(exc)
        return JSONResponse(out, status_code=201)

    async def queue_ticket(request: Request) -> JSONResponse:
        """``POST /queue/poll``, ``/queue/cancel``, ``/queue/bots`` with ``{"ticket", ...}``: the ticket (which is
        the seat's token once matched) travels in the body, never in an address (addresses end up in logs)."""
        try:
            body = await _body(request)
            ticket = _field(body, "ticket", str, required=True)
            action = request.url.path.rstrip("/").rsplit("/", 1)[1]
            if action == "cancel":
                return JSONResponse(await matchmaker().cancel(ticket))
            if action == "bots":
                return JSONResponse(await matchmaker().agree_bots(ticket, body.get("bot")))
            return JSONResponse(await matchmaker().poll(ticket))
        except ClientError as exc:
            return _error(exc)

    sockets_by_address: dict[str, int] = {}

    async def ws_match(ws: WebSocket) -> None:
        """A room's WebSocket, counted against its address's limit of open sockets (close 4029 beyond it)."""
        key = client_key(ws.scope)
        cap = settings.limits.sockets_per_address
        if sockets_by_address.get(key, 0) >= cap:
            await ws.accept()
            with contextlib.suppress(WebSocketDisconnect):  # it may hang up first
                await ws.send_json({"type": "error", "code": "too_many_sockets", "message": f"at most {cap} connections "
                                    "from one address at a time: close some (other tabs, other rooms) and try again"})
                await ws.close(CLOSE_TOO_MANY, "too many sockets")
            return
        sockets_by_address[key] = sockets_by_address.get(key, 0) + 1
        try:
            await room_socket(ws)
        except WebSocketDisconnect:  # the client hung up while it was answered (a refusal, a redirect): no one to tell
            pass
        finally:
            left = sockets_by_address[key] - 1
            if left:
                sockets_by_address[key] = left
            else:
                del sockets_by_address[key]

    async def room_socket(ws: WebSocket) -> None:
        await ws.accept()
        if "token" in ws.query_params:  # an old client: a token in an address ends up in logs
            await ws.send_json({"type": "error", "code": "token_in_url", "message": "this server takes a seat's token "
                                "in the first message ({\"type\": \"hello\", \"token\": ...}), never in the address "
                                "(addresses end up in logs): update the client"})
            await ws.close(4003, "token_in_url")
            return
        code = normalize_code(ws.path_params["code"])
        room = await hub().get(code) if code is not None else None
        if room is None:
            await ws.send_json({"type": "error", "code": "unknown_room", "message": f"no room {ws.path_params['code']!r}"})
            await ws.close(4004, "unknown room")
            return
        if "candidates" in ws.query_params:  # an old client: candidates are asked with ``suggest`` messages now
            await ws.send_json({"type": "error", "code": "bad_candidates", "message": "this server gives the bots' "
                                "candidates in answer to a {\"type\": \"suggest\", \"bots\": [...]} message, not for "
                                "a ?candidates= query (docs/server.md, \"Advice\"): update the client"})
            await ws.close(4000, "bad_candidates")
            return
        try:
            token = await hello(ws)
        except ClientError as exc:
            await ws.send_json(exc.to_json())
            await ws.close(4003, exc.code)
            return
        except WebSocketDisconnect:
            return
        try:
            try:
                conn = await room.attach(ws, token, client_id(client_key(ws.scope)))
            except ClientError as exc:
                if exc.code != "evicted":
                    raise
                room = await hub().get(code)  # unloaded while it waited: the room as loaded again
                if room is None:
                    raise ClientError("unknown_room", f"no room {code!r}", 404) from None
                conn = await room.attach(ws, token, client_id(client_key(ws.scope)))
        except ClientError as exc:
            if exc.code == "redirect":  # several processes: this room's seats play on its owner
                await ws.send_json({"type": "redirect", "url": exc.extra["url"], "message": exc.message})
                await ws.close(4010, "redirect")
                return
            await ws.send_json(exc.to_json())
            await ws.close(CLOSE_TOO_MANY if exc.status == 429 else 4003, exc.code)
            return
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    break
                try:
                    await room.handle(conn, msg.get("text"))
                except Exception:  # a bug must not take the connection or the room down
                    log.exception("room %s: message handling failed", room.code)
                    # with the message's id, so that a request waiting for its answer (suggest) ends too
                    conn.send({"type": "error", "code": "internal", "message": "the server failed on this message",
                               "id": message_ref(msg.get("text"))})
                if conn.closed:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            await room.detach(conn)

    routes = [
        Route("/", page("index.html")),
        Route("/play/{code}", page("index.html")),
        Route("/watch/{code}", page("index.html")),
        Route("/replay/{code}", page("index.html")),
        Route("/board", page("board.html")),
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", metrics),
        Route("/games", games),
        Route("/games/{game}/board", game_board),
        Route("/rooms", list_rooms, methods=["GET"]),
        Route("/rooms", create_room, methods=["POST"]),
        Route("/rooms/{code}", show_room),
        Route("/rooms/{code}/join", join_room, methods=["POST"]),
        Route("/rooms/{code}/record", room_record),
        Route("/rooms/{code}/replay", room_replay),
        Route("/rooms/{code}/briefing", room_briefing),
        Route("/rooms/{code}/review", room_review, methods=["GET", "POST"]),
        Route("/queue", queue_join, methods=["POST"]),
        Route("/queue/poll", queue_ticket, methods=["POST"]),
        Route("/queue/cancel", queue_ticket, methods=["POST"]),
        Route("/queue/bots", queue_ticket, methods=["POST"]),
        WebSocketRoute("/ws/{code}", ws_match),
    ]
    from deltav.server import leaderboard

    routes += leaderboard.routes(board)  # GET /leaderboard?game= (JSON) and /leaderboard.html
    if mcp_mount:
        routes.append(mcp_mount[0])
    if client is not None:  # the bundle, its chunks, the style sheet, the icon (docs/web.md); last: a catch-all
        routes.append(Mount("/", app=StaticFiles(directory=client), name="client"))
    async def store_down(request: Request, exc: Exception) -> JSONResponse:
        """A write the database refused (at once while it refuses writes): 503, nothing changed."""
        h = state.get("hub")
        if h is not None and not h.store.health.writable:
            retry = max(1, round(getattr(exc, "retry_after", 1.0)))
            return JSONResponse({"error": "store_unavailable", "message": "the server cannot save anything right now "
                                 "(its database refuses writes); nothing changed: try again in a few seconds"},
                                status_code=503, headers={"retry-after": str(retry)})
        log.error("request %s %s failed: %s", request.method, request.url.path, exc)
        return JSONResponse({"error": "internal", "message": "the server failed on this request"}, status_code=500)

    from sqlalchemy.exc import DBAPIError

    handlers = {StoreUnavailable: store_down, DBAPIError: store_down}
    # the gate in front of every route: rate limits per address, Origin and JSON of changes, headers (guard.py)
    gate = [Middleware(Guard, limits=settings.limits, allowed_origins=settings.allowed_origins)]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers, middleware=gate)
