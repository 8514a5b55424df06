"""The speed-ups of the tactical engine change nothing: courses and the shared order-option cache agree with
fresh computations, per-player-turn tables do not leak between clones, and JSON copies (with empty caches) give
the same legal actions. (Behaviour identity over whole games is checked by benchmarks/check_identical.py.)"""

from __future__ import annotations

from deltav.core.rng import Rng
from deltav.games.tactical.astrogation_phase import order_options, order_options_uncached
from deltav.games.tactical.courses import course_for, effective_order, orderable
from deltav.games.tactical.messages import EndAstrogation, Order, Surrender
from deltav.games.tactical.movement import compute_course

from .helpers import GAME, new_state


def _legal_json(state):
    return {p: [a.to_json() for a in state.legal_actions(p)] for p in state.current_players()}


def test_courses_for_orders_equal_fresh_ones():
    s = new_state("interplanetary_war", 5)
    rng = Rng(2)
    checked = 0
    while not s.is_terminal() and checked < 300:
        p = s.current_players()[0]
        legal = s.legal_actions(p)
        if s.phase == "astrogation":
            for a in legal:
                if isinstance(a, Order):
                    sh = s.ship(a.ship)
                    burn, overload, land = effective_order(s, sh, a.burn, a.overload, a.land)
                    fresh = compute_course(
                        s.gmap, sh.pos, sh.vel, sh.fuel, sh.pending, sh.landed,
                        sh.type.can_overload and not sh.overload_used, burn, overload,
                        tuple(tuple(int(x) for x in k.split(",")) for k in a.weak), land, s.destroyed_bases,
                        s.options["grazing_is_contact"], s.options["takeoff_costs_fuel"])
                    assert course_for(s, sh, a).to_json() == fresh.to_json()
                    checked += 1
        s.apply_action(p, legal[rng.below(len(legal))])
    assert checked > 50


def test_order_options_from_the_shared_cache_equal_a_fresh_computation():
    for scenario in ("grand_tour", "convoy", "escape"):
        s = new_state(scenario, 1)
        rng = Rng(4)
        for _ in range(120):
            if s.is_terminal():
                break
            p = s.current_players()[0]
            if s.phase == "astrogation":
                for sh in s.ships:
                    if sh.owner == p and orderable(sh):
                        assert order_options(s, sh) == order_options_uncached(s, sh)
            legal = s.legal_actions(p)
            s.apply_action(p, legal[rng.below(len(legal))])


def test_a_surrender_in_one_clone_leaves_the_other_alone():
    s = new_state("duel", 0)
    p = s.current_players()[0]
    before = _legal_json(s)
    assert Surrender() in s.legal_actions(p)
    c = s.clone()
    c.apply_action(p, Surrender())
    assert Surrender() not in c.legal_actions(p)
    assert _legal_json(s) == before


def test_orders_given_in_a_clone_do_not_change_the_original():
    s = new_state("fleet_action", 2)
    while s.phase != "astrogation":
        p = s.current_players()[0]
        s.apply_action(p, s.legal_actions(p)[-1])
    p = s.current_players()[0]
    before = _legal_json(s)
    c = s.clone()
    order = next(a for a in c.legal_actions(p) if isinstance(a, Order))
    c.apply_action(p, order)
    assert all(not (isinstance(a, Order) and a.ship == order.ship) for a in c.legal_actions(p))
    assert _legal_json(s) == before
    c.apply_action(p, EndAstrogation())
    assert _legal_json(s) == before


def test_clones_and_json_copies_give_the_same_legal_actions_along_random_games():
    for scenario in ("evacuation", "convoy", "interplanetary_war"):
        state = new_state(scenario, 7)
        rng = Rng(9)
        steps = 0
        while not state.is_terminal() and steps < 200:
            want = _legal_json(state)
            assert _legal_json(GAME.state_from_json(state.to_json())) == want
            branch = state.clone()
            for _ in range(4):
                if branch.is_terminal():
                    break
                q = branch.current_players()[0]
                la = branch.legal_actions(q)
                branch.apply_action(q, la[rng.below(len(la))])
            assert _legal_json(state) == want
            ps = state.current_players()
            p = ps[rng.below(len(ps))]
            legal = state.legal_actions(p)
            state.apply_action(p, legal[rng.below(len(legal))])
            steps += 1
