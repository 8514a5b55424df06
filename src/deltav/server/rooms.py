"""Rooms: the host of one room's match in this process (its lock, sockets, bots and one timer).

The match itself (session, seats, status, clocks as deadlines, endings, chat, rematch) is
:class:`deltav.server.match.Match`, which has no sockets, tasks or database. A :class:`Room` only: takes the
room's lock, calls the match with an input (a client message, a socket come or gone, a deadline passed, a bot's
move), and publishes its :class:`~deltav.server.match.Update` (:meth:`Room.publish`: store the rows, the database
being the truth, then answer the sender, tell everyone, send each viewer its state, tell the other processes,
re-arm the timer at the match's next deadline, wake the bots). Each viewer has an outbound queue drained by its own
task (``conns``), so a slow socket never holds the lock and messages reach every viewer in order. A socket is sent
the snapshot's log whole only when it does not have it (``Conn.log_epoch``); afterwards only each action's new
entries, once.

Rooms are made, found and restored by ``hub``; with several processes, ``leases`` decides whether this process
owns a room (``Room.owned``: only the owner decides, runs bots and clocks and holds the seats' sockets) and
``replicas`` keeps the others' copies current; both call this module's public methods. It knows no HTTP: ``app``
turns requests into calls here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypedDict

from deltav.core import jsonin
from deltav.core.errors import IllegalAction
from deltav.core.protocol import Game
from deltav.core.rng import Rng, derive_seed
from deltav.core.session import Session
from deltav.server.bot_workers import BOT_SECONDS, HELP, BotFailure, BotRunner, BotSeat, fallback_action, make_bot_agent
from deltav.server.clock import TIMEOUT_BOT
from deltav.server.cluster import ClusterConfig
from deltav.server.conns import OUTBOX_LIMIT, Conn, Socket, dumps
from deltav.server.limits import Bucket as ChatBucket
from deltav.server.limits import Limits
from deltav.server.match import (
    MAX_CHAT,
    Accept,
    AcceptedJson,
    ClientError,
    EndedJson,
    ForfeitMessageJson,
    Match,
    ServerErrorJson,
    StateMessageJson,
    Suggestion,
    SuggestionJson,
    Update,
    bot_name,
    refusal,
    seat_names,
)
from deltav.server.store import MatchRow, SeatRow, Store, StoreUnavailable

__all__ = ["MAX_CHAT", "OUTBOX_LIMIT", "ClientError", "Conn", "Room", "Settings", "Socket", "bot_name", "dumps",
           "refusal", "seat_names"]

log = logging.getLogger("deltav.server")

MAX_MESSAGE_BYTES = 16 * 1024  # a client message above this is refused (the connection stays open)
MAX_NAME = 40
RATE_PER_SECOND = 100.0  # client messages per second a connection may send on average...
RATE_BURST = 200  # ...with bursts up to this many
MAX_DEPTH = 32  # nesting of arrays and objects in a client message
MAX_DIGITS = 20  # digits of an integer in a client message
MAX_ID = 2**53 - 1  # an integer id a client may give (the largest a browser's numbers hold exactly)
MAX_ID_CHARS = 100  # a string id a client may give


@dataclass
class Settings:
    grace_seconds: float = 60.0  # a dropped human seat's time to come back when another human is connected
    bot_workers: int = 1  # worker processes for bot decisions (0: threads in the server process)
    max_message_bytes: int = MAX_MESSAGE_BYTES
    rate_per_second: float = RATE_PER_SECOND
    rate_burst: int = RATE_BURST
    cluster: ClusterConfig | None = None  # several processes on one database (None: this process alone)
    replica_linger_seconds: float = 30.0  # several processes: a replica with no socket is dropped after this
    bot_seconds: float = BOT_SECONDS  # CPU time a bot decision may take (searches stop there; see bot_workers.py)
    limits: Limits = field(default_factory=Limits)  # per-client limits: sockets, rates, room expiry, chat
    trusted_proxies: tuple[str, ...] = ()  # proxies whose X-Forwarded-For names the client (deltav serve --trusted-proxy)
    allowed_origins: tuple[str, ...] = ()  # other origins whose pages may change state here (--allow-origin)
    chosen_seeds: str = "solo"  # "solo": a seed is chosen only for rooms of the creator and bots; "any" (--chosen-seeds)
    review_budget: str = ""  # a game review's budget (deltav serve --review-budget; "": reviews.SERVER_BUDGET)
    db_pool: int | None = None  # PostgreSQL connections per process (deltav serve --db-pool; None: 5 + 10 overflow)
    # quick match (matchmaking.py): the wait before the offer of a bot (deltav serve --quick-match-wait), how long
    # an entry nobody polls stays (and a stuck pairing waits), how many waiting make the rating band count, the
    # poll interval the client is told
    queue_offer_seconds: float = 30.0
    queue_stale_seconds: float = 30.0
    queue_band_pool: int = 6
    queue_poll_seconds: float = 1.5



class LimitsJson(TypedDict):
    max_message_bytes: int
    max_chat: int
    """The most characters of one chat line."""
    rate_per_second: float


class WelcomeJson(TypedDict):
    """The first message on a socket: which room, match and seat it is, and the limits of what it may send."""

    type: Literal["welcome"]
    room: str
    match: int
    seat: int | None
    role: Literal["player", "spectator"]
    limits: LimitsJson


class ChatJson(TypedDict):
    """A chat line, to everyone in the room."""

    type: Literal["chat"]
    seat: int
    name: str | None
    text: str
    at: float


class RematchVoteJson(TypedDict):
    """The seats that asked for a rematch so far (the match restarts once every person's seat asked)."""

    type: Literal["rematch_vote"]
    seats: list[int]


class RematchJson(TypedDict):
    """The room's next match began: every connected seat moved on by one (a ``welcome`` with its new seat
    follows on each socket)."""

    type: Literal["rematch"]
    match: int
    seats: dict[str, int]
    """Every seat's number in the new match, keyed by its number in the last one (as text): seats rotate by one
    (``{"0": 1, "1": 0}`` for two players)."""


class TimeoutJson(TypedDict):
    """A person's turn timer ran out and the timeout bot played for the seat (never what it played)."""

    type: Literal["timeout"]
    seat: int
    step: int
    on_timeout: Literal["bot"]
    played_by: str
    """The bot's spec."""


class ReplacedJson(TypedDict):
    """This seat connected from somewhere else: this socket closes next (4001)."""

    type: Literal["replaced"]
    message: str


class RedirectJson(TypedDict):
    """The room is served by another process: this socket closes next (4010) and the client says hello at
    ``url`` with the same token."""

    type: Literal["redirect"]
    url: str
    message: str


class PongJson(TypedDict):
    """The answer to ``ping``."""

    type: Literal["pong"]
    id: str | int | None


#: Every message the server sends on a room's socket (docs/server.md), by its ``type``.
ServerMessageJson = (WelcomeJson | StateMessageJson | AcceptedJson | ServerErrorJson | ChatJson | EndedJson
                     | ForfeitMessageJson | RematchVoteJson | RematchJson | SuggestionJson | TimeoutJson | ReplacedJson
                     | RedirectJson | PongJson)


class Host(Protocol):
    """What a room, the leases and the replicas use of the hub that holds them (``hub.Hub`` is the one; typed
    here, where they all can import it without a cycle)."""

    store: Store
    settings: Settings
    bots: BotRunner
    metrics: Any  # deltav.server.metrics.Metrics, or None
    leases: Any  # deltav.server.leases.Leases (several processes), or None
    replicas: Any  # deltav.server.replicas.Replicas (several processes), or None
    rooms: dict[str, Room]
    cluster: ClusterConfig | None
    bus: Any  # deltav.server.cluster.Bus (several processes), or None
    creating: set[str]
    loading: dict[str, asyncio.Lock]

    def game(self, gid: str) -> type[Game]: ...

    def notify(self, room: Room, seq: int, kind: str = "room") -> None: ...

    def later(self, coro: Any) -> asyncio.Task: ...


class Room:
    """The host of one room's current match in this process (see the module's docstring)."""

    def __init__(self, hub: Host, match: Match):
        self.hub = hub
        self.match = match
        self.lock = asyncio.Lock()
        self.conns: dict[int, Conn] = {}
        self.spectators: set[Conn] = set()
        self.tasks: set[asyncio.Task] = set()
        self.timer: asyncio.Task | None = None  # the one timer: the match's next deadline (owner only)
        self.timer_at: float | None = None
        # several processes: only the owner (the holder of the room's lease) decides, runs bots and clocks and holds
        # the seats' sockets; any other process keeps a replica for its spectators, caught up from the database
        self.owned = True
        self.remote: dict | None = None  # a replica's copy of the owner's live info (connected seats, graces)
        self.closed = False  # the server is stopping: no new bot turn, timer or grace clock starts
        self.writing = False  # an update's rows are being stored: the match holds steps the database may refuse
        self.chat_seen = 0  # the id of the newest chat line shown here (several processes: lines after it are new)
        self.idle_since = time.time()  # when its last socket left (a replica is then evicted)
        self.evicted = False  # a replica dropped from the hub (a socket reaching it must look the room up again)
        self.suggesting: dict[int, tuple[Conn, asyncio.Task]] = {}  # seat -> the suggestion worked out for it
        self.suggest_buckets: dict[int, ChatBucket] = {}  # each seat's rate of suggestions
        self.chat_buckets: dict[int, ChatBucket] = {}  # each seat's chat rate
        self.handlers: dict[str, Callable[[Conn, Mapping], Awaitable[None]]] = {
            "ping": self.ping, "sync": self.sync, "submit": self.submit, "chat": self.chat, "rematch": self.rematch,
            "suggest": self.suggest, "resign": self.resign, "claim": self.claim}

    @classmethod
    def from_row(cls, hub: Host, row: MatchRow) -> Room:
        return cls(hub, Match.from_rows(hub.game, row, hub.settings.grace_seconds))

    # the match's fields the hub, the app and the tests read (the match is changed through its inputs only)
    @property
    def code(self) -> str:
        return self.match.code

    @property
    def no(self) -> int:
        return self.match.no

    @property
    def status(self) -> str:
        return self.match.status

    @property
    def session(self) -> Session:
        return self.match.session

    @property
    def game(self) -> type[Game]:
        return self.match.game

    @property
    def seats(self) -> list[SeatRow]:
        return self.match.seats

    @property
    def meta(self) -> dict[str, Any]:
        return self.match.meta

    @property
    def seq(self) -> int:
        return self.match.seq

    @property
    def touched(self) -> float:
        return self.match.touched

    def adopt(self, fresh: Match) -> None:
        """Hold ``fresh`` (rebuilt from storage by ``Match.from_rows``) as this room's match; the sockets stay. In
        the same match the live info (connected seats, graces, rematch votes) carries over; every viewer gets the
        log whole again."""
        old = self.match
        if fresh.no == old.no:
            fresh.connected, fresh.grace_until, fresh.expired = old.connected, old.grace_until, old.expired
            fresh.rematch_votes = old.rematch_votes
        else:
            fresh.connected = set(self.conns)
        fresh.log_epoch = old.log_epoch + 1
        self.match = fresh

    def become(self, row: MatchRow, owned: bool) -> None:
        """Rebuild this room in place from a stored match (the sockets stay), as its owner or as a replica."""
        self.adopt(Match.from_rows(self.hub.game, row, self.hub.settings.grace_seconds))
        self.owned = owned

    def start_owning(self) -> None:
        """This process has just become the room's owner: run its bots and clocks."""
        self.owned = True
        self.remote = None
        self.match.arm_graces(time.time())
        self.kick_bots()
        self.arm()

    def stop_owning(self, url: str | None) -> None:
        """Another process owns the room now: stop the bots and clocks, send the seats there."""
        self.owned = False
        for t in list(self.tasks):
            if t is not asyncio.current_task():
                t.cancel()
        self.timer, self.timer_at = None, None
        self.match.stop_clocks()
        self.match.connected.clear()
        for conn in list(self.conns.values()):
            conn.send({"type": "redirect", "url": url, "message": "this room is now served by another process"})
            conn.close(4010, "redirect")
        self.conns.clear()

    def set_remote(self, info: dict | None) -> None:
        """A replica: the owner's live info (connected seats, grace deadlines) for its spectators."""
        self.remote = info

    def be_replica(self, info: dict | None) -> None:
        """Another process owns this room (just loaded here): a replica showing the owner's live info."""
        self.owned = False
        self.remote = info

    def saw_chat(self, line_id: int) -> None:
        """The newest chat line shown here (several processes: the lines after it are news)."""
        self.chat_seen = max(self.chat_seen, line_id)

    def went_idle(self, now: float) -> None:
        """Its last socket left (a replica is evicted after lingering from now)."""
        self.idle_since = now

    def evict(self) -> None:
        """Dropped from the hub (a replica): a socket reaching it must look the room up again; nothing starts."""
        self.evicted = True
        self.closed = True

    def take_seat(self, seat: int, token_hash: str, name: str | None, meta: dict, last: bool, now: float) -> None:
        """A free seat was taken (stored by the hub): named, and the match goes live if it was the last."""
        self.match.take_seat(seat, token_hash, name, meta, last, now)
        self.arm()
        self.broadcast_state()
        self.kick_bots()
        self.hub.notify(self, -1)

    # --- messages out ----------------------------------------------------------------------------------
    def room_info(self) -> dict:
        return self.match.room_info(self.remote if not self.owned else None)

    def state_text(self, seat: int | None, events_text: str = "[]", room_text: str | None = None,
                   with_log: bool = True) -> str:
        return self.match.state_text(seat, events_text, room_text or dumps(self.room_info()), with_log)

    def send_whole(self, conn: Conn, since: int | None = None) -> None:
        """Send ``conn`` its state with the snapshot's log (the newest entries, or those from step ``since`` on):
        on connecting and on ``sync``; from then on it is sent only the new entries."""
        conn.send(self.state_text(conn.seat) if since is None else
                  self.match.state_message(conn.seat, since, self.remote if not self.owned else None))
        conn.log_epoch = self.match.log_epoch

    def broadcast_state(self, applied: list | None = None) -> None:
        """Every viewer's own snapshot and the log entries the ``applied`` steps added that it may see, once:
        the entries are the session's own (``Session.log``, built once), and a snapshot carries its log tail
        only for a socket that does not have it yet (``log_epoch``)."""
        events_text = self.match.events_texts(applied or [])
        room_text = dumps(self.room_info())
        epoch = self.match.log_epoch
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

    # --- the publication step --------------------------------------------------------------------------
    async def publish(self, update: Update, conn: Conn | None = None, ref: Any = None) -> bool:
        """Under the lock: store the update's rows (the database is the truth: before anyone is told), then
        answer the sender, tell everyone, send each viewer its state, tell the other processes, re-arm the timer
        and wake the bots. A row the database refuses: the match is rebuilt from storage (so nothing changed),
        the sender is told, and False is returned."""
        self.writing = bool(update.rows)
        try:
            return await self._store_and_tell(update, conn, ref)
        finally:
            self.writing = False

    async def settled(self) -> None:
        """Return once no update is being stored: what is read of the match after it (``GET /rooms/{code}``) is
        what the database holds, never a step a failed write will take back. Waits only while a write is in
        flight."""
        if self.writing:
            async with self.lock:
                pass

    async def _store_and_tell(self, update: Update, conn: Conn | None, ref: Any) -> bool:
        store = self.hub.store
        for row in update.rows:
            t0 = time.perf_counter()
            try:
                if isinstance(row, Accept):
                    await _to_the_end(store.accept(self.code, self.no, row.seq, row.seat, row.action, status=row.status,
                                                   record=row.record, meta=row.meta, bot_state=row.bot_state,
                                                   bot_step=row.bot_step, at=row.at))
                else:
                    await _to_the_end(store.set_status(self.code, self.no, "finished", record=row.record, meta=row.meta))
            except Exception as exc:
                writable = store.health.writable
                what = "submission" if isinstance(row, Accept) else "the end of the match"
                if writable:  # not explained by a database that refuses writes (that is logged once, there)
                    log.exception("room %s: storing %s failed; reloading from the database", self.code, what)
                await self._reload()
                if conn is not None:
                    conn.send(store_refusal(exc, ref) if not writable else
                              {"type": "error", "code": "internal", "id": ref,
                               "message": ("the action" if isinstance(row, Accept) else "the end of the match")
                               + " could not be stored; nothing changed, try again"})
                return False
            if isinstance(row, Accept) and self.hub.metrics is not None:
                self.hub.metrics.store_write.observe(time.perf_counter() - t0)
        if update.stored is not None:
            update.stored()
        # stored: now everyone is told and the bots woken, whatever happens to the sender's own answer (it is
        # queued first, so the sender reads "accepted" before the state, but a reply that fails cannot stop
        # the broadcast)
        try:
            if update.reply is not None and conn is not None:
                try:
                    text = dumps(update.reply)
                except Exception:  # an id no encoder takes (a Python caller's): answered without it
                    log.warning("room %s: the answer to a message could not be encoded", self.code)
                    text = dumps({**update.reply, "id": None})
                conn.send(text)
        finally:
            if update.notify is not None:
                self.hub.notify(self, update.notify)
            for msg in update.said:
                self.broadcast(msg)
            if update.states:
                self.broadcast_state(update.applied)
            if update.live and self.hub.replicas is not None:
                self.hub.replicas.share_info(self)
            self.arm()
            if update.wake_bots:
                self.kick_bots()
        return True

    async def _reload(self) -> None:
        """A write failed: the match again as the database has it (the sockets and the live info stay)."""
        row = await self.hub.store.load_match(self.code, self.no)
        if row is not None:
            self.adopt(Match.from_rows(self.hub.game, row, self.hub.settings.grace_seconds))
        self.arm()

    # --- the timer -------------------------------------------------------------------------------------
    def arm(self) -> None:
        """(Re)arm the room's one timer at the match's next deadline (a grace, the turn); none on a replica or a
        closing room."""
        deadlines = self.match.deadlines() if self.owned and not self.closed else []
        at = min(deadlines) if deadlines else None
        if at is not None and at == self.timer_at and self.timer is not None and not self.timer.done():
            return
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer, self.timer_at = None, at
        if at is not None:
            self.timer = self._spawn(self._fire(at))

    async def _fire(self, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))
        async with self.lock:
            if self.timer is asyncio.current_task():
                self.timer, self.timer_at = None, None
            if not self.owned:
                return
            no, step = self.no, self.session.step
            update, late = self.match.due(time.time())
            await self.publish(update)
        if late is not None:
            await self._stand_in(late, no, step)

    async def _stand_in(self, seat: int, no: int, step: int) -> None:
        """The turn timer's ``"bot"``: the easy bot plays the late seat's move from that seat's own view (the
        timer, re-armed by the accepted move, plays the next late seat of a simultaneous node at once)."""
        stand_in = BotSeat(seat, TIMEOUT_BOT, make_bot_agent(self.game.id, TIMEOUT_BOT),
                           Rng(derive_seed(self.match.seed, "timeout", seat, step)))
        decision = self.session.decision(seat, stand_in.rng)
        try:
            action = await self.hub.bots.decide(stand_in, decision, lane=self.code)
        except BotFailure as exc:
            log.warning("room %s: the timeout bot failed for seat %d (%s)", self.code, seat, exc)
            action = fallback_action(self.match.seed, seat, step, decision.legal_actions)
        async with self.lock:
            if self.no != no or self.session.step != step or seat not in self.match.late_seats():
                return
            update = self.match.play(seat, action, step, time.time())
            # never the move itself: it may be a secret choice
            update.said.insert(0, {"type": "timeout", "seat": seat, "step": step, "on_timeout": "bot",
                                   "played_by": TIMEOUT_BOT})
            await self.publish(update)

    # --- connections -----------------------------------------------------------------------------------
    async def attach(self, ws: Socket, token: str | None, client: str | None = None) -> Conn:
        if token and self.hub.leases is not None:
            await self.hub.leases.own_or_redirect(self)  # a seat plays on the room's owner process
            if self.match.seat_of(token) is None:
                await self.hub.replicas.refresh(self)  # the seat may have been taken through another process
        async with self.lock:
            if self.evicted:  # a replica dropped while this socket waited: the caller looks the room up again
                raise ClientError("evicted", "this room was just unloaded here; connect again", 503)
            seat = None
            if token:
                seat = self.match.seat_of(token)
                if seat is None:
                    raise ClientError("bad_token", "this token holds no seat in this room", 403)
            limits = self.hub.settings.limits
            if seat is None and len(self.spectators) >= limits.spectators_per_room:
                raise ClientError("too_many_sockets", f"this room has {limits.spectators_per_room} spectators "
                                  "already; try again later", 429)
            conn = Conn(ws, seat, self.hub.settings.rate_per_second, self.hub.settings.rate_burst,
                        max_bytes=limits.outbox_bytes, close_seconds=limits.close_seconds)
            now = time.time()
            if seat is None:
                self.spectators.add(conn)
                self.match.touched = now
            else:
                old = self.conns.get(seat)
                if old is not None:
                    old.send({"type": "replaced", "message": "this seat connected from somewhere else"})
                    old.close(4001, "replaced")
                self.conns[seat] = conn
                self.match.saw_client(seat, client, connected=True)
            conn.send(self.welcome(seat))
            if seat is None:  # a spectator changes nobody else's message (the room info lists seats only)
                self.send_whole(conn)
            else:
                await self.publish(self.match.connect(seat, now, arm=self.owned and not self.closed))
            return conn

    def welcome(self, seat: int | None) -> WelcomeJson:
        """The ``welcome`` of a socket of ``seat`` (None: a spectator): on connecting and at each rematch."""
        return {"type": "welcome", "room": self.code, "match": self.no, "seat": seat,
                "role": "player" if seat is not None else "spectator",
                "limits": {"max_message_bytes": self.hub.settings.max_message_bytes, "max_chat": MAX_CHAT,
                           "rate_per_second": self.hub.settings.rate_per_second}}

    async def detach(self, conn: Conn) -> None:
        conn.close()
        held = self.suggesting.get(conn.seat) if conn.seat is not None else None
        if held is not None and held[0] is conn:
            held[1].cancel()  # nobody reads its answer: the bot worker stops working for it
        now = time.time()
        self.match.touched = now
        async with self.lock:
            if conn.seat is None:
                self.spectators.discard(conn)
                if self.hub.replicas is not None:
                    self.hub.replicas.left(self)
                return
            if self.conns.get(conn.seat) is not conn:
                return  # already replaced by a newer socket
            del self.conns[conn.seat]
            await self.publish(self.match.disconnect(conn.seat, now, arm=self.owned and not self.closed))

    # --- messages in -----------------------------------------------------------------------------------
    async def handle(self, conn: Conn, text: str | None) -> None:
        """One client message (text of a WebSocket frame; None for a binary frame), dispatched by its type to
        :attr:`handlers`."""
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
            handler = self.handlers.get(kind)
            if handler is None:
                raise ClientError("unknown_type", f"unknown message type {jsonin.shown(kind)} (known: submit, chat, sync, ping, "
                                                  "rematch, suggest, resign, claim)")
            await handler(conn, msg)
        except ClientError as exc:
            conn.send({**exc.to_json(), "id": message_ref(text)})
        except StoreUnavailable as exc:  # a chat line or a rematch the database could not store
            conn.send(store_refusal(exc, message_ref(text)))

    async def ping(self, conn: Conn, msg: Mapping) -> None:
        conn.send({"type": "pong", "id": msg.get("id")})

    async def sync(self, conn: Conn, msg: Mapping) -> None:
        since = msg.get("since")
        if since is not None and (isinstance(since, bool) or not isinstance(since, int) or since < 0):
            raise ClientError("bad_message", "field 'since' must be a step number (0 or more)")
        self.send_whole(conn, since)

    async def submit(self, conn: Conn, msg: Mapping) -> None:
        t0 = time.perf_counter()
        if conn.seat is not None and self.status == "open" and self.hub.replicas is not None:
            await self.hub.replicas.refresh(self)  # the last seat may have been taken through another process
        async with self.lock:
            update = self.match.submit(conn.seat, dict(msg), time.time())
            stored = await self.publish(update, conn, msg.get("id"))
        if stored and update.rows and self.hub.metrics is not None:
            self.hub.metrics.latency.observe(time.perf_counter() - t0)

    async def resign(self, conn: Conn, msg: Mapping) -> None:
        """A seated player gives up the live match: it loses, every other seat wins."""
        async with self.lock:
            await self.publish(self.match.resign(conn.seat), conn, msg.get("id"))

    async def claim(self, conn: Conn, msg: Mapping) -> None:
        """A connected seated player claims the win over absent opponents whose grace has run out."""
        async with self.lock:
            await self.publish(self.match.claim(conn.seat), conn, msg.get("id"))

    async def chat(self, conn: Conn, msg: Mapping) -> None:
        name, text = self.match.chat(conn.seat, msg.get("text"))
        assert conn.seat is not None
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

    async def rematch(self, conn: Conn, msg: Mapping | None = None) -> None:
        async with self.lock:
            if not self.match.rematch(conn.seat):
                self.broadcast({"type": "rematch_vote", "seats": sorted(self.match.rematch_votes)})
                return
            await self.start_rematch()

    async def start_rematch(self) -> None:
        """Under the lock: the room's next match (``Match.next_match``: seats rotated, a new seed, the clock
        carried over) stored, then rebuilt from that row as every match is (``Match.from_rows``)."""
        row = self.match.next_match(now=time.time())
        await self.hub.store.add_match(row)
        n = len(self.seats)
        conns = {}
        for seat, conn in self.conns.items():
            conn.seat = (seat + 1) % n
            conns[conn.seat] = conn
        self.conns = conns
        self.adopt(Match.from_rows(self.hub.game, row, self.hub.settings.grace_seconds))
        self.broadcast({"type": "rematch", "match": self.no, "seats": {str(seat): (seat + 1) % n for seat in range(n)}})
        for conn in self.conns.values():
            conn.send(self.welcome(conn.seat))
        self.match.arm_graces(time.time())
        self.arm()
        self.broadcast_state()
        self.kick_bots()
        self.hub.notify(self, -1)

    async def abandon(self, reason: str) -> bool:
        """End an abandoned match (docs/server.md, "Limits"): finished as it stands, with ``meta.abandoned`` (no
        winner: never rated); the hub then unloads the room. False when it is in use again (a socket came) or the
        end could not be stored."""
        async with self.lock:
            if self.status == "finished" or self.conns or self.spectators:
                return False
            return await self.publish(self.match.abandon(reason, time.time()))

    # --- advice: one channel, ``suggest`` --------------------------------------------------------------
    async def suggest(self, conn: Conn, msg: Mapping) -> None:
        """``Match.suggest``: checked and built from the seat's own decision on the loop, then worked out in a task
        of its own (the socket goes on reading; closing it stops the work: ``detach``): the bots on the bot workers
        (:data:`HELP`), the game's plan on a thread. One request per seat at a time (``suggest_pending``) and a rate
        per seat (``suggest_rate``, ``Limits.suggest_per_second``)."""
        if conn.seat is not None:
            pending = self.suggesting.get(conn.seat)
            if pending is not None and not pending[1].done():
                raise ClientError("suggest_pending", "a suggestion for this seat is still being worked out: wait for "
                                                     "its answer (one at a time)")
        work = self.match.suggest(conn.seat, dict(msg)).work
        assert work is not None
        limits = self.hub.settings.limits
        bucket = self.suggest_buckets.get(work.seat)
        if bucket is None:  # per seat, whatever its sockets (a reconnect does not refill it)
            bucket = self.suggest_buckets[work.seat] = ChatBucket(limits.suggest_per_second, limits.suggest_burst)
        wait = bucket.take()
        if wait:
            raise ClientError("suggest_rate", f"at most {limits.suggest_per_second * 60:g} suggestions a minute "
                                              f"(bursts of {limits.suggest_burst}); wait {max(1, round(wait))} s",
                              retry_after=round(wait, 1))
        task = self._spawn(self._suggest(conn, work))
        if task is not None:
            self.suggesting[work.seat] = (conn, task)

    async def _suggest(self, conn: Conn, work: Suggestion) -> None:
        try:
            candidates = None
            if work.bots:
                candidates = [await self._candidate(bot, decision) for bot, decision in work.bots]
            plan = None
            if work.plan is not None:
                try:
                    plan = await asyncio.to_thread(self.game.advise, work.view, work.seat, work.plan)
                except IllegalAction as exc:
                    conn.send({**refusal(exc), "id": work.ref})
                    return
            reply = self.match.suggested(work, candidates, plan).reply
            assert reply is not None
            conn.send(reply)
        except asyncio.CancelledError:
            raise
        except Exception:  # a bug on the way: the request still gets its answer
            log.exception("room %s: a suggestion failed", self.code)
            conn.send({"type": "error", "code": "internal", "message": "the server failed on this message",
                       "id": work.ref})
        finally:
            held = self.suggesting.get(work.seat)
            if held is not None and held[1] is asyncio.current_task():
                del self.suggesting[work.seat]

    async def _candidate(self, bot: BotSeat, decision: Any) -> dict:
        """One bot's suggestion: ``{"spec", "action", "text"}``, or ``{"spec", "error"}`` when it gave none."""
        try:
            action = await self.hub.bots.decide(bot, decision, kind=HELP, lane=self.code)
        except BotFailure as exc:  # a failing bot costs the others nothing
            return {"spec": bot.spec, "error": exc.reason}
        if action not in decision.legal_actions:
            return {"spec": bot.spec, "error": "illegal"}
        return {"spec": bot.spec, "action": action.to_json(), "text": self.session.describe(action)}

    # --- bots ------------------------------------------------------------------------------------------
    def kick_bots(self) -> None:
        if self.status != "live" or not self.owned or self.closed:
            return
        for seat in self.session.waiting_for():
            bot = self.match.bots.get(seat)
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
                action = fallback_action(self.match.seed, bot.seat, step, decision.legal_actions)
            async with self.lock:
                if self.no != no or self.status != "live" or self.session.step != step or not self.owned:
                    return
                try:
                    update = self.match.play(bot.seat, action, step, time.time(), bot=True)
                except IllegalAction as exc:
                    log.error("room %s: bot %s at seat %d sent an illegal action: %s", self.code, bot.spec, bot.seat, exc)
                    bot.failed_step = step  # not asked again at this step (the bot is broken, not the match)
                    return
                await self.publish(update)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("room %s: bot at seat %d failed", self.code, bot.seat)
            bot.failed_step = step
        finally:
            bot.thinking = False
            if self.no == no:
                self.kick_bots()  # it may have to decide again at once (decomposed decisions)

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
