"""The data files: every row of the Damage Table, the weapon statistics, validation of malformed data."""

from __future__ import annotations

import pytest

from deltav.core import datafile
from deltav.core.errors import ScenarioError
from deltav.games.knighthawks import tables as tb
from deltav.games.knighthawks.tables import tables

W1 = ("LC", "LB", "PB", "EB", "AR", "RB")
W2 = ("PB", "EB", "LB", "RB", "T", "AR")
W3 = ("DC", "LC", "AR", "T", "LB")
W4 = ("T", "AR", "EB", "PB", "LB", "RB")
W5 = ("LB", "RB", "T", "AR", "PB", "EB", "LC")
D1 = ("PS", "ES", "SS", "MS", "ICM")
D2 = ("MS", "ICM", "SS", "PS", "ES")
D3 = ("ICM", "SS", "PS", "ES", "MS")

# (low, high, result, double, amount, priority) as printed in the design note section 1.2
EXPECTED_ROWS = [
    (-20, 10, "hull", True, "", ()),
    (11, 45, "hull", False, "", ()),
    (46, 49, "drive", False, "one", ()),
    (50, 52, "drive", False, "half", ()),
    (53, 53, "drive", False, "all", ()),
    (54, 58, "steering", False, "one", ()),
    (59, 60, "steering", False, "all", ()),
    (61, 62, "weapon", False, "", W1),
    (63, 64, "weapon", False, "", W2),
    (65, 66, "weapon", False, "", W3),
    (67, 68, "weapon", False, "", W4),
    (69, 70, "weapon", False, "", W5),
    (71, 74, "short", False, "", ()),
    (75, 77, "defense", False, "", D1),
    (78, 80, "defense", False, "", D2),
    (81, 84, "defense", False, "", D3),
    (85, 91, "ccs", False, "", ()),
    (92, 97, "nav", False, "", ()),
    (98, 105, "fire", False, "", ()),
    (106, 116, "dcr", False, "", ()),
    (117, 120, "disaster", False, "", ()),
]


@pytest.mark.parametrize("row", EXPECTED_ROWS, ids=[f"{r[0]}..{r[1]}" for r in EXPECTED_ROWS])
def test_every_damage_table_row(row):
    low, high, result, double, amount, prio = row
    for v in range(low, high + 1):
        got = tables().damage_row(v)
        assert (got.result, got.double, got.amount, got.priority) == (result, double, amount, prio), v


def test_damage_table_covers_minus_20_to_120_exactly_once():
    rows = tables().damage_rows
    assert rows[0].low == -20 and rows[-1].high == 120
    for a, b in zip(rows, rows[1:]):
        assert b.low == a.high + 1
    assert len(tables().damage_lookup) == 141


def test_rolls_beyond_the_table_are_clamped():
    assert tables().damage_row(-40).result == "hull" and tables().damage_row(-40).double
    assert tables().damage_row(130).result == "disaster"


# design note 1.5: outcome probabilities (percent) by DTM, computed from the table
PROBS = {
    "hull2": (30, 20, 10, 0, 0),
    "hull": (35, 35, 35, 35, 25),
    "drive": (8, 8, 8, 8, 8),
    "steering": (7, 7, 7, 7, 7),
    "weapon": (10, 10, 10, 10, 10),
    "short": (4, 4, 4, 4, 4),
    "defense": (6, 10, 10, 10, 10),
    "ccs": (0, 6, 7, 7, 7),
    "nav": (0, 0, 6, 6, 6),
    "fire": (0, 0, 3, 8, 8),
    "dcr": (0, 0, 0, 5, 11),
    "disaster": (0, 0, 0, 0, 4),
}


@pytest.mark.parametrize("k,dtm", list(enumerate((-20, -10, 0, 10, 20))))
def test_outcome_probabilities_by_dtm(k, dtm):
    counts: dict[str, int] = {}
    for roll in range(1, 101):
        r = tables().damage_row(roll + dtm)
        key = "hull2" if r.result == "hull" and r.double else r.result
        counts[key] = counts.get(key, 0) + 1
    for key, col in PROBS.items():
        assert counts.get(key, 0) == col[k], (key, dtm)


