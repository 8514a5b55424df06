"""The notes on tactical legal actions (``annotate.py``): each order's note is its course preview, each attack's
note predicts the odds and modifiers the attack is then declared with, and no note names anything the seat may
not know (random playouts of every scenario, checked against ``secret_tokens``)."""

from __future__ import annotations

import pytest

from deltav.core.protocol import get_game, json_tokens
from deltav.core.rng import Rng
from deltav.core.session import Session
from deltav.games import load_all
from deltav.games.tactical.preview import preview_course
from deltav.games.tactical.scenarios import SCENARIO_IDS

load_all()
GAME = get_game("tactical")


def test_every_order_has_its_course_preview_and_the_start():
    s = Session(GAME, {"scenario": "biplanetary"}, 7)
    snap = s.snapshot(0)
    orders = [e for e in snap["legal"] if e["action"]["type"] == "order"]
    assert orders and all("note" in e for e in orders)
    for e in orders:
        act = GAME.action_from_json(e["action"])
        want = preview_course(s.state, act.ship, act).to_json()
        note = e["note"]
        assert {k: note[k] for k in want} == want
        assert note["start"] == "-8,-6" and note["velocity_before"] == [0, 0] and note["fuel_before"] == 20
    # the SW takeoff from Mars crashes, and its note says so with the body
    sw = next(e["note"] for e in orders if e["action"]["burn"] == 4 and e["action"]["overload"] is None)
    assert sw["outcome"] == "crash" and sw["body"] == "Mars"
    # the spectator and the waiting player get no legal list, so no notes
    assert s.snapshot(None)["legal"] == [] and s.snapshot(1)["legal"] == []


def _attack_positions(scenario: str, seeds: range):
    """States of random playouts at a combat decision with a fire action in the legal list."""
    for seed in seeds:
        s = GAME.new_initial_state({"scenario": scenario, "turn_limit": 30}, seed)
        rng = Rng(seed)
        for _ in range(3000):
            if s.is_terminal():
                break
            p = s.current_players()[0]
            legal = s.legal_actions(p)
            fires = [a for a in legal if a.TYPE == "fire"]
            if fires:
                yield s, p, legal
            # prefer forming groups and firing so that attacks happen
            pick = [a for a in legal if a.TYPE in ("add_attacker", "fire")]
            a = rng.choice(pick) if pick and rng.random() < 0.9 else rng.choice(legal)
            s.apply_action(p, a)


def test_attack_notes_predict_the_declared_attack_and_the_counterattack():
    checked = counters = 0
    for s, p, legal in _attack_positions("duel", range(40)):
        notes = GAME.annotate_legal(s, p, legal)
        for a, note in zip(legal, notes, strict=True):
            if a.TYPE != "fire":
                continue
            after = s.clone()
            events = [e.to_json() for e in after.apply_action(p, a)]
            decl = next(e for e in events if e["type"] == "attack_declared")
            assert (note["odds"], note["range_mod"], note["velocity_mod"], note["heroism"]) == (
                decl["odds"], decl["range_mod"], decl["velocity_mod"], decl["heroism"])
            if note["kind"] == "gun":
                assert (note["attack"], note["defence"]) == (decl["strength"], decl["defense"])
                assert sum(note["chances"].values()) == 6
                roll = next(e for e in events if e["type"] == "damage_roll" and e["source"] == "gun")
                assert note["chances"].get(roll["result"], 0) > 0  # the result rolled was one it said could come
                counter = next((e for e in events if e["type"] == "counterattack"), None)
                hidden = s.secret_tokens(p)
                if counter is not None and not (set(counter["ships"]) & hidden):
                    assert note["counter"] is not None
                    assert note["counter"]["odds"] == counter["odds"] and note["counter"]["ships"] == counter["ships"]
                    counters += 1
                elif counter is None:
                    assert note["counter"] is None
            checked += 1
        if checked >= 60:
            break
    assert checked >= 20 and counters >= 3, (checked, counters)


@pytest.mark.parametrize("scenario", SCENARIO_IDS)
def test_notes_never_name_a_secret(scenario):
    """Every note of every legal list along random playouts, for the seat that gets it: no ship, item, identity
    or purchase that seat may not know."""
    noted = 0
    for seed in range(3):
        s = Session(GAME, {"scenario": scenario, "turn_limit": 8}, seed)
        rng = Rng(seed)
        for _ in range(400):
            if s.is_over():
                break
            for seat in s.deciding():
                snap = s.snapshot(seat)
                secret = s.state.secret_tokens(seat)
                for e in snap["legal"]:
                    if "note" in e:
                        noted += 1
                        assert not (json_tokens(e["note"]) & secret), (scenario, seed, e)
                pick = [e for e in snap["legal"] if e["action"]["type"] not in ("surrender",)]
                s.submit(seat, rng.choice(pick)["action"], expected_step=snap["step"])
                if s.is_over():
                    break
    assert noted > 0


def test_purchases_note_their_cost_and_the_credits_left():
    s = Session(GAME, {"scenario": "fleet_action"}, 1)
    snap = s.snapshot(0)
    buys = [e for e in snap["legal"] if e["action"]["type"] == "buy"]
    assert buys
    credits = snap["view"]["players"][0]["credits"]
    for e in buys:
        assert e["note"]["credits_left"] == credits - e["note"]["cost"] >= 0


def _combat_starts(scenario: str, seeds: range):
    """States at a combat decision with no group formed yet."""
    for seed in seeds:
        s = GAME.new_initial_state({"scenario": scenario, "turn_limit": 30}, seed)
        rng = Rng(seed)
        for _ in range(3000):
            if s.is_terminal():
                break
            p = s.current_players()[0]
            legal = s.legal_actions(p)
            if any(a.TYPE == "add_attacker" for a in legal) and not s.combat.group:
                yield s, p, legal
            s.apply_action(p, rng.choice([a for a in legal if a.TYPE != "surrender"] or legal))


