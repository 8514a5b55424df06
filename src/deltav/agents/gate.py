"""A phase gate: one agent (usually a search) decides at the decisions whose view names one of ``phases``, another
(usually the game's scripted bot) everywhere else. A preset uses it with ``phases`` and ``otherwise`` (see
:mod:`deltav.agents.presets`), so a game can say "search only the strategic decisions" as data instead of
writing its own search bot.

This module owns the wrapper only; it reads nothing but the decision it is given.
"""

from __future__ import annotations

from collections.abc import Iterable

from deltav.core.agent import Agent
from deltav.core.protocol import Decision
from deltav.core.values import Action, Event


class PhaseGate(Agent):
    """``search`` decides when ``decision.view[key]`` is one of ``phases`` (and there is more than one legal
    action), ``otherwise`` decides elsewhere and whenever ``search`` returns an action outside the legal list.
    Both see every event through ``observe`` (a bot with memory keeps it). ``searched`` counts the decisions
    given to ``search``."""

    def __init__(self, search: Agent, otherwise: Agent, phases: Iterable[str], key: str = "phase"):
        self.search = search
        self.otherwise = otherwise
        self.phases = frozenset(phases)
        self.key = key
        self.searched = 0
        self.name = search.name

    def act(self, decision: Decision) -> Action:
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        if decision.view.get(self.key) not in self.phases:
            return self.otherwise.act(decision)
        self.searched += 1
        choice = self.search.act(decision)
        return choice if choice in legal else self.otherwise.act(decision)

    def observe(self, player: int, events: list[Event]) -> None:
        self.otherwise.observe(player, events)
        self.search.observe(player, events)
