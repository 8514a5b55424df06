"""Multi-turn intercept planning for the chasing side of the Delta-V tactical bots (hard level).

In the role scenarios (Blockade Runner, Escape, Lunar Evacuation, Convoy) one side runs for a goal (a landing on
its target body, or the northern map edge) and the other must catch it on the way. A one-ply pursuer heads for
where the quarry *is*; this module plans where it *will be*:

- :func:`runner_track` predicts the quarry's next moves: a sensible runner (one-ply, as the bots' own course
  scoring does) heads for its goal hexes by the planner's cost-to-go estimate (``routes.estimate``), never
  crashing (three moves of survival, ``routes.safe``), lands as soon as it can, and only coasts while disabled.
- :func:`intercept_values` searches our ship's next ``horizon`` moves (a beam over coasting, the six burns, and
  the overloads on the first move) for the sequence with the best chance of at least one damaging gun shot at
  the quarry along its predicted track. Our ship fires after each of its moves at the quarry's position then
  (the quarry's current hex after our first move, its predicted hex after each of its moves later): range = the
  closest approach of our path to the quarry's hex, velocity modifier from the relative speed, line of sight,
  odds from both strengths (``combat.result_counts`` gives the exact chance of a damaging result). The answer is
  the best plan value for every first move, so the bot can add it to its own course scores (where safety
  terms still veto a move).

Everything is a pure function of plain values and the fixed map (results are cached). This module never reads
or changes a game state; the bot (bots/level_bot.py) builds the quarry's record from its view and its memory.
"""

from __future__ import annotations

import heapq
from functools import lru_cache
from operator import itemgetter

from deltav.games.tactical import combat as cb
from deltav.games.tactical.movement import CRASH, LANDING, compute_course

from .routes import estimate, hazard_count, hazard_weight, safe
from .tactics import sight

Hex = tuple[int, int]
BURNS = (None, 0, 1, 2, 3, 4, 5)
#: first moves with an overload: (burn, overload) pairs
OVERLOADS = tuple((b, o) for b in range(6) for o in range(6))
DISCOUNT = 0.85


@lru_cache(maxsize=20_000)
def runner_track(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], fuel: int | None, disabled: int,
                 goals: tuple[Hex, ...], escape_row: int | None, turns: int, destroyed_bases: frozenset,
                 grazing: bool = False) -> tuple[tuple[Hex, Hex], ...]:
    """The quarry's predicted next ``turns`` moves as ``(destination, velocity)`` pairs; the track stops early
    when it lands on one of ``goals`` or leaves the map northward (``escape_row``: a destination row below it
    escapes)."""
    out = []
    for _ in range(turns):
        burns = BURNS if (disabled <= 0 and (fuel is None or fuel > 0)) else (None,)
        best = None
        for b in burns:
            for land in ((False, True) if b is not None else (False,)):
                c = compute_course(gmap, pos, vel, fuel, pending, False, False, b, None, (), land, destroyed_bases,
                                   grazing)
                if land and not c.shortcut:
                    continue
                if c.outcome == CRASH:
                    continue
                d = c.destination
                if escape_row is not None and d[1] < escape_row:
                    sc = -1e9
                elif gmap.off_map(d):
                    continue
                elif c.outcome == LANDING:
                    if d not in goals:
                        continue
                    sc = -1e8
                else:
                    nf = None if fuel is None else fuel - c.fuel_spent
                    sc = estimate(d, c.velocity, c.pending, goals)
                    if escape_row is not None:
                        sc += 2.0 * d[1] + (d[1] + c.velocity[1])
                    if not safe(gmap, d, c.velocity, c.pending, nf, 2, destroyed_bases, grazing):
                        sc += 1e6
                if best is None or sc < best[0]:
                    best = (sc, c)
        if best is None:
            break
        c = best[1]
        out.append((c.destination, c.velocity))
        if c.outcome == LANDING or (escape_row is not None and c.destination[1] < escape_row):
            break
        pos, vel, pending = c.destination, c.velocity, c.pending
        if fuel is not None:
            fuel -= c.fuel_spent
        disabled = max(0, disabled - 1)
    return tuple(out)


