"""The Gymnasium wrapper passes gymnasium's env_checker for every game and plays whole episodes against bots."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from deltav.adapters import gymnasium as dg

CASES = [("mining", {"scenario": "standard"}), ("knighthawks", {"scenario": "skirmish"}),
         ("deepspace", {"scenario": "duel"}), ("tactical", {"scenario": "biplanetary"})]


@pytest.mark.parametrize(("game", "options"), CASES)
def test_check_env(game, options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations with an infinite Box warn
        check_env(dg.make(game, opponent="scripted", max_steps=200, **options), skip_render_check=True)


@pytest.mark.parametrize(("game", "options"), CASES)
def test_masked_episode(game, options):
    env = dg.make(game, opponent="random", max_steps=150, **options)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(400):
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert not info.get("illegal_action")
        if terminated or truncated:
            break
    assert terminated or truncated


def test_illegal_action_ends_the_episode():
    env = dg.make("mining", opponent="random")
    obs, _ = env.reset(seed=1)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(bad)
    assert terminated and reward == -1.0 and info["illegal_action"]


def test_default_opponent_is_the_normal_preset():
    env = dg.make("mining")
    assert env.opponent == "normal"
