"""The browser notes of Deep Space Combat (annotate.py via DeepSpaceGame.annotate_legal) and its board()."""

from __future__ import annotations

import copy
import json
import random

import pytest

from deltav.core.rng import Rng
from deltav.core.session import Session
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.messages import AutoAllocate, Done, Place, SetVelocity
from deltav.games.deepspace.movement import thrust_cost
from deltav.games.deepspace.odds import expected_damage, p_hit

from .helpers import write_scenario


def _deployed(scenario, **opts):
    s = DeepSpaceGame.new_initial_state({"scenario": scenario, "initial_velocity": "rest", **opts}, seed=1)
    for p in range(s.num_players):
        while s.phase == "deploy" and s.waiting[p]:
            s.apply_action(p, s.legal_actions(p)[0])
    assert s.phase == "plot"
    return s


def _notes(s, p):
    acts = s.legal_actions(p)
    return acts, DeepSpaceGame.annotate_legal(s, p, acts)


def test_velocity_notes_give_the_engine_cost_breakdown_and_destination():
    s = _deployed("skirmish")
    acts, notes = _notes(s, 0)
    ship = s.ship(acts[0].ship)
    assert len(notes) == len(acts) and len(acts) == 3 * ship.lv[0] * (ship.lv[0] + 1) + 1
    for a, n in zip(acts, notes, strict=True):
        v = (a.dq, a.dr)
        assert n["cost"] == thrust_cost(ship.vel, v)
        assert n["speed_up"] + n["slow_down"] + n["turn"] == n["cost"]
        assert n["dest"] == [ship.pos[0] + a.dq, ship.pos[1] + a.dr]
    # the rulebook's numbers after a burn to speed 4 toward C: a 60 degree turn costs 4, reversing costs 8
    s2 = _deployed("skirmish")
    sid = acts[0].ship
    s2.ship(sid).vel = (4, 0)
    acts2, notes2 = _notes(s2, 0)
    by_v = {(a.dq, a.dr): n for a, n in zip(acts2, notes2, strict=True)}
    assert by_v[(4, -4)]["cost"] == 4 and by_v[(4, -4)]["turn"] == 4  # 4C -> 4B
    assert by_v[(0, 0)]["cost"] == 4 and by_v[(0, 0)]["slow_down"] == 4


def test_fire_notes_give_the_exact_odds_against_a_public_undamaged_design(tmp_path):
    path = write_scenario(tmp_path, [
        ([("A", 2, 4, 10, 10, [(25, 31)])], (-3, 0, 0)),
        ([("B", 2, 3, 12, 9, [(20, 20)])], (3, 0, 0)),
    ])
    s = _deployed(path)
    s.apply_action(0, SetVelocity("s0-0", 1, 0))  # ends at (-2, 0); the target rests at (3, 0): range 5
    acts, notes = _notes(s, 0)
    shot = next(n for a, n in zip(acts, notes, strict=True) if a.target == "s1-0")
    hold = next(n for a, n in zip(acts, notes, strict=True) if a.target is None)
    assert hold is None
    assert shot["basis"] == "design" and shot["range"] == 5
    assert (shot["range_min"], shot["range_max"]) == (2, 8)  # the target's thrust 3 either way
    assert shot["p_hit"] == round(p_hit(25, 12, 5), 4)
    assert shot["p_hit_best"] == round(p_hit(25, 12, 2), 4) and shot["p_hit_worst"] == round(p_hit(25, 12, 8), 4)
    assert shot["p_damage"] * shot["expected_hp"] == pytest.approx(expected_damage(31, 9), abs=0.05)


def test_fire_notes_estimate_a_design_made_in_secret():
    s = DeepSpaceGame.new_initial_state({"scenario": "design-duel", "initial_velocity": "rest"}, seed=2)
    while s.phase in ("design", "deploy"):
        for p in range(2):
            if s.waiting[p]:
                acts = s.legal_actions(p)
                uses = [a for a in acts if a.TYPE == "use_fleet"]
                s.apply_action(p, uses[0] if uses else acts[0])
    s.apply_action(0, s.legal_actions(0)[0])
    while s.legal_actions(0)[0].TYPE != "fire":
        s.apply_action(0, s.legal_actions(0)[0])
    acts, notes = _notes(s, 0)
    assert {n["basis"] for n in notes if n} == {"estimate"}


