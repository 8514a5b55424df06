"""PettingZoo AEC environments pass PettingZoo's own api_test and seed_test for every game, play a simultaneous
node as hidden submissions, and give the same match as core.match.play_match."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from deltav.adapters import pettingzoo as dz
from deltav.adapters.table import game_and_encoding
from deltav.core.agent import Agent
from deltav.core.match import play_match

# (game, scenario, applied-action cap): caps keep the whole file to a few seconds (truncation ends an episode)
CASES = [("mining", "standard", 300), ("knighthawks", "skirmish", 300), ("deepspace", "duel", 300),
         ("tactical", "biplanetary", 300), ("tactical", "escape", 200), ("deepspace", "squadrons", 200),
         ("knighthawks", "station_assault", 200)]


def test_api_test_four_players():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(dz.env("mining", max_steps=300, players=4), num_cycles=300)


@pytest.mark.parametrize(("game", "scenario", "cap"), CASES)
def test_api_test(game, scenario, cap):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations warn, as PettingZoo's classic environments do
        api_test(dz.env(game, max_steps=cap, scenario=scenario), num_cycles=cap)


@pytest.mark.parametrize(("game", "scenario", "cap"), CASES)
def test_seed_test(game, scenario, cap):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: dz.env(game, max_steps=cap, scenario=scenario), num_cycles=100)


def test_spaces_are_cached_objects():
    e = dz.env("mining")
    assert e.observation_space("player_0") is e.observation_space("player_0")
    assert e.action_space("player_1") is e.action_space("player_1")


def test_simultaneous_choices_stay_hidden():
    e = dz.env("deepspace", scenario="duel")
    e.reset(seed=3)
    first = e.agent_selection
    assert first == "player_0"  # deployment: both sides decide at once
    before = e.observe("player_1")
    e.step(int(np.flatnonzero(e.observe(first)["action_mask"])[-1]))
    assert e.agent_selection == "player_1"
    after = e.observe("player_1")
    assert np.array_equal(after["observation"], before["observation"])  # player 0's choice is not applied yet


class _Lowest(Agent):
    """Plays the legal action with the smallest integer (reads the tracked position only to number actions)."""

    def __init__(self, enc, box):
        self.enc = enc
        self.box = box

    def act(self, decision):
        return min(decision.legal_actions, key=lambda a: self.enc.encode(self.box[0], a, decision.player))


@pytest.mark.parametrize(("game", "options"), [("deepspace", {"scenario": "duel", "round_limit": 3}),
                                               ("mining", {"scenario": "standard", "max_turns": 30})])
def test_same_match_as_play_match(game, options):
    g, enc = game_and_encoding(game)
    e = dz.env(game, **options)
    e.reset(seed=9)
    for _agent in e.agent_iter():
        obs, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    opts = g.resolve_options(options)
    box = [g.new_initial_state(opts, 9)]
    agents = [_Lowest(enc, box) for _ in range(e.table.num_players)]

    def track(step, state, events):
        box[0] = state

    _, final, _ = play_match(g, opts, 9, agents, on_step=track)
    assert final.is_terminal() and e.table.state.is_terminal()
    assert final.to_json() == e.table.state.to_json()


def test_illegal_action_is_refused_and_changes_nothing():
    from deltav.core.errors import IllegalAction

    e = dz.env("mining")
    e.reset(seed=2)
    agent = e.agent_selection
    before = e.table.state.to_json()
    bad = int(np.flatnonzero(e.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        e.step(bad)
    with pytest.raises(IllegalAction):
        e.step(e.table.num_actions)
    assert e.table.state.to_json() == before and e.agent_selection == agent


# --- the Parallel API ------------------------------------------------------------------------------------

PARALLEL = [("mining", "standard"), ("knighthawks", "skirmish"), ("deepspace", "duel"), ("tactical", "biplanetary")]


@pytest.mark.parametrize(("game", "scenario"), PARALLEL)
def test_parallel_api_and_seed_test(game, scenario):
    from pettingzoo.test import parallel_api_test, parallel_seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(dz.parallel_env(game, max_steps=200, scenario=scenario), num_cycles=200)
        parallel_seed_test(lambda: dz.parallel_env(game, max_steps=100, scenario=scenario), num_cycles=100)


def test_parallel_simultaneous_node_takes_every_decider():
    e = dz.parallel_env("deepspace", scenario="duel")
    obs, _ = e.reset(seed=3)
    assert all(obs[a]["action_mask"][e.WAIT] == 0 for a in e.agents)  # deployment: both decide
    before = e.table.state.to_json()
    acts = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in e.agents}
    e.step(acts)
    assert e.table.steps == 2 and e.table.state.to_json() != before


def test_parallel_same_match_as_play_match():
    options = {"scenario": "duel", "round_limit": 3}
    g, enc = game_and_encoding("deepspace")
    e = dz.parallel_env("deepspace", **options)
    obs, _ = e.reset(seed=9)
    while e.agents:
        obs, *_ = e.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in e.agents})
    opts = g.resolve_options(options)
    box = [g.new_initial_state(opts, 9)]

    def track(step, state, events):
        box[0] = state

    _, final, _ = play_match(g, opts, 9, [_Lowest(enc, box) for _ in range(2)], on_step=track)
    assert final.to_json() == e.table.state.to_json()


def test_parallel_illegal_action_ends_the_match():
    e = dz.parallel_env("mining")
    obs, _ = e.reset(seed=1)
    mover = next(a for a in e.agents if obs[a]["action_mask"][e.WAIT] == 0)
    bad = int(np.flatnonzero(obs[mover]["action_mask"] == 0)[0])
    before = e.table.state.to_json()
    _, rewards, terms, _, infos = e.step({a: bad if a == mover else e.WAIT for a in e.agents})
    assert rewards[mover] == -1.0 and all(terms.values()) and infos[mover]["illegal_action"]
    assert e.agents == [] and e.table.state.to_json() == before
