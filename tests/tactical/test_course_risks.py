"""The warnings of an order's note (course_risks.py, issue 26.3): a course that ends in an enemy ship's hex (a
ram, or a capture), meets ordnance this movement, ends where an enemy item passes on its next move, or ends in an
enemy base's fire says so, with the odds of the table the engine then rolls; and only from what the seat sees."""

from __future__ import annotations

from deltav.core.rng import Rng
from deltav.games.tactical.messages import EndAstrogation, EndOrdnance, Order
from deltav.games.tactical.model import Ordnance

from .helpers import GAME, FixedDice, end_turn, new_state, place


def _note(s, p, order):
    legal = s.legal_actions(p)
    assert order in legal, f"{order} is not legal"
    notes = GAME.annotate_legal(s, p, legal)
    return notes[legal.index(order)]


def duel(p0=((0, 0), (1, 0)), p1=((2, 0), (0, 0)), seen=True):
    s = new_state("duel")
    s.active_player = s.first_player = 0
    place(s, "p0s0", *p0, detected=seen)
    place(s, "p1s0", *p1, detected=seen)
    return s


def item(s, oid, owner, kind, pos, vel=(0, 0), seen=True, launcher=None):
    o = Ordnance(oid, owner, kind, pos, vel, 3, launcher or f"p{owner}s0", seen)
    s.ordnance.append(o)
    s.next_ordnance = max(s.next_ordnance, int(oid[3:]) + 1)
    s._opts = {}
    return o


def move(s, p, order):
    """Give ``order``, end astrogation (and the ordnance phase): the events of p's movement."""
    events = s.apply_action(p, order)
    events += s.apply_action(p, EndAstrogation())
    if s.phase == "ordnance" and s.active_player == p:
        events += s.apply_action(p, EndOrdnance())
    return events


def test_a_course_ending_on_the_enemy_frigate_warns_of_the_ram_with_its_odds_and_the_engine_rams():
    """The issue's case: the course ended "at 2,2 (orbiting Mercury)", the enemy frigate's hex, with no warning;
    the frigate was rammed, disabled and crashed."""
    s = duel(p0=((2, 0), (0, 1)), p1=((2, 2), (0, 0)))
    ram_course = Order("p0s0", 5)  # (2,0) + (0,1) + SE = (2,2)
    note = _note(s, 0, ram_course)
    assert note["destination"] == "2,2"
    (w,) = note["warnings"]
    assert w["kind"] == "ram" and w["when"] == "movement" and w["hex"] == "2,2" and w["ship"] == "p1s0"
    # the ram table: - - D1 D1 D3 D5 for both ships
    assert w["chances"] == {"-": 2, "D1": 2, "D3": 1, "D5": 1} and w["hit_chance"] == 4
    assert w["destroy_chance"] == 0 and w["enemy"]["hit_chance"] == 4
    assert "frigate" in w["text"] and "2,2" not in w["text"] and "p1s0" not in w["text"]
    assert _note(s, 0, Order("p0s0"))["warnings"] == []  # the coast ends one hex short
    s.rng = FixedDice([5, 6])
    events = move(s, 0, ram_course)
    rams = [(e.target, e.result) for e in events if e.TYPE == "damage_roll" and e.source == "ram"]
    assert rams == [("p0s0", "D3"), ("p1s0", "D5")]


def test_ram_odds_count_the_damage_a_ship_already_has():
    s = duel(p1=((2, 0), (1, 0)))
    s.ship("p0s0").disabled = 0
    s.ship("p1s0").disabled = 3  # D3 and D5 then eliminate it (6 or more)
    s.ship("p1s0").vel = (0, 1)  # not on our course: no capture
    w = _note(s, 0, Order("p0s0", 0))["warnings"][0]
    assert w["kind"] == "ram" and w["enemy"]["destroy_chance"] == 2 and w["destroy_chance"] == 0


