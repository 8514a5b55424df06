"""Agent specs: the text form ``name`` or ``name:key=value,key=value`` that names a bot and its parameters.

``mcts:iterations=500,c=1.0`` is parsed into ``("mcts", {"iterations": 500, "c": 1.0})``. Values are typed
against the parameter table (:class:`Param`) of the agent they configure, so a typo, a wrong type or a value
out of bounds is reported with the parameter's name and the allowed values before any match starts. Every
number has bounds (:class:`deltav.core.agent.Param`: ``minimum`` and ``maximum``); NaN and infinity are never
accepted; a string parameter is either one of its choices or at most :data:`MAX_TEXT` characters; a spec is at most
:data:`MAX_SPEC` characters. The same check runs wherever a spec is read (the CLI, the server's rooms and
candidates, the benchmarks), because they all build agents through ``deltav.agents.registry.make_agent``.

This module owns the spec syntax and parameter checking only; it knows no game and no algorithm.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from deltav.core.agent import MAX_TEXT, Param, ParamError
from deltav.core.errors import DeltavError
from deltav.core.jsonin import shown

__all__ = ["MAX_SPEC", "MAX_TEXT", "AgentSpecError", "Param", "check_params", "parse_spec"]

#: The longest spec text accepted (``ismcts:iterations=300,...`` is well under it).
MAX_SPEC = 400


class AgentSpecError(DeltavError):
    """A spec that names no known agent, or a parameter that agent does not take or cannot accept."""

    def __init__(self, spec: str, reason: str):
        super().__init__(f"agent spec {shown(spec, 120)}: {reason}")
        self.spec = spec
        self.reason = reason


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and the raw (string) parameters."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(shown(spec), "empty spec")
    if len(spec) > MAX_SPEC:
        raise AgentSpecError(spec, f"{len(spec)} characters, more than the {MAX_SPEC} a spec may have")
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
                raise AgentSpecError(spec, f"expected key=value, got {shown(part.strip())}")
            if key in params:
                raise AgentSpecError(spec, f"parameter {key!r} given twice")
            params[key] = val.strip()
    return name, params


def check_params(spec: str, table: Mapping[str, Param], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Typed parameters: the defaults of ``table`` overridden by ``raw`` (strings or JSON values)."""
    out = {k: p.default for k, p in table.items()}
    for key, val in raw.items():
        if key not in table:
            raise AgentSpecError(spec, f"unknown parameter {shown(key)} (parameters: {', '.join(sorted(table)) or 'none'})")
        try:
            out[key] = table[key].parse(key, val)
        except ParamError as exc:
            raise AgentSpecError(spec, str(exc)) from None
    return out
