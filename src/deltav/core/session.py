"""A transport-free session: one match, its record, and what each seat and the spectators may see.

A :class:`Session` owns the authoritative state of one match. Everything above the engines (the match runner,
the server, remote agents, adapters) goes through it:

- :meth:`Session.submit` takes a seat's action as JSON (an object, or text), checks it and applies it, appends
  it to the :class:`~deltav.core.records.MatchRecord` (the same format ``match.play_match`` always wrote) and
  returns an :class:`Outcome`: the steps applied and, for any viewer, the events whose audience includes it.
  Every refusal raises :class:`~deltav.core.errors.IllegalAction` (or its subclass ``MalformedAction``) with a
  rule id and a sentence, and changes nothing.
- At a simultaneous node (several ``current_players()``) each deciding seat's action is checked against the
  current position and buffered, unseen by anyone else; once every deciding seat has submitted, the buffered
  actions are applied in ``current_players()`` order (the order the match runner always used), so records do
  not depend on who submitted first.
- The turn check is the state's (``core.phases``: the phase table checks the action's value, the turn, the
  phase's kind, then the rules, once, in that order); the session adds none of its own. With one decider the
  action goes straight to ``state.apply_action``, which refuses an out-of-turn seat before anything changes; at a
  simultaneous node (or once the game is over) a choice is buffered, not applied, so it is checked against the
  legal list and, when not in it, applied to a clone of the state for the table's own error (an out-of-turn seat:
  ``protocol.turn``). What the session checks itself is only what the state cannot know: the expected step
  (``session.stale_step``), the seat number (``session.seat``), an ending outside the rules
  (``protocol.game_over``) and a seat that already chose at this node (``session.already_decided``).
- :meth:`Session.snapshot` is the one view envelope every client gets (see ``docs/protocol.md``); full
  snapshots, never deltas.
- :meth:`Session.end` ends the match outside the rules (a seat resigned or forfeited: every other seat wins); the
  record keeps it as ``ending`` and replay applies it again.
- :meth:`Session.replay` rebuilds a session from a record, :meth:`Session.resume` from accepted submissions.
- Text: every text of the match (log entries, legal entries, a buffered choice) comes from one describer,
  ``Game.describer(options, names)``, built when the session starts and again by :meth:`Session.set_names`
  (``names``: the seats' display names; None means "Player 1", "Player 2", ...). ``Session.describe(v)`` is it.
  A session given names keeps them in its record's ``meta.names`` (``Session.replay`` reads them back).

This module owns the session only: no agents, no clocks, no I/O, no transport.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from deltav.core.errors import DeltavError, IllegalAction, MalformedAction, RecordError
from deltav.core.protocol import (
    Decision,
    Describer,
    Game,
    MatchEvents,
    State,
    SummaryJson,
    check_summary,
    get_game,
    player_names,
    read_action,
)
from deltav.core.records import (
    ENDING_KINDS,
    MatchRecord,
    Step,
    canonical,
    ending_result,
    ending_returns,
    events_json,
    make_ending,
    record_for,
    result_of,
)
from deltav.core.rng import Rng
from deltav.core.shape import open_shape
from deltav.core.values import Action, Event

#: How many visible log entries a snapshot carries by default (the newest ones); ask with ``since`` for more.
LOG_TAIL = 20


# --- the envelope's JSON shape (docs/protocol.md; web/tools/gen_types.py writes the client's types from it) -----

@open_shape
class ActionJson(TypedDict):
    """An action or an event as JSON: its ``type`` and the game's own fields (the game's ``messages.py``)."""

    type: str


class LegalEntryJson(TypedDict):
    """One legal action of the viewer: the action, its text and the game's annotation of it."""

    action: ActionJson
    text: str
    """The match's describer's words for the action."""
    note: NotRequired[dict[str, Any]]
    """The game's annotation (``Game.annotate_legal``), e.g. the tactical course preview."""


class LogEntryJson(TypedDict):
    """One applied event this viewer may see (an empty ``text`` is no line of the log)."""

    step: int
    event: ActionJson
    text: str


class DecidingJson(TypedDict):
    """A seat that must decide at this node, and whether it already has (never what)."""

    seat: int
    submitted: bool


class SubmittedJson(TypedDict):
    """This seat's own buffered choice at a simultaneous node."""

    action: ActionJson
    text: str


