"""Two-ply gun tactics for the hard Delta-V tactical bot: the value of ending a move somewhere, from the exact
odds of the Gun Combat Results Table (``combat.result_counts``).

For one candidate course of one of our ships (its contact path, destination and new velocity):

- **gain**: the expected value of the best gun shot it can take at a visible enemy ship right after this move
  (odds of its strength against the target's, range = closest approach of its path to the target's hex,
  velocity modifier, line of sight from the closest-approach hex), and the chance that the shot disables the
  target (a disabled ship cannot fire back nor burn next turn);
- **threat**: for each enemy ship able to fire, the best shot it can take at our ship next turn over *every*
  course it can fly (coast, six burns, and the 36 overloads when it may overload): its path's closest approach
  to our destination, its new velocity against ours, line of sight. The threat of the target we shoot is
  weighted by the chance it is still operational;
- **rams by drifting enemies** (issue 30): an enemy ship that cannot fire and only coasts (disabled, captured,
  out of fuel) drifts into our destination if it is its coasting destination, and both ships roll the ram
  table; the threat is what the ram is expected to cost us beyond what it costs the enemy (never below 0, so
  the gain stays an upper bound of the value). :attr:`Tactics.rams` gives those hexes to the drift guard.

``value = gain - threat`` (in units of a ship's worth, combat factor + 1). Damage is valued by what it does:
a result that reaches 6 disabled turns is the whole ship, any other hit is a share of it plus the tempo of
disabling. Courses of enemy ships depend only on the enemy's state (the map is fixed), so they are memoised by
it (:func:`enemy_courses`), and everything else that depends only on the enemy is computed once per phase
(:class:`Tactics`: ``LevelBot`` keeps one while the enemy side of its view is the same, ``level_bot.tactics_key``,
so the ships of one astrogation phase share it and its memos, keyed by what they read of our ship,
:func:`ship_key`). This module reads states and never changes them.
"""

from __future__ import annotations

from functools import lru_cache

from deltav.games.tactical import combat as cb
from deltav.games.tactical.movement import CRASH, compute_course

Hex = tuple[int, int]
ALL_PAIRS = ((None, None),) + tuple((b, None) for b in range(6)) + tuple((b, o) for b in range(6) for o in range(6))
SINGLE = ALL_PAIRS[:7]


def _dist(a: Hex, b: Hex) -> int:
    q = a[0] - b[0]
    r = a[1] - b[1]
    s = q + r
    return max(q if q >= 0 else -q, r if r >= 0 else -r, s if s >= 0 else -s)


@lru_cache(maxsize=4096)
def hit_value(column: int, penalty: int, target_disabled: int, worth: float) -> tuple[float, float]:
    """(expected value, probability of any damage) of one gun shot at ``column`` with a net ``penalty`` on a
    ship with ``target_disabled`` disabled turns worth ``worth``: elimination counts the whole worth, a D_n hit
    ``worth * (0.35 + 0.1 n)`` (disabled: no fire, no burn next turn)."""
    counts = cb.result_counts(column, penalty)
    val = 0.0
    hit = 0
    for r in range(1, 7):
        n = counts[r]
        if not n:
            continue
        hit += n
        if r >= 6 or target_disabled + r >= 6:
            val += n * worth
        else:
            val += n * worth * (0.35 + 0.1 * r)
    return val / 6.0, hit / 6.0


def can_fire(sh) -> bool:
    """Could this ship fire a gun next time its side acts (ignoring resupply)?"""
    if sh.destroyed or sh.type.defensive or sh.type.combat <= 0 or sh.control != "own":
        return False
    return cb.operational(sh.disabled, sh.type.fires_disabled)


def strength(sh) -> int:
    return cb.effective_strength(sh.type.combat, sh.disabled, sh.type.fires_disabled)


def _enemy_courses(world, e) -> tuple:
    """:func:`enemy_courses` as the memo's tuple (shared: never to be changed)."""
    pairs = SINGLE
    if e.disabled > 0 or e.control != "own" or (e.fuel is not None and e.fuel <= 0):
        pairs = ALL_PAIRS[:1]
    elif e.type.can_overload and not e.overload_used and (e.fuel is None or e.fuel >= 2):
        pairs = ALL_PAIRS
    # fuel enters a course only as unlimited, none, one, or two and more (an overload): the rest is the same
    fuel = e.fuel if e.fuel is None or e.fuel < 2 else 2
    return _courses(world.gmap, e.pos, e.vel, fuel, tuple(e.pending), e.landed,
                    e.type.can_overload and not e.overload_used, len(pairs), frozenset(world.destroyed_bases),
                    world.options["grazing_is_contact"])


def enemy_courses(world, e) -> list[tuple[tuple[Hex, ...], Hex, Hex]]:
    """Every non-crashing course enemy ship ``e`` could fly on its next move, as (contact path, destination,
    velocity); a disabled or captured ship only coasts."""
    return list(_enemy_courses(world, e))


