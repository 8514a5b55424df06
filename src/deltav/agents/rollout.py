"""Leaf evaluation for tree search: playouts with a depth cap, and the evaluation at the cap.

A playout plays a sampled state forward with a rollout policy (uniformly random by default) for at most
``max_depth`` decisions. It ends with ``state.returns()`` at a terminal state, or with the evaluation function
(``evaluate(state, player) -> value in [-1, 1]``, one call per player) at the cap; without an evaluation
function the cap scores ``state.returns()`` (0 for everyone in an unfinished game under standard returns).

Policies and evaluations are plain callables, so a game's ``heuristics.py`` can supply them:

- ``RolloutPolicy``: ``policy(state, player, legal_actions, rng) -> action`` (one of ``legal_actions``).
  Where enumerating the legal actions is the expensive part of a playout, a policy may set the attribute
  ``needs_legal = False``: it is then called with ``legal_actions=None`` and may return an action it builds
  directly, or None to have one drawn uniformly from the legal list; an action the game rejects is replaced
  by a uniformly random legal one (the rejection leaves the state unchanged, by the protocol).
- ``Evaluation``: ``evaluate(state, player) -> float`` in ``[-1, 1]`` (values outside are clamped).

This module owns playouts only; it mutates the state it is given (callers pass a clone) and never builds trees.
"""

from __future__ import annotations

from collections.abc import Callable

from deltav.core.errors import IllegalAction
from deltav.core.protocol import State
from deltav.core.rng import Rng
from deltav.core.values import Action

RolloutPolicy = Callable[[State, int, list[Action], Rng], Action]
Evaluation = Callable[[State, int], float]


def random_policy(state: State, player: int, legal: list[Action], rng: Rng) -> Action:
    """Uniformly random among the legal actions."""
    return legal[rng.below(len(legal))]


def evaluate_leaf(state: State, evaluate: Evaluation | None) -> list[float]:
    """The value of a non-terminal state for every player (``state.returns()`` without an evaluation)."""
    if evaluate is None:
        return list(state.returns())
    out = []
    for p in range(state.num_players):
        v = float(evaluate(state, p))
        out.append(1.0 if v > 1.0 else -1.0 if v < -1.0 else v)
    return out


def playout(
    state: State,
    rng: Rng,
    max_depth: int | None,
    policy: RolloutPolicy | None = None,
    evaluate: Evaluation | None = None,
) -> list[float]:
    """Play ``state`` forward (in place) and return one value per player.

    At a simultaneous node one of the deciding players is picked at random to act next, so every decision
    of a multi-step plot is played out; the game itself keeps the plots secret from each other.
    """
    depth = 0
    direct = policy is not None and not getattr(policy, "needs_legal", True)
    limit = max_depth if max_depth is not None else 1 << 62
    below = rng.below
    while True:
        players = state.current_players()
        if not players:
            return list(state.returns())
        if depth >= limit:
            return evaluate_leaf(state, evaluate)
        p = players[0] if len(players) == 1 else players[below(len(players))]
        if direct:
            a = policy(state, p, None, rng)  # type: ignore[misc]
            if a is not None:
                try:
                    state.apply_action(p, a)
                    depth += 1
                    continue
                except IllegalAction:  # the policy's guess was wrong: fall back to the legal list
                    pass
        legal = state.legal_actions(p)
        if not legal:  # a broken game; score what we have rather than loop
            return evaluate_leaf(state, evaluate)
        a = legal[below(len(legal))] if policy is None or direct else policy(state, p, legal, rng)
        state.apply_action(p, a)
        depth += 1
