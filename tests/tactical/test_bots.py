"""The difficulty ladder of the tactical bots (bots.LevelBot), the astrogation planner (bots/routes.py) and the
two-ply gun and ordnance tactics (tactics.py): legality over whole games, determinism, view-only decisions,
and behaviour on constructed positions."""

from __future__ import annotations

import pytest

from deltav.core.agent import Agent
from deltav.core.match import play_match
from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.tactical.bots import BOTS, PRESETS
from deltav.games.tactical.bots.level_bot import LevelBot
from deltav.games.tactical.bots.levels import LEVELS
from deltav.games.tactical.bots.routes import drift_safe, hazard_count, plan_route, safe
from deltav.games.tactical.bots.tactics import Tactics, hit_value, launch_value, ordnance_hit_value, rammed_cost
from deltav.games.tactical.courses import course_for
from deltav.games.tactical.mapdata import default_map
from deltav.games.tactical.messages import Launch, Order
from deltav.games.tactical.movement import CRASH, LANDING, compute_course
from deltav.games.tactical.preview import preview_course
from deltav.games.tactical.scenarios import SCENARIO_IDS

from .helpers import GAME, new_state, place

M = default_map()


class Checked(Agent):
    """Wraps a bot and fails the test if it ever returns an action that is not among its legal actions."""

    def __init__(self, inner: Agent):
        self.inner = inner
        self.name = inner.name
        self.actions: list = []

    def act(self, decision: Decision):
        a = self.inner.act(decision)
        assert a in decision.legal_actions, f"{self.inner.level} sent {a!r}, not legal"
        self.actions.append(a)
        return a


def decision(state, player: int, seed: int = 0) -> Decision:
    return Decision(GAME, player, state.view(player), state.legal_actions(player), Rng(seed))


# --- whole games -------------------------------------------------------------------------------------------

PAIRS = {sid: (("hard", "easy") if i % 2 == 0 else ("normal", "hard")) for i, sid in enumerate(SCENARIO_IDS)}


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_levels_play_whole_games_with_legal_actions_only(scenario):
    a, b = PAIRS[scenario]
    seats = [Checked(LevelBot(a, strict=True)), Checked(LevelBot(b, strict=True))]
    opts = {"scenario": scenario, "turn_limit": 30}
    record, final, _ = play_match(GAME, opts, 11, seats)
    assert final.is_terminal()
    assert seats[0].actions and seats[1].actions


def test_easy_and_normal_play_the_grand_tour_legally():
    seats = [Checked(LevelBot("easy", strict=True)), Checked(LevelBot("normal", strict=True))]
    _, final, _ = play_match(GAME, {"scenario": "grand_tour", "turn_limit": 20}, 3, seats)
    assert final.is_terminal()


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_each_level_is_deterministic_given_its_seed(level):
    runs = []
    for _ in range(2):
        _, final, _ = play_match(GAME, {"scenario": "duel"}, 5, [LevelBot(level), LevelBot(level)])
        runs.append(final.to_json())
    assert runs[0] == runs[1]


def test_decision_depends_only_on_the_view():
    # Escape: the enforcers do not know which pilgrim transport carries the fugitives (nor see them yet)
    s1 = new_state("escape", seed=1)
    s2 = s1.clone()
    for sh in s2.ships:
        if sh.hidden:
            sh.fugitive = not sh.fugitive if sh.id in ("p0s0", "p0s1") else sh.fugitive
    assert s1.to_json() != s2.to_json()
    # let the pilgrims move first so the enforcers decide next
    from .helpers import end_turn

    end_turn(s1, 0)
    end_turn(s2, 0)
    assert s1.view(1) == s2.view(1)
    for level in LEVELS:
        a1 = LevelBot(level).act(decision(s1, 1, seed=4))
        a2 = LevelBot(level).act(decision(s2, 1, seed=4))
        assert a1 == a2


def test_presets_name_the_level_bot_with_a_budget():
    assert set(PRESETS) == {"easy", "normal", "hard"}
    for level, entry in PRESETS.items():
        assert BOTS[entry["agent"]] is LevelBot
        assert entry["params"]["level"] == level
        assert entry["budget"]
    with pytest.raises(ValueError):
        LevelBot("expert")


# --- the astrogation planner ------------------------------------------------------------------------------


def _replay(pos, vel, pending, fuel, landed, steps):
    c = None
    for (burn, land, weak), st in steps:
        assert st == (pos, vel, pending, fuel, landed)
        c = compute_course(M, pos, vel, fuel, pending, landed, False, burn, None, weak, land)
        assert c.outcome != CRASH and not M.off_map(c.destination)
        fuel -= c.fuel_spent
        pos, vel, pending, landed = c.destination, c.velocity, c.pending, c.outcome == LANDING
    return c