#: :meth:`Tactics.__init__`'s gun table of one shooter's courses, by the identity of :func:`_courses`' answer
#: (held, so its id is not reused) and the shooter's hex: (courses with the reach of each path, reach of all)
_GUNS: dict[tuple, tuple] = {}


def _gun_courses(courses: tuple, pos: Hex) -> tuple:
    key = (id(courses), pos)
    hit = _GUNS.get(key)
    if hit is not None and hit[0] is courses:
        return hit[1]
    bounded = tuple((epath, edest, evel, _reach(edest, epath or (edest,))) for epath, edest, evel in courses)
    reach = max((_dist(pos, edest) + r for _p, edest, _v, r in bounded), default=0)
    if len(_GUNS) >= 4096:
        _GUNS.clear()
    _GUNS[key] = (courses, (bounded, reach))
    return bounded, reach


def _memo(table: tuple) -> dict:
    """The memo table of plain-value keys for ``table`` = (tag, map, destroyed bases, grazing) (:data:`_MEMOS`)."""
    memo = _MEMOS.get(table)
    if memo is None:
        if len(_MEMOS) >= 32:
            _MEMOS.clear()
        memo = _MEMOS[table] = {}
    elif len(memo) >= MEMO_LIMIT:
        memo.clear()
    return memo


#: the tables of the pure functions of this module (:func:`_courses`, :func:`_next_courses`, :func:`flight`), one
#: per function, map, destroyed bases and grazing ruling, keyed by plain values: the map and the set of bases
#: stay out of the keys, which leaves them tuples of numbers that the cyclic garbage collector stops tracking (an
#: lru_cache key holding the map stays tracked, and is walked by every full collection)
_MEMOS: dict = {}
#: entries kept per map before its table is emptied
MEMO_LIMIT = 20_000


def _courses(gmap, pos: Hex, vel: Hex, fuel, pending: tuple[int, ...], landed: bool, can_overload: bool, n: int,
             destroyed_bases: frozenset, grazing: bool) -> tuple:
    """:func:`enemy_courses` of a ship state over the first ``n`` of :data:`ALL_PAIRS`, each distinct course
    once, in order of first appearance (pure: plain values and the fixed map, so the decisions of one turn
    share them; memoised per map)."""
    memo = _memo((0, gmap, destroyed_bases, grazing))
    key = (pos, vel, fuel, pending, landed, can_overload, n)
    got = memo.get(key)
    if got is not None:
        return got
    out = {}
    for b, o in ALL_PAIRS[:n]:
        c = compute_course(gmap, pos, vel, fuel, pending, landed, can_overload, b, o, (), False, destroyed_bases,
                           grazing)
        if c.outcome == CRASH or gmap.off_map(c.destination):
            continue
        if c.outcome == "landing":
            continue  # a landed ship does not fire
        # overloads (b, o) and (o, b), and a burn with its opposite (a coast), end alike: every use of these
        # courses is a maximum over them, so each distinct (path, destination, velocity) is kept once
        out.setdefault((tuple(c.contact), c.destination, c.velocity), None)
    got = memo[key] = tuple(out)
    return got


def _next_courses(gmap, pos: Hex, vel: Hex, pending: tuple[int, ...], can_burn: bool, destroyed_bases: frozenset,
                  grazing: bool) -> tuple:
    """The courses of :meth:`Tactics.follow_up` (coast, and the six burns if ``can_burn``) from a ship state
    that ends normally on the map, as (contact path, destination, velocity), each distinct one once. Fuel only
    decides whether a burn happens (no overload), so a ship that may burn is flown with unlimited fuel.
    Memoised per map."""
    memo = _memo((1, gmap, destroyed_bases, grazing))
    key = (pos, vel, pending, can_burn)
    got = memo.get(key)
    if got is not None:
        return got
    out = {}
    for b in (None, 0, 1, 2, 3, 4, 5) if can_burn else (None,):
        c = compute_course(gmap, pos, vel, None if can_burn else 0, pending, False, False, b, None, (), False,
                           destroyed_bases, grazing)
        if c.outcome != "normal" or gmap.off_map(c.destination):
            continue
        out.setdefault((tuple(c.contact), c.destination, c.velocity), None)
    got = memo[key] = tuple(out)
    return got


#: line of sight per map, memoised: the bodies never move, so (origin, target) decides it (a plain dict keyed by
#: the map: its lookup costs less than a WeakKeyDictionary's, and the maps are a handful of cached objects)
_LOS: dict = {}


def sight(gmap, origin: Hex, target: Hex) -> bool:
    """``combat.line_of_sight`` between two hexes of ``gmap``, memoised per map (the one memo of it for every bot
    module: the gun tactics here and the intercept's shot chances)."""
    memo = _LOS.get(gmap)
    if memo is None or len(memo) > 100_000:
        if len(_LOS) >= 8:
            _LOS.clear()
        memo = _LOS[gmap] = {}
    key = (origin, target)
    got = memo.get(key)
    if got is None:
        got = memo[key] = cb.line_of_sight(origin, target, gmap.surface.__contains__)
    return got


