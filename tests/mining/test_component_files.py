"""Broken component files (the shipped layout, read by ``core.datafile``): every fault is a ScenarioError naming
the field, the reason and the file, for the shipped files' layout, a user's file and the embedded JSON form."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import ScenarioError
from deltav.games.mining import MiningGame
from deltav.games.mining import scenarios as scen

GOOD = """
[scenario]
id = "mine"
title = "My mix"

[components]
rockets_per_player = 4

[[tiles]]
kind = "alphatite"
values = [1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3]

[[tiles]]
kind = "betamite"
values = [2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2]

[[tiles]]
kind = "omnidium"
values = [5, 5, 5, 5]

[[tiles]]
kind = "alien_encounter"
count = 5

[[tiles]]
kind = "pirate_attack"
count = 10

[[contracts]]
id = "X1"
minerals = ["alphatite", "betamite"]
"""


def _load(tmp_path, text: str, name: str = "mix.toml"):
    path = tmp_path / name
    path.write_text(text)
    return scen.load(str(path)), str(path)


def test_the_good_file_loads(tmp_path):
    c, _ = _load(tmp_path, GOOD)
    assert (c.id, c.title, c.rockets_per_player, len(c.kinds)) == ("mine", "My mix", 4, 48)
    assert MiningGame.new_initial_state({"scenario": str(tmp_path / "mix.toml")}, 3).cfg.rockets == 4


@pytest.mark.parametrize(
    "old, new, field, reason",
    [
        # wrong type
        ("rockets_per_player = 4", 'rockets_per_player = "four"', "components.rockets_per_player", "expected an integer"),
        ('title = "My mix"', "title = 7", "scenario.title", "expected a string or null"),
        # out of range
        ("rockets_per_player = 4", "rockets_per_player = 9", "components.rockets_per_player", "above the maximum 5"),
        ("values = [5, 5, 5, 5]", "values = [5, 5, 5, 6]", "tiles[2].values[3]", "above the maximum 5"),
        ('minerals = ["alphatite", "betamite"]', "minerals = []", "contracts[0].minerals", "at least 1"),
        # unknown field or value
        ('title = "My mix"', 'title = "My mix"\ncolour = "red"', "scenario.colour", "unknown field"),
        ("count = 10", "count = 10\nvalue = 1", "tiles[4].value", "unknown field"),
        ('kind = "omnidium"', 'kind = "unobtainium"', "tiles[2].kind", "expected one of"),
        ('id = "mine"', 'id = "mine"\nbase = "nope"', "scenario.base", "expected one of"),
        # missing field
        ('id = "X1"\n', "", "contracts[0].id", "missing"),
        ('kind = "pirate_attack"\ncount = 10', 'kind = "pirate_attack"', "tiles[4].count", "needs a count"),
        # bad syntax
        ("[components]", "[components", "(file)", "not valid TOML"),
        # cross-field errors
        ("count = 5", 'count = 4\n\n[[tiles]]\nkind = "sabotage"\ncount = 1', "tiles", "exactly 5 Alien Encounter"),
        ("count = 10", "count = 9", "tiles", "exactly 48 tiles"),
        ('minerals = ["alphatite", "betamite"]', 'minerals = ["omnidium"]', "contracts[0].minerals[0]", "wildcard"),
        ('minerals = ["alphatite", "betamite"]', f"minerals = {json.dumps(['gammatite'] * 5)}", "contracts[0].minerals",
         "has only"),
        ('kind = "betamite"\nvalues', 'kind = "meteor_storm"\nvalues', "tiles[1].values", "no point value"),
    ],
)
def test_a_broken_user_file_names_the_field_the_reason_and_the_file(tmp_path, old, new, field, reason):
    assert old in GOOD
    path = tmp_path / "broken.toml"
    path.write_text(GOOD.replace(old, new, 1))
    with pytest.raises(ScenarioError) as err:
        MiningGame.new_initial_state({"scenario": str(path)}, 1)
    e = err.value
    assert (e.field, e.source) == (field, str(path))
    assert reason in e.reason, e.reason


def test_a_broken_json_file_names_the_field_and_the_file(tmp_path):
    data = {"scenario": {"id": "j"}, "contracts": [{"id": "K", "minerals": ["deltamite"], "points": 3}]}
    path = tmp_path / "mix.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ScenarioError) as err:
        scen.load(str(path))
    assert (err.value.field, err.value.source) == ("contracts[0].points", str(path))
    path.write_text("{not json")
    with pytest.raises(ScenarioError) as err:
        scen.load(str(path))
    assert (err.value.field, err.value.source) == ("(file)", str(path)) and "not valid JSON" in err.value.reason


def test_a_file_that_is_not_a_table_or_not_utf8(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    with pytest.raises(ScenarioError) as err:
        scen.load(str(path))
    assert err.value.field == "(file)" and "expected an object" in err.value.reason
    path = tmp_path / "latin.toml"
    path.write_bytes(b'[scenario]\ntitle = "caf\xe9"\n')
    with pytest.raises(ScenarioError) as err:
        scen.load(str(path))
    assert (err.value.field, err.value.source) == ("(file)", str(path)) and "UTF-8" in err.value.reason


@pytest.mark.parametrize(
    "change, field",
    [
        (lambda d: d.__setitem__("colour", "red"), "colour"),
        (lambda d: d["tile_mix"][0].__setitem__("count", 0), "tile_mix[0].count"),
        (lambda d: d["tile_mix"][0].__setitem__("value", 0), "tile_mix[0].value"),
        (lambda d: d.pop("title"), "title"),
        (lambda d: d["contracts"][0].__setitem__("minerals", "alphatite"), "contracts[0].minerals"),
    ],
)
def test_broken_embedded_components_name_the_field(change, field):
    d = scen.load("standard").to_json()
    change(d)
    with pytest.raises(ScenarioError) as err:
        scen.from_json(d, "state")
    assert (err.value.field, err.value.source) == (field, "state") and err.value.reason


def test_the_shipped_files_read_through_the_one_reader():
    for sid, name in scen.SCENARIO_FILES.items():
        c = scen.load(sid)
        assert len(c.kinds) == 48 and c.id == sid
        assert scen.from_json(c.to_json()) == c
        assert name.endswith(".toml")
