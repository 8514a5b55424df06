"""The static board export (deltav.games.tactical.board): plain JSON read from the game's own map and scenario
data, checked against the map tables and the design note's counts (design/tactical.md 1.2)."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import OptionError, ScenarioError
from deltav.games.tactical.board import FORMAT, board
from deltav.games.tactical.mapdata import default_map
from deltav.games.tactical.scenarios import SCENARIO_IDS, builtin_scenario


def _hexes(rows):
    return {tuple(h) for h in rows}


def test_board_is_plain_json_and_stable():
    b = board()
    assert json.loads(json.dumps(b)) == b
    assert board() == b
    assert b["format"] == FORMAT
    assert b["scenario"]["id"] == "biplanetary"


def test_grid_bounds_and_size():
    b = board()
    assert b["grid"]["orientation"] == "flat-top"
    assert b["grid"]["directions"] == [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]
    assert b["bounds"] == {"minQ": -16, "maxQ": 16, "minR": -28, "maxR": 10}
    assert b["off_map_margin"] == 2
    assert b["size"] == {"columns": 33, "rows": 39, "hexes": 33 * 39}


def test_bodies_kinds_and_surfaces():
    b = board()
    bodies = {x["name"]: x for x in b["bodies"]}
    assert [x["name"] for x in b["bodies"]] == list(default_map().body_order)
    kinds = {n: x["kind"] for n, x in bodies.items()}
    assert kinds == {"Sol": "star", "Mercury": "planet", "Venus": "planet", "Terra": "planet", "Luna": "moon",
                     "Mars": "planet", "Ceres": "minor", "Jupiter": "planet", "Io": "moon", "Callisto": "moon",
                     "Ganymede": "moon"}
    assert len(bodies["Sol"]["surface"]) == 19 and bodies["Sol"]["destructive"]
    assert len(bodies["Jupiter"]["surface"]) == 19
    assert len(bodies["Terra"]["surface"]) == 7
    assert bodies["Terra"]["center"] == [5, -5]
    assert bodies["Ceres"]["surface"] == [[-7, -10]] and bodies["Ceres"]["gravity"] == "none"
    # every surface hex of the map is listed exactly once, under its body
    listed = [(tuple(h), x["name"]) for x in b["bodies"] for h in x["surface"]]
    assert dict(listed) == default_map().surface and len(listed) == len(default_map().surface) == 59


def test_gravity_hexes_match_the_map():
    b = board()
    assert len(b["gravity"]) == 121
    got = {tuple(g["hex"]): (g["dir"], g["body"], g["strength"] == "weak") for g in b["gravity"]}
    assert got == default_map().gravity
    luna = [g for g in b["gravity"] if g["body"] == "Luna"]
    assert len(luna) == 6 and all(g["strength"] == "weak" for g in luna)
    assert {"hex": [-4, 5], "dir": 1, "body": "Sol", "strength": "full"} in b["gravity"]


def test_bases_kinds_and_fire_zones():
    b = board()
    assert len(b["bases"]) == 30
    assert {tuple(x["hex"]): x["owner"] for x in b["bases"]} == default_map().base
    by_hex = {tuple(x["hex"]): x for x in b["bases"]}
    assert by_hex[(-6, -10)]["kind"] == "asteroid" and by_hex[(-6, -10)]["fire_zone"] == []
    assert by_hex[(6, -16)]["station"] and by_hex[(6, -16)]["owner"] == "Clandestine"
    assert by_hex[(10, -7)]["kind"] == "planetary"  # a Luna base: weak gravity still lands from orbit
    assert _hexes(by_hex[(2, 3)]["fire_zone"]) == default_map().fire_zone[(2, 3)]


def test_asteroids():
    b = board()
    assert len(b["asteroids"]) == 64
    assert _hexes(b["asteroids"]) == default_map().asteroids


def test_base_controllers_follow_the_scenario():
    bi = board({"scenario": "biplanetary"})
    sc = builtin_scenario("biplanetary")
    for seat, player in enumerate(sc.players):
        for h in player.bases:
            assert seat in {tuple(x["hex"]): x for x in bi["bases"]}[h]["controlled_by"]
    # Escape: both sides may resupply at Terra
    esc = {tuple(x["hex"]): x for x in board({"scenario": "escape"})["bases"]}
    assert esc[(7, -7)]["controlled_by"] == [0, 1]
    assert esc[(-5, 7)]["controlled_by"] == [1]
    assert esc[(-8, -6)]["controlled_by"] == []


def test_scenario_facts():
    gt = board({"scenario": "grand_tour"})["scenario"]
    assert gt["checkpoints"] == list(builtin_scenario("grand_tour").rules.checkpoints) and gt["checkpoints"]
    assert board({"scenario": "escape"})["scenario"]["escape_edge"] == "north"
    for sid in SCENARIO_IDS:
        s = board({"scenario": sid})["scenario"]
        assert s["name"] == builtin_scenario(sid).name
        assert [p["home"] for p in s["players"]] == [p.home for p in builtin_scenario(sid).players]


def test_bad_options_raise_the_projects_errors():
    with pytest.raises(OptionError) as e:
        board({"no_such_option": 1})
    assert e.value.option == "no_such_option"
    with pytest.raises(OptionError) as e:
        board({"scenario": 3})
    assert e.value.option == "scenario"
    with pytest.raises(ScenarioError):
        board({"scenario": "/nonexistent/scenario.toml"})


def test_the_board_gives_the_scenario_ships_labels_as_the_texts_name_them():
    from deltav.games.tactical.board import board

    labels = board({"scenario": "convoy"})["scenario"]["ship_labels"]
    assert labels["p1s0"] == {"label": "corsair A", "side": 1, "type": "corsair"}
    assert labels["p1s2"]["label"] == "corvette" and labels["p0s0"]["label"] == "liner"
