"""The match core of one room: its session, seats, status, clocks (as deadlines), endings, chat and rematch, as data.

A :class:`Match` has no sockets, no asyncio and no database. Each input (:meth:`Match.submit`, :meth:`connect`,
:meth:`disconnect`, :meth:`due` (a deadline passed), :meth:`chat`, :meth:`rematch`, :meth:`resign`,
:meth:`claim`, a bot's or the turn timer's move through :meth:`play`, a request for advice through
:meth:`suggest`) is checked (a refusal raises
:class:`ClientError` and changes nothing) and answered with an :class:`Update`: the rows to store, the answer to
the sender, what everyone is told, whether every viewer gets its new state (and the steps it shows), and whether
the bots must be woken. The deadlines to arm are :meth:`Match.deadlines` after every update. Each viewer's state
message is built once per (match, stored submission, viewer): :meth:`Match.state_text`.

:meth:`Match.from_rows` is the one way to rebuild a match from storage: a restart, a room loaded again, a
takeover, a replica, a rematch and a failed write's rollback all use it.

The host (``rooms.Room``) locks, calls the core, stores the update's rows (before anyone is told), sends, arms
the timers and runs the bots. This module must not touch sockets, tasks, timers or the store.
"""

from __future__ import annotations

import logging
import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NotRequired, TypedDict

from deltav.core import jsonin
from deltav.core.agent import RandomAgent
from deltav.core.errors import DeltavError, IllegalAction, MalformedAction
from deltav.core.protocol import Decision, Game
from deltav.core.records import _EndingDoc
from deltav.core.rng import Rng, derive_seed
from deltav.core.session import ActionJson, AppliedStep, LogEntryJson, Outcome, Session, SessionError, SnapshotJson
from deltav.server.bot_workers import BotSeat, make_bot_agent
from deltav.server.clock import Clock, turn_started, utc
from deltav.server.conns import dumps
from deltav.server.legal_entries import RoomSession
from deltav.server.store import MatchRow, SeatRow
from deltav.server.tokens import token_hash

log = logging.getLogger("deltav.server")

MAX_CHAT = 300  # characters of one chat line, after trimming
MAX_SUGGEST_BOTS = 4  # bots one ``suggest`` may ask (each decides within the server's CPU budget per decision)
HINT_BOT = "bot:hard"  # the bot a ``suggest`` with neither ``bots`` nor ``plan`` asks: the hint


# --- the JSON shapes of the socket's messages built here (docs/server.md; web/tools/gen_types.py) --------------

class RoomSeatJson(TypedDict):
    """A seat of the room as every viewer sees it (``room.seats[i]``)."""

    seat: int
    kind: Literal["human", "bot"]
    spec: str
    """"human" or the bot's spec ("bot:normal")."""
    name: str | None
    taken: bool
    connected: bool
    grace_until: float | None
    """When an absent person's grace runs out (epoch seconds), else null."""


class ForfeitJson(TypedDict):
    """The room info's older field for a forfeit (clients that read ``ending`` need not)."""

    seat: int
    seats: list[int]
    reason: str
    winners: list[int]
    step: int


class AbandonedJson(TypedDict):
    reason: str
    at: float


class ClockJson(TypedDict):
    """The turn timer (docs/server.md): ``deadline`` a UTC time, null when no person is deciding; ``seats`` the
    seats it runs for."""

    turn_seconds: float
    on_timeout: Literal["forfeit", "bot"]
    deadline: str | None
    seats: list[int]


class RoomJson(TypedDict):
    """``room`` of a ``state`` message (:meth:`Match.room_info`)."""

    code: str
    match: int
    status: Literal["open", "live", "finished"]
    seats: list[RoomSeatJson]
    forfeit: ForfeitJson | None
    public: bool
    """Listed for anyone (else private: joined by code or invite link)."""
    abandoned: AbandonedJson | None
    seed: int | None
    """The seed, when the room's creator chose it (else null: secret)."""
    ending: _EndingDoc | None
    """How the match ended outside the rules (resign, forfeit), or null."""
    claimable: list[int]
    """Absent human seats whose grace ran out: a connected player may claim the win (``claim``)."""
    rematch_votes: list[int]
    clock: ClockJson | None


class StateMessageJson(TypedDict):
    """The ``state`` message: the room, this viewer's snapshot, and the new log entries of the last action."""

    type: Literal["state"]
    room: RoomJson
    snapshot: SnapshotJson
    events: list[LogEntryJson]


