"""Match records: a JSON file that replays a whole match and proves it replays.

A record holds the game id, resolved options, seed, engine and rules versions, the seat labels, every action
with the events it produced, and the result. :func:`replay` re-runs the match from the options and seed and
checks every step's events and the final result; the first difference is reported with its step index.

This module owns the record format and its verification; it knows no game (it looks games up in the registry).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import deltav
from deltav.core.errors import DeltavError, IllegalAction, RecordError
from deltav.core.protocol import Game, Result, State, get_game

FORMAT = "deltav-record/1"


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

    def to_json(self) -> dict:
        return {
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

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(json.dumps(self.to_json(), separators=(",", ":")) + "\n")
        return p

    @classmethod
    def from_json(cls, obj: Any) -> MatchRecord:
        if not isinstance(obj, dict):
            raise RecordError("a record must be a JSON object")
        if obj.get("format") != FORMAT:
            raise RecordError(f"unknown record format {obj.get('format')!r} (expected {FORMAT!r})")
        for key, kind in (("game", str), ("options", dict), ("seed", int), ("steps", list)):
            if not isinstance(obj.get(key), kind):
                raise RecordError(f"field {key!r} is missing or not a {kind.__name__}")
        steps = []
        for i, s in enumerate(obj["steps"]):
            if (
                not isinstance(s, dict)
                or not isinstance(s.get("player"), int)
                or not isinstance(s.get("action"), dict)
                or not isinstance(s.get("events", []), list)
            ):
                raise RecordError("malformed step (needs player, action, events)", step=i)
            steps.append(Step(s["player"], s["action"], list(s.get("events", []))))
        return cls(
            game=obj["game"],
            options=obj["options"],
            seed=obj["seed"],
            seats=list(obj.get("seats", [])),
            steps=steps,
            result=obj.get("result"),
            returns=obj.get("returns"),
            engine_version=str(obj.get("engine_version", "")),
            rules_version=str(obj.get("rules_version", "")),
            meta=dict(obj.get("meta", {})),
        )

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        try:
            text = Path(path).read_text()
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno})") from None
        return cls.from_json(obj)


def events_json(events: Sequence) -> list[dict]:
    return [e.to_json() for e in events]


def start_state(record: MatchRecord) -> State:
    try:
        game = get_game(record.game)
    except DeltavError as exc:
        raise RecordError(str(exc)) from None
    try:
        options = game.resolve_options(record.options)
    except DeltavError as exc:
        raise RecordError(f"bad options: {exc}") from None
    return game.new_initial_state(options, record.seed)


def replay(
    record: MatchRecord,
    on_step: Callable[[int, Step, State], None] | None = None,
) -> State:
    """Re-run ``record`` and verify it event for event; returns the final state. Raises RecordError at the
    first step that diverges (an illegal action, different events, a different result)."""
    state = start_state(record)
    game: type[Game] = get_game(record.game)
    for i, step in enumerate(record.steps):
        if state.is_terminal():
            raise RecordError("the game was already over, but the record has more steps", step=i)
        try:
            action = game.action_from_json(step.action)
            events = state.apply_action(step.player, action)
        except IllegalAction as exc:
            raise RecordError(f"player {step.player}'s action {json.dumps(step.action)} is rejected: {exc}", step=i) from None
        got = events_json(events)
        if got != step.events:
            raise RecordError(_first_difference(step.events, got), step=i)
        if on_step is not None:
            on_step(i, step, state)
    final = state.result()
    recorded = record.result
    if (final.to_json() if final else None) != recorded:
        raise RecordError(
            f"recorded result {json.dumps(recorded)} but the replay ends with "
            f"{json.dumps(final.to_json() if final else None)}",
            step=len(record.steps),
        )
    return state


def _first_difference(recorded: list[dict], replayed: list[dict]) -> str:
    for k, (a, b) in enumerate(zip(recorded, replayed)):
        if a != b:
            return f"event {k} differs: recorded {json.dumps(a)}, replay gives {json.dumps(b)}"
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
