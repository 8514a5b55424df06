"""Hidden information along random playouts of every scenario: a step that shows a seat no event (a private
step: a dropped trap, a repair allocation, a move being plotted, weapons being declared) changes neither that
seat's view nor the spectator's, a spectator sees no secret token, and a dropped trap becomes known to the
other side only when it detonates (mines) or is activated (seekers)."""

from __future__ import annotations

import json

import pytest

from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.scenarios import BUILTIN
from tests.knighthawks.helpers import make_state, ship
from tests.view_check import scribble

LAYERS = {"scenario": "skirmish", "fleet0": "minelayer,frigate", "fleet1": "destroyer,frigate"}
CASES = [({"scenario": s}, seed) for s in BUILTIN for seed in (1, 2)] + [(LAYERS, 1), (LAYERS, 2), (LAYERS, 3)]


def dump(v) -> str:
    return json.dumps(v, sort_keys=True)


def pick(legal, rng):
    lays = [a for a in legal if isinstance(a, m.Lay)]
    if lays and rng.below(2) == 0:  # lay often, so traps appear in most playouts
        return lays[rng.below(len(lays))]
    return legal[rng.below(len(legal))]


def playout(options, seed, steps=900):
    s = KnightHawks.new_initial_state(dict(options, turn_limit=8), seed=seed)
    rng = Rng(seed + 100)
    for _ in range(steps):
        if s.is_terminal():
            return
        p = s.current_players()[0]
        before = {q: dump(s.view(q)) for q in (0, 1, None)}
        a = pick(s.legal_actions(p), rng)
        ev = s.apply_action(p, a)
        yield s, p, a, ev, before


@pytest.mark.parametrize("options,seed", CASES)
def test_a_step_no_event_shows_changes_no_view(options, seed):
    for s, p, a, ev, before in playout(options, seed):
        for q in (0, 1, None):
            if q == p or any(e.visible_to(q) for e in ev):
                continue
            assert dump(s.view(q)) == before[q], f"{a} by {p} changed the view of {q} without an event"


@pytest.mark.parametrize("options,seed", CASES)
def test_no_secret_token_in_any_view(options, seed):
    for s, _p, _a, _ev, _before in playout(options, seed):
        for q in (0, 1, None):
            text = dump(s.view(q))
            for tok in s.secret_tokens(q):
                assert f'"{tok}"' not in text, f"{tok} in the view of {q}"


def test_spectator_sees_no_trap_of_either_side_until_known():
    s = KnightHawks.new_initial_state({"scenario": "station_assault"}, seed=1)
    v = s.view(None)
    assert v["mines"] == [] and v["hidden_mines"] == len(s.mines) > 0
    assert {mm[0] for mm in s.mines} <= s.secret_tokens(None)


def layer_state(seed=1, foe_at=(6, 0)):
    return make_state([ship("ml", 0, "minelayer", (-6, 0), facing=0, speed=1),
                       ship("b", 1, "destroyer", foe_at, facing=3, speed=0)], first=0, seed=seed)


def test_laying_a_trap_changes_nothing_the_other_side_or_a_spectator_sees():
    s = layer_state()
    s.apply_action(0, m.Course("ml", 1, 0))
    s.apply_action(0, m.Step(0))  # the plot is public (a plotted event)
    before = {q: dump(s.view(q)) for q in (1, None)}
    ev = s.apply_action(0, m.Lay("ml", "M", 1))
    assert all(not e.visible_to(1) and not e.visible_to(None) for e in ev)
    for q in (1, None):
        assert dump(s.view(q)) == before[q]
    assert s.view(0)["mines"] and s.view(1)["mines"] == []


def test_a_laid_mine_becomes_known_when_it_detonates():
    s = layer_state(foe_at=(-2, 0))
    s.apply_action(0, m.Course("ml", 1, 0))
    s.apply_action(0, m.Step(0))
    s.apply_action(0, m.Lay("ml", "M", 1))
    mid = s.mines[0][0]
    s.apply_action(0, m.EndMovement())
    while s.stage != "move" or s.mover != 1:
        p = s.current_players()[0]
        s.apply_action(p, [a for a in s.legal_actions(p) if isinstance(a, m.Fire | m.Intercept)][0])
    assert mid in s.secret_tokens(1) and s.view(1)["hidden_mines"] == 0 and s.view(1)["mines"] == []
    s.apply_action(1, m.Course("b", 3, 3))  # straight west into the mined hex (-5, 0)
    ev = []
    for _ in range(3):
        ev += s.apply_action(1, m.Step(0))
    while s.stage == "intercept":
        ev += s.apply_action(s.current_players()[0], m.Intercept(0, False))
    assert any(e.TYPE == "attack" and e.source == mid and e.target == "b" for e in ev)
    assert mid not in s.secret_tokens(1)



@pytest.mark.parametrize("options,seed", CASES[::3])
def test_a_view_shares_no_mutable_object_with_the_state(options, seed):
    for k, (s, _p, _a, _ev, _before) in enumerate(playout(options, seed, steps=300)):
        if k % 7:
            continue
        record, legal = dump(s.to_json()), s.legal_actions(s.current_players()[0]) if not s.is_terminal() else []
        for q in (0, 1, None):
            scribble(s.view(q))
        assert dump(s.to_json()) == record
        assert (s.legal_actions(s.current_players()[0]) if not s.is_terminal() else []) == legal
