"""The phase gate (``deltav.agents.gate``) and module-qualified heuristic names, the generic hooks a game's
preset uses to search only some decisions (mining's hard level)."""

from __future__ import annotations

from deltav.agents.gate import PhaseGate
from deltav.agents.presets import heuristic
from deltav.core.agent import Agent
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from tests.toygame import Bid, Step, ToyGame


class Fixed(Agent):
    def __init__(self, action, name="fixed"):
        self.action = action
        self.name = name
        self.calls = 0
        self.seen: list = []

    def act(self, decision):
        self.calls += 1
        return self.action

    def observe(self, player, events):
        self.seen.append(events)


def _decision(state, p):
    return Decision(ToyGame, p, state.view(p), state.legal_actions(p), Rng(1))


def test_the_gate_searches_only_in_its_phases_and_falls_back_on_an_illegal_choice():
    s = ToyGame.new_initial_state({}, 3)
    search, other = Fixed(Bid(2), "search"), Fixed(Bid(0))
    gate = PhaseGate(search, other, ["bid"])
    assert gate.act(_decision(s, 0)) == Bid(2) and gate.searched == 1 and other.calls == 0
    s.apply_action(0, Bid(0))
    s.apply_action(1, Bid(1))
    assert s.view(s.current_players()[0])["phase"] != "bid"
    p = s.current_players()[0]
    other.action = s.legal_actions(p)[0]
    assert gate.act(_decision(s, p)) == other.action and gate.searched == 1  # outside "bid": not searched
    in_phase = PhaseGate(Fixed(Bid(2)), other, [s.view(p)["phase"]])
    assert in_phase.act(_decision(s, p)) == other.action  # Bid(2) is not legal now: the other agent decides
    assert in_phase.searched == 1
    gate.observe(0, ["e"])
    assert search.seen == other.seen == [["e"]] and gate.name == "search"
    assert isinstance(other.action, Step)


def test_module_qualified_heuristic_names():
    from deltav.games.mining.bots import hard_policy, heuristics

    assert heuristic("mining", "evaluate") is heuristics.evaluate
    assert heuristic("mining", "hard_policy.policy") is hard_policy.policy
    assert heuristic("mining", "hard_policy.nothing") is None and heuristic("mining", "nomodule.f") is None
