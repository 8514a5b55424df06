"""The reach shadow (reach.py, issue 26 "beyond the reference"): from a seat's own view, every hex each enemy
ship it sees could end its next move on, by coasting, one burn or an overload, without crashing."""

from __future__ import annotations

from deltav.core.hexgrid import distance
from deltav.core.protocol import json_tokens
from deltav.core.rng import Rng
from deltav.games.tactical.astrogation_phase import order_options_uncached
from deltav.games.tactical.model import hparse
from deltav.games.tactical.preview import preview_courses

from .helpers import GAME, new_state, place


def shadow(s, seat):
    return GAME.advise(s.view(seat), seat, {"kind": "reach"})


def duel(vel=(0, 0), **enemy):
    s = new_state("duel")
    s.active_player = s.first_player = 0
    place(s, "p0s0", (8, 2), (0, 0), detected=True)
    place(s, "p1s0", (12, 0), vel, detected=True, **enemy)
    return s


def test_a_frigate_in_open_space_reaches_every_hex_within_two_with_an_overload():
    (x,) = shadow(duel(), 0)["ships"]
    assert (x["ship"], x["type"], x["from"], x["drift"]) == ("p1s0", "frigate", "12,0", "12,0")
    by = {h["hex"]: h["burns"] for h in x["hexes"]}
    assert len(by) == 19 and all(distance(hparse(h), (12, 0)) == b for h, b in by.items())
    assert x["hexes"][0] == {"hex": "12,0", "burns": 0, "lands": False}


def test_without_overload_one_burn_and_disabled_or_dry_ships_only_drift():
    (x,) = shadow(duel(overload_used=True, vel=(1, -1)), 0)["ships"]
    assert x["drift"] == "13,-1" and len(x["hexes"]) == 7
    assert {h["hex"] for h in x["hexes"] if h["burns"] == 1} == {"14,-1", "14,-2", "13,-2", "12,-1", "12,0", "13,0"}
    for enemy in ({"disabled": 2}, {"fuel": 0}, {"control": "captured"}):
        (x,) = shadow(duel(vel=(1, -1), **enemy), 0)["ships"]
        assert x["hexes"] == [{"hex": "13,-1", "burns": 0, "lands": False}]


def test_courses_that_crash_are_left_out_and_landings_are_marked():
    """Bi-Planetary: the Venus corvette landed on its base; taking off SW or W would crash into Venus."""
    s = new_state("biplanetary")
    s.ship("p1s0").detected = True
    (x,) = shadow(s, 0)["ships"]
    assert x["from"] == "-5,7" and x["drift"] == "-5,7"
    assert {"hex": "-5,7", "burns": 0, "lands": True} in x["hexes"]
    reach = {h["hex"] for h in x["hexes"]}
    assert all(hparse(h) not in s.gmap.surface for h in reach)
    legal = order_options_uncached(s, s.ship("p1s0"))
    safe = {pv.destination for pv in preview_courses(s, "p1s0", legal) if not pv.crashes}
    assert reach == {f"{q},{r}" for q, r in safe} and len(reach) < 19  # not all 19 within two: some crash


def test_only_seen_enemy_ships_and_nothing_hidden_changes_the_shadow():
    s = duel()
    s.ship("p1s0").detected = False
    assert shadow(s, 0) == {"kind": "reach", "ships": []}
    assert "p1s0" not in json_tokens(shadow(s, 0))
    assert [x["ship"] for x in shadow(s, 1)["ships"]] == ["p0s0"]  # the other seat sees ours (detected)


def test_random_playouts_every_shadow_hex_is_a_legal_course_end_and_names_no_secret():
    checked = 0
    for sc in ("duel", "convoy", "evacuation", "fleet_action"):
        for seed in range(2):
            s = GAME.new_initial_state({"scenario": sc, "turn_limit": 15}, seed)
            r = Rng(seed)
            for _ in range(300):
                if s.is_terminal():
                    break
                p = s.current_players()[0]
                if s.phase == "astrogation":
                    got = shadow(s, p)
                    assert not json_tokens(got) & s.secret_tokens(p)
                    for x in got["ships"]:
                        sh = s.ship(x["ship"])
                        if sh.emplaced:
                            continue
                        legal = order_options_uncached(s, sh)
                        ends = {pv.destination for pv in preview_courses(s, sh.id, legal) if not pv.crashes}
                        assert {hparse(h["hex"]) for h in x["hexes"]} == ends
                        checked += 1
                legal = [a for a in s.legal_actions(p) if a.TYPE != "surrender"]
                s.apply_action(p, r.choice(legal))
    assert checked > 20
