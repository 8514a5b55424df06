"""The Knight Hawks notes on legal actions (annotate.py) and the board document (board.py): the notes are a
function of the seat's view only (the same on a determinized world built from that view), hold no secret token,
and agree with the engine's own rolls (the to-hit chance of a declared shot is the attack event's, the break-up
chance of a plot is the break-up check's, a step's hex is where the ship goes)."""

from __future__ import annotations

import json

import pytest

from deltav.core import get_game
from deltav.core.rng import Rng
from deltav.core.session import Session
from deltav.games import load_all
from deltav.games.knighthawks import messages as m

load_all()
KH = get_game("knighthawks")
SCENARIOS = ["skirmish", "escort", "station_assault", "fleet_battle"]


def playout(scenario: str, seed: int, limit: int = 1500):
    """(state, player, actions, notes, chosen action, events) along a random playout."""
    s = KH.new_initial_state({"scenario": scenario}, seed)
    rng = Rng(seed)
    for _ in range(limit):
        if s.result() is not None:
            return
        p = s.current_players()[0]
        acts = s.legal_actions(p)
        notes = KH.annotate_legal(s, p, acts)
        a = acts[rng.below(len(acts))]
        yield s, p, acts, notes, a
        s.apply_action(p, a)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_notes_depend_on_the_view_only_and_hold_no_secret(scenario):
    checked = 0
    for k, (s, p, acts, notes, _a) in enumerate(playout(scenario, 5)):
        assert len(notes) == len(acts)
        text = json.dumps(notes)
        for tok in s.secret_tokens(p):
            assert tok not in text
        if k % 7 == 0:  # a world sampled from the seat's view (secret repairs, traps) gives the same notes
            world = KH.determinize(s.view(p), p, Rng(k))
            assert world.view(p) == s.view(p)
            assert KH.annotate_legal(world, p, world.legal_actions(p)) == notes
            checked += 1
    assert checked > 5


def test_a_shots_chance_is_the_attack_rolls():
    compared = 0
    for seed in range(6):
        pending: dict = {}
        s = KH.new_initial_state({"scenario": SCENARIOS[seed % 4]}, seed)
        rng = Rng(seed)
        for _ in range(1500):
            if s.result() is not None:
                break
            p = s.current_players()[0]
            acts = s.legal_actions(p)
            notes = KH.annotate_legal(s, p, acts)
            a = acts[rng.below(len(acts))]
            if isinstance(a, m.Assign):
                pending[(a.ship, s.ship(a.ship).weapons[a.weapon][0], a.target)] = notes[acts.index(a)]
            ev = s.apply_action(p, a)
            first = True
            for e in ev:
                j = e.to_json()
                if j["type"] == "attack" and first and j["icms"] == 0 and not j["evade"]:
                    n = pending.get((j["source"], j["weapon"], j["target"]))
                    if n is not None and s.ship(j["target"]).shadow is None:
                        assert (n["chance"], n["column"], n["range"]) == (j["chance"], j["column"], j["range"]), (n, j)
                        assert tuple(n["hex"]) == tuple(j["hex"])
                        assert n["odds"] == sum(1 for r in range(1, 101) if (r <= 5 or (r < 96 and r <= n["chance"])))
                        compared += 1
                if j["type"] == "attack":
                    first = False
                if j["type"] == "fired":
                    first = True
            if isinstance(a, m.Fire):
                pending = {}
    assert compared > 20


def test_the_break_up_chance_shown_is_the_checks():
    s = KH.new_initial_state({"scenario": "skirmish", "fleet0": "destroyer", "fleet1": "frigate"}, 2)
    p = s.current_players()[0]
    sh = next(x for x in s.ships if x.owner == p)
    sh.dmg = 40  # of 50: 15 points past half, so 15% per ADF or MR point
    s._cache = {}
    acts = s.legal_actions(p)
    notes = KH.annotate_legal(s, p, acts)
    faster = next(a for a in acts if isinstance(a, m.Course) and a.speed == sh.speed + 1)
    assert notes[acts.index(faster)] == {"breakup": 15, "per_point": 15}
    s.apply_action(p, faster)
    turned = False
    last = None
    while s.plotting is not None:
        acts = s.legal_actions(p)
        notes = KH.annotate_legal(s, p, acts)
        a = next((x for x in acts if x.turn == 1), None) if not turned else None
        a = a or next(x for x in acts if x.turn == 0)
        turned = turned or a.turn == 1
        last = notes[acts.index(a)]
        s.apply_action(p, a)
    assert last["breakup"] == 15 * (1 + (1 if turned else 0))
    ev = [e.to_json() for e in s.apply_action(p, m.EndMovement())]
    check = next(e for e in ev if e["type"] == "breakup_check")
    assert check["chance"] == last["breakup"]
    moved = next((e for e in ev if e["type"] == "moved"), None)
    if moved is not None:
        assert moved["path"][-1] == last["hex"]


def test_repair_odds_follow_the_d100_reading():
    for _s, _p, acts, notes, _a in playout("fleet_battle", 4, 4000):
        for a, n in zip(acts, notes):
            if isinstance(a, m.Repair):
                assert n["lost"] == 2 and n["success"] == min(a.points, 89) and n["success"] + n["fail"] + n["lost"] == 100
                return
    pytest.fail("no repair turn reached")


def test_the_board_document_matches_the_scenario():
    b = KH.board({"scenario": "escort"})
    s = KH.new_initial_state({"scenario": "escort"}, 1)
    v = s.view(None)
    assert b["radius"] == v["map"]["radius"]
    assert [(p["name"], tuple(p["hex"])) for p in b["planets"]] == [(n, tuple(h)) for n, h in v["map"]["planets"]]
    assert set(b["combat_table"]) == set(b["weapons"]) and all(len(r) == len(b["columns"]) for r in b["combat_table"].values())
    assert b["damage_table"][0]["low"] == -20 and b["damage_table"][-1]["high"] == 120
    assert b["weapons"]["EB"]["range"] == 12 and KH.board({"eb_range": 10})["weapons"]["EB"]["range"] == 10
    json.dumps(b)


def test_a_session_puts_the_notes_on_the_legal_entries():
    sess = Session(KH, {"scenario": "skirmish"}, 1)
    snap = sess.snapshot(0)
    courses = [e for e in snap["legal"] if e["action"]["type"] == "course"]
    assert courses and all("breakup" in e["note"] for e in courses)
    assert sess.snapshot(None)["legal"] == []


def test_the_plotted_paths_shown_are_the_moves_made():
    compared = 0
    for scenario in SCENARIOS:
        for s, p, acts, notes, a in playout(scenario, 8, 800):
            if not isinstance(a, m.EndMovement):
                continue
            paths = notes[acts.index(a)]["paths"]
            orbiting = set(s.orbit_new) | {x.id for x in s.ships if x.orbit is not None or x.docked is not None}
            moved = {}
            for e in s.clone().apply_action(p, a):
                j = e.to_json()
                if j["type"] == "moved":
                    moved[j["ship"]] = j["path"]
            for sid, path in paths.items():
                if sid in moved and sid not in orbiting:
                    assert moved[sid] == path, (sid, path, moved[sid])
                    compared += 1
    assert compared > 20
