"""The rooms of this server process: making, joining, finding and restoring them, and ending abandoned ones.

:class:`Hub` owns the set of live rooms (``code -> Room``), creates rooms (a free room code, the creator's seat
token) and joins them (a free human seat), loads a room on first use, and on start reloads every unfinished room
by replaying its stored submissions. With several processes on one database (``Settings.cluster``) it holds the
bus and the lease loop, and hands ownership to ``leases`` and freshness to ``replicas``; ``notify`` tells the
other processes of every stored change.
This module knows no HTTP (``app`` turns requests into calls here) and no rules of play (``rooms``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping
from typing import Any, TypedDict

from deltav.core.errors import DeltavError
from deltav.core.protocol import Game
from deltav.core.session import Session
from deltav.server.bot_workers import BotRunner, make_bot_agent
from deltav.server.clock import Clock, ClockError
from deltav.server.cluster import Bus, LeaseLoop
from deltav.server.leases import Leases
from deltav.server.limits import duration_words
from deltav.server.match import RoomJson
from deltav.server.replicas import Replicas
from deltav.server.rooms import ClientError, Room, Settings
from deltav.server.store import DuplicateCode, MatchRow, SeatRow, Store
from deltav.server.tokens import new_room_code, new_token, token_hash

log = logging.getLogger("deltav.server")



class SeatGrantJson(TypedDict):
    """The answer of ``POST /rooms`` and ``POST /rooms/{code}/join``: the room, the seat taken (null: none, watch) and
    its token (shown once: the client keeps it)."""

    code: str
    match: int
    seat: int | None
    token: str | None
    room: RoomJson

class Hub:
    """The live rooms of this server process and the ways to make, join and find them."""

    def __init__(self, store: Store, settings: Settings, games: Mapping[str, type[Game]]):
        self.store = store
        self.settings = settings
        self.games = dict(games)
        self.bots = BotRunner(settings.bot_workers, settings.bot_seconds)
        self.rooms: dict[str, Room] = {}
        self.ready = False
        self.loading: dict[str, asyncio.Lock] = {}
        self.cluster = settings.cluster
        self.bus: Bus | None = None
        self.lease_loop: LeaseLoop | None = None
        # several processes: who owns each room (leases) and keeping the others' rooms current (replicas)
        self.leases = Leases(self, self.cluster) if self.cluster is not None else None
        self.replicas = Replicas(self) if self.cluster is not None else None
        self._background: set[asyncio.Task] = set()
        self.creating: set[str] = set()  # codes being created here (the lease loop must not load them meanwhile)
        self.metrics = None  # set by the app (deltav.server.metrics.Metrics)
        self.list_version = 0  # bumped when a room is made or its seats or status change (the room lists' cache)
        self._sweeper: asyncio.Task | None = None

    def game(self, gid: str) -> type[Game]:
        if gid not in self.games:
            raise ClientError("unknown_game", f"unknown game {gid!r} (allowed: {', '.join(sorted(self.games))})")
        return self.games[gid]

    async def restore(self) -> int:
        """Reload every unfinished room by replaying its submissions; returns how many. With several processes
        the rooms nobody owns are taken over by the lease loop instead (the first round runs here)."""
        if self.cluster is not None:
            assert self.leases is not None and self.replicas is not None
            self.bus = Bus(self.cluster.bus_url, self.cluster.node, self.replicas.on_notice)
            await self.bus.start()
            await self.leases.round()
            self.lease_loop = LeaseLoop(self.cluster, self.leases.round)
            self.lease_loop.start()
            self.ready = True
            self._sweeper = asyncio.create_task(self._sweep())
            return sum(1 for r in self.rooms.values() if r.owned)
        n = 0
        for row in await self.store.unfinished():
            try:
                room = Room.from_row(self, row)
            except DeltavError:
                log.exception("room %s: cannot be restored", row.code)
                continue
            self.rooms[row.code] = room
            room.kick_bots()
            room.arm()  # the deadline follows from the stored times: a late seat's time may be up already
            n += 1
        self.ready = True
        self._sweeper = asyncio.create_task(self._sweep())
        return n

    # --- abandoned rooms ----------------------------------------------------------------------------------
    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.settings.limits.sweep_seconds)
            try:
                await self.end_abandoned()
            except Exception:
                log.exception("the sweep of abandoned rooms failed")

    async def end_abandoned(self) -> int:
        """End the abandoned rooms held here (docs/server.md, "Limits"): an open room whose free seats nobody
        took for ``open_room_seconds``, a live one with no move for ``idle_room_seconds``, neither with a socket
        meanwhile; and (one process) unload finished rooms nobody watched for ``finished_unload_seconds``.
        Returns how many were ended."""
        lim = self.settings.limits
        now = time.time()
        ended = 0
        for room in list(self.rooms.values()):
            if not room.owned or room.conns or room.spectators:
                continue
            idle = now - room.touched
            if room.status == "open" and idle > lim.open_room_seconds:
                reason = f"nobody took its free seats within {duration_words(lim.open_room_seconds)}"
            elif room.status == "live" and idle > lim.idle_room_seconds:
                reason = f"no move and nobody connected for {duration_words(lim.idle_room_seconds)}"
            else:
                if room.status == "finished" and self.cluster is None and idle > lim.finished_unload_seconds:
                    self.rooms.pop(room.code, None)  # loaded again from the database when asked for
                    await room.close()
                continue
            if await room.abandon(reason):
                ended += 1
                log.info("room %s abandoned: %s", room.code, reason, extra={"event": "abandoned", "room": room.code})
                if self.cluster is None:
                    self.rooms.pop(room.code, None)
                    await room.close()
        return ended

    async def get(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        if room is not None:
            return room
        lock = self.loading.setdefault(code, asyncio.Lock())
        async with lock:
            room = self.rooms.get(code)
            if room is None:
                row = await self.store.load_match(code)
                if row is None:
                    return None
                room = Room.from_row(self, row)
                if self.leases is not None:  # the owner, if the room has none alive; else a replica
                    await self.leases.settle_loaded(room)
                self.rooms[code] = room
            return room

    @staticmethod
    def resolve_options(game: type[Game], options: Mapping[str, Any]) -> dict[str, Any]:
        """A stranger's options, validated (``bad_options`` naming the option); built-in scenarios only."""
        builtin = sorted(s.id for s in game.scenarios())
        if builtin and isinstance(options, Mapping) and "scenario" in options and options["scenario"] not in builtin:
            # a scenario option may name a file on this machine: strangers get the built-in scenarios only
            raise ClientError("bad_options", f"option 'scenario': this server plays the built-in scenarios only "
                                             f"({', '.join(builtin)})")
        try:
            return game.resolve_options(options)
        except DeltavError as exc:
            raise ClientError("bad_options", str(exc)) from None

    async def create(self, game_id: str, options: Mapping[str, Any], seat_specs: list[str], seed: int | None,
                     creator_seat: int | None, name: str | None, clock: Any = None, public: bool = False,
                     client: str | None = None, held_by: str | None = None) -> dict:
        """A new room (docs/server.md, POST /rooms). ``held_by``: the creator's seat is held by the token whose hash
        this is (a quick match's ticket; the answer's token is then None), else a new token is drawn."""
        game = self.game(game_id)
        try:
            turn_clock = Clock.parse(clock)
        except ClockError as exc:
            raise ClientError("bad_clock", str(exc), field=exc.field) from None
        opts = self.resolve_options(game, options)
        n = game.num_players(opts)
        if len(seat_specs) != n:
            raise ClientError("bad_seats", f"{game.id} with these options has {n} seats; got {len(seat_specs)} entries")
        for i, spec in enumerate(seat_specs):
            if spec == "human":
                continue
            if not isinstance(spec, str) or not spec.startswith("bot:"):
                raise ClientError("bad_seats", f"seat {i}: {spec!r} is neither 'human' nor a bot spec 'bot:NAME'")
            try:
                make_bot_agent(game.id, spec)
            except DeltavError as exc:
                raise ClientError("bad_seats", f"seat {i}: {exc}") from None
        humans = [i for i, s in enumerate(seat_specs) if s == "human"]
        if creator_seat is None:
            creator_seat = humans[0] if humans else None
        elif creator_seat not in humans:
            raise ClientError("bad_seat", f"seat {creator_seat!r} is not a human seat (human seats: {humans})")
        if seed is not None and self.settings.chosen_seeds != "any" and len(humans) > 1:
            # whoever knows the seed can replay every hidden draw offline: between people the server draws it
            raise ClientError("bad_seed", "a chosen seed is only for a room whose every seat is yours or a bot: "
                                          "between people the server draws the seed (whoever knows it could work "
                                          "out every hidden card of the match)", field="seed")
        token = new_token() if creator_seat is not None and held_by is None else None
        held = held_by or (token_hash(token) if token else None)
        rows = [SeatRow(i, s, held if i == creator_seat else None,
                        name if i == creator_seat else None) for i, s in enumerate(seat_specs)]
        status = "live" if len(humans) <= (1 if creator_seat is not None else 0) else "open"
        chosen = seed is not None
        seed = secrets.randbits(62) if seed is None else seed
        try:
            Session(game, opts, seed, [s for s in seat_specs])  # fails early on a scenario that cannot start
        except DeltavError as exc:
            raise ClientError("bad_options", str(exc)) from None
        for _ in range(20):
            code = new_room_code()
            meta: dict[str, Any] = {"clock": turn_clock.to_json()} if turn_clock else {}
            if chosen:
                meta["chosen_seed"] = True  # shown to everyone in the room's info
            if client is not None and creator_seat is not None:
                meta["clients"] = {str(creator_seat): [client]}  # the leaderboard's distinct clients
            if status == "live":
                meta["live_at"] = time.time()
            row = MatchRow(code, 1, game.id, opts, seed, status, rows, meta=meta, public=public,
                           created_at=time.time())  # the room's age (an open room expires after a day)
            self.creating.add(code)
            try:
                await self.store.create_room(row)
                break
            except DuplicateCode:
                self.creating.discard(code)
                continue
        else:  # pragma: no cover - 4 million codes
            raise ClientError("busy", "no free room code; try again", 503)
        try:
            room = Room.from_row(self, row)
            self.rooms[code] = room
            if self.leases is not None:  # a new room is owned by the process that made it
                await self.leases.claim_new(code)
        finally:
            self.creating.discard(code)
        self.list_version += 1
        room.kick_bots()
        room.arm()
        return {"code": code, "match": 1, "seat": creator_seat, "token": token, "room": room.room_info()}

    async def join(self, code: str, seat: int | None, name: str | None, client: str | None = None,
                   held_by: str | None = None) -> dict:
        """Take a free human seat (docs/server.md, POST /rooms/{code}/join); ``held_by`` as in :meth:`create`."""
        room = await self.get(code)
        if room is None:
            raise ClientError("unknown_room", f"no room {code!r}", 404)
        async with room.lock:
            free = [s.seat for s in room.seats if s.spec == "human" and s.token_hash is None]
            if room.status == "finished" or not free:
                raise ClientError("room_full", "no free seat in this room; watch it instead", 409,
                                  watch=f"/ws/{code}")
            if seat is None:
                seat = free[0]
            elif seat not in free:
                raise ClientError("seat_taken", f"seat {seat!r} is not a free human seat (free: {free})", 409)
            token = new_token() if held_by is None else None
            h = held_by or token_hash(token or "")
            last = len(free) == 1
            now = time.time()
            meta = {**room.meta, "live_at": now} if last else dict(room.meta)
            if client is not None:  # the leaderboard's distinct clients (written with the seat)
                clients = {k: list(v) for k, v in meta.get("clients", {}).items()}
                clients.setdefault(str(seat), []).append(client)
                meta["clients"] = clients
            ok = await self.store.claim_seat(code, room.no, seat, h, name, "live" if last else None, meta)
            if not ok:  # pragma: no cover - another process took it (the database decides)
                raise ClientError("seat_taken", f"seat {seat} was just taken", 409)
            room.take_seat(seat, h, name, meta, last, now)
            return {"code": code, "match": room.no, "seat": seat, "token": token, "room": room.room_info()}

    # --- telling the other processes ----------------------------------------------------------------------
    def later(self, coro: Any) -> asyncio.Task:
        """Run ``coro`` in the background (kept until done; cancelled when the hub closes)."""
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def notify(self, room: Room, seq: int, kind: str = "room") -> None:
        """Tell the other processes that ``room`` stored submission ``seq`` (-1: seats, status or meta changed;
        ``kind`` "chat": ``seq`` is the id of a stored chat line)."""
        if self.metrics is not None and seq >= 0 and kind == "room":
            self.metrics.actions.inc()
        if kind == "room" and (seq < 0 or room.status == "finished"):
            self.list_version += 1
        if self.bus is not None:
            self.later(self.bus.publish(room.code, room.no, seq, kind))

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(BaseException):
                await self._sweeper
        if self.lease_loop is not None:
            await self.lease_loop.close()
        for room in list(self.rooms.values()):
            await room.close()
        if self.leases is not None:  # a clean stop: the other processes may take these rooms at once
            await self.leases.close()
        if self.bus is not None:
            await self.bus.close()
        background = list(self._background)
        for t in background:
            t.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        self.bots.close()