def shot(world, path, pos: Hex, vel: Hex, att_strength: int, target_pos: Hex, target_vel: Hex,
         def_strength: int, target_disabled: int, worth: float, heroic: bool = False,
         ram_worth: float | None = None) -> tuple[float, float]:
    """The (value, hit chance) of a gun shot from a ship that moved along ``path`` to ``pos`` with ``vel``."""
    best = 99
    origin = pos
    tq, tr = target_pos
    for h in path or (pos,):
        # hex distance, inlined (this loop runs for every candidate course against every enemy course)
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
    if best > 4:
        return 0.0, 0.0
    if not sight(world.gmap, origin, target_pos):
        return 0.0, 0.0
    vmod = max(0, _dist(vel, target_vel) - cb.VELOCITY_FREE)
    pen = best + vmod - (1 if heroic else 0)
    if pos == target_pos and ram_worth is not None:
        return ram_then_shot(att_strength, def_strength, pen, target_disabled, worth, ram_worth)
    return hit_value(cb.odds_column(att_strength, def_strength), pen, target_disabled, worth)


#: the ram table (2: D1, 3: D1, 4: D3, 5: D5 after the die's face 1, 2 give nothing): disabled turns per face
RAM = (0, 0, 1, 1, 3, 5)
#: the chance that one roll of the ram table damages the ship (4 faces of 6)
RAM_DAMAGE_CHANCE = sum(1 for t in RAM if t) / 6.0


@lru_cache(maxsize=4096)
def ram_then_shot(att_strength: int, def_strength: int, pen: int, target_disabled: int, worth: float,
                  att_worth: float) -> float:
    """Value for the mover of ending in an enemy's hex: both ships roll the ram table, then the mover fires
    if still operational (at the last odds column if the ram disabled the target); its own ram damage counts
    against it."""
    total = 0.0
    for a in RAM:  # the mover's ram damage
        for t in RAM:  # the target's
            v = 0.0
            if t:
                v += worth if target_disabled + t >= 6 else worth * (0.35 + 0.1 * t)
            if a:
                v -= att_worth * (0.35 + 0.1 * a)
            else:
                col = cb.odds_column(att_strength, 0 if (t or target_disabled) else def_strength)
                v += hit_value(col, pen, target_disabled + t, worth)[0] * (0.0 if target_disabled + t >= 6 else 1.0)
            total += v
    return total / 36.0, 0.0


def _ram_damage(disabled: int, worth: float) -> float:
    """The expected value lost by a ship with ``disabled`` turns worth ``worth`` to one roll of the ram table."""
    v = 0.0
    for t in RAM:
        if t:
            v += worth if disabled + t >= 6 else worth * (0.35 + 0.1 * t)
    return v / 6.0


@lru_cache(maxsize=1024)
def ram_loss_beyond(disabled: int, worth: float) -> float:
    """What a ram costs a ship whose drift then crashes beyond what :func:`ram_then_shot` and
    :func:`rammed_cost` count: any damage disables it, and a disabled ship drifting into a body is lost whole,
    not the part ``worth * (0.35 + 0.1 n)`` of a D_n (issue 30)."""
    return max(0.0, worth * RAM_DAMAGE_CHANCE - _ram_damage(disabled, worth))


@lru_cache(maxsize=1024)
def rammed_cost(my_disabled: int, my_worth: float, their_disabled: int, their_worth: float) -> float:
    """What an enemy ship drifting into our hex costs us: both roll the ram table; our expected loss beyond the
    enemy's, never below 0."""
    return max(0.0, _ram_damage(my_disabled, my_worth) - _ram_damage(their_disabled, their_worth))


#: gun range: a shot whose closest approach is farther than this is worth nothing
GUN_RANGE = 4
#: no penalty yet (greater than any real one)
NO_SHOT = 1 << 30


def _reach(anchor: Hex, hexes) -> int:
    """The farthest any of ``hexes`` lies from ``anchor``: a target farther than ``GUN_RANGE`` plus this from
    ``anchor`` is out of gun range of all of them (triangle inequality)."""
    best = 0
    for h in hexes:
        d = _dist(anchor, h)
        if d > best:
            best = d
    return best


def ship_key(sh) -> tuple:
    """Everything of our ship that :meth:`Tactics.gain`, :meth:`Tactics.value`, :meth:`Tactics.follow_up_bound`
    and the drift guard's exposure (``level_bot._exposure``) read of it: whether it can fire, its strength,
    combat factor (its worth), disabled turns, heroism and owner. Two ships with the same key get the same
    values from them for the same course."""
    return (can_fire(sh), strength(sh), sh.type.combat, sh.disabled, bool(sh.heroic), sh.owner)


