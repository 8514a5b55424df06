"""Bad input through the in-process API: values that are not this game's actions, fields of the wrong type,
and well-typed but illegal values at every decision point of random playouts. Each is refused with the
project's errors (MalformedAction / IllegalAction naming a specific rule), leaves the state exactly as it was,
and nothing illegal is ever accepted."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from deltav.core import get_game
from deltav.core.errors import IllegalAction, MalformedAction
from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.scenarios import BUILTIN
from tests.knighthawks.helpers import make_state, ship

ACTION_CLASSES = list(KnightHawks.actions.classes.values())
BAD = {int: [1.5, math.nan, "3", True, None, (1,)], str: [3, None, 1.0, ("a",), b"x"],
       bool: [0, 1, "true", None, 1.0]}


def _kind(t) -> tuple[type, bool]:
    """A field's type and whether None is declared for it ("str | None")."""
    if isinstance(t, type):
        return t, False
    name, _, rest = t.partition(" | ")
    return {"int": int, "str": str, "bool": bool}[name], rest == "None"


def dump(s) -> str:
    return json.dumps(s.to_json(), sort_keys=True)


def sample(cls, s, rng):
    """A well-typed instance of ``cls`` with plausible (often illegal) field values."""
    ids = [sh.id for sh in s.ships] + [mm[0] for mm in s.mines] + ["nope", ""]
    words = ["M", "S", "PS", "ES", "SS", "MS", "none", "hull", "adf", "mr", "w0", "d1", "short", "fire", "x"]
    kw = {}
    for f in dataclasses.fields(cls):
        tp, optional = _kind(f.type)
        if optional and rng.below(2):
            kw[f.name] = None
        elif tp is int:
            kw[f.name] = rng.below(40) - 8
        elif tp is bool:
            kw[f.name] = rng.below(2) == 1
        else:
            kw[f.name] = ids[rng.below(len(ids))] if rng.below(2) else words[rng.below(len(words))]
    return cls(**kw)


def wrong_typed(cls):
    """Instances of ``cls`` with one field of a wrong type each (built past the constructor)."""
    good = {int: 1, str: "a", bool: False}
    fields = dataclasses.fields(cls)
    for f in fields:
        tp, optional = _kind(f.type)
        for bad in BAD[tp]:
            if bad is None and optional:
                continue  # None is a declared value of an optional field (the activate action's layer and turn)
            obj = object.__new__(cls)
            for g in fields:
                object.__setattr__(obj, g.name, bad if g is f else good[_kind(g.type)[0]])
            yield obj


def states():
    for sc in BUILTIN:
        for seed in (1,):
            s = KnightHawks.new_initial_state({"scenario": sc, "turn_limit": 4}, seed=seed)
            rng = Rng(seed)
            for k in range(300):
                if s.is_terminal():
                    break
                if k % 3 == 0:
                    yield s, rng
                p = s.current_players()[0]
                legal = s.legal_actions(p)
                s.apply_action(p, legal[rng.below(len(legal))])


def test_not_an_action_is_malformed():
    s = KnightHawks.new_initial_state({"scenario": "escort"}, seed=1)
    mining = get_game("mining").new_initial_state({}, seed=1)
    other = mining.legal_actions(mining.current_players()[0])[0]  # another game's action
    before = dump(s)
    for bad in (None, {"type": "end_movement"}, "end_movement", 3, m.Fired(0, ()), other):
        with pytest.raises(MalformedAction):
            s.apply_action(s.current_players()[0], bad)
    assert dump(s) == before


def test_every_field_of_every_action_refuses_a_wrong_type():
    seen = set()
    for s, _rng in states():
        p = s.current_players()[0]
        before = dump(s)
        for cls in ACTION_CLASSES:
            for bad in wrong_typed(cls):
                with pytest.raises(MalformedAction):
                    s.apply_action(p, bad)
            seen.add(cls)
        assert dump(s) == before
    assert seen == set(ACTION_CLASSES)


def test_random_well_typed_actions_are_legal_or_refused_with_a_specific_rule():
    rules = set()
    for s, rng in states():
        p = s.current_players()[0]
        legal = s.legal_actions(p)
        before = dump(s)
        for cls in ACTION_CLASSES:
            a = sample(cls, s, rng)
            if a in legal:
                continue
            with pytest.raises(IllegalAction) as e:
                s.apply_action(p, a)
            assert e.value.rule.startswith("knighthawks.") and e.value.rule != "knighthawks.phase"
            rules.add(e.value.rule)
            assert dump(s) == before, f"{a} changed the state"
    assert len(rules) >= 10  # refusals are specific


def refusal(s, action, player=None):
    with pytest.raises(IllegalAction) as e:
        s.apply_action(s.current_players()[0] if player is None else player, action)
    return e.value.rule


def test_refusals_name_the_rule_broken():
    s = make_state([ship("a", 0, "destroyer", (-8, 0), speed=2), ship("f", 1, "fighter", (8, 0), facing=3),
                    ship("ml", 0, "minelayer", (-8, 2))], first=0)
    assert refusal(s, m.Course("f", 2, 3)) == "knighthawks.move.ship"
    assert refusal(s, m.Course("a", 9, 0)) == "knighthawks.move.course.adf"
    assert refusal(s, m.Course("a", 2, 1)) == "knighthawks.move.course.rotate"
    assert refusal(s, m.Lay("ml", "M", 0)) == "knighthawks.move.lay.unplotted"
    assert refusal(s, m.Assign("a", 0, "f")) == "knighthawks.phase.move"
    assert refusal(s, m.Step(0)) == "knighthawks.move.step.unplotted"
    s.apply_action(0, m.Course("ml", 0, 0))
    assert refusal(s, m.Lay("ml", "M", 3)) == "knighthawks.move.lay.path"
    assert refusal(s, m.Lay("ml", "X", 0)) == "knighthawks.move.lay.system"
    s.apply_action(0, m.Lay("ml", "M", 0))
    assert refusal(s, m.Lay("ml", "M", 0)) == "knighthawks.move.lay.once"
    assert refusal(s, m.Course("ml", 1, 0)) == "knighthawks.move.plotted"
    s.ship("a").short = True
    assert refusal(s, m.Screen("a", "MS")) == "knighthawks.move.screen.short"
