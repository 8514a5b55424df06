"""The tree-search core shared by every search agent: nodes, selection (UCT with availability counts, decoupled
UCT and regret matching at simultaneous nodes), expansion, playout and back-propagation.

One iteration walks down from the root in a *sampled state* (a determinized world the caller supplies, never
the true state), choosing at each node:

- **sequential node** (one player in ``current_players()``): SO-ISMCTS selection (Cowling, Powley & Whitehouse
  2012). Children are keyed by the acting player's action; an action not yet tried is expanded first
  (chosen at random among the untried ones), otherwise the child maximising
  ``mean + c * sqrt(ln(availability) / visits)`` is taken, where *availability* counts the iterations in which
  that action was legal at this node (with one fixed world this is plain UCT). Exact ties are broken at random
  (never by list order), so a search whose playouts all return 0 plays like the random bot.
- **simultaneous node** (several deciding players): decoupled selection. Each deciding player picks its own
  action from its own statistics at this node (the opponents' pending decisions are chosen by *their*
  statistics, never by ours): UCB1 (decoupled UCT, "DUCT") or regret matching with exploration ``gamma``
  (Lanctot, Lisy & Winands 2013; Lisy et al. 2013) over importance-sampled reward estimates ``u / sigma(a)``.
  Cumulative regrets are clamped at zero (regret matching+, Tammelin 2014), which measurably lowers the noise
  of the average strategy on our matrix-game tests. The average strategy accumulates the regret-matching
  strategy without the exploration mix. The joint action is applied player by player; the child is keyed by
  the joint action.

With a ``prior`` (``prior(state, player, legal) -> weights``, e.g. a scripted bot's choice, see
:mod:`deltav.agents.rollout`), sequential nodes use PUCT instead (Silver et al. 2017's selection rule:
``Q + c_prior * P(a) * sqrt(N) / (1 + n(a))``), so the search starts from the prior's favourite and leaves it
only when the returns say so; the weights are computed once per node, at its first visit.

Statistics are max^n style: a child holds the total return *of the player who chose the edge into it*, so any
number of players works. Playouts and the depth cap are :mod:`deltav.agents.rollout`'s.

Chance is open-loop: the caller re-seeds each iteration's state RNG, so dice differ between iterations and the
tree is keyed by actions only. When the world is fixed (one determinization searched many times) and no die
has been rolled on the path, a node caches its legal actions instead of asking the game again.

This module owns the search tree only; it knows no game and never sees a true state.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from math import log, sqrt

from deltav.agents.budget import Deadline
from deltav.agents.rollout import Evaluation, Prior, RolloutPolicy, evaluate_leaf, playout
from deltav.core.errors import IllegalAction
from deltav.core.protocol import State
from deltav.core.rng import Rng
from deltav.core.values import Action

_NEG = -1e300


class Node:
    """A tree node. ``player``/``visits``/``total``/``avail`` are the statistics of the edge into this node
    (``player`` chose it; -1 for the root and for the children of joint actions). ``kids`` maps an action
    (or ``(player, action)`` when a player other than ``actor`` acts here, or a joint tuple) to a child;
    ``arms`` holds the per-player statistics of a simultaneous node."""

    __slots__ = ("player", "visits", "total", "avail", "kids", "actor", "arms", "legal", "slots", "prior", "seen",
                 "raw")

    def __init__(self, player: int):
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.kids: dict | None = None
        self.actor = -1
        self.arms: dict[int, dict[Action, Arm]] | None = None
        self.legal: object = None  # cached legal actions (list, or dict player -> list at simultaneous nodes)
        self.slots: list | None = None  # children aligned with the cached legal list (sequential, stable nodes)
        self.prior: dict | None = None  # PUCT prior weights {action: weight} (searches with a prior)
        # PUCT: (player, legal, children, prior weights) of the last visit, aligned with that legal list; a visit
        # whose legal list is equal reuses them instead of looking every action up again
        self.seen: tuple | None = None
        self.raw: tuple | None = None  # the root's (unfiltered legal list, filtered list) of the last visit


class Arm:
    """One player's statistics for one action at a simultaneous node."""

    __slots__ = ("visits", "total", "avail", "regret", "strat")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.regret = 0.0
        self.strat = 0.0


