"""The map, ship and scenario data files: contents (design/tactical.md 1.2, 1.3, 1.14) and validation."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import ScenarioError
from deltav.games.tactical.mapdata import default_map, parse_map
from deltav.games.tactical.scenarios import SCENARIO_IDS, builtin_scenario, load_scenario_file, parse_scenario
from deltav.games.tactical.shiptypes import ship_data, ship_types

from .helpers import GAME, new_state


def test_map_has_238_hexes_with_the_design_note_counts():
    m = default_map()
    assert len(m.hex_records) == 238
    terrains = {}
    for h in m.hex_records:
        terrains[h["terrain"]] = terrains.get(h["terrain"], 0) + 1
    assert terrains == {"space": 115, "asteroid": 64, "planetSurface": 40, "sunSurface": 19}
    assert m.bounds == (-16, 16, -28, 10)
    assert m.elim_bounds == (-18, 18, -30, 12)


def test_gravity_table_samples():
    m = default_map()
    assert m.gravity[(-4, 5)] == (1, "Sol", False)
    assert m.gravity[(-1, -15)] == (2, "Jupiter", False)  # Io's centre keeps Jupiter gravity
    assert m.gravity[(4, -6)] == (5, "Terra", False) and (4, -6) in m.asteroids
    assert m.gravity[(10, -7)] == (3, "Luna", True)
    assert m.gravity[(-8, -6)] == (4, "Mars", False)
    counts = {}
    for _, body, _ in m.gravity.values():
        counts[body] = counts.get(body, 0) + 1
    assert counts == {"Sol": 35, "Mercury": 6, "Venus": 12, "Terra": 12, "Luna": 6, "Mars": 6, "Jupiter": 29,
                      "Io": 5, "Callisto": 4, "Ganymede": 6}


def test_bases_are_gravity_ring_hexes():
    m = default_map()
    assert m.bases_of["Mars"] == ((-8, -6), (-10, -4), (-8, -5), (-9, -6), (-10, -5), (-9, -4))
    for h, body in m.base.items():
        if m.body_has_gravity(body):
            assert m.gravity[h][1] == body
    assert m.base[(-6, -10)] == "Ceres" and (-6, -10) in m.asteroids
    assert m.base[(6, -16)] == "Clandestine"
    assert not m.body_has_gravity("Ceres")


def test_ship_types_match_the_help_text():
    t = ship_types()
    table = {
        "transport": (1, True, 10, 50, 10, False), "packet": (2, False, 10, 50, 20, False),
        "tanker": (1, True, 50, 0, 10, False), "liner": (2, True, 10, 0, 50, False),
        "corvette": (2, False, 20, 5, 40, True), "corsair": (4, False, 20, 10, 80, True),
        "frigate": (8, False, 20, 40, 150, True), "dreadnaught": (15, False, 15, 50, 600, True),
        "torch": (8, False, None, 10, 400, True), "orbitalBase": (16, False, None, None, 1000, False),
    }
    for name, (combat, d, fuel, cargo, cost, war) in table.items():
        st = t[name]
        assert (st.combat, st.defensive, st.fuel, st.cargo, st.cost, st.warship) == (combat, d, fuel, cargo, cost, war)
    sd = ship_data()
    assert sd.ordnance_mass == {"mine": 10, "torpedo": 20, "nuke": 20}
    assert (sd.elimination, sd.detection_ship, sd.detection_base, sd.ordnance_lifetime) == (6, 3, 5, 5)


@pytest.mark.parametrize("sid", SCENARIO_IDS)
def test_every_scenario_loads_and_starts(sid):
    sc = builtin_scenario(sid)
    assert sc.id == sid
    s = GAME.new_initial_state({"scenario": sid}, 3)
    assert s.current_players()


def test_scenario_starts_match_the_design_note():
    bi = builtin_scenario("biplanetary")
    assert bi.players[0].target == "Venus" and bi.players[1].target == "Mars"
    assert bi.players[0].ships[0].position == (-8, -6) and bi.players[0].ships[0].landed
    gt = builtin_scenario("grand_tour")
    assert gt.rules.checkpoints == ("Sol", "Mercury", "Venus", "Terra", "Mars", "Jupiter", "Io", "Callisto")
    assert not gt.rules.combat
    assert len(gt.players[0].bases) == 25 and len(gt.players[1].bases) == 19
    esc = builtin_scenario("escape")
    assert [s.velocity for s in esc.players[0].ships] == [(-2, 1)] * 3
    assert len(esc.players[1].bases) == 13
    assert builtin_scenario("convoy").players[0].ships[0].passengers == 120
    fa = builtin_scenario("fleet_action")
    assert (fa.players[0].credits, fa.players[1].credits) == (600, 400)


def test_grand_tour_luna_ruling_option_adds_luna():
    s = new_state("grand_tour", grand_tour_luna=True)
    assert "Luna" in s.rules.checkpoints and len(s.rules.checkpoints) == 9


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_user_scenario_by_path_is_playable(tmp_path):
    text = """
id = "mini"
name = "Mini race"
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
    p = _write(tmp_path, "mini.toml", text)
    s = GAME.new_initial_state({"scenario": str(p)}, 1)
    assert s.scenario == "mini"
    assert s.ship("a").type.name == "packet" and s.players[1].bases == ((-5, 7),)
    assert s.legal_actions(0)


