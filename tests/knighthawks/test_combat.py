"""To-hit: every weapon against every defense, the modifiers, the choice of defense, the forward field of
fire, planets blocking fire and the automatic results."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deltav.core import hexgrid
from deltav.games.knighthawks import combat as cb
from deltav.games.knighthawks.rulings import Rulings
from deltav.games.knighthawks.ships import ship_of_class

COLS = ("none", "RH", "PS", "ES", "SS", "MS")
TABLE = {  # design/knight-hawks.md 2.3, first (boardgame) numbers
    "LC": (75, 60, 75, 75, 75, 25),
    "LB": (65, 50, 65, 65, 65, 20),
    "PB": (60, 60, 25, 70, 40, 50),
    "EB": (60, 60, 70, 25, 40, 50),
    "DC": (60, 60, 50, 50, 40, 50),
    "T": (50, 50, 50, 50, 75, 50),
    "AR": (60, 60, 60, 60, 60, 60),
    "RB": (40, 40, 40, 40, 40, 40),
    "M": (60, 60, 60, 60, 80, 60),
    "S": (75, 75, 75, 75, 90, 75),
}
HALF = {("LC", "MS"), ("LB", "MS"), ("PB", "PS"), ("EB", "ES")}


@pytest.mark.parametrize("weapon", sorted(TABLE))
@pytest.mark.parametrize("col", COLS)
def test_to_hit_of_every_weapon_against_every_defense(weapon, col):
    assert cb.chance_to_hit(weapon, col, 0) == TABLE[weapon][COLS.index(col)]
    assert cb.half_damage(weapon, col) == ((weapon, col) in HALF)


def test_modifiers():
    # rules example: laser cannon, reflective hull, head-on, range 4: 60 + 10 - 20 = 50
    assert cb.chance_to_hit("LC", "RH", 4, head_on=True) == 50
    assert cb.chance_to_hit("LB", "RH", 4, head_on=True) == 30  # not FF: no head-on bonus
    assert cb.chance_to_hit("T", "RH", 4) == 50  # no range diffusion
    assert cb.chance_to_hit("LB", "RH", 2, ccs=True) == 30
    assert cb.chance_to_hit("T", "RH", 2, icms=2) == 30
    assert cb.chance_to_hit("AR", "RH", 2, icms=2) == 50
    assert cb.chance_to_hit("RB", "RH", 2, icms=2) == 34
    assert cb.chance_to_hit("S", "RH", 0, icms=1) == 67
    assert cb.chance_to_hit("T", "RH", 1, evade_mr=4) == 30  # evasion: -5 x MR against torpedoes
    assert cb.chance_to_hit("AR", "RH", 1, evade_mr=4) == 60  # only against torpedoes


def test_automatic_results():
    assert cb.roll_hits(5, -30)
    assert not cb.roll_hits(6, -30)
    assert not cb.roll_hits(96, 130)
    assert cb.roll_hits(95, 130)
    assert cb.roll_hits(50, 50) and not cb.roll_hits(51, 50)
    ssw = Rulings(auto_results=False)
    assert cb.roll_hits(99, 130, ssw) and cb.roll_hits(5, -30, ssw) and not cb.roll_hits(6, -30, ssw)


def test_choice_of_defense_most_effective_unless_attracting():
    assert cb.defense_column("LB", []) == "none"
    assert cb.defense_column("LB", ["RH"]) == "RH"
    assert cb.defense_column("LB", ["RH", "MS"]) == "MS"
    assert cb.defense_column("PB", ["RH", "PS"]) == "PS"
    assert cb.defense_column("EB", ["RH", "PS"]) == "PS"  # attracted: 70 although RH gives 60
    assert cb.defense_column("PB", ["RH", "ES"]) == "ES"  # attracted
    assert cb.defense_column("T", ["RH", "SS"]) == "SS"  # G11: stasis attracts guided weapons
    assert cb.defense_column("T", ["RH", "SS"], Rulings(stasis_attracts_guided=False)) == "RH"
    assert cb.defense_column("DC", ["RH", "SS"]) == "SS"


def test_operating_defenses():
    h = ship_of_class("h", "heavy_cruiser")
    assert cb.operating_defenses(h) == ["RH"]
    h.screen = "ES"
    assert cb.operating_defenses(h) == ["RH", "ES"]
    h.short = True
    assert cb.operating_defenses(h) == ["RH"]
    d = ship_of_class("d", "destroyer")
    d.ms_turns = 99
    d.short = True
    assert cb.operating_defenses(d) == ["RH", "MS"]  # a released masking screen survives a short
    f = ship_of_class("f", "freighter")
    assert cb.operating_defenses(f) == []


def test_forward_field_of_fire():
    # facing E (0): centre row straight ahead, side rows from the hexes ahead-left (NE) and ahead-right (SE)
    assert cb.in_forward_field((0, 0), 0, (0, 0), 10) is True
    assert cb.in_forward_field((0, 0), 0, (5, 0), 10) is True
    assert cb.in_forward_field((0, 0), 0, (1, -1), 10) is False
    assert cb.in_forward_field((0, 0), 0, (4, -1), 10) is False
    assert cb.in_forward_field((0, 0), 0, (0, 1), 10) is False
    assert cb.in_forward_field((0, 0), 0, (3, 1), 10) is False
    assert cb.in_forward_field((0, 0), 0, (-1, 0), 10) is None  # behind
    assert cb.in_forward_field((0, 0), 0, (3, -2), 10) is None  # outside the three-hex-wide corridor
    assert cb.in_forward_field((0, 0), 0, (11, 0), 10) is None  # beyond range
    assert cb.in_forward_field((2, 2), 3, (0, 2), 4) is True  # facing W


def test_planets_block_fire():
    planets = frozenset({(2, 0)})
    assert cb.fire_blocked((0, 0), (4, 0), planets)
    assert not cb.fire_blocked((0, 0), (2, -2), planets)
    assert not cb.fire_blocked((0, 0), (1, 0), planets)
    # a line grazing the hexside between a planet and open space is not blocked
    assert not cb.fire_blocked((0, 0), (2, -1), frozenset({(1, 0)}))
    assert cb.fire_blocked((0, 0), (2, -1), frozenset({(1, 0), (1, -1)}))


def test_ranges_and_eb_ruling():
    assert cb.weapon_range("EB") == 12
    assert cb.weapon_range("EB", Rulings(eb_range=10)) == 10
    assert cb.weapon_range("LB") == 9


@given(st.integers(-12, 12), st.integers(-12, 12), st.integers(0, 5), st.integers(1, 12))
def test_property_forward_field_turns_with_the_ship(q, r, facing, reach):
    base = cb.in_forward_field((0, 0), 0, (q, r), reach)
    turned = cb.in_forward_field((0, 0), facing, hexgrid.rotate((q, r), facing), reach)
    assert base == turned
    if base is not None:
        assert hexgrid.length((q, r)) <= reach
        assert (base is True) == (r == 0 and q >= 0)  # head-on: the straight row ahead (facing E)


@given(st.integers(-8, 8), st.integers(-8, 8), st.integers(-8, 8), st.integers(-8, 8))
def test_property_fire_blocking_is_symmetric(aq, ar, bq, br):
    planets = frozenset({(0, 0), (3, -2)})
    a, b = (aq, ar), (bq, br)
    if a in planets or b in planets:
        return
    assert cb.fire_blocked(a, b, planets) == cb.fire_blocked(b, a, planets)
