"""Astrogation orders (validation with rule ids, the complete legal set), course previews, fog-of-war views,
determinization, and property tests over random play."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deltav.core.errors import IllegalAction
from deltav.core.hexgrid import DIRECTIONS, distance
from deltav.core.rng import Rng
from deltav.games.tactical import preview_course
from deltav.games.tactical.courses import course_for, orderable
from deltav.games.tactical.messages import EndAstrogation, Order
from deltav.games.tactical.movement import compute_course

from .helpers import GAME, end_turn, new_state, place


def rule_of(state, player, action):
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        state.apply_action(player, action)
    assert json.dumps(state.to_json(), sort_keys=True) == before
    return err.value.rule


def test_order_validation_names_the_rule():
    s = new_state("biplanetary")
    assert rule_of(s, 0, Order("nope")) == "tactical.order.unknown_ship"
    assert rule_of(s, 0, Order("p1s0")) == "tactical.order.not_yours"
    assert rule_of(s, 1, Order("p1s0")) == "protocol.turn"
    assert rule_of(s, 0, Order("p0s0", 7)) == "tactical.order.direction"
    assert rule_of(s, 0, Order("p0s0", None, 1)) == "tactical.order.overload_needs_burn"
    assert rule_of(s, 0, Order("p0s0", 0, None, False, ("1,1",))) == "tactical.order.weak_gravity"
    assert rule_of(s, 0, Order("p0s0", 0, None, True)) == "tactical.order.land"
    place(s, "p0s0", (0, -5), (1, 0), fuel=0)
    assert rule_of(s, 0, Order("p0s0", 0)) == "tactical.order.fuel"
    place(s, "p0s0", (0, -5), (1, 0), fuel=1)
    assert rule_of(s, 0, Order("p0s0", 0, 1)) == "tactical.order.fuel"
    place(s, "p0s0", (0, -5), (1, 0), fuel=5, overload_used=True)
    assert rule_of(s, 0, Order("p0s0", 0, 1)) == "tactical.order.overload_used"
    place(s, "p0s0", (0, -5), (1, 0), fuel=5, overload_used=False, disabled=2)
    assert rule_of(s, 0, Order("p0s0", 0)) == "tactical.order.disabled"
    place(s, "p0s0", (0, -5), (1, 0), fuel=5, disabled=0)
    s.apply_action(0, Order("p0s0", 0))
    assert rule_of(s, 0, Order("p0s0", 1)) == "tactical.order.duplicate"


def test_overload_only_for_warships():
    s = new_state("blockade")  # P0 packet, P1 corvette; P1 starts
    s.apply_action(1, Order("p1s0", 0, 3))
    end_turn(s, 1)
    assert s.ship("p1s0").overload_used and s.ship("p1s0").fuel == 18
    assert rule_of(s, 0, Order("p0s0", 0, 1)) == "tactical.order.overload_warship"
    assert all(a.overload is None for a in s.legal_actions(0) if isinstance(a, Order))


def _random_states(n, scenarios=("biplanetary", "grand_tour", "duel", "escape", "evacuation", "convoy")):
    out = []
    for k in range(n):
        sc = scenarios[k % len(scenarios)]
        s = new_state(sc, seed=k)
        r = Rng(k)
        for _ in range(r.below(40)):
            if s.is_terminal():
                break
            p = s.current_players()[0]
            # no surrender (it may end the game, ruling 9's option): these walks are to reach positions in play
            s.apply_action(p, r.choice([a for a in s.legal_actions(p) if a.TYPE != "surrender"]))
        if not s.is_terminal():
            out.append(s)
    return out


STATES = _random_states(36)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, len(STATES) - 1), st.one_of(st.none(), st.integers(0, 5)), st.one_of(st.none(), st.integers(0, 5)),
       st.booleans(), st.integers(0, 40))
def test_legal_orders_are_exactly_the_accepted_ones(i, burn, overload, land, pick):
    s = STATES[i].clone()
    if s.phase != "astrogation":
        return
    p = s.active
    mine = [sh for sh in s.ships if sh.owner == p and orderable(sh) and sh.id not in s.orders]
    if not mine:
        return
    sh = mine[pick % len(mine)]
    legal = set(s.legal_actions(p))
    o = Order(sh.id, burn, overload, land)
    try:
        s.clone().apply_action(p, o)
        accepted = True
    except IllegalAction:
        accepted = False
    assert accepted == (o in legal)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(STATES) - 1), st.integers(0, 5))
def test_a_burn_moves_the_destination_by_exactly_one_hex(i, d):
    s = STATES[i]
    for sh in s.ships:
        if sh.destroyed or sh.landed:
            continue
        m = s.gmap
        coast = compute_course(m, sh.pos, sh.vel, 20, sh.pending, False, False, None)
        burn = compute_course(m, sh.pos, sh.vel, 20, sh.pending, False, False, d)
        assert burn.fuel_spent == 1
        if burn.outcome != "landing" and coast.outcome != "landing":
            assert burn.destination[0] - coast.destination[0] == DIRECTIONS[d][0]
            assert burn.destination[1] - coast.destination[1] == DIRECTIONS[d][1]
            assert distance(burn.destination, coast.destination) == 1
        over = compute_course(m, sh.pos, sh.vel, 20, sh.pending, False, True, d, (d + 1) % 6)
        assert over.fuel_spent == 2
        no_over = compute_course(m, sh.pos, sh.vel, 20, sh.pending, False, False, d, (d + 1) % 6)
        assert no_over.fuel_spent == 1  # a non-warship's overload is ignored by the pure function


@pytest.mark.parametrize("seed", range(12))
def test_fuel_never_negative_in_random_play(seed):
    sc = ("biplanetary", "grand_tour", "duel", "blockade", "evacuation", "convoy")[seed % 6]
    s = new_state(sc, seed=seed)
    r = Rng(seed + 100)
    steps = 0
    while not s.is_terminal() and steps < 400:
        p = s.current_players()[0]
        s.apply_action(p, r.choice(s.legal_actions(p)))
        steps += 1
        for sh in s.ships:
            assert sh.fuel is None or 0 <= sh.fuel <= sh.type.fuel


def test_preview_matches_movement_and_changes_nothing():
    s = new_state("biplanetary")
    place(s, "p0s0", (-8, -6), (1, 0), pending=(4,))
    before = json.dumps(s.to_json(), sort_keys=True)
    pv = preview_course(s, "p0s0", Order("p0s0", 0))
    assert json.dumps(s.to_json(), sort_keys=True) == before
    assert pv.destination == (-7, -5) and pv.fuel_after == 19 and pv.velocity == (1, 1)
    assert pv.orbit_after is None and not pv.crashes
    land = preview_course(s, "p0s0", Order("p0s0", 3, None, True))
    assert land.lands and land.destination == (-8, -6)
    crash = preview_course(s, "p0s0", Order("p0s0", 3))
    assert crash.crashes and crash.body == "Mars"
    coast = preview_course(s, "p0s0")
    assert coast.orbit_after == "Mars" and coast.gravity_queued[0][:3] == ((-8, -5), 3, "Mars")
    json.dumps(coast.to_json())
    with pytest.raises(IllegalAction):
        preview_course(s, "p0s0", Order("p0s0", 9))
    s.apply_action(0, Order("p0s0", 1))
    s.apply_action(0, EndAstrogation())
    assert s.ship("p0s0").pos == preview_course(new_state_with(), "p0s0", Order("p0s0", 1)).destination


def new_state_with():
    s = new_state("biplanetary")
    place(s, "p0s0", (-8, -6), (1, 0), pending=(4,))
    return s


def test_fog_of_war_hides_undetected_enemies():
    s = new_state("biplanetary")
    v = s.view(0)
    assert [x["id"] for x in v["ships"]] == ["p0s0"] and v["unseen_enemy_ships"] == 1
    assert "p1s0" in s.secret_tokens(0) and "p1s0" not in json.dumps(v)
    # a spectator sees public information only: no ship its enemy has not detected (issue 18)
    assert s.view(None)["ships"] == [] and s.secret_tokens(None) == {"p0s0", "p1s0"}
    # bring P1's corvette within 3 hexes of P0's after a movement phase: detected
    place(s, "p1s0", (-6, -6), (0, 0))
    end_turn(s, 0)
    assert s.ship("p1s0").detected
    assert "p1s0" in [x["id"] for x in s.view(0)["ships"]]
    assert [x["id"] for x in s.view(None)["ships"]] == ["p1s0"]
    s2 = new_state("biplanetary", fog_of_war=False)
    assert len(s2.view(0)["ships"]) == 2 and not s2.secret_tokens(0)


def test_escape_fugitive_known_only_to_its_owner():
    s = new_state("escape", seed=5)
    fug = [sh for sh in s.ships if sh.fugitive]
    assert len(fug) == 1 and fug[0].owner == 0
    v0 = s.view(0)
    ids = {x["id"]: x.get("identity") for x in v0["ships"]}
    assert ids[fug[0].id] == "fugitives"
    for viewer in (1, None):
        assert "fugitives" in s.secret_tokens(viewer)
        assert "fugitives" not in json.dumps(s.view(viewer))


@pytest.mark.parametrize("scenario", ["biplanetary", "escape", "grand_tour", "convoy"])
def test_determinized_worlds_keep_the_view(scenario):
    for st_ in _random_states(4, (scenario,)):
        for p in (0, 1):
            view = st_.view(p)
            world = GAME.determinize(view, p, Rng(9))
            assert world.view(p) == view
            world.legal_actions(world.current_players()[0])


@pytest.mark.parametrize("scenario", ["interplanetary_war", "escape", "fleet_action"])
def test_determinizing_never_mutates_the_view_and_places_unseen_ships_out_of_detection(scenario):
    from deltav.games.tactical.mapdata import default_map
    from deltav.games.tactical.visibility import BASE_RANGE, SHIP_RANGE, _open_hexes

    open_hexes = set(_open_hexes(default_map()))
    unseen_checked = 0
    for st_ in _random_states(4, (scenario,)):
        for p in (0, 1):
            view = st_.view(p)
            before = json.dumps(view, sort_keys=True)
            worlds = [GAME.determinize(view, p, Rng(k)) for k in range(3)]
            assert json.dumps(view, sort_keys=True) == before  # the view is read, never changed
            assert GAME.determinize(view, p, Rng(1)).to_json() == worlds[1].to_json()  # same RNG, same world
            mine = [sh.pos for sh in worlds[0].ships if sh.owner == p and not sh.destroyed]
            bases = worlds[0].players[p].bases
            for w in worlds:
                for sh in w.ships:
                    if sh.id.startswith("unseen-"):
                        unseen_checked += 1
                        assert sh.pos in open_hexes
                        assert all(distance(sh.pos, m) > SHIP_RANGE for m in mine)
                        assert all(distance(sh.pos, b) > BASE_RANGE for b in bases)
    if scenario == "interplanetary_war":
        assert unseen_checked


def test_escape_by_flying_north_wins_under_ruling_1():
    s = new_state("escape", seed=1)
    fug = next(sh for sh in s.ships if sh.fugitive)
    place(s, fug.id, (0, -27), (0, -3), fuel=10)
    end_turn(s, 0)
    assert s.is_terminal() and s.result().winners == (0,) and "Decisive" in s.result().reason
    s = new_state("escape", seed=1, escape_is_winnable=False)
    fug = next(sh for sh in s.ships if sh.fugitive)
    place(s, fug.id, (0, -27), (0, -4), fuel=10)  # ends at r = -31: off the map (bounds - 2) first
    end_turn(s, 0)
    assert fug.id and s.ship(fug.id).destroyed and s.result().winners == (1,)


@pytest.mark.parametrize("scenario", ["evacuation", "escape", "grand_tour", "biplanetary"])
def test_every_enumerated_order_is_accepted(scenario):
    checked = 0
    for s in _random_states(6, (scenario,)):
        if s.phase != "astrogation":
            continue
        p = s.active
        for a in s.legal_actions(p):
            s.clone().apply_action(p, a)
            checked += 1
            if isinstance(a, Order) and a.weak:
                # the weak list must name ignorable hexes of this very course
                assert set(a.weak) <= {f"{h[0]},{h[1]}" for h in course_for(s, s.ship(a.ship), a).ignorable}
    assert checked


def test_weak_gravity_choices_are_offered_near_luna():
    s = new_state("evacuation")
    place(s, "p0s0", (11, -9), (-1, 1))
    orders = [a for a in s.legal_actions(0) if isinstance(a, Order) and a.ship == "p0s0"]
    assert Order("p0s0", None, None, False, ("10,-8",)) in orders
    s.apply_action(0, Order("p0s0", None, None, False, ("10,-8",)))
    assert s.orders["p0s0"].weak == ("10,-8",)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(STATES) - 1))
def test_overload_is_only_ever_offered_to_warships_with_two_fuel(i):
    s = STATES[i]
    if s.phase != "astrogation":
        return
    for a in s.legal_actions(s.active):
        if isinstance(a, Order) and a.overload is not None:
            sh = s.ship(a.ship)
            assert sh.type.warship and not sh.overload_used and (sh.fuel is None or sh.fuel >= 2)
            assert a.burn is not None


def test_the_astrogation_and_movement_phases_are_modules_not_state_methods():
    from deltav.games.tactical import astrogation_phase
    from deltav.games.tactical.state import TacticalState

    moved = ("orderable", "auto_landing", "effective_order", "course_for", "order_options", "check_order",
             "end_astrogation", "movement_phase", "escape_candidate", "is_friendly_base", "resupply",
             "record_checkpoints", "end_player_turn", "check_victory", "destroy")
    assert not [n for n in moved if hasattr(TacticalState, n)]
    s = new_state("convoy", 3)
    p = s.current_players()[0]
    assert astrogation_phase.legal(s, p) == s.legal_actions(p)
    with pytest.raises(IllegalAction) as e:
        astrogation_phase.apply(s, p, Order("nope"))
    assert e.value.rule == "tactical.order.unknown_ship"
