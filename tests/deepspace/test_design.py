"""Design budgets, fleet and scenario files: validation errors name the field and the exceeded budget."""

import pytest

from deltav.core.errors import ScenarioError
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.design import (
    Fleet,
    ShipDesign,
    builtin_fleet_ids,
    check_design,
    check_fleet,
    design_cost,
    fleet_to_toml,
    load_fleet,
)
from deltav.games.deepspace.scenarios import builtin_ids, load_scenario


def test_costs_ship_stats_by_size_and_weapons_by_one():
    assert design_cost(4, 4, 10, 10, [(30, 40), (30, 44)]) == 4 * 24 + 144 == 240
    assert design_cost(1, 6, 20, 14, [(10, 10)]) == 60


def test_exact_budget_is_legal_one_more_point_is_not():
    check_design(ShipDesign("ok", 4, 4, 10, 10, ((30, 40), (30, 44))))
    with pytest.raises(ScenarioError) as err:
        check_design(ShipDesign("over", 4, 4, 10, 10, ((30, 40), (30, 45))), "ships[2]")
    assert err.value.field == "ships[2]"
    assert "design point budget exceeded" in err.value.reason and "241" in err.value.reason
    assert "240" in err.value.reason


def test_a_level_of_thrust_costs_the_size():
    check_design(ShipDesign("fast", 3, 60, 0, 0, ()))  # 3 x 60 = 180 = 60 x size
    with pytest.raises(ScenarioError, match="design point budget"):
        check_design(ShipDesign("too fast", 3, 61, 0, 0, ()))


def test_fleet_size_level_budget():
    s = ShipDesign("x", 5, 1, 1, 1, ((1, 1),))
    check_fleet(Fleet("f", "", 10, (s, s)))
    with pytest.raises(ScenarioError) as err:
        check_fleet(Fleet("f", "", 9, (s, s)))
    assert "size level budget exceeded" in err.value.reason and err.value.field == "fleet.ships"


def test_stat_cap_and_negative_and_empty_weapons():
    with pytest.raises(ScenarioError, match="stat cap"):
        check_design(ShipDesign("x", 2, 1, 1, 1, ((11, 1),)), stat_cap=10)
    with pytest.raises(ScenarioError, match=">= 0"):
        check_design(ShipDesign("x", 2, -1, 1, 1, ()))
    with pytest.raises(ScenarioError, match="at least one level"):
        check_design(ShipDesign("x", 2, 1, 1, 1, ((0, 0),)))


def test_builtin_fleets_and_scenarios_load():
    assert {"line", "swarm", "battlegroup", "outpost", "skirmish"} <= set(builtin_fleet_ids())
    for fid in builtin_fleet_ids():
        f = load_fleet(fid)
        assert all(s.cost <= s.budget for s in f.ships) and f.levels_used <= f.size_levels
    ids = builtin_ids()
    assert {"duel", "melee", "outpost", "design-duel", "skirmish"} <= set(ids)
    assert len(load_scenario("melee").players) == 3
    sizes = [p.size_levels for p in load_scenario("outpost").players]
    assert sizes[0] != sizes[1]  # an unequal battle
    assert load_scenario("design-duel").players[0].fleet is None


def test_fleet_save_and_load_round_trip(tmp_path):
    f = load_fleet("battlegroup")
    path = tmp_path / "bg.toml"
    path.write_text(fleet_to_toml(f))
    again = load_fleet(str(path))
    assert again == f
    assert fleet_to_toml(again) == fleet_to_toml(f)


def test_malformed_fleet_files_name_the_field(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "b"\nsize_levels = 4\n[[ships]]\nname = "x"\nsize = 2\nthrust = "fast"\n')
    with pytest.raises(ScenarioError) as err:
        load_fleet(str(bad))
    assert err.value.field == "fleet.ships[0].thrust"
    bad.write_text('id = "b"\n[[ships]]\nsize = 2\nthrust = 1\nwarp = 3\n')
    with pytest.raises(ScenarioError) as err:
        load_fleet(str(bad))
    assert err.value.field == "fleet.ships[0].warp"
    bad.write_text("this is = = not toml")
    with pytest.raises(ScenarioError, match="TOML"):
        load_fleet(str(bad))


def test_scenario_by_path_and_errors(tmp_path):
    fleet = tmp_path / "mine.toml"
    fleet.write_text('id = "m"\nsize_levels = 2\n[[ships]]\nname = "Gnat"\nsize = 2\nthrust = 2\nevasion = 5\n'
                     'endurance = 5\nweapons = [{targeting = 20, damage = 20}]\n')
    sc = tmp_path / "sc.toml"
    sc.write_text('id = "mine"\nround_limit = 5\n[[players]]\nfleet = "mine.toml"\nzone = {q = 0, r = 0, radius = 1}\n'
                  '[[players]]\nfleet = "skirmish"\nzone = {q = 9, r = 0, radius = 0}\n')
    state = DeepSpaceGame.new_initial_state({"scenario": str(sc)}, 3)
    assert state.num_players == 2 and state.round_limit == 5
    assert [s.name for s in state.ships] == ["Gnat", "Raider", "Raider"]
    sc.write_text('id = "mine"\n[[players]]\nfleet = "design"\nzone = {q = 0, r = 0}\n'
                  '[[players]]\nfleet = "skirmish"\nzone = {q = 9, r = 0}\n')
    with pytest.raises(ScenarioError, match="size_levels"):
        DeepSpaceGame.resolve_options({"scenario": str(sc)})
    with pytest.raises(ScenarioError, match="neither a built-in scenario id nor a readable file"):
        DeepSpaceGame.resolve_options({"scenario": "no-such-scenario"})


def test_a_scenario_names_the_bad_ship_of_its_fleet(tmp_path):
    from deltav.games.deepspace.scenarios import load_scenario

    (tmp_path / "f.toml").write_text('id = "f"\n[[ships]]\nsize = 1\nendurance = 61\n')
    sc = tmp_path / "sc.toml"
    sc.write_text('[[players]]\nfleet = "f.toml"\nzone = {q = 0, r = 0}\n[[players]]\nfleet = "skirmish"\n'
                  'zone = {q = 9, r = 0}\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(str(sc))
    assert err.value.field == "players[0].fleet.ships[0]"
    assert "design point budget exceeded" in err.value.reason


def test_a_fleet_designed_during_play_can_be_saved_and_played(tmp_path):
    from deltav.games.deepspace.messages import Done, EndShip, NewShip, SetStat, WeaponDamage, WeaponTargeting

    s = DeepSpaceGame.new_initial_state({"scenario": "design-duel"}, 1)
    s.apply_action(0, NewShip(4))
    for stat, level in (("thrust", 4), ("evasion", 20), ("endurance", 10)):
        s.apply_action(0, SetStat(stat, level))
    s.apply_action(0, WeaponTargeting(50))
    s.apply_action(0, WeaponDamage(54))
    s.apply_action(0, EndShip())
    s.apply_action(0, Done())
    path = tmp_path / "mine.toml"
    path.write_text(fleet_to_toml(s.fleet(0)))
    again = load_fleet(str(path))
    assert again.ships == (ShipDesign("Design 1", 4, 4, 20, 10, ((50, 54),)),) and again.size_levels == 4
    assert again.ships[0].cost == 240
