"""Game reviews of finished matches on the server: asked for by a route, run on the bot workers, followed by polling.

``POST /rooms/{code}/review?match=N`` starts the review of a finished match (:meth:`Reviews.start`); ``GET`` the same
path reads its progress and, once done, the review document (:meth:`Reviews.status`; ``docs/review.md`` for the
document, ``docs/server.md`` for the route).

- **On the bot workers, fairly shared.** A review is :func:`deltav.agents.review.decision_points` (replayed off the
  event loop on a thread) and then one piece of work per decision, handed to the :class:`~deltav.server.bot_workers.
  BotRunner` through its public :meth:`~deltav.server.bot_workers.BotRunner.decide` as :data:`~deltav.server.bot_workers.HELP`
  work in the lane ``("review", code)``: the runner alternates it with the bot seats' moves and takes the lanes
  in turn, so a review never starves a match, nor one room's review another's. Each piece runs under the
  workers' per-decision CPU budget; the reviewer's playouts stop at 80% of it (:class:`~deltav.agents.review.
  SeatReviewer`). The piece is a :class:`ReviewStep` agent: its ``act`` reviews one decision and keeps the
  result on itself, which the runner sends back with the agent.
- **One review per room at a time**; at most :data:`MAX_ACTIVE` reviews run on the server at once (more are
  refused with ``review_busy``, 503: try again). A review's budget is :data:`SERVER_BUDGET` (counted, so the
  review is the one ``deltav review --budget`` gives) and :data:`WALL_SECONDS` of wall time, after which the
  remaining decisions get bot:hard's choice without values.
- **Cached, not stored**: the newest :data:`KEEP` reviews (done or failed) stay in memory; a restart forgets them
  and asking again computes the same review (it is deterministic).
- Words are the game's describer's with the match's seat names, written here (never in a worker).

This module owns reviews on the server only: routes are ``app``'s, records the store's, workers ``bots``'; it never
touches a room or the hub.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from deltav.agents.review import (
    Point,
    ReviewBudget,
    ReviewError,
    SeatReviewer,
    assemble,
    decision_points,
    describer,
)
from deltav.core.agent import Agent
from deltav.core.errors import DeltavError
from deltav.core.protocol import Decision
from deltav.core.records import MatchRecord
from deltav.core.rng import Rng
from deltav.server.bot_workers import HELP, BotFailure, BotRunner

log = logging.getLogger("deltav.server")

#: The budget of a review on the server (``docs/review.md``): 8 playouts per alternative, at most 80 decisions valued.
SERVER_BUDGET = ReviewBudget(rollouts=8, estimates=80)
#: Wall time after which a review values no more decisions (the rest get bot:hard's choice only).
WALL_SECONDS = 600.0
#: Reviews running at once on this server (each one's decisions take turns on the workers with everything else).
MAX_ACTIVE = 4
#: Reviews kept in memory, done or failed (the newest).
KEEP = 64


def server_budget(text: str) -> ReviewBudget:
    """The budget ``deltav serve --review-budget TEXT`` names (empty: :data:`SERVER_BUDGET`); ReviewError if bad."""
    return ReviewBudget.parse(text) if text.strip() else SERVER_BUDGET


class ReviewRefused(Exception):
    """A review that cannot be asked for now: ``code`` (stable), ``message`` (a sentence), ``status`` (HTTP)."""

    def __init__(self, code: str, message: str, status: int):
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


class ReviewStep(Agent):
    """One decision's review as bot-worker work: ``act`` runs the seat's reviewer on the point and keeps the
    result in ``entry`` (the runner returns this agent, reviewer state included, after deciding)."""

    name = "review"

    def __init__(self, reviewer: SeatReviewer, point: Point, valued: bool):
        self.reviewer, self.point, self.valued = reviewer, point, valued
        self.entry: dict | None = None

    def act(self, decision: Decision) -> Any:
        self.entry = self.reviewer.review(self.point, None, self.valued)
        return None


@dataclass
class _Slot:
    """What :meth:`BotRunner.decide` needs of a seat: an agent and an RNG (a review's own, never a room's)."""

    agent: Agent
    rng: Rng = field(default_factory=Rng)


@dataclass
class Job:
    code: str
    match: int
    status: str = "queued"  # queued, running, done, failed
    done: int = 0
    total: int | None = None
    review: dict | None = None
    error: str | None = None
    task: asyncio.Task | None = None
    started: float = field(default_factory=time.monotonic)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"code": self.code, "match": self.match, "status": self.status, "done": self.done,
                               "total": self.total}
        if self.status == "done":
            out["review"] = self.review
        if self.error is not None:
            out["error"] = self.error
        return out


class Reviews:
    """The server's reviews (see the module docstring)."""

    def __init__(self, runner: BotRunner, games: Mapping[str, Any], budget: ReviewBudget = SERVER_BUDGET,
                 max_active: int = MAX_ACTIVE, keep: int = KEEP, wall_seconds: float = WALL_SECONDS):
        self.runner, self.games, self.budget = runner, games, budget
        self.max_active, self.keep, self.wall_seconds = max_active, keep, wall_seconds
        self._jobs: collections.OrderedDict[tuple[str, int], Job] = collections.OrderedDict()
        self._room_locks: dict[str, tuple[asyncio.Lock, int]] = {}  # a room's lock and the reviews holding or awaiting it

    def status(self, code: str, match: int) -> dict:
        """The review of match ``match`` of room ``code``: ``{"status": "none"}`` when never asked for (or forgotten),
        else its progress (``done`` of ``total`` decisions) and, once done, ``review``."""
        job = self._jobs.get((code, match))
        if job is None:
            return {"code": code, "match": match, "status": "none", "done": 0, "total": None}
        return job.to_json()

    def active(self) -> int:
        return sum(1 for j in self._jobs.values() if j.status in ("queued", "running"))

    def start(self, code: str, match: int, record_json: Mapping) -> dict:
        """Start the review of a finished match's record (a stored record, JSON) unless it is running or done
        (then its status, as :meth:`status`); a failed review starts again. Raises :class:`ReviewRefused`."""
        key = (code, match)
        job = self._jobs.get(key)
        if job is not None and job.status != "failed":
            self._jobs.move_to_end(key)
            return job.to_json()
        if self.active() >= self.max_active:
            raise ReviewRefused("review_busy", f"the server is reviewing {self.active()} matches already; "
                                               "ask again in a minute", 503)
        try:
            record = MatchRecord.from_json(record_json)
        except DeltavError as exc:
            raise ReviewRefused("bad_record", f"the stored record cannot be read: {exc}", 500) from None
        if record.game not in self.games:
            raise ReviewRefused("bad_record", f"the record's game {record.game!r} is not installed here", 500)
        job = self._jobs[key] = Job(code, match)
        self._jobs.move_to_end(key)
        job.task = asyncio.get_running_loop().create_task(self._run(job, record))
        self._forget()
        return job.to_json()

    def _forget(self) -> None:
        while len(self._jobs) > self.keep:
            old = next((k for k, j in self._jobs.items() if j.status in ("done", "failed")), None)
            if old is None:
                return
            del self._jobs[old]

    async def _run(self, job: Job, record: MatchRecord) -> None:
        lock, users = self._room_locks.get(job.code, (asyncio.Lock(), 0))
        self._room_locks[job.code] = (lock, users + 1)
        try:
            async with lock:  # one review per room at a time
                job.status = "running"
                job.started = time.monotonic()
                job.review = await self._review(job, record)
                job.status = "done"
        except asyncio.CancelledError:
            job.status, job.error = "failed", "the server is stopping"
            raise
        except (ReviewError, DeltavError) as exc:
            job.status, job.error = "failed", f"the record cannot be reviewed: {exc}"
            log.warning("room %s match %d: review failed: %s", job.code, job.match, exc)
        except Exception as exc:  # noqa: BLE001 - a review's bug must not reach the loop; it is reported as data
            job.status, job.error = "failed", f"the review failed ({type(exc).__name__})"
            log.exception("room %s match %d: review failed", job.code, job.match)
        finally:
            lock, users = self._room_locks[job.code]
            if users <= 1:
                del self._room_locks[job.code]
            else:
                self._room_locks[job.code] = (lock, users - 1)

    async def _review(self, job: Job, record: MatchRecord) -> dict:
        points = await asyncio.to_thread(lambda: list(decision_points(record)))
        seats = list(range(len(record.seats)))
        describe = describer(record)
        reviewers = {p: SeatReviewer(record.game, p, self.budget) for p in seats}
        job.total = len(points)
        decisions: list[dict] = []
        valued = 0
        for point in points:
            may = (self.budget.estimates is None or valued < self.budget.estimates) and (
                time.monotonic() - job.started < self.wall_seconds)
            step = ReviewStep(reviewers[point.seat], point, may)
            slot = _Slot(step)
            try:
                await self.runner.decide(slot, point.decision, kind=HELP, lane=("review", job.code))  # type: ignore[arg-type]
                done = slot.agent
                assert isinstance(done, ReviewStep) and done.entry is not None
                reviewers[point.seat] = done.reviewer
                entry = done.entry
            except BotFailure as exc:  # this decision is not reviewed; the seat's reviewer goes on from its copy
                if point.seen:
                    reviewers[point.seat].shadow.observe(point.seat, list(point.seen))
                entry = _failed(point, exc)
            entry["played_text"] = describe(entry["played"])
            entry["best_text"] = describe(entry["best"]) if entry["best"] is not None else None
            valued += 1 if entry.get("valued") else 0
            decisions.append(entry)
            job.done += 1
        return assemble(record, seats, self.budget, decisions)

    def close(self) -> None:
        """Cancel every running review (the server is stopping)."""
        for job in self._jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()
        with contextlib.suppress(Exception):
            self._jobs.clear()


def _failed(point: Point, exc: BotFailure) -> dict:
    d = point.decision
    return {"seat": point.seat, "step": point.step, "index": point.index, "turn": None, "legal": len(d.legal_actions),
            "played": point.played.to_json(), "best": None, "same": False, "forced": len(d.legal_actions) <= 1,
            "value_played": None, "value_best": None, "loss": None, "se": None, "rollouts": 0, "grade": "good",
            "valued": False, "failed": f"{exc.kind}: {exc.reason}"}
