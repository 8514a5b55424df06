"""Rounds in play: the worked examples inside real states, simultaneous order independence, illegal actions,
withdrawal, victory, design during play, views and secrets, determinization."""

import copy
import json

import pytest

from deltav.core.errors import IllegalAction
from deltav.core.protocol import json_tokens
from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame, flow
from deltav.games.deepspace.messages import (
    Allocate,
    AutoAllocate,
    Blast,
    Destroyed,
    Detonated,
    Done,
    EndShip,
    Fire,
    NewShip,
    Place,
    SelfDestruct,
    SetStat,
    SetVelocity,
    Shot,
    StatLost,
    UseFleet,
    WeaponDamage,
    WeaponTargeting,
    Withdraw,
)
from tests.deepspace.helpers import declare_none, deploy_all, new_state, rng_for_rolls


def plot_hold(state, p, velocities=None):
    """Plot every ship of p: keep (or set) velocity, hold every weapon; then done. Returns the events."""
    ev = []
    while state.waiting[p]:
        legal = state.legal_actions(p)
        a = legal[0]
        if isinstance(a, SetVelocity):
            sid = a.ship
            v = (velocities or {}).get(sid, state.ship(sid).vel)
            a = SetVelocity(sid, *v)
        elif isinstance(a, Fire):
            a = Fire(a.ship, a.weapon, None)
        ev += state.apply_action(p, a)
        if isinstance(a, Done):
            break
    return ev


def unchanged_after(state, player, action, rule):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        state.apply_action(player, action)
    assert err.value.rule == rule, err.value
    assert json.dumps(state.to_json(), sort_keys=True) == before


# --- the worked examples in play ---------------------------------------------------------------------------


def test_worked_example_shot_in_play(tmp_path):
    sides = [
        ([("Gunship", 1, 1, 0, 0, [(5, 4)])], (0, 0, 0)),
        ([("Target", 1, 0, 4, 5, [(1, 1)])], (12, 0, 0)),
    ]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    assert s.phase == "plot" and s.round == 1
    s.apply_action(0, SetVelocity("s0-0", 0, 0))
    s.apply_action(0, Fire("s0-0", 0, "s1-0"))
    s.apply_action(0, Done())
    s.apply_action(1, SetVelocity("s1-0", 0, 0))
    s.apply_action(1, Fire("s1-0", 0, None))
    s.rng = rng_for_rolls([8, 6, 4, 3])  # attack 8 vs evasion 6; damage 4 (x4 = 16) vs endurance 3 (x5 = 15)
    ev = s.apply_action(1, Done())
    shots = [e for e in ev if isinstance(e, Shot)]
    assert shots == [Shot("s0-0", 0, "s1-0", 12, True, 1)]
    assert s.phase == "allocate" and s.current_players() == [1]
    assert s.ship("s1-0").pending == 1 and s.inflicted == [1, 0] and s.received == [0, 1]
    ev = s.apply_action(1, Allocate("s1-0", "evasion", None, 1))
    assert StatLost("s1-0", "evasion", None, 1, 1, (1,)) in ev
    assert s.ship("s1-0").evasion == 3
    assert s.phase == "destruct"  # any ship may self-destruct (self_destruct_scope = anywhere)
    declare_none(s)
    assert s.phase == "plot" and s.round == 2


