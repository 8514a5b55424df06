"""Hard's tactics in fleet battles (issue 30): the replies of several enemy ships combine as chances of one loss
(a ship is lost only once), and a ram whose drift then crashes costs the whole ship. The positions are those of
real games (Fleet Action and Interplanetary War, hard against normal) where hard's corsair rammed a frigate on
turn 3 and, disabled, drifted into Mars or Sol."""

from __future__ import annotations

import pytest

from deltav.core.protocol import Decision
from deltav.core.rng import Rng
from deltav.games.tactical.bots.heuristics import attack_groups, attack_plan, gun_threat, preview_pending
from deltav.games.tactical.bots.level_bot import LevelBot, _exposure
from deltav.games.tactical.bots.routes import drift_safe
from deltav.games.tactical.bots.tactics import RAM_DAMAGE_CHANCE, Tactics, ram_loss_beyond
from deltav.games.tactical.messages import AddAttacker, Buy, EndAstrogation, EndCombat, EndOrdnance, Fire, FleetReady, Order
from deltav.games.tactical.preview import preview_course

from .helpers import GAME, new_state, place


def decision(state, player: int, seed: int = 0) -> Decision:
    return Decision(GAME, player, state.view(player), state.legal_actions(player), Rng(seed))


def fleets(scenario: str, p0: list[str], p1: list[str]):
    s = new_state(scenario)
    for player, buys in ((0, p0), (1, p1)):
        for item in buys:
            s.apply_action(player, Buy(item))
    s.apply_action(0, FleetReady())
    s.apply_action(1, FleetReady())
    assert s.phase == "astrogation" and s.active_player == 1
    return s


def fleet_action_turn_3():
    """Fleet Action (seed 15662527606289598322, turn 3, Venus to move): three Mars frigates in sight beside
    Mars, the Venus corsair at (-7, 0) flying at them at speed 3."""
    s = fleets("fleet_action", ["frigate"] * 4, ["frigate", "frigate", "corsair"])
    place(s, "p0s0", (-8, -2), vel=(0, 2), fuel=17, detected=True)
    place(s, "p0s1", (-8, -1), vel=(1, 2), fuel=17, detected=True)
    place(s, "p0s2", (-8, -1), vel=(0, 2), fuel=18, detected=True)
    place(s, "p0s3", (-8, -3), vel=(0, 2), fuel=17, detected=False)
    place(s, "p1s0", (-3, -1), vel=(2, -4), pending=(0, 5), fuel=17, detected=True)
    place(s, "p1s1", (-7, 4), vel=(-2, -1), pending=(4, 0), fuel=17, detected=True)
    place(s, "p1s2", (-7, 0), vel=(0, -3), fuel=17, detected=True)
    for sh in s.ships:
        sh.overload_used = True  # every ship overloaded on turn 1
    s.turn = 3
    s.apply_action(1, Order("p1s0", burn=3))
    s.apply_action(1, Order("p1s1"))
    return s


def test_the_replies_of_several_enemies_never_cost_more_than_the_ship():
    """Each of the three frigates can answer with a torpedo worth 2.1 of the corsair's 5: summed, every course
    cost 6.4, more than the corsair is worth, and silencing one frigate by a ram looked worth 3.8. Combined as
    independent chances of one loss, the threat stays below the ship's worth."""
    s = fleet_action_turn_3()
    world = decision(s, 1).sample_world()
    me = world.ship("p1s2")
    worth = me.type.combat + 1.0
    t = Tactics(world, 1)
    assert len(t.shooters) == 3
    coast = preview_course(world, "p1s2", Order("p1s2"))
    v = t.value(me, coast.contact, coast.destination, coast.velocity, False)
    assert -worth < v < 0.0
    # each alone: the sum of the three would exceed the worth
    singles = []
    for e, *_ in t._guns:
        one = Tactics(world, 1)
        one._guns = [g for g in one._guns if g[0].id == e.id]
        singles.append(-one.value(me, coast.contact, coast.destination, coast.velocity, False))
    assert sum(singles) > worth
    keep = 1.0
    for x in singles:
        keep *= 1.0 - x / worth
    assert v == pytest.approx(-worth * (1.0 - keep))


