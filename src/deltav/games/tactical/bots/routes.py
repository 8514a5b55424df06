"""The astrogation planner of the Delta-V tactical bots: a beam search over turns in the space of ship states
(position, velocity, pending gravity, fuel, landed) under the game's own movement function
(:func:`deltav.games.tactical.movement.compute_course`), for the fewest turns to a goal:

- ``land``: land on one of a set of base hexes (a target body, home, a friendly base to refuel);
- ``visit``: touch a body's gravity ring or surface (a Grand Tour checkpoint) without crashing.

Each turn every kept state is expanded by coasting and by the six single burns (fuel permitting; with the
``land`` flag too where the landing shortcut applies, and ignoring every ignorable weak-gravity hex as a
variant); courses that crash or end off the map are dropped; duplicates (same position, velocity, pending
gravity and landed flag) keep the most fuel. The ``beam`` best states by an estimate of the turns still needed
(distance after the next drift, distance now, overspeed for the remaining distance) go on to the next turn. The
first depth at which a state reaches the goal gives the plan (ties: the most fuel left). Overloads are not
planned (they are a combat tool; the bots' one-ply scoring still considers them).

Plans are pure functions of plain data and the fixed map, so they are cached (:func:`plan_route` keeps the
last few thousand answers), and so is the expansion of each ship state (:func:`_expand`, shared by the searches
of consecutive turns). This module reads the map and never touches a game state.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

from deltav.core.hexgrid import DIRECTIONS
from deltav.games.tactical.combat import asteroid_hazards
from deltav.games.tactical.movement import CRASH, LANDING, compute_course, detect_orbit, landing_shortcut, speed

Hex = tuple[int, int]

#: one planned step: the order as (burn, land, ignore-weak hexes) and the ship state it is given in
Step = tuple[tuple[int | None, bool, tuple[Hex, ...]], tuple]


_FAR = 1 << 30


def nearest_distance(h: Hex, goals, none: int = _FAR) -> int:
    """The hex distance from ``h`` to the nearest of ``goals`` (``none`` if there are none), the distance inlined:
    the planner and the course scoring call it for every state and course of every decision. For a large
    immutable goal set (a map edge's row of 40-odd hexes: Escape's runners) the answers are memoised per goal
    object (:data:`_NEAR`)."""
    if len(goals) > NEAR_FROM and type(goals) in (tuple, frozenset):
        got = _NEAR.get(id(goals))
        if got is None or got[0] is not goals or len(got[1]) >= NEAR_LIMIT:
            if len(_NEAR) >= NEAR_GOALS:
                _NEAR.clear()
            got = _NEAR[id(goals)] = (goals, {})
        memo = got[1]
        d = memo.get(h)
        if d is None:
            d = memo[h] = _nearest(h, goals)
        return d
    d = _nearest(h, goals)
    return none if d == _FAR else d


#: :func:`nearest_distance`'s memo: id of a goal set -> (the goal set, {hex: distance}). The goal set is held by
#: its entry, so its id cannot be reused by another object while the entry lives; only tuples and frozensets
#: (immutable) are memoised
_NEAR: dict[int, tuple] = {}
#: goal sets larger than this are memoised; at most this many goal sets, and hexes per goal set
NEAR_FROM = 8
NEAR_GOALS = 64
NEAR_LIMIT = 5_000


def _nearest(h: Hex, goals) -> int:
    best = _FAR
    q0, r0 = h
    for q, r in goals:
        dq = q - q0
        dr = r - r0
        d = dq + dr  # max(|dq|, |dr|, |dq + dr|), without a call
        if d < 0:
            d = -d
        if dq < 0:
            dq = -dq
        if dq > d:
            d = dq
        if dr < 0:
            dr = -dr
        if dr > d:
            d = dr
        if d < best:
            best = d
    return best


def edge_row(gmap, r: int) -> tuple[Hex, ...]:
    """Every hex of row ``r`` across the map's width, west to east: the goal rows of an escape (beyond the northern
    edge) and of runners holding inside it. One tuple per map and row (so :func:`nearest_distance` memoises it
    across decisions)."""
    key = (gmap, r)
    got = _ROWS.get(key)
    if got is None:
        if len(_ROWS) >= 64:
            _ROWS.clear()
        got = _ROWS[key] = tuple((q, r) for q in range(gmap.bounds[0], gmap.bounds[1] + 1))
    return got


_ROWS: dict = {}


def estimate(dest: Hex, vel: Hex, pending: tuple[int, ...], goals: tuple[Hex, ...]) -> float:
    """Lower is better: a rough cost-to-go of a ship state toward ``goals`` (distance after the next drift,
    distance now, and speed above what the remaining distance lets it shed)."""
    q = dest[0] + vel[0]
    r = dest[1] + vel[1]
    for d in pending:
        q += DIRECTIONS[d][0]
        r += DIRECTIONS[d][1]
    d_now = nearest_distance(dest, goals)
    d_next = nearest_distance((q, r), goals)
    sp = speed(vel)
    cap = max(1, (d_now + 1) // 2)
    return 3.0 * d_next + 1.5 * d_now + 4.0 * max(0, sp - cap)


def safe(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], fuel: int | None, depth: int,
         destroyed_bases: frozenset = frozenset(), grazing: bool = False) -> bool:
    """Can a flying ship in this state keep from crashing or leaving the map for ``depth`` more moves
    (coasting or single burns; a landing ends the danger)? Memoised; fuel beyond ``depth`` cannot run out
    within ``depth`` moves, so it is keyed as ``min(fuel, depth)`` (same answer, more hits); a state already
    known unsafe for fewer moves is unsafe for more."""
    if fuel is not None and fuel > depth:
        fuel = depth
    key = (pos, vel, pending, fuel, depth)
    memo = _SAFE.get((gmap, destroyed_bases, grazing))
    if memo is not None:
        got = memo.get(key)
        if got is not None:
            return got
        # a ship that cannot keep flying for fewer moves cannot for more (the first moves of a safe sequence are
        # one): an answer already known for a smaller depth settles it
        for d in range(1, depth):
            if memo.get((pos, vel, pending, fuel if fuel is None or fuel <= d else d, d)) is False:
                memo[key] = False
                return False
    got = _safe(gmap, pos, vel, pending, fuel, depth, destroyed_bases, grazing)
    _table(_SAFE, (gmap, destroyed_bases, grazing), SAFE_LIMIT)[key] = got
    return got


#: memo tables of plain values (pure functions of their keys and the fixed map, never stale), one per map and
#: rules; kept out of the keys, the map leaves each key a tuple of numbers, which the cyclic garbage collector
#: stops tracking (functools.lru_cache keys holding the map, and its links, stay tracked: full collections in a
#: long game cost tens of milliseconds more)
_SAFE: dict[tuple, dict] = {}
SAFE_LIMIT = 200_000
_HAZARDS: dict = {}
HAZARDS_LIMIT = 100_000


def _table(tables: dict, key, limit: int) -> dict:
    """The memo table of ``key`` in ``tables``, emptied when it holds ``limit`` entries."""
    table = tables.get(key)
    if table is None or len(table) >= limit:
        if len(tables) >= 16:
            tables.clear()
        table = tables[key] = {}
    return table


def _safe(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], fuel: int | None, depth: int,
          destroyed_bases: frozenset, grazing: bool) -> bool:
    if depth <= 0:
        return True
    burns = (None, 0, 1, 2, 3, 4, 5) if (fuel is None or fuel > 0) else (None,)
    for b in burns:
        c = compute_course(gmap, pos, vel, fuel, pending, False, False, b, None, (), False, destroyed_bases,
                           grazing)
        if c.outcome == CRASH or gmap.off_map(c.destination):
            continue
        if c.outcome == LANDING:
            return True
        nf = None if fuel is None else fuel - c.fuel_spent
        if safe(gmap, c.destination, c.velocity, c.pending, nf, depth - 1, destroyed_bases, grazing):
            return True
    return False


@lru_cache(maxsize=4096)
def plan_route(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], fuel: int | None, landed: bool, kind: str,
               goals: tuple[Hex, ...], body: str | None, destroyed_bases: frozenset, grazing: bool = False,
               takeoff_costs_fuel: bool = True, beam: int = 48, depth: int = 14,
               drift_moves: int = 3, avoid: frozenset = frozenset()) -> tuple[Step, ...] | None:
    """The fewest-turns plan from a ship state to a goal, as a tuple of steps ``((burn, land, weak), state)``
    (``state`` = ``(pos, vel, pending, fuel, landed)`` the step is taken from), or None if no plan within
    ``depth`` turns survives the beam; a move through asteroids must leave a ship that could drift
    ``drift_moves`` moves safely if a hit disabled it. ``kind`` is ``"land"`` (land on a hex of ``goals``), ``"visit"``
    (touch a gravity or surface hex of ``body``; ``goals`` then guide the search) or ``"reach"`` (touch a hex of
    ``goals`` and survive there). No move of the plan ends, unlanded, on a hex of ``avoid`` (the astrogation
    assistant's enemy planetary-defense zones)."""
    if not goals:
        return None
    visit_hexes = None
    if kind == "visit":
        visit_hexes = gmap.gravity_hexes_of.get(body, frozenset()) | frozenset(
            h for h, b in gmap.surface.items() if b == body)
    elif kind == "reach":  # touch one of the goal hexes (the astrogation assistant's "fly to this hex")
        visit_hexes = frozenset(goals)
    start = (pos, vel, pending, fuel, landed)
    # a frontier entry is (state, steps, hazard weight so far); its steps are a chain (earlier chain, step),
    # unrolled into the plan's tuple when it is found
    frontier = [(start, (), 0)]
    moves = _moves_table(gmap, destroyed_bases, grazing, takeoff_costs_fuel, drift_moves)
    near: dict[Hex, int] = {}  # hex -> distance to the nearest goal, for this search
    landing = kind == "land"
    for _turn in range(depth):
        found = None
        nxt: dict[tuple, tuple] = {}
        for entry in frontier:
            st, steps, hz = entry
            p, v, pend, f, ld = st
            mkey = (p, v, pend, f if f is None or f < 1 else 1, ld)
            children = moves.get(mkey)
            if children is None:
                children = moves[mkey] = _expand(gmap, p, v, pend, mkey[3], ld, destroyed_bases, grazing,
                                                 takeoff_costs_fuel, drift_moves)
            for child in children:
                order, b, lands, dest, nv, npend, spent, contact, step_hz, key, drift, sp = child
                if ld and b is None:
                    if not landing:
                        continue  # staying landed visits nothing new
                    stay = True
                else:
                    stay = False
                if avoid and not lands and dest in avoid:
                    continue  # never end a move unlanded on a hex to avoid (an enemy base's fire zone)
                nf = None if f is None else f - spent
                if landing:
                    if lands and dest in goals and not stay:
                        rank = (hz + step_hz, -(nf or 0))
                        if found is None or rank < found[0]:
                            found = (rank, (steps, (order, st)))
                        continue
                else:
                    if not visit_hexes.isdisjoint(contact) and (
                            lands or safe(gmap, dest, nv, npend, nf, 3, destroyed_bases, grazing)):
                        rank = (hz + step_hz, -(nf or 0))
                        if found is None or rank < found[0]:
                            found = (rank, (steps, (order, st)))
                        continue
                nhz = hz + step_hz
                old = nxt.get(key)
                if old is not None and old[1] <= nhz and (
                        old[2] is None or (nf is not None and old[2] >= nf)):
                    continue
                # estimate(dest, nv, npend, goals), with the distances to the goals memoised per hex (the same
                # sums in the same order: the same floats)
                d_now = near.get(dest)
                if d_now is None:
                    d_now = near[dest] = nearest_distance(dest, goals)
                d_next = near.get(drift)
                if d_next is None:
                    d_next = near[drift] = nearest_distance(drift, goals)
                cap = (d_now + 1) // 2  # max(1, ...) and max(0, ...), inlined: the same integers
                if cap < 1:
                    cap = 1
                over = sp - cap
                if over < 0:
                    over = 0
                sc = (3.0 * d_next + 1.5 * d_now + 4.0 * over) + 3.0 * HAZARD_TURNS * nhz
                if nf is not None and nf <= 0 and sc > 0:
                    sc += 20.0  # out of fuel short of the goal: almost certainly a dead end
                # the beam's order: score, then most fuel, then hex and velocity (ties: first reached); the next
                # state and its steps are built only for the entries the beam keeps (most are cut or replaced)
                nxt[key] = ((sc, -(nf if nf is not None else 99), dest, nv), nhz, nf, entry, child)
        if found is not None:
            return _unroll(found[1])
        if not nxt:
            return None
        frontier = [((c[3], c[4], c[5], nf, c[2]), (e[1], (c[0], e[0])), nhz)
                    for _k, nhz, nf, e, c in sorted(nxt.values(), key=_BEAM_ORDER)[:beam]]
    return None


def _unroll(chain: tuple) -> tuple[Step, ...]:
    """The steps of a chain ``(earlier chain, step)`` (``()`` at the start), first step first."""
    out = []
    while chain:
        chain, step = chain
        out.append(step)
    out.reverse()
    return tuple(out)


_BEAM_ORDER = itemgetter(0)


#: the expansions of ship states, per (map, destroyed bases, grazing, takeoff costs fuel, drift moves): every
#: course a state can fly (see :func:`_expand`); keyed by plain values only (pure, never stale)
_MOVES: dict[tuple, dict] = {}
#: states kept per table before it is emptied
MOVES_LIMIT = 50_000


def _moves_table(gmap, destroyed_bases: frozenset, grazing: bool, takeoff: bool, drift_moves: int) -> dict:
    key = (gmap, frozenset(destroyed_bases), bool(grazing), bool(takeoff), drift_moves)
    table = _MOVES.get(key)
    if table is None or len(table) >= MOVES_LIMIT:
        if len(_MOVES) >= 16:
            _MOVES.clear()
        table = _MOVES[key] = {}
    return table


def _expand(gmap, p: Hex, v: Hex, pend: tuple[int, ...], fuel: int | None, ld: bool, destroyed_bases: frozenset,
            grazing: bool, takeoff: bool, drift_moves: int) -> tuple:
    """Every course the planner may take from a ship state, in search order: coasting and the six burns (fuel
    permitting), each with the ``land`` flag too where the landing shortcut applies, and each also with every
    ignorable weak gravity hex ignored; crashes, off-map ends and asteroid moves whose disabled drift is not
    clear for ``drift_moves`` moves are left out. Each as the search reads it: ``((burn, land, weak), burn,
    lands, destination, velocity, pending, fuel spent, contact, hazard weight, the next state's key, its drift
    hex, its speed)``, what does not depend on the goals worked out once per ship state (the outcome is a
    landing or a normal move). A pure function of its arguments (``fuel`` only matters as
    None, 0 or more)."""
    out = []
    off_map = gmap.off_map
    burns = (None, 0, 1, 2, 3, 4, 5) if (fuel is None or fuel > 0) else (None,)
    orbit_now = False if ld else detect_orbit(gmap, p, v, pend, destroyed_bases)
    hazards = _HAZARDS.get(gmap)  # hazard_count's memo, read directly (a miss asks hazard_count)
    for b in burns:
        lands = (False, True) if (b is not None and not ld) else (False,)
        for land in lands:
            if land:
                # the land flag changes a course only through the landing shortcut (compute_course step 4, one
                # burn, not landed): without one it is the course just flown without the flag, left out
                dq, dr = DIRECTIONS[b]
                if orbit_now is None:
                    # not orbiting now: only a fresh orbit after the burn (post-burn speed 1) or a stop on a
                    # base (speed 0) can land, so a post-burn speed above 1 has no shortcut
                    q = v[0] + dq
                    r = v[1] + dr
                    if (q if q >= 0 else -q) > 1 or (r if r >= 0 else -r) > 1 or (q + r if q + r >= 0
                                                                                    else -q - r) > 1:
                        continue
                if landing_shortcut(gmap, p, v, pend, (p[0] + v[0] + dq, p[1] + v[1] + dr), destroyed_bases,
                                    orbit_now) is None:
                    continue
            c = compute_course(gmap, p, v, fuel, pend, ld, False, b, None, (), land, destroyed_bases, grazing,
                               takeoff)
            if land and not c.shortcut:
                continue
            variants = [((), c)]
            if c.ignorable:
                c2 = compute_course(gmap, p, v, fuel, pend, ld, False, b, None, c.ignorable, land, destroyed_bases,
                                    grazing, takeoff)
                variants.append((c.ignorable, c2))
            for weak, cc in variants:
                if cc.outcome == CRASH or off_map(cc.destination):
                    continue
                n = hazards.get((p, cc.destination)) if hazards is not None else None
                if n is None:
                    n = hazard_count(gmap, p, cc.destination)
                step_hz = hazard_weight(n) if n else 0.0
                if step_hz and cc.outcome != LANDING and not drift_safe(
                        gmap, cc.destination, cc.velocity, cc.pending, drift_moves, clear=True):
                    continue  # an asteroid hit would leave it drifting into a crash
                arrives = cc.outcome == LANDING
                dest = cc.destination
                nv = cc.velocity
                npend = tuple(cc.pending)
                vq, vr = nv
                q = dest[0] + vq
                r = dest[1] + vr
                for d in npend:
                    q += DIRECTIONS[d][0]
                    r += DIRECTIONS[d][1]
                sp = vq if vq >= 0 else -vq  # speed(nv), inlined
                if (vr if vr >= 0 else -vr) > sp:
                    sp = vr if vr >= 0 else -vr
                vq += vr
                if (vq if vq >= 0 else -vq) > sp:
                    sp = vq if vq >= 0 else -vq
                out.append(((b, land, tuple(weak)), b, arrives, dest, nv, npend, cc.fuel_spent, tuple(cc.contact),
                            step_hz, (dest, nv, npend, arrives), (q, r), sp))
    return tuple(out)


def hazard_count(gmap, start: Hex, dest: Hex) -> int:
    """Asteroid hazards of a move from ``start`` to ``dest`` ending at speed above 1 (combat.asteroid_hazards;
    destroyed asteroids are rare and ignored here). Memoised per map. Every hex a line meets (a grazed pair's
    too) is within the move's length of its start, so a start farther than that from every asteroid
    (:func:`_asteroid_distance`) has none without tracing the line."""
    key = (start, dest)
    memo = _HAZARDS.get(gmap)
    if memo is not None:
        got = memo.get(key)
        if got is not None:
            return got
    n = speed((dest[0] - start[0], dest[1] - start[1]))
    if n <= 1 or _asteroid_distance(gmap, start) > n:
        got = 0
    else:
        got = len(asteroid_hazards(start, dest, gmap.asteroids.__contains__))
    _table(_HAZARDS, gmap, HAZARDS_LIMIT)[key] = got
    return got


def _asteroid_distance(gmap, h: Hex) -> int:
    """The distance from ``h`` to the map's nearest asteroid hex (a large number without any), memoised per map
    (the asteroids of a map never change)."""
    got = _ASTEROIDS.get(gmap)
    if got is None:
        if len(_ASTEROIDS) >= 16:
            _ASTEROIDS.clear()
        got = _ASTEROIDS[gmap] = (tuple(sorted(gmap.asteroids)), {})
    hexes, memo = got
    d = memo.get(h)
    if d is None:
        d = memo[h] = _nearest(h, hexes)
    return d


#: per map: (its asteroid hexes, {hex: distance to the nearest})
_ASTEROIDS: dict = {}


#: planner cost of one asteroid hazard of weight 1, in turns
HAZARD_TURNS = 1.5


@lru_cache(maxsize=64)
def hazard_weight(k: int) -> float:
    """How much ``k`` asteroid hazards rolled in one move matter, from the asteroid table: six times the chance
    that their damage outlasts the repair at the end of the ship's own player-turn (the hazards roll in that
    same turn), so that it drifts on its next move (an elimination counts too). With D2 on a 6 one hazard
    weighs 1; with the design note's table (D1 on a 5 or a 6) one hazard weighs 0: its D1 is repaired before
    the ship moves again, and only two hits in one move strand it."""
    from deltav.games.tactical.combat import ELIMINATION_THRESHOLD, OTHER_DAMAGE, REPAIR_PER_TURN

    if k <= 0:
        return 0.0
    faces = [(r.disabled_turns, r.label == "E") for r in OTHER_DAMAGE["asteroid"]]
    dist = {0: 1.0}  # total disabled turns (capped at the threshold = eliminated) -> probability
    for _ in range(k):
        nxt: dict[int, float] = {}
        for t, pr in dist.items():
            for turns, elim in faces:
                u = ELIMINATION_THRESHOLD if elim else min(ELIMINATION_THRESHOLD, t + turns)
                nxt[u] = nxt.get(u, 0.0) + pr / len(faces)
        dist = nxt
    return 6.0 * sum(pr for t, pr in dist.items() if t > REPAIR_PER_TURN)


def drift_safe(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], moves: int, clear: bool = False,
               extend: bool = False) -> bool:
    """Does coasting (as a disabled ship must) keep a ship off bodies and on the map for ``moves`` moves? With
    ``clear``, the drift must also meet no asteroid hazard (a disabled ship in the belt keeps taking hits). With
    ``extend`` (hard's drift guard, issue 30), a drift that meets an asteroid hazard within its ``moves`` must
    also survive one move more: a hit there adds to the damage and the drift goes on (Fleet Action's Venus
    corsair, disabled for three moves by four frigates, was hit again by an asteroid on its third and crashed on
    its fourth). Memoised per map (a pure function of these plain values: the drift flies with no fuel, no destroyed base
    and grazes that touch nothing)."""
    key = (pos, vel, pending if type(pending) is tuple else tuple(pending), moves, clear, extend)
    memo = _DRIFT.get(gmap)
    if memo is not None:
        got = memo.get(key)
        if got is not None:
            return got
    got = _drift_safe(gmap, pos, vel, pending, moves, clear, extend)
    _table(_DRIFT, gmap, DRIFT_LIMIT)[key] = got
    return got