class Tactics:
    """The threat model of one phase (``LevelBot._tactics_of`` keeps it while the enemy side of the view is the
    same): the visible enemy ships and every course each can fly next.

    Everything that depends only on the enemy is computed once here, not once per candidate course: each
    shooter's courses with how far their paths reach (so that a candidate out of gun range of all of them, or
    of one course, is skipped without a shot: exact, those shots are worth 0), its ordnance flights (nuke and
    every torpedo launch) and the flights of the ordnance already on the map."""

    def __init__(self, world, player: int):
        self.world = world
        self.player = player
        self.enemies = [e for e in world.ships if e.owner != player and not e.destroyed and not e.landed
                        and world.visible(e, player)]
        self.shooters = []
        #: per shooter: (ship, strength, worth, reach of all its paths from its hex,
        #: ((path, destination, velocity, reach of the path from the destination), ...))
        self._guns = []
        #: the visible landed enemy ships that can take off and fire next turn, with their courses: no targets
        #: and not in :meth:`value` (hard waited on its bases for ever, turn-limit draws), but the drift guard's
        #: exposure counts their guns (``heuristics.gun_threat``; issue 30: Fleet Action's Venus frigates took
        #: off beside two Mars frigates landed on a Venus base, were disabled and fell into Venus)
        self.landed_shooters = [(e, list(_enemy_courses(world, e))) for e in world.ships
                                if e.owner != player and not e.destroyed and e.landed and world.visible(e, player)
                                and can_fire(e)]
        for e in self.enemies:
            if can_fire(e):
                courses = _enemy_courses(world, e)
                self.shooters.append((e, list(courses)))
                bounded, reach = _gun_courses(courses, e.pos)
                self._guns.append((e, strength(e), e.type.combat + 1.0, reach, bounded))
        self._ordnance: dict[str, tuple] = {}
        self._in_flight = None
        self._follow: dict = {}
        #: per :func:`ship_key` of our ship: the memo tables of ``LevelBot._tactics`` (the shot now, the value,
        #: the follow-up bound and the exposure of each course end): what they give depends on the enemy side
        #: (this object) and on our ship only through that key, so the ships of one phase share them
        self._memos: dict[tuple, tuple] = {}
        #: where each visible enemy will be if it coasts its next move (target of the follow-up shot)
        self.drifts = []
        for e in self.enemies:
            if not e.detected and world.options["fog_of_war"]:
                continue
            c = compute_course(world.gmap, e.pos, e.vel, 0, e.pending, False, False, None)
            if c.outcome == CRASH:
                continue
            self.drifts.append((e, c.destination, c.velocity))
        #: coasting destination -> the enemy ships that cannot fire and only coast, which will drift there
        #: (and ram a ship ending its move there)
        self.rams: dict[Hex, list] = {}
        for e, edest, _v in self.drifts:
            if not can_fire(e) and (e.disabled > 0 or e.control != "own" or (e.fuel is not None and e.fuel <= 0)):
                self.rams.setdefault(edest, []).append(e)

    def follow_up(self, sh, dest: Hex, vel: Hex, pending: tuple[int, ...], fuel) -> float:
        """The best shot our ship could take next turn (coasting or one burn from this course's end) at an
        enemy that coasts meanwhile: the third ply, so that a pursuer matches course with its quarry.

        Memoised per decision by what decides it (courses of one ship ending alike share it: fuel only says
        whether it may burn), and valued at the smallest penalty per target as in :meth:`_gun_threat` (no
        ram: the target has not moved yet when we fire)."""
        if not self.drifts or not can_fire(sh):
            return 0.0
        # every hex of next turn's path lies within its length of ``dest``: velocity, one burn, pending gravity
        span = max(abs(vel[0]), abs(vel[1]), abs(vel[0] + vel[1])) + 1 + len(pending)
        if all(_dist(dest, epos) > GUN_RANGE + span for _e, epos, _v in self.drifts):
            return 0.0
        can_burn = (fuel is None or fuel > 0) and not sh.disabled
        my_str = strength(sh)
        heroic = 1 if sh.heroic else 0
        # what the shot depends on of our ship (not its id: the ships of one phase share the memo)
        key = (my_str, heroic, dest, vel, pending, can_burn)
        got = self._follow.get(key)
        if got is not None:
            return got
        world = self.world
        courses = _next_courses(world.gmap, dest, vel, pending, can_burn, frozenset(world.destroyed_bases),
                                world.options["grazing_is_contact"])
        best = 0.0
        limit = GUN_RANGE + span
        for e, epos, evel in self.drifts:
            if _dist(dest, epos) > limit:
                continue  # out of range of every path of next turn (as the test above, per enemy: exact)
            tq, tr = epos
            vq, vr = evel
            min_pen = NO_SHOT
            for path, cdest, cvel in courses:
                # the closest approach of the path to the target's hex (first such hex), as in shot()
                dmin = 99
                origin = cdest
                for h in path or (cdest,):
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
                    if d < dmin:
                        dmin, origin = d, h
                if dmin > GUN_RANGE:
                    continue
                q = cvel[0] - vq
                r = cvel[1] - vr
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
                pen = dmin + (d if d > 0 else 0) - heroic
                if pen < min_pen and sight(world.gmap, origin, epos):
                    min_pen = pen
            if min_pen != NO_SHOT:
                v = hit_value(cb.odds_column(my_str, strength(e)), min_pen, e.disabled, e.type.combat + 1.0)[0]
                if v > best:
                    best = v
        self._follow[key] = best
        return best

    def memos(self, sh) -> tuple:
        """The memo tables (gains, values, follow-up bounds, exposures) of our ship ``sh``'s courses, shared by
        every ship of ours with the same :func:`ship_key` deciding with this object."""
        key = ship_key(sh)
        got = self._memos.get(key)
        if got is None:
            got = self._memos[key] = ({}, {}, {}, {})
        return got

    def follow_up_bound(self, sh, dest: Hex, vel: Hex, pending: tuple[int, ...]) -> float:
        """An upper bound of :meth:`follow_up` from cheap distances: every hex of next turn's paths lies within
        its length (speed, one burn, pending gravity) of ``dest``, so each enemy's shot has at least the penalty
        of that range; next turn's velocity differs from ``vel`` by one burn and the pending gravity, so its
        velocity modifier is at least that of ``vel`` less as many hexes (issue 30, third pass: the bound that
        left fewer courses to finish); and a shot's value only falls as its penalty grows."""
        if not self.drifts or not can_fire(sh):
            return 0.0
        turn = 1 + len(pending)
        span = max(abs(vel[0]), abs(vel[1]), abs(vel[0] + vel[1])) + turn
        slack = turn + cb.VELOCITY_FREE
        my_str = strength(sh)
        heroic = 1 if sh.heroic else 0
        best = 0.0
        for e, epos, evel in self.drifts:
            d = _dist(dest, epos) - span
            if d > GUN_RANGE:
                continue
            dv = _dist(vel, evel) - slack
            pen = (d if d > 0 else 0) + (dv if dv > 0 else 0) - heroic
            v = hit_value(cb.odds_column(my_str, strength(e)), pen, e.disabled, e.type.combat + 1.0)[0]
            if v > best:
                best = v
        return best

    def gain(self, sh, path, dest: Hex, vel: Hex, lands: bool) -> tuple[float, dict]:
        """The best gun shot our ship ``sh`` can take right after this move (its value), with the chance it
        disables its target (by target id): the first half of :meth:`value`, an upper bound of it."""
        world = self.world
        gain = 0.0
        p_dis: dict[str, float] = {}
        if not lands and can_fire(sh) and world.rules.combat:
            my_worth = sh.type.combat + 1.0
            my_str = strength(sh)
            best = (0.0, None, 0.0)
            # every hex of the path lies within ``reach`` of ``dest``: an enemy farther than GUN_RANGE + reach
            # from it is out of range of the whole path (its shot is worth 0 and never the best: exact)
            reach = _reach(dest, path) if path else 0
            limit = GUN_RANGE + reach
            for e in self.enemies:
                if not e.detected or _dist(dest, e.pos) > limit:
                    continue
                v, hit = shot(world, path, dest, vel, my_str, e.pos, e.vel, strength(e), e.disabled,
                              e.type.combat + 1.0, sh.heroic, my_worth)
                if dest == e.pos:
                    hit = 4.0 / 6.0
                if v > best[0]:
                    best = (v, e.id, hit)
            gain = best[0]
            if best[1] is not None:
                p_dis[best[1]] = best[2]
        return gain, p_dis

    def value(self, sh, path, dest: Hex, vel: Hex, lands: bool, gained: tuple | None = None) -> float:
        """gain - threat of our ship ``sh`` ending its move at ``dest`` with ``vel`` along ``path`` (``gained``:
        :meth:`gain` of the same course, if already known)."""
        world = self.world
        my_worth = sh.type.combat + 1.0
        my_str = strength(sh)
        gain, p_dis = gained if gained is not None else self.gain(sh, path, dest, vel, lands)
        threat = 0.0
        if not lands and world.rules.combat:
            mine = frozenset(path[1:]) if len(path) >= 2 else None
            # a ship is lost only once: the replies of several enemies combine as independent chances of the
            # loss of our worth (their sum overvalued any course that silences one of them, as a ram under
            # three frigates' torpedoes; issue 30); one reply is its own value, as before
            terms = 0
            keep = 1.0
            for e, es, eworth, reach, courses in self._guns:
                worst = 0.0
                if _dist(e.pos, dest) <= GUN_RANGE + reach:
                    worst = self._gun_threat(e, es, eworth, courses, dest, vel, my_str, sh.disabled, my_worth)
                if worst < my_worth:
                    worst = max(worst, self._ordnance_threat(e, mine, dest, sh.disabled, my_worth))
                t = worst * (1.0 - p_dis.get(e.id, 0.0))
                if t > 0.0:
                    terms += 1
                    threat = t
                    keep *= 1.0 - min(t, my_worth) / my_worth
            if terms > 1:
                threat = my_worth * (1.0 - keep)
        if not lands:
            threat += self._ordnance_hazard(path, dest, sh.disabled, my_worth)
            rammers = self.rams.get(dest) if self.rams else None
            if rammers:
                for e in rammers:
                    threat += rammed_cost(sh.disabled, my_worth, e.disabled, e.type.combat + 1.0)
        return gain - threat

    def _gun_threat(self, e, es: int, eworth: float, courses, dest: Hex, vel: Hex, my_str: int, my_disabled: int,
                    my_worth: float) -> float:
        """The best gun shot enemy ``e`` (strength ``es``, worth ``eworth``) can take at our ship at ``dest``
        with ``vel`` over its ``courses`` (path, destination, velocity, reach of the path): the maximum of
        :func:`shot` over them, computed exactly with less work. A shot's value only falls as its penalty grows
        (:func:`hit_value` is non-increasing in the penalty for every column, damage and worth; checked over the
        whole table by tests/tactical), so of the courses that do not ram us only the one with the smallest
        penalty (range + velocity modifier - heroism) and line of sight needs valuing; the line of sight of a
        course is only looked at when its penalty would be a new smallest. A course ending in our hex rams, and
        is valued as :func:`shot` does (:func:`ram_then_shot`)."""
        world = self.world
        heroic = 1 if e.heroic else 0
        tq, tr = dest
        vq, vr = vel
        worst = 0.0
        min_pen = NO_SHOT
        for epath, edest, evel, r in courses:
            # _dist(edest, dest) > GUN_RANGE + r: out of range of every hex of this path (the shot is worth 0)
            q = edest[0] - tq
            rr = edest[1] - tr
            d = q + rr
            if d < 0:
                d = -d
            if q < 0:
                q = -q
            if rr < 0:
                rr = -rr
            if q > d:
                d = q
            if rr > d:
                d = rr
            if d > GUN_RANGE + r:
                continue
            # the closest approach of the path to our hex (first such hex), as in shot()
            best = 99
            origin = edest
            for h in epath or (edest,):
                q = h[0] - tq
                rr = h[1] - tr
                d = q + rr
                if d < 0:
                    d = -d
                if q < 0:
                    q = -q
                if rr < 0:
                    rr = -rr
                if q > d:
                    d = q
                if rr > d:
                    d = rr
                if d < best:
                    best, origin = d, h
            if best > GUN_RANGE:
                continue
            q = evel[0] - vq
            rr = evel[1] - vr
            d = q + rr
            if d < 0:
                d = -d
            if q < 0:
                q = -q
            if rr < 0:
                rr = -rr
            if q > d:
                d = q
            if rr > d:
                d = rr
            d -= cb.VELOCITY_FREE
            pen = best + (d if d > 0 else 0) - heroic
            if edest == dest:
                if sight(world.gmap, origin, dest):
                    v = ram_then_shot(es, my_str, pen, my_disabled, my_worth, eworth)[0]
                    if v > worst:
                        worst = v
            elif pen < min_pen and sight(world.gmap, origin, dest):
                min_pen = pen
        if min_pen != NO_SHOT:
            v = hit_value(cb.odds_column(es, my_str), min_pen, my_disabled, my_worth)[0]
            if v > worst:
                worst = v
        return worst

    def _flights(self, e) -> tuple:
        """(nuke flight or None, hexes of every torpedo flight or None) of enemy ship ``e`` launching next turn,
        as :func:`ordnance_threat` flies them."""
        got = self._ordnance.get(e.id)
        if got is not None:
            return got
        from deltav.games.tactical import ordnance_tables as ot

        world = self.world
        nuke = torps = None
        if not (e.destroyed or e.landed or e.control != "own" or not cb.operational(e.disabled,
                                                                                   e.type.fires_disabled)):
            allowed = world.rules.allowed_ordnance
            cap = e.type.cargo
            free = None if cap is None else cap - e.cargo_used - e.passengers
            gmap = world.gmap
            grazing = world.options["grazing_is_contact"]
            if "nuke" in allowed and (free is None or free >= ot.ordnance_mass("nuke")) and (
                    e.type.warship or e.nukes < 1):
                nuke = tuple(h for h in flight(gmap, e.pos, e.vel, grazing) if h != e.pos)
            if "torpedo" in allowed and e.type.torpedoes and (free is None or free >= ot.ordnance_mass("torpedo")):
                torps = torpedo_hexes(gmap, e.pos, e.vel, grazing)
        got = self._ordnance[e.id] = (nuke, torps)
        return got

    def _ordnance_threat(self, e, mine, my_pos: Hex, my_disabled: int, my_worth: float) -> float:
        """:func:`ordnance_threat` from the flights computed once per enemy; ``mine`` the hexes our last move
        entered (None if it did not move: then only our hex counts)."""
        nuke, torps = self._flights(e)
        worst = 0.0
        if nuke is not None:
            for h in nuke:
                if (h in mine) if mine is not None else (h == my_pos):
                    if h == my_pos:
                        worst = my_worth
                    break
        if worst < my_worth and torps is not None and (
                (not torps.isdisjoint(mine)) if mine is not None else (my_pos in torps)):
            worst = max(worst, ordnance_hit_value("torpedo", my_disabled, my_worth))
        return worst

    def _ordnance_hazard(self, path, pos: Hex, disabled: int, worth: float) -> float:
        """:func:`ordnance_hazard` with the flights of the ordnance on the map computed once."""
        world = self.world
        if not world.ordnance:
            return 0.0
        if self._in_flight is None:
            self._in_flight = _ordnance_flights(world)
        loss = 0.0
        for o, hexes in self._in_flight:
            if len(path) >= 2 and o.pos in path[1:]:
                loss += ordnance_hit_value(o.kind, disabled, worth) if (o.kind != "nuke" or o.pos == pos) else 0.0
                continue
            for i, h in enumerate(hexes):
                if i == 0 and o.owner == self.player:
                    continue
                if in_hex(path, pos, h):
                    if o.kind != "nuke" or h == pos:
                        loss += ordnance_hit_value(o.kind, disabled, worth)
                    break
        return loss


