"""Every tactical data file kind (scenario, map, ships.toml, combat.toml) is read through core.datafile: a broken
file raises ScenarioError naming the field path, the reason and the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deltav.core.errors import ScenarioError
from deltav.games.tactical import combat, shiptypes
from deltav.games.tactical.mapdata import default_map, load_map_file
from deltav.games.tactical.scenarios import load_scenario_file

DATA = Path(shiptypes.__file__).parent / "data"

SCENARIO = """id = "mini"
[rules]
combat = false
[[players]]
home = "Mars"
target = "Venus"
bases = ["Mars"]
[[players.ships]]
id = "a"
type = "packet"
position = [-8, -6]
landed = true
[[players]]
home = "Venus"
target = "Mars"
bases = ["-5,7"]
[[players.ships]]
id = "b"
type = "corvette"
position = [-5, 7]
landed = true
"""


def _raises(load, path: Path) -> ScenarioError:
    with pytest.raises(ScenarioError) as err:
        load(path)
    assert err.value.source == str(path)
    return err.value


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ("combat = false", 'combat = "no"', "rules.combat", "expected a boolean"),
        ("position = [-5, 7]", "position = [-5, 7.5]", "players[1].ships[0].position[1]", "expected an integer"),
        ('id = "a"', 'id = "a"\npassengers = -2', "players[0].ships[0].passengers", "below the minimum 0"),
        ('id = "a"', 'id = "a"\nwings = 2', "players[0].ships[0].wings", "unknown field"),
        ('id = "mini"', "", "id", "missing"),
        ("landed = true\n[[players]]", "landed = true\n[[players]\n", "(file)", "not valid TOML"),
        ('target = "Venus"', 'target = "Venus"\nescape_wins = true', "players[0].escape_wins", "escape_edge"),
        ('[rules]', '[rules]\nescape_edge = "south"', "rules.escape_edge", "expected one of"),
        ('[rules]', '[rules]\ncheckpoints = ["Pluto"]', "rules.checkpoints[0]", "expected one of"),
    ],
)
def test_a_broken_scenario_file_names_field_reason_and_file(tmp_path, old, new, field, reason):
    assert old in SCENARIO
    p = tmp_path / "bad.toml"
    p.write_text(SCENARIO.replace(old, new, 1))
    e = _raises(load_scenario_file, p)
    assert e.field == field
    assert reason in e.reason


def test_a_json_scenario_file_gets_the_same_errors(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps({"id": "x", "starting_player": 2, "players": [{}, {}]}))
    e = _raises(load_scenario_file, p)
    assert e.field == "starting_player" and "expected one of" in e.reason
    p.write_text("{not json")
    e = _raises(load_scenario_file, p)
    assert e.field == "(file)" and "not valid JSON" in e.reason


def _map_file(tmp_path, edit) -> Path:
    doc = json.loads((DATA / "map.json").read_text())
    edit(doc)
    p = tmp_path / "map.json"
    p.write_text(json.dumps(doc))
    return p


def _set(path, value):
    def edit(doc):
        obj = doc
        for k in path[:-1]:
            obj = obj[k]
        if value is KeyError:
            del obj[path[-1]]
        else:
            obj[path[-1]] = value

    return edit


@pytest.mark.parametrize(
    ("edit", "field", "reason"),
    [
        (_set(["bounds", "minQ"], "left"), "bounds.minQ", "expected an integer"),
        (_set(["off_map_margin"], -1), "off_map_margin", "below the minimum 0"),
        (_set(["bodies", 0, "colour"], "yellow"), "bodies[0].colour", "unknown field"),
        (_set(["bodies", 1, "center"], KeyError), "bodies[1].center", "missing"),
        (_set(["hexes", 0, "terrain"], "lava"), "hexes[0].terrain", "expected one of"),
        (_set(["bounds", "minQ"], 99), "bounds", "min above max"),
        (_set(["bodies", 1, "name"], "Sol"), "bodies[1].name", "duplicate body"),
    ],
)
def test_a_broken_map_file_names_field_reason_and_file(tmp_path, edit, field, reason):
    e = _raises(load_map_file, _map_file(tmp_path, edit))
    assert e.field == field
    assert reason in e.reason


def test_a_map_file_that_is_not_json(tmp_path):
    p = tmp_path / "map.json"
    p.write_text('{"bounds": ')
    e = _raises(load_map_file, p)
    assert e.field == "(file)" and "not valid JSON" in e.reason
    assert len(load_map_file(DATA / "map.json").hex_records) == len(default_map().hex_records)


def _ships_file(tmp_path, old, new) -> Path:
    text = (DATA / "ships.toml").read_text()
    assert old in text
    p = tmp_path / "ships.toml"
    p.write_text(text.replace(old, new, 1))
    return p


def _load_ships(path: Path):
    from deltav.core import datafile

    return shiptypes.parse_ships(datafile.parse(path.read_bytes(), str(path)), str(path))


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ("[ships.transport]\ncombat = 1", "[ships.transport]\ncombat = true", "ships.transport.combat",
         "expected an integer"),
        ("[ships.transport]\ncombat = 1", "[ships.transport]\ncombat = -1", "ships.transport.combat",
         "below the minimum 0"),
        ("[ships.transport]\ncombat = 1", "[ships.transport]\ncombat = 1\nshields = 3", "ships.transport.shields",
         "unknown field"),
        ("lifetime = 5\n", "", "ordnance.lifetime", "missing"),
        ('fires_disabled = "d1"', 'fires_disabled = "d2"', "ships.orbitalBase.fires_disabled", "expected one of"),
        ('fuel = "unlimited"', "fuel = inf", "ships.torch.fuel",
         "expected an integer or one of 'unlimited'"),
        ("[ordnance]", "[ordnance", "(file)", "not valid TOML"),
    ],
)
def test_a_broken_ships_file_names_field_reason_and_file(tmp_path, old, new, field, reason):
    e = _raises(_load_ships, _ships_file(tmp_path, old, new))
    assert e.field == field
    assert reason in e.reason


def test_the_shipped_ships_file_reads_unlimited_capacities():
    types = shiptypes.ship_types()
    assert types["orbitalBase"].fuel is None and types["orbitalBase"].cargo is None
    assert types["torch"].fuel is None and types["torch"].cargo == 10
    assert types["transport"].fuel == 10


@pytest.mark.parametrize(
    ("old", "new", "field", "reason"),
    [
        ("base_fire_range = 1", 'base_fire_range = "1"', "combat.base_fire_range", "expected an integer"),
        ("repair_per_turn = 1", "repair_per_turn = -1", "combat.repair_per_turn", "below the minimum 0"),
        ("[detection]", "[detection]\nbeam_range = 2", "detection.beam_range", "unknown field"),
        ("base_range = 5\n", "", "detection.base_range", "missing"),
        ("[odds]", "[odds", "(file)", "not valid TOML"),
        ('heroism_min_result = "D2"', 'heroism_min_result = "-"', "combat.heroism_min_result", "damaging"),
        ('warships = ["corvette"', 'warships = ["corvette", "corvette"', "ship_classes.warships", "duplicate"),
    ],
)
def test_a_broken_combat_file_names_field_reason_and_file(tmp_path, old, new, field, reason):
    text = (DATA / "combat.toml").read_text()
    assert old in text
    p = tmp_path / "combat.toml"
    p.write_text(text.replace(old, new, 1))
    e = _raises(combat.load_tables, p)
    assert e.field == field
    assert reason in e.reason


def test_the_cli_reports_a_broken_scenario_file_with_field_reason_and_file(tmp_path, capsys):
    from deltav.cli import main

    p = tmp_path / "mine.toml"
    p.write_text(SCENARIO.replace('id = "a"', 'id = "a"\npassengers = "many"', 1))
    code = main(["play", "tactical", "--scenario", str(p), "--seat", "0=bot:random", "--seat", "1=bot:random"])
    err = capsys.readouterr().err
    assert code == 1
    assert "players[0].ships[0].passengers" in err and "expected an integer" in err and "mine.toml" in err