class ServerErrorJson(TypedDict):
    """A refusal (``{"type": "error"}``): a stable ``code``, a sentence, and what it refused when known."""

    type: Literal["error"]
    code: str
    message: str
    rule: NotRequired[str]
    """The rule id of a refused action (``tactical.fuel``, ``session.stale_step``)."""
    field: NotRequired[str]
    """The path of the bad field of a malformed message."""
    id: NotRequired[str | int | None]
    """The ``id`` of the message refused."""
    step: NotRequired[int]
    """The step a refusal was for (a stale decision)."""


class AcceptedJson(TypedDict):
    """The answer to a ``submit`` the session took: the step now, and whether the choice was buffered (a
    simultaneous node still waiting for other seats)."""

    type: Literal["accepted"]
    id: str | int | None
    """The ``id`` of the submission."""
    step: int
    buffered: bool


class EndedJson(TypedDict):
    """The match ended outside the rules (a resignation, a forfeit, a claimed win), to everyone."""

    type: Literal["ended"]
    ending: _EndingDoc


class ForfeitMessageJson(ForfeitJson):
    """A forfeit, to everyone (after ``ended``; the older message, for clients that read it)."""

    type: Literal["forfeit"]


class CandidateJson(TypedDict):
    """One bot's suggestion: its action and the words of it, or ``error`` when it gave none."""

    spec: str
    action: NotRequired[ActionJson]
    text: NotRequired[str]
    error: NotRequired[str]


class SuggestionJson(TypedDict):
    """The answer to ``suggest`` (docs/server.md "Advice"): the bots' candidates asked for, and the game's plan."""

    type: Literal["suggestion"]
    id: str | int | None
    step: int
    candidates: NotRequired[list[CandidateJson]]
    plan: NotRequired[Any]
    """The game's advice (``Game.advise``: its own JSON), when a plan was asked for."""


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


def bot_name(spec: str) -> str:
    """A bot spec in words: ``bot:normal`` -> "Normal bot", ``bot:ismcts:iterations=200`` -> "Ismcts bot"."""
    name = spec.removeprefix("bot:").split(":")[0]
    return f"{name[:1].upper()}{name[1:]} bot"


def seat_names(seats: list[SeatRow]) -> list[str]:
    """The seats' display names, the ``names`` of the match's describer: a bot seat by its level ("Hard bot"),
    a human seat by the name its holder gave, else "Player N" (a free seat, or a holder who gave none); a name
    two seats share is numbered in seat order ("Easy bot 1", "Easy bot 2"), so every text says which one."""
    return distinct_names([bot_name(s.spec) if s.spec != "human" else (s.name or f"Player {s.seat + 1}")
                           for s in seats])


def distinct_names(names: list[str]) -> list[str]:
    """``names`` with each name that occurs more than once numbered in order: ["Easy bot", "Ann", "Easy bot"] ->
    ["Easy bot 1", "Ann", "Easy bot 2"] (the client's ``seatNames`` does the same)."""
    counts = Counter(names)
    seen: Counter[str] = Counter()
    out = []
    for name in names:
        if counts[name] > 1:
            seen[name] += 1
            name = f"{name} {seen[name]}"
        out.append(name)
    return out


@dataclass
class Accept:
    """A row to store: an accepted submission (``status``/``record``/``meta`` when it finished the match)."""

    seq: int
    seat: int
    action: Any
    at: float
    status: str | None = None
    record: dict | None = None
    meta: dict | None = None
    bot_state: bytes | None = None
    bot_step: int | None = None


@dataclass
class Finish:
    """A row to store: the match finished outside the rules (an ending) with its record and meta."""

    record: dict
    meta: dict


@dataclass
class Update:
    """What one input did: ``rows`` to store (in order, before anyone is told), ``reply`` to the sender, ``said``
    to everyone (before the states), ``states``: every viewer gets its new state showing the ``applied`` steps'
    new log entries; ``notify``: the other processes are told (a stored submission's seq, -1: seats, status or
    meta changed); ``wake_bots``: a bot may have to decide now."""

    rows: list[Accept | Finish] = field(default_factory=list)
    reply: dict | None = None
    said: list[dict] = field(default_factory=list)
    states: bool = False
    applied: list[AppliedStep] = field(default_factory=list)
    notify: int | None = None
    wake_bots: bool = False
    finished: bool = False
    live: bool = False  # the connected seats or graces changed (several processes: shared with the replicas)
    stored: Callable[[], None] | None = None  # a change that takes effect only once the rows are stored
    work: Suggestion | None = None  # advice to work out off the event loop (``Match.suggest``), then answered