def test_ending_beside_a_disabled_enemy_on_its_course_is_a_capture_not_a_ram():
    s = duel(p1=((2, 0), (2, 0)))
    s.ship("p1s0").disabled = 2
    (w,) = _note(s, 0, Order("p0s0", 0))["warnings"]  # ends at (2,0) with velocity (2,0)
    assert w["kind"] == "capture" and w["ship"] == "p1s0" and w["hit_chance"] == 0
    events = move(s, 0, Order("p0s0", 0))
    assert [e.TYPE for e in events if e.TYPE in ("ship_captured", "damage_roll")] == ["ship_captured"]


def test_a_course_through_an_enemy_mine_warns_and_the_mine_goes_off():
    s = duel(p1=((-5, 5), (0, 0)), seen=False)
    item(s, "ord1", 1, "mine", (1, 0))
    (w,) = _note(s, 0, Order("p0s0", 0))["warnings"]  # (0,0) -> (2,0) through (1,0)
    assert (w["kind"], w["when"], w["hex"], w["ordnance"], w["own"]) == ("mine", "movement", "1,0", "ord1", False)
    assert w["chances"] == {"-": 4, "D2": 2} and w["hit_chance"] == 2
    s.rng = FixedDice([6])
    events = move(s, 0, Order("p0s0", 0))
    assert [(e.source, e.target, e.result) for e in events if e.TYPE == "damage_roll"] == [("mine", "p0s0", "D2")]


def test_ending_where_an_enemy_torpedo_passes_next_move_warns_and_the_torpedo_then_hits():
    s = duel(p1=((-5, 5), (0, 0)), seen=False)
    item(s, "ord1", 1, "torpedo", (5, 0), (-3, 0))  # next move (5,0) -> (2,0)
    note = _note(s, 0, Order("p0s0", 0))  # ends at (2,0)
    (w,) = note["warnings"]
    assert (w["kind"], w["when"], w["hex"]) == ("torpedo", "enemy_movement", "2,0")
    assert w["chances"] == {"-": 1, "D1": 3, "D2": 1, "D3": 1} and w["hit_chance"] == 5
    assert _note(s, 0, Order("p0s0", 2))["warnings"] == []  # NW: ends at (1,-1), off its line
    move(s, 0, Order("p0s0", 0))
    end_turn(s, 0)
    s.rng = FixedDice([4])
    events = end_turn(s, 1)
    assert [(e.source, e.target, e.result) for e in events if e.TYPE == "damage_roll"] == [("torpedo", "p0s0", "D1")]


def test_a_nuke_destroys_only_a_ship_that_ends_in_its_hex():
    s = duel(p1=((-5, 5), (0, 0)), seen=False)
    item(s, "ord1", 1, "nuke", (1, 0))
    through = _note(s, 0, Order("p0s0", 0))["warnings"]  # passes (1,0), ends at (2,0)
    on = _note(s, 0, Order("p0s0"))["warnings"]  # coasts onto (1,0)
    assert [(w["kind"], w["destroy_chance"]) for w in through] == [("nuke", 0)]
    assert [(w["kind"], w["destroy_chance"], w["chances"]) for w in on] == [("nuke", 6, {"E": 6})]
    clone = s.clone()
    assert not any(e.TYPE == "ship_destroyed" for e in move(clone, 0, Order("p0s0", 0)))
    assert [e.ship for e in move(s, 0, Order("p0s0")) if e.TYPE == "ship_destroyed"] == ["p0s0"]


def test_own_ordnance_moving_through_the_course_is_a_warning_too():
    s = duel(p1=((-5, 5), (0, 0)), seen=False)
    item(s, "ord1", 0, "mine", (4, 0), (-2, 0))  # ours; moves (4,0) -> (2,0) after our ship
    (w,) = _note(s, 0, Order("p0s0", 0))["warnings"]  # our ship ends at (2,0)
    assert (w["kind"], w["when"], w["own"], w["hex"]) == ("mine", "movement", True, "2,0")
    s.rng = FixedDice([5])
    events = move(s, 0, Order("p0s0", 0))
    assert [(e.source, e.target) for e in events if e.TYPE == "damage_roll"] == [("mine", "p0s0")]


