"""The gate in front of every route (an ASGI middleware): rate limits per client address, where requests that
change state may come from, and the security headers of every answer (docs/server.md, "Limits" and "Privacy
and browser security").

- **Rates**: each request, and each WebSocket opened, takes a token from its address's bucket for its class of
  route (:func:`route_class`; the rates are ``limits.RATES``). Over the rate, an HTTP request gets 429
  ``rate_limited`` with ``Retry-After`` and the limit in words; a WebSocket is accepted, told the same in an
  ``error`` message and closed with 4029 (a browser cannot read an HTTP refusal of a WebSocket). A room code that
  names no room (a 404 of ``/rooms/{code}...``, a socket closed 4004) also takes a token, of ``miss``: once an
  address has missed too often, every request naming a room code is refused (guessing the codes of private rooms
  is slow).
- **Origin**: a request that changes state (POST, PUT, PATCH, DELETE) must come from this server's own pages (an
  ``Origin`` whose host and port are the ``Host`` the request was sent to), from an origin the operator allowed
  (``--allow-origin``), or carry no ``Origin`` at all (programs: ``deltav agent``, curl; a browser always sends one
  on these requests). Otherwise 403 ``bad_origin``. ``/mcp`` is left to the MCP SDK's own Host and Origin checks.
  WebSockets are not checked: a seat's socket acts only with the token its hello carries (no cookie a page
  elsewhere could ride on), and with several processes a page's socket goes to another process's address.
- **JSON only**: a request that changes state must say ``Content-Type: application/json`` (415
  ``unsupported_media_type``): a page on another site can send a form or a ``text/plain`` body without asking,
  but not JSON (the browser asks first, and this server answers no such question).
- **Headers** on every HTTP answer: :data:`SECURITY_HEADERS` (a Content-Security-Policy with
  ``frame-ancestors 'none'``, so no site can frame ``/play/CODE``; ``nosniff``; no referrer).

This module owns that policy only: what a route does is ``app``'s, the numbers and buckets ``limits``'.
"""

from __future__ import annotations

from typing import Any

import orjson

from deltav.server.limits import RateLimiter, client_key

CLOSE_TOO_MANY = 4029  # a socket refused for a limit (a rate, too many sockets from an address or in a room)
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})

#: The Content-Security-Policy of every answer: scripts, styles, images and fonts from this server only (inline
#: styles allowed: the leaderboard page has its own), sockets to any server (several processes redirect a seat
#: to the room's owner), no plugin, no <base>, forms to this server only, and no framing by anyone.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "font-src 'self' data:; connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),  # the same for browsers older than frame-ancestors
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # a /play/CODE or /watch/CODE address never leaves in a Referer
]

#: What each class of route is, for the words of a refusal.
WHAT = {
    "create": "rooms created", "join": "seats taken", "list": "room lists", "replay": "replays and records",
    "review": "game reviews asked for or followed",
    "socket": "connections opened", "mcp": "MCP calls", "read": "requests", "miss": "unknown room codes",
}


def route_class(method: str, path: str, websocket: bool = False) -> str:
    """The bucket a request draws from (the keys of ``limits.RATES``)."""
    if websocket:
        return "socket"
    if path.startswith("/mcp"):
        return "mcp"
    parts = path.strip("/").split("/")
    if parts[0] == "rooms":
        if len(parts) == 1:
            return "create" if method == "POST" else "list"
        if len(parts) == 3 and parts[2] == "join":
            return "join"
        if len(parts) == 3 and parts[2] in ("replay", "record"):
            return "replay"
        if len(parts) == 3 and parts[2] == "review":
            return "review"
    if parts[0] == "queue":
        return "queue"
    return "read"


def names_a_room(path: str, websocket: bool) -> bool:
    """Whether a request names a room code (``/rooms/{code}...``, ``/ws/{code}``): what a code guesser sends."""
    parts = path.strip("/").split("/")
    return len(parts) >= 2 and parts[0] in (("ws",) if websocket else ("rooms",))


