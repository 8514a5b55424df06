"""The knowledge of the mining *hard* level: a fast state-level policy (the scripted plan on each player's own
knowledge) that guides the generic SO-ISMCTS tree and plays its playouts, its PUCT prior, and the phases worth
searching. The hard level itself is data: the preset in ``bots.PRESETS`` runs ``deltav.agents``' ISMCTS with
``rollout = hard_policy.policy``, ``prior = hard_policy.prior``, ``evaluation = evaluate``, gated to :data:`SEARCHED`
(the scripted bot with perfect memory decides elsewhere).

How it searches (design note 3.1):

- **Worlds.** Every iteration samples a world from the bot's view with the game's exact determinizer (a
  uniform shuffle of the unseen tiles over the unknown squares; ``pool`` worlds sampled up front and cycled).
- **Opponents on their own knowledge.** In a sampled world an opponent "knows" exactly the squares it looked
  at (the determinizer keeps the public ``looked`` sets), so :func:`policy` plays every player, the bot and
  its opponents alike, from that player's knowledge in that world, never from the sampled truth.
- **Tree.** SO-ISMCTS (``deltav.agents.ISMCTSAgent``) with PUCT: :func:`prior` puts most of the weight on the
  policy's choice, so the search starts from the solid plan and leaves it only when the returns say so.
- **Leaves.** Playouts of ``max_depth`` decisions with :func:`policy`, then ``heuristics.evaluate`` (score,
  half the value of the best contract each player's knowledge completes, small terms for knowledge, rockets,
  incidents and counters), each player valued on its own knowledge.
- **Where.** Only the strategic decisions are searched (:data:`SEARCHED`: the action, the contract attempt,
  bid-ups, replacements, reaction windows, revealing an incident). Rocket moves after the first, looks,
  reveals of a planned contract and the alien's steps follow the scripted bot (perfect memory), which keeps
  most decisions at a fraction of a millisecond.

This module owns the state-level policy, the prior and :data:`SEARCHED`; it imports no agent framework, must
not change the state it is given (search passes clones), and never sees a true state (only sampled worlds).
"""

from __future__ import annotations

from deltav.core.rng import Rng
from deltav.core.values import Action
from deltav.games.mining import contracts as cm
from deltav.games.mining.action_cache import END_LOOKS, END_MOVES, MOVE_ROW, PASS, PROSPECT, REVEAL
from deltav.games.mining.messages import (
    BuyRocket,
    Declare,
    Discard,
    Look,
    Move,
    Pass,
    Replace,
    RevealIncident,
    Survey,
)
from deltav.games.mining.phases import (
    BIT,
    P_ACTION,
    P_ALIEN_MOVE,
    P_ALIEN_STEAL,
    P_ATTEMPT,
    P_BID_REPLACE,
    P_BID_REVEAL,
    P_BIDUP,
    P_LOOKREV,
    P_METEOR,
    P_MOVING,
    P_PIRATE,
    P_REPLACE,
    P_REVEAL,
    P_SCAN,
    P_SURVEY,
)
from deltav.games.mining.scenarios import ACQUISITION, ALIEN, ALIENS_TO_END, MINERALS, OMNIDIUM, SQUARES, STATION

#: The phases the hard bot searches (by their view names); the rest follow the scripted plan.
SEARCHED = ("attempt", "bid-up-window", "replace", "bid-up-replace", "pirate-window", "meteor-window",
            "reveal-choice")
KEEP_VALUE = 3  # a known useful tile worth at least this keeps a rocket parked on it


# --- the state-level policy ------------------------------------------------------------------------------
def _knows(state, p: int) -> int:
    return state.looked[p] | state.public


def _face_down(state) -> int:
    return state.tiles & ~(state.faceup | state.att_mask)


def _score_lead(state, p: int) -> int:
    sc = state.scores()
    return sc[p] - max(s for q, s in enumerate(sc) if q != p)