@pytest.mark.parametrize(
    "patch, field",
    [
        (("type = \"packet\"", "type = \"battlestar\""), "players[0].ships[0].type"),
        (("position = [-8, -6]", "position = [-8]"), "players[0].ships[0].position"),
        (("home = \"Mars\"", "home = \"Pluto\""), "players[0].home"),
        (("bases = [\"-5,7\"]", "bases = [\"0,0\"]"), "players[1].bases[0]"),
        (("combat = false", "combat = 3"), "rules.combat"),
        (("landed = true\n[[players]]", "landed = true\nfuel = 99\n[[players]]"), "players[0].ships[0].fuel"),
        (("id = \"b\"", "id = \"a\""), "players[1].ships[0].id"),
    ],
)
def test_malformed_scenario_files_name_the_field(tmp_path, patch, field):
    text = """id = "mini"
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
    assert patch[0] in text
    p = _write(tmp_path, "bad.toml", text.replace(patch[0], patch[1], 1))
    with pytest.raises(ScenarioError) as err:
        load_scenario_file(p)
    assert err.value.field == field
    with pytest.raises(ScenarioError):
        GAME.resolve_options({"scenario": str(p)})


def test_json_scenarios_and_unreadable_files(tmp_path):
    p = _write(tmp_path, "s.json", json.dumps({"id": "x", "players": [{"ships": []}]}))
    with pytest.raises(ScenarioError) as err:
        load_scenario_file(p)
    assert err.value.field == "players"
    with pytest.raises(ScenarioError):
        load_scenario_file(tmp_path / "missing.toml")
    with pytest.raises(ScenarioError):
        parse_scenario([1, 2])


def test_malformed_map_is_rejected_with_the_field():
    good = default_map().to_json()
    bad = json.loads(json.dumps(good))
    bad["hexes"][3]["gravity"] = {"body": "Mars", "dir": 9, "strength": "full"}
    with pytest.raises(ScenarioError) as err:
        parse_map(bad)
    assert err.value.field == "hexes[3].gravity.dir"
    bad = json.loads(json.dumps(good))
    bad["hexes"][0]["terrain"] = "lava"
    with pytest.raises(ScenarioError) as err:
        parse_map(bad)
    assert err.value.field == "hexes[0].terrain"
    assert len(parse_map(good).hex_records) == 238


# The gravity table of design/tactical.md 1.2, verbatim (hex: direction; w = weak, B = base).
GRAVITY_TABLE = """
Sol: (-4,5):1 (-3,5):2 (-2,5):2 (-1,4):2 (1,1):3 (1,0):4 (1,-1):4 (0,-1):4 (-1,-1):5 (-2,-1):5
  (-3,0):5 (-4,1):0 (-5,2):0 (-5,3):0 (-5,4):1 (-6,6):1 (-4,6):2 (-3,6):2 (-2,6):2 (-1,5):2 (1,3):3 (2,1):3
  (2,0):3 (2,-1):4 (2,-2):4 (1,-2):4 (0,-2):4 (-1,-2):5 (-2,-2):5 (-3,-1):5 (-4,0):5 (-5,1):0 (-6,2):0 (-6,3):0
  (-6,4):0
Mercury: (0,3):0B (1,2):5 (0,4):1 (2,2):4 (2,3):3B (1,4):2
Venus: (-5,5):4B (-5,6):4 (-6,5):4 (-5,7):3B (-7,5):5B (-9,7):0B (-9,9):1B (-7,9):2B (-8,9):1
  (-6,8):3 (-8,6):0 (-9,8):0
Terra: (7,-7):4B (3,-3):1B (7,-5):3B (5,-7):5B (3,-5):0B (5,-3):2B (4,-3):1 (6,-4):3 (7,-6):3
  (6,-7):4 (4,-6):5 (3,-4):0
Luna: (10,-7):3 (10,-8):4 (9,-8):5 (8,-7):0 (8,-6):1 (9,-6):2
Mars: (-8,-6):4 (-10,-4):1 (-8,-5):3 (-9,-6):5 (-10,-5):0 (-9,-4):2
Jupiter: (-3,-15):1 (-1,-15):2 (1,-17):3 (2,-18):3 (2,-19):3 (1,-21):4 (0,-21):5 (-1,-21):5
  (-2,-20):5 (-3,-19):0 (-4,-18):0 (-4,-16):1 (-5,-14):1 (-4,-14):1 (-3,-14):1 (1,-16):3 (2,-17):3 (3,-18):3
  (3,-19):3 (3,-21):4 (2,-22):4 (1,-22):4 (0,-22):5 (-1,-22):5 (-2,-21):5 (-3,-20):5 (-4,-19):0 (-5,-18):0
  (-5,-17):0
Io: (-2,-15):0 (0,-16):4 (-2,-14):1 (-1,-14):2 (0,-15):3B
Callisto: (-4,-15):2 (-4,-17):5 (-5,-16):0B (-5,-15):1
Ganymede: (2,-20):1 (2,-21):0 (3,-20):2 (3,-22):5 (4,-21):3 (4,-22):4
"""
WEAK = {"Luna", "Io", "Callisto", "Ganymede"}


def _parse_gravity_table():
    import re

    table = {}
    body = None
    for line in GRAVITY_TABLE.strip().splitlines():
        m = re.match(r"^(\w+):(.*)$", line)
        if m and not line.startswith(" "):
            body, line = m.group(1), m.group(2)
        for q, r, d, b in re.findall(r"\((-?\d+),(-?\d+)\):(\d)(B?)", line):
            table[(int(q), int(r))] = (int(d), body, b == "B")
    return table


def test_every_gravity_hex_matches_the_design_note_table():
    m = default_map()
    table = _parse_gravity_table()
    assert len(table) == 121 == len(m.gravity)
    for h, (d, body, is_base) in table.items():
        assert m.gravity[h] == (d, body, body in WEAK), h
        if is_base:
            assert m.base[h] == body


def test_map_json_for_clients_round_trips():
    from deltav.games.tactical import map_json

    doc = json.loads(json.dumps(map_json()))
    again = parse_map(doc)
    assert again.gravity == default_map().gravity and len(doc["hexes"]) == 238
