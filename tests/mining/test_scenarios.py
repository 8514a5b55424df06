"""Component data: the shipped tile mixes and contracts, and validation of user files against the rulebook."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import ScenarioError
from deltav.games.mining import MiningGame
from deltav.games.mining import scenarios as components
from deltav.games.mining.scenarios import ALIEN, KINDS, MINERALS, OMNIDIUM, validate


def test_variant_a_matches_design_note_1_4():
    c = components.load("standard")
    assert len(c.kinds) == 48
    minerals = [k for k in c.kinds if k <= OMNIDIUM]
    assert len(minerals) == 37
    assert sum(v for k, v in zip(c.kinds, c.values) if k <= OMNIDIUM) == 99
    for m in range(4):
        assert sorted(v for k, v in zip(c.kinds, c.values) if k == m) == [1, 1, 2, 2, 3, 3, 4, 5]
    assert sorted(v for k, v in zip(c.kinds, c.values) if k == OMNIDIUM) == [1, 2, 3, 4, 5]
    counts = {KINDS[k]: c.kinds.count(k) for k in range(5, 11)}
    assert counts == {"alien_encounter": 5, "mineral_scan": 2, "sabotage": 1, "rocket_acquisition": 1,
                      "pirate_attack": 1, "meteor_storm": 1}
    assert [ct.size for ct in c.contracts] == [1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 5]
    for m in range(4):  # each standard mineral is demanded exactly 7 times
        assert sum(ct.minerals.count(m) for ct in c.contracts) == 7
    assert c.rockets_per_player == 5


def test_variant_b_has_fifteen_incidents():
    c = components.load("variant-b")
    assert len(c.kinds) == 48
    assert sum(1 for k in c.kinds if k > OMNIDIUM) == 15
    assert c.kinds.count(ALIEN) == 5
    for m in range(4):
        assert sorted(v for k, v in zip(c.kinds, c.values) if k == m) == [1, 1, 2, 2, 3, 4, 5]


def _data():
    return {
        "scenario": {"id": "mine", "title": "My mix"},
        "components": {"rockets_per_player": 5},
        "tiles": [{"kind": "alphatite", "values": [1, 2, 3] * 5}, {"kind": "betamite", "values": [2] * 14},
                  {"kind": "omnidium", "values": [5] * 4}, {"kind": "alien_encounter", "count": 5},
                  {"kind": "pirate_attack", "count": 10}],
        "contracts": [{"id": "X1", "minerals": ["alphatite", "betamite"]}],
    }


def test_a_valid_custom_mix_loads():
    c = validate(_data())
    assert len(c.kinds) == 48 and c.contracts[0].need == (1, 1, 0, 0)


@pytest.mark.parametrize(
    "mutate, field",
    [
        (lambda d: d["tiles"].pop(), "tiles"),  # 38 tiles, not 48
        (lambda d: d["tiles"].__setitem__(3, {"kind": "alien_encounter", "count": 4}), "tiles"),
        (lambda d: d["tiles"][0].__setitem__("kind", "unobtainium"), "tiles[0].kind"),
        (lambda d: d["tiles"][1]["values"].__setitem__(0, 6), "tiles[1].values[0]"),
        (lambda d: d["tiles"][4].__setitem__("values", [1]), "tiles[4].values"),
        (lambda d: d["contracts"][0].__setitem__("minerals", ["alphatite"] * 6), "contracts[0].minerals"),
        (lambda d: d["contracts"][0].__setitem__("minerals", []), "contracts[0].minerals"),
        (lambda d: d["contracts"][0].__setitem__("minerals", ["omnidium"]), "contracts[0].minerals[0]"),
        (lambda d: d["contracts"][0].__setitem__("minerals", ["gammatite"] * 5), "contracts[0].minerals"),
        (lambda d: d["contracts"].append({"id": "X1", "minerals": ["betamite"]}), "contracts[1].id"),
        (lambda d: d["components"].__setitem__("rockets_per_player", 9), "components.rockets_per_player"),
        (lambda d: d.__setitem__("contracts", []), "contracts"),
    ],
)
def test_rulebook_constraints_are_enforced_with_a_reason(mutate, field):
    d = _data()
    mutate(d)
    with pytest.raises(ScenarioError) as err:
        validate(d)
    assert err.value.field == field
    assert err.value.reason


def test_a_user_file_is_loaded_by_path_and_played(tmp_path):
    path = tmp_path / "mix.json"
    path.write_text(json.dumps(_data()))
    state = MiningGame.new_initial_state({"scenario": str(path), "players": 3}, 5)
    assert [c.id for c in state.cfg.contracts] == ["X1"]
    again = MiningGame.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json()


def test_a_toml_user_file_and_a_broken_one(tmp_path):
    text = components.resources.files("deltav.games.mining").joinpath("data", "standard.toml").read_text()
    good = tmp_path / "copy.toml"
    good.write_text(text.replace('id = "C12"', 'id = "C99"'))
    st = MiningGame.new_initial_state({"scenario": str(good)}, 1)
    assert st.cfg.contracts[-1].id == "C99"
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("count = 5", "count = 6"))
    with pytest.raises(ScenarioError) as err:
        MiningGame.new_initial_state({"scenario": str(bad)}, 1)
    assert "Alien" in err.value.reason or "48" in err.value.reason
    with pytest.raises(ScenarioError):
        MiningGame.new_initial_state({"scenario": str(tmp_path / "missing.toml")}, 1)


def test_components_round_trip_through_json():
    c = components.load("standard")
    assert components.from_json(c.to_json()) == c
    assert MINERALS[OMNIDIUM] == "omnidium"


def test_every_option_is_documented_and_rulings_are_marked():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "mining.md").read_text()
    names = [o.name for o in MiningGame.options]
    for name in names:
        assert f"`{name}`" in doc, f"option {name} missing from docs/mining.md"
    rulings = [o for o in MiningGame.options if o.ruling]
    assert len(rulings) == 16  # one per item of design note 1.5
    for o in rulings:
        assert o.parse(o.default) == o.default
    desc = MiningGame.describe()
    assert desc["hidden_information"] is True and {s["id"] for s in desc["scenarios"]} == {"standard", "variant-b"}


def test_every_action_and_event_type_is_documented():
    from pathlib import Path

    from deltav.games.mining.messages import ACTIONS, EVENTS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "mining.md").read_text()
    for tag in ACTIONS.names() + EVENTS.names():
        assert f"`{tag}`" in doc, f"{tag} missing from docs/mining.md"


def test_a_user_file_may_give_only_contracts_or_only_tiles(tmp_path):
    only_contracts = tmp_path / "contracts.toml"
    only_contracts.write_text('[scenario]\nid = "short"\n\n[[contracts]]\nid = "K1"\nminerals = ["deltamite"]\n')
    c = components.load(str(only_contracts))
    assert [x.id for x in c.contracts] == ["K1"] and c.kinds == components.load("standard").kinds
    only_tiles = tmp_path / "tiles.json"
    data = _data()
    del data["contracts"]
    data["scenario"]["base"] = "variant-b"
    only_tiles.write_text(json.dumps(data))
    c = components.load(str(only_tiles))
    assert len(c.contracts) == 12 and c.kinds.count(9) == 10  # our ten pirate attacks, variant B's contracts
    bad = tmp_path / "bad.toml"
    bad.write_text('[scenario]\nbase = "nope"\n')
    with pytest.raises(ScenarioError) as err:
        components.load(str(bad))
    assert err.value.field == "scenario.base"
