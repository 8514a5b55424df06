"""The in-process API: ``apply_action`` with a non-Action, another game's action or wrong-typed fields raises the
project's errors and leaves the state unchanged (issue 18). In-range values of the wrong type (``10.0`` or
``True`` where a square is declared) compare equal to listed actions, so they must be refused by type."""

from __future__ import annotations

import dataclasses

import pytest

from deltav.core.errors import IllegalAction, MalformedAction
from deltav.core.rng import Rng
from deltav.core.values import Action, value
from deltav.games.mining import MiningGame
from deltav.games.mining.messages import ACTIONS, Move, Pass, Prospect

WRONG = (1.5, float("nan"), float("inf"), "x", None, True, False, (1, 2), [], {}, object(), b"24")


@value("alien-action")
class AlienAction(Action):
    """Not a mining action."""

    square: int


def _variants(a):
    """Copies of ``a`` with one field of the wrong type (including in-range floats and booleans)."""
    for f in dataclasses.fields(a):
        v = getattr(a, f.name)
        bad = list(WRONG)
        if isinstance(v, int) and not isinstance(v, bool):
            bad += [float(v), v == 1]
        if isinstance(v, str):
            bad += [v.encode(), [v], 0]
        for b in bad:
            if f.name in ("bump", "victim") and b is None:
                continue  # None is a declared value of bump (no rocket bumped) and of a steal's victim (unnamed)
            c = object.__new__(type(a))
            for g in dataclasses.fields(a):
                object.__setattr__(c, g.name, getattr(a, g.name))
            object.__setattr__(c, f.name, b)
            yield c


def _refused(st, p, action) -> None:
    before = st.to_json()
    legal = st.legal_actions(p)
    with pytest.raises((MalformedAction, IllegalAction)):
        st.apply_action(p, action)
    assert st.to_json() == before
    assert st.legal_actions(p) == legal


def test_every_action_class_with_wrong_typed_fields_is_refused_along_random_playouts():
    seen: set[str] = set()
    for scenario, n, seed in (("standard", 2, 1), ("variant-b", 3, 2), ("variant-b", 4, 3), ("standard", 2, 4)):
        st = MiningGame.new_initial_state({"scenario": scenario, "players": n}, seed)
        rng = Rng(seed)
        for _ in range(150):
            if st.is_terminal():
                break
            p = st.current_players()[0]
            legal = st.legal_actions(p)
            per_type: dict[str, int] = {}
            for a in legal:
                seen.add(a.TYPE)
                per_type[a.TYPE] = per_type.get(a.TYPE, 0) + 1
                if per_type[a.TYPE] > 2:  # two of each kind per decision keep the test quick
                    continue
                for bad in _variants(a):
                    _refused(st, p, bad)
            st.apply_action(p, legal[rng.below(len(legal))])
    fielded = {tag for tag, cls in ACTIONS.classes.items() if dataclasses.fields(cls)}
    assert fielded - {"sabotage", "sabotage-move", "steal", "move-alien", "replace", "reveal-incident"} <= seen


def test_non_actions_and_other_games_actions_are_malformed():
    st = MiningGame.new_initial_state({"players": 2}, 0)
    p = st.current_players()[0]
    for bad in (None, 3, "prospect", {"type": "prospect"}, Prospect, AlienAction(3), object()):
        _refused(st, p, bad)


def test_in_range_floats_and_booleans_are_not_accepted_for_squares():
    st = MiningGame.new_initial_state({"players": 2}, 0)
    p = st.current_players()[0]
    assert Move(24, 10) in st.legal_actions(p)
    for bad in (Move(24.0, 10), Move(24, 10.0), Move(24, True), Move(24, 10, 0.0)):
        before = st.to_json()
        with pytest.raises(MalformedAction):
            st.apply_action(p, bad)
        assert st.to_json() == before
    assert Pass() not in st.legal_actions(p)
    st.apply_action(p, Move(24, 10))  # the real one still plays


def test_out_of_range_values_are_refused_with_a_rule():
    st = MiningGame.new_initial_state({"players": 2}, 0)
    p = st.current_players()[0]
    for bad, rule in ((Move(24, 49), "mining.move.square"), (Move(-1, 10), "mining.move.square"),
                      (Move(24, 10**30), "mining.move.square"), (Move(24, 10, 7), "mining.move.bump")):
        before = st.to_json()
        with pytest.raises(IllegalAction) as err:
            st.apply_action(p, bad)
        assert err.value.rule == rule and st.to_json() == before


def test_random_json_actions_at_every_decision_raise_only_project_errors():
    """The untrusted path (``apply_json``): random objects of every action shape, with random field values, at
    every decision of random playouts: a project error and an unchanged state, or a legal action."""
    from deltav.core.errors import DeltavError

    junk = (None, True, 0, 1, -1, 24, 48, 49, 10**30, 1.5, float("nan"), "", "t00", "b1-gammatite", "C01",
            [], [1], {}, {"type": "pass"})
    tags = sorted(ACTIONS.classes)
    for scenario, n, seed in (("standard", 2, 7), ("variant-b", 4, 8)):
        st = MiningGame.new_initial_state({"scenario": scenario, "players": n}, seed)
        rng = Rng(seed)
        for _ in range(200):
            if st.is_terminal():
                break
            p = st.current_players()[0]
            legal = st.legal_actions(p)
            for _ in range(8):
                tag = tags[rng.below(len(tags))]
                obj = {"type": tag}
                for f in dataclasses.fields(ACTIONS.classes[tag]):
                    if rng.below(5):
                        obj[f.name] = junk[rng.below(len(junk))]
                if not rng.below(6):
                    obj["extra"] = 1
                c = st.clone()
                before = c.to_json()
                try:
                    c.apply_json(p, obj)
                except DeltavError:
                    assert c.to_json() == before
                else:
                    assert MiningGame.action_from_json(obj) in legal
            st.apply_action(p, legal[rng.below(len(legal))])
