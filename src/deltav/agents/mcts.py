"""The generic search agents: determinized MCTS (PIMC), SO-ISMCTS and the simultaneous-move variant (DUCT or
regret matching). Each is an :class:`~deltav.core.agent.Agent` that uses only the
:class:`~deltav.core.protocol.Decision` it is given: the view, the legal actions, its seeded RNG and the game's
determinizer (``decision.sample_world``). None of them ever touches a true state.

- :class:`MCTSAgent` (``mcts``): samples ``worlds`` determinizations, runs UCT on each one (iterations split
  evenly), and adds the root visit counts over the worlds (Perfect Information Monte Carlo, Long et al. 2010).
  With a perfect-information game it is plain UCT on one world.
- :class:`ISMCTSAgent` (``ismcts``): one tree of the searching player's information set; every iteration
  searches a fresh determinization (or one from a pool of ``pool`` pre-sampled worlds, a documented speed
  trade-off), with availability counts (Cowling, Powley & Whitehouse 2012, SO-ISMCTS).
- :class:`DUCTAgent` (``duct``): the ISMCTS search with the settings for simultaneous plotting: at
  simultaneous nodes each player selects from its own statistics (decoupled UCT, or regret matching with
  ``sim=rm``), and at a simultaneous root it *plays a mixed strategy* (the visit distribution, or the average
  regret-matching strategy) instead of the single most visited action.

Every search handles simultaneous nodes the same way (see :mod:`deltav.agents.search`); the agents differ in
how they sample worlds and in their defaults. Budgets are iteration counts so a seeded match replays exactly;
``max_seconds`` is a safety net that ends the search early (and then the replay depends on the machine), and a
decision run under a budget (:mod:`deltav.agents.budget`: the server's bot workers) also stops at its iterations
and CPU time.

This module owns the agents; the tree is :mod:`deltav.agents.search`'s, playouts :mod:`deltav.agents.rollout`'s.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from deltav.agents.budget import Deadline, capped_iterations
from deltav.agents.rollout import Evaluation, Prior, RolloutPolicy
from deltav.agents.search import Node, Search, reseed, root_stats
from deltav.agents.spec import Param, check_params
from deltav.core.agent import Agent
from deltav.core.errors import DeltavError
from deltav.core.protocol import Decision, Game
from deltav.core.rng import Rng
from deltav.core.values import Action


class SearchUnavailable(DeltavError):
    """The game cannot be searched from a player's view (it has no determinizer)."""


#: The most iterations a search may be asked for per decision (its budget in iterations; the server's bot
#: workers also cut every decision at their CPU-time budget, see :mod:`deltav.agents.budget`).
MAX_ITERATIONS = 100_000

COMMON_PARAMS: dict[str, Param] = {
    "iterations": Param(int, 1000, "search iterations per decision (the budget; replays exactly)", minimum=1,
                        maximum=MAX_ITERATIONS),
    "c": Param(float, 1.4, "UCB exploration constant (returns are in [-1, 1])", minimum=0.0, maximum=100.0),
    "max_depth": Param(
        int, None, "decisions a playout plays before the evaluation scores it (none: play to the end)",
        minimum=0, maximum=10_000, allow_none=True,
    ),
    "sim": Param(str, "ucb", "selection at simultaneous nodes: ucb (decoupled UCT) or rm (regret matching)",
                 choices=("ucb", "rm")),
    "gamma": Param(float, 0.1, "regret-matching exploration rate (sim=rm)", minimum=0.0, maximum=1.0),
    "final": Param(
        str, "auto",
        "how the move is picked: max (most visited), mix (sample the visit distribution, or the average "
        "regret-matching strategy, at a simultaneous root), auto (mix with sim=rm, else max)",
        choices=("auto", "max", "mix"),
    ),
    "max_seconds": Param(float, None, "wall-clock safety net per decision (none: no cap)", minimum=0.0,
                         maximum=3600.0, allow_none=True),
    "c_prior": Param(float, 1.5, "PUCT constant when the agent has a prior", minimum=0.0, maximum=100.0),
}


