"""Heuristics for mining bots: the open contracts' needs, the chance of a match, and an evaluation a search bot
can use on (sampled) states. What a player knows from its view and the exact odds of the rest are rules-side
facts in ``knowledge.py`` (the player services read them too).

Everything that reads a view uses only that view, so a bot built on it never peeks. ``evaluate`` reads a state
(a search bot calls it on determinized worlds) and uses only the evaluated player's knowledge of that world.

This module owns bot-side reasoning only; it must not change states or decide rules.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping

from deltav.games.mining import contracts as cm
from deltav.games.mining.action_cache import PROSPECT
from deltav.games.mining.knowledge import MINERAL_INDEX
from deltav.games.mining.messages import Declare, Pass, Reveal
from deltav.games.mining.phases import P_ACTION, P_ATTEMPT, P_BID_REVEAL, P_BIDUP, P_METEOR, P_PIRATE, P_REVEAL
from deltav.games.mining.scenarios import OMNIDIUM, SQUARES, STATION


def contract_needs(view: Mapping) -> list[tuple[str, tuple[int, ...], int]]:
    """Open contracts: (id, need per standard mineral, size)."""
    out = []
    for c in view["contracts"]:
        if c["owner"] is None:
            idx = [MINERAL_INDEX[m] for m in c["minerals"]]
            out.append((c["id"], tuple(idx.count(m) for m in range(4)), len(idx)))
    return out


def useful_minerals(view: Mapping) -> Counter:
    """How many open-contract slots ask for each standard mineral."""
    out: Counter = Counter()
    for c in view["contracts"]:
        if c["owner"] is None:
            out.update(c["minerals"])
    return out


def match_probability(unseen: Counter, unknown_count: int, kinds: Iterable[str]) -> float:
    """Chance that one unknown square shows one of ``kinds`` (Omnidium counts as wild)."""
    if unknown_count <= 0:
        return 0.0
    hits = sum(unseen[k] for k in set(kinds) | {"omnidium"})
    return min(1.0, hits / unknown_count)


def evaluate(state, player: int) -> float:
    """``evaluate_points`` squashed into [-1, 1] (the agents' evaluation contract)."""
    return math.tanh(evaluate_points(state, player) / 15.0)


def evaluate_every(state) -> list[float]:
    """``[evaluate(state, p) for p in players]`` with each player's value computed once, not once per player."""
    tanh = math.tanh
    return [tanh(x / 15.0) for x in every_points(state)]


evaluate.every = evaluate_every  # type: ignore[attr-defined]  # the leaf evaluation's all-players form


def player_value(state, player: int, scores=None) -> float:
    """What ``player`` has, roughly in points: score, plus half the value of the best contract its known
    tiles could complete now, plus a little for knowledge, rockets in play, held incidents and unspent bribe
    counters. Uses only that player's knowledge in the given (possibly sampled) state."""
    cfg = state.cfg
    value = float((scores or state.scores())[player])
    known = state.looked[player] | state.public
    kinds, values, sq = cfg.kinds, cfg.values, state.squares
    usable = known & state.tiles & ~(state.others_mask(player) | state.faceup | state.att_mask)
    if state.alien >= 0:
        usable &= ~(1 << state.alien)
    avail = []
    while usable:
        low = usable & -usable
        s = low.bit_length() - 1
        usable ^= low
        t = sq[s]
        if kinds[t] <= OMNIDIUM:
            avail.append((values[t], kinds[t]))
    avail.sort(reverse=True)
    potential = 0
    cowner = state.contract_owners
    for i, c in enumerate(cfg.contracts):
        if cowner[i] >= 0:
            continue
        # greedy, best tile first: what cm.fits / cm.complete decide, inlined (avail holds minerals only)
        need, size = c.need, c.size
        taken = [0, 0, 0, 0]
        n = 0
        pts = 0
        for v, k in avail:
            if n >= size:
                break
            if k == OMNIDIUM or taken[k] < need[k]:
                if k != OMNIDIUM:
                    taken[k] += 1
                n += 1
                pts += v
        if n >= size and pts > potential:
            potential = pts
    value += 0.5 * potential
    value += 0.05 * (state.looked[player] & state.tiles).bit_count()
    value += 0.3 * sum(state.rockets[player * SQUARES:(player + 1) * SQUARES])
    value += 0.5 * len(state.hands[player])
    value += 0.3 * _unspent_count(state, player)
    return value


def _unspent_count(state, player: int) -> int:
    """``len(state.unspent_counters(player))`` without building the list: held minus the spent ones."""
    holder = state.holders
    n = holder.count(player)
    m = state.spent
    while m:
        low = m & -m
        if holder[low.bit_length() - 1] == player:
            n -= 1
        m ^= low
    return n


def evaluate_points(state, player: int) -> float:
    """``player_value`` of ``player`` minus the best opponent's: a search bot can use it at its depth limit.
    At the end of the game, the score difference times ten."""
    scores = state.scores()
    if state.is_terminal():
        best_other = max(s for q, s in enumerate(scores) if q != player)
        return 10.0 * (scores[player] - best_other)
    values = [player_value(state, q, scores) for q in range(state.num_players)]
    return values[player] - max(v for q, v in enumerate(values) if q != player)


def every_points(state) -> list[float]:
    """``[evaluate_points(state, p) for p in players]``, each ``player_value`` computed once."""
    scores = state.scores()
    n = state.num_players
    if state.is_terminal():
        return [10.0 * (scores[p] - max(s for q, s in enumerate(scores) if q != p)) for p in range(n)]
    values = [player_value(state, q, scores) for q in range(n)]
    return [values[p] - max(v for q, v in enumerate(values) if q != p) for p in range(n)]


def _known_plan(state, player: int):
    """(contract index, squares) that ``player``'s knowledge in this state completes, best value first."""
    cfg = state.cfg
    known = state.looked[player] | state.public
    allowed = state.eligible_mask(player) & known
    avail = sorted(((cfg.values[state.squares[s]], s) for s in range(SQUARES)
                    if allowed >> s & 1 and cfg.kinds[state.squares[s]] <= OMNIDIUM), reverse=True)
    best = None
    for i, c in enumerate(cfg.contracts):
        if state.contract_owners[i] >= 0:
            continue
        got: list[int] = []
        squares = []
        pts = 0
        for v, s in avail:
            k = cfg.kinds[state.squares[s]]
            if cm.fits(c.need, c.size, got, k):
                got.append(k)
                squares.append(s)
                pts += v
        if cm.complete(c.size, got) and (best is None or pts > best[0]):
            best = (pts, i, squares)
    return best


def rollout_policy(state, player: int, legal: list, rng) -> object:
    """A cheap playout policy on (sampled) states using only ``player``'s knowledge in that state: attempt a
    contract only with a known plan, reveal known fitting tiles first, let reaction windows pass mostly, and
    prospect under rockets on unknown squares; otherwise uniformly random."""
    phase = state.phase
    if phase == P_ATTEMPT:
        plan = _known_plan(state, player)
        if plan is not None:
            a = state.cfg.declares[plan[1]]
            if a in legal:
                return a
        for a in legal:
            if type(a) is Pass:
                return a
        declares = [a for a in legal if type(a) is Declare]  # a mandatory attempt: gamble on any contract
        pool = declares or legal
        return pool[rng.below(len(pool))]
    if phase in (P_REVEAL, P_BID_REVEAL):
        known = state.looked[player] | state.public
        cfg = state.cfg
        if phase == P_REVEAL:
            c = cfg.contracts[state.attempt]
            got = [m for _, _, m in state.matched]
            for a in legal:
                if type(a) is Reveal and known >> a.square & 1:
                    k = cfg.kinds[state.squares[a.square]]
                    if cm.fits(c.need, c.size, got, k):
                        return a
        else:
            want = state.bid % 5
            for a in legal:
                if type(a) is Reveal and known >> a.square & 1 and cm.bid_matches(want, cfg.kinds[state.squares[a.square]]):
                    return a
        return legal[rng.below(len(legal))]
    if phase in (P_PIRATE, P_METEOR, P_BIDUP):  # reaction and bid-up windows: mostly pass (Pass is last)
        if rng.below(4):
            return legal[-1]
        return legal[rng.below(len(legal))]
    if phase == P_ACTION and not state.pirated:
        unknown_under = (state.occ[player] & state.tiles & ~(state.faceup | state.att_mask | state.looked[player]
                                                              | state.public | (1 << STATION)))
        if unknown_under:
            return PROSPECT
    return legal[rng.below(len(legal))]