@lru_cache(maxsize=512)
def _hit_table(column: int) -> tuple[float, ...]:
    """Chance of a damaging gun result at ``column`` for net penalties 0..7."""
    out = []
    for pen in range(8):
        counts = cb.result_counts(column, pen)
        out.append(sum(counts[1:]) / 6.0)
    return tuple(out)


def shot_chance(gmap, path, pos: Hex, vel: Hex, column: int, target: Hex, target_vel: Hex) -> float:
    """Chance that a gun shot from a ship that moved along ``path`` to ``pos`` with ``vel`` damages a ship at
    ``target`` moving with ``target_vel`` (range = closest approach, velocity modifier, line of sight). The hex
    distances inlined (the intercept beam asks it for every move of every plan); the velocity modifier first (a
    relative speed alone out of the table's reach needs no range), the range's scan stops at range 0."""
    q = vel[0] - target_vel[0]
    r = vel[1] - target_vel[1]
    d = q + r
    if d < 0:
        d = -d
    if q < 0:
        q = -q
    if r < 0:
        r = -r
    if q > d:
        d = q
    if r > d:
        d = r
    d -= cb.VELOCITY_FREE
    vp = d if d > 0 else 0
    if vp >= 8:
        return 0.0
    best = 1 << 30
    origin = pos
    tq, tr = target
    for h in path or (pos,):
        q = h[0] - tq
        r = h[1] - tr
        d = q + r
        if d < 0:
            d = -d
        if q < 0:
            q = -q
        if r < 0:
            r = -r
        if q > d:
            d = q
        if r > d:
            d = r
        if d < best:
            best, origin = d, h
            if d == 0:
                break
    pen = best + vp
    if pen >= 8:
        return 0.0
    table = _HIT.get(column)
    if table is None:
        table = _HIT[column] = _hit_table(column)
    p = table[pen]
    if p <= 0.0:
        return 0.0
    if best > 0 and not sight(gmap, origin, target):
        return 0.0
    return p


_HIT: dict = {}  # column -> _hit_table(column), read without a call


def intercept_values(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], fuel: int | None, can_overload: bool,
                     column: int, targets: tuple[tuple[Hex, Hex], ...], horizon: int = 6, beam: int = 60,
                     destroyed_bases: frozenset = frozenset(), grazing: bool = False,
                     hazard_cost: float = 0.1, ram_ok: bool = True) -> dict:
    """For each first move ``(burn, overload)`` of our ship, the best value found of a plan of ``horizon``
    moves: the chance of at least one damaging shot (shot k discounted by ``DISCOUNT ** k``) at the quarry,
    whose position and velocity when our k-th move's combat comes are ``targets[k]`` (``targets[0]`` = now).
    Plans that crash, leave the map or cannot keep flying three more moves are dropped; each asteroid hazard
    (routes.hazard_count) on the way costs ``hazard_cost`` (an enforcer of Escape hit for D2 gives the Pilgrims
    their moral victory). Without ``ram_ok`` a move ending in the quarry's hex (a ram: both ships roll the ram
    table) is dropped."""
    return dict(_intercept(gmap, pos, vel, pending, fuel, can_overload, column, targets, horizon, beam,
                           destroyed_bases, grazing, hazard_cost, ram_ok))


