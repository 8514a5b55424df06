"""The server's database, the truth: rooms, their matches, seats (token hashes only), every accepted submission
in order, chat, and the archived record of each finished match.

SQLAlchemy 2 Core on an async engine: ``sqlite+aiosqlite:///file.db`` by default, ``postgresql+asyncpg://...``
with the same code. JSON is stored as text so both databases read it alike. The schema is created (or
upgraded) by Alembic migrations in ``deltav/server/migrations`` when the store opens.

On SQLite the accepted submissions (the hot path: every action of every room) are written by one thread of
their own through a plain (synchronous) SQLAlchemy engine on the same file, a whole batch in one hand-over:
through aiosqlite every statement, the BEGIN and the COMMIT each wait for a turn of the busy event loop, which
made the commit most of a submission's time in the server (docs/server.md, "Session 7"). The same statements
run on PostgreSQL through the async engine.

A database that refuses writes for a while (a read-only file, a full disk) puts the store in a *failing* state
(:class:`WriteHealth`): every write is refused at once with :class:`StoreUnavailable` (no statement reaches the
database, nothing is logged again) while a probe write is tried after a backoff (0.25 s doubling to 8 s); the
first probe that commits ends it. Entering and leaving that state drop every pooled connection, because SQLite
keeps a connection read-only for good when it was opened while its file could not be written. ``/readyz``
reports not-ready meanwhile, and rooms wait for :meth:`WriteHealth.wait_writable` before their bots decide again.

This module owns persistence only: it knows no game, no session and no socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    false,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

log = logging.getLogger("deltav.server")
metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("match_no", Integer, nullable=False),  # the room's current match (a rematch adds one)
    Column("public", Boolean, nullable=False, server_default=false()),  # listed for anyone (else: joined by code)
)

matches = Table(
    "matches",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("no", Integer, primary_key=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON, resolved
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),  # open | live | finished
    Column("meta", Text, nullable=False, default="{}"),  # JSON: forfeit, rematch origin...
    Column("record", Text, nullable=True),  # JSON record once finished
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    ForeignKeyConstraint(["code"], ["rooms.code"]),
    Index("ix_matches_status_created", "status", "created_at"),
)

seats = Table(
    "seats",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("no", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("spec", String(200), nullable=False),  # "human" or a bot spec such as "bot:hard"
    Column("token_hash", String(64), nullable=True),  # sha256 of the seat token, once a person holds it
    Column("name", String(60), nullable=True),
    Column("bot_state", LargeBinary, nullable=True),  # pickled (agent, rng) after the bot's last decision
    Column("bot_state_step", Integer, nullable=True),  # the step that decision was made at
    ForeignKeyConstraint(["code", "no"], ["matches.code", "matches.no"]),
)

submissions = Table(
    "submissions",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("no", Integer, primary_key=True),
    Column("seq", Integer, primary_key=True),  # 0, 1, 2... in the order the server accepted them
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # JSON
    Column("at", Float, nullable=False),
    ForeignKeyConstraint(["code", "no"], ["matches.code", "matches.no"]),
)

chat = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(8), nullable=False, index=True),
    Column("no", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(60), nullable=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)


leases = Table(  # several processes on one database: the one process that owns each room, until expires_at
    "leases",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("owner", String(40), nullable=False),  # the owning process's node id
    Column("url", String(300), nullable=False),  # where its seats connect (its advertised base URL)
    Column("expires_at", Float, nullable=False),  # epoch seconds; renewed by the owner's heartbeat
    Column("info", Text, nullable=True),  # JSON: the owner's live room info (connected seats, deadlines)
)

queue = Table(  # the quick-match queue (server/matchmaking.py): one row per waiting player, across restarts
    "queue",
    metadata,
    Column("ticket_hash", String(64), primary_key=True),  # sha256 of the entry's ticket (the client holds it)
    Column("client", String(40), nullable=False),  # the client (limits.client_id of its address)
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON: the resolved options the match is made with
    Column("key", String(300), nullable=False),  # game and options: entries of one key play each other
    Column("seats", Integer, nullable=False),  # the match's seat count
    Column("name", String(60), nullable=True),
    Column("band", Integer, nullable=False),  # the rating band (matchmaking.band)
    Column("joined_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),  # the client's last poll (an entry not seen for a while is dropped)
    Column("state", String(16), nullable=False),  # waiting | pairing (being put in a room) | matched
    Column("bots", String(200), nullable=True),  # agreed to fill the empty seats with this bot after the wait
    Column("claimed_at", Float, nullable=True),  # when a pairing took it (a stuck pairing is undone)
    Column("room", String(8), nullable=True),  # matched: the room and the seat
    Column("seat", Integer, nullable=True),
    Index("ix_queue_key_state", "key", "state", "joined_at"),
    Index("ix_queue_client", "client"),
)


@dataclass
class QueueRow:
    ticket_hash: str
    client: str
    game: str
    options: dict
    key: str
    seats: int
    name: str | None
    band: int
    joined_at: float
    seen_at: float
    state: str = "waiting"
    bots: str | None = None
    claimed_at: float | None = None
    room: str | None = None
    seat: int | None = None


def _queue_row(r: Any) -> QueueRow:
    return QueueRow(r.ticket_hash, r.client, r.game, json.loads(r.options), r.key, r.seats, r.name, r.band,
                    r.joined_at, r.seen_at, r.state, r.bots, r.claimed_at, r.room, r.seat)


class _Taken(Exception):
    """A quick-match pairing found some of its entries taken (the transaction is rolled back)."""


class DuplicateCode(Exception):
    """The room code is taken (the caller draws another)."""


class StoreUnavailable(Exception):
    """The database refuses writes for now: nothing was stored. ``retry_after``: seconds until the next try."""

    def __init__(self, message: str, retry_after: float):
        super().__init__(message)
        self.retry_after = retry_after


class WriteHealth:
    """Whether the database takes writes: after a failed write, writes are refused at once (no tight loop of
    failing statements and tracebacks) until a probe write, tried after a growing backoff, commits.

    ``probe`` is an async callable making one real write; ``reset`` (async) closes the pooled connections (SQLite
    keeps a connection opened while its file could not be written read-only for good)."""

    FIRST_BACKOFF = 0.25
    MAX_BACKOFF = 8.0

    def __init__(self, probe: Any, reset: Any):
        self._probe, self._reset = probe, reset
        self.failing_since: float | None = None
        self.reason = ""
        self.failed_writes = 0  # writes the database refused, over the process's life (a metric)
        self.refused_writes = 0  # writes refused here without reaching the database while failing
        self._backoff = self.FIRST_BACKOFF
        self.retry_at = 0.0
        self._ok = asyncio.Event()
        self._ok.set()
        self._prober: asyncio.Task | None = None

    @property
    def writable(self) -> bool:
        return self.failing_since is None

    def check(self) -> None:
        """Raise StoreUnavailable while failing (before any statement is sent)."""
        if self.failing_since is not None:
            self.refused_writes += 1
            raise StoreUnavailable(f"the database refuses writes ({self.reason}); nothing was stored",
                                   max(0.0, self.retry_at - time.monotonic()))

    def failed(self, exc: BaseException) -> None:
        self.failed_writes += 1
        if self.failing_since is None:
            self.failing_since = time.time()
            self.reason = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
            self._backoff = self.FIRST_BACKOFF
            self._ok.clear()
            log.error("the database refuses writes (%s); writes are refused until a probe write commits",
                      self.reason)
            with contextlib.suppress(RuntimeError):  # no running loop: the next write probes
                if self._prober is None or self._prober.done():
                    self._prober = asyncio.get_running_loop().create_task(self._probe_until_ok())
        self.retry_at = time.monotonic() + self._backoff

    async def _probe_until_ok(self) -> None:
        while self.failing_since is not None:
            await asyncio.sleep(max(0.0, self.retry_at - time.monotonic()))
            try:
                await self._reset()  # a connection opened during the fault stays read-only: probe on fresh ones
                await self._probe()
            except Exception as exc:
                self.failed_writes += 1
                self._backoff = min(self.MAX_BACKOFF, self._backoff * 2)
                self.retry_at = time.monotonic() + self._backoff
                log.debug("probe write failed: %s", exc)
                continue
            with contextlib.suppress(Exception):
                await self._reset()  # connections opened during the fault (readers too) may be read-only for good
            log.warning("the database takes writes again (after %.1f s; %d writes refused meanwhile)",
                        time.time() - self.failing_since, self.refused_writes)
            self.failing_since = None
            self.reason = ""
            self._ok.set()

    async def wait_writable(self) -> None:
        """Return once writes work (at once when they do)."""
        await self._ok.wait()

    async def close(self) -> None:
        if self._prober is not None:
            self._prober.cancel()
            with contextlib.suppress(BaseException):
                await self._prober



class RoomListSeatJson(TypedDict):
    seat: int
    kind: Literal["human", "bot"]
    spec: str
    taken: bool
    name: str | None


class RoomListEntryJson(TypedDict):
    """One room of ``GET /rooms`` (:meth:`Store.list_rooms`)."""

    code: str
    match: int
    game: str
    options: dict[str, Any]
    status: Literal["open", "live", "finished"]
    created_at: float
    """When the match was created (epoch seconds)."""
    seats: list[RoomListSeatJson]

@dataclass
class SeatRow:
    seat: int
    spec: str
    token_hash: str | None = None
    name: str | None = None
    bot_state: bytes | None = None
    bot_state_step: int | None = None


@dataclass
class MatchRow:
    code: str
    no: int
    game: str
    options: dict[str, Any]
    seed: int
    status: str
    seats: list[SeatRow]
    meta: dict[str, Any] = field(default_factory=dict)
    record: dict | None = None
    created_at: float = 0.0
    submissions: list[tuple[int, dict]] = field(default_factory=list)  # (seat, action JSON) in order
    submitted_at: list[float] = field(default_factory=list)  # the time each submission was stored
    public: bool = False  # the room is listed for anyone to join or watch (else joined by its code only)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # readers never block the writer
    cur.execute("PRAGMA synchronous=NORMAL")  # every commit survives a killed process (not a power cut)
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def default_url(path: str = "deltav.db") -> str:
    return f"sqlite+aiosqlite:///{path}"


def _finish_statement(code: str, no: int, status: str | None, record: dict | None, meta: dict | None,
                      now: float) -> Any:
    """The UPDATE of a match's status, archived record and meta (None when nothing changes)."""
    values: dict[str, Any] = {}
    if status is not None:
        values["status"] = status
    if record is not None:
        values["record"] = json.dumps(record, separators=(",", ":"))
        values["finished_at"] = now
    if meta is not None:
        values["meta"] = json.dumps(meta)
    if not values:
        return None
    return update(matches).where(matches.c.code == code, matches.c.no == no).values(**values)


