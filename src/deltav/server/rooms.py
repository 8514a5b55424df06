"""Rooms: one owner object per room holding its Session, its sockets, its bot seats and its timers.

Every change to a room happens under the room's lock, in this order: check (the Session refuses without
changing anything), write to the database (the truth), then tell the viewers. Each viewer has an outbound
queue drained by its own task (``conns``), so a slow socket never holds the lock and messages reach every
viewer in order. After every accepted action each viewer gets its own full snapshot envelope
(``Session.snapshot``, encoded once per viewer and stored submission) and the log entries the action added, once:
the snapshot's log is sent whole only to a socket that does not have it yet (connected, synced, a new match or
session, names changed: ``log_epoch``), so each event is built once (``Session.log``) and sent once.

This module owns the play of one room in one process. Rooms are made, found and restored by ``hub``; with
several processes, ``leases`` decides whether this process owns a room (``Room.owned``: only the owner decides,
runs bots and clocks and holds the seats' sockets) and ``replicas`` keeps the others' copies current. It knows no
HTTP: ``app`` turns requests into calls here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deltav.core import jsonin
from deltav.core.agent import RandomAgent
from deltav.core.errors import DeltavError, IllegalAction, MalformedAction
from deltav.core.protocol import Game
from deltav.core.rng import Rng, derive_seed
from deltav.core.session import Session, SessionError
from deltav.server.bots import BOT_SECONDS, HELP, BotFailure, BotSeat, fallback_action, make_bot_agent
from deltav.server.clock import TIMEOUT_BOT, Clock, turn_started, utc
from deltav.server.cluster import ClusterConfig
from deltav.server.conns import OUTBOX_LIMIT, Conn, Socket, dumps
from deltav.server.legal import RoomSession
from deltav.server.limits import Bucket as ChatBucket
from deltav.server.limits import Limits
from deltav.server.store import MatchRow, SeatRow, StoreUnavailable
from deltav.server.tokens import token_hash

__all__ = ["OUTBOX_LIMIT", "ClientError", "Conn", "Room", "Settings", "Socket", "dumps", "refusal"]

log = logging.getLogger("deltav.server")

MAX_MESSAGE_BYTES = 16 * 1024  # a client message above this is refused (the connection stays open)
MAX_CHAT = 300  # characters of one chat line, after trimming
MAX_NAME = 40
RATE_PER_SECOND = 100.0  # client messages per second a connection may send on average...
RATE_BURST = 200  # ...with bursts up to this many
MAX_DEPTH = 32  # nesting of arrays and objects in a client message
MAX_DIGITS = 20  # digits of an integer in a client message
MAX_ID = 2**53 - 1  # an integer id a client may give (the largest a browser's numbers hold exactly)
MAX_ID_CHARS = 100  # a string id a client may give
MAX_PENDING_HINTS = 1  # hints being worked out for one seat at a time


@dataclass
class Settings:
    grace_seconds: float = 60.0  # a dropped human seat's time to come back when another human is connected
    bot_workers: int = 1  # worker processes for bot decisions (0: threads in the server process)
    max_message_bytes: int = MAX_MESSAGE_BYTES
    rate_per_second: float = RATE_PER_SECOND
    rate_burst: int = RATE_BURST
    cluster: ClusterConfig | None = None  # several processes on one database (None: this process alone)
    replica_linger_seconds: float = 30.0  # several processes: a replica with no socket is dropped after this
    bot_seconds: float = BOT_SECONDS  # CPU time a bot decision may take (searches stop there; see bots.py)
    limits: Limits = field(default_factory=Limits)  # per-client limits: sockets, rates, room expiry, chat
    trusted_proxies: tuple[str, ...] = ()  # proxies whose X-Forwarded-For names the client (deltav serve --trusted-proxy)
    allowed_origins: tuple[str, ...] = ()  # other origins whose pages may change state here (--allow-origin)
    chosen_seeds: str = "solo"  # "solo": a seed is chosen only for rooms of the creator and bots; "any" (--chosen-seeds)


class ClientError(Exception):
    """A refused client request: ``code`` is a stable identifier, ``message`` a sentence, ``status`` the HTTP
    status when it comes from a route."""

    def __init__(self, code: str, message: str, status: int = 400, **extra: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.extra = extra

    def to_json(self) -> dict:
        return {"type": "error", "code": self.code, "message": self.message, **self.extra}


def refusal(exc: IllegalAction) -> dict:
    """The error message of an action the session refused."""
    if isinstance(exc, MalformedAction):
        return {"type": "error", "code": "malformed_action", "rule": exc.rule, "field": exc.field,
                "message": exc.message}
    if isinstance(exc, SessionError):
        return {"type": "error", "code": exc.rule.removeprefix("session."), "rule": exc.rule, "message": exc.message}
    if exc.rule in ("protocol.turn", "protocol.game_over"):
        return {"type": "error", "code": "not_your_turn" if exc.rule == "protocol.turn" else "game_over",
                "rule": exc.rule, "message": exc.message}
    return {"type": "error", "code": "illegal_action", "rule": exc.rule, "message": exc.message}


@dataclass
class Room:
    """The owner of one room's current match."""

    hub: Any  # the deltav.server.hub.Hub holding this room (not imported: the hub imports this module)
    code: str
    no: int
    game: type[Game]
    seed: int
    seats: list[SeatRow]
    session: Session
    status: str  # open | live | finished
    meta: dict[str, Any] = field(default_factory=dict)
    seq: int = 0  # accepted submissions stored so far
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: dict[int, Conn] = field(default_factory=dict)
    spectators: set[Conn] = field(default_factory=set)
    bots: dict[int, BotSeat] = field(default_factory=dict)
    grace: dict[int, asyncio.Task] = field(default_factory=dict)
    deadlines: dict[int, float] = field(default_factory=dict)
    expired: set[int] = field(default_factory=set)  # absent human seats whose grace ran out (a win to claim)
    rematch_votes: set[int] = field(default_factory=set)
    tasks: set[asyncio.Task] = field(default_factory=set)
    clock: Clock | None = None  # the optional turn timer (None: no clock)
    turn_started: float = 0.0  # when the current decision node began (epoch seconds; see clock.turn_started)
    turn_timer: asyncio.Task | None = None
    # each viewer's encoded snapshot at the current (match, seq): built once, however many sockets and
    # messages (connects, drops, seats taken) show it; a new accepted submission or a reload empties it
    snap_cache: dict[tuple[int | None, bool], str] = field(default_factory=dict)
    snap_at: tuple[int, int] = (0, -1)
    # bumped whenever the viewers' logs must be sent whole again (the session rebuilt, a new match, names changed);
    # a socket whose Conn.log_epoch differs gets the snapshot's log, the others only the new entries
    log_epoch: int = 0
    # several processes: only the owner (the holder of the room's lease) decides, runs bots and clocks and holds
    # the seats' sockets; any other process keeps a replica for its spectators, caught up from the database
    owned: bool = True
    remote: dict | None = None  # a replica's copy of the owner's live info (connected seats, grace deadlines)
    closed: bool = False  # the server is stopping: no new bot turn, timer or grace clock starts
    chat_seen: int = 0  # the id of the newest chat line shown here (several processes: lines after it are new)
    idle_since: float = field(default_factory=time.time)  # when its last socket left (a replica is then evicted)
    evicted: bool = False  # a replica dropped from the hub (a socket reaching it must look the room up again)
    hints: dict[int, tuple[Conn, asyncio.Task]] = field(default_factory=dict)  # seat -> the hint worked out for it
    public: bool = False  # listed for anyone to join or watch (else joined by its code only: docs/server.md)
    touched: float = field(default_factory=time.time)  # the last move, seat taken or socket come or gone (expiry)
    chat_buckets: dict[int, ChatBucket] = field(default_factory=dict)  # each seat's chat rate

    # --- building --------------------------------------------------------------------------------------
    @classmethod
    def from_row(cls, hub: Any, row: MatchRow) -> Room:
        game = hub.game(row.game)
        labels = [s.spec for s in row.seats]  # record labels: "human" or the bot spec (names change; specs do not)
        session = RoomSession.resume(game, row.options, row.seed, labels, row.submissions, names=seat_names(row.seats))
        room = cls(hub, row.code, row.no, game, row.seed, row.seats, session, row.status, dict(row.meta),
                   seq=len(row.submissions), public=row.public)
        room.clock = Clock.from_meta(row.meta)
        room.touched = max([row.created_at, row.meta.get("live_at", 0.0), *row.submitted_at[-1:]])
        buffered = sum(1 for p in session.deciding() if session.has_submitted(p))
        room.turn_started = turn_started(row.submitted_at, buffered, row.meta.get("live_at", row.created_at))
        for s in row.seats:
            if s.spec != "human":
                since = 0
                try:
                    bot = BotSeat.new(game.id, row.seed, s.seat, s.spec)
                except DeltavError as exc:  # a room stored before its spec was refused (say, unbounded): never run it
                    log.warning("room %s: seat %d's bot %s is refused now (%s); it plays random legal moves",
                                row.code, s.seat, jsonin.shown(s.spec), exc)
                    bot = BotSeat(s.seat, s.spec, RandomAgent(), Rng(derive_seed(row.seed, "seat", s.seat)))
                else:
                    if s.bot_state is not None:
                        bot.load(s.bot_state)
                        since = s.bot_state_step or 0
                for st in session.record.steps[since:]:  # the events it saw after its last decision
                    visible = [e for e in (game.events.decode(x, "event") for x in st.events) if e.visible_to(s.seat)]
                    if visible:
                        bot.agent.observe(s.seat, visible)
                room.bots[s.seat] = bot
        room.apply_stored_ending()
        return room

    def apply_stored_ending(self) -> None:
        """End the session as the stored match says it ended (``meta.ending``; a forfeit of an older server:
        ``meta.forfeit``), when it is not over yet: a restart, a replica, a room loaded again."""
        if self.session.is_over():
            return
        ending, legacy = self.meta.get("ending"), self.meta.get("forfeit")
        try:
            if isinstance(ending, dict):
                self.session.apply_ending(ending)
            elif self.status == "finished" and isinstance(legacy, dict):
                seats = legacy.get("seats") or [legacy.get("seat")]
                self.session.end("forfeit", seats, str(legacy.get("reason", "")))
        except DeltavError:
            log.exception("room %s match %d: the stored ending does not end the match", self.code, self.no)
        self.snap_cache.clear()

    def renamed(self) -> None:
        """The seats' names changed (a seat was taken and named): the match's texts are written with them."""
        names = seat_names(self.seats)
        if names != self.session.names:
            self.session.set_names(names)
            self.snap_cache.clear()
            self.log_epoch += 1  # every text was written again: the viewers get the log whole

    def human_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.spec == "human"]

    def seat_of(self, token: str) -> int | None:
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        return None

    # --- messages out ----------------------------------------------------------------------------------
    def room_info(self) -> dict:
        if not self.owned and self.remote is not None:
            connected = set(self.remote.get("connected", []))
            graces = {int(k): v for k, v in self.remote.get("grace_until", {}).items()}
            claimable = list(self.remote.get("claimable", []))
        else:
            connected, graces, claimable = set(self.conns), self.deadlines, sorted(self.expired)
        return {
            "code": self.code,
            "match": self.no,
            "status": self.status,
            "seats": [{"seat": s.seat, "kind": "human" if s.spec == "human" else "bot", "spec": s.spec,
                       "name": s.name, "taken": s.spec != "human" or s.token_hash is not None,
                       "connected": s.spec != "human" or s.seat in connected,
                       "grace_until": graces.get(s.seat)} for s in self.seats],
            "forfeit": self.meta.get("forfeit"),
            "public": self.public,
            "abandoned": self.meta.get("abandoned"),
            "seed": self.seed if self.meta.get("chosen_seed") else None,  # a chosen seed is shown to everyone
            "ending": self.meta.get("ending"),
            "claimable": claimable,
            "rematch_votes": sorted(self.rematch_votes),
            "clock": self.clock_info(),
        }

    # --- the turn timer --------------------------------------------------------------------------------
    def late_seats(self) -> list[int]:
        """The human seats the turn timer runs for now (deciding, not yet submitted)."""
        if self.clock is None or self.status != "live":
            return []
        humans = set(self.human_seats())
        return [p for p in self.session.waiting_for() if p in humans]

    def turn_deadline(self) -> float | None:
        if not self.late_seats():
            return None
        assert self.clock is not None
        return self.turn_started + self.clock.turn_seconds

    def clock_info(self) -> dict | None:
        if self.clock is None:
            return None
        return {**self.clock.to_json(), "deadline": utc(self.turn_deadline()), "seats": self.late_seats()}

    def _arm_turn(self) -> None:
        """(Re)start the turn timer for the current node (a no-op without a clock or a human to wait for)."""
        if self.turn_timer is not None and self.turn_timer is not asyncio.current_task():
            self.turn_timer.cancel()
        self.turn_timer = None
        deadline = self.turn_deadline() if self.owned else None
        if deadline is not None:
            self.turn_timer = self._spawn(self._turn_timeout(self.no, self.session.step, deadline))

    async def _turn_timeout(self, no: int, step: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - time.time()))
        assert self.clock is not None
        if self.clock.on_timeout == "forfeit":
            async with self.lock:
                late = self.late_seats()
                if self.no != no or self.session.step != step or not late:
                    return
                self.turn_timer = None
                names = seat_names(self.seats)
                await self.end_match("forfeit", late, f"{' and '.join(names[p] for p in late)} did not decide within "
                                                      f"the turn time ({self.clock.turn_seconds:g} s)")
            return
        # "bot": the easy bot plays a late seat's move from that seat's own view (the timer, re-armed by the
        # accepted move, plays the next late seat of a simultaneous node at once)
        late = self.late_seats()
        if self.no == no and self.session.step == step and late:
            seat = late[0]
            stand_in = BotSeat(seat, TIMEOUT_BOT, make_bot_agent(self.game.id, TIMEOUT_BOT),
                               Rng(derive_seed(self.seed, "timeout", seat, step)))
            decision = self.session.decision(seat, stand_in.rng)
            try:
                action = await self.hub.bots.decide(stand_in, decision, lane=self.code)
            except BotFailure as exc:
                log.warning("room %s: the timeout bot failed for seat %d (%s)", self.code, seat, exc)
                action = fallback_action(self.seed, seat, step, decision.legal_actions)
            async with self.lock:
                if self.no != no or self.session.step != step or seat not in self.late_seats():
                    return
                outcome = self.session.submit_action(seat, action, expected_step=step)
                self.broadcast({"type": "timeout", "seat": seat, "step": step, "on_timeout": "bot",
                                "played_by": TIMEOUT_BOT})  # never the move itself: it may be a secret choice
                if self.turn_timer is asyncio.current_task():
                    self.turn_timer = None
                await self._accepted(seat, outcome)

    def state_message(self, seat: int | None, since: int | None = None) -> dict:
        """A state message whose snapshot's log holds every visible entry from step ``since`` on (``sync``)."""
        return {"type": "state", "room": self.room_info(), "snapshot": self.session.snapshot(seat, since), "events": []}

    def snapshot_text(self, seat: int | None, with_log: bool = True) -> str:
        """``seat``'s snapshot envelope as JSON text (with its log tail, or without: ``with_log``), built and
        encoded once per (match, seq, viewer): the text with the log is the one without it and the log tail's
        entries (the session's own) appended as the last key."""
        if self.snap_at != (self.no, self.seq):
            self.snap_cache.clear()
            self.snap_at = (self.no, self.seq)
        text = self.snap_cache.get((seat, with_log))
        if text is None:
            bare = self.snap_cache.get((seat, False))
            if bare is None:
                bare = self.snap_cache[(seat, False)] = dumps(self.session.snapshot(seat, with_log=False))
            text = bare
            if with_log:
                text = self.snap_cache[(seat, True)] = f'{bare[:-1]},"log":{dumps(self.session.log(seat))}}}'
        return text

    def state_text(self, seat: int | None, events_text: str = "[]", room_text: str | None = None,
                   with_log: bool = True) -> str:
        """A state message as text, built from the cached snapshot text: ``events_text`` the new log entries
        (encoded), ``with_log`` whether the snapshot carries its log tail (a socket that does not have it yet)."""
        room_text = room_text or dumps(self.room_info())
        return (f'{{"type":"state","room":{room_text},"snapshot":{self.snapshot_text(seat, with_log)},'
                f'"events":{events_text}}}')

    def send_whole(self, conn: Conn, since: int | None = None) -> None:
        """Send ``conn`` its state with the snapshot's log (the newest entries, or those from step ``since`` on):
        on connecting and on ``sync``; from then on it is sent only the new entries."""
        conn.send(self.state_text(conn.seat) if since is None else self.state_message(conn.seat, since))
        conn.log_epoch = self.log_epoch

    def broadcast_state(self, applied: list | None = None) -> None:
        """Every viewer's own snapshot and the log entries the ``applied`` steps added that it may see, once:
        the entries are the session's own (``Session.log``, built once), and a snapshot carries its log tail
        only for a socket that does not have it yet (``log_epoch``)."""
        since = applied[0].index if applied else None
        encoded: dict[tuple[int, ...], str] = {}  # the same entries (public events) are encoded once

        def events_text(viewer: int | None) -> str:
            if since is None:
                return "[]"
            entries = self.session.log(viewer, since)
            key = tuple(map(id, entries))
            text = encoded.get(key)
            if text is None:
                text = encoded[key] = dumps(entries)
            return text

        room_text = dumps(self.room_info())
        epoch = self.log_epoch
        for seat, conn in list(self.conns.items()):
            conn.send(self.state_text(seat, events_text(seat), room_text, with_log=conn.log_epoch != epoch))
            conn.log_epoch = epoch
        if self.spectators:
            texts: dict[bool, str] = {}  # at most two texts for every spectator: with the log, and without
            for conn in list(self.spectators):
                whole = conn.log_epoch != epoch
                text = texts.get(whole)
                if text is None:
                    text = texts[whole] = self.state_text(None, events_text(None), room_text, with_log=whole)
                conn.send(text)
                conn.log_epoch = epoch

    def broadcast(self, msg: dict) -> None:
        text = dumps(msg)
        for conn in [*self.conns.values(), *self.spectators]:
            conn.send(text)

    # --- connections -----------------------------------------------------------------------------------
    def saw_client(self, seat: int, client: str | None, connected: bool = False) -> None:
        """Remember that ``client`` (a ``limits.client_id``) held ``seat`` in this match, and whether a socket of the
        seat connected (``meta.clients``, ``meta.played``: the leaderboard rates only matches between distinct
        connected clients). Written with the match's next meta (a seat taken, the end)."""
        if client is not None:
            held = self.meta.setdefault("clients", {}).setdefault(str(seat), [])
            if client not in held and len(held) < 16:
                held.append(client)
        if connected:
            played = self.meta.setdefault("played", [])
            if seat not in played:
                played.append(seat)
                played.sort()

    async def attach(self, ws: Socket, token: str | None, client: str | None = None) -> Conn:
        if token and self.hub.leases is not None:
            await self.hub.leases.own_or_redirect(self)  # a seat plays on the room's owner process
            if self.seat_of(token) is None:
                await self.hub.replicas.refresh(self)  # the seat may have been taken through another process
        async with self.lock:
            if self.evicted:  # a replica dropped while this socket waited: the caller looks the room up again
                raise ClientError("evicted", "this room was just unloaded here; connect again", 503)
            seat = None
            if token:
                seat = self.seat_of(token)
                if seat is None:
                    raise ClientError("bad_token", "this token holds no seat in this room", 403)
            limits = self.hub.settings.limits
            if seat is None and len(self.spectators) >= limits.spectators_per_room:
                raise ClientError("too_many_sockets", f"this room has {limits.spectators_per_room} spectators "
                                  "already; try again later", 429)
            conn = Conn(ws, seat, self.hub.settings.rate_per_second, self.hub.settings.rate_burst,
                        max_bytes=limits.outbox_bytes, close_seconds=limits.close_seconds)
            self.touched = time.time()
            if seat is None:
                self.spectators.add(conn)
            else:
                old = self.conns.get(seat)
                if old is not None:
                    old.send({"type": "replaced", "message": "this seat connected from somewhere else"})
                    old.close(4001, "replaced")
                self.conns[seat] = conn
                self._cancel_grace(seat)
                self.saw_client(seat, client, connected=True)
            conn.send({"type": "welcome", "room": self.code, "match": self.no, "seat": seat,
                       "role": "player" if seat is not None else "spectator",
                       "limits": {"max_message_bytes": self.hub.settings.max_message_bytes, "max_chat": MAX_CHAT,
                                  "rate_per_second": self.hub.settings.rate_per_second}})
            self._arm_graces()
            if seat is None:  # a spectator changes nobody else's message (the room info lists seats only)
                self.send_whole(conn)
            else:
                self.broadcast_state()
                if self.hub.replicas is not None:
                    self.hub.replicas.share_info(self)
            return conn

    async def detach(self, conn: Conn) -> None:
        conn.close()
        held = self.hints.get(conn.seat) if conn.seat is not None else None
        if held is not None and held[0] is conn:
            held[1].cancel()  # nobody reads its answer: the bot worker stops working for it
        self.touched = time.time()
        async with self.lock:
            if conn.seat is None:
                self.spectators.discard(conn)
                if self.hub.replicas is not None:
                    self.hub.replicas.left(self)
                return
            if self.conns.get(conn.seat) is not conn:
                return  # already replaced by a newer socket
            del self.conns[conn.seat]
            self._arm_graces()
            self.broadcast_state()
            if self.hub.replicas is not None:
                self.hub.replicas.share_info(self)

    def _arm_graces(self) -> None:
        """Start the forfeit clock of each disconnected human seat while another human seat is connected."""
        if self.status != "live" or self.hub.settings.grace_seconds <= 0 or not self.owned or self.closed:
            return
        humans = self.human_seats()
        for s in humans:
            others = any(o in self.conns for o in humans if o != s)
            if s not in self.conns and others and s not in self.grace and s not in self.expired:
                self.deadlines[s] = time.time() + self.hub.settings.grace_seconds
                self.grace[s] = self._spawn(self._grace_then_claimable(s))

    def _cancel_grace(self, seat: int) -> None:
        task = self.grace.pop(seat, None)
        self.deadlines.pop(seat, None)
        self.expired.discard(seat)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _grace_then_claimable(self, seat: int) -> None:
        """The seat's grace runs out: it stays in the match, but the connected players may now claim the win
        (``claim``); everyone is told (``room.claimable``)."""
        await asyncio.sleep(self.hub.settings.grace_seconds)
        async with self.lock:
            self.grace.pop(seat, None)
            if self.status != "live" or seat in self.conns:
                self.deadlines.pop(seat, None)
                return
            self.expired.add(seat)  # its deadline stays in grace_until: the time it ran out
            self.broadcast_state()
            if self.hub.replicas is not None:
                self.hub.replicas.share_info(self)

    # --- messages in -----------------------------------------------------------------------------------
    async def handle(self, conn: Conn, text: str | None) -> None:
        """One client message (text of a WebSocket frame; None for a binary frame)."""
        try:
            if not conn.bucket.allow():
                raise ClientError("rate_limited", "too many messages; slow down")
            if text is None:
                raise ClientError("bad_message", "messages are JSON text frames")
            limit = self.hub.settings.max_message_bytes
            if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
                raise ClientError("too_large", f"a message may hold at most {limit} bytes")
            msg = read_message(text, limit)
            if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
                raise ClientError("bad_message", "a message is a JSON object with a string field 'type'")
            kind = msg["type"]
            ref = msg.get("id")
            if not good_ref(ref):
                raise ClientError("bad_message", f"field 'id' must be a string of at most {MAX_ID_CHARS} characters or "
                                                 f"an integer within +-(2^53 - 1), not {jsonin.shown(ref)}", field="id")
            if kind == "ping":
                conn.send({"type": "pong", "id": ref})
            elif kind == "sync":
                since = msg.get("since")
                if since is not None and (isinstance(since, bool) or not isinstance(since, int) or since < 0):
                    raise ClientError("bad_message", "field 'since' must be a step number (0 or more)")
                self.send_whole(conn, since)
            elif kind == "submit":
                await self.submit(conn, msg)
            elif kind == "chat":
                await self.chat(conn, msg)
            elif kind == "rematch":
                await self.rematch(conn)
            elif kind == "advise":
                await self.advise(conn, msg)
            elif kind == "hint":
                await self.hint(conn, msg)
            elif kind == "resign":
                await self.resign(conn, msg)
            elif kind == "claim":
                await self.claim(conn, msg)
            else:
                raise ClientError("unknown_type", f"unknown message type {jsonin.shown(kind)} (known: submit, chat, sync, ping, "
                                                  "rematch, advise, hint, resign, claim)")
        except ClientError as exc:
            conn.send({**exc.to_json(), "id": message_ref(text)})
        except StoreUnavailable as exc:  # a chat line or a rematch the database could not store
            conn.send(store_refusal(exc, message_ref(text)))

    async def submit(self, conn: Conn, msg: Mapping) -> None:
        if conn.seat is None:
            raise ClientError("spectator", "a spectator cannot act; join a free seat to play")
        if not isinstance(msg.get("action"), dict):
            raise ClientError("bad_message", "a submit message needs 'action', a JSON object")
        step = msg.get("step")
        if step is None or isinstance(step, bool) or not isinstance(step, int):
            raise ClientError("bad_message", "a submit message needs 'step', the integer step it was made for")
        t0 = time.perf_counter()
        if self.status == "open" and self.hub.replicas is not None:
            await self.hub.replicas.refresh(self)  # the last seat may have been taken through another process
        async with self.lock:
            if self.status == "open":
                raise ClientError("not_started", "the match starts when every seat is taken")
            if self.status == "finished":
                raise ClientError("game_over", "the match is over")
            try:
                outcome = self.session.submit(conn.seat, msg["action"], expected_step=step)
            except IllegalAction as exc:
                conn.send({**refusal(exc), "id": msg.get("id"), "step": self.session.step})
                return
            await self._accepted(conn.seat, outcome, ref=msg.get("id"), conn=conn)
        if self.hub.metrics is not None:
            self.hub.metrics.latency.observe(time.perf_counter() - t0)

    async def _accepted(self, seat: int, outcome: Any, ref: Any = None, conn: Conn | None = None,
                        bot: BotSeat | None = None, bot_step: int | None = None) -> None:
        """Persist an accepted submission (under the lock), then tell everyone, then wake the bots."""
        action = outcome.action  # the session's own encoding of it (canonical: what its record keeps)
        finished = outcome.finished
        now = time.time()
        record = None
        if finished:
            self.status = "finished"
            record = self.session.record.to_json()
        t0 = time.perf_counter()
        try:
            await _to_the_end(self.hub.store.accept(self.code, self.no, self.seq, seat, action,
                                                    status="finished" if finished else None, record=record,
                                                    meta=self.meta if finished else None,
                                                    bot_state=bot.dump() if bot is not None else None,
                                                    bot_step=bot_step, at=now))
        except Exception as exc:
            health = self.hub.store.health
            if health.writable:  # not explained by a database that refuses writes (that is logged once, there)
                log.exception("room %s: storing submission %d failed; reloading from the database", self.code, self.seq)
            await self._reload()
            if conn is not None:
                conn.send(store_refusal(exc, ref) if not health.writable else
                          {"type": "error", "code": "internal", "message": "the action could not be stored; "
                           "nothing changed, try again", "id": ref})
            return
        if self.hub.metrics is not None:
            self.hub.metrics.store_write.observe(time.perf_counter() - t0)
        self.seq += 1
        self.touched = now
        self.hub.notify(self, self.seq - 1)
        if outcome.buffered is None:
            self.turn_started = now  # a new decision node begins (the same time is stored with the row)
        # stored: now everyone is told and the bots woken, whatever happens to the sender's own answer (it is
        # queued first, so the sender reads "accepted" before the state, but a reply that fails cannot stop
        # the broadcast)
        try:
            if conn is not None:
                reply = {"type": "accepted", "id": ref, "step": outcome.step, "buffered": outcome.buffered is not None}
                try:
                    text = dumps(reply)
                except Exception:  # an id no encoder takes (a Python caller's): answered without it
                    log.warning("room %s: the answer to submission %d could not be encoded", self.code, self.seq - 1)
                    text = dumps({**reply, "id": None})
                conn.send(text)
        finally:
            if finished:
                self._stop_clocks()
            self._observe(outcome.applied)
            self._arm_turn()
            self.broadcast_state(outcome.applied)
            self.kick_bots()

    async def _reload(self) -> None:
        row = await self.hub.store.load_match(self.code, self.no)
        if row is not None:
            fresh = Room.from_row(self.hub, row)
            self.session, self.seq, self.status, self.bots = fresh.session, fresh.seq, fresh.status, fresh.bots
            self.snap_cache.clear()
            self.log_epoch += 1
            self.turn_started = fresh.turn_started
            self._arm_turn()

    def _observe(self, applied: list) -> None:
        for a in applied:
            for q, bot in self.bots.items():
                visible = a.events_for(q)
                if visible:
                    try:
                        bot.agent.observe(q, visible)
                    except Exception:  # a broken bot must not keep the move from anyone: it only forgets
                        log.exception("room %s: bot %s at seat %d failed to observe step %d", self.code,
                                      jsonin.shown(bot.spec), q, a.index)

    async def end_match(self, kind: str, seats: list[int], reason: str, conn: Conn | None = None,
                        ref: Any = None) -> None:
        """End the live match outside the rules (``Session.end``: ``seats`` lose, every other seat wins), under
        the lock: check (the session refuses, changing nothing), store the finished record with its ending and
        the room's meta, then tell everyone (``ended``, and ``forfeit`` for a forfeit) and their new state."""
        meta_before = dict(self.meta)
        ending = self.session.end(kind, seats, reason)
        self.status = "finished"
        self.meta["ending"] = ending
        if kind == "forfeit":  # the room info's older field, for clients that read it
            self.meta["forfeit"] = {"seat": ending["seats"][0], "seats": ending["seats"], "reason": reason,
                                    "winners": ending["winners"], "step": ending["step"]}
        try:
            await _to_the_end(self.hub.store.set_status(self.code, self.no, "finished",
                                                        record=self.session.record.to_json(), meta=self.meta))
        except Exception as exc:
            writable = self.hub.store.health.writable
            if writable:  # not explained by a database that refuses writes (that is logged once, there)
                log.exception("room %s: storing the end of match %d failed; reloading from the database",
                              self.code, self.no)
            self.meta = meta_before
            await self._reload()
            if conn is not None:
                conn.send({"type": "error", "code": "internal", "message": "the end of the match could not be "
                           "stored; nothing changed, try again", "id": ref} if writable else
                          store_refusal(exc, ref))
            return
        self.snap_cache.clear()  # the same (match, seq), another snapshot: over
        self.hub.notify(self, -1)
        self._stop_clocks()
        self.broadcast({"type": "ended", "ending": ending})
        if kind == "forfeit":
            self.broadcast({"type": "forfeit", **self.meta["forfeit"]})
        self.broadcast_state()

    async def resign(self, conn: Conn, msg: Mapping) -> None:
        """A seated player gives up the live match: it loses, every other seat wins."""
        if conn.seat is None:
            raise ClientError("spectator", "a spectator has no match to resign")
        async with self.lock:
            self._check_live()
            await self.end_match("resign", [conn.seat], f"{seat_names(self.seats)[conn.seat]} resigned",
                                 conn=conn, ref=msg.get("id"))

    async def claim(self, conn: Conn, msg: Mapping) -> None:
        """A connected seated player claims the win: every absent human opponent's grace has run out. Those
        seats forfeit; every other seat (the claimant, bots, players still here) wins."""
        if conn.seat is None:
            raise ClientError("spectator", "a spectator cannot claim a win")
        async with self.lock:
            self._check_live()
            if self.hub.settings.grace_seconds <= 0:
                raise ClientError("no_claims", "this server gives no grace to absent players (--grace 0), so there "
                                               "is no win to claim")
            absent = [s for s in self.human_seats() if s != conn.seat and s not in self.conns]
            if not absent:
                raise ClientError("nobody_absent", "every opponent is here: there is no win to claim")
            waiting = [s for s in absent if s not in self.expired]
            if waiting:
                raise ClientError("grace_running", "an absent player may still come back: claim when their grace has "
                                                   "run out", grace_until={str(s): self.deadlines.get(s) for s in waiting})
            names = seat_names(self.seats)
            gone = " and ".join(names[s] for s in absent)
            await self.end_match("forfeit", absent, f"{gone} did not come back within "
                                                    f"{self.hub.settings.grace_seconds:g} s; {names[conn.seat]} "
                                                    "claimed the win", conn=conn, ref=msg.get("id"))

    def _check_live(self) -> None:
        if self.status == "open":
            raise ClientError("not_started", "the match starts when every seat is taken")
        if self.status == "finished" or self.session.is_over():
            raise ClientError("game_over", "the match is over")

    def _stop_clocks(self) -> None:
        for s in list(self.grace):
            self._cancel_grace(s)
        self.deadlines.clear()
        self.expired.clear()
        self._arm_turn()  # not live any more: only cancels

    async def chat(self, conn: Conn, msg: Mapping) -> None:
        if conn.seat is None:
            raise ClientError("spectator", "spectators read the chat but do not write")
        text = msg.get("text")
        if not isinstance(text, str):
            raise ClientError("bad_message", "a chat message needs 'text', a string")
        text = " ".join(text.split())
        if not text:
            raise ClientError("chat_empty", "an empty chat line is not sent")
        if len(text) > MAX_CHAT:
            raise ClientError("chat_too_long", f"a chat line holds at most {MAX_CHAT} characters (got {len(text)})")
        limits = self.hub.settings.limits
        bucket = self.chat_buckets.get(conn.seat)
        if bucket is None:  # per seat, whatever its sockets (a reconnect does not refill it)
            bucket = self.chat_buckets[conn.seat] = ChatBucket(limits.chat_per_second, limits.chat_burst)
        wait = bucket.take()
        if wait:
            raise ClientError("chat_rate", f"at most {limits.chat_per_second * 60:g} chat lines a minute (bursts of "
                                           f"{limits.chat_burst}); wait {max(1, round(wait))} s", retry_after=round(wait, 1))
        async with self.lock:
            seat = conn.seat
            name = self.seats[seat].name
            line_id, at = await self.hub.store.add_chat(self.code, self.no, seat, name, text, keep=limits.chat_kept)
            self.chat_seen = max(self.chat_seen, line_id)
            self.broadcast({"type": "chat", "seat": seat, "name": name, "text": text, "at": at})
            self.hub.notify(self, line_id, kind="chat")  # the other processes' spectators read it from the database

    async def rematch(self, conn: Conn) -> None:
        if conn.seat is None:
            raise ClientError("spectator", "only seated players can ask for a rematch")
        async with self.lock:
            if self.status != "finished":
                raise ClientError("not_finished", "a rematch can be asked for once the match is over")
            self.rematch_votes.add(conn.seat)
            if not set(self.human_seats()) <= self.rematch_votes:
                self.broadcast({"type": "rematch_vote", "seats": sorted(self.rematch_votes)})
                return
            await self.hub.start_rematch(self)

    async def abandon(self, reason: str) -> bool:
        """End an abandoned match (docs/server.md, "Limits"): finished as it stands, with ``meta.abandoned`` (no
        winner: never rated); the hub then unloads the room. False when it is in use again (a socket came)."""
        async with self.lock:
            if self.status == "finished" or self.conns or self.spectators:
                return False
            self.meta["abandoned"] = {"reason": reason, "at": time.time()}
            try:
                await self.hub.store.set_status(self.code, self.no, "finished", record=self.session.record.to_json(),
                                                meta=self.meta)
            except Exception:
                del self.meta["abandoned"]
                raise
            self.status = "finished"
            self.hub.notify(self, -1)
            self._stop_clocks()
            return True

    # --- advice (the tactical astrogation assistant) and hints -------------------------------------------
    async def advise(self, conn: Conn, msg: Mapping) -> None:
        """``Game.advise`` on this seat's own view, off the event loop; answered with ``advice`` or an error."""
        if conn.seat is None:
            raise ClientError("spectator", "a spectator has no ships to advise on")
        seat = conn.seat
        view = self.session.state.view(seat)  # read on the loop: the session only changes there
        try:
            advice = await asyncio.to_thread(self.game.advise, view, seat, msg.get("request"))
        except IllegalAction as exc:
            conn.send({**refusal(exc), "id": msg.get("id")})
            return
        conn.send({"type": "advice", "id": msg.get("id"), "advice": advice})

    async def hint(self, conn: Conn, msg: Mapping) -> None:
        """What ``bot:hard`` would play now for this seat, from its own decision (view and legal actions), run on
        the bot pool; only in rooms with a bot seat (a hint in a match between people would be a second
        player)."""
        if conn.seat is None:
            raise ClientError("spectator", "a spectator cannot ask for a hint")
        if not self.bots:
            raise ClientError("no_hints", "hints are only given in games against a bot")
        if self.status != "live":
            raise ClientError("not_live", "the match is not being played")
        seat, step = conn.seat, self.session.step
        if seat not in self.session.waiting_for():
            raise ClientError("not_your_turn", "a hint is for a decision of yours: wait for your turn")
        pending = self.hints.get(seat)
        if pending is not None and not pending[1].done():
            raise ClientError("hint_pending", "a hint for this seat is still being worked out: wait for its answer "
                                              f"(at most {MAX_PENDING_HINTS} at a time)")
        try:
            adviser = BotSeat.new(self.game.id, self.seed + step, seat, "bot:hard")
        except DeltavError as exc:
            raise ClientError("no_hints", f"this game has no hard bot to ask: {exc}") from None
        decision = self.session.decision(seat, adviser.rng)
        # worked out in a task of its own: the socket goes on reading, and closing it stops the work (detach)
        task = self._spawn(self._hint(conn, adviser, decision, step, msg.get("id")))
        if task is not None:
            self.hints[seat] = (conn, task)

    async def _hint(self, conn: Conn, adviser: BotSeat, decision: Any, step: int, ref: Any) -> None:
        try:
            action = await self.hub.bots.decide(adviser, decision, kind=HELP, lane=self.code)
            conn.send({"type": "hint", "id": ref, "step": step, "action": action.to_json(),
                       "text": self.session.describe(action)})
        except BotFailure as exc:
            conn.send({"type": "error", "code": "hint_failed", "message": f"the hard bot gave no hint ({exc.reason})",
                       "id": ref})
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug on the way: the request still gets its answer
            log.exception("room %s: a hint failed", self.code)
            conn.send({"type": "error", "code": "internal", "message": "the server failed on this message", "id": ref})
        finally:
            held = self.hints.get(adviser.seat)
            if held is not None and held[1] is asyncio.current_task():
                del self.hints[adviser.seat]

    # --- bots ------------------------------------------------------------------------------------------
    def kick_bots(self) -> None:
        if self.status != "live" or not self.owned or self.closed:
            return
        for seat in self.session.waiting_for():
            bot = self.bots.get(seat)
            if bot is not None and not bot.thinking and bot.failed_step != self.session.step:
                bot.thinking = True
                self._spawn(self._bot_turn(bot, self.session.step, self.no))

    async def _bot_turn(self, bot: BotSeat, step: int, no: int) -> None:
        try:
            # while the database refuses writes a bot's move could not be stored: it waits (no retry loop)
            await self.hub.store.health.wait_writable()
            if self.no != no or self.status != "live" or self.session.step != step:
                return
            decision = self.session.decision(bot.seat, bot.rng)
            try:
                action = await self.hub.bots.decide(bot, decision, lane=self.code)
                if action not in decision.legal_actions:
                    raise BotFailure("error", f"it answered {jsonin.shown(action)}, not one of its legal actions")
            except BotFailure as exc:  # the seat plays on: a random legal move, never a stalled match
                log.warning("room %s: bot %s at seat %d gave no move at step %d (%s); it plays a random legal move",
                            self.code, jsonin.shown(bot.spec), bot.seat, step, exc)
                action = fallback_action(self.seed, bot.seat, step, decision.legal_actions)
            async with self.lock:
                if self.no != no or self.status != "live" or self.session.step != step or not self.owned:
                    return
                try:
                    outcome = self.session.submit_action(bot.seat, action, expected_step=step)
                except IllegalAction as exc:
                    log.error("room %s: bot %s at seat %d sent an illegal action: %s", self.code, bot.spec, bot.seat, exc)
                    bot.failed_step = step  # not asked again at this step (the bot is broken, not the match)
                    return
                await self._accepted(bot.seat, outcome, bot=bot, bot_step=step)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: bot at seat %d failed", self.code, bot.seat)
            bot.failed_step = step
        finally:
            bot.thinking = False
            if self.no == no:
                self.kick_bots()  # it may have to decide again at once (decomposed decisions)

    # --- rebuilding ------------------------------------------------------------------------------------
    def become(self, row: MatchRow, owned: bool) -> None:
        """Rebuild this room in place from a stored match (the sockets stay), as its owner or as a replica."""
        fresh = Room.from_row(self.hub, row)
        self.no, self.seed, self.seats, self.session = fresh.no, fresh.seed, fresh.seats, fresh.session
        self.status, self.meta, self.seq, self.bots = fresh.status, fresh.meta, fresh.seq, fresh.bots
        self.clock, self.turn_started, self.public = fresh.clock, fresh.turn_started, fresh.public
        self.snap_cache.clear()
        self.log_epoch += 1  # another session: the viewers get its log whole
        self.owned = owned

    def _spawn(self, coro: Any) -> asyncio.Task | None:
        if self.closed:  # stopping: a task started now would never run (and never be awaited)
            coro.close()
            return None
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    async def close(self) -> None:
        """Stop the room's bots and clocks (waiting until they have stopped) and close its sockets. A bot turn
        cancelled here does not start the next one (``closed``)."""
        self.closed = True
        tasks = list(self.tasks)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for conn in [*self.conns.values(), *self.spectators]:
            conn.close(1012, "server restarting")