# --- ordnance: exact flights of this player-turn -------------------------------------------------------------

#: chance that a torpedo (2-6: D1 D1 D1 D2 D3) or a mine (5-6: D2) damages a ship it meets
TORPEDO_DAMAGE = ((2, 1), (3, 1), (4, 1), (5, 2), (6, 3))
MINE_DAMAGE = ((5, 2), (6, 2))


def ordnance_hit_value(kind: str, target_disabled: int, worth: float) -> float:
    """Expected value of one item of ordnance meeting a ship (a nuke destroys it)."""
    if kind == "nuke":
        return worth
    table = TORPEDO_DAMAGE if kind == "torpedo" else MINE_DAMAGE
    val = 0.0
    for _die, n in table:
        val += worth if target_disabled + n >= 6 else worth * (0.35 + 0.1 * n)
    return val / 6.0


def flight(gmap, start: Hex, vel: Hex, grazing: bool = False) -> tuple[Hex, ...]:
    """The contact hexes (start included) of ordnance launched now from ``start`` with ``vel``, cut where a
    body, an asteroid or a base would stop it (a nuke detonates in the hex before a body: the caller sees the
    cut). Memoised per map: a pure function of plain values and the fixed map."""
    memo = _memo((2, gmap, None, grazing))
    key = (start, vel)
    got = memo.get(key)
    if got is not None:
        return got
    from deltav.games.tactical.movement import _contact

    dest = (start[0] + vel[0], start[1] + vel[1])
    _definite, contact = _contact(start, dest, grazing)
    out = []
    for h in contact:
        if h in gmap.surface:
            break
        out.append(h)
        if h in gmap.asteroids or h in gmap.base:
            break
    got = memo[key] = tuple(out)
    return got


