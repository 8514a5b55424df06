"""Error types shared by every game: what was wrong, which rule or field, and why.

This module owns the exception hierarchy only. Raising an error must never be preceded by a change to a
game state: games validate first and mutate after (see ``deltav.core.protocol``).
"""

from __future__ import annotations


class DeltavError(Exception):
    """Base of every error deltav raises on purpose. Every one pickles (a bot's error raised in a worker process
    must come back to the server as itself), whatever its subclass's ``__init__`` takes."""

    def __reduce__(self):
        return _rebuild, (type(self), self.args, dict(self.__dict__))


def _rebuild(cls: type, args: tuple, state: dict) -> DeltavError:
    exc = cls.__new__(cls)
    Exception.__init__(exc, *args)
    exc.__dict__.update(state)
    return exc


class IllegalAction(DeltavError):
    """An action that breaks a rule. ``rule`` is a stable dotted id (``mining.survey.alien``), ``message``
    says what is wrong in words a player understands. The state it was applied to is unchanged."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message

    def to_json(self) -> dict:
        return {"error": "illegal_action", "rule": self.rule, "message": self.message}


class MalformedAction(IllegalAction):
    """An action whose form is wrong (unknown type, missing or extra field, wrong value type)."""

    def __init__(self, field: str, reason: str):
        super().__init__("protocol.malformed", f"field {field!r}: {reason}")
        self.field = field
        self.reason = reason

    def to_json(self) -> dict:
        return {"error": "malformed_action", "field": self.field, "reason": self.reason, "message": self.message}


class OptionError(DeltavError):
    """A bad game option: unknown name, wrong type or a value outside the allowed ones."""

    def __init__(self, option: str, reason: str, allowed: object = None):
        text = f"option {option!r}: {reason}"
        if allowed is not None:
            text += f" (allowed: {allowed})"
        super().__init__(text)
        self.option = option
        self.reason = reason
        self.allowed = allowed


class ScenarioError(DeltavError):
    """A malformed scenario or data file. ``field`` is a path into the file (``players[1].ships[0].fuel``)."""

    def __init__(self, field: str, reason: str, source: str | None = None):
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{field}: {reason}")
        self.field = field
        self.reason = reason
        self.source = source


class RecordError(DeltavError):
    """A match record that cannot be read or does not replay. ``step`` is the index of the first step that
    diverges (None when the record itself is unreadable)."""

    def __init__(self, reason: str, step: int | None = None):
        where = f"step {step}: " if step is not None else ""
        super().__init__(f"{where}{reason}")
        self.step = step
        self.reason = reason


class StateError(DeltavError):
    """A saved game state that cannot be loaded: ``field`` is a path into its JSON (``$.players[1].fuel``)."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"state {field}: {reason}")
        self.field = field
        self.reason = reason