def test_planner_flies_mars_to_venus_in_seven_turns():
    goals = tuple(M.bases_of["Venus"])
    steps = plan_route(M, (-8, -6), (0, 0), (), 20, True, "land", goals, None, frozenset())
    assert len(steps) == 7
    last = _replay((-8, -6), (0, 0), (), 20, True, steps)
    assert last.outcome == LANDING and last.body == "Venus" and last.destination in goals


def test_planner_flies_venus_to_mars_in_eight_turns_within_fuel():
    goals = tuple(M.bases_of["Mars"])
    steps = plan_route(M, (-5, 7), (0, 0), (), 20, True, "land", goals, None, frozenset())
    assert len(steps) == 8
    last = _replay((-5, 7), (0, 0), (), 20, True, steps)
    assert last.outcome == LANDING and last.body == "Mars"


def test_planner_respects_fuel():
    goals = tuple(M.bases_of["Mars"])
    assert plan_route(M, (-5, 7), (0, 0), (), 2, True, "land", goals, None, frozenset()) is None


def test_planner_visit_reaches_the_body_and_leaves_a_ship_that_keeps_flying():
    ring = tuple(sorted(M.gravity_hexes_of["Jupiter"]))
    steps = plan_route(M, (-5, 7), (0, 0), (), 20, True, "visit", ring, "Jupiter", frozenset())
    assert steps is not None
    last = _replay((-5, 7), (0, 0), (), 20, True, steps)
    assert any(h in M.gravity_hexes_of["Jupiter"] for h in last.contact)
    assert safe(M, last.destination, last.velocity, last.pending, 20 - sum(1 for s in steps if s[0][0] is not None),
                3)


def test_route_memory_backs_off_after_failed_searches(monkeypatch):
    """A ship whose search found no route is searched for again after 1, then 2, then every 4 skipped turns
    (the planner's failing searches go the full depth and almost always fail again next turn); more fuel or
    another goal searches at once, and a route found clears the memory."""
    from types import SimpleNamespace

    from deltav.games.tactical.bots import routes as route_search

    searched = []
    real = route_search.plan_route

    def spy(*args):
        searched.append(args[4])  # the fuel searched with
        return real(*args)

    monkeypatch.setattr(route_search, "plan_route", spy)
    mars = tuple(sorted(M.bases_of["Mars"]))
    routes = route_search.RouteCache()
    ship = SimpleNamespace(id="s", pos=(-5, 7), vel=(0, 0), pending=(), fuel=2, landed=True)

    def step(goals=mars):
        return routes.next_step(M, ship, "land", goals, None, frozenset(), False, True, 48, 16)

    searches_at = []
    for turn in range(12):
        before = len(searched)
        assert step() is None  # two fuel cannot reach Mars
        if len(searched) > before:
            searches_at.append(turn)
    assert searches_at == [0, 2, 5, 10]
    venus = tuple(sorted(M.bases_of["Venus"]))
    n = len(searched)
    assert step(venus) is not None and len(searched) == n + 1  # another goal: searched at once (landed: stay)
    n = len(searched)
    assert step() is None and len(searched) == n + 1  # back to Mars: a new goal again, so searched (and failed)
    ship.fuel = 20  # refuelled: searched at once, and the route is found
    got = step()
    assert got is not None and searched[-1] == 20 and got[3] == 8
    assert "s" not in routes.failed


def test_safety_checks_see_doom_coming():
    # heading into Sol at speed 4 with no fuel: doomed; with fuel and far away: fine
    assert not safe(M, (-2, 7), (0, -3), (), 0, 2)
    assert safe(M, (8, -20), (0, 0), (), 5, 3)
    assert not drift_safe(M, (-16, 4), (-3, 4), (), 2)
    assert drift_safe(M, (8, -20), (0, 1), (), 3)


def test_hazard_count_counts_asteroids_only_above_speed_one():
    assert hazard_count(M, (-4, -10), (-8, -5)) >= 1
    assert hazard_count(M, (-4, -10), (-5, -9)) == 0  # speed 1: no hazard
    assert hazard_count(M, (12, 0), (12, 3)) == 0  # open space


# --- behaviour on constructed positions ---------------------------------------------------------------------


def test_hard_takes_the_winning_landing():
    s = new_state("biplanetary")
    # the Mars corvette orbiting Venus at speed 1 in its gravity ring: a one-burn landing wins
    place(s, "p0s0", (-5, 6), vel=(0, 1), pending=(4,), fuel=10)
    for level in LEVELS:
        a = LevelBot(level).act(decision(s, 0))
        assert isinstance(a, Order)
        pv = preview_course(s, "p0s0", a)
        assert pv.lands and pv.body == "Venus", (level, a)


