"""The astrogation assistant (``TacticalGame.advise``): a plan from the seat's own view whose first order is legal
and whose first turn is exactly the course preview; following it lands; bad requests name the field."""

from __future__ import annotations

import json

import pytest

from deltav.core.errors import IllegalAction, MalformedAction
from deltav.core.protocol import Game, get_game
from deltav.core.session import Session
from deltav.games import load_all
from deltav.games.tactical.advise import defended_hexes
from deltav.games.tactical.bots.routes import plan_route
from deltav.games.tactical.mapdata import default_map
from deltav.games.tactical.preview import preview_course

load_all()
GAME = get_game("tactical")
SEEDS = tuple(range(8))  # before the assistant kept out of Venus' fire zone, seeds 0, 1, 3, 5, 7 lost the ship


def _legal_order(snap, order):
    return next((e for e in snap["legal"] if e["action"] == order), None)


@pytest.mark.parametrize("seed", SEEDS)
def test_following_the_assistant_lands_on_venus_and_each_plan_starts_with_the_preview(seed):
    """The course never stops in Venus' fire zone, so its planetary defense never shoots and no seed loses the
    ship on the way in."""
    s = Session(GAME, {"scenario": "biplanetary"}, seed)
    first_turns = None
    for _ in range(200):
        if s.is_over():
            break
        seat = s.deciding()[0]
        snap = s.snapshot(seat)
        view = snap["view"]
        if seat == 0 and view["phase"] == "astrogation" and not view["orders"]:
            advice = GAME.advise(view, 0, {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}})
            ship = next(x for x in view["ships"] if x["id"] == "p0s0")
            if ship["disabled"]:  # Venus' planetary defense hit it: it can only coast, and the assistant says so
                assert not advice["found"] and "disabled" in advice["reason"]
                coast = {"type": "order", "ship": "p0s0", "burn": None, "overload": None, "land": False, "weak": []}
                s.submit(0, coast, expected_step=snap["step"])
                continue
            assert advice["found"], advice
            first_turns = first_turns or advice["turns"]
            step = advice["steps"][0]
            entry = _legal_order(snap, step["order"])
            assert entry is not None, step["order"]
            act = GAME.action_from_json(step["order"])
            pv = preview_course(s.state, "p0s0", act).to_json()
            assert (step["path"], step["destination"], step["velocity"], step["fuel_after"]) == (
                pv["path"], pv["destination"], pv["velocity"], pv["fuel_after"])
            s.submit(0, step["order"], expected_step=snap["step"])
            continue
        # everything else: end the phase (the opponent coasts)
        end = next(e for e in snap["legal"] if e["action"]["type"].startswith("end_") or
                   e["action"]["type"] == "fleet_ready")
        s.submit(seat, end["action"], expected_step=snap["step"])
    assert s.is_over()
    res = s.state.result()
    assert list(res.winners) == [0], res
    assert not [e for e in s.log(None) if "planetary_defense" in json.dumps(e)]
    assert first_turns is not None and first_turns <= 9


def _second_turn_view(seed=0):
    """Seat 0's view at its second astrogation of Bi-Planetary, having followed the assistant once (the ship
    at (-8,-5) moving (0,1), Mars' pull queued)."""
    s = Session(GAME, {"scenario": "biplanetary"}, seed)
    while True:
        seat = s.deciding()[0]
        snap = s.snapshot(seat)
        view = snap["view"]
        if seat == 0 and view["phase"] == "astrogation" and not view["orders"]:
            if view["turn"] == 2:
                return view
            a = GAME.advise(view, 0, {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}})
            s.submit(0, a["steps"][0]["order"], expected_step=snap["step"])
            continue
        end = next(e for e in snap["legal"] if e["action"]["type"].startswith("end_"))
        s.submit(seat, end["action"], expected_step=snap["step"])


def test_the_course_keeps_out_of_enemy_planetary_defense():
    """From here the planner's plain fewest-turn course stops unlanded on Venus' base hex (-9,7), in its fire
    zone, the turn before it lands; the assistant's course of the same length never ends a move there."""
    view = _second_turn_view()
    gmap = default_map()
    zone = defended_hexes(gmap, view, 0, frozenset())
    assert (-9, 7) in zone and (-8, 6) in zone and not zone & set(gmap.bodies["Mars"].bases)
    ship = next(x for x in view["ships"] if x["id"] == "p0s0")
    assert tuple(ship["position"]) == (-8, -5)  # a tuple in the view (the same JSON array)
    plain = plan_route(gmap, tuple(ship["position"]), tuple(ship["velocity"]), tuple(ship["pending_gravity"]),
                       ship["fuel"], False, "land", tuple(sorted(gmap.bodies["Venus"].bases)), None, frozenset(),
                       False, True, 48, 16)
    from deltav.games.tactical.movement import compute_course

    stops = [compute_course(gmap, p, v, f, pend, ld, False, b, None, w, land, frozenset(), False, True)
             for (b, land, w), (p, v, pend, f, ld) in plain]
    assert any(c.outcome != "landing" and c.destination in zone for c in stops)  # what the assistant used to do
    a = GAME.advise(view, 0, {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}})
    assert a["found"] and a["avoids_defense"] and a["reason"] is None
    assert a["turns"] <= len(plain) + 1
    assert not any(st["defended"] for st in a["steps"])
    for st in a["steps"][:-1]:
        q, r = (int(x) for x in st["destination"].split(","))
        assert (q, r) not in zone, st
    assert a["steps"][-1]["outcome"] == "landing"


