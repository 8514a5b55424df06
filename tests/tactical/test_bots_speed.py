"""The hard tactical bot's speed-ups must not change a decision (issue 15): the exact branch and bound over
courses (``LevelBot._tactics``) against the plain evaluation of every course, the bounds it relies on
(``Tactics.gain`` and ``Tactics.follow_up_bound`` never below what they bound), the per-decision ordnance
flights against the module functions, the memos keyed by plain values (planner expansions, enemy courses)
against cold computations, and a ship's previews computed together (overloads sharing one) against one by one."""

from __future__ import annotations

import pytest

from deltav.core.agent import Agent
from deltav.core.match import play_match
from deltav.core.protocol import Decision
from deltav.games.tactical.bots import routes
from deltav.games.tactical.bots.heuristics import preview_pending
from deltav.games.tactical.bots.level_bot import LevelBot
from deltav.games.tactical.bots.routes import drift_safe, plan_route
from deltav.games.tactical.bots.tactics import (
    ALL_PAIRS,
    Tactics,
    can_fire,
    enemy_courses,
    hit_value,
    ordnance_hazard,
    ordnance_threat,
    shot,
    strength,
)
from deltav.games.tactical.mapdata import default_map
from deltav.games.tactical.messages import Order
from deltav.games.tactical.movement import CRASH, compute_course, speed
from deltav.games.tactical.preview import preview_course, preview_courses

from .helpers import GAME, new_state, place

M = default_map()


class Unbounded(LevelBot):
    """The hard bot scoring every course in full (the evaluation before the branch and bound)."""

    def _tactics(self, world, player, sh, tac, previews, scores):
        k = self.knobs
        w = k.tactics
        for o, pv in previews:
            if scores[o] > -10_000:
                scores[o] += w * tac.value(sh, pv.contact, pv.destination, pv.velocity, pv.lands)
        for o, pv in previews:
            if scores[o] > -10_000 and not pv.lands and k.follow_up:
                scores[o] += w * self.follow_up_weight(world, player) * tac.follow_up(
                    sh, pv.destination, pv.velocity, preview_pending(pv), pv.fuel_after)
        guard = k.drift_guard
        if guard and tac.shooters and not sh.disabled:
            for o, pv in previews:
                if scores[o] > -10_000 and not pv.lands and not drift_safe(
                        world.gmap, pv.destination, pv.velocity, preview_pending(pv), 3, extend=True):
                    scores[o] -= guard


class Twin(Agent):
    """Plays the hard bot and asks the unbounded one the same question (same view, a clone of the same rng);
    counts the astrogation orders where they disagree."""

    def __init__(self):
        self.bot = LevelBot("hard", strict=True)
        self.ref = Unbounded("hard", strict=True)
        self.name = "twin"
        self.orders = 0
        self.differ = 0
        self.worlds: list = []

    def act(self, d: Decision):
        twin = Decision(d.game, d.player, d.view, d.legal_actions, d.rng.clone(), d.options)
        a = self.bot.act(d)
        b = self.ref.act(twin)
        if isinstance(a, Order):
            self.orders += 1
            self.differ += a != b
            if len(self.worlds) < 40:
                self.worlds.append((d.player, twin.sample_world(twin.rng.clone()), a.ship))
        return a


@pytest.mark.parametrize("scenario", ["duel", "fleet_action", "escape", "convoy"])
def test_branch_and_bound_chooses_what_the_full_evaluation_chooses(scenario):
    orders = differ = 0
    for seed in range(4):
        seats = [Twin(), Twin()]
        play_match(GAME, {"scenario": scenario, "turn_limit": 10}, seed, seats)
        orders += sum(t.orders for t in seats)
        differ += sum(t.differ for t in seats)
    assert orders >= 20
    assert differ == 0


def _courses_of(world, player, sid):
    sh = world.ship(sid)
    out = []
    for a in world.legal_actions(player):
        if isinstance(a, Order) and a.ship == sid:
            pv = preview_course(world, sid, a)
            if not pv.crashes:
                out.append(pv)
    return sh, out


