"""Every shipped scenario starts exactly as the reference's resolved starting state
(design/data/tactical-map-and-scenarios.json): ships, bases (in their order: fleets spawn round-robin over them),
players' home, target, escape flag and credits, the starting player and the rule flags (with our rulings: Grand
Tour without Luna by ruling 3, Escape's edge "north")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deltav.games.tactical.messages import Buy, FleetReady
from deltav.games.tactical.scenarios import SCENARIO_IDS, builtin_scenario

from .helpers import act, new_state

# the "scenarios" member of design/data/tactical-map-and-scenarios.json, copied unchanged
DATA = Path(__file__).with_name("data") / "resolved_scenarios.json"
IDS = {"interplanetaryWar": "interplanetary_war", "fleetAction": "fleet_action", "grandTour": "grand_tour"}


def _reference() -> dict:
    return json.loads(DATA.read_text())["scenarios"]


def _hex(key: str) -> tuple[int, int]:
    q, r = key.split(",")
    return int(q), int(r)


def test_every_shipped_scenario_is_in_the_reference():
    assert sorted(IDS.get(k, k) for k in _reference()) == sorted(SCENARIO_IDS)


@pytest.mark.parametrize("ref_id", sorted(json.loads(DATA.read_text())["scenarios"]))
def test_scenario_matches_the_resolved_start(ref_id):
    ref = _reference()[ref_id]
    sc = builtin_scenario(IDS.get(ref_id, ref_id))
    rr = ref["rules"]
    # starting player: the reference randomizes Duel and Grand Tour
    assert sc.starting_player == ("random" if rr.get("randomizeStartingPlayer") else ref["startingPlayer"])
    for p, (rp, pl) in enumerate(zip(ref["players"], sc.players, strict=True)):
        assert pl.home == rp["homeBody"], p
        assert pl.target == rp["targetBody"], p
        assert pl.escape_wins == rp["escapeWins"], p
        assert pl.credits == (rp["credits"] or 0), p
        assert list(pl.bases) == [_hex(b) for b in rp["bases"]], p  # the same bases in the same order
    ours = sorted(
        (st.id, p, st.type, st.position, st.velocity, st.landed, st.fuel, st.passengers, st.hidden_identity)
        for p, pl in enumerate(sc.players) for st in pl.ships)
    theirs = sorted(
        (s["id"], s["owner"], s["type"], (s["position"]["q"], s["position"]["r"]),
         (s["velocity"]["dq"], s["velocity"]["dr"]), s["lifecycle"] == "landed", s["fuel"], s.get("passengers", 0),
         s.get("hiddenIdentity", False))
        for s in ref["ships"])
    assert ours == theirs
    # rule flags
    r = sc.rules
    assert r.combat == (not rr.get("combatDisabled", False))
    assert r.planetary_defense == rr.get("planetaryDefenseEnabled", True)
    assert r.logistics == rr.get("logisticsEnabled", False)
    assert r.passenger_rescue == rr.get("passengerRescueEnabled", False)
    assert r.target_requires_passengers == rr.get("targetWinRequiresPassengers", False)
    assert r.hidden_identity == rr.get("hiddenIdentityInspection", False)
    assert r.escape_edge == ("north" if rr.get("escapeEdge") == "north" else "none")
    assert list(r.allowed_ordnance) == rr.get("allowedOrdnanceTypes", ["mine", "torpedo", "nuke"])
    assert list(r.fleet_purchases) == (rr.get("availableFleetPurchases") or [])
    assert list(r.checkpoints) == [b for b in rr.get("checkpointBodies", []) if b != "Luna"]  # ruling 3


def test_fleet_action_venus_fleet_spawns_at_minus5_5():
    s = new_state("fleet_action")
    act(s, 0, Buy("corvette"))
    act(s, 0, FleetReady())
    act(s, 1, Buy("corvette"))
    act(s, 1, FleetReady())
    venus = [sh for sh in s.ships if sh.owner == 1]
    assert [sh.pos for sh in venus] == [(-5, 5)]