def _batch_statements(items: list[tuple]) -> list[tuple]:
    """The statements (each an ``execute`` argument tuple) of one batch of accepted submissions: one INSERT of
    every submission, then each one's bot state and match status."""
    out: list[tuple] = [(insert(submissions), [  # one statement for the whole batch
        {"code": code, "no": no, "seq": seq, "seat": seat, "action": json.dumps(action), "at": now}
        for (code, no, seq, seat, action, *_rest, now) in items])]
    for code, no, _seq, seat, _action, status, record, meta, bot_state, bot_step, now in items:
        if bot_state is not None:
            out.append((update(seats).where(seats.c.code == code, seats.c.no == no, seats.c.seat == seat)
                        .values(bot_state=bot_state, bot_state_step=bot_step),))
        statement = _finish_statement(code, no, status, record, meta, now)
        if statement is not None:
            out.append((statement,))
    return out


def _execute_all(statements: list[tuple], conn: Any) -> None:
    for st in statements:
        conn.execute(*st)


class SqliteBatchWriter:
    """One thread with a synchronous engine on the store's SQLite file, for the batches of accepted submissions:
    a batch is one hand-over to the thread and one back. The store's write lock is held around it, so this
    connection and the async engine's never wait on each other's file lock.

    This connection does not checkpoint the write-ahead log itself (SQLite's default makes the commit that
    passes 1,000 pages copy them into the database and sync it: a few ms, sometimes far more on a busy disk,
    in some submission's latency); a thread of its own does it every CHECKPOINT_SECONDS while writes come in
    (a passive checkpoint never blocks a writer). Durability is the same: a commit is in the log either way."""

    CHECKPOINT_SECONDS = 1.0

    def __init__(self, url: str):
        self.engine = create_engine(url.replace("sqlite+aiosqlite://", "sqlite+pysqlite://", 1),
                                    connect_args={"timeout": 30, "check_same_thread": False})
        event.listen(self.engine, "connect", _sqlite_pragmas)
        event.listen(self.engine, "connect", _no_autocheckpoint)
        self.thread = ThreadPoolExecutor(1, thread_name_prefix="deltav-store-writer")
        self._written = threading.Event()
        self._stop = threading.Event()
        self._checkpoint_failing = False
        self._checkpointer = threading.Thread(target=self._checkpoints, name="deltav-store-checkpoint",
                                              daemon=True)
        self._checkpointer.start()

    async def run(self, fn: Any) -> Any:
        """``fn(sync connection)`` inside one transaction on the writer thread."""
        def work():
            with self.engine.begin() as conn:
                result = fn(conn)
            self._written.set()
            return result

        return await asyncio.get_running_loop().run_in_executor(self.thread, work)

    def _checkpoints(self) -> None:
        while not self._stop.wait(self.CHECKPOINT_SECONDS):
            if self._written.is_set():
                self._written.clear()
                self.checkpoint()

    def checkpoint(self) -> None:
        """Copy the committed log into the database file (passive: it skips what a writer holds)."""
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception as exc:  # a checkpoint that fails is retried after the next write; nothing is lost
            if not self._checkpoint_failing:  # said once, not every second while the database refuses writes
                log.warning("SQLite checkpoint failed: %s", exc)
            self._checkpoint_failing = True
            return
        self._checkpoint_failing = False

    def close(self) -> None:
        self._stop.set()
        self._checkpointer.join(timeout=5)
        self.thread.shutdown(wait=True)
        self.checkpoint()
        self.engine.dispose()