def test_ending_in_an_enemy_bases_fire_zone_warns_of_planetary_defense():
    """Blockade: the runner flies over a Martian base hex (Mars' gravity ring is all bases) without landing;
    that base and its two ring neighbours fire at 2:1 in the enemy's turn."""
    s = new_state("blockade")
    s.active_player = s.first_player = 0
    place(s, "p0s0", (-9, -3), (0, -1), detected=True)  # coasts to (-9,-4), a base hex of Mars
    place(s, "p1s0", (5, 5), (0, 0), detected=True)
    note = _note(s, 0, Order("p0s0"))
    assert note["destination"] == "-9,-4" and note["outcome"] == "normal"
    pd = [w for w in note["warnings"] if w["kind"] == "planetary_defense"]
    assert sorted(w["base"] for w in pd) == ["-10,-4", "-8,-5", "-9,-4"]
    assert all(w["odds"] == "2:1" and w["when"] == "enemy_combat" and w["hit_chance"] == 4 for w in pd)
    assert "Mars" in pd[0]["text"]
    move(s, 0, Order("p0s0"))
    end_turn(s, 0)
    s.rng = FixedDice([1, 1, 1])
    events = end_turn(s, 1)
    assert [e.source for e in events if e.TYPE == "damage_roll"] == ["planetary_defense"] * 3


def test_a_landing_is_not_rammed_nor_hit_by_mines():
    s = new_state("biplanetary")
    s.active_player = 0
    place(s, "p1s0", (-8, -6), (0, 0), detected=True, landed=True)  # on the Mars base, landed: no ram
    legal = s.legal_actions(0)
    notes = GAME.annotate_legal(s, 0, legal)
    for a, n in zip(legal, notes):
        if a.TYPE == "order" and n["outcome"] == "landing":
            assert n["warnings"] == []


def test_a_hidden_enemy_ship_or_mine_gives_no_warning():
    """Fog of war: the seat does not see the frigate nor the mine, so no note may tell of them; without fog
    the same courses warn."""
    for fog in (True, False):
        s = new_state("duel", fog_of_war=fog)
        s.active_player = s.first_player = 0
        place(s, "p0s0", (0, 0), (1, 0), detected=False)
        place(s, "p1s0", (2, 0), (0, 0), detected=False)
        item(s, "ord1", 1, "mine", (1, 0), seen=False)
        kinds = [w["kind"] for w in _note(s, 0, Order("p0s0", 0))["warnings"]]
        assert kinds == ([] if fog else ["ram", "mine"])


def test_warnings_are_the_same_in_every_world_the_seats_view_allows():
    """The warnings come from the seat's view only: on the real state and on a world determinized from the
    seat's view (hidden ships and items drawn afresh) every order's warnings are the same."""
    compared = 0
    for scenario, seed in [(sc, k) for sc in ("duel", "blockade", "escape", "convoy", "evacuation") for k in range(3)]:
        s = GAME.new_initial_state({"scenario": scenario, "turn_limit": 20}, seed)
        r = Rng(seed + 77)
        for _ in range(400):
            if s.is_terminal():
                break
            p = s.current_players()[0]
            legal = s.legal_actions(p)
            if s.phase == "astrogation":
                real = GAME.annotate_legal(s, p, legal) or [None] * len(legal)
                world = GAME.determinize(s.view(p), p, Rng(seed))
                wlegal = world.legal_actions(p)
                drawn = GAME.annotate_legal(world, p, wlegal) or [None] * len(wlegal)
                want = [n["warnings"] for a, n in zip(legal, real) if a.TYPE == "order"]
                got = [n["warnings"] for a, n in zip(wlegal, drawn) if a.TYPE == "order"]
                assert got == want
                compared += sum(1 for w in want if w)
            a = r.choice([x for x in legal if x.TYPE != "surrender"])
            s.apply_action(p, a)
    assert compared > 50  # courses with a warning among them
