"""Several processes: who owns each room. Leases, takeover of a dead owner's rooms, and redirecting seats.

A room has one owner process at a time: the holder of its row in the ``leases`` table (the database decides
with a conditional update). Only the owner decides, runs the bots and clocks, and holds the seats' sockets.
:class:`Leases` (one per hub, with several processes only):

- makes the process that creates a room its owner (:meth:`claim_new`), and a process that loads a room nobody
  holds its owner, else a replica (:meth:`settle_loaded`);
- before a seat attaches, owns the room (taking it over if its owner is gone) or refuses with ``redirect`` and
  the owner's WebSocket URL (:meth:`own_or_redirect`);
- every lease round (:meth:`round`, run by ``cluster.LeaseLoop``): renews this process's leases, gives up the
  rooms another process took (their seats are redirected), takes over the orphans (unfinished rooms with no
  live lease) by replaying them, then lets the replicas catch up (``replicas``);
- turns a room into an owner (:func:`start_owning`) or a replica (:func:`stop_owning`).

This module owns ownership only: what a replica shows its spectators is ``replicas``; the rules of play are
``rooms``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from deltav.server.cluster import ClusterConfig

if TYPE_CHECKING:
    from deltav.server.rooms import Host, Room

log = logging.getLogger("deltav.server")


def ws_url(base: str, code: str) -> str:
    """The WebSocket URL of room ``code`` on the process whose base URL is ``base``."""
    return base.rstrip("/").replace("https://", "wss://").replace("http://", "ws://") + f"/ws/{code}"


def start_owning(room: Room) -> None:
    """This process has just become the room's owner: run its bots and clocks."""
    room.start_owning()


def stop_owning(room: Room, url: str | None) -> None:
    """Another process owns the room now: stop the bots and clocks, send the seats there."""
    room.stop_owning(url)


class Leases:
    """The room leases of one process among several (see the module's docstring)."""

    def __init__(self, hub: Host, config: ClusterConfig):
        self.hub = hub
        self.config = config

    async def _acquire(self, code: str) -> tuple[str, str]:
        c = self.config
        return await self.hub.store.acquire_lease(code, c.node, c.advertise, c.lease_seconds)

    async def claim_new(self, code: str) -> None:
        """A room made here is owned here."""
        await self._acquire(code)

    async def settle_loaded(self, room: Room) -> None:
        """A room just loaded from the database: its owner if it has none alive, else a replica."""
        await self.hub.replicas.loaded(room)
        owner, _url = await self._acquire(room.code)
        if owner == self.config.node:
            room.start_owning()
        else:
            lease = await self.hub.store.lease(room.code)
            room.be_replica(lease[3] if lease else None)

    async def own_or_redirect(self, room: Room) -> None:
        """Before a seat attaches here: own the room (taking it over if its owner is gone), or send the seat to
        the owner (ClientError ``redirect`` with the owner's WebSocket URL)."""
        from deltav.server.rooms import ClientError

        if room.owned:
            return
        owner, url = await self._acquire(room.code)
        if owner == self.config.node:
            await self.promote(room)
            return
        raise ClientError("redirect", "this room is served by another server process: connect there", 409,
                          url=ws_url(url, room.code))

    async def promote(self, room: Room) -> None:
        """A replica this process now holds the lease of becomes the owner, rebuilt from the database."""
        row = await self.hub.store.load_match(room.code)
        if row is None:
            return
        async with room.lock:
            if room.owned:  # promoted meanwhile (a seat's connect and the lease loop at once)
                return
            room.become(row, owned=True)
            start_owning(room)
        log.info("room %s: taken over (match %d, %d submissions replayed)", room.code, room.no, room.seq,
                 extra={"event": "takeover", "room": room.code, "seq": room.seq})
        room.broadcast_state()

    async def round(self) -> None:
        """Renew; drop the rooms another process took; take over the orphans; let replicas catch up."""
        from deltav.server.rooms import Room

        hub, c = self.hub, self.config
        held = await hub.store.renew_leases(c.node, c.lease_seconds)
        for code, room in list(hub.rooms.items()):
            if room.owned and code not in held and code not in hub.creating:
                lease = await hub.store.lease(code)
                if lease is not None and lease[0] == c.node:
                    continue  # made (and leased) since the renewal read its leases
                async with room.lock:
                    stop_owning(room, ws_url(lease[1], code) if lease else None)
                log.warning("room %s: lease lost to another process", code, extra={"event": "lease_lost", "room": code})
                await hub.replicas.refresh(room)
        for code in await hub.store.orphans():
            known = hub.rooms.get(code)
            if code in hub.creating or (known is not None and known.owned):
                continue  # ours already (its lease is being written)
            owner, _ = await self._acquire(code)
            if owner != c.node:
                continue
            async with hub.loading.setdefault(code, asyncio.Lock()):  # the same lock as get(): one Room a code
                room = hub.rooms.get(code)
                if room is None:
                    row = await hub.store.load_match(code)
                    if row is None:
                        continue
                    room = Room.from_row(hub, row)
                    await hub.replicas.loaded(room)
                    if code in hub.rooms:
                        continue
                    hub.rooms[code] = room
                    start_owning(room)
                    log.info("room %s: taken over (match %d, %d submissions replayed)", code, room.no, room.seq,
                             extra={"event": "takeover", "room": code, "seq": room.seq})
                elif not room.owned:
                    await self.promote(room)
        await hub.replicas.round()

    async def close(self) -> None:
        """A clean stop: release this process's leases, so the other processes may take its rooms at once."""
        with contextlib.suppress(Exception):
            await self.hub.store.release_leases(self.config.node)