def test_size_4_ship_allocates_11_points_as_8_on_thrust_and_3_on_targeting(tmp_path):
    sides = [
        ([("Victim", 4, 4, 0, 0, [(5, 6)])], (0, 0, 0)),
        ([("Other", 1, 1, 1, 1, [(1, 1)])], (40, 0, 0)),
    ]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    plot_hold(s, 0)
    plot_hold(s, 1)
    # force 11 hit points onto the size-4 ship as if a weapon had dealt them, then open the damage phase
    s.ships[0].pending = 11
    flow.start_allocation(s, "fire")
    assert s.current_players() == [0]
    legal = s.legal_actions(0)
    assert Allocate("s0-0", "thrust", None, 8) in legal and Allocate("s0-0", "thrust", None, 12) not in legal
    unchanged_after(s, 0, Allocate("s0-0", "thrust", None, 6), "deepspace.damage.size_multiple")
    unchanged_after(s, 0, Allocate("s0-0", "thrust", None, 12), "deepspace.damage.amount")  # 11 pending
    unchanged_after(s, 0, Allocate("s0-0", "evasion", None, 4), "deepspace.damage.empty_stat")  # evasion is 0
    unchanged_after(s, 0, Allocate("s0-0", "targeting", 0, 6), "deepspace.damage.weapon_level")  # targeting 5
    unchanged_after(s, 0, Allocate("s0-0", "targeting", 3, 1), "deepspace.damage.stat")
    s.apply_action(0, Allocate("s0-0", "thrust", None, 8))
    s.apply_action(0, Allocate("s0-0", "targeting", 0, 3))
    ship = s.ships[0]
    assert (ship.thrust, ship.weapons()) == (2, [(2, 6)])
    declare_none(s)
    assert s.phase == "plot"


def test_auto_allocate_is_the_documented_default(tmp_path):
    sides = [([("Victim", 4, 4, 0, 0, [(5, 3)])], (0, 0, 0)), ([("Other", 1, 1, 1, 1, [(1, 1)])], (40, 0, 0))]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    plot_hold(s, 0)
    plot_hold(s, 1)
    s.ships[0].pending = 11
    flow.start_allocation(s, "fire")
    s.apply_action(0, AutoAllocate("s0-0"))
    assert (s.ships[0].thrust, s.ships[0].weapons()) == (2, [(2, 3)])


def test_cruiser_self_destruct_in_play(tmp_path):
    sides = [
        ([("Cruiser", 2, 2, 0, 3, [(4, 1)])], (0, 0, 0)),  # remaining stat total 2 + 0 + 3 + 4 + 1 = 10
        ([("Dreadnought", 6, 1, 1, 6, [(10, 10)])], (0, 0, 0)),
    ]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    plot_hold(s, 0)
    plot_hold(s, 1)
    assert s.phase == "destruct" and s.current_players() == [0, 1]
    assert s.legal_actions(0) == [SelfDestruct("s0-0", False), SelfDestruct("s0-0", True)]
    s.apply_action(1, SelfDestruct("s1-0", False))
    s.rng = rng_for_rolls([7, 7])  # 2d6 x 10 = 70 against 2d6 x 6 = 42
    ev = s.apply_action(0, SelfDestruct("s0-0", True))
    assert Detonated("s0-0") in ev
    assert Blast("s0-0", "s1-0", 28) in ev
    assert Destroyed("s0-0", "self-destruct") in ev
    assert s.ship("s1-0").pending == 28 and s.inflicted[0] == 28
    assert s.phase == "allocate" and s.current_players() == [1]
    s.apply_action(1, AutoAllocate("s1-0"))
    # the cruiser is gone, so the dreadnought's side holds the field
    assert s.is_terminal() and s.result().winners == (1,)


# --- simultaneous plotting ---------------------------------------------------------------------------------


def _random_plot(state, p, rng):
    """A full plot for p chosen at random from its legal steps (p's steps never depend on other players)."""
    twin = state.clone()
    out = []
    while twin.waiting[p]:
        a = rng.choice(twin.legal_actions(p))
        out.append(a)
        twin.apply_action(p, a)
    return out


