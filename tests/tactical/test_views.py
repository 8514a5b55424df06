"""Views (view.py) are JSON values nobody can use to change the state: what two views share (ship, player,
ordnance, rules and options records) is read-only and refuses every change, and what is not read-only is fresh,
so changing a view changes neither the state nor any later view; the view is built by visibility.py, not state.py."""

from __future__ import annotations

import copy
import json

import pytest

from deltav.core.frozen import Frozen
from deltav.core.rng import Rng
from tests.view_check import scribble

from .helpers import new_state


def _random_states(scenario: str, n: int, seed: int = 3):
    rng = Rng(seed)
    s = new_state(scenario, seed)
    out = []
    while not s.is_terminal() and len(out) < n:
        p = s.current_players()[0]
        legal = s.legal_actions(p)
        s.apply_action(p, legal[rng.below(len(legal))])
        if rng.below(7) == 0:
            out.append(s.clone())
    return out



def _containers(v, out):
    """The mutable containers of a JSON value (read-only records are skipped: they may be shared)."""
    if isinstance(v, Frozen):
        for x in v.values():
            _containers(x, out)
    elif isinstance(v, dict | list):
        out.append(v)
        for x in v.values() if isinstance(v, dict) else v:
            _containers(x, out)
    return out


@pytest.mark.parametrize("scenario", ["interplanetary_war", "escape", "fleet_action", "grand_tour"])
def test_changing_a_view_changes_neither_the_state_nor_later_views(scenario):
    for s in _random_states(scenario, 6):
        state_before = json.dumps(s.to_json(), sort_keys=True)
        for viewer in (0, 1, None):
            first = s.view(viewer)
            kept = copy.deepcopy(first)
            second = s.view(viewer)
            ids = {id(c) for c in _containers(second, [])}
            assert not ids & {id(c) for c in _containers(first, [])}  # two views share no mutable list or dict
            shared = [x for x in first["ships"] if any(x is y for y in second["ships"])]
            assert len(shared) == len(first["ships"])  # ship records are shared, read-only
            scribble(first)
            assert s.view(viewer) == kept == second
        assert json.dumps(s.to_json(), sort_keys=True) == state_before


def test_view_is_built_in_visibility_py():
    import inspect

    from deltav.games.tactical import state, visibility

    src = inspect.getsource(state.TacticalState.view)
    assert "views.state_view" in src and len(src.strip().splitlines()) == 2
    s = new_state("escape", 1)
    assert visibility.state_view(s, 0) == s.view(0)


def _reference_determinize(v, player, rng):
    """Determinization as it was before the per-view reuse: the view read into a fresh state every time."""
    from deltav.games.tactical import TacticalState
    from deltav.games.tactical.mapdata import default_map
    from deltav.games.tactical.model import hparse
    from deltav.games.tactical.visibility import PLACEHOLDER_TYPE, _unseen_candidates

    ships = list(v["ships"])
    hidden = [i for i, s in enumerate(ships) if s.get("hidden_identity") and s.get("identity") == "unknown"]
    if hidden:
        known = any(s.get("identity") == "fugitives" for s in ships)
        pick = None if known else rng.choice(hidden)
        for i in hidden:
            ships[i] = {**ships[i], "identity": "fugitives" if i == pick else "decoy"}
    n = v.get("unseen_enemy_ships", 0)
    if n:
        mine = tuple(tuple(s["position"]) for s in ships if s["owner"] == player and not s["destroyed"])
        bases = tuple(hparse(h) for h in v["players"][player]["bases"])
        cands = _unseen_candidates(default_map(), mine, bases)
        for k in range(n):
            h = rng.choice(cands)
            ships.append({
                "id": f"unseen-{k}", "owner": 1 - player, "type": PLACEHOLDER_TYPE, "position": list(h),
                "velocity": [0, 0], "fuel": 20, "pending_gravity": [], "landed": False, "destroyed": False,
                "cause": None, "disabled": 0, "overload_used": False, "cargo_used": 0, "passengers": 0, "nukes": 0,
                "detected": False, "heroic": False, "control": "own", "resupplied": False, "path": [],
                "carrying_base": False, "emplaced": False,
            })
    purchases = v.get("purchases") or [[], []]
    obj = {
        "options": {**v["options"], "scenario": v["scenario"]}, "scenario": v["scenario"], "name": v["name"],
        "rules": v["rules"], "rng": Rng(rng.next64()).to_json(), "players": v["players"], "ships": ships,
        "ordnance": v["ordnance"], "next_ordnance": v["next_ordnance"], "destroyed_bases": v["destroyed_bases"],
        "destroyed_asteroids": v["destroyed_asteroids"], "orders": v["orders"], "launched": v["launched"],
        "hazards": v["hazards"], "combat": v["combat"], "transfers": v["transfers"],
        "moral": v["moral_victory_flag"], "escaped": None, "result": v["result"], "turn": v["turn"],
        "first_player": v["first_player"], "active_player": v["active_player"], "phase": v["phase"],
        "purchases": [p if p is not None else [] for p in purchases],
    }
    return TacticalState.from_json(obj)


