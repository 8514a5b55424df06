"""The authoritative online game server: rooms, seats, bot seats, spectators, reconnection, durable matches.

Layers (imports point down): ``app`` (Starlette routes and the WebSocket handler) -> ``rooms`` (one owner
object per room holding its :class:`~deltav.core.session.Session`, its sockets and timers) -> ``store`` (the
database, the truth: every accepted submission is written before anyone is told) and ``bots`` (bot seats
deciding in a process pool) -> ``deltav.agents`` and ``deltav.core``. ``tokens`` makes room codes and seat
tokens. Nothing below imports this package; docs/server.md describes every route and message.
"""
