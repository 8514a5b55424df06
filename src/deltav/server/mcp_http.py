"""The MCP server for LLM agents on streamable HTTP, mounted at ``/mcp`` on ``deltav serve``.

The same tools as ``deltav mcp`` (:mod:`deltav.client.mcptools`) in their stateless form: nothing is held
between calls, so ``create_room``/``join_room`` return the seat's token and the other tools take it; each call
speaks to this very server over its own HTTP routes and WebSocket, exactly as a remote agent does (the seat
is then a human seat like any other). The SDK's DNS-rebinding protection admits localhost Host headers only
(agents elsewhere run ``deltav mcp --server URL`` next to themselves). Mounted only when the ``mcp`` package is
installed. This module owns the mount and the MCP session manager's lifetime only.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

PATH = "/mcp"


def mount() -> tuple[Any, Any] | None:
    """``(Mount, lifespan)`` for the app, or None without the ``mcp`` package. ``lifespan()`` is an async
    context manager to hold open while the server runs."""
    try:
        from starlette.routing import Mount

        from deltav.client.mcptools import build
    except ImportError:
        return None
    server = build(None, stateless=True)
    app = server.streamable_http_app(streamable_http_path="/", stateless_http=True)

    @contextlib.asynccontextmanager
    async def lifespan() -> AsyncIterator[None]:
        async with server.session_manager.run():
            yield

    return Mount(PATH, app=app), lifespan