def test_hard_does_not_ram_under_the_guns_when_its_drift_would_crash():
    """The Venus corsair used to ram the frigate at (-8, -2) (burn 4): the ram disabled it and it drifted into
    Mars (9 of hard's 14 crashes of disabled ships in 60 Fleet Actions against normal). Now it keeps a course
    whose drift is safe."""
    s = fleet_action_turn_3()
    a = LevelBot("hard", strict=True).act(decision(s, 1))
    assert a.ship == "p1s2"
    pv = preview_course(s, "p1s2", a)
    assert pv.destination != (-8, -2)
    assert drift_safe(s.gmap, pv.destination, pv.velocity, preview_pending(pv), 3)


def test_hard_keeps_a_drift_that_an_asteroid_hit_cannot_prolong_into_a_crash():
    """The same position (Fleet Action, turn 3): the corsair flew clear by burn 5 to (-7, -2) at (0, -2), a drift
    safe for three moves; four frigates fired at it (4:1, D3), and on the drift's third move an asteroid hit
    (D1) kept it disabled for a fourth, which fell into a body (hard's last crashes of disabled ships against
    normal, 2 of 60 games). The guard's drift now goes one move further when it meets an asteroid within its
    three (``drift_safe(extend=True)``); looking four moves ahead everywhere was tried and lost games (35-23-2
    where three give 45-14-1): hard shied away from every approach near Mars."""
    s = fleet_action_turn_3()
    clear = preview_course(s, "p1s2", Order("p1s2", burn=5))
    assert (clear.destination, clear.velocity) == ((-7, -2), (0, -2))
    pending = preview_pending(clear)
    assert drift_safe(s.gmap, clear.destination, clear.velocity, pending, 3)
    assert not drift_safe(s.gmap, clear.destination, clear.velocity, pending, 4)
    assert not drift_safe(s.gmap, clear.destination, clear.velocity, pending, 3, extend=True)
    # a drift that meets no asteroid is checked for three moves only
    assert drift_safe(s.gmap, (-9, 4), (-2, 0), (), 3, extend=True) == drift_safe(s.gmap, (-9, 4), (-2, 0), (), 3)
    a = LevelBot("hard", strict=True).act(decision(s, 1))
    assert a.ship == "p1s2"
    pv = preview_course(s, "p1s2", a)
    assert drift_safe(s.gmap, pv.destination, pv.velocity, preview_pending(pv), 3, extend=True)


def test_a_ram_with_a_crashing_drift_costs_the_whole_ship():
    """Interplanetary War (seed 12178371576011926774, turn 3, Mars to move): one Terra frigate in sight at
    (-2, -5); the Mars corsair at (-4, -5) used to ram it (burn 4), and drifted into Sol. With one enemy the
    threat is unchanged; what changed is the ram's own cost when the drift after it crashes: any damage then
    loses the ship, not the part of its worth a D_n costs."""
    s = fleets("interplanetary_war", ["frigate"] * 5 + ["corsair"], ["frigate"] * 5 + ["corsair"])
    terra = {"p0s0": ((1, -5), (-4, 2), ()), "p0s1": ((0, -5), (-2, -1), ()), "p0s2": ((5, -8), (-2, -2), (4,)),
             "p0s3": ((0, -6), (-3, 1), ()), "p0s4": ((-2, -5), (-3, 0), ()), "p0s5": ((2, -5), (-1, -2), (0,))}
    for sid, (pos, vel, pending) in terra.items():
        place(s, sid, pos, vel=vel, pending=pending, fuel=17, detected=sid == "p0s4", overload_used=True)
    mars = {"p1s0": ((-4, -5), (2, 1)), "p1s1": ((-5, -5), (3, -1)), "p1s2": ((-4, -5), (2, 0)),
            "p1s3": ((-5, -5), (2, 1)), "p1s4": ((-6, -6), (2, 0)), "p1s5": ((-4, -5), (3, -1))}
    for sid, (pos, vel) in mars.items():
        place(s, sid, pos, vel=vel, fuel=18 if sid == "p1s2" else 17, detected=True, overload_used=True)
    s.turn = 3
    for sid, burn in (("p1s0", None), ("p1s1", 3), ("p1s2", 2), ("p1s3", None), ("p1s4", 3)):
        s.apply_action(1, Order(sid, burn=burn))
    d = decision(s, 1)
    assert [e.id for e in Tactics(d.sample_world(), 1).enemies] == ["p0s4"]
    ram = preview_course(s, "p1s5", Order("p1s5", burn=4))
    assert ram.destination == (-2, -5)
    assert not drift_safe(s.gmap, ram.destination, ram.velocity, preview_pending(ram), 3)
    a = LevelBot("hard", strict=True).act(d)
    assert a.ship == "p1s5" and a.burn != 4
    pv = preview_course(s, "p1s5", a)
    assert drift_safe(s.gmap, pv.destination, pv.velocity, preview_pending(pv), 3)
    # what the ram costs beyond its partial damage: the corsair (worth 5) rolls D1, D1, D3, D5 on four faces of 6
    assert ram_loss_beyond(0, 5.0) == pytest.approx(5.0 * RAM_DAMAGE_CHANCE - 5.0 * (0.45 + 0.45 + 0.65 + 0.85) / 6.0)
    assert ram_loss_beyond(0, 5.0) > 0.0


