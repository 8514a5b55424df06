"""Determinization by reuse (mining visibility.py ``determinize``): the worlds drawn from one view after the first are
the very states a fresh read of the view gives, after the very same draws, for every set-up and player count."""

from __future__ import annotations

import json

import pytest

from deltav.core.rng import Rng
from deltav.games import load_all
from deltav.games.mining import visibility as mining_view

GAME = load_all()["mining"]


def _positions(options: dict, seed: int, every: int = 7, limit: int = 25):
    state = GAME.new_initial_state(GAME.resolve_options(options), seed)
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


@pytest.mark.parametrize("scenario", [s.id for s in GAME.scenarios()])
@pytest.mark.parametrize("players", [2, 4])
def test_later_draws_from_a_view_equal_fresh_reads(scenario, players):
    checked = 0
    for state in _positions({"scenario": scenario, "players": players}, 5):
        p = state.current_players()[0]
        view = state.view(p)
        a, b = Rng(77 + checked), Rng(77 + checked)
        for _ in range(3):
            kept = mining_view.determinize(view, p, a)  # the same view object: read once, then reused
            fresh = mining_view.determinize(dict(view), p, b)  # a new top-level dict: read afresh
            assert json.dumps(kept.to_json(), sort_keys=True) == json.dumps(fresh.to_json(), sort_keys=True)
            assert a.to_json() == b.to_json()
            assert kept.view(p) == view
        checked += 1
    assert checked


def test_a_view_changed_after_a_draw_is_read_again():
    first, later = _positions({"players": 3}, 9)[1:3]
    p = first.current_players()[0]
    view = first.view(p)
    mining_view.determinize(view, p, Rng(1))
    view.update(later.view(p))  # the same dict, now another position
    got = mining_view.determinize(view, p, Rng(2))
    fresh = mining_view.determinize(dict(view), p, Rng(2))
    assert json.dumps(got.to_json(), sort_keys=True) == json.dumps(fresh.to_json(), sort_keys=True)


class _PlainRng(Rng):
    """An Rng by another type: determinize takes its generic path (``rng.shuffle`` of the unseen tiles)."""

    __slots__ = ()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_inlined_draw_is_rng_shuffle(players):
    for k, state in enumerate(_positions({"players": players}, 11, every=5)):
        p = state.current_players()[0]
        view = state.view(p)
        a, b = Rng(300 + k), _PlainRng(300 + k)
        for _ in range(3):
            fast = mining_view.determinize(view, p, a)
            plain = mining_view.determinize(view, p, b)
            assert fast.to_json() == plain.to_json()
            assert a.state == b.state


@pytest.mark.parametrize("scenario", [s.id for s in GAME.scenarios()])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_reads_through_kept_records_equal_reads_of_plain_json(scenario, players):
    """The reader keeps what shared records (hands, collections, bribes, contracts, options) and tuples (status,
    looked-at squares) read as; a view as plain JSON (lists and dicts: nothing kept) gives the same worlds."""
    for k, state in enumerate(_positions({"scenario": scenario, "players": players}, 13, every=4)):
        p = state.current_players()[0]
        view = state.view(p)
        plain = json.loads(json.dumps(view))
        a, b = Rng(900 + k), Rng(900 + k)
        for _ in range(2):
            assert mining_view.determinize(view, p, a).to_json() == mining_view.determinize(plain, p, b).to_json()
        assert a.state == b.state