def test_hard_does_not_fly_into_the_sun():
    s = new_state("biplanetary")
    # falling toward Sol: coasting crashes; the bot must steer clear and keep a way out
    place(s, "p0s0", (-2, 7), vel=(0, -2), fuel=10)
    a = LevelBot("hard").act(decision(s, 0))
    pv = preview_course(s, "p0s0", a)
    assert not pv.crashes
    assert safe(M, pv.destination, pv.velocity, tuple(d for _, d, _, _, ig in pv.gravity_queued if not ig),
                pv.fuel_after, 3)


def test_hit_value_follows_the_gun_table():
    # 1:1 (column 2) at range 0: D2 on 4, D3 on 5, D4 on 6 -> hits half the time
    v, p = hit_value(2, 0, 0, 9.0)
    assert p == pytest.approx(0.5)
    assert v == pytest.approx(9.0 * (0.55 + 0.65 + 0.75) / 6)
    # a penalty of 3 at 1:1 leaves nothing
    assert hit_value(2, 3, 0, 9.0) == (0.0, 0.0)
    # 4:1 on a ship with 5 disabled turns: every hit eliminates it
    v, p = hit_value(5, 0, 5, 9.0)
    assert v == pytest.approx(9.0 * p)
    assert ordnance_hit_value("nuke", 0, 9.0) == 9.0


def test_tactics_prefer_a_shot_over_exposure():
    s = new_state("duel")
    place(s, "p0s0", (10, 0), vel=(0, 0), fuel=20)
    place(s, "p1s0", (12, -4), vel=(0, -1), fuel=20, detected=True, disabled=2)
    s.active = 0
    t = Tactics(s, 0)
    me = s.ship("p0s0")
    # a disabled enemy cannot answer: ending in its wake gives a shot at 4:1 at range 1, ending 4 hexes away a poor one
    near = t.value(me, ((10, 0), (11, -1), (11, -2), (12, -3)), (12, -3), (2, -3), False)
    far = t.value(me, ((10, 0), (10, 1)), (10, 1), (0, 1), False)
    assert near > 3.0
    assert near > far + 2.0
    # healthy, it answers: the same course is then worth less than the shot alone
    s.ship("p1s0").disabled = 0
    t2 = Tactics(s, 0)
    assert t2.value(me, ((10, 0), (11, -1), (11, -2), (12, -3)), (12, -3), (2, -3), False) < near


def test_hard_keeps_out_of_a_drifting_enemys_path_when_its_own_drift_would_crash():
    """Issue 30: hard's Duel frigates were lost to Mercury after a disabled enemy (no guns, so no drift guard)
    drifted into their hex: the ram disabled them and they drifted into the planet. The position of such a game
    (seed 4495320493175459861, turn 3): the enemy drifts to (2, 2), where our drift after burn 3 falls on
    Mercury."""
    s = new_state("duel")
    place(s, "p0s0", (3, 1), vel=(0, 1), fuel=19)
    place(s, "p1s0", (2, 3), vel=(1, -1), pending=(3,), fuel=17, detected=True, disabled=1)
    s.active = 0
    t = Tactics(s, 0)
    assert [e.id for e in t.rams[(2, 2)]] == ["p1s0"] and not t.shooters
    a = LevelBot("hard").act(decision(s, 0))
    pv = preview_course(s, "p0s0", a)
    pending = tuple(d for _, d, _, _, ig in pv.gravity_queued if not ig)
    assert pv.destination != (2, 2) or drift_safe(M, pv.destination, pv.velocity, pending, 3)
    # the ram itself is valued by what it costs us beyond the enemy: nothing against an equal, already disabled
    # frigate; a corvette drifting into a frigate costs the frigate
    assert rammed_cost(0, 9.0, 1, 9.0) == 0.0
    assert rammed_cost(0, 9.0, 0, 3.0) > 0.0


def test_hard_guards_its_drift_when_the_enemy_is_out_of_sight():
    """Issue 30: with every enemy ship hidden by fog of war there were no tactics and no drift guard, and
    Interplanetary War's frigates flew fast toward an unseen fleet on courses whose drift fell into a body. The
    enemy frigate here is undetected far away, and ours flies at speed 3: the course hard flies keeps a safe
    drift (without the guard it would not)."""
    s = new_state("duel")
    place(s, "p0s0", (-4, -4), vel=(0, 3), fuel=19)
    place(s, "p1s0", (-12, 10), vel=(0, 0), fuel=19, detected=False)
    s.active = 0
    d = decision(s, 0)
    assert d.view["unseen_enemy_ships"] == 1 and not Tactics(d.sample_world(), 0).enemies
    a = LevelBot("hard").act(d)
    pv = preview_course(s, "p0s0", a)
    assert not pv.crashes
    assert drift_safe(M, pv.destination, pv.velocity, tuple(d for _, d, _, _, ig in pv.gravity_queued if not ig), 3)


