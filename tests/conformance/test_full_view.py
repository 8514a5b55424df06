"""The full view (``State.full_view()``, what an observer who knows everything sees once a match is over): along
seeded random playouts of every scenario of every game, and at the end, it holds every token of
``secret_tokens(p)`` of every seat and of the spectator (nothing stays hidden), it has every key of
``view(None)`` with the same kind of value (records may gain the fields that hold the secrets), it is plain
JSON, and, like every view, nobody can use it to change the state."""

from __future__ import annotations

import json
from collections.abc import Mapping

import pytest

from deltav.core.protocol import json_tokens
from deltav.core.rng import Rng, derive_seed
from tests.conformance.cases import case_id, configurations, game_of
from tests.view_check import scribble

CASES = configurations()
PLAYOUTS = 2
CHECK_EVERY = 4
MAX_STEPS = 1500


def _kind(v) -> str:
    if isinstance(v, Mapping):
        return "object"
    if isinstance(v, list | tuple):
        return "array"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    return type(v).__name__


def shape_problems(spec, full, path: str = "$") -> list[str]:
    """Where ``full`` lacks a key of ``spec`` (a spectator's view) or holds another kind of value (null stands
    for what is not known or not there, so it matches anything)."""
    if spec is None or full is None:
        return []
    if _kind(spec) != _kind(full):
        return [f"{path}: {_kind(spec)} in view(None), {_kind(full)} in full_view()"]
    if isinstance(spec, Mapping):
        out = [f"{path}.{k}: missing" for k in spec if k not in full]
        for k in spec:
            if k in full:
                out += shape_problems(spec[k], full[k], f"{path}.{k}")
        return out
    if isinstance(spec, list | tuple) and spec and full:
        pairs = zip(spec, full) if len(spec) == len(full) else [(spec[0], full[0])]
        out = []
        for i, (a, b) in enumerate(pairs):
            out += shape_problems(a, b, f"{path}[{i}]")
        return out
    return []


def problems(state) -> tuple[list[str], bool]:
    """What is wrong with ``state``'s full view, and whether the state had any secret."""
    full = state.full_view()
    secrets = set().union(*(state.secret_tokens(p) for p in (*range(state.num_players), None)))
    out = []
    missing = secrets - json_tokens(full)
    if missing:
        out.append(f"hides {sorted(missing)[:5]}")
    out += shape_problems(state.view(None), full)[:3]
    json.dumps(full)  # plain JSON
    return out, bool(secrets)


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_the_full_view_shows_every_secret_in_the_spectators_shape(case):
    gid, opts = case
    game = game_of(gid)
    found: list[str] = []
    secret_steps = 0
    for k in range(PLAYOUTS):
        seed = 3000 + k
        state = game.new_initial_state(game.resolve_options(opts), seed)
        rng = Rng(derive_seed(seed, "full view"))
        step = 0
        while not state.is_terminal() and step < MAX_STEPS:
            if step % CHECK_EVERY == 0:
                bad, had = problems(state)
                secret_steps += had
                found += [f"seed {seed} step {step}: {b}" for b in bad]
            players = list(state.current_players())
            p = players[rng.below(len(players))]
            state.apply_action(p, rng.choice(state.legal_actions(p)))
            step += 1
        bad, _ = problems(state)  # the finished match: what its replay shows
        found += [f"seed {seed} final state: {b}" for b in bad]
        before = json.dumps(state.to_json(), sort_keys=True)
        again = json.dumps(state.full_view(), sort_keys=True)
        scribble(state.full_view(), f"{gid} full_view()")
        assert json.dumps(state.to_json(), sort_keys=True) == before, "writing into a full view changed the state"
        assert json.dumps(state.full_view(), sort_keys=True) == again, "writing into a full view changed the next one"
    assert not found, f"{gid} {opts}: {len(found)} problems, first: {found[0]}"
    if game.has_hidden_information:  # the check bites: some position had a secret to fill in
        assert secret_steps > 0


def test_the_shape_check_bites():
    assert shape_problems({"a": 1, "b": [{"x": 1}]}, {"a": 1, "b": [{"x": 2, "y": 3}], "c": 0}) == []
    assert shape_problems({"a": 1}, {}) == ["$.a: missing"]
    assert shape_problems({"a": [1]}, {"a": {"x": 1}}) == ["$.a: array in view(None), object in full_view()"]
    assert shape_problems({"a": None}, {"a": {"x": 1}}) == []