def rate_words(rate: float, burst: int) -> str:
    per = f"{rate * 60:g} a minute" if rate < 1 else f"{rate:g} a second"
    return f"at most {per} (bursts of {burst})"


def header(scope: dict, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k == name:
            return v.decode("latin-1")
    return None


def origin_ok(scope: dict, allowed: tuple[str, ...] = ()) -> str | None:
    """None when the request may change state here (no Origin, this server's own, or an allowed one), else the
    foreign origin."""
    origin = header(scope, b"origin")
    if origin is None:
        return None
    origin = origin.strip().rstrip("/")
    if origin.lower() in {a.lower() for a in allowed}:
        return None
    host = (header(scope, b"host") or "").strip().lower()
    scheme, _, netloc = origin.lower().partition("://")
    default = {"http": ":80", "https": ":443"}.get(scheme, "")
    if netloc and scheme in ("http", "https") and (netloc == host or netloc + default == host
                                                    or netloc == host + default):
        return None
    return origin


class Guard:
    """The ASGI middleware: ``Guard(app, limits, allowed_origins)``."""

    def __init__(self, app: Any, limits: Any, allowed_origins: tuple[str, ...] = ()):
        self.app = app
        self.limits = limits
        self.allowed = tuple(allowed_origins)
        self.rates = RateLimiter(limits.rates, limits.max_buckets)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if kind == "http":
            send = with_headers(send)
        route = route_class(scope.get("method", "GET"), scope["path"], kind == "websocket")
        key = client_key(scope)
        wait = self.rates.take(key, route)
        guessing = names_a_room(scope["path"], kind == "websocket")
        if not wait and guessing and self.rates.wait(key, "miss"):
            route, wait = "miss", self.rates.wait(key, "miss")
        if wait:
            rate, burst = self.limits.rates[route]
            retry = RateLimiter.retry_after(wait)
            message = (f"too many {WHAT[route]} from your address: {rate_words(rate, burst)}; "
                       f"try again in {retry} s")
            if kind == "websocket":
                await refuse_socket(receive, send, "rate_limited", message)
            else:
                await answer(send, 429, {"error": "rate_limited", "message": message},
                             [(b"retry-after", str(retry).encode())])
            return
        changes = kind == "http" and scope.get("method") in STATE_CHANGING and route != "mcp"
        foreign = origin_ok(scope, self.allowed) if changes else None
        if foreign is not None:
            await answer(send, 403, {"error": "bad_origin", "message": "this server takes changes only from its own "
                                     "pages (or from programs, which send no Origin), not from a page of " + foreign})
            return
        if changes:
            ctype = (header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await answer(send, 415, {"error": "unsupported_media_type", "message": "send the request body as "
                                         "JSON, with Content-Type: application/json"
                                         + (f" (not {ctype})" if ctype else "")})
                return
        if guessing:
            send = self.counting_misses(send, key)
        await self.app(scope, receive, send)

    def counting_misses(self, send: Any, key: str) -> Any:
        """``send`` taking a ``miss`` token from ``key`` when the answer says no such room (404, close 4004)."""
        async def counted(message: dict) -> None:
            if (message["type"] == "http.response.start" and message.get("status") == 404) or (
                    message["type"] == "websocket.close" and message.get("code") == 4004):
                self.rates.take(key, "miss")
            await send(message)

        return counted


def with_headers(send: Any) -> Any:
    """``send`` adding SECURITY_HEADERS to the start of an HTTP answer (an answer's own headers stay)."""
    async def guarded(message: dict) -> None:
        if message["type"] == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return guarded


async def answer(send: Any, status: int, body: dict, headers: list | None = None) -> None:
    data = orjson.dumps(body)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": data})


async def refuse_socket(receive: Any, send: Any, code: str, message: str, close: int = CLOSE_TOO_MANY) -> None:
    """Accept a WebSocket only to say why it is refused, then close it (4029: a limit)."""
    msg = await receive()
    if msg["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": orjson.dumps({"type": "error", "code": code,
                                                                 "message": message}).decode()})
    await send({"type": "websocket.close", "code": close, "reason": code})