def _plan(state, p: int):
    """(points, contract index, squares) of the best contract ``p``'s knowledge in this state completes, or
    None: per contract, the most valuable known revealable tiles of each required mineral, Omnidium (wild)
    filling what is missing."""
    cfg = state.cfg
    kinds, values, sq = cfg.kinds, cfg.values, state.squares
    m = state.eligible_mask(p) & (state.looked[p] | state.public)
    if not m:
        return None
    by: list[list] = [[], [], [], [], []]
    while m:
        low = m & -m
        s = low.bit_length() - 1
        m ^= low
        t = sq[s]
        k = kinds[t]
        if k <= OMNIDIUM:
            by[k].append((values[t], s))
    for lst in by:
        if len(lst) > 1:
            lst.sort(reverse=True)
    omni = by[OMNIDIUM]
    best = None
    cowner = state.contract_owners
    for i, c in enumerate(cfg.contracts):
        if cowner[i] >= 0:
            continue
        used = 0
        pts = 0
        squares = []
        need = c.need
        for mm in range(4):
            n = need[mm]
            if not n:
                continue
            lst = by[mm]
            for v, s in lst[:n]:
                pts += v
                squares.append(s)
            short = n - len(lst)
            if short > 0:
                if used + short > len(omni):
                    break
                for v, s in omni[used:used + short]:
                    pts += v
                    squares.append(s)
                used += short
        else:
            if best is None or pts > best[0]:
                best = (pts, i, squares)
    return best


def _public_mismatch(state, p: int, contract) -> int:
    """A revealable square (lowest first) whose tile everybody knows (public, or looked at by ``p`` and every
    opponent) and that does not fit ``contract``, or -1: revealing it ends a forced attempt and tells nobody
    anything."""
    cfg = state.cfg
    everyone = -1
    for q in range(state.num_players):
        everyone &= state.looked[q]
    m = state.eligible_mask(p) & (state.public | everyone)
    while m:
        low = m & -m
        s = low.bit_length() - 1
        m ^= low
        k = cfg.kinds[state.squares[s]]
        if k < OMNIDIUM and not contract.need[k]:
            return s
    return -1


def _public_kinds(state, p: int) -> list[int]:
    """The standard-mineral kinds of the revealable squares whose tile everybody knows, lowest square first:
    :func:`_public_mismatch` finds a square for a contract iff one of these kinds is not needed by it."""
    cfg = state.cfg
    everyone = -1
    for q in range(state.num_players):
        everyone &= state.looked[q]
    m = state.eligible_mask(p) & (state.public | everyone)
    out = []
    while m:
        low = m & -m
        m ^= low
        k = cfg.kinds[state.squares[low.bit_length() - 1]]
        if k < OMNIDIUM:
            out.append(k)
    return out


def _closest_declare(state, p: int, legal: list, declared: set | None = None):
    """The legal declaration whose contract ``p``'s known revealable tiles come closest to completing (fewest
    tiles missing, then the smallest contract), or None: what to gamble on when an attempt is mandatory and no
    contract is covered."""
    cfg = state.cfg
    kinds, sq = cfg.kinds, state.squares
    m = state.eligible_mask(p) & (state.looked[p] | state.public)
    have = [0] * 5
    while m:
        low = m & -m
        s = low.bit_length() - 1
        m ^= low
        k = kinds[sq[s]]
        if k <= OMNIDIUM:
            have[k] += 1
    best = None
    for i, c in enumerate(cfg.contracts):
        a = cfg.declares[i]
        if state.contract_owners[i] >= 0 or (a not in legal if declared is None else c.id not in declared):
            continue
        need = c.need
        short = 0
        for mm in range(4):
            d = need[mm] - have[mm]
            if d > 0:
                short += d
        missing = max(0, short - have[OMNIDIUM])
        key = (missing, c.size, i)
        if best is None or key < best[0]:
            best = (key, a)
    return best[1] if best else None


def _fresh_targets(state, p: int, limit: int = SQUARES) -> list[int]:
    """The first ``limit`` of the face-down squares ``p`` does not know and may move onto without bumping,
    squares nobody looked at first (ascending within a group)."""
    free = _face_down(state) & ~_knows(state, p) & ~state.others_mask(p) & ~state.occ[p]
    if state.alien >= 0:
        free &= ~BIT[state.alien]
    looked_any = 0
    for q in range(state.num_players):
        if q != p:
            looked_any |= state.looked[q]
    out = []
    for m in (free & ~looked_any, free & looked_any):  # nobody looked at these, then the others
        while m:
            if len(out) >= limit:
                return out
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
    return out