class ResultJson(TypedDict):
    """How the match ended: the engine's ``Result.to_json()``, or an ending's (resign, forfeit) with the losing
    ``seats`` and the ending's sentence in ``detail``."""

    winners: list[int]
    reason: str
    scores: list[float] | None
    seats: NotRequired[list[int]]
    detail: NotRequired[str]


class SnapshotJson(TypedDict):
    """The view envelope of one viewer (:meth:`Session.snapshot`): always complete, only the log is bounded."""

    game: str
    options: dict[str, Any]
    """The resolved options."""
    seats: list[str]
    """The seat labels ("human", a bot spec)."""
    names: list[str]
    """The seats' display names, the names every text of the match uses ("Player 1", "Hard bot", a person's)."""
    seat: int | None
    """This viewer's seat, or null for a spectator."""
    step: int
    """Actions applied so far: sent back as ``expected_step``."""
    status: Literal["playing", "over"]
    deciding: list[DecidingJson]
    to_act: bool
    legal: list[LegalEntryJson]
    submitted: SubmittedJson | None
    view: dict[str, Any]
    """The game's own ``view(seat)`` (its shape: the game's ``ViewJson``, docs/<game>.md)."""
    result: ResultJson | None
    returns: list[float] | None
    summary: SummaryJson | None
    """When ``status`` is "over": the match summary (nothing is secret then)."""
    log: NotRequired[list[LogEntryJson]]
    """The newest entries, or every one from step ``since`` on; left out by ``with_log=False``."""



def _row_step(row: list) -> int:
    return row[0]


def recorded_names(record: MatchRecord) -> list[str] | None:
    """The seats' display names a record keeps in ``meta.names`` (one string per seat), else None."""
    names = record.meta.get("names") if isinstance(record.meta, dict) else None
    if isinstance(names, list) and len(names) == len(record.seats) and all(isinstance(n, str) for n in names):
        return names
    return None


class SessionError(IllegalAction):
    """A submission the session refuses for a reason outside the game's rules (a stale step, a seat that has
    already decided). Rule ids start with ``session.``."""


@dataclass(frozen=True)
class AppliedStep:
    """One action applied to the match: its index in the record, the seat, the action and its events."""

    index: int
    player: int
    action: Action
    events: tuple[Event, ...]

    def events_for(self, viewer: int | None) -> list[Event]:
        return [e for e in self.events if e.visible_to(viewer)]


@dataclass
class Outcome:
    """What one accepted submission did. ``applied`` is empty when the action was buffered at a simultaneous
    node (``buffered`` then names the seat); otherwise it lists the steps now in the record, in order."""

    step: int  # the step the match is at now
    applied: list[AppliedStep] = field(default_factory=list)
    buffered: int | None = None
    finished: bool = False
    action: Any = None  # the submitted action's JSON as the record keeps it (encoded once: the server stores it)

    def events_for(self, viewer: int | None) -> list[Event]:
        """The newly applied events ``viewer`` (a seat, or None for a spectator) may see, in order."""
        return [e for s in self.applied for e in s.events_for(viewer)]