def test_exposure_of_a_course_is_its_worst_chance_of_damage_before_the_next_move():
    from deltav.games.tactical.bots.heuristics import defense_survival
    from deltav.games.tactical.bots.level_bot import _exposure
    from deltav.games.tactical.bots.tactics import RAM_DAMAGE_CHANCE

    s = new_state("duel")
    place(s, "p0s0", (3, 1), vel=(0, 1), fuel=19)
    place(s, "p1s0", (2, 3), vel=(1, -1), pending=(3,), fuel=17, detected=True, disabled=1)
    s.active = 0
    t = Tactics(s, 0)
    me = s.ship("p0s0")
    assert _exposure(s, t, me, (2, 2), (-1, 1), True) == RAM_DAMAGE_CHANCE
    assert _exposure(s, t, me, (2, 2), (-1, 1), False) == 0.0  # a disabled enemy has no guns
    s.ship("p1s0").disabled = 0
    assert _exposure(s, Tactics(s, 0), me, (2, 2), (-1, 1), False) > 0.0
    # planetary defense: Bi-Planetary's Mars bases against the Venus ship in Mars's gravity
    b = new_state("biplanetary")
    ship = next(sh for sh in b.ships if sh.owner == 1)
    zone = next(h for h in b.gmap.gravity if b.gmap.gravity[h][1] == "Mars" and defense_survival(b, 1, h) < 1.0)
    assert _exposure(b, Tactics(b, 1), ship, zone, (0, 0), False) == pytest.approx(1.0 - defense_survival(b, 1, zone))


def test_hard_launches_a_nuke_that_meets_the_enemy_this_turn():
    s = new_state("duel")
    s.active = 0
    s.first = 0
    place(s, "p0s0", (10, 0), vel=(2, 0), fuel=20)
    place(s, "p1s0", (12, 0), vel=(0, 0), fuel=20, detected=True)
    s.ship("p0s0").detected = True
    # our frigate turns away (burn NW) so only the enemy sits on the item's line
    s.apply_action(0, Order("p0s0", burn=2, overload=2))
    from deltav.games.tactical.messages import EndAstrogation

    s.apply_action(0, EndAstrogation())
    assert s.phase == "ordnance"
    d = decision(s, 0)
    a = LevelBot("hard").act(d)
    assert isinstance(a, Launch) and a.kind == "nuke"
    c = course_for(s, s.ship("p0s0"), s.orders["p0s0"])
    own = {"p0s0": (tuple(c.contact), c.destination)}
    assert launch_value(s, 0, s.ship("p0s0"), "nuke", (2, 0), own) == pytest.approx(9.0)
    # the same nuke is worthless if our own ship ends in the blast hex
    own_bad = {"p0s0": (((10, 0), (11, 0), (12, 0)), (12, 0))}
    assert launch_value(s, 0, s.ship("p0s0"), "nuke", (2, 0), own_bad) < 0
    # easy never launches
    assert not isinstance(LevelBot("easy").act(d), Launch)


def test_the_planner_weighs_asteroid_hazards_by_the_asteroid_table():
    # design note 1.8: D1 on a 5 or a 6, repaired at the end of the ship's own turn (the hazards roll in it):
    # one hazard never strands a ship, two strand it when both hit (1 in 9), three when two of them hit
    from deltav.games.tactical.bots.routes import hazard_weight

    assert hazard_weight(0) == 0.0 and hazard_weight(1) == 0.0
    assert abs(hazard_weight(2) - 6.0 / 9.0) < 1e-12
    assert abs(hazard_weight(3) - 6.0 * 7.0 / 27.0) < 1e-12


def test_a_clear_drift_meets_no_asteroid_hazard():
    from deltav.games.tactical.bots.routes import drift_safe
    from deltav.games.tactical.mapdata import default_map

    gmap = default_map()
    # (2,-10) drifting at (0,-2) crosses the asteroids (2,-11) and (2,-12): safe from crashes, not clear
    assert drift_safe(gmap, (2, -10), (0, -2), (), 1)
    assert not drift_safe(gmap, (2, -10), (0, -2), (), 1, clear=True)
