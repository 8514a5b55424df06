"""Determinization by reuse (worlds.py) gives the very state ``sample_world``'s JSON describes, after the very
same draws, for the first world drawn from a view and for every later one: hidden traps, secret repairs after a
repair turn, the world's RNG, across every scenario and along random play."""

from __future__ import annotations

import json

import pytest

from deltav.core.rng import Rng
from deltav.games import load_all
from deltav.games.knighthawks import worlds
from deltav.games.knighthawks.state import KHState
from deltav.games.knighthawks.visibility import sample_world

GAME = load_all()["knighthawks"]


def _positions(scenario: str, seed: int, every: int = 5, limit: int = 40):
    state = GAME.new_initial_state(GAME.resolve_options({"scenario": scenario}), seed)
    rng = Rng(seed)
    out = []
    step = 0
    while not state.is_terminal() and len(out) < limit:
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        state.apply_action(p, legal[rng.below(len(legal))])
        step += 1
        if step % every == 0:
            out.append(state.clone())
    return out


def _text(state) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


@pytest.mark.parametrize("scenario", [s.id for s in GAME.scenarios()])
def test_every_world_drawn_by_reuse_equals_the_one_read_from_sample_world(scenario):
    checked = 0
    for state in _positions(scenario, 11):
        for p in state.current_players():
            view = state.view(p)
            a, b = Rng(1000 + checked), Rng(1000 + checked)
            for _ in range(3):  # the first draw reads the view; the next ones clone what it read
                mine = worlds.determinize(view, p, a)
                reference = KHState.from_json(sample_world(view, p, b))
                assert _text(mine) == _text(reference)
                assert a.to_json() == b.to_json()  # the same draws were taken
                assert mine.view(p) == view
                # the world plays on like the reference: the same legal actions
                q = mine.current_players()[0] if mine.current_players() else None
                if q is not None:
                    assert mine.legal_actions(q) == reference.legal_actions(q)
            checked += 1
    assert checked


def test_worlds_cover_traps_and_secret_repairs():
    """Along a long game the check above meets hidden traps and secret repairs (so it is not vacuous)."""
    seen = {"traps": 0, "repairs": 0}
    for scenario in [s.id for s in GAME.scenarios()]:
        for state in _positions(scenario, 5, every=3, limit=80):
            for p in state.current_players():
                view = state.view(p)
                seen["traps"] += bool(view.get("hidden_mines"))
                seen["repairs"] += view["turn"] > 3 and any(
                    sj["owner"] != p and sj["status"] == "active" for sj in view["ships"])
    assert seen["traps"] and seen["repairs"], seen


def test_a_view_changed_after_a_draw_is_read_again():
    state = _positions("skirmish", 3)[0]
    p = state.current_players()[0]
    view = state.view(p)
    worlds.determinize(view, p, Rng(1))
    later = _positions("skirmish", 3)[3]
    view.update({k: later.view(p)[k] for k in ("turn", "half", "stage", "ships")})  # the same dict, changed
    got = worlds.determinize(view, p, Rng(2))
    assert _text(got) == _text(KHState.from_json(sample_world(view, p, Rng(2))))
