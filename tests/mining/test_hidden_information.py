"""Hidden information: per-player knowledge, views that never leak, and the sampler (determinize)."""

from __future__ import annotations

import copy
import json
from collections import Counter

from deltav.core.protocol import json_tokens
from deltav.core.rng import Rng
from deltav.games.mining import MiningGame
from deltav.games.mining.knowledge import kind_odds
from deltav.games.mining.messages import Declare, Look, Pass, Prospect, Reveal, Survey
from deltav.games.mining.scenarios import KINDS, STATION
from deltav.games.mining.visibility import squares_of
from tests.mining.helpers import new, place, play, put_rocket


def test_views_show_own_knowledge_and_only_public_facts_of_others():
    st = new()
    tiles = place(st, {0: ("alphatite", 5), 1: ("betamite", 4), 2: ("gammatite", 3)})
    play(st, 0, Survey("b0-omnidium"))
    for s in (0, 1, 2):
        play(st, 0, Look(s))
    v0, v1, vs = st.view(0), st.view(1), st.view(None)
    assert squares_of(v0)[0]["tile"] == {"id": st.cfg.ids[tiles[0]], "kind": "alphatite", "value": 5}
    for v in (v1, vs):
        assert all(squares_of(v)[s]["tile"] is None for s in (0, 1, 2))
        assert squares_of(v)[1]["looked_by"] == [0]
    ids = {st.cfg.ids[t] for t in tiles.values()}
    assert ids <= st.secret_tokens(1) and ids <= st.secret_tokens(None)
    assert not ids & st.secret_tokens(0)
    for p in (1, None):
        assert not st.secret_tokens(p) & json_tokens(st.view(p))
    assert len(st.secret_tokens(0)) == 45 and len(st.secret_tokens(1)) == 48


def test_tiles_flipped_back_become_public_knowledge():
    st = new()
    place(st, {10: ("alphatite", 2), 11: ("gammatite", 1)})
    play(st, 0, Prospect())
    play(st, 0, Declare("C05"))
    play(st, 0, Reveal(10))
    play(st, 0, Reveal(11))
    play(st, 0, Pass())
    for p in (0, 1, None):
        assert squares_of(st.view(p))[10]["tile"]["kind"] == "alphatite"
    st2 = new(revealed_tiles_known=False)
    place(st2, {10: ("alphatite", 2), 11: ("gammatite", 1)})
    play(st2, 0, Prospect())
    play(st2, 0, Declare("C05"))
    play(st2, 0, Reveal(10))
    play(st2, 0, Reveal(11))
    play(st2, 0, Pass())
    assert squares_of(st2.view(0))[10]["tile"] is None


def _mid_game(seed=3, players=3):
    """A random position some way into a game (deterministic)."""
    st = MiningGame.new_initial_state({"players": players}, seed)
    rng = Rng(seed)
    for _ in range(60):
        if st.is_terminal():
            break
        p = st.current_players()[0]
        st.apply_action(p, rng.choice(st.legal_actions(p)))
    return st


def test_a_sampled_world_keeps_the_view_and_uses_only_the_view():
    st = _mid_game()
    for p in range(st.num_players):
        view = st.view(p)
        world = MiningGame.determinize(copy.deepcopy(view), p, Rng(7))
        assert world.view(p) == view
        # a different truth with the same view gives the very same sample: the sampler cannot peek
        other = st.clone()
        unknown = [s for s in range(49) if squares_of(view)[s]["status"] == "face_down" and squares_of(view)[s]["tile"] is None]
        a, b = unknown[0], unknown[-1]
        other.squares[a], other.squares[b] = other.squares[b], other.squares[a]
        assert other.view(p) == view
        world2 = MiningGame.determinize(other.view(p), p, Rng(7))
        assert world2.to_json()["squares"] == world.to_json()["squares"]
        json.dumps(world.to_json())
        # the sampled world is playable
        q = world.current_players()[0]
        world.apply_action(q, world.legal_actions(q)[0])


def test_opponent_knowledge_in_a_sampled_world_refers_to_the_sampled_tiles():
    st = new()
    place(st, {0: ("alphatite", 5), 1: ("betamite", 4), 2: ("gammatite", 3)})
    play(st, 0, Survey("b0-omnidium"))
    for s in (0, 1, 2):
        play(st, 0, Look(s))
    world = MiningGame.determinize(st.view(1), 1, Rng(1))
    v0 = world.view(0)
    assert all(squares_of(v0)[s]["tile"] is not None for s in (0, 1, 2))
    assert [squares_of(v0)[s]["tile"]["id"] for s in (0, 1, 2)] == [world.cfg.ids[world.squares[s]] for s in (0, 1, 2)]


def test_sampling_is_uniform_over_the_unknown_tiles():
    st = new()
    place(st, {10: ("omnidium", 5)})
    put_rocket(st, 0, 10)
    play(st, 0, Prospect())
    view = st.view(0)
    square = 30
    n = 4800
    kinds: Counter = Counter()
    ids: Counter = Counter()
    rng = Rng(11)
    for _ in range(n):
        w = MiningGame.determinize(view, 0, rng)
        t = w.squares[square]
        kinds[KINDS[w.cfg.kinds[t]]] += 1
        ids[t] += 1
        assert w.squares[10] == st.squares[10]
    assert len(ids) == 47 and st.squares[10] not in ids
    expected_id = n / 47
    chi2 = sum((ids[t] - expected_id) ** 2 / expected_id for t in ids)
    assert chi2 < 90  # 46 degrees of freedom: the 99.99% point is about 86
    # kinds in proportion to the unseen mix: 8 of 47 tiles are Alphatite
    assert abs(kinds["alphatite"] / n - 8 / 47) < 0.03
    assert abs(kinds["omnidium"] / n - 4 / 47) < 0.03
    odds = kind_odds(view)
    assert abs(odds["alphatite"] - 8 / 47) < 1e-12 and abs(sum(odds.values()) - 1) < 1e-12
    for kind, p in odds.items():
        assert abs(kinds[kind] / n - p) < 0.03


def test_private_events_are_addressed_to_the_looker_only():
    st = new()
    put_rocket(st, 0, 10)
    ev = play(st, 0, Prospect())
    seen = [e for e in ev if e.TYPE == "tile-seen"]
    assert seen and all(e.visible_to(0) and not e.visible_to(1) and not e.visible_to(None) for e in seen)
    public = [e for e in ev if e.TYPE != "tile-seen"]
    for e in public:
        assert st.cfg.ids[st.squares[10]] not in json.dumps(e.to_json())
    assert squares_of(st.view(None))[STATION]["status"] == "station"