def test_bounds_are_never_below_what_they_bound():
    seats = [Twin(), Twin(), Twin(), Twin()]
    play_match(GAME, {"scenario": "duel", "turn_limit": 10}, 8, seats[:2])
    play_match(GAME, {"scenario": "fleet_action", "turn_limit": 6}, 1, seats[2:])
    checked = 0
    for t in seats:
        for player, world, sid in t.worlds:
            tac = Tactics(world, player)
            if not tac.enemies:
                continue
            sh, pvs = _courses_of(world, player, sid)
            for pv in pvs:
                pend = preview_pending(pv)
                gained = tac.gain(sh, pv.contact, pv.destination, pv.velocity, pv.lands)
                assert tac.value(sh, pv.contact, pv.destination, pv.velocity, pv.lands) <= gained[0] + 1e-12
                assert tac.value(sh, pv.contact, pv.destination, pv.velocity, pv.lands, gained) == tac.value(
                    sh, pv.contact, pv.destination, pv.velocity, pv.lands)
                if not pv.lands:
                    f = tac.follow_up(sh, pv.destination, pv.velocity, pend, pv.fuel_after)
                    assert f <= tac.follow_up_bound(sh, pv.destination, pv.velocity, pend) + 1e-12
                checked += 1
    assert checked > 100


def _follow_up_by_shots(tac, sh, dest, vel, pending, fuel):
    """Tactics.follow_up as first written: every next-turn course at its real fuel, a shot at every drift."""
    world = tac.world
    if not tac.drifts or not can_fire(sh):
        return 0.0
    best = 0.0
    for b in (None, 0, 1, 2, 3, 4, 5) if (fuel is None or fuel > 0) and not sh.disabled else (None,):
        c = compute_course(world.gmap, dest, vel, fuel, pending, False, False, b, None, (), False,
                           world.destroyed_bases, world.options["grazing_is_contact"])
        if c.outcome != "normal" or world.gmap.off_map(c.destination):
            continue
        for e, epos, evel in tac.drifts:
            v, _ = shot(world, c.contact, c.destination, c.velocity, strength(sh), epos, evel, strength(e),
                        e.disabled, e.type.combat + 1.0, sh.heroic, None)
            best = max(best, v)
    return best


def test_follow_up_is_the_best_shot_over_next_turns_courses():
    seats = [Twin(), Twin(), Twin(), Twin()]
    play_match(GAME, {"scenario": "duel", "turn_limit": 10}, 3, seats[:2])
    play_match(GAME, {"scenario": "escape", "turn_limit": 8}, 2, seats[2:])
    checked = hits = 0
    for t in seats:
        for player, world, sid in t.worlds:
            tac = Tactics(world, player)
            sh, pvs = _courses_of(world, player, sid)
            for pv in pvs:
                if pv.lands:
                    continue
                pend = preview_pending(pv)
                for fuel in {pv.fuel_after, 0, 1, None}:
                    want = _follow_up_by_shots(tac, sh, pv.destination, pv.velocity, pend, fuel)
                    assert tac.follow_up(sh, pv.destination, pv.velocity, pend, fuel) == want
                    assert tac.follow_up(sh, pv.destination, pv.velocity, pend, fuel) == want  # memoised
                    checked += 1
                    hits += want > 0
    assert checked > 200 and hits > 20


