"""Every refusal names its specific rule (issue 18): a landed target, a destroyed one and an undetected one have
different rule ids; a group that has fired all its strength has its own; a torch asked for fuel says that its
fuel is sealed. Each refusal leaves the state exactly as it was."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import IllegalAction
from deltav.games.tactical.messages import AddAttacker, Buy, EndAstrogation, EndCombat, EndOrdnance, Fire, FleetReady, Transfer

from .helpers import FixedDice, new_state, place


def refused(s, player, action) -> str:
    before = json.dumps(s.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as e:
        s.apply_action(player, action)
    assert json.dumps(s.to_json(), sort_keys=True) == before
    return e.value.rule


def fleet(p0, p1):
    s = new_state("interplanetary_war")
    s.players[0].credits = s.players[1].credits = 10_000
    for p, lst in ((0, p0), (1, p1)):
        for t, _h, _v in lst:
            s.apply_action(p, Buy(t))
        s.apply_action(p, FleetReady())
    for p, lst in ((0, p0), (1, p1)):
        for k, (_t, h, v) in enumerate(lst):
            place(s, f"p{p}s{k}", h, v, detected=True, resupplied=False)
    s.active_player = 0
    s.phase = "astrogation"
    s._opts = {}
    return s


def to_combat(s):
    s.apply_action(0, EndAstrogation())
    if s.phase == "ordnance":
        s.apply_action(0, EndOrdnance())
    assert s.phase == "combat"


def test_landed_destroyed_and_undetected_targets_have_their_own_rules():
    s = fleet([("frigate", (10, 0), (0, 0))],
              [("corvette", (12, 0), (0, 0)), ("corvette", (13, 0), (0, 0)), ("corvette", (12, 1), (0, 0)),
               ("corvette", (-14, 8), (0, 0))])
    s.ship("p1s1").landed = True
    s.ship("p1s2").destroyed = True
    s.ship("p1s3").detected = False
    s.rng = FixedDice([1, 1])
    to_combat(s)
    s.apply_action(0, AddAttacker("p0s0"))
    assert refused(s, 0, Fire("p1s1")) == "tactical.combat.target_landed"
    assert refused(s, 0, Fire("p1s2")) == "tactical.combat.target_destroyed"
    assert refused(s, 0, Fire("p1s3")) == "tactical.combat.target_undetected"
    assert refused(s, 0, Fire("p0s0")) == "tactical.combat.target"


def test_a_group_that_spent_its_strength_has_its_own_rule():
    s = fleet([("frigate", (10, 0), (0, 0))], [("corvette", (12, 0), (0, 0)), ("corvette", (-14, 8), (0, 0))])
    s.rng = FixedDice([1, 1])
    to_combat(s)
    assert refused(s, 0, Fire("p1s0")) == "tactical.combat.no_group"
    s.apply_action(0, AddAttacker("p0s0"))
    s.apply_action(0, Fire("p1s0"))  # the whole strength
    assert refused(s, 0, Fire("p1s1")) == "tactical.combat.group_spent"
    s.apply_action(0, EndCombat())


def test_a_torch_asked_for_fuel_says_its_fuel_is_sealed():
    s = fleet([("torch", (10, 0), (0, 0)), ("frigate", (10, 0), (0, 0))], [("corvette", (-14, 8), (0, 0))])
    s.ship("p0s1").fuel = 5
    s.phase = "logistics"
    s.transfers = 0
    rule = refused(s, 0, Transfer("p0s0", "p0s1", "fuel", 1))
    assert rule == "tactical.logistics.sealed_fuel"
    assert refused(s, 0, Transfer("p0s1", "p0s0", "fuel", 1)) == "tactical.logistics.unlimited_fuel"
    assert refused(s, 0, Transfer("p0s1", "p0s0", "passengers", 1)) == "tactical.logistics.no_passenger_rescue"