def torpedo_hexes(gmap, start: Hex, vel: Hex, grazing: bool = False) -> frozenset:
    """Every hex of every torpedo flight launched now from ``start`` by a ship with ``vel`` (each legal boost),
    as a frozenset. Memoised per map, like :func:`flight` (the decisions of one turn ask it for every enemy)."""
    memo = _memo((3, gmap, None, grazing))
    key = (start, vel)
    got = memo.get(key)
    if got is not None:
        return got
    from deltav.games.tactical import ordnance_tables as ot

    hexes = set()
    for d, k in ot.torpedo_boost_options():
        hexes.update(flight(gmap, start, ot.launch_velocity(vel, d, k), grazing))
    got = memo[key] = frozenset(hexes)
    return got


def in_hex(path, pos: Hex, h: Hex) -> bool:
    """The engine's ordnance-contact test (ordnance._in_hex): a ship that moved is in the hexes its last move
    entered, one that did not is in its own hex."""
    if len(path) >= 2:
        return h in path[1:]
    return pos == h


def enemy_hexes(world, player: int, kind: str) -> frozenset:
    """Every hex where :func:`launch_value` finds an enemy ship for ordnance of ``kind`` (:func:`in_hex` of each
    visible enemy ship: the hexes its last move entered, or its own hex if it did not move; landed ships only
    for a nuke): :func:`meets_enemy` of every launch of a decision asks this one set."""
    out = set()
    for e in world.ships:
        if e.owner != player and not e.destroyed and world.visible(e, player) and (kind == "nuke" or not e.landed):
            if len(e.path) >= 2:
                out.update(e.path[1:])
            else:
                out.add(e.pos)
    return frozenset(out)