def test_ordnance_threat_and_hazard_from_the_flights_computed_once():
    s = new_state("duel")
    place(s, "p0s0", (10, 0), vel=(1, -1), fuel=20)
    place(s, "p1s0", (13, -3), vel=(-1, 0), fuel=20, detected=True)
    s.active_player = 0
    tac = Tactics(s, 0)
    me = s.ship("p0s0")
    e = s.ship("p1s0")
    n = 0
    for b, o in ALL_PAIRS:
        c = compute_course(M, me.pos, me.vel, me.fuel, (), False, True, b, o)
        if c.outcome == CRASH:
            continue
        path = tuple(c.contact)
        mine = frozenset(path[1:]) if len(path) >= 2 else None
        for dis in (0, 2):
            want = ordnance_threat(s, e, path, c.destination, dis, 9.0)
            assert tac._ordnance_threat(e, mine, c.destination, dis, 9.0) == want
            n += want > 0
        assert tac._ordnance_hazard(path, c.destination, 0, 9.0) == ordnance_hazard(s, 0, path, c.destination, 0,
                                                                                    9.0)
    assert n > 0  # some courses do meet the frigate's torpedoes or its nuke


@pytest.mark.parametrize("fuel", [0, 1, 2, 7, None])
def test_enemy_courses_memo_matches_a_cold_computation(fuel):
    s = new_state("duel")
    place(s, "p1s0", (13, -3), vel=(-1, 1), fuel=fuel, detected=True)
    e = s.ship("p1s0")
    got = enemy_courses(s, e)
    pairs = ALL_PAIRS[:1] if fuel is not None and fuel <= 0 else (
        ALL_PAIRS if e.type.can_overload and (fuel is None or fuel >= 2) else ALL_PAIRS[:7])
    want = []
    for b, o in pairs:
        c = compute_course(M, e.pos, e.vel, fuel, (), False, e.type.can_overload, b, o)
        course = (tuple(c.contact), c.destination, c.velocity)
        if c.outcome not in (CRASH, "landing") and not M.off_map(c.destination) and course not in want:
            want.append(course)  # each distinct course once, in order of first appearance
    assert got == want
    assert enemy_courses(s, e) == want  # from the memo
    if fuel is None or fuel >= 2:
        assert len(want) < len(pairs) - 10  # (b, o) and (o, b) end alike, and so do opposite burns and a coast


def test_gun_table_kept_across_decisions_matches_a_cold_one():
    # Tactics keeps each shooter's courses with their reaches by the memo's answer and the shooter's hex: a
    # second decision (another of our ships) and a moved shooter both read what a cold computation gives
    s = new_state("duel")
    place(s, "p0s0", (10, 0), vel=(1, -1), fuel=20)
    place(s, "p1s0", (13, -3), vel=(-1, 0), fuel=20, detected=True)
    s.active_player = 0
    for pos in ((13, -3), (13, -3), (12, -1)):
        place(s, "p1s0", pos, vel=(-1, 0), fuel=20, detected=True)
        (e, _es, _w, reach, bounded), = Tactics(s, 0)._guns
        want = tuple((p, d, v, max((max(abs(h[0] - d[0]), abs(h[1] - d[1]), abs(h[0] - d[0] + h[1] - d[1]))
                                    for h in (p or (d,))), default=0)) for p, d, v in enemy_courses(s, e))
        assert bounded == want
        assert reach == max(max(abs(d[0] - pos[0]), abs(d[1] - pos[1]), abs(d[0] - pos[0] + d[1] - pos[1])) + r
                            for _p, d, _v, r in want)


def test_a_shot_is_worth_less_as_its_penalty_grows():
    # Tactics._gun_threat values only the smallest penalty of the courses that do not ram: exact because
    # hit_value never rises with the penalty, for every column, damage already taken and worth
    for col in range(6):
        for disabled in range(8):
            for worth in (1.0, 2.0, 3.5, 9.0, 17.0, 33.0):
                values = [hit_value(col, pen, disabled, worth) for pen in range(-3, 40)]
                assert all(a[0] >= b[0] and a[1] >= b[1] for a, b in zip(values, values[1:]))


def _threat_by_shots(tac, e, dest, vel, my_str, my_disabled, my_worth):
    worst = 0.0
    for epath, edest, evel in enemy_courses(tac.world, e):
        v, _ = shot(tac.world, epath, edest, evel, strength(e), dest, vel, my_str, my_disabled, my_worth, e.heroic,
                    e.type.combat + 1.0)
        worst = max(worst, v)
    return worst