WEAPONS = {  # code: range, ff, rd, mpo, ltd, dtm, hdr, icm
    "LC": (10, True, True, False, False, 0, (2, 10, 0), 0),
    "LB": (9, False, True, False, False, 0, (1, 10, 0), 0),
    "PB": (12, False, True, False, False, 10, (1, 10, 0), 0),
    "EB": (12, False, True, False, False, 10, (1, 10, 0), 0),
    "DC": (9, True, True, False, False, 20, (3, 10, 0), 0),
    "T": (4, False, False, True, True, -20, (4, 10, 0), -10),
    "AR": (4, True, False, True, True, -10, (2, 10, 4), -5),
    "RB": (3, False, False, False, True, -10, (2, 10, 0), -3),
    "M": (0, False, False, False, True, -20, (3, 10, 5), -5),
    "S": (0, False, False, False, True, -20, (5, 10, 0), -8),
}


@pytest.mark.parametrize("code", sorted(WEAPONS))
def test_weapon_statistics(code):
    w = tables().weapons[code]
    assert (w.range, w.ff, w.rd, w.mpo, w.ltd, w.dtm, w.hdr, w.icm) == WEAPONS[code]


def test_ship_classes_match_the_advanced_statistics():
    c = tables().classes
    assert (c["destroyer"].hp, c["destroyer"].adf, c["destroyer"].mr, c["destroyer"].dcr) == (50, 3, 3, 75)
    assert dict(c["destroyer"].weapons) == {"LC": 1, "LB": 1, "EB": 1, "T": 2, "RB": 4}
    assert (c["battleship"].hp, c["battleship"].dcr) == (120, 200)
    assert (c["fortress"].hp, c["fortress"].adf, c["fortress"].mr) == (300, 0, 0)
    assert c["fighter"].evasive and c["assault_scout"].evasive and not c["frigate"].evasive
    assert dict(c["freighter"].defenses) == {"MS": 1}
    for k in ("fighter", "assault_scout", "frigate", "destroyer", "minelayer", "light_cruiser", "heavy_cruiser",
              "assault_carrier", "battleship", "freighter", "armed_station", "fortified_station", "fortress"):
        assert k in c


def test_malformed_damage_table_names_the_field():
    data = {"rows": [{"low": -20, "high": 10, "result": "hull"}, {"low": 12, "high": 120, "result": "hull"}]}
    with pytest.raises(ScenarioError) as e:
        tb.parse_damage_table(data)
    assert e.value.field == "rows[1].low"
    with pytest.raises(ScenarioError) as e:
        tb.parse_damage_table({"rows": [{"low": -20, "high": 120, "result": "weapon"}]})
    assert e.value.field == "rows[0].priority"
    with pytest.raises(ScenarioError) as e:
        tb.parse_damage_table({"rows": [{"low": -20, "high": 100, "result": "hull"}]})
    assert e.value.field == "rows"


def test_malformed_weapon_and_ship_files_name_the_field():
    good = datafile.parse(tb._data_text("weapons.toml"), "w.toml")
    bad = {k: dict(v) for k, v in good.items()}
    bad["LC"]["range"] = "ten"
    with pytest.raises(ScenarioError) as e:
        tb.parse_weapons(bad)
    assert e.value.field == "LC.range"
    with pytest.raises(ScenarioError) as e:
        tb.parse_ship_classes({"x": {"name": "x", "kind": "ship", "hp": 0, "adf": 1, "mr": 1, "dcr": 1, "points": 1}})
    assert e.value.field == "x.hp"
    with pytest.raises(ScenarioError) as e:
        tb.parse_ship_classes({"x": {"name": "x", "kind": "ship", "hp": 5, "adf": 1, "mr": 1, "dcr": 1, "points": 1,
                                     "weapons": {"ZZ": 1}}})
    assert e.value.field == "x.weapons.ZZ"
    with pytest.raises(ScenarioError):
        datafile.parse("this is = = not toml", "bad.toml")


def _edit(name: str, old: str, new: str) -> str:
    text = tb._data_text(name)
    assert old in text, (name, old)
    return text.replace(old, new, 1)


