"""Saved states (GAME-FIXES 1): ``state_from_json`` validates before it builds. Every state reachable in random
play round-trips exactly; a dropped key, a wrong type or an absurd value anywhere gives StateError naming the
field, never a raw exception."""

from __future__ import annotations

import copy
import json

import pytest

from deltav.core.errors import StateError
from deltav.core.rng import Rng
from deltav.games.tactical.scenarios import SCENARIO_IDS

from .helpers import GAME


def _playout_states(sid, seed, steps=500, every=7):
    s = GAME.new_initial_state({"scenario": sid}, seed)
    r = Rng(seed + 77)
    out = [s.clone()]
    for k in range(steps):
        if s.is_terminal():
            break
        p = r.choice(list(s.current_players()))
        s.apply_action(p, r.choice(s.legal_actions(p)))
        if k % every == 0:
            out.append(s.clone())
    out.append(s)
    return out


@pytest.mark.parametrize("sid", SCENARIO_IDS)
def test_every_reachable_state_round_trips(sid):
    for seed in range(2):
        for s in _playout_states(sid, seed):
            j = s.to_json()
            t = GAME.state_from_json(json.loads(json.dumps(j)))
            assert t.to_json() == j
            # and plays on identically
            if not s.is_terminal():
                p = s.current_players()[0]
                assert [a.to_json() for a in t.legal_actions(p)] == [a.to_json() for a in s.legal_actions(p)]


def _paths(obj, path=()):
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


def _wrong(v):
    if isinstance(v, bool):
        return "yes"
    if isinstance(v, int):
        return "1"
    if isinstance(v, str):
        return [v]
    if v is None:
        return {"x": 1}
    return 3.5


def _set(doc, path, value=None, drop=False):
    d = doc
    for k in path[:-1]:
        d = d[k]
    if drop:
        if isinstance(d, list):
            del d[path[-1]]
        else:
            del d[path[-1]]
    else:
        d[path[-1]] = value


def _rich_state():
    """A state with ships, ordnance, orders, combat and hazards in it."""
    best = None
    for sid in ("fleet_action", "escape", "convoy"):
        for s in _playout_states(sid, 1, 400, 3):
            j = s.to_json()
            score = (len(j["ordnance"]) > 0) + (j["combat"] is not None) + (len(j["orders"]) > 0) + (
                any("hidden_identity" in x for x in j["ships"]))
            if best is None or score > best[0]:
                best = (score, j)
    return best[1]


RICH = _rich_state()


def test_every_dropped_key_and_every_wrong_type_is_a_state_error():
    doc = RICH
    checked = 0
    for path, v in list(_paths(doc)):
        if not path:
            continue
        for mode in ("drop", "wrong"):
            bad = copy.deepcopy(doc)
            if mode == "drop":
                if isinstance(path[-1], int) or path[:-1] == ("orders",):
                    continue  # dropping a list item or one ship's order may leave a valid state
                _set(bad, path, drop=True)
            else:
                _set(bad, path, _wrong(v))
            try:
                GAME.state_from_json(bad)
            except StateError:
                checked += 1
                continue
            # a few changes leave a valid state (an option dropped is never one of them)
            raise AssertionError(f"{mode} {path} was accepted")
    assert checked > 300


@pytest.mark.parametrize("patch, field", [
    ({"players": [{}] * 10_000_000}, "$.players"),
    ({"ships": [{}] * 100_000}, "$.ships"),
    ({"next_ordnance": 10 ** 5000}, "$.next_ordnance"),
    ({"turn": 0}, "$.turn"),
    ({"rng": "zz"}, "$.rng"),
    ({"active_player": 2}, "$.active_player"),
    ({"phase": "dance"}, "$.phase"),
    ({"format": "deltav-tactical-state/9"}, "$.format"),
])
def test_absurd_values_are_state_errors(patch, field):
    bad = {**RICH, **patch}
    with pytest.raises(StateError) as e:
        GAME.state_from_json(bad)
    assert e.value.field.startswith(field)


def test_references_must_exist():
    bad = copy.deepcopy(RICH)
    bad["ships"].append(copy.deepcopy(bad["ships"][0]))
    with pytest.raises(StateError) as e:
        GAME.state_from_json(bad)
    assert e.value.field.endswith(".id") and "duplicate" in e.value.reason
    bad = copy.deepcopy(RICH)
    bad["hazards"] = [["nobody", "0,0"]]
    with pytest.raises(StateError) as e:
        GAME.state_from_json(bad)
    assert e.value.field == "$.hazards[0][0]"
    bad = copy.deepcopy(RICH)
    bad["destroyed_bases"] = ["1,1"]
    with pytest.raises(StateError) as e:
        GAME.state_from_json(bad)
    assert e.value.field == "$.destroyed_bases[0]"
    bad = copy.deepcopy(RICH)
    bad["options"]["turn_limit"] = True
    with pytest.raises(StateError) as e:
        GAME.state_from_json(bad)
    assert e.value.field == "$.options.turn_limit"


@pytest.mark.parametrize("obj", [None, [], "state", 3, {}])
def test_not_a_state_at_all(obj):
    with pytest.raises(StateError):
        GAME.state_from_json(obj)


def test_a_game_won_in_combat_saves_and_loads():
    """A game that ends in the combat phase keeps that phase's bookkeeping (the attackers that fired) beside its
    result: its saved state loads (it was refused as 'combat bookkeeping outside the combat phase')."""
    from deltav.games.tactical.messages import AddAttacker, EndAstrogation, EndOrdnance, Fire

    from .helpers import FixedDice, new_state, place

    s = new_state("duel")
    s.active_player = s.first_player = 0
    place(s, "p0s0", (10, 0), (0, 0), detected=True)
    place(s, "p1s0", (11, 0), (0, 0), detected=True)
    s.ship("p1s0").disabled = 3
    s.rng = FixedDice([6])
    s.apply_action(0, EndAstrogation())
    if s.phase == "ordnance":
        s.apply_action(0, EndOrdnance())
    s.apply_action(0, AddAttacker("p0s0"))
    s.apply_action(0, Fire("p1s0"))
    assert s.is_terminal() and s.phase == "game_over" and s.combat is not None
    s.rng = Rng(5)
    doc = json.loads(json.dumps(s.to_json()))
    back = GAME.state_from_json(doc)
    assert back.to_json() == doc and back.result() == s.result()
    with pytest.raises(StateError) as exc:
        GAME.state_from_json({**doc, "phase": "logistics", "result": None})
    assert exc.value.field == "$.combat"
