"""Agent specs: the text form ``name`` or ``name:key=value,key=value`` that names a bot and its parameters.

``mcts:iterations=500,c=1.0`` is parsed into ``("mcts", {"iterations": 500, "c": 1.0})``. Values are typed
against the parameter table (:class:`Param`) of the agent they configure, so a typo or a wrong type is reported
with the parameter's name and the allowed values before any match starts.

This module owns the spec syntax and parameter checking only; it knows no game and no algorithm.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from deltav.core.errors import DeltavError
from deltav.core.protocol import coerce_scalar


class AgentSpecError(DeltavError):
    """A spec that names no known agent, or a parameter that agent does not take or cannot accept."""

    def __init__(self, spec: str, reason: str):
        super().__init__(f"agent spec {spec!r}: {reason}")
        self.spec = spec
        self.reason = reason


@dataclass(frozen=True)
class Param:
    """One tunable parameter of an agent: its type, default, allowed choices or bounds, and what it does."""

    kind: type  # int, float, bool or str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    allow_none: bool = False

    def parse(self, name: str, raw: Any, spec: str = "") -> Any:
        if isinstance(raw, str) and raw.strip().lower() in ("none", "null") and self.allow_none:
            return None
        if raw is None:
            if self.allow_none:
                return None
            raise AgentSpecError(spec, f"parameter {name!r} may not be empty")
        try:
            v = coerce_scalar(self.kind, raw)
        except ValueError as exc:
            raise AgentSpecError(spec, f"parameter {name!r}: {exc}") from None
        if self.choices is not None and v not in self.choices:
            raise AgentSpecError(spec, f"parameter {name!r}: {raw!r} is not one of {list(self.choices)}")
        if self.minimum is not None and v < self.minimum:
            raise AgentSpecError(spec, f"parameter {name!r}: {v!r} is below the minimum {self.minimum}")
        return v


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and the raw (string) parameters."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(str(spec), "empty spec")
    text = spec.strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    if not name:
        raise AgentSpecError(spec, "no agent name before ':'")
    params: dict[str, str] = {}
    if rest.strip():
        for part in rest.split(","):
            if not part.strip():
                continue
            key, eq, val = part.partition("=")
            key = key.strip()
            if not eq or not key:
                raise AgentSpecError(spec, f"expected key=value, got {part.strip()!r}")
            if key in params:
                raise AgentSpecError(spec, f"parameter {key!r} given twice")
            params[key] = val.strip()
    return name, params


def check_params(spec: str, table: Mapping[str, Param], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Typed parameters: the defaults of ``table`` overridden by ``raw`` (strings or JSON values)."""
    out = {k: p.default for k, p in table.items()}
    for key, val in raw.items():
        if key not in table:
            raise AgentSpecError(spec, f"unknown parameter {key!r} (parameters: {', '.join(sorted(table)) or 'none'})")
        out[key] = table[key].parse(key, val, spec)
    return out
