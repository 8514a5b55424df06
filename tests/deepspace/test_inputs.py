"""In-process and JSON inputs: wrong-typed fields, non-actions, other games' actions, bad players; every refusal
is the project's error and leaves the state exactly as it was."""

from __future__ import annotations

import dataclasses
import json

import pytest

from deltav.core.errors import IllegalAction, MalformedAction
from deltav.core.rng import Rng
from deltav.core.values import Action, value
from deltav.games.deepspace import DeepSpaceGame, flow
from deltav.games.deepspace.messages import ACTIONS, Allocate, Fire, Place, SetVelocity
from deltav.games.deepspace.scenarios import builtin_ids

NAN = float("nan")
BAD = {
    int: [1.5, NAN, float("inf"), "1", None, True, [1], (1,), {"a": 1}],
    str: [1, 1.0, None, b"s0-0", ["s0-0"], ("s0-0",), True],
    bool: [1, 0, "true", None, 1.0, [True]],
    "str|None": [1, NAN, b"x", ["s1-0"], True],
    "int|None": [1.5, NAN, "0", True, [0]],
}


def _kind(tp) -> object:
    text = str(tp)
    if "None" in text and "str" in text:
        return "str|None"
    if "None" in text and "int" in text:
        return "int|None"
    return {"int": int, "str": str, "bool": bool}[text]


def _template(cls, legal):
    for a in legal:
        if type(a) is cls:
            return a
    args = {}
    for f in dataclasses.fields(cls):
        k = _kind(f.type)
        args[f.name] = {int: 0, str: "s0-0", bool: False, "str|None": None, "int|None": None}[k]
    return cls(**args)


def _bad_variants(cls, legal):
    base = _template(cls, legal)
    for f in dataclasses.fields(cls):
        for bad in BAD[_kind(f.type)]:
            a = object.__new__(cls)
            for g in dataclasses.fields(cls):
                object.__setattr__(a, g.name, bad if g.name == f.name else getattr(base, g.name))
            yield f.name, a