def _station_moves(legal: list) -> tuple[set[int], set[int]]:
    """The squares ``s`` with ``Move(s, STATION, None)`` in ``legal``, and those with ``Move(STATION, s, None)``
    (what ``Move(...) in legal`` asks, in one pass)."""
    home: set[int] = set()
    out: set[int] = set()
    for a in legal:
        if type(a) is Move and a.bump is None:
            if a.to == STATION:
                home.add(a.frm)
            if a.frm == STATION:
                out.add(a.to)
    return home, out


def _move_choice(state, p: int, legal: list, rng: Rng):
    """Bring a rocket home from a known useless square, else send a station rocket to a fresh square."""
    cfg = state.cfg
    known = _knows(state, p)
    moved = state.moved
    keep = None
    moves = None
    occ = state.occ[p] & ~BIT[STATION]
    if state.alien >= 0:
        occ &= ~BIT[state.alien]
    while occ:
        low = occ & -occ
        s = low.bit_length() - 1
        occ ^= low
        if not known >> s & 1 or (moved is not None and moved[s]):
            continue
        t = state.squares[s]
        if t < 0:
            continue
        k = cfg.kinds[t]
        if k > OMNIDIUM or cfg.values[t] < KEEP_VALUE:
            if keep is None:
                plan = _plan(state, p)
                keep = set(plan[2]) if plan else set()
            if s in keep:
                continue
            if moves is None:
                moves = _station_moves(legal)
            if s in moves[0]:
                return MOVE_ROW[s][STATION]
    home = state.rockets[p * SQUARES + STATION]
    if home and not (moved is not None and moved[STATION] >= home):
        top = _fresh_targets(state, p, 4)
        if top:
            for _ in range(2):
                s = top[rng.below(len(top))]
                if moves is None:
                    moves = _station_moves(legal)
                if s in moves[1]:
                    return MOVE_ROW[STATION][s]
    return None


def _demand(state) -> list[int]:
    out = [0] * 5
    for i, c in enumerate(state.cfg.contracts):
        if state.contract_owners[i] < 0:
            for m in c.minerals:
                out[m] += 1
    return out


def _stake(state) -> int:
    """Points at stake in the current attempt: the tiles matched so far plus the mismatched tile."""
    vals = state.cfg.values
    pts = sum(vals[t] for _, t, _ in state.matched)
    if state.mismatch >= 0 and state.squares[state.mismatch] >= 0:
        pts += vals[state.squares[state.mismatch]]
    return pts


