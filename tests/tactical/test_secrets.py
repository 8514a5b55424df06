"""Hidden information (issue 18, GAME-FIXES 3): a private step changes no other seat's view and not the
spectator's; a spectator sees only public information (ships and ordnance their enemies have detected, no secret
purchases, no queued orders); each leak the review found, as a worked case."""

from __future__ import annotations

import json

import pytest

from deltav.core.protocol import json_tokens
from deltav.core.rng import Rng
from deltav.games.tactical.messages import (
    AddAttacker,
    Buy,
    EndAstrogation,
    EndCombat,
    EndOrdnance,
    Fire,
    FleetReady,
    Launch,
    Order,
    Transfer,
)
from deltav.games.tactical.model import Ordnance
from deltav.games.tactical.scenarios import SCENARIO_IDS

from .helpers import GAME, new_state, place

SEATS = (0, 1, None)


def _views(s):
    return {q: json.dumps(s.view(q), sort_keys=True) for q in SEATS}


def check_step(s, player, action):
    """Apply one action and check that every seat that saw no event of it (the other player, the spectator)
    has the same view as before; that no event a seat sees names what is secret from it both before and after
    the step (the rule of tests/secret_check.py: a ship it loses sight of may be named by the event that says
    so); and that the spectator's view holds no undetected ship or item."""
    before = _views(s)
    secret_before = {q: s.secret_tokens(q) for q in SEATS}
    events = s.apply_action(player, action)
    after = _views(s)
    for e in events:  # every event is one the game's codec knows
        assert GAME.events.decode(e.to_json()) == e
    for q in SEATS:
        if q == player:
            continue
        if not any(e.visible_to(q) for e in events):
            assert before[q] == after[q], f"{action} changed the view of seat {q} with no event it saw"
        secret = secret_before[q] & s.secret_tokens(q)
        for e in events:
            if e.visible_to(q):
                leaked = json_tokens(e.to_json()) & secret
                assert not leaked, f"{e.to_json()} tells seat {q} of {sorted(leaked)}"
    check_spectator(s)
    return events


def check_spectator(s):
    v = s.view(None)
    fog = s.options["fog_of_war"]
    for x in v["ships"]:
        assert not fog or s.ship(x["id"]).detected, f"spectator sees undetected {x['id']}"
    for x in v["ordnance"]:
        assert not fog or x["detected"], f"spectator sees undetected {x['id']}"
    assert not v["orders"] and not v["launched"]
    if "purchases" in v:
        assert v["purchases"] == [None, None]
        assert all(p["spent"] is None for p in v["players"])
    text = json.dumps(v)
    for tok in s.secret_tokens(None):
        if tok != "fugitives":
            assert f'"{tok}"' not in text, f"spectator view names secret {tok}"


def walk(scenario, seed, steps, **options):
    s = GAME.new_initial_state({"scenario": scenario, **options}, seed)
    r = Rng(seed + 1000)
    for _ in range(steps):
        if s.is_terminal():
            break
        p = r.choice(list(s.current_players()))
        check_step(s, p, r.choice(s.legal_actions(p)))
    return s


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_random_playouts_keep_private_steps_private(scenario):
    for seed in range(2):
        walk(scenario, seed, 300)


@pytest.mark.parametrize("scenario", ["escape", "convoy", "fleet_action"])
def test_random_playouts_without_fog_of_war(scenario):
    walk(scenario, 3, 200, fog_of_war=False)


@pytest.mark.parametrize("scenario", ["blockade", "escape", "convoy", "evacuation", "fleet_action"])
def test_random_playouts_with_fog_but_every_item_detected_at_launch(scenario):
    """Issue 32.13: fog of war on, ordnance detection off (the reference's visible ordnance)."""
    for seed in range(3):
        walk(scenario, seed, 300, ordnance_detection=False)


def test_an_undetected_ships_launch_does_not_name_it_when_every_item_is_detected_at_launch():
    """Issue 32.13 as reported (Blockade, seed 2932920701899939, fog of war on, ordnance detection off): the
    corvette moves out of range, so the packet is undetected; its nuke is public at once (the ruling's choice),
    but the public event named the packet ("p0s0 launches nuke ord1 at -7,3")."""
    s = GAME.new_initial_state({"scenario": "blockade", "ordnance_detection": False}, 2932920701899939)
    assert s.active_player == 1
    check_step(s, 1, Order("p1s0", 2))  # NW, four hexes from the packet
    enders = {"astrogation": EndAstrogation(), "ordnance": EndOrdnance(), "combat": EndCombat()}
    while s.active_player == 1:
        check_step(s, 1, enders[s.phase])
    assert s.active_player == 0 and not s.ship("p0s0").detected
    check_step(s, 0, EndAstrogation())
    (e,) = check_step(s, 0, Launch("p0s0", "nuke"))
    assert e.TYPE == "ordnance_launched" and e.to is None and e.ship is None
    assert [o["launched_by"] for o in s.view(1)["ordnance"]] == [None]
    assert [o["launched_by"] for o in s.view(0)["ordnance"]] == ["p0s0"]


# --- the review's cases -------------------------------------------------------------------------------------


def duel_hidden():
    s = new_state("duel")
    s.active_player = s.first_player = 0
    place(s, "p0s0", (10, 0), (0, 0), detected=False)
    place(s, "p1s0", (-10, 0), (0, 0), detected=False)
    return s


