"""Observations: fixed length, built from the player's view only (a determinized world, which differs from the
true state in everything the player cannot see, gives the same observation), and the string is the view's
canonical JSON."""

from __future__ import annotations

import importlib
import json

import pytest

from deltav.core import Rng, get_game
from deltav.games import load_all

load_all()

CASES = [("mining", "standard"), ("knighthawks", "skirmish"), ("deepspace", "duel"), ("deepspace", "design-duel"),
         ("tactical", "escape"), ("tactical", "fleet_action")]


def state_opts(game, scenario):
    return game.resolve_options({"scenario": scenario})


@pytest.mark.parametrize(("game_id", "scenario"), CASES)
def test_observation_reads_the_view_only(game_id, scenario):
    game = get_game(game_id)
    enc = importlib.import_module(f"deltav.games.{game_id}.encoding")
    state = game.new_initial_state(game.resolve_options({"scenario": scenario}), 5)
    rng = Rng(5)
    size = len(enc.observation(game.new_initial_state(state_opts(game, scenario), 0), 0))
    differed = 0
    for _ in range(40):
        if state.is_terminal():
            break
        for p in range(state.num_players):
            obs = enc.observation(state, p)
            assert len(obs) == size
            world = game.determinize(state.view(p), p, Rng(p + 11))
            if world.to_json() != state.to_json():
                differed += 1
            assert enc.observation(world, p) == obs
            # the view may share immutable parts as tuples (docs/protocol.md): compare it as JSON
            assert json.loads(enc.observation_string(state, p)) == json.loads(json.dumps(state.view(p)))
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        state.apply_action(p, legal[rng.below(len(legal))])
    assert differed, "the determinized worlds never differed from the truth: the test proves nothing"


def test_observations_tell_players_apart():
    game = get_game("mining")
    enc = importlib.import_module("deltav.games.mining.encoding")
    state = game.new_initial_state(game.resolve_options({}), 1)
    assert enc.observation(state, 0) != enc.observation(state, 1)
