"""The chase (intercept.py and LevelBot's use of it) and the escort rule of the tactical bots: the runner's
predicted track, the shot chances, the intercept plan's values, hard's first move in Blockade Runner under fog of
war (from the view and the scenario's published start only), Escape's no-ram rule, and escorts keeping station
with the colonists' carrier."""

from __future__ import annotations

from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.tactical.bots.intercept import intercept_values, runner_track, shot_chance
from deltav.games.tactical.bots.level_bot import LevelBot
from deltav.games.tactical.mapdata import default_map
from deltav.games.tactical.messages import Order
from deltav.games.tactical.movement import CRASH, LANDING, compute_course
from deltav.games.tactical.preview import preview_course

from .helpers import GAME, new_state, place

M = default_map()
MARS = tuple(sorted(M.bases_of["Mars"]))


def decision(state, player: int, seed: int = 0) -> Decision:
    return Decision(GAME, player, state.view(player), state.legal_actions(player), Rng(seed))


def _dist(a, b):
    q, r = a[0] - b[0], a[1] - b[1]
    return max(abs(q), abs(r), abs(q + r))


def test_runner_track_of_the_blockade_packet_lands_on_mars_without_crashing():
    track = runner_track(M, (-7, 3), (0, -2), (), 10, 0, MARS, None, 8, frozenset())
    assert 2 <= len(track) <= 6
    # replay: every step is a real course (coast or one burn) from the previous state
    pos, vel, pend, fuel = (-7, 3), (0, -2), (), 10
    for dest, v in track:
        options = []
        for b in (None, 0, 1, 2, 3, 4, 5):
            for land in (False, True):
                c = compute_course(M, pos, vel, fuel, pend, False, False, b, None, (), land)
                if c.destination == dest and c.velocity == v and c.outcome != CRASH:
                    options.append(c)
        assert options, f"no course reaches {dest} with {v}"
        c = options[0]
        pos, vel, pend, fuel = c.destination, c.velocity, c.pending, fuel - c.fuel_spent
    assert track[-1][0] in MARS and c.outcome == LANDING


def test_a_disabled_runner_only_coasts():
    track = runner_track(M, (0, -10), (1, 0), (), 10, 2, MARS, None, 2, frozenset())
    assert track[0] == ((1, -10), (1, 0))
    assert track[1] == ((2, -10), (1, 0))


def test_shot_chance_follows_the_gun_table():
    # 1:1 (column 2): range 0 and matched velocity hits on 4-6; one hex of range costs one pip
    assert shot_chance(M, ((0, -10),), (0, -10), (0, 0), 2, (0, -10), (0, 0)) == 0.5
    assert abs(shot_chance(M, ((0, -10),), (0, -10), (0, 0), 2, (1, -10), (0, 0)) - 1 / 3) < 1e-9
    # relative speed 4 costs two more pips
    assert abs(shot_chance(M, ((0, -10),), (0, -10), (2, 0), 2, (1, -10), (-2, 0)) - 0.0) < 1e-9


def test_intercept_plan_prefers_the_move_that_meets_the_runner():
    # our ship at rest; the runner coasts past two hexes east of us: burning toward its line beats coasting away
    targets = (((3, -12), (0, -1)), ((3, -13), (0, -1)), ((3, -14), (0, -1)))
    vals = intercept_values(M, (0, -12), (0, 0), (), 20, False, 2, targets, 3, 40)
    best = max(vals, key=lambda k: (vals[k], str(k)))
    assert vals[best] > 0.3
    c = compute_course(M, (0, -12), (0, 0), 20, (), False, False, best[0], None)
    assert _dist(c.destination, (3, -12)) < 3
    away = compute_course(M, (0, -12), (0, 0), 20, (), False, False, 3, None)  # burn west
    assert _dist(away.destination, (3, -12)) > 3
    assert vals.get((3, None), 0.0) < vals[best]


def test_intercept_without_rams_never_ends_in_the_runners_hex():
    targets = (((1, -12), (0, 0)), ((1, -12), (0, 0)))
    with_rams = intercept_values(M, (0, -12), (0, 0), (), 20, False, 5, targets, 2, 40)
    no_rams = intercept_values(M, (0, -12), (0, 0), (), 20, False, 5, targets, 2, 40, ram_ok=False)
    # burning east (direction 0) ends in the runner's hex: allowed as a ram, dropped without rams
    assert compute_course(M, (0, -12), (0, 0), 20, (), False, False, 0, None).destination == (1, -12)
    assert with_rams[(0, None)] > 0.5
    assert (0, None) not in no_rams


def test_hard_blockader_heads_for_the_runners_published_start_under_fog_of_war():
    s = new_state("blockade", seed=1)
    assert s.active == 1 and "p0s0" not in {x["id"] for x in s.view(1)["ships"]}
    hard = LevelBot("hard").act(decision(s, 1, seed=3))
    normal = LevelBot("normal").act(decision(s, 1, seed=3))
    track = runner_track(M, (-7, 3), (0, -2), (), 10, 0, MARS, None, 6, frozenset())
    pv = preview_course(s, "p1s0", hard)
    # the runner's next hex is within reach of our next shot: range plus speed gap small
    nxt = track[0]
    drift = (pv.destination[0] + pv.velocity[0], pv.destination[1] + pv.velocity[1])
    assert _dist(pv.destination, (-7, 3)) <= 3  # the runner is detected after this move
    assert _dist(drift, nxt[0]) <= 2
    pn = preview_course(s, "p1s0", normal)
    assert _dist((pn.destination[0] + pn.velocity[0], pn.destination[1] + pn.velocity[1]), nxt[0]) > \
        _dist(drift, nxt[0])


def test_hard_blockader_decision_depends_only_on_its_view():
    s1 = new_state("blockade", seed=1)
    s2 = s1.clone()
    place(s2, "p0s0", (-6, 3), (0, -1), fuel=9)  # the hidden runner is elsewhere in truth
    assert s1.view(1) == s2.view(1) and s1.to_json() != s2.to_json()
    assert LevelBot("hard").act(decision(s1, 1, 5)) == LevelBot("hard").act(decision(s2, 1, 5))


def test_escape_enforcer_does_not_ram_the_pilgrims():
    s = new_state("escape", seed=1)
    # pilgrims in flight and detected; the corsair could end in their hex with one burn
    for sid in ("p0s0", "p0s1", "p0s2"):
        place(s, sid, (2, -14), (0, -1), fuel=8, detected=True)
    place(s, "p1s0", (1, -12), (1, -1), fuel=20, detected=True)
    place(s, "p1s1", (-10, 8), (0, 0), fuel=20, detected=True)
    s.active = 1
    s._opts = {}
    rams = [b for b in range(6) if preview_course(s, "p1s0", Order("p1s0", b, None)).destination == (2, -14)]
    assert rams  # a ram is on offer
    a = LevelBot("hard").act(decision(s, 1))
    assert a.ship == "p1s0"
    assert preview_course(s, "p1s0", a).destination != (2, -14)


def test_escorts_keep_station_with_the_colonists_carrier():
    s = new_state("convoy", seed=2)
    liner = Order("p0s0", 1, None)  # take off south-east toward Venus
    s.apply_action(0, liner)
    for level in ("normal", "hard"):
        a = LevelBot(level).act(decision(s, 0))
        assert a.ship == "p0s1"
        assert (a.burn, a.overload, a.land) == (1, None, False), level
