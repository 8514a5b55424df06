"""Whole-game behaviour on hand-made positions: the turn sequence, defensive fire and the forward-field rule,
mines, fires, break-up checks, repair turns, docking, victory, scenarios, views and illegal actions."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import IllegalAction, OptionError, ScenarioError
from deltav.core.rng import Rng
from deltav.games.knighthawks import KnightHawks, fire_phase
from deltav.games.knighthawks import messages as m
from tests.knighthawks.helpers import make_state, ship


def idx(state, sid, code):
    return [i for i, w in enumerate(state.ship(sid).weapons) if w[0] == code][0]


def types(events):
    return [e.TYPE for e in events]


def apply(state, action):
    p = state.current_players()[0]
    return state.apply_action(p, action)


def pass_turns(state, until):
    """Play the simplest legal actions (hold course, fire nothing, no ICMs, no repairs) until ``until(state)``."""
    for _ in range(2000):
        if until(state) or state.is_terminal():
            return
        p = state.current_players()[0]
        legal = state.legal_actions(p)
        for kind in (m.EndMovement, m.Fire, m.EndRepair):
            pick = [a for a in legal if isinstance(a, kind)]
            if pick:
                state.apply_action(p, pick[0])
                break
        else:
            state.apply_action(p, [a for a in legal if isinstance(a, m.Intercept | m.Step)][0])
    raise AssertionError("condition never reached")


def test_turn_sequence_and_first_decision():
    s = make_state([ship("a", 0, "destroyer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)], first=1)
    assert s.stage == "move" and s.current_players() == [1]
    assert m.EndMovement() in s.legal_actions(1)
    assert s.legal_actions(0) == []
    with pytest.raises(IllegalAction) as e:
        s.apply_action(0, m.EndMovement())
    assert e.value.rule == "protocol.turn"


def test_defensive_ff_weapon_only_if_the_mover_came_from_the_forward_field():
    behind = make_state([ship("a", 0, "destroyer", (0, 0), facing=0),
                         ship("b", 1, "frigate", (-2, 0), facing=0, speed=2)], first=1)
    apply(behind, m.EndMovement())
    assert behind.stage == "declare" and behind.fire_mode == "def" and behind.current_players() == [0]
    legal = behind.legal_actions(0)
    assert m.Assign("a", idx(behind, "a", "LC"), "b") not in legal
    assert m.Assign("a", idx(behind, "a", "LB"), "b") in legal
    with pytest.raises(IllegalAction) as e:
        behind.apply_action(0, m.Assign("a", idx(behind, "a", "LC"), "b"))
    assert e.value.rule == "knighthawks.fire.field"
    ahead = make_state([ship("a", 0, "destroyer", (0, 0), facing=0),
                        ship("b", 1, "frigate", (2, 0), facing=3, speed=2)], first=1)
    apply(ahead, m.EndMovement())
    lc = idx(ahead, "a", "LC")
    assert m.Assign("a", lc, "b") in ahead.legal_actions(0)
    apply(ahead, m.Assign("a", lc, "b"))
    assert ahead.declared[0][5] == 0 and ahead.declared[0][6] is True  # range 0, head-on


def test_defensive_fire_picks_the_best_hex_of_the_path_and_no_mpo_weapons():
    s = make_state([ship("a", 0, "destroyer", (0, 3), facing=1),
                    ship("b", 1, "frigate", (-4, 0), facing=0, speed=8)], first=1)
    apply(s, m.EndMovement())
    legal = s.legal_actions(0)
    assert all(s.ship(a.ship).weapons[a.weapon][0] not in ("T", "AR") for a in legal if isinstance(a, m.Assign))
    lb = idx(s, "a", "LB")
    apply(s, m.Assign("a", lb, "b"))
    h = tuple(s.declared[0][4])
    path = s.ship("b").path
    assert h in path
    best = min(max(abs(x[0]), abs(x[1] - 3), abs(x[0] + x[1] - 3)) for x in path)
    assert s.declared[0][5] == best


def test_offensive_fire_resolution_and_icm_decision():
    s = make_state([ship("a", 0, "destroyer", (0, 0), facing=0),
                    ship("b", 1, "destroyer", (2, 0), facing=3)], first=0, seed=5)
    apply(s, m.EndMovement())
    pass_turns(s, lambda st: st.stage == "declare" and st.fire_mode == "off")
    t = idx(s, "a", "T")
    apply(s, m.Assign("a", t, "b"))
    assert s.ship("a").weapons[t][1] == 2  # declared: crossed off when the declarations are made public
    assert m.Assign("a", t, "b") not in s.legal_actions(0)  # rate of fire: once per phase
    ev = apply(s, m.Fire())
    assert s.ship("a").weapons[t][1] == 1  # one torpedo fired per phase
    assert [e for e in ev if e.TYPE == "fired"][0].attacks == (("a", t, "b"),)
    assert s.stage == "intercept" and s.current_players() == [1]
    legal = s.legal_actions(1)
    assert m.Intercept(5, False) in legal and m.Intercept(6, False) not in legal
    assert m.Intercept(0, True) not in legal  # a destroyer cannot evade
    with pytest.raises(IllegalAction) as e:
        s.apply_action(1, m.Intercept(6, False))
    assert e.value.rule == "knighthawks.fire.intercept.icms"
    ev = apply(s, m.Intercept(2, False))
    att = [e for e in ev if e.TYPE == "attack"][0]
    assert att.icms == 2 and att.chance == 50 - 20 and s.ship("b").icms_available() == 3


def test_evasion_against_torpedoes():
    s = make_state([ship("a", 0, "destroyer", (0, 0), facing=0),
                    ship("f", 1, "assault_scout", (2, 0), facing=3)], first=0, seed=2)
    apply(s, m.EndMovement())
    pass_turns(s, lambda st: st.stage == "declare" and st.fire_mode == "off")
    apply(s, m.Assign("a", idx(s, "a", "T"), "f"))
    apply(s, m.Fire())
    assert s.legal_actions(1) == [m.Intercept(0, False), m.Intercept(0, True)]
    ev = apply(s, m.Intercept(0, True))
    att = [e for e in ev if e.TYPE == "attack"][0]
    assert att.evade and att.chance == 50 - 5 * 4
    if s.ship("f").status == 0:
        assert s.ship("f").evading
        pass_turns(s, lambda st: st.stage == "move" and st.mover == 1)
        legal = s.legal_actions(1)
        assert m.EndMovement() not in legal  # must plot an evasive move
        courses = [a for a in legal if isinstance(a, m.Course) and a.ship == "f"]
        assert courses and all(c.speed >= 4 for c in courses)


def test_mines_attack_ships_passing_through():
    s = make_state([ship("a", 0, "destroyer", (-8, 0), facing=0, speed=3),
                    ship("b", 1, "destroyer", (8, -2), facing=3)],
                   mines=[{"side": 1, "kind": "M", "hex": [-6, 0]}], first=0, seed=3)
    assert s.view(0)["hidden_mines"] == 1 and s.view(0)["mines"] == []
    assert "trap-1" in s.secret_tokens(0) and "trap-1" not in s.secret_tokens(1)
    ev = apply(s, m.EndMovement())
    if s.stage == "intercept":
        ev += apply(s, m.Intercept(0, False))
    attacks = [e for e in ev if e.TYPE == "attack"]
    assert attacks and attacks[0].source == "trap-1" and attacks[0].weapon == "M" and attacks[0].target == "a"
    assert s.mines == []


def test_electrical_fire_rolls_plus_20_in_the_opponents_combat_phase():
    s = make_state([ship("a", 0, "destroyer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)], first=1)
    s.ship("a").fire = True
    ev = apply(s, m.EndMovement())
    fire = [e for e in ev if e.TYPE == "damage" and e.source == "fire"]
    assert len(fire) == 1 and fire[0].modified == fire[0].roll + 20
    if fire[0].effect == "hull":
        assert 1 <= fire[0].hull <= 10


def test_breakup_check_when_a_severely_damaged_ship_maneuvers():
    s = make_state([ship("a", 0, "destroyer", (-8, 0), speed=2), ship("b", 1, "destroyer", (8, 0), facing=3)],
                   first=0, seed=11)
    s.ship("a").dmg = 32
    apply(s, m.Course("a", 5, 0))  # accelerate by 3
    apply(s, m.Step(1))  # and turn once
    ev = []
    for _ in range(4):
        ev = apply(s, m.Step(0))
    # the last step completes the only plot: the movement phase ends by itself
    chk = [e for e in ev if e.TYPE == "breakup_check"][0]
    assert chk.chance == 28 and chk.broke == (chk.roll <= 28)


def test_plotting_is_validated_before_anything_moves():
    s = make_state([ship("a", 0, "assault_carrier", (-8, 0), speed=2), ship("b", 1, "destroyer", (8, 0), facing=3)])
    with pytest.raises(IllegalAction) as e:
        apply(s, m.Course("a", 5, 0))  # ADF 2
    assert e.value.rule == "knighthawks.move.course.adf"
    with pytest.raises(IllegalAction) as e:
        apply(s, m.Course("a", 2, 1))  # a moving ship cannot rotate in place
    assert e.value.rule == "knighthawks.move.course.rotate"
    with pytest.raises(IllegalAction) as e:
        apply(s, m.Step(0))
    assert e.value.rule == "knighthawks.move.step.unplotted"
    apply(s, m.Course("a", 3, 0))
    assert s.ship("a").pos == (-8, 0)
    with pytest.raises(IllegalAction) as e:
        apply(s, m.EndMovement())
    assert e.value.rule == "knighthawks.move.plotting"
    apply(s, m.Step(1))
    with pytest.raises(IllegalAction) as e:
        apply(s, m.Step(1))  # MR 1 is used up
    assert e.value.rule == "knighthawks.move.step"
    apply(s, m.Step(0))
    assert s.ship("a").pos == (-8, 0)
    ev = apply(s, m.Step(0))  # the plot is complete; nothing else to decide, so the moves execute
    mv = [e for e in ev if e.TYPE == "moved"][0]
    assert mv.path == ((-8, 0), (-7, 0), (-6, -1), (-5, -2)) and s.ship("a").speed == 3


def test_repair_turn_after_every_three_game_turns():
    s = make_state([ship("a", 0, "destroyer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)])
    s.ship("a").dmg = 10
    pass_turns(s, lambda st: st.stage == "repair")
    assert s.turn == 4 and s.current_players() == [0]
    legal = s.legal_actions(0)
    assert m.Repair("a", "hull", 40) in legal and m.Repair("a", "hull", 80) not in legal  # DCR 75
    with pytest.raises(IllegalAction) as e:
        apply(s, m.Repair("a", "adf", 10))
    assert e.value.rule == "knighthawks.repair.target"
    apply(s, m.Repair("a", "hull", 70))
    assert m.Repair("a", "hull", 5) in s.legal_actions(0)
    ev = apply(s, m.EndRepair())  # player 1 has nothing to repair: its turn passes by itself
    assert s.stage == "move"
    rolls = [e for e in ev if e.TYPE == "repair_roll"]
    assert len(rolls) == 1 and rolls[0].points == 70


def test_docking_rearming_and_destroyed_host():
    s = make_state([ship("st", 0, "armed_station", (0, 0)),
                    ship("f", 0, "fighter", (-1, 0), facing=0, speed=1),
                    ship("b", 1, "destroyer", (10, -4), facing=3)], first=0)
    s.ship("f").weapons[0] = ("AR", 0, 3, 0)
    apply(s, m.Course("f", 1, 0))
    apply(s, m.Step(0))
    ev = apply(s, m.EndMovement())
    assert "docked" not in types(ev)  # it moved at speed 1: stopping needs speed 0
    pass_turns(s, lambda st: st.stage == "move" and st.mover == 0)
    apply(s, m.Course("f", 0, 0))
    ev = apply(s, m.EndMovement())
    assert s.ship("f").docked == "st"
    pass_turns(s, lambda st: st.stage == "move" and st.mover == 0 and st.turn == 4)
    assert s.ship("f").weapons[0][1] == 3  # a full turn docked: rearmed
    ev: list = []
    fire_phase.destroy(s, s.ship("st"), "test", ev)
    assert s.ship("f").dmg == 40 and s.ship("f").status == 1  # half the station's 80 HP


def test_escort_objective_and_points():
    s = make_state([ship("fr", 0, "freighter", (11, 0), speed=2), ship("b", 1, "destroyer", (-10, 0), facing=3)],
                   victory={"kind": "exit", "ship": "fr", "edge": "east"}, first=0)
    apply(s, m.EndMovement())
    assert s.is_terminal() and s.result().winners == (0,) and "escaped" in s.result().reason
    s2 = make_state([ship("fr", 0, "freighter", (-11, 0), facing=3, speed=2),
                     ship("b", 1, "destroyer", (10, 0), facing=3)],
                    victory={"kind": "exit", "ship": "fr", "edge": "east"}, first=0)
    apply(s2, m.EndMovement())
    assert s2.result().winners == (1,) and s2.result().scores == (0.0, 37.0)


def test_turn_limit_ends_on_points():
    s = make_state([ship("a", 0, "destroyer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)],
                   turn_limit=2)
    pass_turns(s, lambda st: st.is_terminal())
    assert s.result().reason == "turn limit: equal points" and s.result().winners == ()


def test_scenario_files_by_path_and_errors(tmp_path):
    text = (tmp_path / "x.toml")
    text.write_text('id = "x"\ntitle = "X"\nmap_radius = 8\nturn_limit = 3\nsides = ["A", "B"]\n'
                    'victory = { kind = "battle" }\n'
                    '[[ships]]\nid = "a"\nside = 0\nclass = "frigate"\nhex = [-4, 0]\n'
                    '[[ships]]\nid = "b"\nside = 1\nclass = "fighter"\nhex = [4, 0]\nfacing = 3\n')
    s = KnightHawks.new_initial_state({"scenario": str(text)}, 1)
    assert [x.id for x in s.ships] == ["a", "b"]
    bad = tmp_path / "bad.toml"
    bad.write_text(text.read_text().replace('class = "fighter"', 'class = "dreadnought"'))
    with pytest.raises(ScenarioError) as e:
        KnightHawks.new_initial_state({"scenario": str(bad)}, 1)
    assert e.value.field == "ships[1].class"
    with pytest.raises(ScenarioError):
        KnightHawks.new_initial_state({"scenario": str(tmp_path / "missing.toml")}, 1)


def test_skirmish_builder_options():
    s = KnightHawks.new_initial_state({"fleet0": "battleship,2*fighter", "fleet1": "fortress"}, 1)
    assert sorted(x.cls for x in s.ships) == ["battleship", "fighter", "fighter", "fortress"]
    with pytest.raises(OptionError):
        KnightHawks.resolve_options({"fleet0": "death_star"})


def test_views_hide_enemy_traps_and_determinize_keeps_the_view():
    s = KnightHawks.new_initial_state({"scenario": "station_assault"}, 4)
    v1 = s.view(1)
    assert v1["hidden_mines"] == 3 and v1["mines"] == []
    assert len(s.view(0)["mines"]) == 3
    text = json.dumps(v1)
    for tok in s.secret_tokens(1):
        assert tok not in text
    w = KnightHawks.determinize(v1, 1, Rng(9))
    assert w.view(1) == v1 and len(w.mines) == 3
    assert json.loads(json.dumps(s.to_json())) == KnightHawks.state_from_json(s.to_json()).to_json()


@pytest.mark.parametrize("name", ["skirmish", "escort", "station_assault", "fleet_battle"])
def test_scenarios_play_to_a_finish(name):
    s = KnightHawks.new_initial_state({"scenario": name}, 8)
    rng = Rng(8)
    n = 0
    while not s.is_terminal():
        p = s.current_players()[0]
        s.apply_action(p, rng.choice(s.legal_actions(p)))
        n += 1
        for sh in s.ships:
            assert sh.dmg >= 0 and 0 <= sh.adf <= sh.adf0 and 0 <= sh.mr <= sh.mr0
            assert all(w[1] >= -1 for w in sh.weapons) and all(d[1] >= 0 for d in sh.defenses)
    assert n <= KnightHawks.max_decisions({"scenario": name})
    assert s.result() is not None


def test_repairs_are_secret_the_other_side_sees_the_old_record():
    s = make_state([ship("a", 0, "destroyer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)], seed=2)
    a = s.ship("a")
    a.dmg = 20
    pass_turns(s, lambda st: st.stage == "repair")
    apply(s, m.Repair("a", "hull", 40))
    assert s.view(1)["allocations"] == [] and s.view(0)["allocations"] == [[0, "a", "hull", 40]]
    ev = apply(s, m.EndRepair())
    roll = [e for e in ev if e.TYPE == "repair_roll"][0]
    assert roll.to == (0,) and not roll.visible_to(1)
    seen_by_b = [x for x in s.view(1)["ships"] if x["id"] == "a"][0]
    seen_by_a = [x for x in s.view(0)["ships"] if x["id"] == "a"][0]
    assert seen_by_b["damage"] == 20 and "shadow" not in seen_by_b
    assert seen_by_a["damage"] == a.dmg and seen_by_a["shadow"]["damage"] == 20
    if roll.outcome == "repaired":
        assert a.dmg < 20
    world = KnightHawks.determinize(s.view(1), 1, Rng(4))
    assert world.view(1) == s.view(1)  # the sampled world keeps player 1's picture ...
    assert world.ship("a").dmg <= 20 and world.ship("a").shadow.dmg == 20  # ... but may hold secret repairs
    # later public damage is applied to both the ship and the other side's picture of it
    ev2: list = []
    fire_phase.damage(s, a, "b", 0, (1, 10, 0), False, ev2)
    d = [e for e in ev2 if e.TYPE == "damage"][0]
    if d.effect == "hull":
        assert a.shadow.dmg == 20 + d.hull


def test_minelayer_drops_mines_along_its_plotted_path():
    s = make_state([ship("ml", 0, "minelayer", (-8, 0), speed=1), ship("b", 1, "destroyer", (8, 0), facing=3)])
    with pytest.raises(IllegalAction) as e:
        apply(s, m.Lay("ml", "M", 0))  # plot the move first
    assert e.value.rule == "knighthawks.move.lay.unplotted"
    apply(s, m.Course("ml", 2, 0))
    apply(s, m.Step(0))
    apply(s, m.Step(0))
    legal = s.legal_actions(0)
    assert {a.at for a in legal if isinstance(a, m.Lay) and a.kind == "M"} == {0, 1, 2}
    ev = apply(s, m.Lay("ml", "M", 2))
    laid = [e for e in ev if e.TYPE == "laid"][0]
    assert laid.hex == (-6, 0) and m.Lay("ml", "M", 1) not in s.legal_actions(0)  # one pattern per phase
    assert m.Lay("ml", "S", 1) in s.legal_actions(0)


def test_laying_mines_is_secret():
    s = make_state([ship("ml", 0, "minelayer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)])
    apply(s, m.Course("ml", 0, 0))
    ev = apply(s, m.Lay("ml", "M", 0))
    laid = [e for e in ev if e.TYPE == "laid"][0]
    assert laid.to == (0,)
    view1 = s.view(1)
    assert view1["hidden_mines"] == 0 and view1["laid"] == [] and view1["mines"] == []  # not even counted
    ml = [x for x in view1["ships"] if x["id"] == "ml"][0]
    assert [w for w in ml["weapons"] if w[0] == "M"][0][1] == 20  # the other side did not see it
    assert laid.id in s.secret_tokens(1) and laid.id not in json.dumps(view1)


def test_seeker_activation_homing_and_detonation():
    s = make_state([ship("a", 0, "destroyer", (-10, 0)), ship("b", 1, "destroyer", (5, 0), facing=3)],
                   mines=[{"side": 0, "kind": "S", "hex": [0, 0]}], first=0, seed=6)
    assert m.Activate("trap-1") in s.legal_actions(0)
    assert s.view(1)["mines"] == [] and s.view(1)["hidden_mines"] == 1
    apply(s, m.Activate("trap-1"))
    ev = apply(s, m.EndMovement())
    moved = [e for e in ev if e.TYPE == "seeker_moved"][0]
    assert moved.path == ((0, 0), (1, 0), (2, 0)) and moved.target == "b"  # 2 hexes toward the nearest ship
    assert s.view(1)["mines"][0][0] == "trap-1"  # an active seeker is visible
    pass_turns(s, lambda st: st.stage == "move" and st.mover == 0)
    ev = apply(s, m.EndMovement())
    if s.stage == "intercept":
        ev += apply(s, m.Intercept(0, False))
    moved = [e for e in ev if e.TYPE == "seeker_moved"][0]
    assert moved.path == ((2, 0), (3, 0), (4, 0), (5, 0))  # 4 hexes allowed; it detonates on entering b's hex
    att = [e for e in ev if e.TYPE == "attack"][0]
    assert att.source == "trap-1" and att.weapon == "S" and att.target == "b"
    assert s.mines == []


def test_seekers_dropped_in_play_are_named_by_their_ship_and_turn():
    """Two seekers a ship dropped on different turns read apart ("the seeker ... dropped on turn 1"); the words
    come from the activate action's public fields, which only the owner's view feeds; a record that names the
    seeker alone still applies, a wrong ship or turn is refused."""
    s = make_state([ship("ml", 0, "minelayer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)],
                   first=0, seed=3)
    apply(s, m.Course("ml", 0, 0))
    first = [e for e in apply(s, m.Lay("ml", "S", 0)) if e.TYPE == "laid"][0].id
    pass_turns(s, lambda st: st.stage == "move" and st.mover == 0 and st.turn == 2)
    apply(s, m.Course("ml", 0, 0))
    second = [e for e in apply(s, m.Lay("ml", "S", 0)) if e.TYPE == "laid"][0].id
    pass_turns(s, lambda st: st.stage == "move" and st.mover == 0 and st.turn == 3)
    acts = [a for a in s.legal_actions(0) if isinstance(a, m.Activate)]
    assert acts == [m.Activate(first, "ml", 1), m.Activate(second, "ml", 2)]
    d = KnightHawks.describer(s.options, ["Alice", "Bob"])  # a made-up scenario: the ship goes by its id here
    assert [d(a) for a in acts] == ["Activate the seeker ml dropped on turn 1", "Activate the seeker ml dropped on turn 2"]
    assert s.view(0)["dropped"] == {first: 1, second: 2}
    assert s.view(1)["dropped"] == {} and s.view(None)["dropped"] == {} and s.full_view()["dropped"] == {first: 1,
                                                                                                       second: 2}
    before = s.to_json()
    with pytest.raises(IllegalAction) as e:
        apply(s, m.Activate(first, "ml", 2))
    assert e.value.rule == "knighthawks.move.seeker.which" and s.to_json() == before
    ev = apply(s, m.Activate(second))  # a record from before the words were listed
    assert [x.TYPE for x in ev] == ["seeker_activated"] and s.activated == [second]


def test_a_record_whose_activations_name_the_seeker_alone_still_replays():
    """Records made before an activation named the seeker's ship and turn write {"type": "activate", "seeker":
    ...}: they replay, event for event, to the same result."""
    from deltav.core.agent import RandomAgent
    from deltav.core.match import play_match
    from deltav.core.records import MatchRecord, replay

    rec, _, _ = play_match(KnightHawks, {"scenario": "skirmish"}, 0, [RandomAgent(), RandomAgent()])
    doc = rec.to_json()
    acts = [s["action"] for s in doc["steps"] if s["action"]["type"] == "activate" and "layer" in s["action"]]
    assert acts
    for a in acts:
        del a["layer"], a["turn"]
    final = replay(MatchRecord.from_json(doc))
    assert final.result().to_json() == rec.result


def test_rulebook_wide_turn_example_speed_7_mr_3():
    # a frigate at speed 7 with MR 3: 3 hexes, turn left, 2 more, turn left, 1 more, turn left, 1 more
    s = make_state([ship("z", 0, "frigate", (-8, 3), speed=7), ship("b", 1, "destroyer", (10, -4), facing=3)],
                   radius=16)
    s.ship("z").adf = 0  # keep the example's speed of 7
    apply(s, m.Course("z", 7, 0))
    ev = []
    for t in (0, 0, 1, 0, 1, 1, 0):
        ev = apply(s, m.Step(t))
    moved = [e for e in ev if e.TYPE == "moved" and e.ship == "z"][0]
    assert len(moved.path) == 8 and moved.facing == 3  # three turns to the left


def test_rulebook_repair_example_battleship_200_dcr():
    s = make_state([ship("bs", 0, "battleship", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)])
    bs = s.ship("bs")
    bs.fire = True
    bs.adf = 0
    t = idx(s, "bs", "T")
    c, n, mx, _ = bs.weapons[t]
    bs.weapons[t] = (c, n, mx, 1)
    pass_turns(s, lambda st: st.stage == "repair")
    for target in ("fire", f"w{t}", "adf", "adf"):
        assert m.Repair("bs", target, 50) in s.legal_actions(0)
        apply(s, m.Repair("bs", target, 50))
    assert s.stage != "repair" or s.current_players() != [0]  # all 200 points are allocated


def test_shots_at_a_destroyed_target_are_wasted_and_spent():
    s = make_state([ship("a", 0, "destroyer", (0, 0)), ship("b", 1, "destroyer", (2, 0), facing=3)], first=0)
    apply(s, m.EndMovement())
    pass_turns(s, lambda st: st.stage == "declare" and st.fire_mode == "off")
    t = idx(s, "a", "T")
    apply(s, m.Assign("a", t, "b"))
    s.ship("b").status = 1  # destroyed by an earlier shot
    ev = apply(s, m.Fire())
    assert [e for e in ev if e.TYPE == "wasted"] and s.ship("a").weapons[t][1] == 1


def test_orbit_declaration_moves_round_the_planet():
    s = make_state([ship("z", 0, "frigate", (1, 0), facing=1, speed=2), ship("b", 1, "destroyer", (10, -4), facing=3)],
                   planets=[("P", (0, 0))], first=0)
    assert m.Orbit("z", False) in s.legal_actions(0)
    apply(s, m.Orbit("z", False))
    ev = apply(s, m.EndMovement()) if s.stage == "move" and s.current_players() == [0] else []
    z = s.ship("z")
    assert z.orbit == (0, False) and z.speed == 0 and z.pos == (1, -1)
    assert any(e.TYPE == "moved" and e.end == "orbit" for e in ev) or z.pos == (1, -1)
    pass_turns(s, lambda st: st.stage == "move" and st.mover == 0)
    legal = s.legal_actions(0)
    assert m.Course("z", 0, 4) in legal  # in orbit: rotate freely
    assert m.Course("z", 3, 5) in legal  # leave orbit at up to ADF, any facing
    apply(s, m.Course("z", 0, 4))
    apply(s, m.EndMovement()) if s.stage == "move" and s.current_players() == [0] else None
    assert s.ship("z").pos == (0, -1) and s.ship("z").facing == 4


def test_carrier_carries_and_launches_fighters():
    s = make_state([ship("cv", 0, "assault_carrier", (-6, 0), facing=0, speed=2),
                    ship("f1", 0, "fighter", (-6, 0), docked="cv"),
                    ship("b", 1, "destroyer", (10, -4), facing=3)], first=0)
    assert s.ship("f1").docked == "cv"
    apply(s, m.EndMovement())
    assert s.ship("cv").pos == (-4, 0) and s.ship("f1").pos == (-4, 0) and s.ship("f1").docked == "cv"
    assert not s._targetable(s.ship("f1"))  # docked fighters cannot be attacked
    pass_turns(s, lambda st: st.stage == "move" and st.mover == 0)
    legal = s.legal_actions(0)
    assert m.Course("f1", 5, 0) in legal and m.Course("f1", 6, 0) not in legal  # launch at up to ADF 5
    apply(s, m.Course("f1", 3, 0))
    for _ in range(3):
        apply(s, m.Step(0))
    if s.stage == "move":
        apply(s, m.EndMovement())
    assert s.ship("f1").docked is None and s.ship("f1").pos == (-4 + 2 + 3, 0)


@pytest.mark.parametrize("patch,field", [
    ({"map_radius": 2}, "map_radius"),
    ({"victory": {"kind": "siege"}}, "victory.kind"),
    ({"victory": {"kind": "exit", "ship": "ghost"}}, "victory.ship"),
    ({"mines": [{"side": 0, "kind": "M", "hex": [50, 0]}]}, "mines[0].hex"),
    ({"mines": [{"side": 0, "kind": "X", "hex": [1, 0]}]}, "mines[0].kind"),
    ({"ships": [{"id": "a", "side": 0, "class": "frigate", "hex": [0, 0]},
                {"id": "a", "side": 1, "class": "frigate", "hex": [1, 0]}]}, "ships[1].id"),
    ({"ships": [{"id": "a", "side": 0, "class": "frigate", "hex": [0, 0]}]}, "ships"),
    ({"ships": [{"id": "a", "side": 0, "class": "frigate", "hex": [0, 0], "facing": 7},
                {"id": "b", "side": 1, "class": "frigate", "hex": [1, 0]}]}, "ships[0].facing"),
    ({"ships": [{"id": "a", "side": 0, "class": "fighter", "hex": [0, 0], "docked": "b"},
                {"id": "b", "side": 1, "class": "frigate", "hex": [0, 0]}]}, "ships[0].docked"),
])
def test_malformed_scenarios_name_the_field(patch, field):
    from deltav.games.knighthawks.scenarios import parse_scenario
    from tests.knighthawks.helpers import scenario_dict

    data = scenario_dict([ship("a", 0, "frigate", (0, 0)), ship("b", 1, "frigate", (2, 0))])
    data.update(patch)
    with pytest.raises(ScenarioError) as e:
        parse_scenario(data, "x.toml")
    assert e.value.field == field