@dataclass
class SearchResult:
    """What a search found at the root for the deciding player."""

    stats: dict[Action, tuple[int, float, float]] = field(default_factory=dict)  # action -> visits, mean, rm weight
    simultaneous: bool = False
    iterations: int = 0
    seconds: float = 0.0

    def policy(self, use_strategy: bool = False) -> dict[Action, float]:
        """The root distribution: visit shares, or the average regret-matching strategy."""
        idx = 2 if use_strategy else 0
        total = sum(s[idx] for s in self.stats.values())
        if total <= 0:
            return {}
        return {a: s[idx] / total for a, s in self.stats.items()}


class SearchAgent(Agent):
    """Base of the search agents: parameters, the root choice, the determinizer check."""

    name: ClassVar[str] = "search"
    PARAMS: ClassVar[dict[str, Param]] = COMMON_PARAMS

    def __init__(
        self,
        policy: RolloutPolicy | None = None,
        evaluate: Evaluation | None = None,
        spec: str = "",
        prior: Prior | None = None,
        **params: Any,
    ):
        self.params = check_params(spec or self.name, self.PARAMS, params)
        self.policy = policy
        self.evaluate = evaluate
        self.prior = prior
        self.last: SearchResult | None = None  # the last decision's root statistics (for analysis and tests)

    # --- to implement -----------------------------------------------------------------------------------
    def search(self, decision: Decision, rng: Rng, deadline: Deadline | None) -> SearchResult:
        raise NotImplementedError

    # --- shared ---------------------------------------------------------------------------------------
    def _search(self, player: int, legal: list[Action]) -> Search:
        p = self.params
        return Search(player, legal, c=p["c"], sim=p["sim"], gamma=p["gamma"], max_depth=p["max_depth"],
                      policy=self.policy, evaluate=self.evaluate, prior=self.prior, c_prior=p["c_prior"])

    def analyse(self, decision: Decision) -> SearchResult:
        """Search the decision and return the root statistics (advances the decision's RNG once)."""
        check_searchable(decision.game)
        for hook in (self.policy, self.prior):
            bind = getattr(hook, "bind", None)
            if bind is not None:
                bind(decision)
        rng = Rng(decision.rng.next64())
        t0 = time.perf_counter()
        result = self.search(decision, rng, Deadline.for_decision(self.params["max_seconds"]))
        result.seconds = time.perf_counter() - t0
        self.last = result
        return result

    def act(self, decision: Decision) -> Action:
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        result = self.analyse(decision)
        return self.choose(decision, result)

    def choose(self, decision: Decision, result: SearchResult) -> Action:
        legal = decision.legal_actions
        stats = result.stats
        if not stats:
            return decision.rng.choice(legal)
        mode = self.params["final"]
        rm = self.params["sim"] == "rm"
        if mode == "auto":
            mode = "mix" if rm else "max"
        if mode == "mix" and result.simultaneous:
            idx = 2 if rm else 0
            weights = [stats[a][idx] if a in stats else 0.0 for a in legal]
            total = sum(weights)
            if total > 0:
                r = decision.rng.random() * total
                acc = 0.0
                for a, w in zip(legal, weights):
                    acc += w
                    if r < acc and w > 0:
                        return a
        best = None
        best_key = None
        ties = 0
        for a in legal:
            s = stats.get(a)
            if s is None:
                continue
            key = (s[0], s[1])
            if best_key is None or key > best_key:
                best_key = key
                best = a
                ties = 1
            elif key == best_key:  # equal visits and mean (a search that learnt nothing): a random one of them
                ties += 1
                if decision.rng.below(ties) == 0:
                    best = a
        return best if best is not None else decision.rng.choice(legal)


def check_searchable(game: type[Game]) -> None:
    if getattr(game.determinize, "__func__", None) is Game.determinize.__func__:
        raise SearchUnavailable(
            f"game {game.id!r} has no determinizer (Game.determinize), so search agents cannot sample states "
            "from a player's view; use 'random' or the game's scripted bot"
        )