def test_a_landed_enemy_can_take_off_and_fire():
    """Fleet Action (seed of a hard-vs-normal game, turn 11, Venus to move): two Mars frigates sit landed on the
    Venus base (-9, 7), two hexes from the Venus frigate landed at (-9, 9). A landed ship is no target, and hard
    left landed enemies out of its drift guard: its frigate took off toward them (burn 2, a drift into Venus),
    both took off and fired, and the disabled frigate fell into Venus. Their guns (over their take-off courses)
    now count in the guard's exposure, so the frigate keeps a course whose drift is safe (or stays landed)."""
    s = fleets("fleet_action", ["frigate"] * 4, ["frigate", "frigate", "corsair"])
    for sid in ("p0s0", "p0s1"):
        place(s, sid, (-9, 7), fuel=9, landed=True, detected=True, overload_used=True)
    place(s, "p0s2", (-13, 14), vel=(-1, 3), fuel=17, destroyed=True, overload_used=True)
    place(s, "p0s3", (-1, -9), fuel=9, disabled=2, detected=True, overload_used=True)
    place(s, "p1s0", (-1, -9), fuel=11, detected=True, overload_used=True)
    place(s, "p1s1", (-9, 9), fuel=20, landed=True, detected=False)
    place(s, "p1s2", (3, -17), vel=(1, -1), fuel=9, detected=True, overload_used=True)
    s.turn = 11
    s.apply_action(1, Order("p1s0", burn=0))
    d = decision(s, 1)
    t = Tactics(d.sample_world(), 1)
    assert [e.id for e in t.enemies] == ["p0s3"] and not t.shooters
    assert sorted(e.id for e, _ in t.landed_shooters) == ["p0s0", "p0s1"]
    world = d.sample_world()
    me = world.ship("p1s1")
    off = preview_course(world, "p1s1", Order("p1s1", burn=2))
    assert off.destination == (-9, 8)
    assert not drift_safe(s.gmap, off.destination, off.velocity, preview_pending(off), 3)
    assert _exposure(world, t, me, off.destination, off.velocity, False) > 0.5
    assert gun_threat(t, me, off.destination, off.velocity) == 0.0  # flying enemies only: none
    a = LevelBot("hard", strict=True).act(d)
    assert a.ship == "p1s1"
    pv = preview_course(s, "p1s1", a)
    assert pv.destination == (-9, 9) or drift_safe(s.gmap, pv.destination, pv.velocity, preview_pending(pv), 3)
    # with no enemy flying in sight (the Mars frigate at (-1, -9) gone), the guard without tactics sees them too
    s.ship("p0s3").destroyed = True
    d = decision(s, 1)
    assert not Tactics(d.sample_world(), 1).enemies
    a = LevelBot("hard", strict=True).act(d)
    pv = preview_course(s, "p1s1", a)
    assert pv.destination == (-9, 9) or drift_safe(s.gmap, pv.destination, pv.velocity, preview_pending(pv), 3)


