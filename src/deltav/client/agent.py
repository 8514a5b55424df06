"""``deltav agent``: one remote seat played to the end of its match by a bot or a program.

Joins a free human seat when asked (printing the token, so the seat can be taken back after a crash), connects,
plays with a :class:`~deltav.client.players.BotPlayer` or :class:`~deltav.client.players.CommandPlayer`, and
returns the final snapshot. This module owns that sequence only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from deltav.client.players import BotPlayer, CommandPlayer
from deltav.client.rooms import ServerError, join_room
from deltav.client.seat import AsyncSeat


def take_seat(server: str, code: str, seat: int | None = None, name: str | None = None) -> dict:
    """Join room ``code`` (a free human seat, or ``seat``): the join answer with its ``token``."""
    return join_room(server, code, seat, name)


def run_agent(server: str, code: str, token: str, player: BotPlayer | CommandPlayer, candidates: Sequence[str] = (),
              on_state: Callable[[dict], None] | None = None) -> dict:
    """Play ``token``'s seat of room ``code`` to the end of the match; the final state message."""
    if not token:
        raise ServerError("bad_token", "a seat token is needed (join the room first)")

    async def main() -> dict:
        async with AsyncSeat(server, code, token, candidates=candidates) as seat:
            return await player.run(seat, on_state)

    return asyncio.run(main())