def test_allocation_notes_match_what_the_engine_removes():
    s = DeepSpaceGame.new_initial_state({"scenario": "skirmish", "initial_velocity": "rest"}, seed=5)
    rng = random.Random(5)
    checked = 0
    while not s.is_terminal() and checked < 30:
        for p in list(s.current_players()):
            acts = s.legal_actions(p)
            if s.phase == "allocate":
                notes = DeepSpaceGame.annotate_legal(s, p, acts)
                auto = notes[0]["plan"]
                trial = s.clone()
                events = trial.apply_action(p, AutoAllocate(acts[0].ship))
                lost = [[e.stat, e.weapon, e.hp, e.levels] for e in events if e.TYPE == "stat_lost"]
                assert lost == auto
                for a, n in list(zip(acts, notes, strict=True))[1:]:
                    trial = s.clone()
                    ev = [e for e in trial.apply_action(p, a) if e.TYPE == "stat_lost"]
                    assert ev[0].levels == n["levels"]
                checked += 1
            s.apply_action(p, rng.choice(acts))
    assert checked >= 3


def _walk(scenario, seed, check, steps=300):
    sess = Session(DeepSpaceGame, {"scenario": scenario}, seed)
    rng = random.Random(seed)
    n = 0
    while not sess.is_over() and n < steps:
        for p in list(sess.waiting_for()):
            check(sess, p)
            legal = sess.legal_actions(p)
            sess.submit_action(p, rng.choice(legal))
            n += 1


@pytest.mark.parametrize("scenario", ["skirmish", "melee", "design-duel", "outpost"])
def test_notes_hold_no_secret_and_depend_only_on_the_players_view(scenario):
    """A sampled world with the same view gives the same notes: they come from the view alone."""
    seen = set()

    def check(sess, p):
        st = sess.state
        snap = sess.snapshot(p)
        text = json.dumps([e.get("note") for e in snap["legal"]])
        for tok in st.secret_tokens(p):
            assert tok not in text
        view = st.view(p)
        world = DeepSpaceGame.determinize(copy.deepcopy(view), p, Rng(7))
        acts = st.legal_actions(p)
        assert DeepSpaceGame.annotate_legal(world, p, world.legal_actions(p)) == DeepSpaceGame.annotate_legal(
            st, p, acts)
        seen.update(a.TYPE for a, e in zip(acts, snap["legal"], strict=True) if "note" in e)

    _walk(scenario, 11, check)
    assert {"velocity", "fire"} <= seen


def test_board_document():
    b = DeepSpaceGame.board({"scenario": "melee"})
    assert b["format"] == "deltav-deepspace-board/1"
    assert [p["fleet"] for p in b["scenario"]["players"]] == ["line", "swarm", "battlegroup"]
    assert b["points_per_size"] == 60 and b["labels"]["A"] == [0, -1]
    assert b["hit_table"]["p"][0][0] == 0.6782  # design note 2.4: 5 vs 4 at range 0 is .678
    assert {f["id"] for f in b["fleets"]} >= {"line", "swarm", "battlegroup", "outpost", "skirmish"}
    assert DeepSpaceGame.board({"scenario": "design-duel"})["scenario"]["players"][0]["fleet"] == "design"
    json.dumps(b)


def test_deploy_and_done_notes():
    s = DeepSpaceGame.new_initial_state({"scenario": "skirmish"}, seed=1)
    acts = s.legal_actions(0)
    assert all(isinstance(a, Place) for a in acts)
    assert DeepSpaceGame.annotate_legal(s, 0, acts) == [None] * len(acts)
    s.apply_action(0, acts[0])
    acts = s.legal_actions(0)
    notes = DeepSpaceGame.annotate_legal(s, 0, acts)
    assert all(set(n) == {"speed", "label"} for n in notes)
    assert DeepSpaceGame.annotate_legal(s, 0, [Done()]) == [None]
