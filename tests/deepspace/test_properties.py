"""Property tests over random play: legal lists match the pure rules, invariants hold, JSON round-trips."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from deltav.core.rng import Rng
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace import damage as dmg
from deltav.games.deepspace.limits import SPLIT_THRUST
from deltav.games.deepspace.messages import Allocate, SetVelocity
from deltav.games.deepspace.movement import thrust_cost
from deltav.games.deepspace.scenarios import builtin_ids


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(builtin_ids()), st.integers(0, 10_000), st.sampled_from(["lost", "partial"]))
def test_random_play_keeps_the_invariants(scenario, seed, leftover):
    s = DeepSpaceGame.new_initial_state({"scenario": scenario, "leftover_damage": leftover}, seed)
    rng = Rng(seed)
    budget = {x.id: 60 * x.size for x in s.ships}
    steps = 0
    while not s.is_terminal() and steps < 300:
        p = rng.choice(s.current_players())
        legal = s.legal_actions(p)
        assert len(set(legal)) == len(legal)
        if s.phase == "allocate":
            ship = s.ships[s.order[p][s.cur[p]]]
            want = {(k, hp) for k, hp in dmg.options(ship.size, ship.lv, ship.partial, ship.pending, leftover)}
            got = {(dmg.slot_of(a.stat, a.weapon), a.hp) for a in legal if isinstance(a, Allocate)}
            assert got == want
        if s.phase == "plot" and isinstance(legal[0], SetVelocity):
            ship = s.ship(legal[0].ship)
            vs = [a for a in legal if isinstance(a, SetVelocity)]
            if ship.thrust > SPLIT_THRUST:  # the second of two steps: one column of velocities
                assert len(vs) <= 2 * ship.thrust + 1 and len({a.dq for a in vs}) == 1
            else:
                assert len(vs) == 3 * ship.thrust * (ship.thrust + 1) + 1
            assert all(thrust_cost(ship.vel, (a.dq, a.dr)) <= ship.thrust for a in vs)
        s.apply_action(p, rng.choice(legal))
        steps += 1
        for x in s.ships:
            assert min(x.lv) >= 0
            if x.id in budget:
                assert x.size * (x.lv[0] + x.lv[1] + x.lv[2]) + sum(x.lv[3:]) <= budget[x.id]
        # every hit point inflicted on an enemy is received by someone (explosions also hurt friends)
        assert sum(s.inflicted) <= sum(s.received)
    again = DeepSpaceGame.state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.to_json() == s.to_json()