class Session:
    """One match: the authoritative state, the record, buffered simultaneous choices, per-viewer snapshots."""

    def __init__(self, game: type[Game], options: Mapping[str, Any] | None = None, seed: int = 0,
                 seats: Sequence[str] | None = None, names: Sequence[str] | None = None):
        self.game = game
        self.options = game.resolve_options(options)
        self.seed = seed
        self.state: State = game.new_initial_state(self.options, seed)
        self.num_players = self.state.num_players
        labels = list(seats) if seats is not None else [f"seat {p}" for p in range(self.num_players)]
        if len(labels) != self.num_players:
            raise ValueError(f"{game.id} with these options has {self.num_players} seats, got {len(labels)} labels")
        self.seats = labels
        # the seats' display names (None: the defaults) and the match's one describer (Game.describer)
        self.names: list[str] | None = player_names(names, self.num_players) if names is not None else None
        self.describe: Describer = game.describer(self.options, self.names)
        self._learn = getattr(self.describe, "learn", None)  # what the describer learns from public events
        self.record: MatchRecord = record_for(game, self.options, seed, labels)
        if self.names is not None:
            self.record.meta["names"] = list(self.names)
        self.ending: dict | None = None  # set by end(): the match was ended outside the rules
        self._summary: dict | None = None  # Game.match_summary, computed once when the match is over
        self._pending: dict[int, Action] = {}
        self._pending_json: dict[int, Any] = {}  # the buffered actions' JSON (encoded once, when submitted)
        self._log: list[list] = []  # [step index, event, its log entry (made when first asked for)] per event
        # the rows each viewer may see (None: a spectator), in order: a snapshot's log tail is a slice, not a scan
        self._seen: dict[int | None, list[list]] = {v: [] for v in (None, *range(self.num_players))}
        self._deciding: tuple[int, ...] = tuple(self.state.current_players())
        self._legal_cache: dict[int, list[Action]] = {}
        self._legal_json: dict[int, list[dict]] = {}

    def set_names(self, names: Sequence[str] | None) -> None:
        """The seats' display names (None: "Player 1", ...): the describer is built again with them and every
        text built so far is dropped (log and legal entries are written again when next asked for). Raises
        ValueError unless there is one string per seat."""
        checked = player_names(names, self.num_players) if names is not None else None
        self.names = checked
        self.describe = self.game.describer(self.options, checked)
        self._learn = getattr(self.describe, "learn", None)
        if self._learn is not None:  # the new describer learns the public events so far, in order
            for row in self._seen[None]:
                self._learn(row[1])
        if checked is not None:
            self.record.meta["names"] = list(checked)
        else:
            self.record.meta.pop("names", None)
        for row in self._log:  # the rows every viewer's list shares
            row[2] = None
        self._legal_json.clear()
        self._summary = None  # it names the seats: made again when next asked for

    def display_names(self) -> list[str]:
        """The seats' display names (the defaults when none were given)."""
        return player_names(self.names, self.num_players)

    # --- reading ---------------------------------------------------------------------------------------
    @property
    def step(self) -> int:
        """How many actions have been applied (the index of the next record step)."""
        return len(self.record.steps)

    def is_over(self) -> bool:
        return self.ending is not None or self.state.is_terminal()

    def result(self) -> dict | None:
        """The result as JSON once the match is over (the engine's ``Result``, or the ending's:
        :func:`~deltav.core.records.ending_result`), else None."""
        if self.ending is not None:
            return ending_result(self.ending)
        return result_of(self.state)

    def summary(self) -> dict | None:
        """The match summary for the result screen (``Game.match_summary`` of the final state, every event and the
        seats' names), computed once when the match is over and kept (None while it is played). A summary the
        game fails to make, or of the wrong shape, gives way to the default one with a note (the conformance
        suite holds every game's to its shape)."""
        if self._summary is None and self.is_over():
            events = MatchEvents((r[1] for r in self._log), self._decisions())
            names = self.display_names()
            try:
                self._summary = check_summary(self.game.match_summary(self.state, events, names), self.num_players)
            except Exception as exc:  # a bug of the game's summary must not take the match's snapshots down
                got = Game.match_summary.__func__(self.game, self.state, events, names)
                got["notes"] = [*got["notes"], f"the game's own summary failed ({type(exc).__name__})"]
                self._summary = got
        return self._summary

    def _decisions(self) -> list[int]:
        counts = [0] * self.num_players
        for st in self.record.steps:
            counts[st.player] += 1
        return counts

    def returns(self) -> list[float] | None:
        """One number per seat once the match is over (an ending: +1 each winner, -1 each loser), else None."""
        if self.ending is not None:
            return ending_returns(self.ending, self.num_players)
        return self.state.returns() if self.state.is_terminal() else None

    def deciding(self) -> tuple[int, ...]:
        """The seats that must decide at this node (at a simultaneous node: including those already decided)."""
        return self._deciding

    def waiting_for(self) -> tuple[int, ...]:
        """The deciding seats that have not yet submitted."""
        return tuple(p for p in self._deciding if p not in self._pending)

    def has_submitted(self, seat: int) -> bool:
        return seat in self._pending

    def legal_actions(self, seat: int) -> list[Action]:
        """``seat``'s legal actions now; empty if it is not deciding or has already submitted here."""
        if seat not in self._deciding or seat in self._pending:
            return []
        got = self._legal_cache.get(seat)
        if got is None:
            got = self._legal_cache[seat] = self.state.legal_actions(seat)
        return got

    def decision(self, seat: int, rng: Rng) -> Decision:
        """What an agent playing ``seat`` gets now (exactly what the match runner always built)."""
        return Decision(self.game, seat, self.state.view(seat), list(self.legal_actions(seat)), rng, self.options)

    def log(self, viewer: int | None, since: int | None = None) -> list[dict]:
        """The applied events ``viewer`` may see as ``{"step", "event", "text"}``: those of steps ``>= since``,
        or the newest :data:`LOG_TAIL` when ``since`` is None. Entries are shared between calls: read only."""
        seen = self._seen.get(viewer)
        if seen is None:  # not a seat of this match: what a spectator sees
            seen = self._seen[None]
        return self._entries(seen, since)

    def _entries(self, seen: list[list], since: int | None) -> list[dict]:
        if since is None:  # the newest LOG_TAIL
            rows = seen[-LOG_TAIL:]
        else:
            rows = seen[bisect.bisect_left(seen, since, key=_row_step):]  # rows are in step order
        for r in rows:
            if r[2] is None:
                r[2] = {"step": r[0], "event": r[1].to_json(), "text": self.describe(r[1])}
        return [r[2] for r in rows]

    def snapshot(self, seat: int | None, since: int | None = None, with_log: bool = True) -> dict:
        """The view envelope of ``seat`` (None: a spectator). See ``docs/protocol.md`` for every field.
        ``with_log=False`` leaves ``log`` out (the server's state message after an action carries the new entries
        once, in its ``events``, and the client appends them to the log it has)."""
        if seat is not None:
            self._check_seat(seat)
        pending = self._pending.get(seat) if seat is not None else None
        legal = self.legal_actions(seat) if seat is not None else []
        result = self.result()
        view = self.state.view(seat)
        env = {
            "game": self.game.id,
            "options": self.options,
            "seats": list(self.seats),
            "names": self.display_names(),
            "seat": seat,
            "step": self.step,
            "status": "over" if result is not None else "playing",
            "deciding": [{"seat": p, "submitted": p in self._pending} for p in self._deciding],
            "to_act": bool(legal),
            "legal": self._legal_entries(seat, view) if legal else [],
            "submitted": (
                {"action": self._pending_json[seat], "text": self.describe(pending)} if pending is not None else None
            ),
            "view": view,
            "result": result,
            "returns": self.returns(),
            "summary": self.summary() if result is not None else None,
        }
        if with_log:
            env["log"] = self.log(seat, since)
        return env

    def snapshot_full(self, since: int | None = None, force: bool = False) -> dict:
        """The envelope of an observer who knows everything, once the match is over (nothing is secret then):
        a spectator's envelope whose ``view`` is ``state.full_view()`` and whose ``log`` holds every event,
        private ones included. Refused (``session.not_over``) while the match is played, unless ``force``: the
        server's replay of a finished match shows its earlier positions so."""
        if not force and not self.is_over():
            raise SessionError("session.not_over", "the full view of a match is shown once it is over")
        env = self.snapshot(None, since)
        env["view"] = self.state.full_view()
        env["log"] = self.log_full(since)
        return env

    def log_full(self, since: int | None = None) -> list[dict]:
        """:meth:`log` of every event, private ones included: what :meth:`snapshot_full` shows (never for the
        viewers of a match still played)."""
        return self._entries(self._log, since)

    def _legal_entries(self, seat: int, view: Any = None) -> list[dict]:
        """``seat``'s legal entries, built once per step (``view``: its view of this step, for the notes; not
        kept: a view held until the next step would be one more set of objects for the garbage collector to
        scan in every live room)."""
        got = self._legal_json.get(seat)
        if got is None:
            actions = self.legal_actions(seat)
            got = [{"action": a.to_json(), "text": self.describe(a)} for a in actions]
            notes = self.game.annotate_legal(self.state, seat, actions, view=view)
            if notes is not None:
                for entry, note in zip(got, notes, strict=True):
                    if note is not None:
                        entry["note"] = note
            self._legal_json[seat] = got
        return got

    # --- acting ----------------------------------------------------------------------------------------
    def submit(self, seat: int, action_json: Any, expected_step: int | None = None) -> Outcome:
        """Check and apply (or, at a simultaneous node, buffer) ``seat``'s action. ``action_json`` is a JSON
        object (or its text). Raises IllegalAction / MalformedAction / SessionError; nothing changes then."""
        action = self._decode(action_json)
        return self.submit_action(seat, action, expected_step)

    def submit_action(self, seat: int, action: Action, expected_step: int | None = None) -> Outcome:
        """:meth:`submit` for an already decoded action (the match runner's entry point)."""
        self._check_step(expected_step)
        self._check_seat(seat)
        if self.ending is not None:
            raise IllegalAction("protocol.game_over", f"the match is over ({self.ending['kind']})")
        if seat in self._pending:  # a deciding seat (only deciders are buffered): the turn is not in question
            raise SessionError("session.already_decided",
                               f"seat {seat} has already decided at step {self.step}; waiting for "
                               f"{list(self.waiting_for())}")
        if len(self._deciding) == 1:  # the state's apply_action checks value, turn, kind and rules (core.phases)
            action_json = action.to_json()
            outcome = self._apply_batch([(seat, action, action_json)])
            outcome.action = action_json
            return outcome
        self._check_legal(seat, action)  # the same checks on a clone, for a choice that is buffered, not applied
        action_json = action.to_json()
        self._pending[seat] = action
        self._pending_json[seat] = action_json
        if self.waiting_for():
            return Outcome(self.step, buffered=seat, action=action_json)
        batch = [(p, self._pending[p], self._pending_json[p]) for p in self._deciding]
        outcome = self._apply_batch(batch)
        outcome.action = action_json
        return outcome

    def end(self, kind: str, seats: Sequence[int], reason: str) -> dict:
        """End the match outside the rules: ``seats`` lose (``kind`` "resign": they gave up; "forfeit": they were
        declared to have, by a clock or an opponent's claim) and every other seat wins. ``reason`` is a sentence
        for people. Choices buffered at a simultaneous node are void (they were never applied). The record keeps
        the ending (``record.ending``, its result and returns) and the snapshot shows the match over. Returns the
        ending ``{"kind", "seats", "winners", "step", "reason"}``. Refusals change nothing: ``session.ending``
        (an unknown kind, no seat, a reason that is not text), ``session.seat`` (a seat not in the match, a
        spectator's None), ``protocol.game_over`` (the match is already over)."""
        if kind not in ENDING_KINDS:
            raise SessionError("session.ending", f"{kind!r} is not a way to end a match ({', '.join(ENDING_KINDS)})")
        if isinstance(seats, int | str) or not isinstance(seats, Sequence) or not seats:
            raise SessionError("session.ending", "an ending needs the seats that lose (at least one)")
        for seat in seats:
            self._check_seat(seat)
        if not isinstance(reason, str):
            raise SessionError("session.ending", "an ending's reason is a sentence (text)")
        if self.is_over():
            raise IllegalAction("protocol.game_over", "the match is over")
        ending = make_ending(kind, seats, self.num_players, self.step, reason)
        self.ending = ending
        self._pending.clear()
        self._pending_json.clear()
        self._legal_cache.clear()
        self._legal_json.clear()
        self._deciding = ()
        self.record.ending = dict(ending)
        self.record.result = ending_result(ending)
        self.record.returns = ending_returns(ending, self.num_players)
        return dict(ending)

    # --- rebuilding ------------------------------------------------------------------------------------
    @classmethod
    def replay(cls, record: MatchRecord, game: type[Game] | None = None, names: Sequence[str] | None = None) -> Session:
        """A session rebuilt from ``record`` by applying its steps in order (checking each step's events when
        the record has them). Raises RecordError at the first step that does not replay."""
        try:
            game = game or get_game(record.game)
            s = cls(game, game.stored_options(record.options), record.seed, record.seats or None,
                    names if names is not None else recorded_names(record))
        except (DeltavError, ValueError) as exc:
            raise RecordError(f"cannot start the recorded match: {exc}") from None
        for i, st in enumerate(record.steps):
            if s.is_over():
                raise RecordError("the game was already over, but the record has more steps", step=i)
            try:
                action = game.action_from_json(st.action)
                applied = s._apply_one(st.player, action)
            except IllegalAction as exc:
                raise RecordError(f"player {st.player}'s action {json.dumps(st.action)} is rejected: {exc}",
                                  step=i) from None
            if events_json(applied.events) != st.events:
                raise RecordError("the replayed events differ from the recorded ones", step=i)
            s._after_apply()
        if record.ending is not None:
            s.apply_ending(record.ending)
        return s

    def apply_ending(self, ending: Mapping) -> None:
        """End this session as ``ending`` (a record's, or one the server stored) says, after checking that it
        ends this match at this step; raises RecordError otherwise (nothing changes then)."""
        try:
            want = make_ending(ending["kind"], ending["seats"], self.num_players, self.step, ending["reason"])
            same = canonical(want) == canonical(dict(ending))
        except (KeyError, TypeError, ValueError):
            same = False
        if not same:
            raise RecordError(f"the ending {str(ending)[:200]} is not one that ends this match at step {self.step}",
                              step=self.step)
        try:
            self.end(ending["kind"], ending["seats"], ending["reason"])
        except IllegalAction as exc:
            raise RecordError(f"the ending {str(ending)[:200]} does not end this match: {exc}", step=self.step) from None

    @classmethod
    def resume(cls, game: type[Game], options: Mapping[str, Any] | None, seed: int, seats: Sequence[str] | None,
               submissions: Iterable[tuple[int, Any]], names: Sequence[str] | None = None) -> Session:
        """A session rebuilt by submitting accepted ``(seat, action_json)`` pairs again in the order they were
        accepted (buffered simultaneous choices included): the server's restart path. ``options`` are the stored
        ones: an option the match predates is read as it was played (``Game.stored_options``)."""
        s = cls(game, game.stored_options(options), seed, seats, names)
        for seat, action_json in submissions:
            s.submit(seat, action_json)
        return s

    # --- internals -------------------------------------------------------------------------------------
    def _decode(self, action_json: Any) -> Action:
        """The action of a submission: :func:`deltav.core.protocol.read_action` (the one decoder of untrusted
        actions: the bounded reader, then the game's codec)."""
        return read_action(self.game, action_json)

    def _check_step(self, expected_step: Any) -> None:
        if expected_step is None:
            return
        if isinstance(expected_step, bool) or not isinstance(expected_step, int):
            raise MalformedAction("expected_step", f"{expected_step!r} is not an integer")
        if expected_step != self.step:
            word = "stale" if expected_step < self.step else "from the future"
            raise SessionError("session.stale_step",
                               f"this action was made for step {expected_step}, which is {word}: the match is at "
                               f"step {self.step}")

    def _check_seat(self, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise SessionError("session.seat", f"no such seat {seat!r} (seats are 0..{self.num_players - 1})")

    def _check_legal(self, seat: int, action: Action) -> None:
        """Raise IllegalAction unless ``action`` is legal for ``seat`` now, without changing the state."""
        if action in self.legal_actions(seat):
            return
        self.state.clone().apply_action(seat, action)  # raises with the game's own rule id and sentence

    def _apply_one(self, player: int, action: Action, action_json: Any = None) -> AppliedStep:
        events = self.state.apply_action(player, action)
        index = self.step
        self.record.steps.append(Step(player, action.to_json() if action_json is None else action_json,
                                      events_json(events)))
        rows = [[index, e, None] for e in events]
        self._log.extend(rows)
        if all(getattr(e, "to", None) is None for e in events):  # all public (most steps): every viewer sees all
            for seen in self._seen.values():
                seen.extend(rows)
            if self._learn is not None:
                for e in events:
                    self._learn(e)
        else:
            for viewer, seen in self._seen.items():
                seen.extend(r for r in rows if r[1].visible_to(viewer))
            if self._learn is not None:
                for e in events:
                    if e.visible_to(None):
                        self._learn(e)
        return AppliedStep(index, player, action, tuple(events))

    def _apply_batch(self, batch: list[tuple[int, Action, Any]]) -> Outcome:
        applied: list[AppliedStep] = []
        for k, (p, action, action_json) in enumerate(batch):
            if self.state.is_terminal():
                break  # an earlier action of the batch ended the match; the rest are void (as always)
            if k == 0:
                applied.append(self._apply_one(p, action, action_json))
                continue
            try:
                applied.append(self._apply_one(p, action, action_json))
            except IllegalAction as exc:  # the game broke the simultaneous-node contract
                raise RuntimeError(
                    f"{self.game.id}: seat {p}'s buffered action became illegal after seat {batch[0][0]}'s was applied "
                    f"at a simultaneous node ({exc}); the game must accept every choice checked at the node"
                ) from exc
        self._after_apply()
        return Outcome(self.step, applied, finished=self.state.is_terminal())

    def _after_apply(self) -> None:
        self._pending.clear()
        self._pending_json.clear()
        self._legal_cache.clear()
        self._legal_json.clear()
        self._deciding = tuple(self.state.current_players())
        if self.state.is_terminal():
            self.record.result = result_of(self.state)
            self.record.returns = self.state.returns()
