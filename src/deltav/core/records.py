"""Match records: a JSON file that replays a whole match and proves it replays.

A record holds the game id, resolved options, seed, engine and rules versions, the seat labels, every action
with the events it produced, the result and the returns, and (only for a match ended outside the rules: a seat
resigned or forfeited) its ``ending`` ``{"kind", "seats", "winners", "step", "reason"}``, which :func:`replay`
applies after the steps (:func:`ending_result`, :func:`ending_returns`). :func:`replay` re-runs the match from the options
and seed and checks that the record is exactly what this engine produces: the same engine and rules versions
(unless the caller accepts a mismatch), options that are already resolved, and every step's action, events,
the final result and the returns equal in their canonical JSON form (so ``1``, ``1.0`` and ``true`` differ).
The first difference is reported with its step index.

Reading is checked: :meth:`MatchRecord.load` refuses bytes that are not UTF-8, numbers of absurd size, NaN,
nesting deeper than :data:`MAX_DEPTH` and files over :data:`MAX_BYTES`; :meth:`MatchRecord.from_json` reads
the document with :func:`deltav.core.shape.read`. Every refusal is a :class:`RecordError` naming the field.

This module owns the record format and its verification; it knows no game (it looks games up in the registry).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import deltav
from deltav.core.errors import DeltavError, IllegalAction, RecordError
from deltav.core.protocol import Game, Result, State, get_game
from deltav.core.shape import INT_LIMIT, MaxLen, Range, read

FORMAT = "deltav-record/1"

#: The largest record file :meth:`MatchRecord.load` reads.
MAX_BYTES = 256 * 1024 * 1024
#: The deepest nesting of arrays and objects a record may hold (engines write a handful of levels).
MAX_DEPTH = 40
#: The most digits an integer in a record may have (seeds are 64-bit: 20 digits).
MAX_DIGITS = 40

_Name = Annotated[str, MaxLen(200)]

#: How a match can end outside the rules (``Session.end``): a seat gave up, or was declared to have given up.
ENDING_KINDS = ("resign", "forfeit")


class _EndingDoc(TypedDict):
    kind: Literal["resign", "forfeit"]
    seats: Annotated[list[Annotated[int, Range(0, 1023)]], MaxLen(1024)]
    winners: Annotated[list[Annotated[int, Range(0, 1023)]], MaxLen(1024)]
    step: Annotated[int, Range(0, 10_000_000)]
    reason: Annotated[str, MaxLen(1000)]


class _StepDoc(TypedDict):
    player: Annotated[int, Range(0, 1023)]
    action: dict[str, Any]
    events: list[dict[str, Any]]


class _RecordDoc(TypedDict):
    format: Literal["deltav-record/1"]
    engine_version: _Name
    game: _Name
    rules_version: _Name
    options: Annotated[dict[str, bool | int | float | Annotated[str, MaxLen(4096)] | None], MaxLen(200)]
    seed: Annotated[int, Range(-(2**63), 2**64 - 1)]
    seats: Annotated[list[_Name], MaxLen(1024)]
    steps: Annotated[list[_StepDoc], MaxLen(10_000_000)]
    result: dict[str, Any] | None
    returns: Annotated[list[float], MaxLen(1024)] | None
    meta: dict[str, Any]
    ending: NotRequired[_EndingDoc]


@dataclass
class Step:
    player: int
    action: dict
    events: list[dict]

    def to_json(self) -> dict:
        return {"player": self.player, "action": self.action, "events": self.events}


@dataclass
class MatchRecord:
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    result: dict | None = None
    returns: list[float] | None = None
    engine_version: str = deltav.__version__
    rules_version: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    ending: dict | None = None  # a match ended outside the rules (resign, forfeit); written only then

    def to_json(self) -> dict:
        out = {
            "format": FORMAT,
            "engine_version": self.engine_version,
            "game": self.game,
            "rules_version": self.rules_version,
            "options": self.options,
            "seed": self.seed,
            "seats": self.seats,
            "steps": [s.to_json() for s in self.steps],
            "result": self.result,
            "returns": self.returns,
            "meta": self.meta,
        }
        if self.ending is not None:
            out["ending"] = self.ending
        return out

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.to_json(), separators=(",", ":")) + "\n")
        return p

    @classmethod
    def from_json(cls, obj: Any) -> MatchRecord:
        """Read a parsed record; raises RecordError naming the first bad field (``$.steps[3].player``).
        Actions, events, result, returns and meta are kept exactly as written (checked to be plain, bounded
        JSON), so :func:`replay` can compare them type-strictly."""
        if isinstance(obj, dict) and obj.get("format") != FORMAT:
            raise RecordError(f"unknown record format {_short(obj.get('format'))} (expected {FORMAT!r})")
        _check_json(obj, "$")
        doc = read(_RecordDoc, obj, error=lambda path, reason: RecordError(f"{path}: {reason}"))
        steps = [Step(s["player"], obj["steps"][i]["action"], obj["steps"][i]["events"]) for i, s in enumerate(doc["steps"])]
        return cls(
            game=doc["game"],
            options=dict(obj["options"]),
            seed=doc["seed"],
            seats=list(doc["seats"]),
            steps=steps,
            result=obj["result"],
            returns=obj["returns"],  # as written (not converted to floats), for the type-strict comparison
            engine_version=doc["engine_version"],
            rules_version=doc["rules_version"],
            meta=obj["meta"],
            ending=dict(doc["ending"]) if "ending" in doc else None,
        )

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        return cls.from_json(parse(path))


def parse(path: str | Path) -> Any:
    """The JSON document in the file at ``path``, read with the limits above; raises RecordError."""
    try:
        p = Path(path)
        size = p.stat().st_size
        if size > MAX_BYTES:
            raise RecordError(f"{path}: {size} bytes, more than the {MAX_BYTES} a record may have")
        data = p.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError as exc:  # a NUL in the path
        raise RecordError(f"cannot read {path!r}: {exc}") from None
    return parse_bytes(data, str(path))


def parse_bytes(data: bytes, source: str = "record") -> Any:
    """Parse a record's bytes: strict UTF-8, no NaN or infinity, integers of at most MAX_DIGITS digits."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{source} is not valid UTF-8 (byte {exc.start})") from None
    try:
        return json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source} is not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except _Refused as exc:
        raise RecordError(f"{source}: {exc}") from None
    except RecursionError:
        raise RecordError(f"{source}: nested too deeply (at most {MAX_DEPTH} levels)") from None


