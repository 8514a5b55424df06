"""Spectators and private steps (issue 18): ``view(None)`` shows only public information, ``secret_tokens(None)``
names every tile secret from a spectator, and a step that shows a seat no event changes nothing in its view."""

from __future__ import annotations

import json

import pytest

from deltav.core.protocol import json_tokens
from deltav.core.rng import Rng
from deltav.games.mining import MiningGame
from deltav.games.mining.visibility import squares_of


def walk(scenario: str, players: int, seed: int, steps: int = 400):
    """(state before, actor, events, state after) along a random playout; the state is cloned at each step."""
    st = MiningGame.new_initial_state({"scenario": scenario, "players": players}, seed)
    rng = Rng(seed * 7 + 1)
    for _ in range(steps):
        if st.is_terminal():
            return
        p = st.current_players()[0]
        legal = st.legal_actions(p)
        before = st.clone()
        ev = st.apply_action(p, legal[rng.below(len(legal))])
        yield before, p, ev, st


CASES = [(sc, n, seed) for sc in ("standard", "variant-b") for n in (2, 3, 4) for seed in (1, 2)]


@pytest.mark.parametrize("scenario,players,seed", CASES)
def test_a_step_that_shows_a_seat_no_event_leaves_its_view_unchanged(scenario, players, seed):
    for before, actor, ev, after in walk(scenario, players, seed):
        for q in [*range(players), None]:
            if q == actor:
                continue
            if not any(e.visible_to(q) for e in ev):
                assert after.view(q) == before.view(q), f"seat {q} saw no event but its view changed"
            else:  # what changed for q is explained by what q saw: a private event of another seat changes nothing
                private = [e for e in ev if not e.visible_to(q)]
                assert all(getattr(e, "to", None) for e in private)


def _public_tile_squares(st) -> set[int]:
    out = set()
    for s in range(49):
        t = st.squares[s]
        if t >= 0 and (st.faceup | st.att_mask | st.public) >> s & 1:
            out.add(s)
    return out


@pytest.mark.parametrize("scenario,players,seed", CASES)
def test_the_spectator_sees_only_public_facts(scenario, players, seed):
    for _, _, ev, st in walk(scenario, players, seed):
        v = st.view(None)
        shown = {e["square"] for e in squares_of(v) if e["tile"] is not None}
        assert shown == _public_tile_squares(st)
        secret = st.secret_tokens(None)
        assert secret == {st.cfg.ids[st.squares[s]] for s in range(49) if st.squares[s] >= 0} - {
            st.cfg.ids[st.squares[s]] for s in _public_tile_squares(st)}
        assert not secret & json_tokens(v)
        for p in range(players):
            assert st.secret_tokens(p) <= secret  # a spectator knows no more than any player
        text = json.dumps([e.to_json() for e in ev if e.visible_to(None)])
        assert not secret & json_tokens(json.loads(text))  # public events name no secret tile either