@dataclass
class Suggestion:
    """The bounded work of one ``suggest`` request, built from the asking seat's own decision (its view and legal
    actions) only: ``bots`` each decide from ``decision`` (a fresh agent, an RNG derived from the room, match, step
    and spec, never from the match seed); ``plan`` is the game's advice request (``Game.advise``) on ``view``."""

    seat: int
    no: int
    step: int
    ref: Any
    bots: list[tuple[BotSeat, Decision]]
    plan: Any = None
    view: Any = None


class Match:
    """One room's current match as data (see the module's docstring)."""

    def __init__(self, code: str, no: int, game: type[Game], seed: int, seats: list[SeatRow], session: Session,
                 status: str, meta: dict[str, Any], *, seq: int = 0, public: bool = False, grace_seconds: float = 60.0):
        self.code, self.no, self.game, self.seed, self.seats = code, no, game, seed, seats
        self.session = session
        self.status = status  # open | live | finished
        self.meta = meta
        self.seq = seq  # accepted submissions stored so far
        self.public = public
        self.grace_seconds = grace_seconds  # a dropped human seat's time to come back (0: no claims)
        self.clock: Clock | None = Clock.from_meta(meta)
        self.turn_started = 0.0  # when the current decision node began (epoch seconds; see clock.turn_started)
        self.bots: dict[int, BotSeat] = {}
        self.connected: set[int] = set()  # human seats with a socket here
        self.grace_until: dict[int, float] = {}  # absent human seats' grace deadlines (kept once run out)
        self.expired: set[int] = set()  # absent human seats whose grace ran out (a win to claim)
        self.rematch_votes: set[int] = set()
        # bumped whenever the viewers' logs must be sent whole again (names changed); a host's socket whose
        # log epoch differs gets the snapshot's log, the others only the new entries (docs/server.md)
        self.log_epoch = 0
        self.touched = 0.0  # the last move, seat taken or socket come or gone (the host's expiry of idle rooms)
        self._standing_in: tuple[int, int] | None = None  # (step, seat) the turn timer's stand-in bot plays for
        self._snaps: dict[tuple[int | None, bool], str] = {}  # each viewer's encoded snapshot at (no, seq)
        self._snaps_at: tuple[int, int] = (no, seq)

    # --- building --------------------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, game_of: Callable[[str], type[Game]], row: MatchRow, grace_seconds: float = 60.0) -> Match:
        """The match a stored row holds: its session replayed from the stored submissions, its bots restored (each
        agent as pickled with its last decision, fed the events it saw since), its clock and turn start from the
        stored times, its ending applied again. The one rebuild: restart, load, takeover, replica, rematch."""
        game = game_of(row.game)
        labels = [s.spec for s in row.seats]  # record labels: "human" or the bot spec (names change; specs do not)
        session = RoomSession.resume(game, row.options, row.seed, labels, row.submissions, names=seat_names(row.seats))
        m = cls(row.code, row.no, game, row.seed, [SeatRow(s.seat, s.spec, s.token_hash, s.name, s.bot_state,
                                                           s.bot_state_step) for s in row.seats],
                session, row.status, dict(row.meta), seq=len(row.submissions), public=row.public,
                grace_seconds=grace_seconds)
        m.touched = max([row.created_at, row.meta.get("live_at", 0.0), *row.submitted_at[-1:]])
        buffered = sum(1 for p in session.deciding() if session.has_submitted(p))
        m.turn_started = turn_started(row.submitted_at, buffered, row.meta.get("live_at", row.created_at))
        for s in row.seats:
            if s.spec != "human":
                m.bots[s.seat] = _restore_bot(game, row, s, session)
        m.apply_stored_ending()
        return m

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
        self._snaps.clear()

    def renamed(self) -> None:
        """The seats' names changed (a seat was taken and named): the match's texts are written with them."""
        names = seat_names(self.seats)
        if names != self.session.names:
            self.session.set_names(names)
            self._snaps.clear()
            self.log_epoch += 1  # every text was written again: the viewers get the log whole

    def next_match(self, seed: int | None = None, now: float = 0.0) -> MatchRow:
        """The row of this room's next match (a rematch): seats rotated by one (swapped for two players), each
        holder keeping its token, name and clients; a new seed (drawn unless given); the clock carried over."""
        n = len(self.seats)
        rows = [SeatRow(i, self.seats[(i - 1) % n].spec, self.seats[(i - 1) % n].token_hash,
                        self.seats[(i - 1) % n].name) for i in range(n)]
        meta: dict[str, Any] = {"rematch_of": self.no, "live_at": now}
        if self.clock is not None:
            meta["clock"] = self.clock.to_json()
        old_clients = self.meta.get("clients", {})
        clients = {str(i): old_clients[str((i - 1) % n)] for i in range(n) if str((i - 1) % n) in old_clients}
        if clients:
            meta["clients"] = clients
        meta["played"] = sorted((seat + 1) % n for seat in self.connected)
        return MatchRow(self.code, self.no + 1, self.game.id, dict(self.session.options),
                        secrets.randbits(62) if seed is None else seed, "live", rows, meta=meta, created_at=now,
                        public=self.public)

    # --- reading ---------------------------------------------------------------------------------------
    def human_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.spec == "human"]

    def seat_of(self, token: str) -> int | None:
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        return None

    def names(self) -> list[str]:
        return seat_names(self.seats)

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

    def deadlines(self) -> list[float]:
        """The times at which :meth:`due` has something to do: each running grace and the turn deadline."""
        out = [t for s, t in self.grace_until.items() if s not in self.expired]
        turn = self.turn_deadline()
        if turn is not None and not self._stand_in_running():
            out.append(turn)
        return out

    def _stand_in_running(self) -> bool:
        late = self.late_seats()
        return bool(late) and self._standing_in == (self.session.step, late[0])

    def room_info(self, remote: dict | None = None) -> dict:
        """The room's info every viewer gets (``remote``: a replica's copy of the owner's live info)."""
        if remote is not None:
            connected = set(remote.get("connected", []))
            graces = {int(k): v for k, v in remote.get("grace_until", {}).items()}
            claimable = list(remote.get("claimable", []))
        else:
            connected, graces, claimable = self.connected, self.grace_until, sorted(self.expired)
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

    def live_info(self) -> dict:
        """What the replicas' spectators need of the owner: the connected seats and grace deadlines."""
        return {"connected": sorted(self.connected), "grace_until": {str(k): v for k, v in self.grace_until.items()},
                "claimable": sorted(self.expired)}

    # --- state messages --------------------------------------------------------------------------------
    def snapshot_text(self, seat: int | None, with_log: bool = True) -> str:
        """``seat``'s snapshot envelope as JSON text (with its log tail, or without: ``with_log``), built and
        encoded once per (match, seq, viewer): the text with the log is the one without it and the log tail's
        entries (the session's own) appended as the last key."""
        if self._snaps_at != (self.no, self.seq):
            self._snaps.clear()
            self._snaps_at = (self.no, self.seq)
        text = self._snaps.get((seat, with_log))
        if text is None:
            bare = self._snaps.get((seat, False))
            if bare is None:
                bare = self._snaps[(seat, False)] = dumps(self.session.snapshot(seat, with_log=False))
            text = bare
            if with_log:
                text = self._snaps[(seat, True)] = f'{bare[:-1]},"log":{dumps(self.session.log(seat))}}}'
        return text

    def state_text(self, seat: int | None, events_text: str = "[]", room_text: str | None = None,
                   with_log: bool = True, remote: dict | None = None) -> str:
        """A state message as text, built from the cached snapshot text: ``events_text`` the new log entries
        (encoded), ``with_log`` whether the snapshot carries its log tail (a socket that does not have it yet)."""
        room_text = room_text or dumps(self.room_info(remote))
        return (f'{{"type":"state","room":{room_text},"snapshot":{self.snapshot_text(seat, with_log)},'
                f'"events":{events_text}}}')

    def state_message(self, seat: int | None, since: int, remote: dict | None = None) -> dict:
        """A state message whose snapshot's log holds every visible entry from step ``since`` on (``sync``)."""
        return {"type": "state", "room": self.room_info(remote), "snapshot": self.session.snapshot(seat, since),
                "events": []}

    def events_texts(self, applied: list[AppliedStep]) -> Callable[[int | None], str]:
        """The encoded new log entries of ``applied`` for each viewer: the session's own entries (built once),
        the same list (public events) encoded once."""
        since = applied[0].index if applied else None
        encoded: dict[tuple[int, ...], str] = {}

        def text(viewer: int | None) -> str:
            if since is None:
                return "[]"
            entries = self.session.log(viewer, since)
            key = tuple(map(id, entries))
            got = encoded.get(key)
            if got is None:
                got = encoded[key] = dumps(entries)
            return got

        return text

    # --- inputs ----------------------------------------------------------------------------------------
    def check_live(self) -> None:
        if self.status == "open":
            raise ClientError("not_started", "the match starts when every seat is taken")
        if self.status == "finished" or self.session.is_over():
            raise ClientError("game_over", "the match is over")

    def submit(self, seat: int | None, msg: dict, now: float) -> Update:
        """A seat's ``submit`` message. Refusals, in this order (the first that applies): ``spectator``,
        ``bad_message`` (no object ``action``, no integer ``step``), ``not_started``, ``game_over`` (the room
        finished), then the session's: ``malformed_action`` (the action does not decode), ``stale_step`` (made for
        another step), ``game_over`` (ended outside the rules), ``not_your_turn``, ``already_decided``,
        ``illegal_action``. The session's refusals are answered in ``reply`` with the match's current ``step``."""
        if seat is None:
            raise ClientError("spectator", "a spectator cannot act; join a free seat to play")
        if not isinstance(msg.get("action"), dict):
            raise ClientError("bad_message", "a submit message needs 'action', a JSON object")
        step = msg.get("step")
        if step is None or isinstance(step, bool) or not isinstance(step, int):
            raise ClientError("bad_message", "a submit message needs 'step', the integer step it was made for")
        if self.status == "open":
            raise ClientError("not_started", "the match starts when every seat is taken")
        if self.status == "finished":
            raise ClientError("game_over", "the match is over")
        try:
            outcome = self.session.submit(seat, msg["action"], expected_step=step)
        except IllegalAction as exc:
            return Update(reply={**refusal(exc), "id": msg.get("id"), "step": self.session.step})
        return self.accepted(seat, outcome, now, ref=msg.get("id"), answer=True)

    def play(self, seat: int, action: Any, step: int, now: float, bot: bool = False) -> Update:
        """A move made here for ``seat`` (its bot, or the turn timer's stand-in), for ``step``; IllegalAction
        if the session refuses it (a broken bot: nothing changed)."""
        outcome = self.session.submit_action(seat, action, expected_step=step)
        return self.accepted(seat, outcome, now, bot_step=step if bot else None)

    def accepted(self, seat: int, outcome: Outcome, now: float, ref: Any = None, answer: bool = False,
                 bot_step: int | None = None) -> Update:
        """The update of an accepted submission: its row (and the finished record), the sender's ``accepted``,
        every viewer's state with the new entries, the bots woken. The turn clock restarts when the node moved
        on (the same time is stored with the row)."""
        finished = outcome.finished
        if finished:
            self.status = "finished"
        bot = self.bots.get(seat) if bot_step is not None else None
        row = Accept(self.seq, seat, outcome.action, now, status="finished" if finished else None,
                     record=self.session.record.to_json() if finished else None, meta=self.meta if finished else None,
                     bot_state=bot.dump() if bot is not None else None, bot_step=bot_step)
        self.seq += 1
        self.touched = now
        if outcome.buffered is None:
            self.turn_started = now  # a new decision node begins
        if finished:
            self.stop_clocks()
        self._observe(outcome.applied)
        reply = None
        if answer:
            reply = {"type": "accepted", "id": ref, "step": outcome.step, "buffered": outcome.buffered is not None}
        return Update(rows=[row], reply=reply, states=True, applied=outcome.applied, notify=row.seq, wake_bots=True,
                      finished=finished)

    def _observe(self, applied: list[AppliedStep]) -> None:
        for a in applied:
            for q, bot in self.bots.items():
                visible = a.events_for(q)
                if visible:
                    try:
                        bot.agent.observe(q, visible)
                    except Exception:  # a broken bot must not keep the move from anyone: it only forgets
                        log.exception("room %s: bot %s at seat %d failed to observe step %d", self.code,
                                      jsonin.shown(bot.spec), q, a.index)

    def end(self, kind: str, seats: list[int], reason: str, ref: Any = None) -> Update:
        """End the live match outside the rules (``Session.end``: ``seats`` lose, every other seat wins): the
        finished record with its ending and the room's meta to store, then ``ended`` (and, for a forfeit, the
        older ``forfeit``) to everyone and each viewer's state. The one forfeit: a claim and a turn timer."""
        ending = self.session.end(kind, seats, reason)
        self.status = "finished"
        self.meta["ending"] = ending
        if kind == "forfeit":  # the room info's older field, for clients that read it
            self.meta["forfeit"] = {"seat": ending["seats"][0], "seats": ending["seats"], "reason": reason,
                                    "winners": ending["winners"], "step": ending["step"]}
        self._snaps.clear()  # the same (match, seq), another snapshot: over
        self.stop_clocks()
        said = [{"type": "ended", "ending": ending}]
        if kind == "forfeit":
            said.append({"type": "forfeit", **self.meta["forfeit"]})
        return Update(rows=[Finish(self.session.record.to_json(), self.meta)], said=said, states=True, notify=-1,
                      finished=True)

    def resign(self, seat: int | None, ref: Any = None) -> Update:
        """A seated player gives up the live match: it loses, every other seat wins. Refusals: ``spectator``,
        ``not_started``, ``game_over``."""
        if seat is None:
            raise ClientError("spectator", "a spectator has no match to resign")
        self.check_live()
        return self.end("resign", [seat], f"{self.names()[seat]} resigned", ref)

    def claim(self, seat: int | None, ref: Any = None) -> Update:
        """A connected seated player claims the win: every absent human opponent's grace has run out; those seats
        forfeit, every other seat wins. Refusals, in this order: ``spectator``, ``not_started``, ``game_over``,
        ``no_claims``, ``nobody_absent``, ``grace_running``."""
        if seat is None:
            raise ClientError("spectator", "a spectator cannot claim a win")
        self.check_live()
        if self.grace_seconds <= 0:
            raise ClientError("no_claims", "this server gives no grace to absent players (--grace 0), so there "
                                           "is no win to claim")
        absent = [s for s in self.human_seats() if s != seat and s not in self.connected]
        if not absent:
            raise ClientError("nobody_absent", "every opponent is here: there is no win to claim")
        waiting = [s for s in absent if s not in self.expired]
        if waiting:
            raise ClientError("grace_running", "an absent player may still come back: claim when their grace has "
                                               "run out", grace_until={str(s): self.grace_until.get(s) for s in waiting})
        names = self.names()
        gone = " and ".join(names[s] for s in absent)
        return self.end("forfeit", absent, f"{gone} did not come back within {self.grace_seconds:g} s; "
                                           f"{names[seat]} claimed the win", ref)

    def connect(self, seat: int, now: float, arm: bool = True) -> Update:
        """A seat's socket connected: its grace (if any) ends; every viewer gets the new room info. ``arm``:
        graces are given (the owner of the room, not stopping)."""
        self.connected.add(seat)
        self.grace_until.pop(seat, None)
        self.expired.discard(seat)
        self.touched = now
        if arm:
            self.arm_graces(now)
        return Update(states=True, live=True)

    def disconnect(self, seat: int, now: float, arm: bool = True) -> Update:
        """A seat's last socket closed: while another human seat is connected, its grace starts (``arm``)."""
        self.connected.discard(seat)
        self.touched = now
        if arm:
            self.arm_graces(now)
        return Update(states=True, live=True)

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

    def take_seat(self, seat: int, token_hash: str, name: str | None, meta: dict, last: bool, now: float) -> None:
        """A free human seat was taken (and stored): its holder and name, the room's meta; the match goes live
        when it was the last free seat (its turn clock starts then)."""
        self.seats[seat].token_hash = token_hash
        self.seats[seat].name = name
        self.touched = now
        self.renamed()
        self.meta = meta
        if last:
            self.status, self.turn_started = "live", now
            self.arm_graces(now)

    def catch_up(self, submissions: list[tuple[int, Any, float]]) -> list[AppliedStep]:
        """A replica: apply the submissions another process stored after this match's ``seq`` (seat, action,
        time), and the stored ending; the steps applied."""
        applied: list[AppliedStep] = []
        for seat, action, at in submissions:
            outcome = self.session.submit(seat, action)
            self.seq += 1
            if outcome.buffered is None:
                self.turn_started = at
            applied += outcome.applied
            if outcome.finished:
                self.status = "finished"
        if self.status == "finished":
            self.apply_stored_ending()  # ended outside the rules after the last submission (resign, forfeit)
        return applied

    def refresh(self, row: MatchRow) -> bool:
        """Seats, status and meta read again from storage (changed through another process: a seat taken, an
        ending); True when the match went live."""
        for s in row.seats:
            self.seats[s.seat].token_hash, self.seats[s.seat].name = s.token_hash, s.name
        self.renamed()
        went_live = self.status == "open" and row.status == "live"
        if row.status != "live" or went_live:
            self.status = row.status
        self.meta = dict(row.meta)
        if went_live:
            self.turn_started = row.meta.get("live_at", self.turn_started)
        return went_live

    def arm_graces(self, now: float) -> None:
        """Give each disconnected human seat a grace deadline while another human seat is connected."""
        if self.status != "live" or self.grace_seconds <= 0:
            return
        humans = self.human_seats()
        for s in humans:
            others = any(o in self.connected for o in humans if o != s)
            if s not in self.connected and others and s not in self.grace_until:
                self.grace_until[s] = now + self.grace_seconds

    def stop_clocks(self) -> None:
        self.grace_until.clear()
        self.expired.clear()

    def due(self, now: float) -> tuple[Update, int | None]:
        """The deadlines that have passed at ``now``: a grace run out makes its seat claimable (everyone is told);
        the turn timer ends the match (``"forfeit"``: every late seat forfeits) or names the late seat whose move
        the stand-in bot must play (``"bot"``, the second value; the host then calls :meth:`play`)."""
        update = Update()
        if self.status != "live":
            return update, None
        for s, t in self.grace_until.items():
            if s not in self.expired and s not in self.connected and t <= now:
                self.expired.add(s)  # its deadline stays in grace_until: the time it ran out
                update.states = update.live = True
        turn = self.turn_deadline()
        if turn is None or turn > now or self._stand_in_running():
            return update, None
        assert self.clock is not None
        late = self.late_seats()
        if self.clock.on_timeout == "forfeit":
            names = self.names()
            return self.end("forfeit", late, f"{' and '.join(names[p] for p in late)} did not decide within the "
                                             f"turn time ({self.clock.turn_seconds:g} s)"), None
        self._standing_in = (self.session.step, late[0])
        return update, late[0]

    def chat(self, seat: int | None, text: Any) -> tuple[str | None, str]:
        """A chat line's (name, text), checked: ``spectator``, ``bad_message``, ``chat_empty``, ``chat_too_long``."""
        if seat is None:
            raise ClientError("spectator", "spectators read the chat but do not write")
        if not isinstance(text, str):
            raise ClientError("bad_message", "a chat message needs 'text', a string")
        text = " ".join(text.split())
        if not text:
            raise ClientError("chat_empty", "an empty chat line is not sent")
        if len(text) > MAX_CHAT:
            raise ClientError("chat_too_long", f"a chat line holds at most {MAX_CHAT} characters (got {len(text)})")
        return self.seats[seat].name, text

    def suggest(self, seat: int | None, msg: dict) -> Update:
        """A seat's ``suggest`` message: advice from its own decision, never the true state (docs/server.md,
        "Advice"). ``bots`` (bot specs, at most :data:`MAX_SUGGEST_BOTS`) asks what each would play now; ``plan``
        (plain JSON, shaped by the game) asks the game's advice (tactical: the astrogation assistant's course, or
        ``{"kind": "reach"}`` the reach shadow); neither asks the hint (:data:`HINT_BOT`). The Update's ``work`` is
        the request to work out; :meth:`suggested` then builds its answer. Refusals, in order: ``spectator``,
        ``bad_message`` (``bots`` not a list of strings), ``over_budget`` (too many bots), ``bad_candidates`` (a
        spec no bot of this game has, or unbounded parameters), ``no_bot_help`` (bots asked in a match between
        people: a second player), ``not_live``, ``not_your_turn`` (bots decide for a decision of the seat's)."""
        if seat is None:
            raise ClientError("spectator", "a spectator has no decision to advise on")
        raw, plan = msg.get("bots"), msg.get("plan")
        if raw is None:
            raw = [HINT_BOT] if plan is None else []
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise ClientError("bad_message", "field 'bots' must be a list of bot specs like \"bot:easy\"", field="bots")
        if len(raw) > MAX_SUGGEST_BOTS:
            raise ClientError("over_budget", f"at most {MAX_SUGGEST_BOTS} bots may be asked at once, got {len(raw)}",
                              field="bots")
        specs = [s.strip() if s.strip().startswith("bot:") else f"bot:{s.strip()}" for s in raw]
        agents = []
        for spec in specs:
            try:
                agents.append((spec, make_bot_agent(self.game.id, spec)))
            except DeltavError as exc:
                raise ClientError("bad_candidates", f"bot {jsonin.shown(spec)}: {exc}", field="bots") from None
        step = self.session.step
        bots: list[tuple[BotSeat, Decision]] = []
        if agents:
            if not self.bots:
                raise ClientError("no_bot_help", "the bots' suggestions are only given in games against a bot (in a "
                                                 "match between people they would be a second player)")
            if self.status != "live" or self.session.is_over():
                raise ClientError("not_live", "the match is not being played")
            if seat not in self.session.waiting_for():
                raise ClientError("not_your_turn", "the bots suggest for a decision of yours: wait for your turn")
            own = self.session.decision(seat, Rng(0))  # the seat's own view and legal actions
            for spec, agent in agents:
                rng = Rng(derive_seed(0, "suggest", self.code, self.no, step, spec))
                bots.append((BotSeat(seat, spec, agent, rng), replace(own, rng=rng)))
        view = self.session.state.view(seat) if plan is not None else None
        return Update(work=Suggestion(seat, self.no, step, msg.get("id"), bots, plan, view))

    def suggested(self, work: Suggestion, candidates: list[dict] | None, plan: Any = None) -> Update:
        """The answer to ``work``: ``{"type": "suggestion", "id", "step", "candidates"?, "plan"?}``; each
        candidate ``{"spec", "action", "text"}`` (the words of that legal action) in the order asked, or
        ``{"spec", "error"}`` for a bot that gave none."""
        out: SuggestionJson = {"type": "suggestion", "id": work.ref, "step": work.step}
        if candidates is not None:
            out["candidates"] = candidates
        if work.plan is not None:
            out["plan"] = plan
        return Update(reply=out)

    def rematch(self, seat: int | None) -> bool:
        """A seat asks for the next match; True once every human seat has asked (the host then stores
        :meth:`next_match` and rebuilds from it). Refusals: ``spectator``, ``not_finished``."""
        if seat is None:
            raise ClientError("spectator", "only seated players can ask for a rematch")
        if self.status != "finished":
            raise ClientError("not_finished", "a rematch can be asked for once the match is over")
        self.rematch_votes.add(seat)
        return set(self.human_seats()) <= self.rematch_votes

    def abandon(self, reason: str, now: float) -> Update:
        """End an abandoned match as it stands (``meta.abandoned``; no winner, never rated). The match is
        finished here only once that is stored (``Update.stored``): whoever reads the room meanwhile (``GET
        /rooms/{code}``, outside the lock) never sees an end the database does not hold."""
        meta = {**self.meta, "abandoned": {"reason": reason, "at": now}}

        def stored() -> None:
            self.meta = meta
            self.status = "finished"
            self.stop_clocks()

        return Update(rows=[Finish(self.session.record.to_json(), meta)], notify=-1, finished=True, stored=stored)


def _restore_bot(game: type[Game], row: MatchRow, s: SeatRow, session: Session) -> BotSeat:
    """A bot seat of a stored match: its agent as pickled with its last decision, fed the events it saw since
    (a spec refused now plays random legal moves)."""
    since = 0
    try:
        bot = BotSeat.new(game.id, row.seed, s.seat, s.spec)
    except DeltavError as exc:  # a room stored before its spec was refused (say, unbounded): never run it
        log.warning("room %s: seat %d's bot %s is refused now (%s); it plays random legal moves",
                    row.code, s.seat, jsonin.shown(s.spec), exc)
        return BotSeat(s.seat, s.spec, RandomAgent(), Rng(derive_seed(row.seed, "seat", s.seat)))
    if s.bot_state is not None:
        bot.load(s.bot_state)
        since = s.bot_state_step or 0
    for st in session.record.steps[since:]:  # the events it saw after its last decision
        visible = [e for e in (game.events.decode(x, "event") for x in st.events) if e.visible_to(s.seat)]
        if visible:
            bot.agent.observe(s.seat, visible)
    return bot
