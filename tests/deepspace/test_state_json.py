"""Saved states: every reachable state round-trips exactly through JSON, and a corrupted one (a key dropped, a
wrong type anywhere, an absurd value, inconsistent cursors or plans) is refused with StateError naming the
field, never a raw exception and never an allocation without bound."""

from __future__ import annotations

import copy
import json

import pytest

from deltav.core.errors import DeltavError, StateError
from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.scenarios import builtin_ids

VARIANTS = [
    {},
    {"leftover_damage": "partial", "initial_velocity": "rest"},
    {"friendly_fire": True, "arena_radius": 14, "withdrawal_radius": 6},
    {"self_destruct": False, "two_fleet_victory": "score", "round_limit": 3},
]


def _playout(scenario, seed, options, limit=400):
    s = DeepSpaceGame.new_initial_state({"scenario": scenario, **options}, seed)
    rng = Rng(seed)
    yield s
    steps = 0
    while not s.is_terminal() and steps < limit:
        p = rng.choice(s.current_players())
        s.apply_action(p, rng.choice(s.legal_actions(p)))
        steps += 1
        yield s


def _roundtrip(s):
    text = json.dumps(s.to_json())
    again = DeepSpaceGame.state_from_json(json.loads(text))
    assert json.dumps(again.to_json()) == text
    return again


@pytest.mark.parametrize("scenario", builtin_ids())
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_every_reachable_state_round_trips(scenario, variant):
    for seed in (1, 2):
        for k, s in enumerate(_playout(scenario, seed, VARIANTS[variant])):
            if k % 2 and not s.is_terminal():
                continue
            again = _roundtrip(s)
            for p in s.current_players():
                assert again.legal_actions(p) == s.legal_actions(p)
            assert again.view(None) == s.view(None)


def _states(seed=3):
    """A few states of every phase (design, deploy, plot, allocate, destruct, over)."""
    out = {}
    for scenario in builtin_ids():
        for s in _playout(scenario, seed, {}):
            key = (s.phase, s.sub, scenario == "design-duel")
            if key not in out:
                out[key] = s.clone()
    return list(out.values())


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*path, i))


def _set(doc, path, value):
    x = doc
    for k in path[:-1]:
        x = x[k]
    if value is _DROP:
        del x[path[-1]]
    else:
        x[path[-1]] = value


_DROP = object()


def _survives(doc):
    """Load a (perhaps corrupted) state: either StateError, or a state every entry point works on."""
    try:
        s = DeepSpaceGame.state_from_json(doc)
    except StateError:
        return False
    _roundtrip(s)
    s.view(None)
    for p in range(s.num_players):
        s.view(p)
        s.secret_tokens(p)
    for p in s.current_players():
        legal = s.legal_actions(p)
        assert legal, f"player {p} is waited for with no legal action"
        c = s.clone()
        c.apply_action(p, legal[0])
    return True


def test_dropping_any_key_or_a_wrong_type_anywhere_gives_state_error():
    rng = Rng(18)
    for s in _states():
        good = s.to_json()
        assert _survives(copy.deepcopy(good))
        paths = [p for p in _paths(good) if p]
        top = [p for p in paths if len(p) <= 2]  # every top-level key and its direct items
        deep = [p for p in paths if len(p) > 2]
        for path in top + [deep[rng.below(len(deep))] for _ in range(min(80, len(deep)))]:
            for bad in (_DROP, None, "x", 1.5, True, [], {}, -1, 10**30, float("nan")):
                doc = copy.deepcopy(good)
                if bad is _DROP and isinstance(path[-1], int):
                    continue  # list items: the wrong-length case is below
                _set(doc, path, bad)
                try:
                    _survives(doc)
                except DeltavError as exc:  # any project error other than StateError is a bug here too
                    raise AssertionError(f"{path} = {bad!r}: {type(exc).__name__}: {exc}") from None


@pytest.mark.parametrize(
    "patch, field",
    [
        ({"num_players": 10_000_000}, "$.num_players"),
        ({"levels": [10_000_000, 12]}, "$.levels[0]"),
        ({"rng": "0x1f"}, "$.rng"),
        ({"rng": "zz"}, "$.rng"),
        ({"game": "mining"}, "$.game"),
        ({"phase": "lunch"}, "$.phase"),
        ({"opts": {"scenario": "nowhere"}}, "$.opts"),
        ({"opts": {"scenario": "duel", "friendly_fire": 1}}, "$.opts"),
        ({"names": ["a"]}, "$.names"),
        ({"ships": []}, "$.plan"),  # 6 plans for 0 ships
        ({"extra": 1}, "$.extra"),
        ({"round": -1}, "$.round"),
        ({"round_limit": 2**80}, "$.round_limit"),
    ],
)
def test_absurd_values_name_the_field(patch, field):
    s = DeepSpaceGame.new_initial_state({"scenario": "duel"}, 1)
    doc = {**s.to_json(), **patch}
    with pytest.raises(StateError) as err:
        DeepSpaceGame.state_from_json(doc)
    assert err.value.field.startswith(field), err.value


def test_non_objects_and_deep_nesting():
    for obj in (None, [], "state", 3, {"a": [[[[]]]]}):
        with pytest.raises(StateError):
            DeepSpaceGame.state_from_json(obj)
    s = DeepSpaceGame.new_initial_state({"scenario": "duel"}, 1)
    doc = s.to_json()
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    doc["report"] = deep
    with pytest.raises(StateError):
        DeepSpaceGame.state_from_json(doc)


def test_inconsistent_cursors_plans_and_ships_are_refused():
    s = DeepSpaceGame.new_initial_state({"scenario": "skirmish"}, 1)
    rng = Rng(1)
    while s.phase != "plot" or s.cur[0][0] != 1:
        p = rng.choice(s.current_players())
        s.apply_action(p, rng.choice(s.legal_actions(p)) if s.phase != "plot" else s.legal_actions(p)[0])
    good = s.to_json()
    cases = [
        (("cur", 0), [5, -1]),  # past the last ship
        (("cur", 0), [0, 7]),  # no weapon 7
        (("order", 0), [1, 0]),
        (("order", 0), [0, 2]),  # ship 2 is player 1's
        (("plan", 0), None),  # ship 0 was plotted
        (("plan", 0), [[50, 50], []]),  # a velocity change beyond thrust
        (("plan", 1), [[0, 0], []]),  # a plot for a ship not yet plotted
        (("ships", 0, "lv", 0), 99),  # above the design
        (("ships", 0, "id"), "s1-0"),
        (("ships", 0, "pending"), 5),
        (("received", 0), 3),
        (("waiting", 0), False),
        (("waiting", 1), False),
        (("col", 0), 3),
        (("result",), {"winners": [0], "reason": "x", "scores": [1.0, 0.0]}),
        (("shots",), [["s0-0", 9, "s1-0", 3, True, 4]]),
        (("report",), [{"type": "stat_lost", "ship": "s0-0", "stat": "thrust", "weapon": None, "hp": 1, "levels": 1,
                        "to": [0]}]),
        (("designs", 0, 0, "thrust"), 1),
    ]
    for path, value in cases:
        doc = copy.deepcopy(good)
        _set(doc, path, value)
        with pytest.raises(StateError):
            DeepSpaceGame.state_from_json(doc)