def test_without_planetary_defense_or_with_no_way_around_it():
    view = _second_turn_view()
    gmap = default_map()
    off = {**view, "rules": {**view["rules"], "planetary_defense": False}}
    assert defended_hexes(gmap, off, 0, frozenset()) == frozenset()
    # a destroyed base's zone is no danger
    others = [tuple(int(x) for x in k.split(",")) for k in view["players"][1]["bases"] if k != "-9,7"]
    assert defended_hexes(gmap, view, 0, frozenset({(-9, 7)})) == frozenset().union(
        *(gmap.fire_zone[h] for h in others))
    # a hex inside the zone as the goal: no course avoids it, the fewest-turn one is given and marked
    a = GAME.advise(view, 0, {"ship": "p0s0", "goal": {"kind": "hex", "hex": "-8,6"}})
    assert a["found"] and not a["avoids_defense"] and "planetary defense" in a["reason"]
    assert a["steps"][-1]["defended"]


def test_goals_of_every_kind_and_their_answers():
    s = Session(GAME, {"scenario": "biplanetary"}, 3)
    view = s.snapshot(0)["view"]
    for goal in ({"kind": "base", "hex": "-5,7"}, {"kind": "orbit", "body": "Mars"}, {"kind": "hex", "hex": "-4,0"},
                 {"kind": "body", "body": "Venus"}):
        a = GAME.advise(view, 0, {"ship": "p0s0", "goal": goal})
        assert a["found"] and a["turns"] == len(a["steps"]) >= 1, goal
        assert [st["turn"] for st in a["steps"]] == list(range(1, a["turns"] + 1))
        for prev, nxt in zip(a["steps"], a["steps"][1:]):
            assert nxt["start"] == prev["destination"]
    last = GAME.advise(view, 0, {"ship": "p0s0", "goal": {"kind": "base", "hex": "-5,7"}})["steps"][-1]
    assert last["outcome"] == "landing" and last["destination"] == "-5,7"
    hexed = GAME.advise(view, 0, {"ship": "p0s0", "goal": {"kind": "hex", "hex": "-4,0"}})
    assert "-4,0" in hexed["steps"][-1]["path"]


@pytest.mark.parametrize("request_, field", [
    (None, "request"),
    ({"goal": {"kind": "body", "body": "Venus"}}, "request.ship"),
    ({"ship": "p0s0"}, "request.goal"),
    ({"ship": "p0s0", "goal": {"kind": "star"}}, "request.goal.kind"),
    ({"ship": "p0s0", "goal": {"kind": "body", "body": "Pluto"}}, "request.goal.body"),
    ({"ship": "p0s0", "goal": {"kind": "hex", "hex": "1;2"}}, "request.goal.hex"),
    ({"ship": "p0s0", "goal": {"kind": "hex"}}, "request.goal.hex"),
    ({"ship": "p0s0", "goal": {"kind": "base", "hex": "0,5"}}, "request.goal.hex"),
    ({"ship": "p0s0", "goal": {"kind": "hex", "hex": "0,0"}}, "request.goal.hex"),
])
def test_a_malformed_request_names_the_field(request_, field):
    view = Session(GAME, {"scenario": "biplanetary"}, 3).snapshot(0)["view"]
    with pytest.raises(MalformedAction) as e:
        GAME.advise(view, 0, request_)
    assert e.value.field == field


def test_only_your_own_ships_and_games_without_advice():
    s = Session(GAME, {"scenario": "biplanetary"}, 3)
    with pytest.raises(IllegalAction) as e:
        GAME.advise(s.snapshot(1)["view"], 1, {"ship": "p0s0", "goal": {"kind": "body", "body": "Venus"}})
    assert e.value.rule == "tactical.advise.not_yours"
    # the enemy's ship is not in seat 0's view at all (fog of war): the same refusal, nothing said about it
    with pytest.raises(IllegalAction) as e:
        GAME.advise(s.snapshot(0)["view"], 0, {"ship": "p1s0", "goal": {"kind": "body", "body": "Mars"}})
    assert e.value.rule == "tactical.advise.not_yours"
    with pytest.raises(IllegalAction) as e:
        Game.advise({}, 0, {})
    assert e.value.rule == "protocol.advise"