class _Refused(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"a {len(text.lstrip('-'))}-digit number (at most {MAX_DIGITS} digits)")
    return int(text)


def _refuse_constant(text: str) -> Any:
    raise _Refused(f"{text} is not a JSON number")


def _short(v: Any, n: int = 60) -> str:
    text = v if isinstance(v, str) and n > 60 else repr(v)
    return text if len(text) <= n else text[: n - 3] + "..."


def _check_json(obj: Any, path: str) -> None:
    """Refuse anything that is not plain JSON the engine could have written: non-string keys, lone surrogates,
    non-finite or huge numbers, nesting deeper than MAX_DEPTH. Iterative, so depth cannot blow the stack."""
    stack: list[tuple[Any, str, int]] = [(obj, path, 0)]
    while stack:
        v, p, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"{p}: nested too deeply (at most {MAX_DEPTH} levels)")
        if v is None or v is True or v is False:
            continue
        t = type(v)
        if t is str:
            _check_text(v, p)
        elif t is int:
            if not -INT_LIMIT <= v <= INT_LIMIT:
                raise RecordError(f"{p}: integer out of range")
        elif t is float:
            if not math.isfinite(v):
                raise RecordError(f"{p}: {v!r} is not a finite number")
        elif t is list:
            stack.extend((x, f"{p}[{i}]", depth + 1) for i, x in enumerate(v))
        elif t is dict:
            for k, x in v.items():
                if type(k) is not str:
                    raise RecordError(f"{p}: key {_short(k)} is not a string")
                _check_text(k, f"{p}.{_short(k)}")
                stack.append((x, f"{p}.{k}", depth + 1))
        else:
            raise RecordError(f"{p}: {type(v).__name__} is not a JSON value")


