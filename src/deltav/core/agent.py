"""The bot interface every agent implements, and the random agent.

An agent gets a :class:`~deltav.core.protocol.Decision`: its player's view, its legal actions, its own seeded
RNG and a determinizer that samples full states consistent with the view. It never gets the true state.
Agents are deterministic given their seed: budgets are counted in iterations (a time cap, where an agent
has one, is a safety net documented with the agent).

An agent that takes parameters declares them in ``PARAMS`` (name -> :class:`Param`: type, default, bounds,
meaning); the bot registry (``deltav.agents.registry``) checks every value a spec gives against that table before
the agent is built, so no bot of any game is ever built with an unbounded, non-finite or wrongly typed value.

This module owns the interface only; generic search lives in ``deltav.agents``, scripted bots with their game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

from deltav.core.errors import DeltavError
from deltav.core.jsonin import shown
from deltav.core.protocol import Decision, coerce_scalar
from deltav.core.values import Action, Event

#: The longest value of a string parameter without choices.
MAX_TEXT = 100


class ParamError(DeltavError):
    """A parameter value an agent cannot take: ``param`` names it, ``reason`` says why."""

    def __init__(self, param: str, reason: str):
        super().__init__(f"parameter {param!r}: {reason}")
        self.param = param
        self.reason = reason


@dataclass(frozen=True)
class Param:
    """One tunable parameter of an agent: its type, default, allowed choices or bounds, and what it does. A
    number (``int`` or ``float``) must have both bounds; NaN and infinity are refused whatever they are."""

    kind: type  # int, float, bool or str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    allow_none: bool = False
    maximum: float | None = None

    def parse(self, name: str, raw: Any) -> Any:
        if isinstance(raw, str) and raw.strip().lower() in ("none", "null") and self.allow_none:
            return None
        if raw is None:
            if self.allow_none:
                return None
            raise ParamError(name, "may not be empty")
        if isinstance(raw, str) and len(raw) > MAX_TEXT:
            raise ParamError(name, f"a value of {len(raw)} characters (at most {MAX_TEXT})")
        try:
            v = coerce_scalar(self.kind, raw)
        except (ValueError, OverflowError) as exc:
            raise ParamError(name, f"{exc}") from None
        if self.kind is float and not math.isfinite(v):
            raise ParamError(name, f"{shown(raw)} is not a finite number")
        if self.choices is not None and v not in self.choices:
            raise ParamError(name, f"{shown(raw)} is not one of {list(self.choices)}")
        if self.minimum is not None and v < self.minimum:
            raise ParamError(name, f"{shown(v)} is below the minimum {self.minimum:g}")
        if self.maximum is not None and v > self.maximum:
            raise ParamError(name, f"{shown(v)} is above the maximum {self.maximum:g}")
        return v

    def bounds(self) -> str:
        """The allowed values in words (docs/agents.md lists them)."""
        if self.choices is not None:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.kind is bool:
            return "true or false"
        if self.kind is str:
            return f"text of at most {MAX_TEXT} characters"
        text = f"{self.minimum:g} to {self.maximum:g}"
        return text + ", or none" if self.allow_none else text




class Agent:
    """Base class of bots. One instance plays one seat of one match (it may keep memory between calls)."""

    name: str = "agent"
    #: the parameters the constructor takes (keyword arguments), with their bounds
    PARAMS: ClassVar[dict[str, Param]] = {}

    def act(self, decision: Decision) -> Action:
        raise NotImplementedError

    def observe(self, player: int, events: list[Event]) -> None:
        """Called with the events this seat may see after every action of the match (optional)."""


class RandomAgent(Agent):
    """Uniformly random among the legal actions."""

    name = "random"

    def act(self, decision: Decision) -> Action:
        return decision.rng.choice(decision.legal_actions)