def _no_autocheckpoint(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA wal_autocheckpoint=0")
    cur.close()


class Store:
    def __init__(self, engine: AsyncEngine, url: str | None = None):
        self.engine = engine
        # SQLite has one writer at a time: writes queue here instead of failing with "database is locked"
        self._write_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._batch_writer = (SqliteBatchWriter(url) if url is not None and engine.dialect.name == "sqlite"
                              and ":memory:" not in url else None)
        self._pending: list[tuple[tuple, asyncio.Future]] = []
        self._writer: asyncio.Task | None = None
        self.health = WriteHealth(self._probe_write, self._drop_connections)

    @contextlib.asynccontextmanager
    async def _writing(self):
        """A write transaction (refused at once while the database refuses writes; a failure starts that)."""
        self.health.check()
        try:
            if self._write_lock is None:
                async with self.engine.begin() as conn:
                    yield conn
            else:
                async with self._write_lock, self.engine.begin() as conn:
                    yield conn
        except IntegrityError:  # the database works: the statement broke a rule (a taken code, a seat)
            raise
        except (DBAPIError, OSError) as exc:
            self.health.failed(exc)
            raise

    async def _probe_write(self) -> None:
        """One real write on every path the store writes through (on SQLite: the header's user_version, set to
        what it is, which rewrites the first page into the write-ahead log)."""
        if self.engine.dialect.name != "sqlite":
            async with self.engine.begin() as conn:
                await conn.execute(text("SELECT 1"))
            return

        def bump(conn: Any) -> None:
            version = conn.exec_driver_sql("PRAGMA user_version").scalar()
            conn.exec_driver_sql(f"PRAGMA user_version = {int(version)}")

        async with self._write_lock or contextlib.nullcontext():
            async with self.engine.begin() as conn:
                await conn.run_sync(bump)
            if self._batch_writer is not None:
                await self._batch_writer.run(bump)

    async def _drop_connections(self) -> None:
        """Close every pooled connection (checked-out ones are discarded when given back)."""
        await self.engine.dispose()
        if self._batch_writer is not None:
            self._batch_writer.engine.dispose()

    @classmethod
    async def open(cls, url: str, pool: int | None = None) -> Store:
        """The store on ``url``, migrated. ``pool``: a PostgreSQL process's most connections (``deltav serve
        --db-pool``; None: SQLAlchemy's 5 kept and 10 more under load); SQLite ignores it (one writer)."""
        sqlite = url.startswith("sqlite")
        sized = {"pool_size": pool, "max_overflow": 0} if pool is not None and not sqlite else {}
        engine = create_async_engine(url, connect_args={"timeout": 30} if sqlite else {}, **sized)
        if engine.dialect.name == "sqlite":
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        store = cls(engine, url)
        await store.migrate()
        return store

    async def migrate(self) -> None:
        from deltav.server.migrations import upgrade

        async with self._writing() as conn:
            await conn.run_sync(upgrade)

    async def close(self) -> None:
        await self.health.close()
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await self._writer
        await self.engine.dispose()
        if self._batch_writer is not None:
            self._batch_writer.close()

    # --- writing ---------------------------------------------------------------------------------------
    async def create_room(self, m: MatchRow) -> None:
        now = time.time()
        try:
            async with self._writing() as conn:
                await conn.execute(insert(rooms).values(code=m.code, created_at=now, match_no=m.no, public=m.public))
                await self._insert_match(conn, m, now)
        except IntegrityError as exc:
            raise DuplicateCode(m.code) from exc

    async def add_match(self, m: MatchRow) -> None:
        """A new match (a rematch) in an existing room, which becomes the room's current match."""
        now = time.time()
        async with self._writing() as conn:
            await self._insert_match(conn, m, now)
            await conn.execute(update(rooms).where(rooms.c.code == m.code).values(match_no=m.no))

    async def _insert_match(self, conn: Any, m: MatchRow, now: float) -> None:
        await conn.execute(insert(matches).values(
            code=m.code, no=m.no, game=m.game, options=json.dumps(m.options), seed=m.seed, status=m.status,
            meta=json.dumps(m.meta), record=None, created_at=now, finished_at=None))
        await conn.execute(insert(seats), [
            {"code": m.code, "no": m.no, "seat": s.seat, "spec": s.spec, "token_hash": s.token_hash, "name": s.name}
            for s in m.seats
        ])

    async def claim_seat(self, code: str, no: int, seat: int, token_hash: str, name: str | None,
                         status: str | None, meta: dict | None = None) -> bool:
        """Give a free human seat to a token; False if somebody took it first."""
        async with self._writing() as conn:
            res = await conn.execute(
                update(seats)
                .where(seats.c.code == code, seats.c.no == no, seats.c.seat == seat, seats.c.token_hash.is_(None))
                .values(token_hash=token_hash, name=name))
            if res.rowcount != 1:
                return False
            if status is not None or meta is not None:
                await self._finish(conn, code, no, status, None, meta, time.time())
        return True

    async def accept(self, code: str, no: int, seq: int, seat: int, action: dict, *, status: str | None = None,
                     record: dict | None = None, meta: dict | None = None, bot_state: bytes | None = None,
                     bot_step: int | None = None, at: float | None = None) -> None:
        """Write one accepted submission (and, in the same transaction, the match's new status, its archived
        record when it ended, a bot seat's state). Returns once it is committed; raises if the write fails:
        then nobody may be told.

        Group commit: submissions of all rooms that arrive while a commit is running go into the next
        transaction together, so under load there is one commit per batch, not per action. A room awaits its
        own submission before it accepts the next, so each room's order is kept."""
        self.health.check()
        item = (code, no, seq, seat, action, status, record, meta, bot_state, bot_step, at or time.time())
        done: asyncio.Future = asyncio.get_running_loop().create_future()
        self._pending.append((item, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_batches())
        await done

    async def _write_batches(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:500], self._pending[500:]
            statements = _batch_statements([item for item, _ in batch])
            try:
                self.health.check()
                if self._batch_writer is not None:
                    async with self._write_lock:
                        await self._batch_writer.run(functools.partial(_execute_all, statements))
                else:
                    async with self._writing() as conn:
                        for st in statements:
                            await conn.execute(*st)
            except BaseException as exc:
                if isinstance(exc, (DBAPIError, OSError)) and not isinstance(exc, IntegrityError):
                    self.health.failed(exc)
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc if isinstance(exc, Exception) else RuntimeError("write cancelled"))
                if not isinstance(exc, Exception):
                    raise
                continue
            for _, done in batch:
                if not done.done():
                    done.set_result(None)

    async def set_status(self, code: str, no: int, status: str, record: dict | None = None,
                         meta: dict | None = None) -> None:
        async with self._writing() as conn:
            await self._finish(conn, code, no, status, record, meta, time.time())

    async def _finish(self, conn: Any, code: str, no: int, status: str | None, record: dict | None,
                      meta: dict | None, now: float) -> None:
        statement = _finish_statement(code, no, status, record, meta, now)
        if statement is not None:
            await conn.execute(statement)

    async def add_chat(self, code: str, no: int, seat: int, name: str | None, text: str,
                       keep: int | None = None) -> tuple[int, float]:
        """Store a chat line; its id (increasing: the other processes read the lines after the last id they
        showed) and time. With ``keep``, the match's lines older than its newest ``keep`` are deleted."""
        now = time.time()
        async with self._writing() as conn:
            result = await conn.execute(insert(chat).values(code=code, no=no, seat=seat, name=name, text=text, at=now))
            line_id = result.inserted_primary_key[0]
            if keep is not None:
                oldest_kept = (select(chat.c.id).where(chat.c.code == code, chat.c.no == no)
                               .order_by(chat.c.id.desc()).offset(keep - 1).limit(1).scalar_subquery())
                await conn.execute(chat.delete().where(chat.c.code == code, chat.c.no == no, chat.c.id < oldest_kept))
        return line_id, now

    async def chat_count(self, code: str, no: int) -> int:
        """How many chat lines of a match are stored."""
        from sqlalchemy import func

        async with self.engine.connect() as conn:
            return int((await conn.execute(select(func.count()).select_from(chat)
                                           .where(chat.c.code == code, chat.c.no == no))).scalar() or 0)

    # --- reading ---------------------------------------------------------------------------------------
    async def load_match(self, code: str, no: int | None = None, with_submissions: bool = True) -> MatchRow | None:
        async with self.engine.connect() as conn:
            if no is None:
                row = (await conn.execute(select(rooms.c.match_no).where(rooms.c.code == code))).first()
                if row is None:
                    return None
                no = row[0]
            return await self._load(conn, code, no, with_submissions)

    async def _load(self, conn: Any, code: str, no: int, with_submissions: bool) -> MatchRow | None:
        m = (await conn.execute(select(matches, rooms.c.public).join(rooms, rooms.c.code == matches.c.code)
                                .where(matches.c.code == code, matches.c.no == no))).mappings().first()
        if m is None:
            return None
        srows = (await conn.execute(select(seats).where(seats.c.code == code, seats.c.no == no)
                                    .order_by(seats.c.seat))).mappings().all()
        subs: list[tuple[int, dict]] = []
        times: list[float] = []
        if with_submissions:
            rows = (await conn.execute(select(submissions.c.seat, submissions.c.action, submissions.c.at)
                                       .where(submissions.c.code == code, submissions.c.no == no)
                                       .order_by(submissions.c.seq))).all()
            subs = [(r[0], json.loads(r[1])) for r in rows]
            times = [r[2] for r in rows]
        return MatchRow(
            code=code, no=no, game=m["game"], options=json.loads(m["options"]), seed=m["seed"], status=m["status"],
            seats=[SeatRow(s["seat"], s["spec"], s["token_hash"], s["name"], s["bot_state"], s["bot_state_step"])
                   for s in srows],
            meta=json.loads(m["meta"] or "{}"), record=json.loads(m["record"]) if m["record"] else None,
            created_at=m["created_at"], submissions=subs, submitted_at=times, public=bool(m["public"]))

    async def unfinished(self) -> list[MatchRow]:
        """The current match of every room that is not finished, with its submissions (for a restart)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(rooms.c.code, rooms.c.match_no).join(
                    matches, (matches.c.code == rooms.c.code) & (matches.c.no == rooms.c.match_no))
                .where(matches.c.status != "finished").order_by(rooms.c.created_at))).all()
            out = []
            for code, no in rows:
                m = await self._load(conn, code, no, True)
                if m is not None:
                    out.append(m)
            return out

    async def list_rooms(self, status: str | None, limit: int = 100, public_only: bool = True) -> list[dict]:
        """The newest ``limit`` rooms (with ``status``: whose current match has it), open-to-anyone ones only
        unless ``public_only`` is False. Two queries whatever the count (the rooms, then all their seats)."""
        async with self.engine.connect() as conn:
            q = (select(rooms.c.code, rooms.c.match_no, matches.c.game, matches.c.options, matches.c.status,
                        matches.c.created_at)
                 .join(matches, (matches.c.code == rooms.c.code) & (matches.c.no == rooms.c.match_no)))
            if status is not None:
                q = q.where(matches.c.status == status)
            if public_only:
                q = q.where(rooms.c.public.is_(True))
            q = q.order_by(matches.c.created_at.desc()).limit(limit)
            rows = (await conn.execute(q)).all()
            current = {r[0]: r[1] for r in rows}
            by_room: dict[str, list] = {}
            if rows:
                srows = (await conn.execute(select(seats.c.code, seats.c.no, seats.c.seat, seats.c.spec,
                                                   seats.c.token_hash.is_not(None), seats.c.name)
                                            .where(seats.c.code.in_(list(current)))
                                            .order_by(seats.c.code, seats.c.seat))).all()
                for code, no, seat, spec, held, name in srows:
                    if current.get(code) == no:
                        by_room.setdefault(code, []).append(
                            {"seat": seat, "kind": "human" if spec == "human" else "bot", "spec": spec,
                             "taken": spec != "human" or bool(held), "name": name})
            return [{"code": code, "match": no, "game": game, "options": json.loads(options), "status": st,
                     "created_at": created, "seats": by_room.get(code, [])}
                    for code, no, game, options, st, created in rows]

    # --- leases (several processes) --------------------------------------------------------------------
    async def acquire_lease(self, code: str, owner: str, url: str, ttl: float) -> tuple[str, str]:
        """Take (or keep) the lease of a room when it is free, expired or already ours; returns the holder's
        (owner, url) after the attempt: the caller owns the room when the owner is itself. The database
        decides between processes racing for it (a conditional update, or the primary key on insert)."""
        now = time.time()
        for _ in range(3):
            try:
                async with self._writing() as conn:
                    res = await conn.execute(
                        update(leases).where(leases.c.code == code,
                                             (leases.c.owner == owner) | (leases.c.expires_at < now))
                        .values(owner=owner, url=url, expires_at=now + ttl))
                    if res.rowcount == 1:
                        return owner, url
                    row = (await conn.execute(select(leases.c.owner, leases.c.url).where(leases.c.code == code))).first()
                    if row is not None:
                        return row[0], row[1]
                    await conn.execute(insert(leases).values(code=code, owner=owner, url=url, expires_at=now + ttl))
                    return owner, url
            except IntegrityError:  # another process inserted it first: read who
                continue
        holder = await self.lease(code)
        return holder[:2] if holder else ("", "")

    async def lease(self, code: str) -> tuple[str, str, float, dict | None] | None:
        """(owner, url, expires_at, info) of a room's lease, or None."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(leases.c.owner, leases.c.url, leases.c.expires_at, leases.c.info)
                                      .where(leases.c.code == code))).first()
        if row is None:
            return None
        return row[0], row[1], row[2], json.loads(row[3]) if row[3] else None

    async def renew_leases(self, owner: str, ttl: float) -> set[str]:
        """Extend every lease ``owner`` holds; returns the codes it still holds (a room missing from the answer
        was taken over by another process after our lease expired)."""
        now = time.time()
        async with self._writing() as conn:
            await conn.execute(update(leases).where(leases.c.owner == owner).values(expires_at=now + ttl))
            rows = (await conn.execute(select(leases.c.code).where(leases.c.owner == owner))).all()
        return {r[0] for r in rows}

    async def set_lease_info(self, code: str, owner: str, info: dict) -> None:
        async with self._writing() as conn:
            await conn.execute(update(leases).where(leases.c.code == code, leases.c.owner == owner)
                               .values(info=json.dumps(info)))

    async def release_leases(self, owner: str, codes: list[str] | None = None) -> None:
        """Give up leases (a process stopping cleanly: other processes may take its rooms at once)."""
        async with self._writing() as conn:
            q = leases.delete().where(leases.c.owner == owner)
            if codes is not None:
                q = q.where(leases.c.code.in_(codes))
            await conn.execute(q)

    async def orphans(self, limit: int = 200) -> list[str]:
        """Unfinished rooms nobody owns: no lease, or a lease that expired (its process died)."""
        now = time.time()
        async with self.engine.connect() as conn:
            held = select(leases.c.code).where(leases.c.expires_at >= now)
            rows = (await conn.execute(
                select(rooms.c.code).join(matches, (matches.c.code == rooms.c.code) & (matches.c.no == rooms.c.match_no))
                .where(matches.c.status != "finished", rooms.c.code.not_in(held))
                .order_by(rooms.c.created_at).limit(limit))).all()
        return [r[0] for r in rows]

    async def submissions_since(self, code: str, no: int, seq: int) -> list[tuple[int, dict, float]]:
        """The stored submissions of a match from ``seq`` on, in order: (seat, action JSON, time)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(submissions.c.seat, submissions.c.action, submissions.c.at)
                                       .where(submissions.c.code == code, submissions.c.no == no,
                                              submissions.c.seq >= seq)
                                       .order_by(submissions.c.seq))).all()
        return [(r[0], json.loads(r[1]), r[2]) for r in rows]

    async def chat_since(self, code: str, after: int) -> list[tuple[int, dict]]:
        """The chat lines of room ``code`` with an id above ``after``, oldest first: ``(id, chat message)``."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(chat.c.id, chat.c.no, chat.c.seat, chat.c.name, chat.c.text, chat.c.at)
                                       .where(chat.c.code == code, chat.c.id > after).order_by(chat.c.id))).all()
        return [(r[0], {"type": "chat", "seat": r[2], "name": r[3], "text": r[4], "at": r[5]}) for r in rows]

    async def last_chat_id(self, code: str) -> int:
        """The id of room ``code``'s newest chat line (0: none yet)."""
        from sqlalchemy import func

        async with self.engine.connect() as conn:
            got = (await conn.execute(select(func.max(chat.c.id)).where(chat.c.code == code))).scalar()
        return int(got or 0)

    # --- the quick-match queue ----------------------------------------------------------------------------
    async def queue_add(self, e: QueueRow, per_client: int, bound: int) -> tuple[int, int]:
        """Add a waiting entry unless its client already has ``per_client`` entries not yet matched or the queue
        holds ``bound`` in all; returns those two counts before the attempt (added when both are below)."""
        from sqlalchemy import func

        async with self._writing() as conn:
            had, total = (await conn.execute(select(
                func.count().filter((queue.c.client == e.client) & (queue.c.state != "matched")),
                func.count()).select_from(queue))).one()
            had, total = int(had or 0), int(total or 0)
            if had < per_client and total < bound:
                await conn.execute(insert(queue).values(
                    ticket_hash=e.ticket_hash, client=e.client, game=e.game, options=json.dumps(e.options),
                    key=e.key, seats=e.seats, name=e.name, band=e.band, joined_at=e.joined_at, seen_at=e.seen_at,
                    state=e.state, bots=e.bots))
        return had, total

    async def queue_entry(self, ticket_hash: str) -> QueueRow | None:
        async with self.engine.connect() as conn:
            r = (await conn.execute(select(queue).where(queue.c.ticket_hash == ticket_hash))).first()
        return _queue_row(r) if r is not None else None

    async def queue_touch(self, ticket_hash: str, now: float, bots: str | None = None) -> None:
        """The client polled (and, with ``bots``, agreed to bots in the empty seats)."""
        values: dict[str, Any] = {"seen_at": now}
        if bots is not None:
            values["bots"] = bots
        async with self._writing() as conn:
            await conn.execute(update(queue).where(queue.c.ticket_hash == ticket_hash).values(**values))

    async def queue_waiting(self, key: str) -> list[QueueRow]:
        """The entries of ``key`` not yet matched, oldest first (pairing ones too: a stuck pairing is undone)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(queue).where(queue.c.key == key, queue.c.state != "matched")
                                       .order_by(queue.c.joined_at, queue.c.ticket_hash))).all()
        return [_queue_row(r) for r in rows]

    async def queue_claim(self, ticket_hashes: list[str], now: float) -> bool:
        """Take these waiting entries for one pairing, all or none (the database decides between processes)."""
        try:
            async with self._writing() as conn:
                res = await conn.execute(update(queue).where(queue.c.ticket_hash.in_(ticket_hashes),
                                                             queue.c.state == "waiting")
                                         .values(state="pairing", claimed_at=now))
                if res.rowcount != len(ticket_hashes):
                    raise _Taken  # rolls the transaction back: none is taken
        except _Taken:
            return False
        return True

    async def queue_matched(self, seats: dict[str, tuple[str, int]]) -> None:
        """Write each paired entry's room and seat (``ticket_hash -> (code, seat)``)."""
        async with self._writing() as conn:
            for th, (code, seat) in seats.items():
                await conn.execute(update(queue).where(queue.c.ticket_hash == th)
                                   .values(state="matched", room=code, seat=seat))

    async def queue_release(self, ticket_hashes: list[str], stuck_before: float | None = None) -> None:
        """Put pairing entries back to waiting (a pairing that failed, or one stuck since before
        ``stuck_before``: its process died)."""
        async with self._writing() as conn:
            q = update(queue).where(queue.c.ticket_hash.in_(ticket_hashes), queue.c.state == "pairing")
            if stuck_before is not None:
                q = q.where(queue.c.claimed_at < stuck_before)
            await conn.execute(q.values(state="waiting", claimed_at=None))

    async def queue_remove(self, ticket_hashes: list[str], unless_matched: bool = False) -> int:
        """Delete entries (``unless_matched``: only those not matched); returns how many."""
        async with self._writing() as conn:
            q = queue.delete().where(queue.c.ticket_hash.in_(ticket_hashes))
            if unless_matched:
                q = q.where(queue.c.state == "waiting")
            res = await conn.execute(q)
        return int(res.rowcount or 0)

    async def queue_expire(self, seen_before: float, matched_before: float) -> int:
        """Drop waiting entries nobody polled since ``seen_before`` and matched ones older than
        ``matched_before`` (their holders were told their room)."""
        async with self._writing() as conn:
            res = await conn.execute(queue.delete().where(
                ((queue.c.state == "waiting") & (queue.c.seen_at < seen_before))
                | ((queue.c.state == "matched") & (queue.c.seen_at < matched_before))))
        return int(res.rowcount or 0)

    async def ping(self) -> None:
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def record(self, code: str, no: int) -> dict | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(matches.c.record).where(matches.c.code == code, matches.c.no == no))).first()
            return json.loads(row[0]) if row and row[0] else None

    async def submission_count(self, code: str, no: int) -> int:
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(submissions.c.seq).where(submissions.c.code == code,
                                                                      submissions.c.no == no))).all()
            return len(rows)