def _dump(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@value("velocity")
class ForeignVelocity(Action):
    """Same tag and fields as deepspace's, but another game's class."""

    ship: str
    dq: int
    dr: int


def _decision_points(scenario: str, seed: int, limit: int = 160):
    s = DeepSpaceGame.new_initial_state({"scenario": scenario}, seed)
    rng = Rng(seed)
    steps = 0
    while not s.is_terminal() and steps < limit:
        p = rng.choice(s.current_players())
        legal = s.legal_actions(p)
        yield s, p, legal
        s.apply_action(p, rng.choice(legal))
        steps += 1


@pytest.mark.parametrize("scenario", builtin_ids())
def test_wrong_typed_fields_of_every_action_class_are_refused_and_change_nothing(scenario):
    from deltav.games import load_all

    tactical = load_all()["tactical"].actions
    foreign = [cls for cls in tactical.classes.values() if not dataclasses.fields(cls)][:1]
    assert foreign
    for k, (s, p, legal) in enumerate(_decision_points(scenario, 11)):
        if k % 6:
            continue
        before = _dump(s)
        for cls in ACTIONS.classes.values():
            for field, a in _bad_variants(cls, legal):
                with pytest.raises(MalformedAction) as err:
                    s.apply_action(p, a)
                assert err.value.field.endswith(field), (a, err.value)
                assert _dump(s) == before, a
        others = [None, 0, "done", {"type": "done"}, ("velocity", "s0-0", 0, 0), ForeignVelocity("s0-0", 0, 0)]
        others += [cls() for cls in foreign]
        for a in others:
            with pytest.raises(MalformedAction):
                s.apply_action(p, a)
            assert _dump(s) == before, a


def test_nan_and_floats_are_not_accepted_as_coordinates():
    """Issue 18: ``r=nan`` was accepted (a ship placed at NaN, or a velocity of 2.0)."""
    s = DeepSpaceGame.new_initial_state({"scenario": "skirmish"}, 1)
    before = _dump(s)
    q, r, _ = s.zones[0]
    for a in (Place("s0-0", q, NAN), Place("s0-0", float(q), float(r)), Place("s0-0", q, True)):
        with pytest.raises(MalformedAction):
            s.apply_action(0, a)
        assert _dump(s) == before
    s.apply_action(0, Place("s0-0", q, r))
    before = _dump(s)
    for a in (SetVelocity("s0-0", 0, NAN), SetVelocity("s0-0", 0.0, 0), SetVelocity("s0-0", 0, float("-inf"))):
        with pytest.raises(MalformedAction):
            s.apply_action(0, a)
        assert _dump(s) == before


def test_bad_players_are_refused_everywhere():
    s = DeepSpaceGame.new_initial_state({"scenario": "skirmish"}, 1)
    a = s.legal_actions(0)[0]
    before = _dump(s)
    for p in (None, "0", 0.0, True, -1, 2, 10**30, [0]):
        with pytest.raises(IllegalAction) as err:
            s.apply_action(p, a)
        assert err.value.rule == "protocol.player"
        assert s.legal_actions(p) == []
        if p is not None:
            with pytest.raises(IllegalAction):
                s.view(p)
    assert _dump(s) == before


def test_json_actions_of_every_shape_are_refused_with_project_errors():
    s = DeepSpaceGame.new_initial_state({"scenario": "skirmish"}, 1)
    before = _dump(s)
    shapes = [None, 1, "x", [], {}, {"type": 1}, {"type": "place"}, {"type": "place", "ship": "s0-0", "q": 0},
              {"type": "place", "ship": "s0-0", "q": 0, "r": 0, "x": 1}, {"type": "velocity", "ship": "s0-0",
              "dq": 10**400, "dr": 0}, {"type": "fire", "ship": "s0-0", "weapon": 0, "target": ["s1-0"]},
              {"type": "allocate", "ship": "s0-0", "stat": "thrust", "weapon": 0.5, "hp": 1},
              {"type": "place", "ship": "s0-0", "q": float("nan"), "r": 0}]
    for obj in shapes:
        with pytest.raises(IllegalAction):
            s.apply_json(0, obj)
        assert _dump(s) == before, obj


def test_fire_and_allocate_refusals_name_the_specific_rule(tmp_path):
    from tests.deepspace.helpers import deploy_all, new_state

    sides = [([("A", 2, 4, 10, 10, [(20, 20)])], (0, 0, 0)), ([("B", 2, 4, 10, 10, [(20, 20)])], (3, 0, 0))]
    s = new_state(tmp_path, sides, friendly_fire=True)
    deploy_all(s)
    s.apply_action(0, SetVelocity("s0-0", 0, 0))
    cases = [
        (Fire("s0-0", 0, "s0-0"), "deepspace.weapons.self"),
        (Fire("s0-0", 0, "s9-9"), "deepspace.weapons.target"),
    ]
    for a, rule in cases:
        before = _dump(s)
        with pytest.raises(IllegalAction) as err:
            s.apply_action(0, a)
        assert err.value.rule == rule, err.value
        assert _dump(s) == before


def test_allocation_refusals_name_the_specific_rule(tmp_path):
    from tests.deepspace.helpers import deploy_all, new_state

    sides = [([("A", 4, 2, 0, 3, [(5, 6)])], (0, 0, 0)), ([("B", 1, 1, 1, 1, [(1, 1)])], (40, 0, 0))]
    s = new_state(tmp_path, sides)
    deploy_all(s)
    for p in (0, 1):
        while s.waiting[p]:
            s.apply_action(p, s.legal_actions(p)[0])
    s.ships[0].pending = 20
    flow.start_allocation(s, "fire")
    cases = [
        (Allocate("s0-0", "thrust", None, 0), "deepspace.damage.amount"),
        (Allocate("s0-0", "thrust", None, -4), "deepspace.damage.amount"),
        (Allocate("s0-0", "thrust", None, 24), "deepspace.damage.amount"),
        (Allocate("s0-0", "evasion", None, 4), "deepspace.damage.empty_stat"),
        (Allocate("s0-0", "thrust", None, 5), "deepspace.damage.size_multiple"),
        (Allocate("s0-0", "endurance", None, 16), "deepspace.damage.stat_level"),  # endurance 3
        (Allocate("s0-0", "targeting", 0, 6), "deepspace.damage.weapon_level"),  # targeting 5
        (Allocate("s0-0", "targeting", 1, 1), "deepspace.damage.stat"),  # one weapon only
        (Allocate("s0-0", "speed", None, 4), "deepspace.damage.stat"),
        (Allocate("s0-0", "thrust", None, 8), None),
        (Allocate("s0-0", "endurance", None, 12), None),
    ]
    for a, rule in cases:
        before = _dump(s)
        if rule is None:
            s.apply_action(0, a)
            continue
        with pytest.raises(IllegalAction) as err:
            s.apply_action(0, a)
        assert err.value.rule == rule, (a, err.value)
        assert _dump(s) == before
    assert s.ships[0].lv[:3] == [0, 0, 0] and s.phase == "destruct"


def test_design_refusals_name_the_specific_rule():
    from deltav.games.deepspace.messages import Done, EndShip, NewShip, SetStat, WeaponDamage, WeaponTargeting

    s = DeepSpaceGame.new_initial_state({"scenario": "design-duel", "stat_cap": 50}, 1)
    steps = [
        (NewShip(0), "deepspace.design.size"),
        (NewShip(-3), "deepspace.design.size"),
        (Done(), "deepspace.design.no_ship"),
        (EndShip(), "deepspace.design.order"),
        (NewShip(1), None),
        (SetStat("thrust", -1), "deepspace.design.level"),
        (SetStat("thrust", 51), "deepspace.design.stat_cap"),
        (SetStat("thrust", 61), "deepspace.design.points"),
        (SetStat("thrust", 0), None),
        (SetStat("evasion", 0), None),
        (SetStat("endurance", 0), None),
        (EndShip(), "deepspace.design.empty_ship"),  # every stat still zero
        (WeaponTargeting(0), None),
        (WeaponDamage(0), "deepspace.design.empty_weapon"),
        (WeaponDamage(61), "deepspace.design.points"),
        (WeaponDamage(5), None),
        (EndShip("   "), "deepspace.design.name"),
        (EndShip("x" * 41), "deepspace.design.name"),
        (EndShip("Lancer\nMk 2"), "deepspace.design.name"),
        (EndShip(), None),
        (Done(), "deepspace.design.size_levels"),  # 3 of the side's 4 levels unused (fleet_levels = all)
    ]
    for a, rule in steps:
        before = _dump(s)
        if rule is None:
            s.apply_action(0, a)
            continue
        with pytest.raises(IllegalAction) as err:
            s.apply_action(0, a)
        assert err.value.rule == rule, (a, err.value)
        assert _dump(s) == before


def test_fleet_levels_all_is_the_default_and_at_most_allows_unused_levels():
    from deltav.games.deepspace.messages import Done, EndShip, NewShip, SetStat, WeaponTargeting

    for option, done_legal in (("all", False), ("at_most", True)):
        s = DeepSpaceGame.new_initial_state({"scenario": "design-duel", "fleet_levels": option}, 1)
        for a in (NewShip(1), SetStat("thrust", 1), SetStat("evasion", 1), SetStat("endurance", 1), EndShip()):
            s.apply_action(0, a)
        assert (Done() in s.legal_actions(0)) == done_legal
        assert WeaponTargeting(0) not in s.legal_actions(0)


def test_withdrawal_switched_off_names_its_rule(tmp_path):
    from deltav.games.deepspace.messages import Withdraw
    from tests.deepspace.helpers import deploy_all, new_state

    sides = [([("A", 2, 4, 10, 10, [(20, 20)])], (0, 0, 0)), ([("B", 2, 4, 10, 10, [(20, 20)])], (60, 0, 0))]
    for radius, rule in ((0, "deepspace.withdraw.disabled"), (80, "deepspace.withdraw.distance")):
        s = new_state(tmp_path, sides, withdrawal_radius=radius)
        deploy_all(s)
        before = _dump(s)
        with pytest.raises(IllegalAction) as err:
            s.apply_action(0, Withdraw("s0-0"))
        assert err.value.rule == rule
        assert _dump(s) == before


