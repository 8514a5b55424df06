"""Several processes: keeping each room this process holds in step with the database, the one truth.

The bus (``cluster.Bus``) carries notices of ``(room, match, seq)`` only. :class:`Replicas` (one per hub, with
several processes only) turns them into database reads:

- :meth:`on_notice`: a stored submission (``seq`` >= 0) makes a replica catch up (:meth:`catch_up`: apply the
  submissions stored since its own, then show its spectators the new state); a change of seats, status or meta
  (``seq`` -1) makes any holder re-read the room's row (:meth:`refresh`: a seat taken through another process,
  a forfeit, a rematch, the owner's live info);
- :meth:`share_info`: the owner's live info (connected seats, grace deadlines) written to its lease row for the
  replicas' spectators, then a notice; coalesced per room (one write in flight per room; a change meanwhile is
  written once that write is done, with the info as it is then: the latest wins), and a failed write is logged
  and retried (after a backoff, once the database takes writes again), never left as a task's exception;
- :meth:`relay_chat`: a chat notice (the id of a stored line) makes every process holding the room read the lines
  after the last it showed and send them to its sockets, so chat reaches the spectators of every process;
- eviction: a replica whose last socket left is dropped from the hub after ``Settings.replica_linger_seconds``
  (a finished match's replica at once), so a process does not keep every room it ever showed;
- :meth:`round` (every lease round): replicas with spectators catch up (moves and chat) even when a notice was
  lost, and idle replicas are evicted.

This module owns replicas' freshness only; who owns a room is ``leases``, the rules of play ``rooms``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from deltav.core.errors import DeltavError

if TYPE_CHECKING:
    from deltav.server.rooms import Host, Room

log = logging.getLogger("deltav.server")

SHARE_RETRY_SECONDS = (0.5, 10.0)  # a failed share_info write is retried after 0.5 s, doubling up to 10 s


class Replicas:
    """The database reads that keep this process's rooms current (see the module's docstring)."""

    def __init__(self, hub: Host):
        self.hub = hub
        self.sharing: dict[str, asyncio.Task] = {}  # room code -> its one share_info write in flight
        self.stale: set[str] = set()  # rooms whose live info changed since their write in flight read it
        self.shared = 0  # live info writes stored (for tests and metrics)

    def share_info(self, room: Room) -> None:
        """The owner's live info (who is connected, grace deadlines) for the replicas' spectators: written to the
        room's lease row, then a notice. One write in flight per room: a call while one is in flight only marks
        the info stale, and the writer writes once more, the info as it is then (a burst of connects and drops is
        one or two writes, not one each)."""
        if not room.owned:
            return
        code = room.code
        self.stale.add(code)
        if code not in self.sharing:
            self.sharing[code] = self.hub.later(self._share(room))

    async def _share(self, room: Room) -> None:
        hub, code = self.hub, room.code
        assert hub.cluster is not None
        failures = 0
        try:
            while code in self.stale:
                if not room.owned or room.evicted or hub.rooms.get(code) is not room:
                    self.stale.discard(code)  # no longer this process's to tell
                    return
                self.stale.discard(code)
                try:
                    await hub.store.set_lease_info(code, hub.cluster.node, live_info(room))
                    self.shared += 1
                    if hub.bus is not None:
                        await hub.bus.publish(code, room.no, -1)
                    failures = 0
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # logged and retried: never an unhandled task exception
                    failures += 1
                    first, most = SHARE_RETRY_SECONDS
                    wait = min(most, first * 2 ** (failures - 1))
                    log.warning("room %s: sharing the live info failed (%s: %s); retrying in %g s", code,
                                type(exc).__name__, str(exc).splitlines()[0][:200] if str(exc) else "", wait,
                                extra={"event": "share_info_failed", "room": code})
                    self.stale.add(code)
                    await asyncio.sleep(wait)
                    await hub.store.health.wait_writable()
        finally:
            if self.sharing.get(code) is asyncio.current_task():
                del self.sharing[code]

    async def on_notice(self, code: str, no: int, seq: int, kind: str = "room") -> None:
        room = self.hub.rooms.get(code)
        if room is None:
            return
        if kind == "chat":
            if seq > room.chat_seen:
                await self.relay_chat(room)
        elif seq < 0 or no != room.no:
            await self.refresh(room)
        elif not room.owned and seq >= room.seq:
            await self.catch_up(room)

    async def catch_up(self, room: Room) -> bool:
        """A replica: apply the submissions stored since its own (the owner's notice, or a periodic check),
        then show its spectators the new state. True when it did (there was something new)."""
        async with room.lock:
            if room.owned:
                return False
            applied = []
            try:
                applied = room.match.catch_up(await self.hub.store.submissions_since(room.code, room.no, room.seq))
            except DeltavError:  # never expected (the owner accepted them): start again from the database
                log.exception("room %s: replica out of step; rebuilding", room.code)
                row = await self.hub.store.load_match(room.code)
                if row is not None:
                    room.become(row, owned=False)
                    room.broadcast_state()
            if applied:
                room.broadcast_state(applied)
        if room.status == "finished":
            self.left(room)  # archived: nothing more to show (once its sockets have gone)
        return bool(applied)

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
            elif room.match.refresh(row) and room.owned:  # went live
                start_owning(room)
            if not room.owned:
                lease = await store.lease(room.code)
                room.set_remote(lease[3] if lease else None)
        if not room.owned and await self.catch_up(room):
            return  # its broadcast showed the refreshed room already: the same state is not sent twice
        room.broadcast_state()

    async def relay_chat(self, room: Room) -> None:
        """Send this process's sockets of ``room`` the chat lines stored after the last one shown here."""
        async with room.lock:
            for line_id, msg in await self.hub.store.chat_since(room.code, room.chat_seen):
                room.saw_chat(line_id)
                room.broadcast(msg)

    async def loaded(self, room: Room) -> None:
        """A room just loaded here: the chat lines already stored are history, not news."""
        room.saw_chat(await self.hub.store.last_chat_id(room.code))

    def left(self, room: Room) -> None:
        """A socket left ``room``: a replica with no socket left starts lingering; a finished one goes at once."""
        if room.owned or room.conns or room.spectators:
            return
        room.went_idle(time.time())
        if room.status == "finished":
            self.evict(room)

    def evict(self, room: Room) -> None:
        """Drop an unused replica from the hub (synchronously, so no socket can attach halfway); it is loaded
        again from the database when someone asks for the room."""
        if room.owned or room.conns or room.spectators or room.evicted or self.hub.rooms.get(room.code) is not room:
            return
        del self.hub.rooms[room.code]
        room.evict()
        log.info("room %s: replica unloaded (no socket left)", room.code,
                 extra={"event": "replica_evicted", "room": room.code})

    async def round(self) -> None:
        """Every lease round: the replicas with spectators catch up (a notice may have been lost); those without a
        socket for ``replica_linger_seconds`` are evicted."""
        linger = self.hub.settings.replica_linger_seconds
        now = time.time()
        for room in list(self.hub.rooms.values()):
            if room.owned:
                continue
            if room.spectators:
                await self.catch_up(room)
                await self.relay_chat(room)
            elif not room.conns and (room.status == "finished" or now - room.idle_since >= linger):
                self.evict(room)


def live_info(room: Room) -> dict:
    """What the replicas' spectators need of the owner's sockets: the connected seats and grace deadlines."""
    return room.match.live_info()
