"""A bounded fuzz loop for Deep Space Combat's inputs: the untrusted JSON path (``state.apply_json``) and the
in-process path (``state.apply_action`` with raw, unchecked field values).

Random JSON of every shape (random values; actions of every type with plausible, boundary and wrong-typed
fields; legal actions with one field mutated, dropped or added), sent by real and bogus players at random
decision points of random games of every scenario. Checks: no exception other than the project's
``IllegalAction`` family; a refused action leaves ``to_json()`` exactly as it was; an accepted action was in
``legal_actions`` of that player. The general fuzzer for every game lives in ``benchmarks/``; this one knows
deepspace's action fields.
"""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import IllegalAction
from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.messages import ACTIONS
from deltav.games.deepspace.scenarios import builtin_ids

FIELDS = {tag: [f for f in cls.__dataclass_fields__] for tag, cls in ACTIONS.classes.items()}
ATOMS = [None, True, False, 0, 1, -1, 2, 7, 60, 61, 10**6, -(10**6), 2**63, 10**40, 0.5, -0.0, 1e308,
         float("nan"), float("inf"), "", "x", "s0-0", "s1-0", "thrust", "damage", "design", "\ud800", "\0",
         "s0-0" * 200, [], {}, [0], [[0, 0]], {"type": "done"}]
STATS = ["thrust", "evasion", "endurance", "targeting", "damage", "size", "THRUST"]


def _rand_json(rng: Rng, depth: int = 0):
    k = rng.below(9 if depth < 3 else 5)
    if k < 5:
        return ATOMS[rng.below(len(ATOMS))]
    if k < 7:
        return [_rand_json(rng, depth + 1) for _ in range(rng.below(4))]
    keys = ["type", "ship", "q", "dq", "k"]
    return {rng.choice(keys): _rand_json(rng, depth + 1) for _ in range(rng.below(4))}


def _plausible(rng: Rng, state, field: str):
    ids = [s.id for s in state.ships] or ["s0-0"]
    if field in ("ship", "target"):
        return None if field == "target" and rng.below(4) == 0 else rng.choice(ids + ["s9-9", ""])
    if field == "stat":
        return rng.choice(STATS)
    if field == "fleet":
        return rng.choice(["line", "swarm", "skirmish", "outpost", "battlegroup", "nope"])
    if field == "detonate":
        return rng.below(2) == 0
    if field == "weapon":
        return None if rng.below(3) == 0 else rng.below(4) - 1
    return rng.below(25) - 12 if rng.below(3) else rng.choice([0, 1, 60, 61, 10**9, -(10**9)])


def _candidate(rng: Rng, state, legal) -> object:
    k = rng.below(10)
    if k == 0:
        return _rand_json(rng)
    if k <= 3 and legal:  # a legal action with one field mutated, dropped or added
        obj = rng.choice(legal).to_json()
        fields = [f for f in obj if f != "type"]
        how = rng.below(4)
        if how == 0 and fields:
            obj[rng.choice(fields)] = ATOMS[rng.below(len(ATOMS))]
        elif how == 1 and fields:
            del obj[rng.choice(fields)]
        elif how == 2:
            obj[rng.choice(["extra", "to", "player"])] = 1
        elif fields:
            f = rng.choice(fields)
            obj[f] = _plausible(rng, state, f)
        return obj
    if k <= 5 and legal:
        return rng.choice(legal).to_json()
    tag = rng.choice(sorted(FIELDS))
    obj = {"type": tag}
    for f in FIELDS[tag]:
        obj[f] = _plausible(rng, state, f) if rng.below(6) else ATOMS[rng.below(len(ATOMS))]
    return obj


def _raw_action(obj):
    """The in-process form of a JSON action, with its field values as they are (no decoding, no checks)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str) or obj["type"] not in ACTIONS.classes:
        return obj
    cls = ACTIONS.classes[obj["type"]]
    a = object.__new__(cls)
    for f in FIELDS[obj["type"]]:
        object.__setattr__(a, f, obj.get(f))
    return a


def _dump(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize("scenario", builtin_ids())
def test_random_json_at_random_decision_points(scenario):
    counts = {"accepted": 0, "refused": 0}
    for seed in range(4):
        rng = Rng(1000 + seed)
        state = DeepSpaceGame.new_initial_state({"scenario": scenario}, seed)
        for _ in range(400):
            if state.is_terminal():
                break
            players = list(state.current_players())
            p = rng.choice(players) if rng.below(8) else rng.choice([0, 1, 2, 9, -1, None, "0", True, 1.0])
            legal = state.legal_actions(p) if type(p) is int else []
            obj = _candidate(rng, state, legal)
            before = _dump(state)
            in_process = rng.below(2) == 0  # apply_action with the raw values, or the JSON path
            try:
                if in_process:
                    a = _raw_action(obj)
                    state.apply_action(p, a)
                else:
                    state.apply_json(p, obj)
                    a = ACTIONS.decode(obj)
            except IllegalAction:
                counts["refused"] += 1
                assert _dump(state) == before, (p, obj)
            else:
                counts["accepted"] += 1
                assert a in legal, (p, obj)
                assert in_process or a.to_json() == obj, (p, obj)
            # keep the game moving: mostly a random legal step
            if rng.below(3) and not state.is_terminal():
                q = rng.choice(list(state.current_players()))
                state.apply_action(q, rng.choice(state.legal_actions(q)))
    assert counts["accepted"] and counts["refused"]