@pytest.mark.parametrize("scenario", ["interplanetary_war", "escape", "fleet_action", "convoy"])
def test_determinizing_a_view_again_gives_the_world_a_fresh_read_would(scenario):
    from .helpers import GAME

    for s in _random_states(scenario, 5):
        for p in (0, 1):
            view = s.view(p)
            before = json.dumps(view, sort_keys=True)
            rng_a, rng_b = Rng(5), Rng(5)
            for _ in range(4):  # the first call reads the view, the later ones reuse it
                world = GAME.determinize(view, p, rng_a)
                ref = _reference_determinize(view, p, rng_b)
                assert world.to_json() == ref.to_json()
                assert world.legal_actions(world.current_players()[0]) == ref.legal_actions(ref.current_players()[0])
                world.apply_action(world.current_players()[0], world.legal_actions(world.current_players()[0])[0])
            assert json.dumps(view, sort_keys=True) == before


def test_players_read_once_from_the_view_records_are_each_worlds_own():
    """Determinizing reads each read-only player record once and shares what it read between the views of a
    player-turn (``visibility._player``): a world that changes its players changes no later world."""
    from .helpers import GAME

    for s in _random_states("grand_tour", 3):
        for p in (0, 1):
            view = s.view(p)
            first = GAME.determinize(view, p, Rng(2))
            for pl in first.players:
                pl.credits += 100
                pl.visited = (*pl.visited, "Nowhere")
                pl.bases = ()
            view2 = s.view(p)  # a new view sharing the same records
            assert view2["players"][0] is view["players"][0]
            again = GAME.determinize(view2, p, Rng(2))
            assert again.to_json() == _reference_determinize(view2, p, Rng(2)).to_json()


def test_a_view_changed_after_determinizing_is_read_again():
    from .helpers import GAME

    s = _random_states("interplanetary_war", 1)[0]
    view = s.view(0)
    GAME.determinize(view, 0, Rng(1))
    view["turn"] += 1
    assert GAME.determinize(view, 0, Rng(1)).turn == view["turn"]


@pytest.mark.parametrize("scenario", ["interplanetary_war", "escape", "convoy"])
def test_cached_ship_records_give_the_ships_own_json_in_states_and_clones(scenario):
    """The view's ship records (templates kept on the ships, carried over by clones) are each ship's own JSON."""
    from deltav.games.tactical.visibility import ship_view

    rng = Rng(11)
    s = new_state(scenario, 5)
    twins = []
    while not s.is_terminal():
        p = s.current_players()[0]
        legal = s.legal_actions(p)
        s.apply_action(p, legal[rng.below(len(legal))])
        if rng.below(4) == 0:
            twins.append(s.clone())
        for st in [s] + twins[-2:]:
            for sh in st.ships:
                for identity in (True, False):
                    assert json.dumps(ship_view(sh, identity)) == json.dumps(sh.to_json(identity))
            for viewer in (0, 1, None):
                st.view(viewer)  # refreshes the templates the clones share
        if twins and not twins[-1].is_terminal():
            t = twins[-1]
            q = t.current_players()[0]
            t.apply_action(q, t.legal_actions(q)[-1])  # a clone moves on alone