def test_the_all_in_and_single_ship_previews_are_the_attacks_then_declared():
    from deltav.games.tactical.messages import AddAttacker, Fire

    checked = 0
    for s, p, legal in _combat_starts("fleet_action", range(12)):
        notes = dict(zip([a.to_json()["type"] + getattr(a, "ship", "") for a in legal],
                         GAME.annotate_legal(s, p, legal), strict=True))
        for tid, plan in notes["end_combat"]["attacks"].items():
            after = s.clone()
            for ship in plan["ships"]:
                after.apply_action(p, AddAttacker(ship))
            decl = next(e.to_json() for e in after.apply_action(p, Fire(tid)) if e.TYPE == "attack_declared")
            assert (plan["odds"], plan["attack"], plan["range_mod"], plan["velocity_mod"]) == (
                decl["odds"], decl["strength"], decl["range_mod"], decl["velocity_mod"])
            checked += 1
        for a in legal:
            if a.TYPE == "add_attacker":
                for tid, odds in notes["add_attacker" + a.ship]["attacks"].items():
                    after = s.clone()
                    after.apply_action(p, a)
                    decl = next(e.to_json() for e in after.apply_action(p, Fire(tid)) if e.TYPE == "attack_declared")
                    assert (odds["odds"], odds["attack"], odds["range_mod"]) == (
                        decl["odds"], decl["strength"], decl["range_mod"])
        if checked >= 30:
            break
    assert checked >= 10, checked


def _launch_outcome(state, player, action):
    """What the engine does with a launch: apply it on a clone, end the ordnance phase, and read the item's fate
    from the events (removed by a body / asteroid / base, hit ships, or where it drifted)."""
    from deltav.games.tactical.messages import EndOrdnance

    st = state.clone()
    events = st.apply_action(player, action)
    oid = events[-1].ordnance
    events = st.apply_action(player, EndOrdnance())
    out = {"removed": None, "hit": set(), "dest": None, "alive": False}
    for ev in events:
        if getattr(ev, "ordnance", None) != oid:
            continue
        name = type(ev).__name__
        if name == "OrdnanceRemoved":
            out["removed"] = ev.reason
        elif name == "OrdnanceMoved":
            out["dest"] = ev.destination
        elif name == "OrdnanceDetonated":
            out["hit"].add("detonated")
    out["alive"] = any(o.id == oid and not o.destroyed for o in st.ordnance)
    return out


@pytest.mark.parametrize("scenario", ["duel", "evacuation", "blockade", "convoy", "escape"])
def test_launch_notes_predict_where_the_item_goes_and_what_stops_it(scenario):
    checked = hits = 0
    for seed in range(4):
        s = Session(GAME, {"scenario": scenario, "turn_limit": 10}, seed)
        rng = Rng(seed + 50)
        for _ in range(300):
            if s.is_over():
                break
            seat = s.deciding()[0]
            snap = s.snapshot(seat)
            for e in snap["legal"]:
                if e["action"]["type"] != "launch":
                    continue
                note = e["note"]
                act = GAME.action_from_json(e["action"])
                got = _launch_outcome(s.state, seat, act)
                first = note["first_hit"]
                if first and first["what"] in ("body", "asteroid", "base"):
                    want = {"body": "body", "asteroid": "asteroid", "base": "base"}[first["what"]]
                    assert got["removed"] == want or (act.kind == "nuke" and got["removed"] != "expired"), (note, got)
                elif first is None:
                    assert got["removed"] in (None, "off_map", "expired") and not got["hit"], (note, got)
                    assert (got["removed"] == "off_map") == note["off_map"], (note, got)
                    assert got["dest"] == note["destination"] and got["alive"] == (not note["off_map"]), (note, got)
                elif first["what"] == "ships" and act.kind in ("mine", "nuke"):  # it goes off against them
                    assert not got["alive"], (note, got)
                    hits += 1
                checked += 1
            pick = [x for x in snap["legal"] if x["action"]["type"] not in ("surrender",)]
            s.submit(seat, rng.choice(pick)["action"], expected_step=snap["step"])
    assert checked > 0


def test_a_torpedo_boosted_into_luna_is_flagged_and_the_safe_boost_is_not():
    """Lunar Evacuation, seat 0's first ordnance phase: the frigate's torpedo boosted 2 SE flies into Luna, 1 SE
    hits the Luna base, 2 W drifts clear with the ship's velocity plus the boost."""
    s = Session(GAME, {"scenario": "evacuation"}, 1)
    snap = s.snapshot(0)
    end = next(e for e in snap["legal"] if e["action"]["type"] == "end_astrogation")
    s.submit(0, end["action"], expected_step=snap["step"])
    notes = {(e["action"]["kind"], e["action"]["boost_dir"], e["action"]["boost"]): e["note"]
             for e in s.snapshot(0)["legal"] if e["action"]["type"] == "launch"}
    assert notes[("torpedo", 5, 2)]["first_hit"] == {"what": "body", "hex": "9,-7", "body": "Luna"}
    assert notes[("torpedo", 5, 1)]["first_hit"] == {"what": "base", "hex": "9,-8"}
    safe = notes[("torpedo", 3, 2)]
    assert safe["first_hit"] is None and safe["velocity"] == [-3, 1] and safe["start"] == "10,-10"
    assert safe["destination"] == "7,-9" and safe["path"][0] == "10,-10" and safe["next_destination"] == "4,-8"
    assert safe["turns"] == 5 and not safe["off_map"]
