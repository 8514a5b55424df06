"""Each ruling option changes the game the way its documentation says (the default and the alternative)."""

from __future__ import annotations

from deltav.games.knighthawks import messages as m
from deltav.games.knighthawks.combat import operating_defenses
from tests.knighthawks.helpers import make_state, ship
from tests.knighthawks.test_game import apply, idx, pass_turns

FAR = [ship("a", 0, "destroyer", (-8, 0)), ship("b", 1, "destroyer", (8, 0), facing=3)]


def fire_rolls(events):
    return [e for e in events if e.TYPE == "damage" and e.source == "fire"]


def test_g2_fire_timing():
    own = make_state(FAR, first=0, options={"fire_timing": "owner"})
    own.ship("a").fire = True
    assert len(fire_rolls(apply(own, m.EndMovement()))) == 1  # in the owner's combat phase
    opp = make_state(FAR, first=0)  # the default follows the text: the opponent's combat step
    opp.ship("a").fire = True
    assert fire_rolls(apply(opp, m.EndMovement())) == []
    ev = apply(opp, m.EndMovement())  # player 1's turn: its combat phase burns player 0's ship
    assert len(fire_rolls(ev)) == 1 and fire_rolls(ev)[0].ship == "a"


def test_g9_navigation_roll_each_move_or_once():
    each = make_state([ship("a", 0, "destroyer", (-8, 0), speed=2), FAR[1]], first=1)
    each.ship("a").nav = True
    ev = apply(each, m.EndMovement())
    assert [e for e in ev if e.TYPE == "nav_roll" and e.ship == "a"]  # rolled before its next move
    once = make_state([ship("a", 0, "destroyer", (-8, 0), speed=2), FAR[1]], first=1, options={"nav_roll": "once"})
    once.ship("a").nav = True
    once.ship("a").navdir = -1
    ev = apply(once, m.EndMovement())
    assert not [e for e in ev if e.TYPE == "nav_roll"]
    assert once.legal_actions(0)  # it must turn right in each hex: only speed is chosen
    course = [a for a in once.legal_actions(0) if isinstance(a, m.Course)][0]
    apply(once, course)
    if once.plotting is not None:
        assert once.legal_actions(0) == [m.Step(-1)]


def _declared_then_lost(option_value):
    s = make_state([ship("a", 0, "destroyer", (0, 0)), ship("b", 1, "destroyer", (3, 0), facing=3)], first=0,
                   options={"declared_fire_after_damage": option_value})
    apply(s, m.EndMovement())
    pass_turns(s, lambda st: st.stage == "declare" and st.fire_mode == "off")
    lc = idx(s, "a", "LC")
    apply(s, m.Assign("a", lc, "b"))
    c, n, mx, _ = s.ship("a").weapons[lc]
    s.ship("a").weapons[lc] = (c, n, mx, 1)  # destroyed by an earlier shot of the same phase
    return apply(s, m.Fire())


def test_g10_declared_weapon_destroyed_before_it_fires():
    assert [e for e in _declared_then_lost(True) if e.TYPE == "attack"]
    ev = _declared_then_lost(False)
    assert not [e for e in ev if e.TYPE == "attack"] and [e for e in ev if e.TYPE == "wasted"]


def test_g16_station_masking_screen_lasts_six_of_its_turns():
    s = make_state([ship("st", 0, "armed_station", (0, 0)), ship("b", 1, "destroyer", (10, -4), facing=3)],
                   first=0)
    apply(s, m.Screen("st", "MS"))
    seen = [s.ship("st").ms_turns]
    for t in range(2, 9):
        pass_turns(s, lambda st, t=t: st.stage == "move" and st.mover == 0 and st.turn == t)
        seen.append(s.ship("st").ms_turns)
    assert seen == [6, 5, 4, 3, 2, 1, 0, 0]  # turns 1-6 screened, gone at the start of turn 7
    short = make_state([ship("st", 0, "armed_station", (0, 0)), ship("b", 1, "destroyer", (10, -4), facing=3)],
                       first=0, options={"station_ms_turns": 2})
    apply(short, m.Screen("st", "MS"))
    assert short.ship("st").ms_turns == 2


def test_g18_one_screen_at_a_time():
    for one, expect in ((True, ["RH", "PS"]), (False, ["RH", "MS", "PS"])):
        s = make_state([ship("f", 0, "fortress", (0, 0)), ship("b", 1, "destroyer", (10, -4), facing=3)], first=0,
                       options={"one_screen": one})
        apply(s, m.Screen("f", "MS"))
        pass_turns(s, lambda st: st.stage == "move" and st.mover == 0 and st.turn == 2)
        apply(s, m.Screen("f", "PS"))
        assert operating_defenses(s.ship("f"), s.rules) == expect


def test_k3_defensive_fire_at_the_start_hex():
    def geometry(flag):
        s = make_state([ship("a", 0, "destroyer", (0, 0), facing=0),
                        ship("b", 1, "frigate", (1, 0), facing=0, speed=4)], first=1,
                       options={"start_hex_fire": flag})
        apply(s, m.EndMovement())
        apply(s, m.Assign("a", idx(s, "a", "LB"), "b"))
        return s.declared[0][4], s.declared[0][5]

    assert geometry(True) == ([1, 0], 1)
    assert geometry(False) == ([2, 0], 2)


def test_g8_gravity_turns_in_the_breakup_check():
    def chance(flag):
        s = make_state([ship("a", 0, "destroyer", (-3, 1), facing=0, speed=6), FAR[1]],
                       planets=[("P", (0, 0))], first=0, options={"breakup_counts_gravity": flag}, seed=3)
        s.ship("a").dmg = 30
        apply(s, m.Course("a", 5, 0))
        ev = []
        while s.plotting is not None:
            ev = apply(s, m.Step(0))
        return [e for e in ev if e.TYPE == "breakup_check"][0].chance

    assert chance(False) == (30 - 25) * 1
    assert chance(True) == (30 - 25) * 2


def test_the_rulings_table_lists_every_ruling_with_its_default():
    from pathlib import Path

    from deltav.games.knighthawks.rulings import DEFAULT, RULING_OPTIONS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "knighthawks.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`"): line.split("|")[2].strip().strip("`")
            for line in doc.splitlines() if line.startswith("| `")}
    for o in RULING_OPTIONS:
        assert o.ruling and o.name in rows, o.name
        shown = {True: "true", False: "false"}.get(o.default, str(o.default))
        assert rows[o.name] == shown, (o.name, rows[o.name], o.default)
        assert getattr(DEFAULT, o.name) == o.default