def meets_enemy(world, player: int, launcher, kind: str, vel: Hex, hexes_of_enemies: frozenset | None = None) -> bool:
    """Does the flight of ``kind`` launched from ``launcher`` with ``vel`` this ordnance phase pass a hex where
    :func:`launch_value` finds an enemy ship? If not, that value is at most 0 (nothing gained; our own ships
    met cost). ``hexes_of_enemies``: :func:`enemy_hexes` of the same world, player and kind, if known."""
    hexes = flight(world.gmap, launcher.pos, vel, world.options["grazing_is_contact"])
    if hexes_of_enemies is not None:
        return not hexes_of_enemies.isdisjoint(hexes)
    for e in world.ships:
        if e.owner != player and not e.destroyed and world.visible(e, player) and (kind == "nuke" or not e.landed):
            for h in hexes:
                if in_hex(e.path, e.pos, h):
                    return True
    return False


def launch_value(world, player: int, launcher, kind: str, vel: Hex, own_paths: dict) -> float:
    """Expected value of launching ``kind`` from ``launcher`` (pre-move hex) with ``vel`` this ordnance phase:
    the item flies in this movement phase, after our ships moved (``own_paths``: ship id -> (new path,
    new position)), and goes off at the first hex holding a ship (our own ones too)."""
    gmap = world.gmap
    hexes = flight(gmap, launcher.pos, vel, world.options["grazing_is_contact"])
    # the ships the item may meet, in the state's order (what does not depend on the hex, tested once)
    theirs = [e for e in world.ships if e.owner != player and not e.destroyed and world.visible(e, player)
              and (kind == "nuke" or not e.landed)]
    ours = [(s, *own_paths.get(s.id, (s.path, s.pos))) for s in world.ships
            if s.owner == player and not s.destroyed and s.id != launcher.id]
    for i, h in enumerate(hexes):
        enemies = [e for e in theirs if in_hex(e.path, e.pos, h)]
        own = [s for s, path, pos in ours if in_hex(path, pos, h)] if i > 0 else []
        if not enemies and not own:
            continue
        if kind == "nuke":
            # the blast destroys every ship in the hex, the launcher included
            gain = sum(e.type.combat + 1.0 for e in enemies if e.pos == h)
            loss = sum(s.type.combat + 1.0 for s in world.ships if s.owner == player and not s.destroyed
                       and own_paths.get(s.id, (None, s.pos))[1] == h)
            return gain - 2.0 * loss
        if own:
            return -1.0
        if kind == "torpedo":
            e = enemies[0]
            return ordnance_hit_value(kind, e.disabled, e.type.combat + 1.0)
        return sum(ordnance_hit_value(kind, e.disabled, e.type.combat + 1.0) for e in enemies)
    return 0.0