def test_gun_threat_is_the_best_shot_over_every_enemy_course():
    s = new_state("duel")
    place(s, "p0s0", (10, 0), vel=(1, -1), fuel=20)
    place(s, "p1s0", (13, -3), vel=(-1, 0), fuel=20, detected=True)
    s.active_player = 0
    tac = Tactics(s, 0)
    (e, es, eworth, _reach, courses), = tac._guns
    seen = set()
    for dq in range(-7, 8):
        for dr in range(-7, 8):
            dest = (13 + dq, -3 + dr)
            for vel in ((0, 0), (1, -1), (-2, 1), (3, 0), (-1, -2)):
                for my_str, dis, worth in ((2, 0, 3.0), (4, 2, 5.0), (16, 0, 17.0)):
                    got = tac._gun_threat(e, es, eworth, courses, dest, vel, my_str, dis, worth)
                    assert got == _threat_by_shots(tac, e, dest, vel, my_str, dis, worth), (dest, vel, my_str)
                    seen.add(got > 0)
    assert seen == {True, False}


def test_plan_route_with_a_warm_expansion_memo_equals_a_cold_one():
    venus = tuple(M.bases_of["Venus"])
    mars = tuple(M.bases_of["Mars"])
    # the same start with other fuel shares expansions (fuel is keyed as none / some), and so does a plan from
    # the second step of the first one
    first = plan_route.__wrapped__(M, (-8, -6), (0, 0), (), 20, True, "land", venus, None, frozenset())
    second = first[1][1]
    starts = [((-8, -6), (0, 0), (), 20, True, venus), ((-8, -6), (0, 0), (), 6, True, venus), (*second, venus),
              ((-5, 7), (0, 0), (), 20, True, mars), ((-5, 7), (0, 0), (), 2, True, mars)]
    cold = []
    for *st, goals in starts:
        routes._MOVES.clear()
        cold.append(plan_route.__wrapped__(M, *st, "land", goals, None, frozenset()))
    routes._MOVES.clear()
    warm = [plan_route.__wrapped__(M, *st, "land", goals, None, frozenset()) for *st, goals in starts]
    assert warm == cold
    assert len(cold[0]) == 7 and cold[2] is not None and cold[4] is None


def _safe_cold(pos, vel, pending, fuel, depth):
    if depth <= 0:
        return True
    for b in (None, 0, 1, 2, 3, 4, 5) if (fuel is None or fuel > 0) else (None,):
        c = compute_course(M, pos, vel, fuel, pending, False, False, b)
        if c.outcome == CRASH or M.off_map(c.destination):
            continue
        if c.outcome == "landing":
            return True
        if _safe_cold(c.destination, c.velocity, c.pending, None if fuel is None else fuel - c.fuel_spent,
                      depth - 1):
            return True
    return False


def test_safe_keyed_by_fuel_up_to_depth_answers_as_a_cold_search():
    # beside Sol, near the map's edge and in open space, fast and slow: the fuel a ship has changes the answer
    # only up to the depth searched
    states = [((0, 2), (1, -1), ()), ((2, 0), (-2, 1), ()), ((-1, 3), (0, -2), ()), ((10, 0), (3, 0), ()),
              ((-20, 18), (-2, 2), ()), ((5, 5), (0, 0), ())]
    answers = set()
    for pos, vel, pend in states:
        for depth in (1, 2, 3):
            for fuel in (0, 1, 2, 3, 5, 20, None):
                want = _safe_cold(pos, vel, pend, fuel, depth)
                assert routes.safe(M, pos, vel, pend, fuel, depth) == want, (pos, vel, fuel, depth)
                answers.add(want)
    assert answers == {True, False}


