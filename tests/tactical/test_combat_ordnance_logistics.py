"""Combat, ordnance, logistics, capture and fleet building applied to states (design/tactical.md 1.8-1.12), with
dice forced; plus bot-vs-bot games of all nine scenarios."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import IllegalAction
from deltav.core.match import play_match
from deltav.games.tactical.bots import BOTS
from deltav.games.tactical.bots.scripted import ScriptedBot
from deltav.games.tactical.messages import (
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
    Surrender,
    Transfer,
)
from deltav.games.tactical.model import Ordnance

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
    assert [(h.roll, h.result) for h in hz] == [(6, "D1"), (1, "-")]  # design note 1.8: D1 on a 6
    assert s.ship("p0s0").disabled == 0  # D1, then repaired by one at the end of P0's turn


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
    base = s.ship("p0ob0")
    assert base.emplaced and base.type.name == "orbitalBase" and not s.ship("p0s0").carrying_base


@pytest.mark.parametrize("scenario", [s.id for s in GAME.scenarios()])
def test_scripted_bots_finish_every_scenario_without_illegal_actions(scenario):
    assert BOTS["scripted"] is ScriptedBot
    for seed in range(2):
        bots = [ScriptedBot(strict=True), ScriptedBot(strict=True)]
        _, final, _ = play_match(GAME, {"scenario": scenario, "turn_limit": 25}, seed, bots)
        assert final.is_terminal() and final.result() is not None


@pytest.mark.slow
@pytest.mark.parametrize("scenario", [s.id for s in GAME.scenarios()])
def test_many_scripted_games_per_scenario(scenario, request):
    """Ten full games per scenario under ``-m slow``; three (with a 40-turn limit) in the default suite."""
    slow = "slow" in (request.config.getoption("markexpr") or "")
    games = 10 if slow else 3
    options = {"scenario": scenario} if slow else {"scenario": scenario, "turn_limit": 40}
    finished = 0
    for seed in range(games):
        _, final, _ = play_match(GAME, options, 100 + seed, [ScriptedBot(strict=True), ScriptedBot(strict=True)])
        finished += final.is_terminal()
    assert finished == games


def fleet_duel(p0_ships, p1_ships):
    """A fleet-action state after fleet building: ``p*_ships`` are lists of (type, hex, velocity)."""
    s = new_state("interplanetary_war")
    s.players[0].credits = s.players[1].credits = 10_000
    for p, lst in ((0, p0_ships), (1, p1_ships)):
        for t, _h, _v in lst:
            s.apply_action(p, Buy(t))
        s.apply_action(p, FleetReady())
    for p, lst in ((0, p0_ships), (1, p1_ships)):
        for k, (_t, h, v) in enumerate(lst):
            place(s, f"p{p}s{k}", h, v, detected=True, resupplied=False)
    s.active = 0
    s.phase = "astrogation"
    s._opts = {}
    return s


def test_split_fire_on_two_ships_in_one_hex():
    s = fleet_duel([("dreadnaught", (10, 0), (0, 0))], [("corvette", (12, 0), (0, 0)), ("corvette", (12, 0), (0, 0))])
    s.rng = FixedDice([6, 1, 6, 1])
    go(s, 0)
    s.apply_action(0, AddAttacker("p0s0"))
    s.apply_action(0, Fire("p1s0", 8))  # 8 vs 2: 4:1, 6 - 2 = 4: D5; counter 4 (both corvettes) vs 15: 1:4
    assert s.combat.allocated == 8 and s.combat.group == ("p0s0",)
    legal = s.legal_actions(0)
    assert Fire("p1s1", 7) in legal and Fire("p1s1", 8) not in legal and Fire("p1s0", 1) not in legal
    s.apply_action(0, Fire("p1s1"))  # the remaining 7 at the other corvette: 3:1, 6 - 2 = 4: D4
    assert s.ship("p1s0").disabled == 5 and s.ship("p1s1").disabled == 4
    assert s.combat.group == () and "p0s0" in s.combat.used


def test_hex_mates_on_the_same_course_join_the_counterattack():
    s = fleet_duel([("frigate", (10, 0), (0, 0))], [("corvette", (11, 0), (0, 0)), ("corsair", (11, 0), (0, 0)),
                                                     ("frigate", (11, 0), (1, 0))])
    s.rng = FixedDice([1, 6])
    go(s, 0)
    s.apply_action(0, AddAttacker("p0s0"))
    events = s.apply_action(0, Fire("p1s0"))
    counter = next(e for e in events if e.TYPE == "counterattack")
    assert set(counter.ships) == {"p1s0", "p1s1"}  # the frigate on another course does not join
    assert counter.strength == 6 and counter.defense == 8 and counter.odds == "1:2"


def test_escorts_counterattack_for_a_defensive_only_target():
    # design note 1.8: the transport itself never counters, its corvette escort in its hex on its course does
    s = fleet_duel([("frigate", (10, 0), (0, 0))], [("transport", (11, 0), (0, 0)), ("corvette", (11, 0), (0, 0)),
                                                     ("corsair", (11, 0), (1, 0))])
    s.rng = FixedDice([1, 6])
    go(s, 0)
    s.apply_action(0, AddAttacker("p0s0"))
    events = s.apply_action(0, Fire("p1s0"))
    counter = next(e for e in events if e.TYPE == "counterattack")
    assert counter.ships == ("p1s1",)  # not the transport, not the corsair on another course
    assert counter.strength == 2 and counter.defense == 8


def test_dreadnaught_fires_while_disabled_and_defensive_ships_never_attack():
    s = fleet_duel([("dreadnaught", (10, 0), (0, 0)), ("transport", (10, 1), (0, 0))],
                   [("corvette", (12, 0), (0, 0))])
    s.ship("p0s0").disabled = 3
    s.rng = FixedDice([1, 1])
    go(s, 0)
    assert s.phase == "combat"
    legal = s.legal_actions(0)
    assert AddAttacker("p0s0") in legal and AddAttacker("p0s1") not in legal
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, AddAttacker("p0s1"))
    assert e.value.rule == "tactical.combat.cannot_attack"


def test_anti_nuke_fire_destroys_a_nuke_on_any_result():
    s = fleet_duel([("frigate", (10, 0), (0, 0))], [("frigate", (14, 4), (0, 0))])
    s.ordnance.append(Ordnance("ord9", 1, "nuke", (11, 0), (0, 0), 3, "p1s0"))
    s.rng = FixedDice([5])
    go(s, 0)  # P0 does not move; the nuke sits at distance 1
    # P0 coasts, so nothing walks into the nuke; combat opens against the nuke (and the far frigate)
    assert Fire("ord9", None) in s.legal_actions(0) or AddAttacker("p0s0") in s.legal_actions(0)
    s.apply_action(0, AddAttacker("p0s0"))
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Fire("ord9", 3))
    assert e.value.rule == "tactical.combat.nuke_strength"
    events = s.apply_action(0, Fire("ord9"))  # 2:1, 5 - 1 = 4: D3 -> destroyed
    assert any(e.TYPE == "ordnance_removed" and e.reason == "shot" for e in events)
    assert not s.ordnance


def test_a_torpedo_that_misses_keeps_flying():
    s = duel_at(p0=(10, 0), p1=(12, 0))
    s.apply_action(0, EndAstrogation())
    s.apply_action(0, Launch("p0s0", "torpedo", 0, 2))
    s.rng = FixedDice([1, 1, 1])  # torpedo table 1: "-"
    s.apply_action(0, EndOrdnance())
    torp = s.ordnance[0]
    assert torp.pos == (12, 0) and torp.vel == (2, 0) and s.ship("p1s0").disabled == 0


def test_a_nuke_destroys_a_base_in_its_path():
    s = duel_at(p0=(4, 3), p1=(14, 8))  # a nuke flying west along r = 3 meets Mercury's base (2,3)
    s.apply_action(0, EndAstrogation())
    s.apply_action(0, Launch("p0s0", "nuke"))
    s.ordnance[0].vel = (-2, 0)
    s.rng = FixedDice([1] * 4)
    s.apply_action(0, EndOrdnance())
    assert (2, 3) in s.destroyed_bases and not s.ordnance


def test_looting_a_disabled_enemy_and_surrender():
    s = new_state("convoy")
    for sid in ("p0s0", "p0s1", "p0s2"):
        place(s, sid, (-3, -8), (0, 0))
    place(s, "p1s0", (14, 8), (0, 0), detected=True)
    place(s, "p1s1", (14, 7), (0, 0), detected=True)
    place(s, "p1s2", (-3, -8), (0, 0), disabled=0, control="surrendered", detected=True)
    s.ship("p0s2").fuel = 10
    s.rng = FixedDice([1] * 12)
    go(s, 0)
    while s.phase == "combat":
        s.apply_action(0, EndCombat())
    assert s.phase == "logistics"
    assert Transfer("p1s2", "p0s2", "fuel", 1) in s.legal_actions(0)
    s.apply_action(0, Transfer("p1s2", "p0s2", "fuel", 10))
    assert s.ship("p0s2").fuel == 20 and s.ship("p1s2").fuel == 10
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Transfer("p0s2", "p1s2", "fuel", 1))
    assert e.value.rule == "tactical.logistics.pair"


def test_surrender_marks_every_ship_and_with_the_option_ends_the_game():
    """Issue 26.2: the rules (the help text) are silent and the reference plays on after a surrender (ruling 9's
    default, below); with ``surrender_ends_game`` the other side wins at once."""
    s = new_state("duel", surrender_ends_game=True)
    p = s.active
    events = s.apply_action(p, Surrender())
    assert [e.TYPE for e in events] == ["surrendered", "game_over"]
    assert s.ship(f"p{p}s0").control == "surrendered"
    assert s.is_terminal() and s.result().winners == (1 - p,) and s.result().reason == "Fleet surrendered!"
    assert s.returns()[p] < s.returns()[1 - p] and s.current_players() == () and s.legal_actions(p) == []


def test_by_default_as_in_the_reference_surrendered_ships_stay_in_play_and_the_game_goes_on():
    s = new_state("duel")
    p = s.active
    events = s.apply_action(p, Surrender())
    assert [e.TYPE for e in events] == ["surrendered"] and not s.is_terminal()
    assert s.ship(f"p{p}s0").control == "surrendered"
    assert all(a.TYPE != "surrender" for a in s.legal_actions(p))


def test_inspection_reveals_a_hidden_identity():
    s = new_state("escape", seed=3)
    s.active = 1
    fug = next(sh for sh in s.ships if sh.fugitive)
    place(s, fug.id, (0, -8), (0, -1))
    place(s, "p1s0", (0, -7), (0, -1))  # moves to (0,-8) on the fugitive's course
    s.rng = FixedDice([1] * 6)
    events = go(s, 1)
    assert any(e.TYPE == "identity_revealed" and e.identity == "fugitives" for e in events)
    assert fug.revealed and "fugitives" not in s.secret_tokens(1)


def test_planetary_defense_zones_agree_with_the_combat_rule():
    from deltav.core.hexgrid import spiral
    from deltav.games.tactical import combat as cb
    from deltav.games.tactical.mapdata import default_map

    m = default_map()
    for b, body in m.base.items():
        if not m.body_has_gravity(body):
            assert b not in m.fire_zone
            continue
        for h in spiral(b, 2):
            g = m.gravity.get(h)
            assert (h in m.fire_zone[b]) == cb.in_base_fire_zone(h, g[1] if g else None, b, body)


def _with_ordnance(s, *items):
    for o in items:
        s.ordnance.append(o)
        s.next_ord = max(s.next_ord, int(o.id[3:]) + 1)
    return s


def test_ordnance_expires_after_its_fifth_move_and_leaves_the_map():
    s = duel_at(p0=(10, 0), p1=(-14, 8))
    _with_ordnance(s, Ordnance("ord1", 0, "mine", (13, 5), (0, 0), 1, "p0s0"),
                   Ordnance("ord2", 0, "torpedo", (16, 0), (3, 0), 3, "p0s0"))
    events = go(s, 0)
    reasons = {e.ordnance: e.reason for e in events if e.TYPE == "ordnance_removed"}
    assert reasons == {"ord1": "expired", "ord2": "off_map"} and not s.ordnance


def test_ordnance_follows_gravity_it_enters_one_move_later():
    s = duel_at(p0=(10, 0), p1=(-14, 8))
    # a torpedo drifting west from (4,-1) into Sol's ring-4 hex (2,-1) (gravity SW)
    _with_ordnance(s, Ordnance("ord1", 0, "torpedo", (4, -1), (-2, 0), 5, "p0s0"))
    go(s, 0)
    t = s.ordnance[0]
    assert t.pos == (2, -1) and t.pending == (4,) and t.vel == (-2, 0) and t.turns == 4
    end_turn(s, 0)
    end_turn(s, 1)  # the other player's turn: P0's ordnance does not move
    assert s.ordnance[0].pos == (2, -1)
    events = go(s, 0)
    moved = next(e for e in events if e.TYPE == "ordnance_moved")
    # deflected one hex SW: (2,-1) + (-2,0) + (-1,1) = (-1,0), a line through Sol's surface hex (0,0)
    assert (moved.destination, moved.velocity) == ("-1,0", (-3, 1))
    assert moved.path == ("2,-1", "1,-1", "0,0")  # the display path ends where the torpedo hit Sol
    assert any(e.TYPE == "ordnance_removed" and e.reason == "body" for e in events) and not s.ordnance


def test_ordnance_moved_path_ends_where_the_torpedo_detonated():
    s = duel_at(p0=(4, 6), p1=(11, 2))  # the enemy sits mid-course, (12,2) is where the torpedo would end
    _with_ordnance(s, Ordnance("ord1", 0, "torpedo", (9, 2), (3, 0), 3, "p0s0"))
    s.rng = FixedDice([6])
    events = go(s, 0)
    moved = next(e for e in events if e.TYPE == "ordnance_moved")
    det = next(e for e in events if e.TYPE == "ordnance_detonated")
    assert det.hex == "11,2" and moved.path == ("9,2", "10,2", "11,2")
    assert moved.destination == "12,2"  # where its course led


def test_a_mine_destroys_ordnance_it_meets():
    s = duel_at(p0=(10, 0), p1=(-14, 8))
    _with_ordnance(s, Ordnance("ord1", 0, "mine", (12, 3), (-1, 0), 4, "p0s0"),
                   Ordnance("ord2", 1, "torpedo", (11, 3), (0, 0), 4, "p1s0"))
    events = go(s, 0)
    det = [e for e in events if e.TYPE == "ordnance_detonated"]
    assert det and det[0].ordnance == "ord1" and det[0].targets == ("ord2",) and not s.ordnance


def test_a_nuke_destroys_a_landed_ship_in_its_hex():
    s = new_state("duel")
    s.active = 0
    place(s, "p0s0", (10, 0), (0, 0), detected=True)
    place(s, "p1s0", (2, 3), landed=True)  # landed on the Mercury base (2,3)
    _with_ordnance(s, Ordnance("ord1", 0, "nuke", (4, 3), (-2, 0), 4, "p0s0"))
    s.rng = FixedDice([1] * 4)
    go(s, 0)
    assert s.ship("p1s0").destroyed and (2, 3) in s.destroyed_bases
    assert s.is_terminal() and s.result().winners == (0,)


def test_a_non_warship_launches_one_nuke_between_resupplies():
    s = new_state("escape", seed=4)
    place(s, "p0s0", (12, 0), (0, -1), detected=False)  # the nuke flies along with it (launcher excluded)
    place(s, "p1s0", (14, 8), (0, 0))
    place(s, "p1s1", (-14, 8), (0, 0))
    s.apply_action(0, EndAstrogation())
    assert s.phase == "ordnance"
    legal = s.legal_actions(0)
    assert Launch("p0s0", "nuke") in legal and Launch("p0s0", "mine") not in legal  # Escape: nukes only
    s.apply_action(0, Launch("p0s0", "nuke"))
    assert s.ship("p0s0").nukes == 1 and s.ship("p0s0").cargo_used == 20
    end_turn(s, 0)
    end_turn(s, 1)
    from deltav.games.tactical import ordnance
    from deltav.games.tactical import ordnance_tables as ot

    assert s.phase == "astrogation" and s.active == 0
    err = ot.launch_error("nuke", **ordnance._facts(s, s.ship("p0s0")))
    assert err is not None and err[0] == "tactical.ordnance.nuke_limit"
    assert not ordnance.phase_available(s)  # nothing else to launch: no ordnance phase this turn


def test_no_surrender_in_escape():
    s = new_state("escape")
    assert all(a.TYPE != "surrender" for a in s.legal_actions(0))
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, Surrender())
    assert e.value.rule == "tactical.surrender.escape"


def test_attack_plan_prefers_defenceless_targets_and_weighs_the_counterattack():
    from deltav.games.tactical.bots.heuristics import attack_plan, attack_value

    s = duel_at()
    s.rng = FixedDice([])
    go(s, 0)
    gain, loss = attack_value(s, [s.ship("p0s0")], s.ship("p1s0"), split=True)
    assert gain > 0 and abs(gain - loss) < 1e-9  # frigate against frigate, one hex apart: an even trade
    assert attack_plan(s, 0) == ("p1s0", ("p0s0",))
    s.ship("p1s0").disabled = 2  # a disabled frigate defends at 0 and cannot counter
    gain, loss = attack_value(s, [s.ship("p0s0")], s.ship("p1s0"), split=True)
    assert loss == 0 and gain > 0
