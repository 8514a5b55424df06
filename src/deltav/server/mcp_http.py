"""The MCP server for LLM agents on streamable HTTP, mounted at ``/mcp`` on ``deltav serve``.

The same tools as ``deltav mcp`` (:mod:`deltav.client.mcptools`) in their stateless form: nothing is held
between calls, so ``create_room``/``join_room`` return the seat's token and the other tools take it; each call
speaks to this very server over its own HTTP routes and WebSocket, exactly as a remote agent does (the seat
is then a human seat like any other). The SDK's DNS-rebinding protection admits localhost Host headers only
(agents elsewhere run ``deltav mcp --server URL`` next to themselves).

Mounted only when the ``mcp`` package is installed, and built at the first request to ``/mcp`` (importing the
SDK costs seconds, which ``deltav serve``'s start should not pay); the MCP session manager then runs in its own
task until :meth:`LazyMCP.close`. This module owns the mount and the session manager's lifetime only.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
from typing import Any

PATH = "/mcp"


class LazyMCP:
    """An ASGI app that builds the MCP streamable-HTTP app on its first request."""

    def __init__(self) -> None:
        self.app: Any = None
        self._lock = asyncio.Lock()
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task | None = None

    async def _build(self) -> None:
        mcptools = await asyncio.to_thread(importlib.import_module, "deltav.client.mcptools")
        server = mcptools.build(None, stateless=True)
        app = server.streamable_http_app(streamable_http_path="/", stateless_http=True)
        ready, self._stop = asyncio.Event(), asyncio.Event()

        async def run() -> None:
            async with server.session_manager.run():
                ready.set()
                await self._stop.wait()

        self._task = asyncio.create_task(run())
        await ready.wait()
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope.get("type") == "http" and scope.get("method") == "GET":
            # the SDK would open a stream of server-initiated messages and hold it forever; stateless tools never
            # send any, so a GET only held a connection (found by benchmarks/fuzz.py --server)
            from starlette.responses import JSONResponse

            answer = JSONResponse({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32600, "message": "Method Not Allowed: this stateless endpoint sends nothing unasked; POST "
                                           "your requests"}}, status_code=405, headers={"allow": "POST"})
            await answer(scope, receive, send)
            return
        if self.app is None:
            async with self._lock:
                if self.app is None:
                    await self._build()
        await self.app(scope, receive, send)

    async def close(self) -> None:
        if self._stop is not None:
            self._stop.set()
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._task, 10)


def mount() -> tuple[Any, LazyMCP] | None:
    """``(Mount, LazyMCP)`` for the app, or None without the ``mcp`` package (close the LazyMCP on shutdown)."""
    if importlib.util.find_spec("mcp") is None:
        return None
    from starlette.routing import Mount

    lazy = LazyMCP()
    return Mount(PATH, app=lazy), lazy
