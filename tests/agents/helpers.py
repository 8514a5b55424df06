"""Helpers shared by the agent tests."""

from __future__ import annotations

from deltav.core.protocol import Decision
from deltav.core.rng import Rng


def decision(game, state, player, seed=1):
    """The Decision a match runner would give ``player`` at ``state`` (its view, never the state)."""
    return Decision(game, player, state.view(player), state.legal_actions(player), Rng(seed), {})


def nim_winning(heaps, action):
    """Whether taking ``action`` leaves a Nim position with nim-sum 0 (a win for the mover, normal play)."""
    after = list(heaps)
    after[action.heap] -= action.count
    x = 0
    for h in after:
        x ^= h
    return x == 0
