"""OpenSpiel: every game registers, passes pyspiel.random_sim_test, and OpenSpiel's own MCTS bot plays a match;
shimmy's OpenSpiel wrapper then passes PettingZoo's api_test."""

from __future__ import annotations

import warnings

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import deltav.adapters.openspiel  # noqa: F401  (registers the games)

CASES = [("mining", "standard"), ("knighthawks", "skirmish"), ("deepspace", "duel"), ("tactical", "biplanetary")]


@pytest.mark.parametrize(("game", "scenario"), CASES)
def test_random_sim_test(game, scenario):
    g = pyspiel.load_game(f"deltav_{game}", {"scenario": scenario, "max_steps": 100, "seed": 3})
    pyspiel.random_sim_test(g, num_sims=1, serialize=False, verbose=False)


def test_registered_names():
    names = set(pyspiel.registered_names())
    assert {"deltav_mining", "deltav_knighthawks", "deltav_deepspace", "deltav_tactical"} <= names


def test_observer_tensor_and_string():
    g = pyspiel.load_game("deltav_mining")
    s = g.new_initial_state()
    assert len(s.observation_tensor(0)) == g.observation_tensor_size()
    assert s.observation_string(0) != s.observation_string(1)  # each player sees its own hand


def test_mcts_bot_plays_a_match():
    g = pyspiel.load_game("deltav_mining", {"max_steps": 40, "seed": 1})
    rng = np.random.RandomState(0)
    bots = [mcts.MCTSBot(g, 2.0, 8, mcts.RandomRolloutEvaluator(1, rng), random_state=rng) for _ in range(2)]
    state = g.new_initial_state()
    moves = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 40


def test_shimmy_wrapper_passes_api_test():
    from pettingzoo.test import api_test
    from shimmy import OpenSpielCompatibilityV0

    env = OpenSpielCompatibilityV0(env=pyspiel.load_game("deltav_tactical", {"max_steps": 60}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=60)


def test_resampler_keeps_the_players_observation():
    import deltav.adapters.openspiel as dos

    g = pyspiel.load_game("deltav_deepspace", {"seed": 2})
    state = g.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # player 0's deployment step, buffered: hidden from player 1
    assert state.current_player() == 1
    cb = dos.resampler(5)
    for _ in range(3):
        sampled = cb(state, 1)
        assert sampled.observation_string(1) == state.observation_string(1)
        assert sampled.legal_actions(1) == state.legal_actions(1)
        assert len(sampled.table.pending) == 1


def test_ismcts_bot_with_the_determinizer_plays_a_match():
    """OpenSpiel's ISMCTS, sampling worlds with the game's own determinizer (never the true state)."""
    from open_spiel.python.algorithms import ismcts

    import deltav.adapters.openspiel as dos

    g = pyspiel.load_game("deltav_mining", {"max_steps": 12, "seed": 4})
    rng = np.random.RandomState(1)
    bots = []
    for p in range(2):
        bot = ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, rng), 2.0, 4, random_state=rng,
                               use_observation_string=True, allow_inconsistent_action_sets=True)
        bot.set_resampler(dos.resampler(p))
        bots.append(bot)
    state = g.new_initial_state()
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.table.steps == 12