class Search:
    """Configuration and loop of one search. ``run`` fills a root :class:`Node` with statistics.

    ``c``: the UCB exploration constant (returns are in [-1, 1]); ``sim``: ``"ucb"`` (decoupled UCT) or
    ``"rm"`` (regret matching) at simultaneous nodes; ``gamma``: the regret-matching exploration rate;
    ``max_depth``: decisions a playout may play before the evaluation (None: to the end); ``policy`` and
    ``evaluate``: see :mod:`deltav.agents.rollout`.
    """

    __slots__ = ("c", "sim", "gamma", "max_depth", "policy", "evaluate", "root_player", "root_set", "iterations_done",
                 "prior", "c_prior")

    def __init__(
        self,
        root_player: int,
        root_actions: Sequence[Action],
        c: float = 1.4,
        sim: str = "ucb",
        gamma: float = 0.1,
        max_depth: int | None = None,
        policy: RolloutPolicy | None = None,
        evaluate: Evaluation | None = None,
        prior: Prior | None = None,
        c_prior: float = 1.5,
    ):
        if sim not in ("ucb", "rm"):
            raise ValueError(f"sim must be 'ucb' or 'rm', got {sim!r}")
        self.c = c
        self.sim = sim
        self.gamma = gamma
        self.max_depth = max_depth
        self.policy = policy
        self.evaluate = evaluate
        self.root_player = root_player
        self.root_set = frozenset(root_actions)
        self.iterations_done = 0
        self.prior = prior
        self.c_prior = c_prior

    # --- the loop -------------------------------------------------------------------------------------
    def run(
        self,
        root: Node,
        next_state: Callable[[int], State],
        iterations: int,
        rng: Rng,
        fixed_world: bool,
        deadline: float | Deadline | None = None,
    ) -> Node:
        """Run ``iterations`` iterations; ``next_state(i)`` gives a fresh state (a clone or a new sample) for
        iteration ``i``, which the search may mutate. Stops early at ``deadline`` (a ``perf_counter`` time, or
        a :class:`~deltav.agents.budget.Deadline` of wall-clock and CPU time)."""
        if isinstance(deadline, int | float):
            deadline = Deadline(wall=deadline)
        for i in range(iterations):
            if deadline is not None and i and deadline.passed():
                break
            state = next_state(i)
            self.iterate(root, state, rng, fixed_world)
            self.iterations_done += 1
        return root

    def iterate(self, root: Node, state: State, rng: Rng, fixed_world: bool) -> None:
        """One select / expand / playout / back-propagate pass over ``state`` (mutated)."""
        c = self.c
        path: list[Node] = [root]
        arm_path: list = []
        node = root
        stable = fixed_world and hasattr(state, "rng")
        root_player = self.root_player
        values: list[float] | None = None
        while True:
            players = state.current_players()
            if not players:
                values = list(state.returns())
                break
            at_root = node is root
            if len(players) == 1:
                p = players[0]
                if self.prior is not None:
                    step = self._puct_step(node, state, p, at_root, stable, rng)
                    if step is None:
                        values = evaluate_leaf(state, self.evaluate)
                        break
                    child, expanded, stable = step
                    path.append(child)
                    if expanded:
                        break
                    node = child
                    continue
                if stable:  # same state as every earlier visit: cached legal actions and child slots
                    legal = node.legal
                    if legal is None:
                        legal = state.legal_actions(p)
                        if at_root and p == root_player:
                            legal = [a for a in legal if a in self.root_set]
                        node.legal = legal
                        node.slots = [None] * len(legal)
                        if node.kids is None:
                            node.kids = {}
                            node.actor = p
                    if not legal:
                        values = evaluate_leaf(state, self.evaluate)
                        break
                    slots = node.slots
                    best_i = -1
                    best_score = _NEG
                    ties = 0
                    unexp = None
                    for i, ch in enumerate(slots):
                        if ch is None:
                            if unexp is None:
                                unexp = [i]
                            else:
                                unexp.append(i)
                            continue
                        ch.avail += 1
                        if unexp is None:
                            n = ch.visits
                            score = ch.total / n + c * sqrt(log(ch.avail) / n)
                            if score > best_score:
                                best_score = score
                                best_i = i
                                ties = 1
                            elif score == best_score:  # exact ties (all returns equal): pick one at random
                                ties += 1
                                if rng.below(ties) == 0:
                                    best_i = i
                    before = state.rng.state
                    if unexp is not None:
                        i = unexp[0] if len(unexp) == 1 else unexp[rng.below(len(unexp))]
                        a = legal[i]
                        state.apply_action(p, a)
                        ch = Node(p)
                        ch.avail = 1
                        slots[i] = ch
                        node.kids[a] = ch
                        path.append(ch)
                        break
                    state.apply_action(p, legal[best_i])
                    if state.rng.state != before:
                        stable = False
                    node = slots[best_i]
                    path.append(node)
                    continue
                legal = state.legal_actions(p)
                if at_root and p == root_player:
                    legal = [a for a in legal if a in self.root_set]
                if not legal:
                    values = evaluate_leaf(state, self.evaluate)
                    break
                kids = node.kids
                if kids is None:
                    kids = node.kids = {}
                    node.actor = p
                other = p != node.actor
                best = None
                best_a = None
                best_score = _NEG
                ties = 0
                unexp = None
                for a in legal:
                    ch = kids.get((p, a) if other else a)
                    if ch is None:
                        if unexp is None:
                            unexp = [a]
                        else:
                            unexp.append(a)
                        continue
                    ch.avail += 1
                    if unexp is None:
                        n = ch.visits
                        score = ch.total / n + c * sqrt(log(ch.avail) / n)
                        if score > best_score:
                            best_score = score
                            best = ch
                            best_a = a
                            ties = 1
                        elif score == best_score:
                            ties += 1
                            if rng.below(ties) == 0:
                                best = ch
                                best_a = a
                if unexp is not None:
                    a = unexp[0] if len(unexp) == 1 else unexp[rng.below(len(unexp))]
                    state.apply_action(p, a)
                    ch = Node(p)
                    ch.avail = 1
                    kids[(p, a) if other else a] = ch
                    path.append(ch)
                    break
                state.apply_action(p, best_a)  # type: ignore[arg-type]
                path.append(best)  # type: ignore[arg-type]
                node = best  # type: ignore[assignment]
            else:
                expanded, node, stable = self._joint_step(node, state, players, rng, at_root, stable, arm_path)
                path.append(node)
                if expanded:
                    break
        if values is None:
            values = playout(state, rng, self.max_depth, self.policy, self.evaluate)
        # back-propagation
        for nd in path:
            nd.visits += 1
            if nd.player >= 0:
                nd.total += values[nd.player]
        if arm_path:
            rm = self.sim == "rm"
            for p, arm, arms, sigmas, chosen in arm_path:
                u = values[p]
                arm.visits += 1
                arm.total += u
                if rm:
                    for j, other_arm in enumerate(arms):
                        r = other_arm.regret + (u / sigmas[j] if j == chosen else 0.0) - u
                        other_arm.regret = r if r > 0.0 else 0.0

    def _puct_step(self, node: Node, state: State, p: int, at_root: bool, stable: bool,
                   rng: Rng) -> tuple[Node, bool, bool] | None:
        """PUCT selection at a sequential node with prior weights (``prior(state, player, legal)``, computed once
        per node, at its first visit): ``Q + c_prior * P * sqrt(N) / (1 + n)`` where N sums the visits of the
        available children and an unvisited child has Q = 0. Applies the action; returns (child, expanded,
        stable), or None when there is nothing to choose."""
        legal = node.legal if stable else None
        if legal is None:
            legal = state.legal_actions(p)
            if at_root and p == self.root_player:
                raw = node.raw
                if raw is not None and raw[0] == legal:
                    legal = raw[1]
                else:
                    full = legal
                    legal = [a for a in legal if a in self.root_set]
                    node.raw = (full, legal)
            if stable:
                node.legal = legal
        if not legal:
            return None
        kids = node.kids
        if kids is None:
            kids = node.kids = {}
            node.actor = p
        seen = node.seen
        if seen is not None and seen[0] == p and seen[1] == legal:  # equal lists: same children, same weights
            children = seen[2]
            weights = seen[3]
        else:
            other = p != node.actor
            priors = node.prior
            cp = self.c_prior
            aligned = False  # the prior dict was just built from this list, without repeats: same order
            if priors is None:
                ws = [w if w > 0 else 0.0 for w in self.prior(state, p, legal)]  # type: ignore[misc]
                total = sum(ws)
                if total > 0:
                    priors = {a: w / total for a, w in zip(legal, ws)}
                else:
                    priors = {a: 1.0 / len(legal) for a in legal}
                node.prior = priors
                aligned = len(priors) == len(legal)
            children = [kids.get((p, a) if other else a) for a in legal] if kids else [None] * len(legal)
            if aligned:
                weights = [cp * w for w in priors.values()]
            else:
                default = 1.0 / len(legal)
                weights = [cp * priors.get(a, default) for a in legal]
            node.seen = (p, legal, children, weights)
        n_total = 0
        for ch in children:
            if ch is not None:
                ch.avail += 1
                n_total += ch.visits
        sq = sqrt(n_total + 1)
        best_i = 0
        best_score = _NEG
        ties = 0
        for i, ch in enumerate(children):
            if ch is None or not ch.visits:
                score = weights[i] * sq
            else:
                v = ch.visits
                score = ch.total / v + weights[i] * sq / (1 + v)
            if score > best_score:
                best_score = score
                best_i = i
                ties = 1
            elif score == best_score:
                ties += 1
                if rng.below(ties) == 0:
                    best_i = i
        a = legal[best_i]
        before = state.rng.state if stable else 0
        state.apply_action(p, a)
        if stable and state.rng.state != before:
            stable = False
        ch = children[best_i]
        if ch is None:
            ch = children[best_i] = Node(p)
            ch.avail = 1
            kids[(p, a) if p != node.actor else a] = ch
            return ch, True, stable
        return ch, False, stable

    def _joint_step(self, node: Node, state: State, players: Sequence[int], rng: Rng, at_root: bool, stable: bool,
                    arm_path: list) -> tuple[bool, Node, bool]:
        """Decoupled selection at a simultaneous node; applies the joint action. Returns (expanded, child,
        stable)."""
        c = self.c
        arms_by_player = node.arms
        if arms_by_player is None:
            arms_by_player = node.arms = {}
        cache = node.legal if stable and isinstance(node.legal, dict) else None
        if stable and cache is None:
            cache = node.legal = {}
        joint = []
        for p in players:
            legal = cache.get(p) if cache is not None else None
            if legal is None:
                legal = state.legal_actions(p)
                if at_root and p == self.root_player:
                    legal = [a for a in legal if a in self.root_set]
                if cache is not None:
                    cache[p] = legal
            if not legal:
                continue
            arms = arms_by_player.get(p)
            if arms is None:
                arms = arms_by_player[p] = {}
            if self.sim == "rm":
                row = []
                for a in legal:
                    arm = arms.get(a)
                    if arm is None:
                        arm = arms[a] = Arm()
                    row.append(arm)
                k = len(row)
                pos = [arm.regret if arm.regret > 0.0 else 0.0 for arm in row]
                tot = sum(pos)
                g = self.gamma
                if tot > 0.0:
                    pure = [x / tot for x in pos]
                    sigmas = [(1.0 - g) * x + g / k for x in pure]
                else:
                    pure = sigmas = [1.0 / k] * k
                r = rng.random()
                chosen = k - 1
                acc = 0.0
                for j, s in enumerate(sigmas):
                    acc += s
                    if r < acc:
                        chosen = j
                        break
                for j, arm in enumerate(row):
                    arm.strat += pure[j]  # the average strategy leaves the exploration out
                arm_path.append((p, row[chosen], row, sigmas, chosen))
                joint.append((p, legal[chosen]))
            else:
                unexp = None
                best_a = None
                best_arm = None
                best_score = _NEG
                ties = 0
                for a in legal:
                    arm = arms.get(a)
                    if arm is None or arm.visits == 0:
                        if unexp is None:
                            unexp = [a]
                        else:
                            unexp.append(a)
                        if arm is not None:
                            arm.avail += 1
                        continue
                    arm.avail += 1
                    if unexp is None:
                        n = arm.visits
                        score = arm.total / n + c * sqrt(log(arm.avail) / n)
                        if score > best_score:
                            best_score = score
                            best_a = a
                            best_arm = arm
                            ties = 1
                        elif score == best_score:
                            ties += 1
                            if rng.below(ties) == 0:
                                best_a = a
                                best_arm = arm
                if unexp is not None:
                    best_a = unexp[0] if len(unexp) == 1 else unexp[rng.below(len(unexp))]
                    best_arm = arms.get(best_a)
                    if best_arm is None:
                        best_arm = arms[best_a] = Arm()
                        best_arm.avail = 1
                arm_path.append((p, best_arm, None, None, 0))
                joint.append((p, best_a))
        before = state.rng.state if stable else 0
        applied = []
        for p, a in joint:
            if p not in state.current_players():
                continue
            try:
                state.apply_action(p, a)
            except IllegalAction:  # the other players' choices changed what this one may do: skip it
                continue
            applied.append((p, a))
        if stable and (state.rng.state != before or len(applied) != len(joint)):
            stable = False
        key = tuple(applied)
        kids = node.kids
        if kids is None:
            kids = node.kids = {}
        ch = kids.get(key)
        if ch is None:
            ch = kids[key] = Node(-1)
            return True, ch, stable
        return not applied, ch, stable  # nothing applied: stop descending (the playout scores it)


