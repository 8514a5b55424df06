"""A Python client of the deltav server's protocol (docs/server.md), for remote agents and scripts.

- :mod:`deltav.client.rooms`: create, join and read rooms over HTTP (standard library ``urllib``);
- :mod:`deltav.client.seat`: one seat's (or a spectator's) WebSocket, async (:class:`AsyncSeat`) and a thin
  synchronous wrapper (:class:`Seat`): snapshots, submissions with their step, refusals, reconnection;
- :mod:`deltav.client.players`: deciders for :meth:`AsyncSeat.play`: a built-in bot that gets exactly the
  ``Decision`` a local bot gets, and any program speaking the JSON-lines protocol on stdin/stdout;
- :mod:`deltav.client.agent`: ``deltav agent``; :mod:`deltav.client.mcptools`: the MCP server for LLM agents
  (``deltav mcp``, and mounted on ``deltav serve``; needs the ``mcp`` extra).

Needs ``websockets`` (``pip install -e '.[client]'``). This package owns the client side only: it imports the
engines (to decode actions for built-in bots) but nothing of the server.
"""

from deltav.client.rooms import ServerError, create_room, get_room, join_room, room_record
from deltav.client.seat import AsyncSeat, Refused, Seat

__all__ = ["AsyncSeat", "Refused", "Seat", "ServerError", "create_room", "get_room", "join_room", "room_record"]