def _expand_by_flying_every_flag(p, v, pend, fuel, ld):
    """routes._expand as first written: every burn flown with and without the land flag."""
    out = []
    for b in (None, 0, 1, 2, 3, 4, 5) if (fuel is None or fuel > 0) else (None,):
        for land in (False, True) if (b is not None and not ld) else (False,):
            c = compute_course(M, p, v, fuel, pend, ld, False, b, None, (), land, frozenset(), False, True)
            if land and not c.shortcut:
                continue
            variants = [((), c)]
            if c.ignorable:
                variants.append((c.ignorable, compute_course(M, p, v, fuel, pend, ld, False, b, None, c.ignorable,
                                                             land, frozenset(), False, True)))
            for weak, cc in variants:
                if cc.outcome == CRASH or M.off_map(cc.destination):
                    continue
                step_hz = routes.hazard_weight(routes.hazard_count(M, p, cc.destination))
                if step_hz and cc.outcome != "landing" and not drift_safe(M, cc.destination, cc.velocity,
                                                                          cc.pending, 3, clear=True):
                    continue
                out.append((b, land, tuple(weak), cc.outcome, cc.destination, cc.velocity, tuple(cc.pending),
                            cc.fuel_spent, tuple(cc.contact), step_hz))
    return tuple(out)


def test_planner_expansion_flies_the_land_flag_only_where_the_shortcut_applies():
    # in orbit of Mars and of Venus, landed, beside the belt, in open space, out of fuel
    states = [((-8, -6), (1, 0), (4,), 5, False), ((-9, -5), (1, -1), (), 5, False), ((-8, -6), (0, 0), (), 5, True),
              ((-5, 7), (0, 0), (), 3, True), ((10, 0), (1, -1), (), 20, False), ((3, 4), (-1, 1), (), None, False),
              ((-6, -6), (0, 1), (), 0, False), ((6, -12), (2, 0), (), 2, False)]
    shortcuts = 0
    for p, v, pend, fuel, ld in states:
        want = _expand_by_flying_every_flag(p, v, pend, fuel, ld)
        rows = routes._expand(M, p, v, pend, fuel, ld, frozenset(), False, True, 3)
        # the search's rows: the same courses in the same order, with the next state's key, drift hex and speed
        assert tuple((b, land, weak, "landing" if arrives else "normal", dest, nv, npend, spent, contact, hz)
                     for (b, land, weak), _b, arrives, dest, nv, npend, spent, contact, hz, _k, _d, _s in rows) == want
        for (_o, _b, arrives, dest, nv, npend, _f, _c, _h, key, drift, sp) in rows:
            assert key == (dest, nv, npend, arrives) and sp == speed(nv)
            assert drift == compute_course(M, dest, nv, 0, npend, False, False, None).destination
        shortcuts += sum(1 for row in want if row[1])
    assert shortcuts > 0


@pytest.mark.parametrize("where", [((10, 0), (1, -1), (), 20, 0), ((-8, -6), (1, 0), (4,), 5, 0),
                                   ((-9, -5), (1, -1), (), 2, 0), ((3, 4), (-1, 1), (), 1, 0),
                                   ((10, 0), (2, 0), (), 20, 2), ((-8, -6), (0, 0), (), 5, 0, True)])
def test_previews_of_every_order_together_equal_one_by_one(where):
    # open space, in orbit of Mars, beside Venus, one fuel (no overload), disabled, landed
    pos, vel, pend, fuel, disabled, *landed = where
    s = new_state("duel")
    place(s, "p0s0", pos, vel=vel, pending=pend, fuel=fuel, landed=bool(landed), disabled=disabled)
    s.active_player = 0
    orders = [a for a in s.legal_actions(0) if isinstance(a, Order) and a.ship == "p0s0"]
    assert orders
    together = preview_courses(s, "p0s0", orders)
    assert together == [preview_course(s, "p0s0", o) for o in orders]
    if fuel >= 2 and not disabled and not landed:
        assert len({id(pv) for pv in together}) < len(orders)  # (b, o) and (o, b) share one preview