# --- reading the root -------------------------------------------------------------------------------------


def root_stats(root: Node, player: int) -> tuple[dict[Action, list[float]], bool]:
    """``{action: [visits, total, strategy_weight]}`` for ``player`` at the root, and whether any of it came
    from a simultaneous node (decoupled statistics)."""
    out: dict[Action, list[float]] = {}
    simultaneous = False
    if root.kids:
        for key, ch in root.kids.items():
            if ch.player != player or not ch.visits:
                continue
            a = key[1] if isinstance(key, tuple) and len(key) == 2 and isinstance(key[0], int) else key
            s = out.setdefault(a, [0.0, 0.0, 0.0])
            s[0] += ch.visits
            s[1] += ch.total
    if root.arms and player in root.arms:
        for a, arm in root.arms[player].items():
            if not arm.visits and not arm.strat:
                continue
            simultaneous = True
            s = out.setdefault(a, [0.0, 0.0, 0.0])
            s[0] += arm.visits
            s[1] += arm.total
            s[2] += arm.strat
    return out, simultaneous


def reseed(state: State, rng: Rng) -> State:
    """Give ``state`` a fresh RNG drawn from ``rng`` (so chance differs between iterations); returns it."""
    with contextlib.suppress(AttributeError):  # a state without a settable rng keeps its own
        state.rng = Rng(rng.next64())
    return state
