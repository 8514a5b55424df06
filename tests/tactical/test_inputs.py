"""Untrusted and in-process inputs (issue 18, GAME-FIXES 2 and 4): malformed JSON actions raise MalformedAction
naming the field, wrong-typed in-process actions raise the project's errors and change nothing, out-of-range values
are refused with a rule id, and bad scenario names raise ScenarioError."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from deltav.core.errors import DeltavError, IllegalAction, MalformedAction, ScenarioError
from deltav.core.rng import Rng
from deltav.core.values import Action
from deltav.games.tactical.messages import ACTIONS, Order
from deltav.games.tactical.scenarios import SCENARIO_IDS

from .helpers import GAME, new_state, place


def _orbiting_ship():
    s = new_state("biplanetary")
    place(s, "p0s0", (-8, -6), (1, 0), pending=(4,))
    return s


@pytest.mark.parametrize("weak", ["none", "a,b", "1,2,3", "", " 1,2", "1_0,2", "+1,2", "01,2", "1,2 "])
def test_a_malformed_weak_entry_is_a_malformed_action_on_the_json_path(weak):
    s = _orbiting_ship()
    before = json.dumps(s.to_json())
    obj = {"type": "order", "ship": "p0s0", "burn": 0, "land": True, "weak": [weak]}
    with pytest.raises(MalformedAction) as e:
        GAME.action_from_json(obj)
    assert e.value.field == "action.weak[0]"
    with pytest.raises(MalformedAction) as e:
        s.apply_json(0, obj)  # the one decoder of untrusted actions (protocol.read_action), as the server's
    assert e.value.field == "action.weak[0]"
    # in process too
    with pytest.raises(MalformedAction) as e:
        s.apply_action(0, Order("p0s0", 0, None, True, (weak,)))
    assert e.value.field == "action.weak[0]"
    assert json.dumps(s.to_json()) == before


def test_a_well_formed_weak_key_still_reaches_the_rule():
    s = _orbiting_ship()
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Order("p0s0", 0, None, False, ("5,5",)))
    assert e.value.rule == "tactical.order.weak_gravity"


WRONG = [1.5, math.nan, "x", None, True, (), ("a",), [1], {"a": 1}, -1, 10**30, object()]


def _states():
    """States at every kind of decision point: random playouts of every scenario, one state per phase."""
    out = {}
    for sid in SCENARIO_IDS:
        for seed in range(2):
            s = GAME.new_initial_state({"scenario": sid}, seed)
            r = Rng(seed)
            for _ in range(400):
                if s.is_terminal():
                    break
                out.setdefault((sid, s.phase), s.clone())
                p = r.choice(list(s.current_players()))
                s.apply_action(p, r.choice(s.legal_actions(p)))
    return list(out.values())


STATES = _states()


def _check_refused(s, player, action):
    before = json.dumps(s.to_json(), sort_keys=True)
    try:
        s.apply_action(player, action)
    except DeltavError:
        pass
    else:
        raise AssertionError(f"{action!r} was accepted")
    assert json.dumps(s.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("cls", ACTIONS, ids=lambda c: c.TYPE)
def test_wrong_typed_fields_are_refused_and_change_nothing(cls):
    fields = dataclasses.fields(cls)
    for s in STATES:
        p = s.current_players()[0]
        legal = [a for a in s.legal_actions(p) if type(a) is cls]
        base = legal[0] if legal else None
        for f in fields:
            for bad in WRONG:
                if base is None:
                    kwargs = {g.name: getattr(g, "default", None) for g in fields}
                    kwargs = {k: (v if v is not dataclasses.MISSING else "p0s0") for k, v in kwargs.items()}
                else:
                    kwargs = {g.name: getattr(base, g.name) for g in fields}
                kwargs[f.name] = bad
                action = cls(**kwargs)
                try:
                    GAME.actions.check(action)
                except MalformedAction:
                    pass
                else:
                    continue  # the value has the declared type: the rules decide (below)
                with pytest.raises(MalformedAction):
                    s.apply_action(p, action)
                _check_refused(s, p, action)


def test_non_actions_and_other_games_actions_are_malformed():
    from deltav.games import load_all

    s = new_state("biplanetary")
    others = [g for gid, g in load_all().items() if gid != "tactical"]
    foreign = []
    for g in others:
        for cls in g.actions.classes.values():
            foreign.append(cls(**{f.name: None for f in dataclasses.fields(cls)}))
    for bad in [None, 1, "order", {"type": "order", "ship": "p0s0"}, object(), Action(), *foreign]:
        with pytest.raises(MalformedAction):
            s.apply_action(0, bad)
        _check_refused(s, 0, bad)


def test_out_of_range_values_of_the_right_type_are_refused_with_a_rule():
    s = _orbiting_ship()
    for o in (Order("p0s0", 7), Order("p0s0", -1), Order("p0s0", 0, 6), Order("p0s0", 0, -2)):
        with pytest.raises(IllegalAction) as e:
            s.apply_action(0, o)
        assert e.value.rule.startswith("tactical.order")
    # the review's case: a float overload is refused (it was accepted)
    with pytest.raises(MalformedAction) as e:
        s.apply_action(0, Order("p0s0", 0, 1.5))
    assert e.value.field == "action.overload"


@pytest.mark.parametrize("name", ["grandtour", "no/such/dir/x.toml", "a\x00b", "\ud800", "x" * 5000, "/", ".",
                                  "/tmp", "", "C:\\nul"])
def test_a_bad_scenario_name_is_a_scenario_error_listing_the_ids(name):
    with pytest.raises(ScenarioError) as e:
        GAME.new_initial_state({"scenario": name}, 0)
    text = str(e.value)
    assert "biplanetary" in text and "interplanetary_war" in text
    assert "neither" in text


@pytest.mark.parametrize("body,field", [
    ("format = 1\n", "format"),
    ("id = 'x'\n[[players]]\nships = 3\n[[players]]\n", "players[0].ships"),
    ("id = 'x'\nplayers = [{credits = -1}, {}]\n", "players[0].credits"),
    ("not toml at all [", "(file)"),
    ("id = 'x'\n[[players]]\nbases = ['1_0,2']\n[[players]]\n", "players[0].bases[0]"),
    ("id = 'x'\n[[players]]\nbases = [' -8,-6']\n[[players]]\n", "players[0].bases[0]"),
])
def test_a_malformed_scenario_file_names_the_field_and_the_file(tmp_path, body, field):
    p = tmp_path / "bad.toml"
    p.write_text(body)
    with pytest.raises(ScenarioError) as e:
        GAME.new_initial_state({"scenario": str(p)}, 0)
    assert e.value.field == field and e.value.source == str(p)


def test_a_scenario_file_with_invalid_utf8_is_a_scenario_error(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_bytes(b"id = '\xff'\n")
    with pytest.raises(ScenarioError) as e:
        GAME.new_initial_state({"scenario": str(p)}, 0)
    assert e.value.source == str(p)