def _merge(into: dict[Action, list[float]], stats: Mapping[Action, list[float]]) -> None:
    for a, s in stats.items():
        t = into.setdefault(a, [0.0, 0.0, 0.0])
        t[0] += s[0]
        t[1] += s[1]
        t[2] += s[2]


def _result(stats: dict[Action, list[float]], simultaneous: bool, iterations: int) -> SearchResult:
    out = {a: (int(s[0]), s[1] / s[0] if s[0] else 0.0, s[2]) for a, s in stats.items()}
    return SearchResult(out, simultaneous, iterations)


class MCTSAgent(SearchAgent):
    """Determinized MCTS / PIMC: UCT on each of ``worlds`` sampled worlds, root visits added over worlds."""

    name = "mcts"
    PARAMS = {
        **COMMON_PARAMS,
        "worlds": Param(
            int, 0, "determinizations searched (0: 1 for a perfect-information game, 8 otherwise)", minimum=0,
            maximum=1000,
        ),
    }

    def search(self, decision: Decision, rng: Rng, deadline: Deadline | None) -> SearchResult:
        iterations = capped_iterations(self.params["iterations"])
        worlds = self.params["worlds"] or (8 if decision.game.has_hidden_information else 1)
        worlds = max(1, min(worlds, iterations))
        merged: dict[Action, list[float]] = {}
        simultaneous = False
        done = 0
        for w in range(worlds):
            if deadline is not None and w and deadline.passed():
                break
            world = decision.sample_world(rng.fork("world", w))
            srng = rng.fork("search", w)
            n = iterations // worlds + (1 if w < iterations % worlds else 0)
            search = self._search(decision.player, decision.legal_actions)
            root = search.run(Node(-1), lambda i, _w=world, _r=srng: reseed(_w.clone(), _r), n, srng, True, deadline)
            stats, sim = root_stats(root, decision.player)
            simultaneous = simultaneous or sim
            _merge(merged, stats)
            done += search.iterations_done
        return _result(merged, simultaneous, done)


class ISMCTSAgent(SearchAgent):
    """SO-ISMCTS: one information-set tree, a fresh determinization every iteration."""

    name = "ismcts"
    PARAMS = {
        **COMMON_PARAMS,
        "pool": Param(
            int, 0,
            "0: a fresh determinization every iteration (SO-ISMCTS); k > 0: cycle through k worlds sampled up "
            "front (cheaper when the determinizer is slow)",
            minimum=0,
            maximum=1000,
        ),
    }

    def search(self, decision: Decision, rng: Rng, deadline: Deadline | None) -> SearchResult:
        iterations = capped_iterations(self.params["iterations"])
        pool = self.params["pool"]
        search = self._search(decision.player, decision.legal_actions)
        srng = rng.fork("search")
        wrng = rng.fork("worlds")
        if not decision.game.has_hidden_information:
            world = decision.sample_world(wrng)
            fixed = True

            def next_state(i: int):
                return reseed(world.clone(), srng)
        elif pool:
            worlds = [decision.sample_world(wrng) for _ in range(min(pool, iterations))]
            fixed = len(worlds) == 1

            def next_state(i: int):
                return reseed(worlds[i % len(worlds)].clone(), srng)
        else:
            fixed = False

            def next_state(i: int):
                return reseed(decision.sample_world(wrng), srng)

        root = search.run(Node(-1), next_state, iterations, srng, fixed, deadline)
        stats, sim = root_stats(root, decision.player)
        return _result(stats, sim, search.iterations_done)


class DUCTAgent(ISMCTSAgent):
    """ISMCTS tuned for simultaneous plotting: decoupled UCT (or regret matching with ``sim=rm``) at
    simultaneous nodes, and a mixed final choice at a simultaneous root."""

    name = "duct"
    PARAMS = {
        **ISMCTSAgent.PARAMS,
        "final": Param(str, "mix", COMMON_PARAMS["final"].doc, choices=("auto", "max", "mix")),
    }
