"""The optional turn timer of a room: its option (validated), and when the current turn started and ends.

A room created with ``"clock": {"turn_seconds": 60, "on_timeout": "forfeit" | "bot"}`` gives every human seat
that must decide ``turn_seconds`` from the moment the current decision node began (the last accepted action
that moved the match on, or the moment the match went live). The start follows from stored timestamps, so a
restarted server computes the same deadline. Bot seats have no clock.

This module owns the option and the arithmetic only; rooms arm the timer and act when it fires.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

ON_TIMEOUT = ("forfeit", "bot")
MAX_TURN_SECONDS = 7 * 24 * 3600.0
TIMEOUT_BOT = "bot:easy"  # what plays a late seat's move when on_timeout is "bot"


class ClockError(Exception):
    """A bad ``clock`` option: ``field`` names it, the message says why."""

    def __init__(self, field: str, message: str):
        super().__init__(f"field {field!r}: {message}")
        self.field = field


@dataclass(frozen=True)
class Clock:
    turn_seconds: float
    on_timeout: str = "forfeit"

    @classmethod
    def parse(cls, obj: Any) -> Clock | None:
        """The clock of a create request's ``clock`` field (None or absent: no clock)."""
        if obj is None:
            return None
        if not isinstance(obj, Mapping):
            raise ClockError("clock", "must be an object such as {\"turn_seconds\": 60, \"on_timeout\": \"forfeit\"}")
        unknown = sorted(set(obj) - {"turn_seconds", "on_timeout"})
        if unknown:
            raise ClockError(f"clock.{unknown[0]}", "unknown field (known: turn_seconds, on_timeout)")
        secs = obj.get("turn_seconds")
        if isinstance(secs, bool) or not isinstance(secs, int | float):
            raise ClockError("clock.turn_seconds", "must be a number of seconds")
        if not 0 < secs <= MAX_TURN_SECONDS:
            raise ClockError("clock.turn_seconds", f"must be more than 0 and at most {MAX_TURN_SECONDS:g}")
        on = obj.get("on_timeout", "forfeit")
        if on not in ON_TIMEOUT:
            raise ClockError("clock.on_timeout", f"must be one of {', '.join(ON_TIMEOUT)} (got {on!r})")
        return cls(float(secs), on)

    @classmethod
    def from_meta(cls, meta: Mapping[str, Any]) -> Clock | None:
        raw = meta.get("clock")
        return cls(float(raw["turn_seconds"]), raw["on_timeout"]) if raw else None

    def to_json(self) -> dict:
        return {"turn_seconds": self.turn_seconds, "on_timeout": self.on_timeout}


def turn_started(times: Sequence[float], buffered: int, live_at: float) -> float:
    """When the current decision node began: the time of the last stored submission that was not held at this
    (simultaneous) node, or ``live_at`` when no such submission exists. ``times`` are the stored submission
    times in order, ``buffered`` how many of the last ones wait at the current node."""
    i = len(times) - buffered - 1
    return times[i] if i >= 0 else live_at


def utc(ts: float | None) -> str | None:
    """An epoch time as ISO 8601 UTC with milliseconds (``2026-12-01T23:59:00.123Z``)."""
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