# (file, edit of its shipped text, field, words of the reason): wrong type, out of range, unknown field, missing
# field, bad syntax and a check across fields, for each data file kind
BROKEN = [
    ("weapons.toml", ("range = 10", 'range = "ten"'), "LC.range", "expected an integer"),
    ("weapons.toml", ("range = 10", "range = -1"), "LC.range", "below the minimum 0"),
    ("weapons.toml", ("range = 10", "range = 10\nreach = 3"), "LC.reach", "unknown field"),
    ("weapons.toml", ("range = 10\n", ""), "LC.range", "missing"),
    ("weapons.toml", ("range = 10", "range = = 10"), "(file)", "not valid TOML"),
    ("weapons.toml", ("[LC]", "[XX]"), "XX", "expected one of"),
    ("defenses.toml", ('kind = "passive"', "kind = 3"), "RH.kind", "expected one of"),
    ("defenses.toml", ('attracts = ["EB"]', 'attracts = ["EB", "ZZ"]'), "PS.attracts[1]", "expected one of"),
    ("defenses.toml", ('name = "reflective hull"', 'name = "reflective hull"\ncolour = "red"'), "RH.colour",
     "unknown field"),
    ("defenses.toml", ('name = "reflective hull"\n', ""), "RH.name", "missing"),
    ("defenses.toml", ("[RH]", "[RH"), "(file)", "not valid TOML"),
    ("defenses.toml", ("[RH]", "[RHX]"), "RHX", "expected one of"),
    ("combat_table.toml", ("LC = [75, 60, 75, 75, 75, 25]", 'LC = [75, 60, 75, 75, 75, "x"]'), "rows.LC[5]",
     "expected an integer"),
    ("combat_table.toml", ("LC = [75, 60, 75, 75, 75, 25]", "LC = [75, 60, 75, 75, 75, 125]"), "rows.LC[5]",
     "above the maximum 100"),
    ("combat_table.toml", ('columns = ["none"', 'colour = 1\ncolumns = ["none"'), "colour", "unknown field"),
    ("combat_table.toml", ("half_damage = [", "half_damages = ["), "half_damages", "unknown field"),
    ("combat_table.toml", ("[rows]", "[rows"), "(file)", "not valid TOML"),
    ("combat_table.toml", ('columns = ["none", "RH"', 'columns = ["RH", "none"'), "columns", "must be"),
    ("combat_table.toml", ("LC = [75, 60, 75, 75, 75, 25]\n", ""), "rows.LC", "missing"),
    ("damage_table.toml", ("low = -20", 'low = "-20"'), "rows[0].low", "expected an integer"),
    ("damage_table.toml", ('result = "hull"', 'result = "hull"\nweight = 2'), "rows[0].weight", "unknown field"),
    ("damage_table.toml", ("high = 10\n", ""), "rows[0].high", "missing"),
    ("damage_table.toml", ('result = "hull"', 'result = "hul"'), "rows[0].result", "expected one of"),
    ("damage_table.toml", ("[[rows]]", "[[rows]"), "(file)", "not valid TOML"),
    ("damage_table.toml", ("low = 11", "low = 12"), "rows[1].low", "rows must cover"),
    ("ships.toml", ("hp = 8", "hp = true"), "fighter.hp", "expected an integer"),
    ("ships.toml", ("hp = 8", "hp = 0"), "fighter.hp", "below the minimum 1"),
    ("ships.toml", ("hp = 8", "hp = 8\nshields = 3"), "fighter.shields", "unknown field"),
    ("ships.toml", ("adf = 5\n", ""), "fighter.adf", "missing"),
    ("ships.toml", ("weapons = { AR = 3 }", "weapons = { AR = 0 }"), "fighter.weapons.AR", "below the minimum 1"),
    ("ships.toml", ("[fighter]", "[fighter"), "(file)", "not valid TOML"),
]


@pytest.mark.parametrize("name,edit,field,reason", BROKEN)
def test_a_broken_data_file_names_the_field_the_reason_and_the_file(name, edit, field, reason):
    parsers = {"weapons.toml": tb.parse_weapons, "defenses.toml": tb.parse_defenses,
               "combat_table.toml": tb.parse_combat_table, "damage_table.toml": tb.parse_damage_table,
               "ships.toml": tb.parse_ship_classes}
    text = _edit(name, *edit)
    with pytest.raises(ScenarioError) as e:
        parsers[name](datafile.parse(text, name), name)
    assert (e.value.field, e.value.source) == (field, name)
    assert reason in e.value.reason, e.value.reason


def test_combat_table_validation():
    data = datafile.parse(tb._data_text("combat_table.toml"), "c.toml")
    data["rows"]["LC"] = [75, 60]
    with pytest.raises(ScenarioError) as e:
        tb.parse_combat_table(data)
    assert e.value.field == "rows.LC"
