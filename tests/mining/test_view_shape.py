"""The per-turn view carries no static component data (that is ``MiningGame.board``, fetched once), shares no
mutable object with the state or with another view, and still determinizes from itself alone."""

from __future__ import annotations

import copy
import json

import pytest

from deltav.core.frozen import Frozen
from deltav.core.rng import Rng
from deltav.games.mining import MiningGame
from deltav.games.mining import visibility as view_mod


def _played(seed: int, steps: int, options: dict | None = None):
    st = MiningGame.new_initial_state(options or {"players": 3}, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if st.is_terminal():
            break
        p = st.current_players()[0]
        acts = st.legal_actions(p)
        st.apply_action(p, acts[rng.below(len(acts))])
    return st


def test_static_components_left_the_view_for_the_board():
    st = _played(1, 30)
    board = MiningGame.board({"players": 3})
    v = st.view(0)
    assert "components" not in v
    assert v["fingerprint"] == board["fingerprint"] == st.cfg.fingerprint
    assert board["title"] == "Variant A (standard tile mix)" and sum(r["count"] for r in board["tile_mix"]) == 48
    assert [c["id"] for c in board["contracts"]] == [c["id"] for c in v["contracts"]]
    assert MiningGame.board({"scenario": "variant-b"})["fingerprint"] != board["fingerprint"]
    board["tile_mix"].clear()  # a fresh value each call
    assert MiningGame.board({"players": 3})["tile_mix"]


def test_a_view_shares_nothing_writable_with_the_state_or_another_view():
    """Every dict and list of a view is its own (writing into it changes nothing else); every shared record is a
    ``Frozen`` or a tuple and refuses the write."""
    shared = 0
    for seed in range(4):
        st = _played(seed, 25 + 9 * seed)
        before = json.dumps(st.to_json(), sort_keys=True)
        for p in (0, 1, None):
            v = st.view(p)
            again = copy.deepcopy(v)

            def scribble(x):
                nonlocal shared
                if isinstance(x, Frozen):
                    shared += 1
                    for y in x.values():
                        scribble(y)
                    with pytest.raises(TypeError):
                        x["scribbled"] = 1
                elif isinstance(x, tuple):
                    for y in x:
                        scribble(y)
                elif isinstance(x, dict):
                    for k in list(x):
                        scribble(x[k])
                        x[k] = "scribbled"
                elif isinstance(x, list):
                    for i in range(len(x)):
                        scribble(x[i])
                        x[i] = "scribbled"

            scribble(v)
            assert json.dumps(st.to_json(), sort_keys=True) == before
            assert st.view(p) == again
    assert shared  # the options, the bribes, the contracts at least are shared records


def test_shared_records_are_the_same_objects_from_view_to_view():
    st = _played(2, 40)
    a, b = st.view(0), st.clone().view(1)
    assert a["options"] is b["options"] and a["bribes"] is b["bribes"] and a["contracts"] is b["contracts"]
    assert a is not b and a["tiles"] is not b["tiles"] and a["hands"] is not b["hands"]


def test_a_view_determinizes_when_its_config_is_not_cached():
    st = _played(3, 40, {"players": 2, "scenario": "variant-b"})
    v = json.loads(json.dumps(st.view(1)))
    view_mod._CONFIGS.clear()
    view_mod._COMPONENTS.clear()
    view_mod._BY_VIEW.clear()
    world = MiningGame.determinize(v, 1, Rng(9))
    assert json.loads(json.dumps(world.view(1))) == v


def test_the_observation_scales_rockets_by_the_board_rockets_per_player():
    """The planes read ``rockets_per_player`` from the board now that it left the view: the station's rocket
    count of the viewer (5 after buying four) is 5 / 5, not 5 / 1."""
    from deltav.games.mining import encoding
    from deltav.games.mining.scenarios import STATION

    st = MiningGame.new_initial_state({"players": 2}, 4)
    me = st.current_players()[0]
    st._rk_add(me, STATION, 4)
    f = encoding.planes(st.view(me))
    per_square = 5 + 1 + 11 + 1 + 4 + 4 + 1 + 1  # status, has tile, kind, value, rockets, looked, public, alien
    station_rockets = f.values[STATION * per_square + 18]  # the viewer's rockets come first
    assert station_rockets == 1.0