def interplanetary_war_turn_38_combat():
    """Interplanetary War (hard against hard, seed 8375383550312256029, turn 38, Terra's combat phase): the Terra
    frigate p0s1 and the Mars frigate p1s4 at rest side by side at the map's eastern edge, both out of fuel for
    anything but two burns and out of cargo; Terra's frigate p0s0 and corsair p0s5 32 hexes north, in line of
    sight of both Mars frigates there."""
    s = fleets("interplanetary_war", ["frigate"] * 5 + ["corsair"], ["frigate"] * 5 + ["corsair"])
    ships = {
        "p0s0": ((15, -22), (1, -2), 15, 0), "p0s1": ((16, 7), (0, 0), 2, 40), "p0s5": ((15, -24), (0, 0), 8, 0),
        "p1s0": ((18, 9), (0, 0), 2, 40), "p1s1": ((-9, -12), (1, 0), 10, 40), "p1s4": ((15, 8), (0, 0), 1, 40),
    }
    for sh in s.ships:
        if sh.id in ships:
            pos, vel, fuel, cargo = ships[sh.id]
            place(s, sh.id, pos, vel=vel, fuel=fuel, cargo_used=cargo, detected=True, overload_used=True)
        else:
            place(s, sh.id, (0, -6), fuel=0, destroyed=True, overload_used=True)
    s.turn = 38
    s.active_player = 0
    for sid, burn in (("p0s0", 3), ("p0s1", None), ("p0s5", 3)):
        s.apply_action(0, Order(sid, burn=burn))
    s.apply_action(0, EndAstrogation())
    if s.phase == "ordnance":
        s.apply_action(0, EndOrdnance())
    assert s.phase == "combat" and s.active_player == 0
    return s


def test_hard_attacks_with_the_ships_in_range_not_every_ship_that_sees_the_target():
    """Every ship that sees the target fires in one group at its worst ship's range: Terra's three ships at
    the Mars frigate beside p0s1 fired at range 32 (no damage possible), so no attack was worth it, and the two
    frigates sat side by side for 40 turns to a draw at the turn limit (142 of the 178 fuel stalls of 40
    hard-vs-hard games). Hard now compares the groups within each range and velocity bound: p0s1 alone, 1:1 at
    range 1, is an even trade and taken. Normal keeps its rule (every ship that sees the target)."""
    s = interplanetary_war_turn_38_combat()
    world = decision(s, 0).sample_world()
    assert attack_plan(world, 0) is None
    target = world.ship("p1s4")
    assert attack_groups(world, (), ("p0s0", "p0s1", "p0s5"), target)[0] == ("p0s1",)
    assert attack_plan(world, 0, nearest=True) == ("p1s4", ("p0s1",))
    assert LevelBot("normal", strict=True).act(decision(s, 0)) == EndCombat()
    assert LevelBot("hard", strict=True).act(decision(s, 0)) == AddAttacker("p0s1")
    s.apply_action(0, AddAttacker("p0s1"))
    assert LevelBot("hard", strict=True).act(decision(s, 0)) == Fire("p1s4", None)


@pytest.mark.parametrize("scenario", ["duel", "biplanetary", "escape", "convoy", "evacuation", "blockade",
                                      "grand_tour", "fleet_action", "interplanetary_war"])
def test_the_fleet_battle_budget_applies_only_where_the_sides_buy_their_fleets(scenario, monkeypatch):
    """Hard's route back to a base to refuel is searched with the knob ``fleet_refuel_beam`` (20) in Fleet Action
    and Interplanetary War (issue 30: there those routes were a fifth of its CPU), with ``combat_refuel_beam``
    (12) in the other scenarios with combat, and with ``refuel_beam`` (32) in Grand Tour, a race."""
    from deltav.games.tactical.bots import level_bot
    from deltav.games.tactical.bots import routes as route_search

    fleet = scenario in ("fleet_action", "interplanetary_war")
    s = fleets(scenario, ["frigate"] * 2, ["frigate"] * 2) if fleet else new_state(scenario)
    assert level_bot.fleet_battle(s) is fleet
    beams = []
    real = route_search.plan_route

    def spy(*args):
        beams.append((args[12], args[13]))  # beam, depth
        return real(*args)

    monkeypatch.setattr(route_search, "plan_route", spy)
    bot = LevelBot("hard")
    sh = next(sh for sh in s.ships if not sh.landed) if any(not sh.landed for sh in s.ships) else s.ships[0]
    home = s.players[sh.owner].home
    goals = tuple(sorted(s.gmap.bases_of.get(home) or s.gmap.bases_of["Mars"]))
    bot._plan(s, sh, goals, "refuel")
    LevelBot("hard")._plan(s, sh, goals, "target")  # other goals keep the bot's own budget, fleet battle or not
    knobs = bot.knobs
    assert knobs.combat_refuel_beam == 12 < knobs.fleet_refuel_beam == 20 < knobs.refuel_beam == 32
    expected = 20 if fleet else 32 if scenario == "grand_tour" else 12
    assert beams == [(expected, knobs.refuel_depth), (bot.beam, bot.depth)]
    assert not LevelBot("normal").knobs.planner  # the other levels search no routes