def _check_text(s: str, path: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(f"{path}: not valid Unicode (a lone surrogate)") from None


def canonical(obj: Any) -> str:
    """The canonical JSON text of a value: sorted keys, no spaces. Two values are the same record content
    exactly when their canonical texts are equal (so ``1``, ``1.0`` and ``true`` all differ)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False)


def events_json(events: Sequence) -> list[dict]:
    return [e.to_json() for e in events]


def version_mismatch(record: MatchRecord) -> str | None:
    """Why ``record`` was made by another engine or rules version than the installed one, or None."""
    game = get_game(record.game)
    problems = []
    if record.engine_version != deltav.__version__:
        problems.append(f"engine {record.engine_version!r} (this is {deltav.__version__!r})")
    if record.rules_version != game.rules_version:
        problems.append(f"{game.id} rules {record.rules_version!r} (this is {game.rules_version!r})")
    return "recorded with " + " and ".join(problems) if problems else None


def start_state(record: MatchRecord) -> State:
    try:
        game = get_game(record.game)
    except DeltavError as exc:
        raise RecordError(str(exc)) from None
    try:
        options = game.resolve_options(record.options)
    except DeltavError as exc:
        raise RecordError(f"bad options: {exc}") from None
    if canonical(options) != canonical(record.options):
        raise RecordError(
            f"options {_short(canonical(record.options), 200)} are not the resolved options the engine records "
            f"({_short(canonical(options), 200)})"
        )
    try:
        return game.new_initial_state(options, record.seed)
    except DeltavError as exc:
        raise RecordError(f"cannot start the match: {exc}") from None


def replay(
    record: MatchRecord,
    on_step: Callable[[int, Step, State], None] | None = None,
    accept_versions: bool = False,
) -> State:
    """Re-run ``record`` and verify it is exactly what this engine produces; returns the final state. Raises
    RecordError at the first difference: another engine or rules version (unless ``accept_versions``), options
    that are not resolved, a seat count that is not the game's, an illegal action, an action or events that
    differ from the replay's (canonical JSON), a different result or different returns."""
    state = start_state(record)
    game: type[Game] = get_game(record.game)
    if not accept_versions:
        why = version_mismatch(record)
        if why:
            raise RecordError(why)
    if len(record.seats) != state.num_players:
        raise RecordError(f"$.seats: {len(record.seats)} seats, but the match has {state.num_players} players")
    for i, step in enumerate(record.steps):
        if state.is_terminal():
            raise RecordError("the game was already over, but the record has more steps", step=i)
        try:
            action = game.action_from_json(step.action)
        except IllegalAction as exc:
            raise RecordError(f"player {step.player}'s action {_short(step.action)} cannot be read: {exc}", step=i) from None
        if canonical(action.to_json()) != canonical(step.action):
            raise RecordError(
                f"action {_short(canonical(step.action), 200)} is not the form the engine writes "
                f"({_short(canonical(action.to_json()), 200)})",
                step=i,
            )
        try:
            events = state.apply_action(step.player, action)
        except IllegalAction as exc:
            shown = _short(canonical(step.action), 200)
            raise RecordError(f"player {step.player}'s action {shown} is rejected: {exc}", step=i) from None
        got = events_json(events)
        if canonical(got) != canonical(step.events):
            raise RecordError(_first_difference(step.events, got), step=i)
        if on_step is not None:
            on_step(i, step, state)
    if record.ending is not None:  # ended outside the rules (resign, forfeit) after its last step
        check_ending(record.ending, state, len(record.steps))
        replayed, returns = ending_result(record.ending), ending_returns(record.ending, state.num_players)
    else:
        final = state.result()
        replayed = final.to_json() if final else None
        returns = state.returns() if state.is_terminal() else None  # an unfinished match (cut short): null
    if canonical(replayed) != canonical(record.result):
        raise RecordError(
            f"recorded result {_short(canonical(record.result), 200)} but the replay ends with {canonical(replayed)}",
            step=len(record.steps),
        )
    if canonical(returns) != canonical(record.returns):
        raise RecordError(
            f"recorded returns {_short(canonical(record.returns), 200)} but the replay gives {canonical(returns)}",
            step=len(record.steps),
        )
    return state


def make_ending(kind: str, seats: Sequence[int], num_players: int, step: int, reason: str) -> dict:
    """The ending of a match that ``seats`` lose outside the rules: every other seat wins."""
    losers = sorted(set(seats))
    return {"kind": kind, "seats": losers, "winners": [p for p in range(num_players) if p not in losers],
            "step": step, "reason": reason}


def ending_result(ending: Mapping) -> dict:
    """The result of an ended match: ``{"winners", "reason": "resign"|"forfeit", "scores": null, "seats": the
    losers, "detail": the ending's sentence}``."""
    return {"winners": list(ending["winners"]), "reason": ending["kind"], "scores": None,
            "seats": list(ending["seats"]), "detail": ending["reason"]}


def ending_returns(ending: Mapping, num_players: int) -> list[float]:
    """+1 for each winner, -1 for each seat that resigned or forfeited (a loss, also when nobody wins)."""
    return [1.0 if p in ending["winners"] else -1.0 for p in range(num_players)]


def check_ending(ending: Mapping, state: State, steps: int) -> None:
    """Raise RecordError unless ``ending`` can end the match ``state`` is, after ``steps`` steps."""
    if state.is_terminal():
        raise RecordError("$.ending: the game was already over by its rules", step=steps)
    if ending["step"] != steps:
        raise RecordError(f"$.ending.step: {ending['step']}, but the match ended after {steps} steps", step=steps)
    n = state.num_players
    if not ending["seats"] or any(p >= n for p in ending["seats"]) or len(set(ending["seats"])) != len(ending["seats"]):
        raise RecordError(f"$.ending.seats: {ending['seats']} are not distinct seats of the {n} of the match", step=steps)
    want = make_ending(ending["kind"], ending["seats"], n, steps, ending["reason"])
    if canonical(dict(ending)) != canonical(want):
        raise RecordError(f"$.ending: the winners of {canonical(dict(ending))} are not every other seat ({want['winners']})",
                          step=steps)


def _first_difference(recorded: list[dict], replayed: list[dict]) -> str:
    for k, (a, b) in enumerate(zip(recorded, replayed)):
        if canonical(a) != canonical(b):
            return f"event {k} differs: recorded {_short(canonical(a), 300)}, replay gives {_short(canonical(b), 300)}"
    if len(recorded) != len(replayed):
        return f"recorded {len(recorded)} events, replay gives {len(replayed)}"
    return "events differ"


def result_of(state: State) -> dict | None:
    r: Result | None = state.result()
    return r.to_json() if r else None


def record_for(game: type[Game], options: Mapping[str, Any], seed: int, seats: Sequence[str]) -> MatchRecord:
    return MatchRecord(
        game=game.id, options=dict(options), seed=seed, seats=list(seats), rules_version=game.rules_version
    )
