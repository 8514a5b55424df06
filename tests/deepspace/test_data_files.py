"""Every kind of Deep Space data file (fleet, scenario, archetype library) goes through ``core.datafile``: a
broken file names the field, the reason and the file, for each kind of mistake."""

from __future__ import annotations

import pytest

from deltav.core.errors import ScenarioError
from deltav.games.deepspace.bots import lookahead
from deltav.games.deepspace.design import load_fleet
from deltav.games.deepspace.scenarios import load_scenario

SHIP = 'name = "S"\nsize = 2\nthrust = 2\nevasion = 5\nendurance = 5\nweapons = [{targeting = 20, damage = 20}]\n'
FLEET_OK = 'id = "f"\nsize_levels = 2\n[[ships]]\n' + SHIP
SIDE = 'fleet = "skirmish"\nzone = {q = 9, r = 0}\n'
SCENARIO_OK = '[[players]]\n' + SIDE + '[[players]]\nfleet = "design"\nsize_levels = 4\nzone = {q = 0, r = 0}\n'
ARCH_OK = '[[archetypes]]\nid = "a"\ntitle = "A"\n[archetypes.ship]\n' + SHIP


def _raises(load, tmp_path, text: str) -> ScenarioError:
    p = tmp_path / "data.toml"
    p.write_text(text)
    lookahead.archetypes.cache_clear()
    with pytest.raises(ScenarioError) as err:
        load(str(p))
    assert err.value.source == str(p), err.value
    return err.value


def test_good_files_of_every_kind_load(tmp_path):
    for name, text, load in (("f.toml", FLEET_OK, load_fleet), ("s.toml", SCENARIO_OK, load_scenario),
                             ("a.toml", ARCH_OK, lookahead.archetypes)):
        p = tmp_path / name
        p.write_text(text)
        assert load(str(p))
    assert load_fleet(str(tmp_path / "f.toml")).ships[0].name == "S"
    assert [a.id for a in lookahead.archetypes(str(tmp_path / "a.toml"))] == ["a"]


@pytest.mark.parametrize(
    "text, field, reason",
    [
        (FLEET_OK.replace("thrust = 2", 'thrust = "fast"'), "fleet.ships[0].thrust", "expected an integer"),
        (FLEET_OK.replace("size = 2", "size = 500"), "fleet.ships[0].size", "above the maximum 120"),
        (FLEET_OK.replace("thrust = 2", "thrust = -1"), "fleet.ships[0].thrust", "below the minimum 0"),
        (FLEET_OK + "warp = 3\n", "fleet.ships[0].warp", "unknown field"),
        (FLEET_OK.replace('name = "S"\nsize = 2\n', ""), "fleet.ships[0].size", "missing"),
        ('id = "f"\n', "fleet.ships", "missing"),
        ("id = = 3", "(file)", "not valid TOML"),
        (FLEET_OK.replace("evasion = 5", "evasion = 50"), "fleet.ships[0]", "design point budget exceeded"),
        (FLEET_OK.replace("size_levels = 2", "size_levels = 1"), "fleet.ships", "size level budget exceeded"),
    ],
)
def test_broken_fleet_files(tmp_path, text, field, reason):
    e = _raises(load_fleet, tmp_path, text)
    assert (e.field, reason in e.reason) == (field, True), e


@pytest.mark.parametrize(
    "text, field, reason",
    [
        (SCENARIO_OK.replace("size_levels = 4", 'size_levels = "4"'), "players[1].size_levels", "expected"),
        ("round_limit = 0\n" + SCENARIO_OK, "round_limit", "below the minimum 1"),
        (SCENARIO_OK.replace("r = 0}", "r = 0, radius = 31}"), "players[0].zone.radius", "above the maximum 30"),
        ("turns = 3\n" + SCENARIO_OK, "turns", "unknown field"),
        (SCENARIO_OK.replace("zone = {q = 0, r = 0}\n", ""), "players[1].zone", "missing"),
        (SCENARIO_OK.replace("zone = {q = 9, r = 0}", "zone = {r = 0}"), "players[0].zone.q", "missing"),
        ("[[players]\n", "(file)", "not valid TOML"),
        (SCENARIO_OK.replace("size_levels = 4\n", ""), "players[1].size_levels", "missing"),
        (SCENARIO_OK.replace('fleet = "skirmish"', 'fleet = "skirmish"\nsize_levels = 1'), "players[0].fleet",
         "size level budget exceeded"),
        (SCENARIO_OK.replace('fleet = "skirmish"', 'fleet = "nope"'), "players[0].fleet", "neither a built-in"),
    ],
)
def test_broken_scenario_files(tmp_path, text, field, reason):
    e = _raises(load_scenario, tmp_path, text)
    assert (e.field, reason in e.reason) == (field, True), e


@pytest.mark.parametrize(
    "text, field, reason",
    [
        (ARCH_OK.replace('title = "A"', "title = 3"), "archetypes[0].title", "expected a string"),
        (ARCH_OK.replace("size = 2", "size = 0"), "archetypes[0].ship.size", "below the minimum 1"),
        (ARCH_OK.replace('title = "A"', 'title = "A"\ncolour = "red"'), "archetypes[0].colour", "unknown field"),
        (ARCH_OK.replace('id = "a"\n', ""), "archetypes[0].id", "missing"),
        ('title = "x"\n', "title", "unknown field"),
        ("archetypes = []\n", "archetypes", "at least 1"),
        ("[[archetypes]\n", "(file)", "not valid TOML"),
        (ARCH_OK.replace("thrust = 2", "thrust = 70"), "archetypes[0].ship", "design point budget exceeded"),
    ],
)
def test_broken_archetype_files(tmp_path, text, field, reason):
    e = _raises(lookahead.archetypes, tmp_path, text)
    assert (e.field, reason in e.reason) == (field, True), e