@lru_cache(maxsize=4096)
def _intercept(gmap, pos, vel, pending, fuel, can_overload, column, targets, horizon, beam, destroyed_bases,
               grazing, hazard_cost, ram_ok):
    """The beam of :func:`intercept_values`, its safety checks made lazily: the same answer as the plain beam, which
    checks every child as it meets it (kept in tests/tactical/test_bots_cost.py, which compares them); most of the
    beam's cost was those checks, three moves of survival per child, and most children are cut by the beam or
    improve no first move.

    Each depth first values every child without its safety. Then, exactly as the plain beam would end:

    - a first move's best value is the highest value among its safe children of every depth: after the last
      depth its children are checked in order of value, down to the first safe one;
    - each state (position, velocity, pending gravity) keeps its safe child of the highest rank (the earliest
      met on a tie), placed in the beam's order (rank, hex, velocity, first move, then the order the plain dict
      met it: its earliest safe child). States are taken from a heap on their best unchecked rank, each checked
      only when it could be among the ``beam`` kept;
    - the last depth keeps no frontier (nothing reads it)."""
    moves = _moves_table(gmap, destroyed_bases, grazing)
    # frontier entries: (rank, pos, vel, pending, fuel, miss, value, first, hazard cost so far)
    frontier = [(0.0, pos, vel, pending, fuel, 1.0, 0.0, None, 0.0)]
    steps = min(horizon, len(targets))
    table = _hit_table(column)
    by_first: dict = {}  # first move -> its children of every depth
    checked: dict = {}  # (destination, velocity, pending, fuel) -> safe?

    def ok(c):
        key = (c[1], c[2], c[3], c[4])
        got = checked.get(key)
        if got is None:
            got = checked[key] = safe(gmap, c[1], c[2], c[3], c[4], 3, destroyed_bases, grazing)
        return got

    for k in range(steps):
        tpos, tvel = targets[k]
        nxt_target = targets[k + 1] if k + 1 < len(targets) else None
        if nxt_target is not None:
            (nq, nr), (nvq, nvr) = nxt_target
        disc = DISCOUNT ** k
        disc_next = DISCOUNT ** (k + 1)
        cands: list = []  # every child: (rank, cdest, cvel, cpend, nf, nmiss, nval, fm, nhzc)
        by_key: dict = {}  # (cdest, cvel, cpend) -> its children's indexes in cands, in the order met
        for _rank, p, v, pend, f, miss, _val, first, hzc in frontier:
            over = k == 0 and can_overload and (f is None or f >= 2)
            fk = f if f is None or f < 2 else 2
            mkey = (p, v, pend, fk, over)
            children = moves.get(mkey)
            if children is None:
                children = moves[mkey] = _moves(gmap, p, v, pend, fk, over, destroyed_bases, grazing)
            for b, o, cdest, cvel, cpend, spent, contact, hz in children:
                if not ram_ok and cdest == tpos:
                    continue
                nf = None if f is None else f - spent
                ph = shot_chance(gmap, contact, cdest, cvel, column, tpos, tvel) * disc
                nmiss = miss * (1.0 - ph)
                nhzc = hzc
                if hazard_cost and hz:
                    nhzc += hazard_cost * hz * disc
                nval = 1.0 - nmiss - nhzc
                fm = first if first is not None else (b, o)
                # potential: how well placed for the next shot (drift hex against the quarry's next hex)
                rank = nval
                if nxt_target is not None:
                    # gap = max(0, dist(drift, quarry's next hex) - 1) + max(0, dist(velocities) - free - 1),
                    # the distances inlined
                    q = cdest[0] + cvel[0] - nq
                    r = cdest[1] + cvel[1] - nr
                    d = q + r
                    if d < 0:
                        d = -d
                    if q < 0:
                        q = -q
                    if r < 0:
                        r = -r
                    if q > d:
                        d = q
                    if r > d:
                        d = r
                    gap = d - 1 if d > 1 else 0
                    q = cvel[0] - nvq
                    r = cvel[1] - nvr
                    d = q + r
                    if d < 0:
                        d = -d
                    if q < 0:
                        q = -q
                    if r < 0:
                        r = -r
                    if q > d:
                        d = q
                    if r > d:
                        d = r
                    d -= cb.VELOCITY_FREE + 1
                    if d > 0:
                        gap += d
                    pen = gap if gap < 7 else 7
                    rank += nmiss * disc_next * table[pen] - 0.01 * gap
                c = (rank, cdest, cvel, cpend, nf, nmiss, nval, fm, nhzc)
                key = (cdest, cvel, cpend)
                got = by_key.get(key)
                if got is None:
                    by_key[key] = [len(cands)]
                else:
                    got.append(len(cands))
                cands.append(c)
                got = by_first.get(fm)
                if got is None:
                    by_first[fm] = [c]
                else:
                    got.append(c)
        if not cands or k + 1 >= steps:
            break
        frontier = _beam_cut(cands, by_key, ok, beam)
        if not frontier:
            break
    best_first: dict = {}
    for fm, cs in by_first.items():
        top = max(cs, key=_VALUE)
        if top[6] <= -1.0:
            continue
        if ok(top):  # the usual case: the child of the best value is safe
            best_first[fm] = top[6]
            continue
        for c in sorted(cs, key=_VALUE, reverse=True):
            if c[6] <= -1.0:
                break
            if ok(c):
                best_first[fm] = c[6]
                break
    return tuple(sorted(best_first.items(), key=lambda kv: str(kv[0])))