def test_an_undetected_ships_launch_stays_hidden_until_the_item_is_detected():
    s = duel_hidden()
    s.apply_action(0, Order("p0s0", 0))
    s.apply_action(0, EndAstrogation())
    assert s.phase == "ordnance"
    events = check_step(s, 0, Launch("p0s0", "torpedo", 3, 1))
    assert events[0].TYPE == "ordnance_launched" and events[0].to == (0,)
    assert s.view(1)["ordnance"] == [] and s.ordnance[0].id in s.secret_tokens(1)
    assert [o["id"] for o in s.view(0)["ordnance"]] == [s.ordnance[0].id]


def go(s, p):
    events = check_step(s, p, EndAstrogation())
    if s.phase == "ordnance" and s.active_player == p:
        events += check_step(s, p, EndOrdnance())
    return events


def test_ordnance_is_detected_within_three_hexes_of_an_enemy_ship():
    s = duel_hidden()
    s.ordnance.append(Ordnance("ord1", 0, "mine", (-6, 0), (0, 0), 4, "p0s0", False))
    s.next_ordnance = 2
    events = go(s, 0)
    assert not any(e.TYPE == "ordnance_detected" for e in events) and s.view(1)["ordnance"] == []
    s.ordnance[0].pos = (-7, 0)  # three hexes from the enemy corvette
    s.active_player = 0
    s.phase = "astrogation"
    s._opts = {}
    events = go(s, 0)
    det = [e for e in events if e.TYPE == "ordnance_detected"]
    assert [(e.ordnance, e.hex) for e in det] == [("ord1", "-7,0")] and det[0].visible_to(1)
    assert [o["id"] for o in s.view(1)["ordnance"]] == ["ord1"]


def test_an_undetected_nuke_cannot_be_shot_at():
    from deltav.games.tactical import combat_phase

    s = duel_hidden()
    s.ordnance.append(Ordnance("ord1", 1, "nuke", (11, 0), (0, 0), 4, "p1s0", False))
    assert combat_phase.nuke_targets(s, ("p0s0",)) == []
    s.ordnance[0].detected = True
    assert [o.id for o in combat_phase.nuke_targets(s, ("p0s0",))] == ["ord1"]


def test_with_the_ruling_off_every_item_is_detected_at_launch():
    s = new_state("duel", ordnance_detection=False)
    s.active_player = s.first_player = 0
    place(s, "p0s0", (10, 0), (0, 0), detected=False)
    s.apply_action(0, Order("p0s0", 0))
    s.apply_action(0, EndAstrogation())
    s.apply_action(0, Launch("p0s0", "torpedo", 3, 1))
    assert [o["launched_by"] for o in s.view(1)["ordnance"]] == [None]


def fleet(p0, p1):
    s = new_state("interplanetary_war")
    s.players[0].credits = s.players[1].credits = 10_000
    for p, lst in ((0, p0), (1, p1)):
        for t, _h, _v in lst:
            s.apply_action(p, Buy(t))
        s.apply_action(p, FleetReady())
    for p, lst in ((0, p0), (1, p1)):
        for k, (_t, h, v) in enumerate(lst):
            place(s, f"p{p}s{k}", h, v, detected=False, resupplied=False)
    s.active_player = 0
    s.phase = "astrogation"
    s._opts = {}
    return s


def test_a_transfer_with_a_ship_the_enemy_sees_reveals_its_partner():
    s = fleet([("tanker", (10, 0), (0, 0)), ("frigate", (10, 0), (0, 0))], [("corvette", (-12, 8), (0, 0))])
    s.ship("p0s1").detected = True
    s.ship("p0s1").fuel = 5
    s.phase = "logistics"
    s.transfers = 0
    events = check_step(s, 0, Transfer("p0s0", "p0s1", "fuel", 3))
    assert [e.TYPE for e in events] == ["detection_changed", "transferred"]
    assert all(e.visible_to(1) for e in events) and s.ship("p0s0").detected
    # between two hidden ships it stays private
    s.ship("p0s0").detected = s.ship("p0s1").detected = False
    events = check_step(s, 0, Transfer("p0s0", "p0s1", "fuel", 1))
    assert [(e.TYPE, e.to) for e in events] == [("transferred", (0,))]


def test_adding_a_hidden_attacker_after_split_fire_changes_no_enemy_view():
    from .helpers import FixedDice

    s = fleet([("dreadnaught", (10, 0), (0, 0)), ("corvette", (16, 6), (0, 0))],
              [("corvette", (12, 0), (0, 0)), ("corvette", (12, 0), (0, 0))])
    for x in ("p0s0", "p1s0", "p1s1"):
        s.ship(x).detected = True
    s.rng = FixedDice([1, 1, 1, 1])
    s.apply_action(0, EndAstrogation())
    if s.phase == "ordnance":
        s.apply_action(0, EndOrdnance())
    assert s.phase == "combat"
    s.apply_action(0, AddAttacker("p0s0"))
    s.apply_action(0, Fire("p1s0", 4))  # split fire: the group keeps 11 for the other corvette
    assert s.combat.allocated == 4 and not s.ship("p0s1").detected
    check_step(s, 0, AddAttacker("p0s1"))  # a hidden corvette starts a new group


def test_spectator_sees_no_secret_purchases():
    s = new_state("fleet_action")
    check_step(s, 0, Buy("frigate"))
    v = s.view(None)
    assert v["purchases"] == [None, None] and v["players"][0]["spent"] is None