#: :func:`drift_safe` answers per map (keys of plain values)
_DRIFT: dict = {}
DRIFT_LIMIT = 100_000


def _drift_safe(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], moves: int, clear: bool,
                extend: bool = False) -> bool:
    m = 0
    while m < moves:
        c = compute_course(gmap, pos, vel, 0, pending, False, False, None)
        if c.outcome == CRASH or gmap.off_map(c.destination):
            return False
        if c.outcome == LANDING:
            return True
        if (clear or extend) and hazard_count(gmap, pos, c.destination):
            if clear:
                return False
            moves += 1  # a hit there prolongs the drift by a move (once)
            extend = False
        pos, vel, pending = c.destination, c.velocity, c.pending
        m += 1
    return True


def ship_key(sh) -> tuple:
    return (sh.pos, sh.vel, tuple(sh.pending), sh.fuel, sh.landed)


#: After a failed search for a ship, the searches skipped before the next try: 1 after the first failure, then
#: doubled after each failure in a row, up to this (so a ship that cannot get home is searched for every 5th turn)
RETRY_MAX = 4


class RouteCache:
    """A bot's memory of its current plans, per ship: while the ship is where the plan said it would be, the
    next step is taken without searching again.

    And of its failed searches: a search that finds no route is not tried again for the same ship and goal on
    the next turn(s) (1 skipped, then 2, then at most :data:`RETRY_MAX`), unless the ship has more fuel than it had
    then. In hard-vs-hard games a failure was followed by another on the next turn 98% of the time (Fleet Action
    33 of 35, Interplanetary War 213 of 216), and those searches were most of the planner's time: a failing one
    goes the full depth."""

    def __init__(self):
        self.plans: dict[str, tuple] = {}
        #: ship id -> (goal, fuel then, searches still to skip, the skip after the next failure)
        self.failed: dict[str, tuple] = {}

    def next_step(self, gmap, sh, kind: str, goals: tuple[Hex, ...], body: str | None, destroyed_bases,
                  grazing: bool, takeoff: bool, beam: int, depth: int, drift_moves: int = 3):
        """``(burn, land, weak, turns_left)`` of the plan for ship ``sh``, or None."""
        key = ship_key(sh)
        goal = (kind, goals, body, destroyed_bases, drift_moves)
        got = self.plans.get(sh.id)
        if got is not None and got[0] == goal:
            steps = got[1]
            for i, (order, st) in enumerate(steps):
                if st == key:
                    return (*order, len(steps) - i)
        fail = self.failed.get(sh.id)
        if fail is not None and fail[0] != goal:
            fail = None
        if fail is not None and fail[2] > 0 and (sh.fuel is None or fail[1] is None or sh.fuel <= fail[1]):
            self.failed[sh.id] = (goal, fail[1], fail[2] - 1, fail[3])
            return None
        steps = plan_route(gmap, sh.pos, sh.vel, tuple(sh.pending), sh.fuel, sh.landed, kind, goals, body,
                           frozenset(destroyed_bases), grazing, takeoff, beam, depth, drift_moves)
        if steps is None:
            self.plans.pop(sh.id, None)
            skip = 1 if fail is None else fail[3]
            self.failed[sh.id] = (goal, sh.fuel, skip, min(RETRY_MAX, 2 * skip))
            return None
        self.failed.pop(sh.id, None)
        self.plans[sh.id] = (goal, steps)
        return (*steps[0][0], len(steps))
