"""uvicorn's WebSocket protocol (websockets' sans-I/O one) with bounded closing.

Two changes to ``WebSocketsSansIOProtocol``, both about a peer that stops reading (its TCP window full):

- the app can abort the connection: the scope carries ``extensions["deltav.transport"]["abort"]``
  (``conns.Conn`` calls it when a socket told to close has not closed within its close time);
- a close that the peer never answers ends in an abort: after the app's close frame, and after a keepalive ping
  timeout, uvicorn calls ``transport.close()``, which waits for the write buffer to drain, and a peer that does
  not read never drains it, so the connection (and its buffers) stayed for good. Here the transport is aborted
  :data:`CLOSE_SECONDS` later if it has not gone by then.

This module owns that transport plumbing only (``run.make_server`` passes it to uvicorn as ``ws``).
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from deltav.server.conns import CLOSE_SECONDS


class BoundedCloseProtocol(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # set when the handshake is accepted (the app runs next)
        if scope is not None:
            scope["extensions"]["deltav.transport"] = {"abort": self.abort}

    def abort(self) -> None:
        """Drop the TCP connection now (buffered data is discarded)."""
        if self.transport is not None and not self.disconnected:
            self.transport.abort()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message.get("type") == "websocket.close" and self.close_timer is not None:
            # uvicorn closes (and waits to flush) after its close time: abort instead
            self.close_timer.cancel()
            self.close_timer = self.loop.call_later(CLOSE_SECONDS, self.abort)

    def keepalive_timeout(self) -> None:
        super().keepalive_timeout()
        self.loop.call_later(CLOSE_SECONDS, self.abort)
