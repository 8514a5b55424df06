"""Property tests over random play: an action is accepted exactly when it is in legal_actions (or is a listed
seeker activation as older records name it: the seeker alone), a rejected action changes nothing, and ship records
stay within their bounds."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deltav.core.errors import IllegalAction
from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks
from deltav.games.knighthawks import messages as m


def candidates(state, rng: Rng) -> list:
    ids = [s.id for s in state.ships] + ["nobody"]
    traps = [x[0] for x in state.mines] + ["trap-99"]
    out = []
    for _ in range(6):
        sid = rng.choice(ids)
        out.append(rng.choice([
            m.Screen(sid, rng.choice(["PS", "ES", "SS", "MS", "none", "XX"])),
            m.Lay(sid, rng.choice(["M", "S", "T"]), rng.below(5) - 1),
            m.Activate(rng.choice(traps)),
            m.Activate(rng.choice(traps), rng.choice([None, sid]), rng.choice([None, 1, 2])),
            m.Orbit(sid, rng.below(2) == 0),
            m.Course(sid, rng.below(12), rng.below(7)),
            m.Step(rng.below(4) - 2),
            m.EndMovement(),
            m.Assign(sid, rng.below(12) - 1, rng.choice(ids)),
            m.Fire(),
            m.Intercept(rng.below(8), rng.below(2) == 0),
            m.Repair(sid, rng.choice(["hull", "adf", "mr", "w0", "d1", "fire", "dc", "zz"]), 10 * rng.below(10)),
            m.EndRepair(),
        ]))
    return out


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["skirmish", "escort", "station_assault", "fleet_battle"]), st.integers(0, 10_000))
def test_accepted_exactly_when_legal(scenario, seed):
    state = KnightHawks.new_initial_state({"scenario": scenario, "turn_limit": 4}, seed)
    rng = Rng(seed)
    steps = 0
    while not state.is_terminal() and steps < 120:
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        legal_set = set(legal)
        for a in candidates(state, rng):
            for player in (0, 1):
                twin = state.clone()
                before = json.dumps(twin.to_json(), sort_keys=True)
                try:
                    twin.apply_action(player, a)
                    accepted = True
                except IllegalAction:
                    accepted = False
                    assert json.dumps(twin.to_json(), sort_keys=True) == before
                assert accepted == (player == p and (a in legal_set or state.same_choice(p, a))), (a, player, p)
        state.apply_action(p, rng.choice(legal))
        steps += 1
        for sh in state.ships:
            assert 0 <= sh.adf <= sh.adf0 and 0 <= sh.mr <= sh.mr0 and sh.dmg >= 0
            if sh.shadow is not None:
                assert sh.shadow.id == sh.id and sh.shadow.shadow is None
