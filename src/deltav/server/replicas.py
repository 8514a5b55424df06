"""Several processes: keeping each room this process holds in step with the database, the one truth.

The bus (``cluster.Bus``) carries notices of ``(room, match, seq)`` only. :class:`Replicas` (one per hub, with
several processes only) turns them into database reads:

- :meth:`on_notice`: a stored submission (``seq`` >= 0) makes a replica catch up (:meth:`catch_up`: apply the
  submissions stored since its own, then show its spectators the new state); a change of seats, status or meta
  (``seq`` -1) makes any holder re-read the room's row (:meth:`refresh`: a seat taken through another process,
  a forfeit, a rematch, the owner's live info);
- :meth:`share_info`: the owner's live info (connected seats, grace deadlines) written to its lease row for the
  replicas' spectators, then a notice;
- :meth:`round` (every lease round): replicas with spectators catch up even when a notice was lost.

This module owns replicas' freshness only; who owns a room is ``leases``, the rules of play ``rooms``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from deltav.core.errors import DeltavError

if TYPE_CHECKING:
    from deltav.server.rooms import Room

log = logging.getLogger("deltav.server")


class Replicas:
    """The database reads that keep this process's rooms current (see the module's docstring)."""

    def __init__(self, hub: Any):  # the Hub (not imported: it imports this module)
        self.hub = hub

    def share_info(self, room: Room) -> None:
        """The owner's live info (who is connected, grace deadlines) for the replicas' spectators."""
        if not room.owned:
            return
        hub = self.hub
        assert hub.cluster is not None

        async def share():
            await hub.store.set_lease_info(room.code, hub.cluster.node, live_info(room))
            if hub.bus is not None:
                await hub.bus.publish(room.code, room.no, -1)

        hub._later(share())

    async def on_notice(self, code: str, no: int, seq: int) -> None:
        room = self.hub.rooms.get(code)
        if room is None:
            return
        if seq < 0 or no != room.no:
            await self.refresh(room)
        elif not room.owned and seq >= room.seq:
            await self.catch_up(room)

    async def catch_up(self, room: Room) -> None:
        """A replica: apply the submissions stored since its own (the owner's notice, or a periodic check),
        then show its spectators the new state."""
        async with room.lock:
            if room.owned:
                return
            applied = []
            try:
                for seat, action, at in await self.hub.store.submissions_since(room.code, room.no, room.seq):
                    outcome = room.session.submit(seat, action)
                    room.seq += 1
                    if outcome.buffered is None:
                        room.turn_started = at
                    applied += outcome.applied
                    if outcome.finished:
                        room.status = "finished"
            except DeltavError:  # never expected (the owner accepted them): start again from the database
                log.exception("room %s: replica out of step; rebuilding", room.code)
                row = await self.hub.store.load_match(room.code)
                if row is not None:
                    room.become(row, owned=False)
            if applied:
                room.broadcast_state(applied)

    async def refresh(self, room: Room) -> None:
        """Re-read the room's seats, status and meta (changed through another process: a seat taken, a forfeit,
        a rematch); a replica also re-reads the owner's live info and catches up."""
        from deltav.server.leases import start_owning

        store = self.hub.store
        row = await store.load_match(room.code, with_submissions=False)
        if row is None:
            return
        async with room.lock:
            if row.no != room.no:  # a rematch: the room's next match
                full = await store.load_match(room.code, row.no)
                if full is not None:
                    room.become(full, room.owned)
                    if room.owned:
                        start_owning(room)
            else:
                for s in row.seats:
                    room.seats[s.seat].token_hash, room.seats[s.seat].name = s.token_hash, s.name
                went_live = room.status == "open" and row.status == "live"
                if row.status != "live" or went_live:
                    room.status = row.status
                room.meta = dict(row.meta)
                if went_live:
                    room.turn_started = row.meta.get("live_at", room.turn_started)
                    if room.owned:
                        start_owning(room)
            if not room.owned:
                lease = await store.lease(room.code)
                room.remote = lease[3] if lease else None
        if not room.owned:
            await self.catch_up(room)
        room.broadcast_state()

    async def round(self) -> None:
        """Every lease round: the replicas with spectators catch up (a notice may have been lost)."""
        for room in list(self.hub.rooms.values()):
            if not room.owned and room.spectators:
                await self.catch_up(room)


def live_info(room: Room) -> dict:
    """What the replicas' spectators need of the owner's sockets: the connected seats and grace deadlines."""
    return {"connected": sorted(room.conns), "grace_until": {str(k): v for k, v in room.deadlines.items()}}
