"""The server's HTTP routes seen from a client: create, join and read rooms, fetch a finished record.

Standard library ``urllib`` only (two JSON requests per match do not justify a dependency). Every error
answer becomes a :class:`ServerError` carrying the server's ``code`` and ``message``; a server that cannot be
reached is a ``ServerError`` with code ``unreachable``. This module owns HTTP only.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from deltav.core.errors import DeltavError


class ServerError(DeltavError):
    """The server refused a request (``code`` as in docs/server.md), or could not be reached."""

    def __init__(self, code: str, message: str, status: int | None = None, **extra: Any):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra


def http_base(url: str) -> str:
    """``http(s)://host:port`` from a server URL given as http(s):// or ws(s):// (a trailing slash is dropped)."""
    url = url.strip().rstrip("/")
    if url.startswith("ws://"):
        url = "http://" + url[5:]
    elif url.startswith("wss://"):
        url = "https://" + url[6:]
    elif "://" not in url:
        url = "http://" + url
    if not url.startswith(("http://", "https://")):
        raise ServerError("bad_url", f"{url!r} is not an http(s):// or ws(s):// URL")
    return url


def ws_base(url: str) -> str:
    base = http_base(url)
    return "ws://" + base[7:] if base.startswith("http://") else "wss://" + base[8:]


def request(server: str, method: str, path: str, body: dict | None = None, timeout: float = 30.0) -> Any:
    """One JSON request; returns the decoded answer or raises ServerError."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(http_base(server) + path, data=data, method=method,
                                 headers={"content-type": "application/json", "accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            obj = json.loads(raw)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and "error" in obj:
            extra = {k: v for k, v in obj.items() if k not in ("error", "message")}
            raise ServerError(str(obj["error"]), str(obj.get("message", "")), e.code, **extra) from None
        raise ServerError("http", f"HTTP {e.code} from {path}", e.code) from None
    except (urllib.error.URLError, OSError) as e:
        raise ServerError("unreachable", f"cannot reach {server}: {getattr(e, 'reason', e)}") from None
    except ValueError:
        raise ServerError("bad_answer", f"the answer to {method} {path} is not JSON") from None


def create_room(server: str, game: str, seats: list[str], options: dict | None = None, seed: int | None = None,
                seat: int | None = None, name: str | None = None) -> dict:
    """``POST /rooms``: ``{"code", "match", "seat", "token", "room"}`` (token None when no seat is human)."""
    body: dict[str, Any] = {"game": game, "seats": list(seats), "options": dict(options or {})}
    for key, v in (("seed", seed), ("seat", seat), ("name", name)):
        if v is not None:
            body[key] = v
    return request(server, "POST", "/rooms", body)


def join_room(server: str, code: str, seat: int | None = None, name: str | None = None) -> dict:
    """``POST /rooms/{code}/join``: take a free human seat; ``{"code", "match", "seat", "token", "room"}``."""
    body = {k: v for k, v in (("seat", seat), ("name", name)) if v is not None}
    return request(server, "POST", f"/rooms/{urllib.parse.quote(code, safe='')}/join", body)


def get_room(server: str, code: str) -> dict:
    return request(server, "GET", f"/rooms/{urllib.parse.quote(code, safe='')}")


def room_record(server: str, code: str, match: int | None = None) -> dict:
    """The finished match's record (``deltav-record/1``); ServerError ``not_finished`` before the end."""
    q = f"?match={int(match)}" if match is not None else ""
    return request(server, "GET", f"/rooms/{urllib.parse.quote(code, safe='')}/record{q}")
