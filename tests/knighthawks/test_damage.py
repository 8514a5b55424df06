"""The advanced damage system: the rules text's worked examples and every cumulation rule, exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deltav.games.knighthawks import damage as dm
from deltav.games.knighthawks.combat import operating_defenses
from deltav.games.knighthawks.rulings import Rulings
from deltav.games.knighthawks.ships import DESTROYED, OK, ship_of_class


def destroyer():
    return ship_of_class("d", "destroyer")


# --- worked examples of the rules text ----------------------------------------------------------------------


def test_breakup_example_destroyer_50hp_32_damage_adf3_mr1():
    assert dm.breakup_chance(50, 32, 3 + 1) == 28
    assert dm.breaks_apart(50, 32, 4, 28)
    assert dm.breaks_apart(50, 32, 4, 1)
    assert not dm.breaks_apart(50, 32, 4, 29)  # "rolls a 29: the destroyer makes its move successfully"


def test_proton_beam_73_gives_83_a_defense_hit():
    pb_dtm = 10
    eff = dm.classify(destroyer(), 73 + pb_dtm)
    assert eff.modified == 83 and eff.result == "defense" and eff.kind == "defense"


def test_roll_66_on_destroyer_destroys_laser_cannon():
    d = destroyer()
    eff = dm.classify(d, 66)
    assert eff.kind == "weapon" and d.weapons[eff.index][0] == "LC"  # no disruptor cannon: next on the list
    dm.apply_effect(d, eff)
    assert d.weapons[eff.index][3] == DESTROYED


def test_adf3_losing_half_keeps_1():
    assert dm.drive_loss(3, 3, "half") == 2
    d = ship_of_class("x", "destroyer")
    eff = dm.classify(d, 51)
    dm.apply_effect(d, eff)
    assert d.adf == 1


def test_half_adf_hit_after_drive_damage_loses_half_the_original():
    d = ship_of_class("x", "frigate")  # ADF 4
    dm.apply_effect(d, dm.classify(d, 47))  # -1 -> 3
    eff = dm.classify(d, 50)
    assert eff.loss == 2  # half of the original 4
    dm.apply_effect(d, eff)
    assert d.adf == 1


def test_drive_all_and_steering():
    d = destroyer()
    dm.apply_effect(d, dm.classify(d, 53))
    assert d.adf == 0
    dm.apply_effect(d, dm.classify(d, 55))
    assert d.mr == 2
    dm.apply_effect(d, dm.classify(d, 60))
    assert d.mr == 0 and d.drifting()


# --- hull hits ---------------------------------------------------------------------------------------------


def test_hull_points_double_and_half():
    assert dm.hull_points(13) == 13
    assert dm.hull_points(13, double=True) == 26
    assert dm.hull_points(13, half=True) == 7  # G6: rounded up
    assert dm.hull_points(13, half=True, round_up=False) == 6
    assert dm.hull_points(13, double=True, half=True) == 14  # halve first, then double


def test_hull_hit_destroys_at_zero():
    d = destroyer()
    eff = dm.classify(d, 30)
    assert eff.kind == "hull" and not eff.double
    assert not dm.apply_effect(d, eff, 49)
    assert d.severe()
    assert dm.apply_effect(d, eff, 1)


def test_double_damage_row():
    assert dm.classify(destroyer(), 10).double
    assert not dm.classify(destroyer(), 11).double


def test_severe_means_more_than_half():
    d = destroyer()
    d.dmg = 25
    assert not d.severe() and dm.breakup_chance(50, 25, 4) == 0
    d.dmg = 26
    assert d.severe() and dm.breakup_chance(50, 26, 4) == 4
    assert dm.breakup_chance(50, 40, 0) == 0


# --- cumulation rules ----------------------------------------------------------------------------------------


def test_drive_hits_are_cumulative_then_hull():
    d = ship_of_class("x", "heavy_cruiser")  # ADF 2
    for _ in range(2):
        dm.apply_effect(d, dm.classify(d, 46))
    assert d.adf == 0
    eff = dm.classify(d, 46)
    assert eff.kind == "hull" and eff.result == "drive"


def test_steering_hit_on_mr0_is_hull():
    s = ship_of_class("s", "fortified_station")
    eff = dm.classify(s, 55)
    assert eff.kind == "hull"
    eff = dm.classify(s, 47)  # a drive hit on a station with ADF 0
    assert eff.kind == "hull"


def test_second_ccs_dc_and_fire_hits_are_hull_hits():
    d = destroyer()
    for roll in (88, 110, 100):
        eff = dm.classify(d, roll)
        assert eff.kind != "hull"
        dm.apply_effect(d, eff)
        again = dm.classify(d, roll)
        assert again.kind == "hull", roll
    assert d.ccs and d.dch and d.fire


def test_dc_hit_halves_dcr_rounding_up():
    d = destroyer()  # DCR 75
    dm.apply_effect(d, dm.classify(d, 110))
    assert d.dcr() == 38
    assert d.dcr(round_up=False) == 37


def test_hit_on_missing_system_is_hull():
    f = ship_of_class("f", "freighter")  # no weapons
    for roll in (61, 63, 65, 67, 69):
        assert dm.classify(f, roll).kind == "hull"
    fighter = ship_of_class("g", "fighter")  # only RH, never in a defense list
    for roll in (75, 78, 81):
        assert dm.classify(fighter, roll).kind == "hull"


def test_hit_on_destroyed_system_is_hull_and_k1_alternative_walks_on():
    d = destroyer()
    dm.apply_effect(d, dm.classify(d, 66))  # LC gone
    eff = dm.classify(d, 61)  # LC first on this list: already destroyed
    assert eff.kind == "hull" and "destroyed" in eff.note
    eff2 = dm.classify(d, 61, Rulings(priority_skips_destroyed=True))
    assert eff2.kind == "weapon" and d.weapons[eff2.index][0] == "LB"


def test_weapon_hit_destroys_one_mount_then_the_next():
    b = ship_of_class("b", "battleship")  # LB x3
    lbs = [i for i, w in enumerate(b.weapons) if w[0] == "LB"]
    for k in range(3):
        eff = dm.classify(b, 69)
        assert eff.kind == "weapon" and eff.index == lbs[k]
        dm.apply_effect(b, eff)
    assert dm.classify(b, 69).kind == "hull"  # all LB gone: hit on a destroyed system


def test_g5_type_scope_destroys_every_mount():
    b = ship_of_class("b", "battleship")
    r = Rulings(weapon_hit_scope="type")
    dm.apply_effect(b, dm.classify(b, 69, r), 0, r)
    assert all(w[3] == DESTROYED for w in b.weapons if w[0] == "LB")


def test_ltd_system_with_no_ammunition_is_still_destroyed():
    d = destroyer()
    i = [k for k, w in enumerate(d.weapons) if w[0] == "T"][0]
    d.weapons[i] = ("T", 0, 2, OK)
    eff = dm.classify(d, 67)
    assert eff.kind == "weapon" and eff.index == i
    dm.apply_effect(d, eff)
    assert d.weapons[i][3] == DESTROYED


def test_power_short_stops_screens_not_released_masking():
    h = ship_of_class("h", "heavy_cruiser")
    h.screen = "PS"
    h.ms_turns = 0
    dm.apply_effect(h, dm.classify(h, 72))
    assert h.short and "PS" not in operating_defenses(h) and h.icms_available() == 0
    d = destroyer()
    d.ms_turns = 99
    dm.apply_effect(d, dm.classify(d, 72))
    assert d.ms_turns == 99
    assert dm.classify(d, 72).kind == "hull"  # K2: a second short


def test_defense_hit_priority_and_store():
    h = ship_of_class("h", "heavy_cruiser")  # RH, ES, PS, SS, ICM
    eff = dm.classify(h, 76)
    assert h.defenses[eff.index][0] == "PS"
    d = destroyer()  # RH, MS x2, ICM x5
    eff = dm.classify(d, 79)
    assert d.defenses[eff.index][0] == "MS"
    dm.apply_effect(d, eff)
    assert not d.has_working_defense("MS")
    eff = dm.classify(d, 82)
    assert d.defenses[eff.index][0] == "ICM"
    r = Rulings(store_hit="one")
    dm.apply_effect(d, eff, 0, r)
    assert d.icms_available() == 4


def test_navigation_hit_and_repeat():
    d = destroyer()
    dm.apply_effect(d, dm.classify(d, 95))
    assert d.nav
    assert dm.classify(d, 95).kind == "hull"
    assert dm.classify(d, 95, Rulings(repeat_flag_hit="none")).kind == "nav"


def test_disastrous_fire_all_parts_and_g3_fallback():
    d = destroyer()
    eff = dm.classify(d, 118)
    assert eff.kind == "disaster" and set(eff.parts) == {"dcr", "adf", "mr", "ccs", "fire"}
    dm.apply_effect(d, eff)
    assert d.dch and d.adf == 0 and d.mr == 0 and d.ccs and d.fire
    assert dm.classify(d, 118).kind == "hull"  # nothing left to apply
    e = destroyer()
    e.ccs = True
    part = dm.classify(e, 118)
    assert part.kind == "disaster" and "ccs" not in part.parts
    assert dm.classify(e, 118, Rulings(disaster_fallback="hull")).kind == "hull"


def test_electrical_fire_roll_is_plus_20():
    d = destroyer()
    assert dm.classify(d, 1 + 20).kind == "hull"
    assert dm.classify(d, 100 + 20).kind == "disaster"


@given(st.lists(st.integers(-20, 120), max_size=40), st.integers(1, 30))
def test_property_damage_never_makes_values_negative(rolls, hull):
    d = destroyer()
    for r in rolls:
        eff = dm.classify(d, r)
        if dm.apply_effect(d, eff, hull if eff.kind == "hull" else 0):
            break
        assert 0 <= d.adf <= d.adf0 and 0 <= d.mr <= d.mr0
        if eff.kind != "hull":
            assert eff.result == eff.kind or eff.kind == "disaster"
    assert d.dmg >= 0


@pytest.mark.parametrize("roll", range(-20, 121))
def test_classify_never_mutates(roll):
    d = destroyer()
    before = d.to_json()
    dm.classify(d, roll)
    assert d.to_json() == before
