"""Loading a saved state validates it: every state reachable in play round-trips exactly; a dropped key, a wrong
type anywhere or an absurd value is a StateError naming the field, never a raw exception; a state that loads
can be played."""

from __future__ import annotations

import contextlib
import copy
import json

import pytest

from deltav.core.errors import DeltavError, StateError
from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks.scenarios import BUILTIN

LAYERS = {"scenario": "skirmish", "fleet0": "minelayer,frigate", "fleet1": "destroyer,frigate"}
OPTIONS = [{"scenario": s} for s in BUILTIN] + [LAYERS]


def dump(o) -> str:
    return json.dumps(o, sort_keys=True)


def playout_states(options, seed, steps=700):
    s = KnightHawks.new_initial_state(dict(options, turn_limit=7), seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        yield s
        if s.is_terminal():
            return
        p = s.current_players()[0]
        legal = s.legal_actions(p)
        s.apply_action(p, legal[rng.below(len(legal))])


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o["scenario"] + ("-layers" if "fleet0" in o else ""))
def test_every_reachable_state_round_trips_exactly(options):
    for seed in (1, 2):
        for s in playout_states(options, seed):
            j = s.to_json()
            t = KnightHawks.state_from_json(json.loads(json.dumps(j)))
            assert dump(t.to_json()) == dump(j)
            p = s.current_players()
            if p:
                assert t.legal_actions(p[0]) == s.legal_actions(p[0])


def exercise(state) -> None:
    """Use a loaded state the ways a server would: it must work or refuse with the project's errors."""
    for q in (0, 1, None):
        state.view(q)
        state.secret_tokens(q)
    state.to_json()
    ps = state.current_players()
    if ps:
        legal = state.legal_actions(ps[0])
        if legal:
            with contextlib.suppress(DeltavError):
                state.clone().apply_action(ps[0], legal[0])


BAD = [None, True, -1, 10**40, "x", [], {}, [[1, 2]], 2.5, float("nan")]


def mutants(j: dict, rng: Rng, limit: int):
    paths = []

    def walk(o, path):
        if len(paths) > 20000:
            return
        if isinstance(o, dict):
            for k, v in o.items():
                paths.append(path + [k])
                walk(v, path + [k])
        elif isinstance(o, list):
            for i, v in enumerate(o):
                paths.append(path + [i])
                walk(v, path + [i])

    walk(j, [])
    for _ in range(limit):
        path = paths[rng.below(len(paths))]
        doc = copy.deepcopy(j)
        parent = doc
        for k in path[:-1]:
            parent = parent[k]
        if rng.below(3) == 0:
            if isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent.pop(path[-1])
        else:
            parent[path[-1]] = BAD[rng.below(len(BAD))]
        yield path, doc


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: o["scenario"] + ("-layers" if "fleet0" in o else ""))
def test_corrupted_states_are_refused_or_playable(options):
    rng = Rng(7)
    refused = 0
    for k, s in enumerate(playout_states(options, 3, steps=300)):
        if k % 30:
            continue
        for _path, doc in mutants(s.to_json(), rng, 60):
            try:
                t = KnightHawks.state_from_json(doc)
            except StateError as e:
                assert e.field.startswith("$"), e
                refused += 1
                continue
            exercise(t)  # accepted: the mutation kept a valid state (a flag flipped to another valid value)
    assert refused > 100


def test_every_top_level_key_is_required():
    s = KnightHawks.new_initial_state({"scenario": "escort"}, seed=1)
    j = s.to_json()
    for key in j:
        if key in ("game", "mover", "dropped"):
            continue  # dropped: a state saved before it was kept knows no drop turns (seekers go by their ship alone)
        doc = dict(j)
        del doc[key]
        with pytest.raises(StateError) as e:
            KnightHawks.state_from_json(doc)
        assert key in e.value.field or key in e.value.reason


@pytest.mark.parametrize("patch,field", [
    ({"rng": "zz"}, "$.rng"),
    ({"rng": None}, "$.rng"),
    ({"turn": 10**5000}, "$.turn"),
    ({"ships": [{}] * 1_000_000}, "$.ships"),
    ({"mines": [["t", 0, "M", [0, 0], -1, 0, "ghost"]]}, "$.mines[0][6]"),
    ({"victory": {"kind": "exit", "ship": "ghost"}}, "$.victory.ship"),
    ({"stage": "intercept", "attacks": []}, "$.attacks"),
    ({"options": {"scenario": "escort", "eb_range": 11}}, "$.options"),
    ({"plots": {"ghost": [1, 0, [0]]}}, "$.plots.ghost"),
    ({"allocations": [[0, "ghost", "hull", 10]]}, "$.allocations[0][1]"),
    ({"map": {"radius": 10**9, "planets": []}}, "$.map.radius"),
])
def test_absurd_values_name_the_field(patch, field):
    j = KnightHawks.new_initial_state({"scenario": "escort"}, seed=1).to_json()
    j.update(patch)
    with pytest.raises(StateError) as e:
        KnightHawks.state_from_json(j)
    assert e.value.field.startswith(field), e.value


def test_a_ship_field_of_the_wrong_type_names_the_ship():
    j = KnightHawks.new_initial_state({"scenario": "escort"}, seed=1).to_json()
    j["ships"][2]["weapons"] = [["LB", "one", -1, 0]]
    with pytest.raises(StateError) as e:
        KnightHawks.state_from_json(j)
    assert e.value.field == "$.ships[2].weapons[0][1]"
    j = KnightHawks.new_initial_state({"scenario": "escort"}, seed=1).to_json()
    del j["ships"][0]["class"]
    with pytest.raises(StateError) as e:
        KnightHawks.state_from_json(j)
    assert e.value.field.startswith("$.ships[0]")
