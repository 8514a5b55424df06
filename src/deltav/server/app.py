"""The Starlette application: HTTP routes for games and rooms, the WebSocket of a match, start and shutdown.

Routes (docs/server.md has every JSON form): ``GET /``, ``GET /healthz``, ``GET /games``, ``GET /rooms``,
``POST /rooms``, ``GET /rooms/{code}``, ``POST /rooms/{code}/join``, ``GET /rooms/{code}/record``, and the
WebSocket ``/ws/{code}?token=...`` (no token: a spectator). On start the store is opened (and migrated) and
every unfinished room is reloaded before ``/healthz`` answers 200.

This module owns HTTP and WebSocket plumbing only; rooms own the rules of play.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from deltav.server.rooms import ClientError, Hub, Settings
from deltav.server.store import Store, default_url
from deltav.server.tokens import normalize_code

log = logging.getLogger("deltav.server")

MAX_BODY_BYTES = 64 * 1024
ROOM_LISTS = ("open", "live", "finished")

INDEX = """<!doctype html><meta charset="utf-8"><title>deltav server</title>
<h1>deltav</h1><p>The game server is running. The JSON API and the WebSocket protocol are described in
docs/server.md. <a href="/games">games</a> &middot; <a href="/rooms">rooms</a> &middot;
<a href="/client/">the tactical board preview</a> (the browser game screens are being built)</p>"""


def _error(exc: ClientError) -> JSONResponse:
    return JSONResponse({"error": exc.code, "message": exc.message, **exc.extra}, status_code=exc.status)


async def _body(request: Request) -> dict:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        raise ClientError("too_large", f"a request body may hold at most {MAX_BODY_BYTES} bytes", 413)
    if not raw.strip():
        return {}
    try:
        obj = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ClientError("bad_json", f"the body is not valid JSON ({exc})") from None
    if not isinstance(obj, dict):
        raise ClientError("bad_request", "the body must be a JSON object")
    return obj


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


def create_app(db_url: str | None = None, settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    state: dict[str, Any] = {}
    from deltav.server import mcp_http

    mcp_mount = mcp_http.mount()  # the MCP server on streamable HTTP at /mcp (when the mcp package is there)

    def hub() -> Hub:
        return state["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        from deltav.games import load_all

        store = await Store.open(db_url or default_url())
        state["hub"] = Hub(store, settings, load_all())
        restored = await hub().restore()
        log.info("deltav server ready (%d rooms restored)", restored)
        app.state.hub = hub()
        try:
            yield
        finally:
            if mcp_mount:
                await mcp_mount[1].close()
            await hub().close()
            await store.close()

    async def index(request: Request) -> HTMLResponse:
        return HTMLResponse(INDEX)

    async def healthz(request: Request) -> JSONResponse:
        h = state.get("hub")
        if h is None or not h.ready:
            return JSONResponse({"status": "starting"}, status_code=503)
        return JSONResponse({"status": "ok", "rooms": len(h.rooms)})

    async def games(request: Request) -> JSONResponse:
        from deltav.agents.registry import available_specs

        out = []
        for gid, game in sorted(hub().games.items()):
            d = game.describe()
            d["bots"] = [f"bot:{n}" for n in available_specs(gid)]
            out.append(d)
        return JSONResponse(out)

    async def list_rooms(request: Request) -> JSONResponse:
        status = request.query_params.get("status")
        if status is not None and status not in ROOM_LISTS:
            return _error(ClientError("bad_request", f"status must be one of {', '.join(ROOM_LISTS)}"))
        return JSONResponse(await hub().store.list_rooms(status))

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
            out = await hub().create(game, options, seats, seed, _field(body, "seat", int), _name(body))
        except ClientError as exc:
            return _error(exc)
        return JSONResponse(out, status_code=201)

    async def room_code(request: Request) -> str:
        code = normalize_code(request.path_params["code"])
        if code is None:
            raise ClientError("unknown_room", f"{request.path_params['code']!r} is not a room code", 404)
        return code

    async def show_room(request: Request) -> JSONResponse:
        try:
            code = await room_code(request)
            room = await hub().get(code)
            if room is None:
                raise ClientError("unknown_room", f"no room {code!r}", 404)
            return JSONResponse({**room.room_info(), "game": room.game.id, "options": room.session.options,
                                 "step": room.session.step})
        except ClientError as exc:
            return _error(exc)

    async def join_room(request: Request) -> JSONResponse:
        try:
            code = await room_code(request)
            body = await _body(request)
            out = await hub().join(code, _field(body, "seat", int), _name(body))
        except ClientError as exc:
            return _error(exc)
        return JSONResponse(out)

    async def room_record(request: Request) -> JSONResponse:
        try:
            code = await room_code(request)
            room = await hub().get(code)
            if room is None:
                raise ClientError("unknown_room", f"no room {code!r}", 404)
            raw = request.query_params.get("match")
            try:
                no = int(raw) if raw is not None else room.no
            except ValueError:
                raise ClientError("bad_request", "match must be an integer") from None
            record = await hub().store.record(code, no)
            if record is None:
                raise ClientError("not_finished", f"match {no} of room {code} has no record yet (not finished)", 409)
        except ClientError as exc:
            return _error(exc)
        return JSONResponse(record, headers={"content-disposition": f'attachment; filename="{code}-{no}.json"'})

    async def ws_match(ws: WebSocket) -> None:
        await ws.accept()
        code = normalize_code(ws.path_params["code"])
        room = await hub().get(code) if code is not None else None
        if room is None:
            await ws.send_json({"type": "error", "code": "unknown_room", "message": f"no room {ws.path_params['code']!r}"})
            await ws.close(4004, "unknown room")
            return
        from deltav.server import candidates

        try:
            specs = candidates.parse(ws.query_params.get("candidates"), room.game.id)
        except ClientError as exc:
            await ws.send_json(exc.to_json())
            await ws.close(4000, exc.code)
            return
        sock = candidates.CandidateSocket(ws, room, specs) if specs else ws
        try:
            conn = await room.attach(sock, ws.query_params.get("token") or None)
        except ClientError as exc:
            await ws.send_json(exc.to_json())
            await ws.close(4003, exc.code)
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
                    conn.send({"type": "error", "code": "internal", "message": "the server failed on this message"})
                if conn.closed:
                    break
        except WebSocketDisconnect:
            pass
        finally:
            await room.detach(conn)

    routes = [
        Route("/", index),
        Route("/healthz", healthz),
        Route("/games", games),
        Route("/rooms", list_rooms, methods=["GET"]),
        Route("/rooms", create_room, methods=["POST"]),
        Route("/rooms/{code}", show_room),
        Route("/rooms/{code}/join", join_room, methods=["POST"]),
        Route("/rooms/{code}/record", room_record),
        WebSocketRoute("/ws/{code}", ws_match),
    ]
    from deltav.server import leaderboard

    routes += leaderboard.routes()  # GET /leaderboard?game= (JSON) and /leaderboard.html
    if mcp_mount:
        routes.append(mcp_mount[0])
    from deltav import web_static

    if web_static.is_built():  # the browser client (docs/web.md): for now the tactical board preview
        from starlette.routing import Mount
        from starlette.staticfiles import StaticFiles

        routes.append(Mount("/client", app=StaticFiles(directory=web_static.static_dir(), html=True), name="client"))
    return Starlette(routes=routes, lifespan=lifespan)
