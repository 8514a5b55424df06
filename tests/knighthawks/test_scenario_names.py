"""Scenario names and user scenario files: an unknown or unusable name, and a malformed file, give a
ScenarioError that says what is wrong (never OSError, ValueError or UnicodeError)."""

from __future__ import annotations

import copy
import json
import tomllib
from importlib import resources

import pytest

from deltav.core.errors import ScenarioError
from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks.scenarios import BUILTIN


@pytest.mark.parametrize("name", ["grandtour", "a\x00b", "\ud800", "x" * 5000, "", "/", "/nonexistent/dir/x.toml"])
def test_a_bad_name_says_it_is_neither_a_builtin_id_nor_a_readable_file(name):
    with pytest.raises(ScenarioError) as e:
        KnightHawks.new_initial_state({"scenario": name})
    assert "neither a built-in scenario id nor a readable file" in str(e.value)
    assert all(b in str(e.value) for b in BUILTIN)


def test_a_file_that_is_not_utf8_is_a_scenario_error(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_bytes(b"\xff\xfe\x00 not text")
    with pytest.raises(ScenarioError) as e:
        KnightHawks.new_initial_state({"scenario": str(p)})
    assert "UTF-8" in str(e.value)


def escort() -> dict:
    text = resources.files("deltav.games.knighthawks").joinpath("data/scenarios/escort.toml").read_text("utf-8")
    return tomllib.loads(text)


def dump_toml(obj, prefix="") -> str:
    import json

    out = []
    tables = []
    for k, v in obj.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            tables.append((k, v))
        else:
            out.append(f"{json.dumps(k)} = {json.dumps(v)}")
    for k, rows in tables:
        for row in rows:
            out.append(f"[[{k}]]")
            out.extend(f"{json.dumps(a)} = {json.dumps(b)}" for a, b in row.items())
    return "\n".join(out) + "\n"


BAD_VALUES = [None, -1, 10**30, "x", [], {}, [1, 2, 3], True, 1.5]


def mutations(base: dict, rng: Rng):
    paths = []

    def walk(o, path):
        if isinstance(o, dict):
            for k, v in o.items():
                paths.append(path + [k])
                walk(v, path + [k])
        elif isinstance(o, list):
            for i, v in enumerate(o):
                paths.append(path + [i])
                walk(v, path + [i])

    walk(base, [])
    for path in paths:
        for kind in ("drop", "value"):
            doc = copy.deepcopy(base)
            parent = doc
            for k in path[:-1]:
                parent = parent[k]
            if kind == "drop":
                if isinstance(parent, dict):
                    del parent[path[-1]]
                else:
                    parent.pop(path[-1])
            else:
                bad = BAD_VALUES[rng.below(len(BAD_VALUES))]
                if bad is None:
                    continue
                parent[path[-1]] = bad
            yield path, doc


def test_a_malformed_user_scenario_file_is_a_scenario_error(tmp_path):
    rng = Rng(5)
    p = tmp_path / "mine.toml"
    n = 0
    for path, doc in mutations(escort(), rng):
        try:
            text = dump_toml(doc)
        except (TypeError, ValueError):
            continue
        p.write_text(text, encoding="utf-8")
        try:
            KnightHawks.new_initial_state({"scenario": str(p)}, seed=1)
        except ScenarioError as e:
            assert str(p) in str(e) or "scenario" in str(e), (path, e)
            n += 1
    assert n > 20


def _escort_text() -> str:
    return resources.files("deltav.games.knighthawks").joinpath("data/scenarios/escort.toml").read_text("utf-8")


# (edit of the shipped escort.toml, field, words of the reason): wrong type, out of range, unknown field,
# missing field, bad syntax, and checks across fields
BROKEN_SCENARIOS = [
    (("map_radius = 14", 'map_radius = "14"'), "map_radius", "expected an integer"),
    (("map_radius = 14", "map_radius = 2"), "map_radius", "below the minimum 3"),
    (("turn_limit = 12", "turn_limit = 12\nweather = 1"), "weather", "unknown field"),
    (('title = "Close Escort"\n', ""), "title", "missing"),
    (("map_radius = 14", "map_radius = = 14"), "(file)", "not valid TOML"),
    (("facing = 4\nspeed = 3", "facing = 6\nspeed = 3"), "ships[4].facing", "above the maximum 5"),
    (("side = 0", "side = 2"), "ships[0].side", "expected one of [0, 1]"),
    (('class = "freighter"', 'klass = "freighter"'), "ships[0].klass", "unknown field"),
    (('class = "freighter"', 'class = "dreadnought"'), "ships[0].class", "unknown class"),
    (('kind = "exit"', 'kind = "siege"'), "victory.kind", "expected one of"),
    (('ship = "gullwind"', 'ship = "ghost"'), "victory.ship", "no ship 'ghost'"),
    (('edge = "east"', 'edge = "north"'), "victory.edge", "expected one of"),
    (("hex = [-11, 5]", "hex = [2, -1]"), "ships[0].hex", "planet hex"),
    (("hex = [-11, 5]", "hex = [-11, 5, 0]"), "ships[0].hex", "expected a list of 2 items"),
    (('kind = "M"', 'kind = "X"'), "mines[0].kind", "expected one of"),
    (("hex = [-2, 2]", "hex = [40, 2]"), "mines[0].hex", "outside the map radius"),
    (('id = "zgata"', 'id = "gullwind"'), "ships[1].id", "duplicate ship id"),
]


@pytest.mark.parametrize("edit,field,reason", BROKEN_SCENARIOS)
def test_a_broken_user_scenario_names_the_field_the_reason_and_the_file(tmp_path, edit, field, reason):
    text = _escort_text()
    assert edit[0] in text
    p = tmp_path / "mine.toml"
    p.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        KnightHawks.new_initial_state({"scenario": str(p)}, seed=1)
    assert (e.value.field, e.value.source) == (field, str(p))
    assert reason in e.value.reason, e.value.reason


def test_a_user_scenario_may_be_json(tmp_path):
    p = tmp_path / "mine.json"
    p.write_text(json.dumps(escort()), encoding="utf-8")
    s = KnightHawks.new_initial_state({"scenario": str(p)}, seed=1)
    assert [x.id for x in s.ships][:2] == ["gullwind", "zgata"]
