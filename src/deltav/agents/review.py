"""The game review: every decision of a seat in a finished match, replayed from that seat's own view, compared
with what ``bot:hard`` would have chosen, with an estimate of each choice's value and a grade.

How a review works (``docs/review.md`` says why):

1. :func:`decision_points` replays the record through a :class:`~deltav.core.session.Session` and, at every
   decision of a reviewed seat, takes the :class:`~deltav.core.protocol.Decision` that seat had: its view and
   legal actions at that position (at a simultaneous node the position before the node's batch is applied, as the
   match runner asked it), the action it played, and the events it saw since its previous decision. This is the
   only function that touches the true state; everything after it sees the seat's decisions only.
2. :class:`SeatReviewer` plays ``bot:hard`` in the seat's shoes: a *shadow* agent that observes the events the
   seat saw and is asked at each of the seat's decisions (as a match would ask it), giving bot:hard's choice.
3. Where the played action differs from bot:hard's choice, both are valued by :func:`estimate`: the same
   ``rollouts`` worlds sampled from the seat's view (``game.determinize``: the ISMCTS bots' belief), each played
   out to the end by ``bot:normal`` in every seat, once after each alternative (common worlds and dice: a paired
   comparison). A value is the seat's win share in those playouts (a win 1, a draw 0.5, a loss 0); the *loss* is
   bot:hard's value minus the played one, and the grade reads the loss less one standard error of the paired
   differences (:data:`GRADES`), so noise alone does not call a move a blunder.
4. Seeds come from what the seat knew: ``derive_seed`` of the hash of the seat's view and the position's step, so
   the same record and budget give the same review, and a secret the seat did not know cannot change it.

The budget (:class:`ReviewBudget`) is counted (``rollouts`` per alternative, ``estimates`` per review) so a review
replays exactly; its CPU seconds (per decision and per review) are safety nets that, when they cut, make the
review depend on the machine (a cut decision keeps the playouts it finished; once the review's seconds are spent
the remaining decisions get bot:hard's choice without values).

This module owns reviews only: it knows no transport (the server runs :class:`SeatReviewer` on its bot workers,
``deltav.server.reviews``) and never changes the bots (it builds them through the registry).
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from deltav.agents import budget as decision_budget
from deltav.agents.registry import make_agent
from deltav.agents.rollout import BotPolicy
from deltav.agents.spec import AgentSpecError
from deltav.core.agent import Agent
from deltav.core.errors import DeltavError, IllegalAction, RecordError
from deltav.core.protocol import Decision, Game, State, get_game
from deltav.core.records import MatchRecord, canonical, events_json
from deltav.core.rng import Rng, derive_seed
from deltav.core.session import Session, recorded_names
from deltav.core.values import Action, Event

FORMAT = "deltav-review/1"
#: The bot whose choices a review compares with, and the bot that plays the valuing playouts.
REVIEWER, ROLLOUT = "hard", "normal"
#: Grades by the loss (win share, 0 to 1) the review is fairly sure of: the estimated loss less one standard error.
GRADES = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))
GOOD = "good"


class ReviewError(DeltavError):
    """A review that cannot be made: a record that does not replay, a bad budget, an unknown seat."""


@dataclass(frozen=True)
class ReviewBudget:
    """What one review may spend. ``rollouts``: playouts per alternative at each decision where the choices
    differ; ``estimates``: the most decisions valued in the whole review (None: all; in the order they were
    played); ``horizon``: the most decisions a playout plays before the game's evaluation scores it (None: to the
    end); ``decision_seconds`` / ``seconds``: CPU-time safety nets per decision and per review."""

    rollouts: int = 8
    estimates: int | None = None
    horizon: int | None = None
    decision_seconds: float = 4.0
    seconds: float = 120.0

    LIMITS = {"rollouts": (1, 200), "estimates": (0, 100_000), "horizon": (1, 100_000),
              "decision_seconds": (0.01, 600.0), "seconds": (0.01, 36_000.0)}

    def __post_init__(self) -> None:
        for name, (lo, hi) in self.LIMITS.items():
            v = getattr(self, name)
            if v is None and name in ("estimates", "horizon"):
                continue
            ok = isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and lo <= v <= hi
            if ok and name in ("rollouts", "estimates", "horizon"):
                ok = isinstance(v, int)
            if not ok:
                raise ReviewError(f"budget {name}={v!r}: must be {'an integer' if isinstance(lo, int) else 'a number'} "
                                  f"from {lo} to {hi}")

    @classmethod
    def parse(cls, text: str) -> ReviewBudget:
        """``rollouts=8,estimates=40,horizon=none,decision_seconds=4,seconds=120`` (any subset)."""
        fields: dict[str, Any] = {}
        if len(text) > 300:
            raise ReviewError("a budget is at most 300 characters")
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or key not in cls.LIMITS:
                raise ReviewError(f"budget {part!r}: expected NAME=VALUE with NAME one of {', '.join(cls.LIMITS)}")
            value = value.strip()
            if value.lower() == "none" and key in ("estimates", "horizon"):
                fields[key] = None
                continue
            try:
                fields[key] = int(value) if key in ("rollouts", "estimates", "horizon") else float(value)
            except ValueError:
                raise ReviewError(f"budget {key}={value!r}: not a number") from None
        return cls(**fields)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class Point:
    """One decision of a seat: the Decision it had (view, legal actions, options; ``decision.rng`` is a
    placeholder, the reviewer seeds its own), the action it played, the events it saw since its previous
    decision, the position's ``step`` (the record index where the node's batch starts), ``index`` (the record
    index of this seat's action) and ``deciding`` (the seats deciding at the node, in the order they apply)."""

    seat: int
    step: int
    index: int
    decision: Decision
    played: Action
    seen: list[Event] = field(default_factory=list)
    deciding: tuple[int, ...] = ()


def decision_points(record: MatchRecord, seats: Sequence[int] | None = None) -> Iterator[Point]:
    """Replay ``record`` (checking every step's events) and yield each decision of ``seats`` (None: every seat)
    in the order played; raises :class:`ReviewError` when a step does not replay."""
    try:
        game = get_game(record.game)
        session = Session(game, game.stored_options(record.options), record.seed, record.seats or None,
                          recorded_names(record))
    except (DeltavError, ValueError) as exc:
        raise ReviewError(f"cannot start the recorded match: {exc}") from None
    wanted = set(range(session.num_players)) if seats is None else set(seats)
    seen: dict[int, list[Event]] = {p: [] for p in wanted}
    batch_step = 0
    deciding: tuple[int, ...] = ()
    for i, st in enumerate(record.steps):
        if session.is_over():
            raise ReviewError(f"step {i}: the game was already over, but the record has more steps")
        if len(session.waiting_for()) == len(session.deciding()):  # the first action of a node
            batch_step, deciding = i, tuple(session.deciding())
        try:
            action = game.action_from_json(st.action)
        except IllegalAction as exc:
            raise ReviewError(f"step {i}: seat {st.player}'s action cannot be read: {exc}") from None
        if st.player not in session.waiting_for():
            raise ReviewError(f"step {i}: seat {st.player} is not to decide here (seats {list(session.waiting_for())} are)")
        if st.player in wanted:
            decision = session.decision(st.player, Rng(0))
            yield Point(st.player, batch_step, i, decision, action, seen[st.player], deciding)
            seen[st.player] = []
        try:
            outcome = session.submit_action(st.player, action)
        except IllegalAction as exc:
            raise ReviewError(f"step {i}: seat {st.player}'s action is rejected: {exc}") from None
        for applied in outcome.applied:
            if canonical(events_json(applied.events)) != canonical(record.steps[applied.index].events):
                raise ReviewError(f"step {applied.index}: the replayed events differ from the recorded ones")
            for p in wanted:
                seen[p].extend(applied.events_for(p))


def point_seed(point: Point) -> int:
    """The review's seed at ``point``: from the seat's view and the position's step only (what the seat knew)."""
    digest = hashlib.sha256(canonical(point.decision.view).encode()).digest()
    return derive_seed(int.from_bytes(digest[:8], "big"), "review", point.seat, point.step)


# --- valuing -----------------------------------------------------------------------------------------------------

def _evaluation(game_id: str) -> Callable[[State, int], float] | None:
    from deltav.agents.presets import heuristic

    return heuristic(game_id, "evaluate")


def _apply(state: State, p: int, action: Action, bots: list[Agent]) -> None:
    events = state.apply_action(p, action)
    for q, bot in enumerate(bots):
        visible = [e for e in events if e.visible_to(q)]
        if visible:
            bot.observe(q, visible)


def _playout(world: State, point: Point, action: Action, seed: int, horizon: int | None,
             evaluate: Callable[[State, int], float] | None, rollout_spec: str) -> float:
    """``point.seat``'s win share after playing ``action`` in ``world`` (in place), every seat played by the
    rollout bot to the end (or ``horizon`` decisions, then the evaluation)."""
    game = world.game
    options = point.decision.options
    n = world.num_players
    bots = [make_agent(game.id, rollout_spec) for _ in range(n)]
    policy = BotPolicy(lambda: make_agent(game.id, rollout_spec), options)  # a bot bug on a sampled world: random
    policy.bots = dict(enumerate(bots))
    rngs = [Rng(derive_seed(seed, "seat", q)) for q in range(n)]

    def bot_action(q: int) -> Action:
        return policy(world, q, world.legal_actions(q), rngs[q])

    deciding = [q for q in world.current_players()]
    chosen = [(q, action if q == point.seat else bot_action(q)) for q in deciding]
    if point.seat not in deciding:  # a sampled world that disagrees with the view (a determinizer bug)
        chosen = [(point.seat, action)]
    for q, a in chosen:
        if world.is_terminal():
            break
        _apply(world, q, a, bots)
    limit = game.max_decisions(options) if horizon is None else horizon
    depth = 0
    while not world.is_terminal():
        if depth >= limit:
            if evaluate is None:
                return 0.5
            v = max(-1.0, min(1.0, float(evaluate(world, point.seat))))
            return (v + 1) / 2
        players = world.current_players()
        picks = [(q, bot_action(q)) for q in players]
        for q, a in picks:
            if world.is_terminal():
                break
            _apply(world, q, a, bots)
        depth += 1
    r = float(world.returns()[point.seat])
    return (max(-1.0, min(1.0, r)) + 1) / 2


def estimate(point: Point, alternatives: Sequence[Action], rollouts: int, seed: int, horizon: int | None = None,
             deadline: float | None = None, rollout_spec: str = ROLLOUT) -> list[list[float]]:
    """The values of ``alternatives`` at ``point``: for each, the list of playout win shares, over the same
    ``rollouts`` worlds sampled from the seat's view (stops early, keeping whole pairs, once ``deadline``, a
    ``time.thread_time``, has passed)."""
    game = point.decision.game
    evaluate = _evaluation(game.id) if horizon is not None else None
    out: list[list[float]] = [[] for _ in alternatives]
    for r in range(rollouts):
        if r and deadline is not None and time.thread_time() > deadline:
            break
        world = game.determinize(point.decision.view, point.seat, Rng(derive_seed(seed, "world", r)))
        for k, a in enumerate(alternatives):
            out[k].append(_playout(world.clone(), point, a, derive_seed(seed, "playout", r), horizon, evaluate,
                                   rollout_spec))
    return out


def grade(loss: float | None, se: float) -> str:
    """The grade of a decision whose estimated loss is ``loss`` with standard error ``se`` (None: not valued)."""
    if loss is None:
        return GOOD
    sure = loss - se
    for name, threshold in GRADES:
        if sure >= threshold:
            return name
    return GOOD


# --- one seat ---------------------------------------------------------------------------------------------------

class SeatReviewer:
    """Reviews one seat's decisions in order (:meth:`review`): keeps the shadow ``bot:hard`` that follows the
    seat. Picklable, so the server's bot workers can run it one decision at a time."""

    def __init__(self, game_id: str, seat: int, budget: ReviewBudget, reviewer: str = REVIEWER,
                 rollout: str = ROLLOUT):
        self.game_id = game_id
        self.seat = seat
        self.budget = budget
        self.reviewer, self.rollout = reviewer, rollout
        try:
            self.shadow = make_agent(game_id, reviewer)
            make_agent(game_id, rollout)
        except AgentSpecError as exc:
            raise ReviewError(str(exc)) from None

    def review(self, point: Point, describe: Callable[[Any], str] | None = None, valued: bool = True) -> dict:
        """The review of one decision (a JSON object, see ``docs/review.md``). ``valued`` False: bot:hard's choice
        only (the review's budget is spent: the caller counts ``budget.estimates`` and ``budget.seconds``)."""
        if point.seat != self.seat:
            raise ReviewError(f"this reviewer follows seat {self.seat}, not seat {point.seat}")
        t0 = time.thread_time()
        seed = point_seed(point)
        if point.seen:
            self.shadow.observe(self.seat, list(point.seen))
        d = point.decision
        decision = Decision(d.game, d.player, d.view, list(d.legal_actions), Rng(derive_seed(seed, "reviewer")), d.options)
        best = self.shadow.act(decision)
        if best not in d.legal_actions:  # a reviewer bug must not break the review: it agrees with the player
            best = point.played
        entry: dict[str, Any] = {
            "seat": point.seat, "step": point.step, "index": point.index, "turn": _turn(d.view),
            "legal": len(d.legal_actions), "played": point.played.to_json(), "best": best.to_json(),
            "same": best == point.played, "forced": len(d.legal_actions) <= 1,
            "value_played": None, "value_best": None, "loss": None, "se": None, "rollouts": 0, "grade": GOOD,
        }
        if describe is not None:
            entry["played_text"] = describe(point.played)
            entry["best_text"] = describe(best)
        if entry["same"] or entry["forced"] or not valued:
            entry["valued"] = False if not entry["same"] and not entry["forced"] else None
            return entry
        seconds = self.budget.decision_seconds
        outer = decision_budget.current()
        if outer is not None and outer.seconds is not None:  # the server's per-decision budget: stay inside it
            seconds = min(seconds, outer.seconds * 0.8)
        played_v, best_v = estimate(point, [point.played, best], self.budget.rollouts, seed, self.budget.horizon,
                                    t0 + seconds, self.rollout)
        n = len(played_v)
        diffs = [b - p for b, p in zip(best_v, played_v, strict=True)]
        loss = sum(diffs) / n
        se = math.sqrt(sum((x - loss) ** 2 for x in diffs) / (n - 1) / n) if n > 1 else 0.5
        entry.update(valued=True, value_played=round(sum(played_v) / n, 4), value_best=round(sum(best_v) / n, 4),
                     loss=round(loss, 4), se=round(se, 4), rollouts=n, grade=grade(loss, se))
        return entry


def _turn(view: Any) -> int | None:
    if isinstance(view, dict):
        for key in ("turn", "round"):
            v = view.get(key)
            if isinstance(v, int) and not isinstance(v, bool):
                return v
    return None


# --- a whole review ---------------------------------------------------------------------------------------------

def review_record(record: MatchRecord, seats: Sequence[int] | None = None, budget: ReviewBudget | None = None,
                  progress: Callable[[int, int], None] | None = None) -> dict:
    """The review of ``record`` for ``seats`` (None: every seat): a JSON object (``docs/review.md``).
    ``progress(done, total)`` is called after each decision. Raises :class:`ReviewError`."""
    budget = budget or ReviewBudget()
    game = _game(record)
    n = len(record.seats)
    seats = _seats(seats, n)
    points = list(decision_points(record, seats))
    reviewers = {p: SeatReviewer(game.id, p, budget) for p in seats}
    describe = describer(record)
    t0 = time.thread_time()
    decisions: list[dict] = []
    for k, point in enumerate(points):
        decisions.append(reviewers[point.seat].review(point, describe, may_value(budget, decisions, t0)))
        if progress is not None:
            progress(k + 1, len(points))
    return assemble(record, seats, budget, decisions)


def may_value(budget: ReviewBudget, decisions: Sequence[dict], started: float) -> bool:
    """Whether the next decision may still be valued: fewer than ``budget.estimates`` valued so far and the
    review's CPU time (``time.thread_time`` since ``started``) under ``budget.seconds``."""
    if budget.estimates is not None and sum(1 for d in decisions if d.get("valued")) >= budget.estimates:
        return False
    return time.thread_time() - started < budget.seconds


def _game(record: MatchRecord) -> type[Game]:
    try:
        return get_game(record.game)
    except DeltavError as exc:
        raise ReviewError(str(exc)) from None


def _seats(seats: Sequence[int] | None, n: int) -> list[int]:
    if seats is None:
        return list(range(n))
    out = []
    for p in seats:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
            raise ReviewError(f"no seat {p!r} in this match (seats are 0 to {n - 1})")
        if p not in out:
            out.append(p)
    return out


def describer(record: MatchRecord) -> Callable[[Any], str]:
    """The game's describer for ``record`` (its options and the seats' names), taught the record's public events
    (a describer that learns, e.g. tactical's fleets, names a fleet-built ship by its class)."""
    game = _game(record)
    try:
        options = game.resolve_options(game.stored_options(record.options))
    except DeltavError as exc:
        raise ReviewError(f"bad options: {exc}") from None
    describe = game.describer(options, names(record))
    learn = getattr(describe, "learn", None)
    if learn is not None:
        for step in record.steps:
            for event in step.events:
                if isinstance(event, dict) and event.get("to") is None:
                    learn(event)
    return describe


def names(record: MatchRecord) -> list[str]:
    got = recorded_names(record)
    return got if got is not None else [f"Player {p + 1}" for p in range(len(record.seats))]


def assemble(record: MatchRecord, seats: Sequence[int], budget: ReviewBudget, decisions: list[dict]) -> dict:
    """The review document from the decisions' reviews (in the order played)."""
    summary = []
    for p in seats:
        mine = [d for d in decisions if d["seat"] == p]
        choices = [d for d in mine if not d["forced"]]
        counts = {g: sum(1 for d in choices if d["grade"] == g) for g, _ in GRADES}
        lost = sum(max(0.0, d["loss"]) for d in choices if d["loss"] is not None)
        summary.append({
            "seat": p, "decisions": len(mine), "choices": len(choices),
            "same_as_reviewer": sum(1 for d in choices if d["same"]),
            "valued": sum(1 for d in choices if d.get("valued")),
            "unvalued": sum(1 for d in choices if d.get("valued") is False),
            "inaccuracies": counts["inaccuracy"], "mistakes": counts["mistake"], "blunders": counts["blunder"],
            "win_share_lost": round(lost, 4),
        })
    return {
        "format": FORMAT, "game": record.game, "seed": record.seed, "seats": list(record.seats), "names": names(record),
        "reviewer": f"bot:{REVIEWER}", "rollout": f"bot:{ROLLOUT}", "budget": budget.to_json(),
        "grades": {g: t for g, t in GRADES}, "reviewed": list(seats), "result": record.result,
        "summary": summary, "decisions": decisions,
    }


def check_record(record: MatchRecord) -> None:
    """Raise :class:`ReviewError` unless ``record`` is of a known game (the rest is checked while replaying)."""
    try:
        get_game(record.game)
    except (DeltavError, RecordError) as exc:
        raise ReviewError(str(exc)) from None
