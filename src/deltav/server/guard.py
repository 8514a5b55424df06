"""The gate in front of every route (an ASGI middleware): rate limits per client address.

Each request, and each WebSocket opened, takes a token from its address's bucket for its class of route
(:func:`route_class`; the rates are ``limits.RATES``). Over the rate, an HTTP request gets 429
``rate_limited`` with ``Retry-After`` and the limit in words; a WebSocket is accepted, told the same in an
``error`` message and closed with 4029 (a browser cannot read an HTTP refusal of a WebSocket).

This module owns that policy only: what a route does is ``app``'s, the numbers and buckets ``limits``'.
"""

from __future__ import annotations

from typing import Any

import orjson

from deltav.server.limits import RateLimiter, client_key

CLOSE_TOO_MANY = 4029  # a socket refused for a limit (a rate, too many sockets from an address or in a room)

#: What each class of route is, for the words of a refusal.
WHAT = {
    "create": "rooms created", "join": "seats taken", "list": "room lists", "replay": "replays and records",
    "socket": "connections opened", "mcp": "MCP calls", "read": "requests",
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
    return "read"


def rate_words(rate: float, burst: int) -> str:
    per = f"{rate * 60:g} a minute" if rate < 1 else f"{rate:g} a second"
    return f"at most {per} (bursts of {burst})"


class Guard:
    """The ASGI middleware: ``Guard(app, limits)``."""

    def __init__(self, app: Any, limits: Any):
        self.app = app
        self.limits = limits
        self.rates = RateLimiter(limits.rates, limits.max_buckets)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        route = route_class(scope.get("method", "GET"), scope["path"], kind == "websocket")
        wait = self.rates.take(client_key(scope), route)
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
        await self.app(scope, receive, send)


async def answer(send: Any, status: int, body: dict, headers: list | None = None) -> None:
    data = orjson.dumps(body)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                            *(headers or [])]})
    await send({"type": "http.response.body", "body": data})


async def refuse_socket(receive: Any, send: Any, code: str, message: str) -> None:
    """Accept a WebSocket only to say why it is refused, then close it with 4029."""
    msg = await receive()
    if msg["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": orjson.dumps({"type": "error", "code": code,
                                                                 "message": message}).decode()})
    await send({"type": "websocket.close", "code": CLOSE_TOO_MANY, "reason": code})
