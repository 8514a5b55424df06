"""Combat, ordnance, logistics, capture and fleet building applied to states (design/tactical.md 1.8-1.12), with
dice forced; plus bot-vs-bot games of all nine scenarios."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import IllegalAction
from deltav.core.match import play_match
from deltav.games.tactical.bots import BOTS, ScriptedBot
from deltav.games.tactical.values import (
    AddAttacker,
    Buy,
    EmplaceBase,
    EndAstrogation,
    EndCombat,
    EndOrdnance,
    Fire,
    FleetReady,
    Launch,
    Order,
    Transfer,
)

from .helpers import GAME, FixedDice, end_turn, new_state, place


def go(s, p):
    """End astrogation, and the ordnance phase if one opens: movement happens."""
    events = s.apply_action(p, EndAstrogation())
    if s.phase == "ordnance" and s.active == p:
        events += s.apply_action(p, EndOrdnance())
    return events


def duel_at(p0=(10, 0), p1=(11, 0), v0=(0, 0), v1=(0, 0)):
    s = new_state("duel")
    s.active = 0
    s.first = 0
    place(s, "p0s0", p0, v0, detected=True)
    place(s, "p1s0", p1, v1, detected=True)
    return s


def test_gun_attack_with_counterattack_before_damage():
    s = duel_at()
    s.rng = FixedDice([6, 6])
    go(s, 0)
    assert s.phase == "combat"
    assert set(s.legal_actions(0)) == {AddAttacker("p0s0"), EndCombat()}
    s.apply_action(0, AddAttacker("p0s0"))
    events = s.apply_action(0, Fire("p1s0"))
    decl = next(e for e in events if e.TYPE == "attack_declared")
    assert (decl.strength, decl.defense, decl.odds, decl.range_mod, decl.velocity_mod) == (8, 8, "1:1", 1, 0)
    counter = next(e for e in events if e.TYPE == "counterattack")
    assert counter.target == "p0s0" and counter.odds == "1:1"
    rolls = [e for e in events if e.TYPE == "damage_roll"]
    assert [(r.source, r.target, r.result) for r in rolls] == [("counter", "p0s0", "D3"), ("gun", "p1s0", "D3")]
    assert s.ship("p1s0").disabled == 3 and s.ship("p0s0").disabled == 3
    s.apply_action(0, EndCombat())
    # repair at the end of the owner's player-turn: P0 repaired one turn, P1 not yet
    assert s.ship("p0s0").disabled == 2 and s.ship("p1s0").disabled == 3 and s.active == 1


def test_reduced_underdog_attack_earns_heroism():
    s = duel_at()
    s.rng = FixedDice([6, 1])
    go(s, 0)
    s.apply_action(0, AddAttacker("p0s0"))
    events = s.apply_action(0, Fire("p1s0", 4))
    decl = next(e for e in events if e.TYPE == "attack_declared")
    assert decl.odds == "1:2" and decl.strength == 4
    assert s.ship("p1s0").disabled == 2 and s.ship("p0s0").heroic
    assert any(e.TYPE == "heroism_earned" for e in events)


def test_disabled_defender_counts_zero_and_cannot_counter():
    s = duel_at()
    s.ship("p1s0").disabled = 2
    s.rng = FixedDice([1])
    go(s, 0)
    s.apply_action(0, AddAttacker("p0s0"))
    events = s.apply_action(0, Fire("p1s0"))
    decl = next(e for e in events if e.TYPE == "attack_declared")
    assert decl.odds == "4:1" and not any(e.TYPE == "counterattack" for e in events)
    assert s.ship("p1s0").disabled == 2  # 1 - range 1 = 0: no effect


def test_elimination_at_six_disabled_turns_wins_the_duel():
    s = duel_at()
    s.ship("p1s0").disabled = 3
    s.rng = FixedDice([6])
    go(s, 0)
    s.apply_action(0, AddAttacker("p0s0"))
    s.apply_action(0, Fire("p1s0"))  # 4:1, 6 - 1 = 5: E
    assert s.ship("p1s0").destroyed and s.is_terminal() and s.result().winners == (0,)


def test_combat_rules_reject_bad_declarations():
    s = duel_at()
    s.rng = FixedDice([6, 6])
    go(s, 0)
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Fire("p1s0"))
    assert e.value.rule == "tactical.combat.no_group"
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, AddAttacker("p1s0"))
    assert e.value.rule == "tactical.combat.not_yours"
    s.apply_action(0, AddAttacker("p0s0"))
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Fire("p1s0", 9))
    assert e.value.rule == "tactical.combat.strength"


def test_undetected_and_landed_ships_are_not_targets():
    s = duel_at(p1=(16, 0))
    s.ship("p1s0").detected = False
    go(s, 0)
    assert s.phase == "astrogation" and s.active == 1  # no attack possible: combat skipped


def test_line_of_sight_is_blocked_by_a_planet_not_by_a_graze():
    s = duel_at(p0=(-11, -5), p1=(-7, -5))  # Mars (-9,-5) sits on the line
    go(s, 0)
    assert s.phase != "combat"


def test_planetary_defense_shoots_enemies_beside_a_base():
    s = new_state("blockade")  # P1 (Mars) starts; P0's packet runs for Mars
    place(s, "p0s0", (-8, -7), (0, 0), detected=False)  # Mars gravity? (-8,-7) is not: no shot
    place(s, "p1s0", (12, 8), (0, 0))
    s.rng = FixedDice([])
    end_turn(s, 1)
    assert s.ship("p0s0").disabled == 0
    s = new_state("blockade")
    place(s, "p0s0", (-8, -5), (0, 0), pending=(), landed=False)  # hovering in Mars gravity beside bases
    s.ship("p0s0").vel = (0, 0)
    place(s, "p1s0", (12, 8), (0, 0))
    # (-8,-5) is itself a base hex within 1 of (-8,-6) and (-9,-4)... every Mars base within 1 fires
    s.rng = FixedDice([5, 1, 1])
    s.apply_action(1, EndAstrogation())
    assert s.ship("p0s0").disabled == 4  # 2:1 row 5: D4, then two misses
    assert s.rng.rolled == [5, 1, 1]


def test_ramming_both_roll():
    s = duel_at(p0=(10, 0), p1=(11, 0))
    s.apply_action(0, Order("p0s0", 0))
    s.rng = FixedDice([3, 6, 1, 1])
    go(s, 0)
    # P0's own D1 is repaired at the end of its own player-turn (1.8: gone by the opponent's turn)
    assert s.ship("p0s0").disabled == 0 and s.ship("p1s0").disabled == 5


def test_asteroid_hazard_at_speed_above_one():
    s = duel_at(p0=(2, -10), p1=(14, 8), v0=(0, -2))
    # (2,-10) -> (2,-12): enters (2,-11) and (2,-12), both asteroids
    s.rng = FixedDice([6, 1])
    events = go(s, 0)
    hz = [e for e in events if e.TYPE == "damage_roll" and e.source == "asteroid"]
    assert [(h.roll, h.result) for h in hz] == [(6, "D2"), (1, "-")]
    assert s.ship("p0s0").disabled == 1  # D2, then repaired by one at the end of P0's turn


def test_mine_launch_and_detonation():
    s = duel_at(p0=(10, 0), p1=(12, 0))
    s.apply_action(0, EndAstrogation())
    assert s.phase == "ordnance" and Launch("p0s0", "mine") not in s.legal_actions(0)
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Launch("p0s0", "mine"))
    assert e.value.rule == "tactical.ordnance.mine_burn"
    s = duel_at(p0=(10, 0), p1=(12, 0))
    s.apply_action(0, Order("p0s0", 5))
    s.apply_action(0, EndAstrogation())
    assert s.phase == "ordnance"
    s.apply_action(0, Launch("p0s0", "mine"))
    assert s.ship("p0s0").cargo_used == 10
    s.rng = FixedDice([1] * 6)
    s.apply_action(0, EndOrdnance())
    mine = s.ordnance[0]
    assert mine.kind == "mine" and mine.pos == (10, 0) and mine.vel == (0, 0) and mine.turns == 4
    end_turn(s, 0)
    assert s.active == 1 and s.phase == "astrogation"
    # P1 flies into the mine hex: mine table, 5 -> D2
    s.ship("p1s0").vel = (-1, 0)
    s._opts = {}
    s.apply_action(1, Order("p1s0", 3))
    s.rng = FixedDice([5, 1, 1, 1])
    events = go(s, 1)
    assert any(e.TYPE == "ordnance_detonated" for e in events)
    assert s.ship("p1s0").disabled >= 1 and not s.ordnance


def test_torpedo_boost_and_hit():
    s = duel_at(p0=(10, 0), p1=(12, 0))
    s.ship("p1s0").vel = (0, 0)
    s.apply_action(0, EndAstrogation())
    assert s.phase == "ordnance"
    legal = s.legal_actions(0)
    assert Launch("p0s0", "torpedo", 0, 2) in legal and Launch("p0s0", "torpedo", 0, 3) not in legal
    s.apply_action(0, Launch("p0s0", "torpedo", 0, 2))
    s.rng = FixedDice([6, 1, 1])
    events = s.apply_action(0, EndOrdnance())
    det = [e for e in events if e.TYPE == "ordnance_detonated"]
    assert det and det[0].targets == ("p1s0",)
    assert s.ship("p1s0").disabled == 3


def test_nuke_destroys_everything_in_the_hex():
    s = duel_at(p0=(10, 0), p1=(12, 0))
    s.apply_action(0, EndAstrogation())
    s.apply_action(0, Launch("p0s0", "nuke", None, 0))
    s.ordnance[0].vel = (2, 0)
    s.rng = FixedDice([1] * 4)
    s.apply_action(0, EndOrdnance())
    assert s.ship("p1s0").destroyed and s.ship("p1s0").cause == "nuke"
    assert s.is_terminal() and s.result().winners == (0,)


def test_corvettes_can_never_launch():
    s = new_state("biplanetary")
    place(s, "p0s0", (0, -5), (1, 0))
    s.apply_action(0, Order("p0s0", 0))
    s.apply_action(0, EndAstrogation())
    assert s.phase != "ordnance"


def test_logistics_fuel_transfer_in_convoy():
    s = new_state("convoy")
    for sid in ("p0s0", "p0s1", "p0s2"):
        place(s, sid, (0, -5), (1, 0))
    s.ship("p0s2").fuel = 5
    for sid in ("p1s0", "p1s1", "p1s2"):
        place(s, sid, (14, 8 - int(sid[-1])), (0, 0))
    go(s, 0)
    assert s.phase == "logistics"
    legal = s.legal_actions(0)
    assert Transfer("p0s1", "p0s2", "fuel", 15) in legal and Transfer("p0s1", "p0s2", "fuel", 16) not in legal
    s.apply_action(0, Transfer("p0s1", "p0s2", "fuel", 15))
    assert s.ship("p0s2").fuel == 20 and s.ship("p0s1").fuel == 35
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Transfer("p0s0", "p0s2", "passengers", 41))  # a frigate's cargo is 40
    assert e.value.rule == "tactical.logistics.amount"
    s.apply_action(0, Transfer("p0s0", "p0s2", "passengers", 40))
    assert s.ship("p0s2").passengers == 40 and s.ship("p0s0").passengers == 80
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Transfer("p0s1", "p0s0", "cargo", 1))
    assert e.value.rule == "tactical.logistics.amount"


def test_capture_of_a_disabled_enemy():
    s = duel_at(p0=(10, 0), p1=(11, 0), v1=(0, 0))
    s.ship("p1s0").disabled = 3
    s.apply_action(0, Order("p0s0", 0))  # ends in (11,0) with v(1,0); p1 has v(0,0): no capture
    s.rng = FixedDice([1, 1, 1, 1, 1, 1])
    go(s, 0)
    assert s.ship("p1s0").owner == 1
    s = duel_at(p0=(11, 0), p1=(11, 0), v1=(0, 0))
    s.ship("p1s0").disabled = 3
    s.rng = FixedDice([])
    events = go(s, 0)
    assert any(e.TYPE == "ship_captured" for e in events)
    assert s.ship("p1s0").owner == 0 and s.ship("p1s0").control == "captured"
    assert s.is_terminal() and s.result().winners == (0,)


def test_fleet_building_is_secret_and_spawns_at_bases():
    s = new_state("fleet_action")
    assert s.phase == "fleet_building" and set(s.current_players()) == {0, 1}
    s.apply_action(0, Buy("frigate"))
    s.apply_action(0, Buy("corsair"))
    assert "p0s0" in s.secret_tokens(1) and "p0s0" not in json.dumps(s.view(1))
    with pytest.raises(IllegalAction) as e:
        s.apply_action(1, Buy("dreadnaught"))
    assert e.value.rule == "tactical.fleet.credits"
    with pytest.raises(IllegalAction) as e:
        s.apply_action(1, FleetReady())
    assert e.value.rule == "tactical.fleet.empty"
    s.apply_action(1, Buy("corsair"))
    s.apply_action(0, FleetReady())
    events = s.apply_action(1, FleetReady())
    assert s.phase == "astrogation" and s.active == s.first
    spawned = [e for e in events if e.TYPE == "fleet_spawned"]
    assert spawned[0].ships == (("p0s0", "frigate", "-8,-6"), ("p0s1", "corsair", "-10,-4"))
    assert s.ship("p0s1").landed and s.ship("p0s1").fuel == 20 and s.ship("p0s1").detected


def test_orbital_base_cargo_and_emplacement():
    s = new_state("interplanetary_war")
    s.players[0].credits = 2000
    s.apply_action(0, Buy("transport"))
    s.apply_action(0, Buy("orbitalBaseCargo", "p0s0"))
    s.apply_action(0, FleetReady())
    s.apply_action(1, Buy("frigate"))
    s.apply_action(1, FleetReady())
    t = s.ship("p0s0")
    assert t.carrying_base and t.cargo_used == 50
    s.active = 0
    place(s, "p0s0", (-8, -6), (1, 0), pending=(4,), resupplied=False)  # orbiting Mars
    s.apply_action(0, EndAstrogation())
    assert s.phase == "ordnance" and EmplaceBase("p0s0") in s.legal_actions(0)
    s.apply_action(0, EmplaceBase("p0s0"))
    base = s.ship("p0s0-base")
    assert base.emplaced and base.type.name == "orbitalBase" and not s.ship("p0s0").carrying_base


@pytest.mark.parametrize("scenario", [s.id for s in GAME.scenarios()])
def test_scripted_bots_finish_every_scenario_without_illegal_actions(scenario):
    assert BOTS["scripted"] is ScriptedBot
    for seed in range(2):
        _, final, _ = play_match(GAME, {"scenario": scenario, "turn_limit": 25}, seed, [ScriptedBot(), ScriptedBot()])
        assert final.is_terminal() and final.result() is not None