def ordnance_threat(world, e, my_path, my_pos: Hex, my_disabled: int, my_worth: float) -> float:
    """The worst an enemy ship's launch next turn does to our ship (after our move along ``my_path`` to
    ``my_pos``): a nuke whose flight ends at our hex destroys it; a torpedo meeting our path damages it."""
    from deltav.games.tactical import ordnance_tables as ot

    if e.destroyed or e.landed or e.control != "own" or not cb.operational(e.disabled, e.type.fires_disabled):
        return 0.0
    allowed = world.rules.allowed_ordnance
    cap = e.type.cargo
    free = None if cap is None else cap - e.cargo_used - e.passengers
    worst = 0.0
    gmap = world.gmap
    grazing = world.options["grazing_is_contact"]
    if "nuke" in allowed and (free is None or free >= ot.ordnance_mass("nuke")) and (
            e.type.warship or e.nukes < 1):
        for h in flight(gmap, e.pos, e.vel, grazing):
            if h == e.pos:
                continue
            if in_hex(my_path, my_pos, h):
                if h == my_pos:
                    worst = my_worth
                break
    if worst < my_worth and "torpedo" in allowed and e.type.torpedoes and (
            free is None or free >= ot.ordnance_mass("torpedo")):
        for d, k in ot.torpedo_boost_options():
            v = ot.launch_velocity(e.vel, d, k)
            for h in flight(gmap, e.pos, v, grazing):
                if in_hex(my_path, my_pos, h):
                    worst = max(worst, ordnance_hit_value("torpedo", my_disabled, my_worth))
                    break
    return worst


def _ordnance_flights(world) -> list:
    """Every live item of ordnance on the map with the contact hexes of its next flight."""
    from deltav.core.hexgrid import DIRECTIONS

    gmap = world.gmap
    grazing = world.options["grazing_is_contact"]
    out = []
    for o in world.ordnance:
        if o.destroyed:
            continue
        q, r = o.pos[0] + o.vel[0], o.pos[1] + o.vel[1]
        for d in o.pending:
            q += DIRECTIONS[d][0]
            r += DIRECTIONS[d][1]
        out.append((o, flight(gmap, o.pos, (q - o.pos[0], r - o.pos[1]), grazing)))
    return out


def ordnance_hazard(world, player: int, path, pos: Hex, disabled: int, worth: float) -> float:
    """Expected loss from ordnance already in flight for our ship moving along ``path`` to ``pos``: items it
    walks into now, our own items flying on after our move, and enemy items flying on the enemy's next move."""
    if not world.ordnance:
        return 0.0
    loss = 0.0
    for o, hexes in _ordnance_flights(world):
        if len(path) >= 2 and o.pos in path[1:]:
            loss += ordnance_hit_value(o.kind, disabled, worth) if (o.kind != "nuke" or o.pos == pos) else 0.0
            continue
        for i, h in enumerate(hexes):
            if i == 0 and o.owner == player:
                continue
            if in_hex(path, pos, h):
                if o.kind != "nuke" or h == pos:
                    loss += ordnance_hit_value(o.kind, disabled, worth)
                break
    return loss