@pytest.mark.parametrize("scenario", ["duel", "melee"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_order_of_submission_changes_nothing(scenario, seed):
    base = DeepSpaceGame.new_initial_state({"scenario": scenario}, seed)
    rng = Rng(seed)
    for _ in range(3):
        if base.phase != "plot" and base.phase != "deploy":
            break
        plots = {p: _random_plot(base, p, rng) for p in base.current_players()}
        results = []
        for order in (sorted(plots), sorted(plots, reverse=True), "interleaved"):
            s = base.clone()
            events = []
            if order == "interleaved":
                queues = {p: list(a) for p, a in plots.items()}
                while any(len(q) > 1 for q in queues.values()):  # everything but the final "done"s
                    for p, q in sorted(queues.items(), reverse=True):
                        if len(q) > 1:
                            events += s.apply_action(p, q.pop(0))
                for p in sorted(queues):
                    events += s.apply_action(p, queues[p][0])
            else:
                for p in order:
                    for a in plots[p]:
                        events += s.apply_action(p, a)
            public = [e.to_json() for e in events if e.visible_to(None) and e.TYPE not in ("plotted", "deployed")]
            results.append((json.dumps(s.to_json(), sort_keys=True), public))
        assert results[0] == results[1] == results[2]
        base = DeepSpaceGame.state_from_json(json.loads(results[0][0]))
        while base.phase == "allocate" or base.phase == "destruct":
            p = base.current_players()[0]
            base.apply_action(p, base.legal_actions(p)[0])


# --- illegal actions ----------------------------------------------------------------------------------------


def test_illegal_actions_name_the_rule_and_change_nothing(tmp_path):
    sides = [
        ([("A", 2, 3, 2, 2, [(5, 5)]), ("B", 2, 3, 2, 2, [(5, 5)])], (0, 0, 1)),
        ([("C", 2, 3, 2, 2, [(5, 5)])], (10, 0, 1)),
    ]
    s = new_state(tmp_path, sides)
    unchanged_after(s, 0, Place("s0-0", 5, 0), "deepspace.deploy.zone")
    unchanged_after(s, 0, Place("s0-1", 0, 0), "deepspace.deploy.order")
    s.apply_action(0, Place("s0-0", 0, 1))
    unchanged_after(s, 0, SetVelocity("s0-0", 4, 0), "deepspace.deploy.speed")
    s.apply_action(0, SetVelocity("s0-0", 3, 0))
    s.apply_action(0, Place("s0-1", 1, 0))
    s.apply_action(0, SetVelocity("s0-1", 0, 0))
    s.apply_action(0, Done())
    unchanged_after(s, 0, Done(), "protocol.turn")
    s.apply_action(1, Place("s1-0", 10, 0))
    s.apply_action(1, SetVelocity("s1-0", 0, 0))
    s.apply_action(1, Done())
    assert s.phase == "plot"
    # s0-0 moves at (3, 0): thrust 3 allows any velocity within 3 of it
    unchanged_after(s, 0, SetVelocity("s0-0", -1, 0), "deepspace.movement.thrust")
    unchanged_after(s, 0, SetVelocity("s0-1", 0, 0), "deepspace.plot.order")
    unchanged_after(s, 0, Withdraw("s0-0"), "deepspace.withdraw.distance")
    s.apply_action(0, SetVelocity("s0-0", 0, 0))
    unchanged_after(s, 0, Fire("s0-0", 0, "s0-1"), "deepspace.weapons.friendly")
    unchanged_after(s, 0, Fire("s0-0", 0, "nobody"), "deepspace.weapons.target")
    unchanged_after(s, 0, Fire("s0-0", 1, None), "deepspace.plot.order")
    unchanged_after(s, 0, Done(), "deepspace.plot.order")


def test_friendly_fire_option_allows_friendly_targets(tmp_path):
    sides = [([("A", 2, 3, 2, 2, [(5, 5)]), ("B", 2, 3, 2, 2, [(5, 5)])], (0, 0, 0)),
             ([("C", 2, 3, 2, 2, [(5, 5)])], (10, 0, 0))]
    s = new_state(tmp_path, sides, friendly_fire=True)
    deploy_all(s)
    s.apply_action(0, SetVelocity("s0-0", 0, 0))
    assert Fire("s0-0", 0, "s0-1") in s.legal_actions(0)
    s.apply_action(0, Fire("s0-0", 0, "s0-1"))


def test_rest_deployment_skips_the_velocity_step(tmp_path):
    sides = [([("A", 2, 3, 2, 2, [(5, 5)])], (0, 0, 1)), ([("C", 2, 3, 2, 2, [(5, 5)])], (10, 0, 1))]
    s = new_state(tmp_path, sides, initial_velocity="rest")
    s.apply_action(0, Place("s0-0", 0, 0))
    assert s.legal_actions(0) == [Done()]


# --- withdrawal and victory ---------------------------------------------------------------------------------


def test_withdrawal_beyond_the_radius_and_the_side_left_wins(tmp_path):
    sides = [([("A", 2, 3, 2, 2, [(5, 5)])], (0, 0, 0)), ([("C", 2, 3, 2, 2, [(5, 5)])], (31, 0, 0))]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    assert Withdraw("s1-0") in s.legal_actions(1)
    s2 = new_state(tmp_path, sides, withdrawal_radius=31)
    deploy_all(s2)
    assert Withdraw("s1-0") not in s2.legal_actions(1)
    plot_hold(s, 0)
    s.apply_action(1, Withdraw("s1-0"))
    ev = s.apply_action(1, Done())
    assert s.is_terminal()
    assert s.result().winners == (0,) and s.result().reason == "the enemy left the field"
    assert ev[-1].TYPE == "game_over"


def test_round_limit_and_campaign_score_with_three_fleets():
    s = DeepSpaceGame.new_initial_state({"scenario": "melee", "round_limit": 1}, 4)
    deploy_all(s)
    for p in range(3):
        plot_hold(s, p)
    assert s.is_terminal()
    assert s.result().winners == () and s.result().reason == "campaign score (round limit)"
    assert s.returns() == [0.0, 0.0, 0.0]


def test_annihilation_and_scores(tmp_path):
    sides = [([("Big", 4, 1, 0, 1, [(40, 60)])], (0, 0, 0)), ([("Small", 1, 0, 0, 1, [(0, 1)])], (1, 0, 0))]
    s = new_state(tmp_path, sides, self_destruct=False)
    deploy_all(s)
    s.apply_action(0, SetVelocity("s0-0", 0, 0))
    s.apply_action(0, Fire("s0-0", 0, "s1-0"))
    s.apply_action(0, Done())
    s.apply_action(1, SetVelocity("s1-0", 0, 0))
    s.apply_action(1, Fire("s1-0", 0, None))
    s.rng = rng_for_rolls([7, 7, 7, 7])  # 7 x 40 - 1 = 279 >= 7 x 0: hit; 7 x 60 - 7 x 1 = 413 hp
    ev = s.apply_action(1, Done())
    assert Shot("s0-0", 0, "s1-0", 1, True, 413) in ev
    assert s.current_players() == [1]
    ev = s.apply_action(1, Allocate("s1-0", "endurance", None, 1))  # endurance 1 of a size-1 ship
    ev += s.apply_action(1, Allocate("s1-0", "damage", 0, 1))
    assert Destroyed("s1-0", "damage") in ev
    assert s.is_terminal() and s.result().winners == (0,) and s.result().reason == "annihilation"
    assert s.result().scores == (413.0, -413.0)


def test_mutual_destruction_is_a_draw(tmp_path):
    # evasion 0: every shot hits; 2d6 x 30 - 2d6 x 1 >= 48 hit points, more than the 41 levels a ship has
    sides = [([("A", 1, 0, 0, 1, [(10, 30)])], (0, 0, 0)), ([("B", 1, 0, 0, 1, [(10, 30)])], (0, 0, 0))]
    s = new_state(tmp_path, sides, self_destruct=False)
    deploy_all(s)
    for p, t in ((0, "s1-0"), (1, "s0-0")):
        s.apply_action(p, SetVelocity(f"s{p}-0", 0, 0))
        s.apply_action(p, Fire(f"s{p}-0", 0, t))
    s.apply_action(0, Done())
    s.apply_action(1, Done())
    for p in (1, 0):
        s.apply_action(p, AutoAllocate(f"s{p}-0"))
    assert s.is_terminal() and s.result().winners == () and s.result().reason == "mutual destruction"


# --- design during play -------------------------------------------------------------------------------------


def test_design_during_play_is_secret_and_budgeted():
    s = DeepSpaceGame.new_initial_state({"scenario": "design-duel"}, 1)
    assert s.phase == "design" and s.current_players() == [0, 1]
    assert s.legal_actions(0) == [NewShip(k) for k in range(1, 5)] + [UseFleet("skirmish")]  # the 4-level fleet
    unchanged_after(s, 0, NewShip(5), "deepspace.design.size_levels")
    unchanged_after(s, 0, Done(), "deepspace.design.no_ship")
    s.apply_action(0, NewShip(2))
    unchanged_after(s, 0, SetStat("evasion", 1), "deepspace.design.order")
    s.apply_action(0, SetStat("thrust", 3))
    s.apply_action(0, SetStat("evasion", 20))
    assert max(a.level for a in s.legal_actions(0)) == (120 - 46) // 2  # endurance levels still affordable
    s.apply_action(0, SetStat("endurance", 10))
    s.apply_action(0, WeaponTargeting(30))
    unchanged_after(s, 0, WeaponDamage(25), "deepspace.design.points")  # 46 + 20 + 30 + 25 > 120
    ev = s.apply_action(0, WeaponDamage(24))
    assert ev[0].to == (0,)
    s.apply_action(0, EndShip())
    s.apply_action(0, NewShip(2))
    s.apply_action(0, SetStat("thrust", 0))
    s.apply_action(0, SetStat("evasion", 0))
    s.apply_action(0, SetStat("endurance", 60))
    s.apply_action(0, EndShip())
    assert s.legal_actions(0) == [Done()]
    s.apply_action(0, Done())
    assert "designs" not in json.dumps(s.view(1)["mine"]) or s.view(1)["mine"]["designs"] == []
    unchanged_after(s, 1, UseFleet("line"), "deepspace.design.size_levels")  # 12 size levels do not fit in 4
    unchanged_after(s, 1, UseFleet("armada"), "deepspace.design.fleet")
    s.apply_action(1, UseFleet("skirmish"))
    assert s.legal_actions(1) == [Done()]
    ev = s.apply_action(1, Done())
    assert [e.ship for e in ev if e.TYPE == "commissioned"] == ["s0-0", "s0-1", "s1-0", "s1-1"]
    assert s.phase == "deploy"
    assert s.ship("s0-0").lv == [3, 20, 10, 30, 24]
    assert s.ship("s1-1").name == "Raider"


# --- views, secrets and determinization ---------------------------------------------------------------------


def test_views_hide_enemy_stats_plots_and_designs():
    s = DeepSpaceGame.new_initial_state({"scenario": "duel"}, 5)
    deploy_all(s)
    s.apply_action(0, SetVelocity("s0-0", 1, 0))
    v0, v1, spectator = s.view(0), s.view(1), s.view(None)
    mine = [x for x in v0["ships"] if x["owner"] == 0]
    assert all("thrust" in x and "design" in x and "weapons" in x for x in mine)
    for v in (v1, spectator):
        for x in v["ships"]:
            if x["owner"] == 0:
                assert not {"thrust", "evasion", "endurance", "weapons", "design", "name"} & set(x)
                assert {"size", "pos", "vel"} <= set(x)
    assert v0["mine"]["plot_id"] == "plot-p0-r1" and "s0-0" in v0["mine"]["plans"]
    assert "plans" not in json.dumps(v1["mine"]) or "s0-0" not in v1["mine"]["plans"]
    for viewer in (0, 1, None):
        tokens = s.secret_tokens(viewer)
        assert tokens and not tokens & json_tokens(s.view(viewer))
    assert "d-p0-0" in s.secret_tokens(1) and "plot-p0-r1" in s.secret_tokens(1)


def test_determinize_keeps_the_view_and_respects_observations():
    s = DeepSpaceGame.new_initial_state({"scenario": "duel"}, 8)
    deploy_all(s)
    rng = Rng(1)
    # play a few rounds with random plots so there is something observed
    for _ in range(40):
        if s.is_terminal():
            break
        p = s.current_players()[0]
        s.apply_action(p, rng.choice(s.legal_actions(p)))
    for viewer in range(2):
        view = s.view(viewer)
        for k in range(5):
            world = DeepSpaceGame.determinize(copy.deepcopy(view), viewer, Rng(k))
            assert world.view(viewer) == view
            for x in world.ships:
                if x.owner != viewer and x.status == 0:
                    assert x.size * (x.lv[0] + x.lv[1] + x.lv[2]) + sum(x.lv[3:]) <= max(
                        60 * x.size, x.size * x.seen_thrust + sum((d + 11) // 12 for d in x.seen_damage) + 1
                    )
                    assert x.lv[0] >= x.seen_thrust and x.num_weapons >= x.seen_weapons
            # the sampled world plays on
            while not world.is_terminal():
                p = world.current_players()[0]
                world.apply_action(p, world.legal_actions(p)[0])


def test_shot_likelihood_weighs_enemy_designs_by_what_they_did():
    from deltav.games.deepspace.odds import p_hit
    from deltav.games.deepspace.visibility import damage_pmf, shot_likelihood

    pmf = damage_pmf(4, 5)
    assert abs(sum(pmf.values()) - 1.0) < 1e-12
    ways = sum((6 - abs(a - 7)) * (6 - abs(e - 7)) for a in range(2, 13) for e in range(2, 13) if 4 * a - 5 * e == 1)
    assert abs(pmf[1] - ways / 1296) < 1e-12
    own = {"m": [0, 4, 5, 1, 1]}
    log = [("e", 0, "m", 12, True, 1)]
    assert shot_likelihood([0, 0, 0, 5, 4], "e", own, log) == p_hit(5, 4, 12) * pmf[1]
    assert shot_likelihood([0, 0, 0, 5, 0], "e", own, log) == 0.0  # damage 0 cannot deal 1 hit point
    assert shot_likelihood([0, 0, 0], "e", own, log) == 0.0  # it fired a weapon it would not have
    # our miss against it: a high evasion explains it better than a low one
    miss = [("m", 0, "e", 0, False, 0)]
    assert shot_likelihood([0, 9, 0, 1, 1], "e", own, miss) > shot_likelihood([0, 1, 0, 1, 1], "e", own, miss)


def test_a_bounded_arena_withdraws_ships_that_leave_it(tmp_path):
    sides = [([("A", 2, 3, 2, 2, [(50, 50)])], (8, 0, 0)), ([("C", 2, 3, 2, 2, [(5, 5)])], (-8, 0, 0))]
    s = new_state(tmp_path, sides, arena_radius=10)
    deploy_all(s)
    s.apply_action(0, SetVelocity("s0-0", 3, 0))  # ends at (11, 0): outside the arena
    s.apply_action(0, Fire("s0-0", 0, "s1-0"))
    s.apply_action(0, Done())
    plot_hold(s, 1)
    assert s.ship("s0-0").status == 2
    assert s.is_terminal() and s.result().winners == (1,)
    assert not s.received[1]  # a ship leaving the arena holds its fire, like a withdrawing one


def _check_determinize(s):
    for viewer in range(s.num_players):
        view = s.view(viewer)
        for k in range(3):
            world = DeepSpaceGame.determinize(copy.deepcopy(view), viewer, Rng(k))
            assert world.view(viewer) == view
            assert world.current_players() == s.current_players()
            p = world.current_players()[0]
            world.apply_action(p, world.legal_actions(p)[-1])


def test_determinize_in_every_kind_of_node(tmp_path):
    # design, with one side done
    s = DeepSpaceGame.new_initial_state({"scenario": "design-duel"}, 2)
    s.apply_action(0, UseFleet("skirmish"))
    s.apply_action(0, Done())
    s.apply_action(1, NewShip(2))
    _check_determinize(s)
    # deployment, with one side done
    s = DeepSpaceGame.new_initial_state({"scenario": "duel"}, 2)
    while s.waiting[0]:
        s.apply_action(0, s.legal_actions(0)[0])
    s.apply_action(1, s.legal_actions(1)[0])
    _check_determinize(s)
    # self-destruct declarations, one side declared
    sides = [([("Cruiser", 2, 2, 0, 3, [(4, 1)])], (0, 0, 0)), ([("Dread", 6, 1, 1, 6, [(10, 10)])], (0, 0, 0))]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    plot_hold(s, 0)
    plot_hold(s, 1)
    s.apply_action(1, SelfDestruct("s1-0", False))
    _check_determinize(s)
    # damage allocation, one side still allocating with hit points pending
    s.rng = rng_for_rolls([7, 7])
    s.apply_action(0, SelfDestruct("s0-0", True))
    assert s.phase == "allocate"
    _check_determinize(s)


def test_high_thrust_ships_choose_velocity_in_two_small_steps(tmp_path):
    from deltav.games.deepspace.messages import VelocityColumn
    from deltav.games.deepspace.movement import velocities_within

    sides = [([("Racer", 1, 12, 10, 10, [(10, 10)])], (0, 0, 0)), ([("C", 2, 3, 2, 2, [(5, 5)])], (10, 0, 0))]
    s = new_state(tmp_path, sides)
    s.apply_action(0, Place("s0-0", 0, 0))
    assert s.legal_actions(0) == [VelocityColumn("s0-0", q) for q in range(-12, 13)]
    unchanged_after(s, 0, SetVelocity("s0-0", 0, 0), "deepspace.deploy.order")
    unchanged_after(s, 0, VelocityColumn("s0-0", 13), "deepspace.deploy.speed")
    s.apply_action(0, VelocityColumn("s0-0", 5))
    assert s.view(0)["mine"]["column"] == 5
    assert all(a.dq == 5 for a in s.legal_actions(0)) and len(s.legal_actions(0)) == 25 - 5
    unchanged_after(s, 0, SetVelocity("s0-0", 4, 0), "deepspace.deploy.order")
    s.apply_action(0, SetVelocity("s0-0", 5, -2))
    s.apply_action(0, Done())
    deploy_all_remaining = [a for a in s.legal_actions(1)]
    assert deploy_all_remaining
    while s.phase == "deploy":
        s.apply_action(1, s.legal_actions(1)[0])
    assert s.ship("s0-0").vel == (5, -2)
    # plotting: the columns and their rows together are exactly the velocities within thrust
    seen = set()
    for col in s.legal_actions(0):
        if not isinstance(col, VelocityColumn):
            continue
        twin = s.clone()
        twin.apply_action(0, col)
        rows = twin.legal_actions(0)
        assert len(rows) <= 2 * 12 + 1
        seen |= {(a.dq, a.dr) for a in rows}
    assert seen == set(velocities_within((5, -2), 12))
    unchanged_after(s, 0, SetVelocity("s0-0", 5, -2), "deepspace.plot.order")
    s.apply_action(0, VelocityColumn("s0-0", -7))
    unchanged_after(s, 0, Withdraw("s0-0"), "deepspace.plot.order")
    unchanged_after(s, 0, SetVelocity("s0-0", -7, 11), "deepspace.movement.thrust")  # cost 13
    s.apply_action(0, SetVelocity("s0-0", -7, 10))
    assert isinstance(s.legal_actions(0)[0], Fire)
    # a determinized world keeps the half-chosen velocity
    world = DeepSpaceGame.determinize(s.view(0), 0, Rng(1))
    assert world.view(0) == s.view(0)


def test_determinize_uses_the_public_fleet_of_the_scenario():
    """Skirmish names both fleets, so enemy designs are public: a sampled world keeps them exactly, and for a
    damaged ship samples only how its hit points were allocated."""
    from deltav.games.deepspace.visibility import damaged_variants, fleet_prior

    rng = Rng(5)
    undamaged = damaged = 0
    for seed in range(6):
        s = DeepSpaceGame.new_initial_state({"scenario": "skirmish"}, seed)
        while not s.is_terminal():
            view = s.view(0)
            known = fleet_prior(view)
            if s.phase == "plot" and known:
                world = DeepSpaceGame.determinize(copy.deepcopy(view), 0, Rng(seed))
                for sv in view["ships"]:
                    if sv["owner"] == 0 or sv["status"] != "active":
                        continue
                    lv = world.ship(sv["id"]).lv
                    assert lv in damaged_variants(sv["size"], known[sv["id"]], sv["hp_taken"], 4)
                    if sv["hp_taken"] == 0:
                        assert lv == known[sv["id"]] == s.ship(sv["id"]).lv
                        undamaged += 1
                    else:
                        damaged += 1
            p = s.current_players()[0]
            legal = s.legal_actions(p)
            # random play, but no scuttling (any ship may self-destruct: random seats would end games early)
            s.apply_action(p, legal[0] if s.phase == "destruct" else legal[rng.below(len(legal))])
    assert undamaged > 0 and damaged > 0