_VALUE = itemgetter(6)


def _beam_cut(cands: list, by_key: dict, ok, beam: int) -> list:
    """The ``beam`` entries the plain beam keeps, in its order (see :func:`_intercept`): per state its safe child of
    the highest rank (the earliest on a tie), sorted on (-rank, hex, velocity, str(first move)), ties in the order
    the states' first safe children were met."""
    heap = []
    for idx in by_key.values():
        order = sorted(idx, key=lambda i: -cands[i][0]) if len(idx) > 1 else idx  # stable: the earliest on a tie
        c = cands[order[0]]
        heap.append((-c[0], c[1], c[2], False, len(heap), order, idx))
    heapq.heapify(heap)
    out: list = []
    while heap and len(out) < beam:
        prefix = heap[0][:3]
        group = []
        while heap and heap[0][:3] == prefix:
            item = heapq.heappop(heap)
            if item[3]:
                group.append(item)
                continue
            order = item[5]
            best = next((i for i in order if ok(cands[i])), None)
            if best is None:
                continue  # no safe child: the state is not in the beam
            c = cands[best]
            item = (-c[0], c[1], c[2], True, item[4], best, item[6])
            if item[:3] == prefix:
                group.append(item)
            else:
                heapq.heappush(heap, item)
        if len(group) > 1:
            # the same rank, hex and velocity (pending gravity differs): by first move, then the order met
            group.sort(key=lambda it: (str(cands[it[5]][7]), next(i for i in it[6] if ok(cands[i]))))
        out.extend(cands[it[5]] for it in group)
    return out[:beam]


#: the moves of ship states, per (map, destroyed bases, grazing): see :func:`_moves` (pure, never stale)
_MOVES: dict[tuple, dict] = {}
#: states kept per table before it is emptied
MOVES_LIMIT = 50_000


def _moves_table(gmap, destroyed_bases: frozenset, grazing: bool) -> dict:
    key = (gmap, frozenset(destroyed_bases), bool(grazing))
    table = _MOVES.get(key)
    if table is None or len(table) >= MOVES_LIMIT:
        if len(_MOVES) >= 16:
            _MOVES.clear()
        table = _MOVES[key] = {}
    return table


def _moves(gmap, p: Hex, v: Hex, pend: tuple[int, ...], fuel: int | None, overload: bool, destroyed_bases: frozenset,
           grazing: bool) -> tuple:
    """The intercept plan's moves from a ship state in search order: coasting, the six burns (fuel permitting)
    and, with ``overload``, the 36 overloads; only those ending normally on the map, each as ``(burn, overload,
    destination, velocity, pending, fuel spent, contact, asteroid hazard weight)``. Pure (``fuel`` only matters
    as None, 0, 1 or more)."""
    out = []
    pairs = [(b, None) for b in (BURNS if (fuel is None or fuel > 0) else (None,))]
    if overload:
        pairs += list(OVERLOADS)
    for b, o in pairs:
        c = compute_course(gmap, p, v, fuel, pend, False, o is not None, b, o, (), False, destroyed_bases, grazing)
        if c.outcome != "normal" or gmap.off_map(c.destination):
            continue
        out.append((b, o, c.destination, c.velocity, tuple(c.pending), c.fuel_spent, tuple(c.contact),
                    hazard_weight(hazard_count(gmap, p, c.destination))))
    return tuple(out)


def quarry_column(our_strength: int, quarry_strength: int) -> int:
    return cb.odds_column(our_strength, quarry_strength)