def bot_name(spec: str) -> str:
    """A bot spec in words: ``bot:normal`` -> "Normal bot", ``bot:ismcts:iterations=200`` -> "Ismcts bot"."""
    name = spec.removeprefix("bot:").split(":")[0]
    return f"{name[:1].upper()}{name[1:]} bot"


def seat_names(seats: list[SeatRow]) -> list[str]:
    """The seats' display names, the ``names`` of the match's describer: a bot seat by its level ("Hard bot"),
    a human seat by the name its holder gave, else "Player N" (a free seat, or a holder who gave none)."""
    return [bot_name(s.spec) if s.spec != "human" else (s.name or f"Player {s.seat + 1}") for s in seats]


async def _to_the_end(coro: Any) -> Any:
    """Await a database write that must not be cut in half by a cancellation (a server shutting down): the write
    completes, then the cancellation goes on."""
    write = asyncio.ensure_future(coro)
    try:
        return await asyncio.shield(write)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await write
        raise


def read_message(text: str, limit: int = MAX_MESSAGE_BYTES) -> Any:
    """A client message's JSON, read by the one bounded reader (:mod:`deltav.core.jsonin`); ClientError
    ``bad_json`` naming the field and the reason."""
    try:
        return jsonin.read(text, "message", jsonin.Limits(max_bytes=limit, max_depth=MAX_DEPTH, max_digits=MAX_DIGITS))
    except jsonin.JSONInputError as exc:
        raise ClientError("bad_json", str(exc), field=exc.field) from None


def good_ref(ref: Any) -> bool:
    """Is ``ref`` an ``id`` a client may give (echoed in answers, so it must encode): None, a short string, or
    an integer a browser holds exactly."""
    if ref is None:
        return True
    if isinstance(ref, str):
        return len(ref) <= MAX_ID_CHARS
    return type(ref) is int and -MAX_ID <= ref <= MAX_ID
def store_refusal(exc: Exception, ref: Any) -> dict:
    """The error a seat gets when its message could not be stored because the database refuses writes."""
    retry = getattr(exc, "retry_after", None)
    return {"type": "error", "code": "store_unavailable", "id": ref,
            "message": "the server cannot save anything right now (its database refuses writes); nothing changed: "
                       "try again in a few seconds", **({"retry_after": round(retry, 1)} if retry is not None else {})}


def message_ref(text: str | None) -> Any:
    """The client's ``id`` of a message, when it can be read and echoed (in errors); else None."""
    if not text or len(text) > MAX_MESSAGE_BYTES:
        return None
    try:
        msg = read_message(text)
    except ClientError:
        return None
    ref = msg.get("id") if isinstance(msg, dict) else None
    return ref if good_ref(ref) else None