def policy(state, player: int, legal: list, rng: Rng) -> Action:
    """The scripted plan on a (sampled) state, from ``player``'s own knowledge in it: prospect under rockets on
    unknown squares, spread rockets onto fresh squares, survey while counters last, declare only a contract
    its known tiles complete, reveal the planned tiles, replace when enough is at stake, let windows pass.
    Returns one of ``legal``."""
    ph = state.phase
    cfg = state.cfg
    if ph == P_ACTION:
        if state.pirated:
            return PASS
        kinds = cfg.kinds
        if any(kinds[t] == ACQUISITION for t, _ in state.hands[player]):  # else no such discard is legal
            for a in legal:
                if type(a) is Discard and kinds[cfg.id_index[a.incident]] == ACQUISITION:
                    return a
        known = _knows(state, player)
        if state.occ[player] & _face_down(state) & ~known & ~BIT[STATION]:
            return PROSPECT
        a = _move_choice(state, player, legal, rng)
        if a is not None:
            return a
        base = player * SQUARES
        in_play = sum(state.rockets[base:base + SQUARES])
        buy = None  # the first Buy a Rocket in legal
        surveys = []
        for a in legal:
            t = type(a)
            if t is Survey:
                surveys.append(a)
            elif t is BuyRocket and buy is None:
                buy = a
        if buy is not None and in_play < 3:
            return buy
        if len(surveys) >= 4:
            demand = _demand(state)
            return min(surveys, key=lambda a: (demand[MINERALS.index(a.bribe.split("-", 1)[1])], a.bribe))
        if buy is not None:
            return buy
        return PROSPECT
    if ph == P_MOVING:
        a = _move_choice(state, player, legal, rng)
        return a if a is not None else END_MOVES
    if ph in (P_SURVEY, P_SCAN):
        known = _knows(state, player)
        fresh = [a for a in legal if type(a) is Look and not known >> a.square & 1]
        if fresh:
            return fresh[rng.below(len(fresh))]
        return END_LOOKS if END_LOOKS in legal else legal[rng.below(len(legal))]
    if ph == P_LOOKREV:
        best = None
        for a in legal:
            if type(a) is RevealIncident:
                k = cfg.kinds[state.squares[a.square]]
                if k == ALIEN:
                    if state.aliens >= ALIENS_TO_END - 1 and _score_lead(state, player) > 0:
                        return a
                    continue
                best = a
        return best if best is not None else PASS
    if ph == P_ATTEMPT:
        plan = _plan(state, player)
        if plan is not None:
            a = cfg.declares[plan[1]]
            if a in legal:
                return a
        declared = set()  # the contracts ``legal`` offers to declare (equal actions share their class and fields)
        for a in legal:
            t = type(a)
            if t is Declare:
                declared.add(a.contract)
            elif t is Pass:
                return PASS
        # the attempt is mandatory: fail at no cost on a tile everybody knows, else gamble on the closest contract
        kinds = _public_kinds(state, player)
        if kinds:
            for i, c in enumerate(cfg.contracts):
                if c.id in declared:
                    need = c.need
                    for k in kinds:
                        if not need[k]:
                            return cfg.declares[i]
        a = _closest_declare(state, player, legal, declared)
        return a if a is not None else legal[rng.below(len(legal))]
    if ph == P_REVEAL:
        known = _knows(state, player)
        c = cfg.contracts[state.attempt]
        got = [m for _, _, m in state.matched]
        best = None
        for a in legal:
            if known >> a.square & 1:
                t = state.squares[a.square]
                if cm.fits(c.need, c.size, got, cfg.kinds[t]):
                    key = (cfg.kinds[t] != OMNIDIUM, cfg.values[t])
                    if best is None or key > best[0]:
                        best = (key, a)
        if best is not None:
            return best[1]
        if not got and cfg.mandatory:
            s = _public_mismatch(state, player, c)
            if s >= 0:
                return REVEAL[s]
        unknown = [a for a in legal if not known >> a.square & 1]
        seen = 0  # a blind reveal: prefer squares opponents already looked at (a mismatch tells them least)
        for q in range(state.num_players):
            if q != player:
                seen |= state.looked[q]
        pool = [a for a in unknown if seen >> a.square & 1] or unknown or legal
        return pool[rng.below(len(pool))]
    if ph == P_BID_REVEAL:
        known = _knows(state, player)
        want = state.bid % 5
        for a in legal:
            if known >> a.square & 1 and cm.bid_matches(want, cfg.kinds[state.squares[a.square]]):
                return a
        unknown = [a for a in legal if not known >> a.square & 1]
        pool = unknown or legal
        return pool[rng.below(len(pool))]
    if ph in (P_REPLACE, P_BID_REPLACE):
        reps = [a for a in legal if type(a) is Replace]
        if reps and _stake(state) >= 3:
            reps.sort(key=lambda a: a.bribe.endswith("omnidium"))
            return reps[0]
        return PASS
    if ph in (P_PIRATE, P_METEOR, P_BIDUP):
        return PASS
    if ph == P_ALIEN_MOVE:
        best = None
        for a in legal:
            if a is PASS:
                continue
            s = a.square
            if state.occ[player] >> s & 1:
                continue
            theirs = sum(state.rockets[q * SQUARES + s] for q in range(state.num_players) if q != player)
            if theirs and (best is None or theirs > best[0]):
                best = (theirs, a)
        return best[1] if best else PASS
    if ph == P_ALIEN_STEAL:
        for a in legal:
            if a is not PASS:
                return a
        return PASS
    return legal[rng.below(len(legal))]


policy.needs_legal = True  # type: ignore[attr-defined]
_PRIOR_RNG = Rng(0)


def prior(state, player: int, legal: list, weight: float = 0.6) -> list[float]:
    """PUCT prior: :func:`policy`'s choice gets ``weight``, the rest is spread evenly over ``legal``."""
    k = len(legal)
    rest = (1.0 - weight) / k
    choice = policy(state, player, legal, Rng(state.turn * 64 + state.phase))
    tc = type(choice)  # equal actions share their class: the other classes need no __eq__ call
    top = rest + weight
    return [top if a is choice or (type(a) is tc and a == choice) else rest for a in legal]


__all__ = ["SEARCHED", "policy", "prior"]
