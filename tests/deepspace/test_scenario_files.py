"""Scenario and fleet references and files: unknown ids, bad names, unreadable and malformed files all raise
ScenarioError naming the field (and the file), never OSError/ValueError/UnicodeError."""

from __future__ import annotations

import pytest

from deltav.core.errors import OptionError, ScenarioError
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.design import load_fleet
from deltav.games.deepspace.scenarios import builtin_ids, load_scenario

GOOD_SIDE = 'fleet = "skirmish"\nzone = {q = 9, r = 0}\n'


def _scenario(tmp_path, text: str, name="sc.toml") -> str:
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("name", ["grandtour", "a\0b", "\ud800", "x" * 5000, "", ".", "/", "duel.toml", "../duel"])
def test_unknown_or_bad_scenario_names_say_so_and_list_the_builtin_ids(name):
    with pytest.raises(ScenarioError) as err:
        DeepSpaceGame.new_initial_state({"scenario": name}, 0)
    assert err.value.field == "scenario"
    assert "neither a built-in scenario id nor a readable file" in err.value.reason
    assert all(sid in err.value.reason for sid in builtin_ids())
    assert len(str(err.value)) < 400


def test_a_directory_and_unreadable_files(tmp_path):
    with pytest.raises(ScenarioError, match="neither a built-in"):
        load_scenario(str(tmp_path))
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"id = \"x\"\n\xff\xfe\x00")
    with pytest.raises(ScenarioError) as err:
        load_scenario(str(binary))
    assert "not UTF-8" in err.value.reason and err.value.source == str(binary)
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (1 << 21))
    with pytest.raises(ScenarioError, match="larger than"):
        load_scenario(str(big))


@pytest.mark.parametrize(
    "text, field",
    [
        ("id = [[[[[[", "(file)"),
        ("a = " + "[" * 5000 + "]" * 5000, "(file)"),
        ("players = 3", "players"),
        ('[[players]]\nfleet = "skirmish"\nzone = {q = 0, r = 0}\n', "players"),
        ("[[players]]\n" + GOOD_SIDE + "[[players]]\nfleet = 3\nzone = {q = 0, r = 0}\n", "players[1].fleet"),
        ("[[players]]\n" + GOOD_SIDE + '[[players]]\nfleet = "nope"\nzone = {q = 0, r = 0}\n', "players[1].fleet"),
        ("[[players]]\n" + GOOD_SIDE + '[[players]]\nfleet = "a\\u0000b"\nzone = {q = 0, r = 0}\n',
         "players[1].fleet"),
        ("[[players]]\n" + GOOD_SIDE + '[[players]]\nfleet = "design"\nsize_levels = 10000000\nzone = {q = 0, r = 0}\n',
         "players[1].size_levels"),
        ("[[players]]\n" + GOOD_SIDE + '[[players]]\nfleet = "design"\nsize_levels = 4\nzone = {q = 0, r = 0, '
         "radius = 100000}\n", "players[1].zone.radius"),
        ("[[players]]\n" + GOOD_SIDE + '[[players]]\nfleet = "design"\nsize_levels = 4\nzone = {q = 1e3, r = 0}\n',
         "players[1].zone.q"),
        ("[[players]]\n" + GOOD_SIDE + '[[players]]\nfleet = "design"\nsize_levels = 4\nzone = {q = 10**9, r = 0}\n',
         "(file)"),
        ("[[players]]\n" + GOOD_SIDE + '[[players]]\nfleet = "design"\nsize_levels = 4\nzone = {q = 99999, r = 0}\n',
         "players[1].zone.q"),
        ("[[players]]\n" + GOOD_SIDE * 9, "(file)"),
        ("".join("[[players]]\n" + GOOD_SIDE for _ in range(9)), "players"),
        ("round_limit = 10000000\n[[players]]\n" + GOOD_SIDE + "[[players]]\n" + GOOD_SIDE, "round_limit"),
    ],
)
def test_malformed_scenario_files_name_the_field_and_the_file(tmp_path, text, field):
    path = _scenario(tmp_path, text)
    with pytest.raises(ScenarioError) as err:
        DeepSpaceGame.new_initial_state({"scenario": path}, 0)
    assert err.value.field == field, err.value
    assert err.value.source == path


def test_a_malformed_fleet_file_of_a_scenario_names_the_ship_and_the_fleet_file(tmp_path):
    fleet = tmp_path / "f.toml"
    fleet.write_text('id = "f"\n[[ships]]\nsize = 1000\n')
    path = _scenario(tmp_path, '[[players]]\nfleet = "f.toml"\nzone = {q = 0, r = 0}\n[[players]]\n' + GOOD_SIDE)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.field in ("players[0].fleet.ships[0].size", "players[0].fleet.size_levels")
    assert str(fleet) in err.value.reason and err.value.source == path
    fleet.write_text('id = "f"\n' + "[[ships]]\nsize = 1\nthrust = 1\n" * 500)
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.field == "players[0].fleet.ships"


@pytest.mark.parametrize("name", ["nope", "a\0b", "\ud800", "y" * 5000])
def test_unknown_fleet_names(name):
    with pytest.raises(ScenarioError) as err:
        load_fleet(name)
    assert "neither a built-in fleet id nor a readable file" in err.value.reason
    assert "skirmish" in err.value.reason


def test_a_non_integer_stat_cap_is_an_option_error():
    with pytest.raises(OptionError):
        DeepSpaceGame.num_players({"scenario": "duel", "stat_cap": "x"})
