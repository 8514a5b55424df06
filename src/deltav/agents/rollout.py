"""Leaf evaluation for tree search: playouts with a depth cap, and the evaluation at the cap.

A playout plays a sampled state forward with a rollout policy (uniformly random by default) for at most
``max_depth`` decisions. It ends with ``state.returns()`` at a terminal state, or with the evaluation function
(``evaluate(state, player) -> value in [-1, 1]``, one call per player) at the cap; without an evaluation
function the cap scores ``state.returns()`` (0 for everyone in an unfinished game under standard returns).

Policies and evaluations are plain callables, so a game's AI module ``bots/heuristics.py`` can supply them:

- ``RolloutPolicy``: ``policy(state, player, legal_actions, rng) -> action`` (one of ``legal_actions``).
  Where enumerating the legal actions is the expensive part of a playout, a policy may set the attribute
  ``needs_legal = False``: it is then called with ``legal_actions=None`` and may return an action it builds
  directly, or None to have one drawn uniformly from the legal list; an action the game rejects is replaced
  by a uniformly random legal one (the rejection leaves the state unchanged, by the protocol).
- ``Evaluation``: ``evaluate(state, player) -> float`` in ``[-1, 1]`` (values outside are clamped). An
  evaluation that values every player at once more cheaply may carry ``evaluate.every(state) -> values`` (one
  per player, equal to the per-player calls); the leaf then calls that once instead.
- ``Prior``: ``prior(state, player, legal_actions) -> weights`` (one non-negative number per legal action) for
  PUCT selection in the tree (see :mod:`deltav.agents.search`); :class:`BotPrior` makes one from a bot.

A bot can drive playouts too: :class:`BotPolicy` wraps any :class:`~deltav.core.agent.Agent` (a game's scripted
bot, say) as a rollout policy; it asks the bot with the view of the sampled state, like a match would.

This module owns playouts only; it mutates the state it is given (callers pass a clone) and never builds trees.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from deltav.core.agent import Agent
from deltav.core.errors import IllegalAction
from deltav.core.protocol import Decision, State
from deltav.core.rng import Rng
from deltav.core.values import Action

RolloutPolicy = Callable[[State, int, list[Action], Rng], Action]
Evaluation = Callable[[State, int], float]
Prior = Callable[[State, int, list[Action]], Sequence[float]]


def random_policy(state: State, player: int, legal: list[Action], rng: Rng) -> Action:
    """Uniformly random among the legal actions."""
    return legal[rng.below(len(legal))]


def evaluate_leaf(state: State, evaluate: Evaluation | None) -> list[float]:
    """The value of a non-terminal state for every player (``state.returns()`` without an evaluation)."""
    if evaluate is None:
        return list(state.returns())
    every = getattr(evaluate, "every", None)
    if every is not None:
        vs = every(state)
    else:
        vs = [evaluate(state, p) for p in range(state.num_players)]
    out = []
    for v in vs:
        v = float(v)
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
        if policy is None or direct:
            state.apply_action(p, legal[below(len(legal))])
        else:
            try:
                state.apply_action(p, policy(state, p, legal, rng))
            except IllegalAction:  # a policy bug must not end the search: play a random legal action
                state.apply_action(p, legal[below(len(legal))])
        depth += 1


class BotPolicy:
    """A playout policy that asks a bot: each step builds the :class:`Decision` a match would give the bot in the
    sampled state (its view and legal actions) and plays the bot's answer. One bot instance per player is kept
    for the whole search. A bot that fails on a sampled world (an exception, or an action outside the legal
    list) is replaced by a uniformly random legal action for that step, so a bot bug cannot end a search.

    ``factory()`` makes a bot; ``bind(decision)`` (called by the search agents before each search) passes the
    match's options on to the bots' decisions."""

    needs_legal = True

    def __init__(self, factory: Callable[[], Agent], options: Mapping[str, Any] | None = None):
        self.factory = factory
        self.options: Mapping[str, Any] = options or {}
        self.bots: dict[int, Agent] = {}
        self.failures = 0

    def bind(self, decision: Decision) -> None:
        self.options = decision.options

    def __call__(self, state: State, player: int, legal: list[Action], rng: Rng) -> Action:
        bot = self.bots.get(player)
        if bot is None:
            bot = self.bots[player] = self.factory()
        try:
            action = bot.act(Decision(state.game, player, state.view(player), legal, rng, self.options))
        except Exception:  # noqa: BLE001 - documented: a bot bug on a sampled world falls back to random
            action = None
        if action is None or action not in legal:
            self.failures += 1
            return legal[rng.below(len(legal))]
        return action


class BotPrior:
    """Prior weights for PUCT from a bot: the bot's choice in the sampled state gets ``weight``, the rest of the
    weight is spread evenly over every legal action. A failing bot gives the uniform prior."""

    def __init__(self, factory: Callable[[], Agent], weight: float = 0.7, seed: int = 0):
        self.factory = factory
        self.weight = weight
        self.options: Mapping[str, Any] = {}
        self.bots: dict[int, Agent] = {}
        self.rng = Rng(seed)

    def bind(self, decision: Decision) -> None:
        self.options = decision.options
        self.rng = decision.rng.fork("prior")

    def __call__(self, state: State, player: int, legal: list[Action]) -> list[float]:
        bot = self.bots.get(player)
        if bot is None:
            bot = self.bots[player] = self.factory()
        k = len(legal)
        rest = (1.0 - self.weight) / k
        try:
            choice = bot.act(Decision(state.game, player, state.view(player), legal, self.rng, self.options))
        except Exception:  # noqa: BLE001 - documented: a bot bug gives the uniform prior
            return [1.0 / k] * k
        return [rest + (self.weight if a == choice else 0.0) for a in legal]
