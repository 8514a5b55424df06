"""Delta-V tactical combat and ordnance-launch rules as pure functions (design/tactical.md 1.8, 1.9).

The expected tables below are typed in from the rules (the help text's Gun Combat Results Table and the design
note's Other Damage Tables), independently of data/combat.toml, so a wrong data file fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from deltav.core.errors import IllegalAction, ScenarioError
from deltav.games.tactical import combat as c
from deltav.games.tactical import ordnance_tables as o
from deltav.games.tactical.combat import Damage

N, E = Damage.NONE, Damage.ELIMINATED
D1, D2, D3, D4, D5 = Damage.D1, Damage.D2, Damage.D3, Damage.D4, Damage.D5

# rows: modified roll <=0, 1, .., >=6; columns 1:4 1:2 1:1 2:1 3:1 4:1
EXPECTED_GCRT = [
    [N, N, N, N, N, N],
    [N, N, N, N, N, D2],
    [N, N, N, N, D2, D3],
    [N, N, N, D2, D3, D4],
    [N, N, D2, D3, D4, D5],
    [N, D2, D3, D4, D5, E],
    [D1, D3, D4, D5, E, E],
]
EXPECTED_OTHER = {
    "torpedo": [N, D1, D1, D1, D2, D3],
    "mine": [N, N, N, N, D2, D2],
    "asteroid": [N, N, N, N, D1, D1],  # design note 1.8 (the reference code has D2 on a 6)
    "ram": [N, N, D1, D1, D3, D5],
}
LABELS = ["1:4", "1:2", "1:1", "2:1", "3:1", "4:1"]


def ship(id, combat=2, disabled=0, pos=(0, 0), vel=(0, 0), path=(), heroic=False, policy=c.OPERATES_NEVER):
    return c.make_combatant(id, combat, disabled, pos, vel, path, heroic, policy)


# --- tables ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("row", range(7))
@pytest.mark.parametrize("col", range(6))
def test_gcrt_every_cell(row, col):
    assert c.gun_result(col, row) is EXPECTED_GCRT[row][col]
    assert c.GUN_COMBAT[row][col] is EXPECTED_GCRT[row][col]


@pytest.mark.parametrize("col", range(6))
def test_gcrt_clamps_modified_roll(col):
    for m in (-1, -4, -20):
        assert c.gun_result(col, m) is EXPECTED_GCRT[0][col]
    for m in (7, 8, 30):
        assert c.gun_result(col, m) is EXPECTED_GCRT[6][col]


@pytest.mark.parametrize("source", sorted(EXPECTED_OTHER))
@pytest.mark.parametrize("die", range(1, 7))
def test_other_damage_every_cell(source, die):
    assert c.other_damage(source, die) is EXPECTED_OTHER[source][die - 1]


def test_other_damage_rejects_bad_input():
    with pytest.raises(ValueError):
        c.other_damage("torpedo", 0)
    with pytest.raises(ValueError):
        c.other_damage("torpedo", 7)
    with pytest.raises(ValueError):
        c.other_damage("laser", 3)


def test_odds_labels_and_constants():
    assert list(c.ODDS_LABELS) == LABELS
    assert c.odds_index("2:1") == 3
    assert c.ODDS_LABELS[c.ANTI_NUKE_ODDS] == "2:1"
    assert c.ODDS_LABELS[c.PLANETARY_DEFENSE_ODDS] == "2:1"
    assert c.ELIMINATION_THRESHOLD == 6
    assert dict(c.ORDNANCE_MASS) == {"mine": 10, "torpedo": 20, "nuke": 20}
    assert c.ORDNANCE_LIFETIME == 5
    assert c.DETECTION_SHIP_RANGE == 3 and c.DETECTION_BASE_RANGE == 5
    assert c.ORBITAL_BASE_CARGO == 50
    assert c.BASE_FIRE_RANGE == 1
    with pytest.raises(ValueError):
        c.odds_index("5:1")


def test_damage_labels_round_trip():
    for d in Damage:
        assert Damage.from_label(d.label) is d
    assert [d.label for d in Damage] == ["-", "D1", "D2", "D3", "D4", "D5", "E"]
    assert [d.disabled_turns for d in Damage] == [0, 1, 2, 3, 4, 5, 0]
    with pytest.raises(ValueError):
        Damage.from_label("D6")


# --- odds -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defence", "label"),
    [
        (3, 2, "1:1"),  # the examples of 1.8
        (5, 2, "2:1"),
        (2, 15, "1:4"),
        (16, 2, "4:1"),
        (8, 2, "4:1"),
        (7, 2, "3:1"),
        (6, 2, "3:1"),
        (4, 2, "2:1"),
        (2, 2, "1:1"),
        (1, 2, "1:2"),
        (4, 8, "1:2"),
        (3, 8, "1:4"),
        (1, 8, "1:4"),
        (1, 0, "4:1"),  # Dv <= 0 -> 4:1
        (0, 0, "4:1"),
        (5, -1, "4:1"),
        (0, 2, "1:4"),  # A <= 0 -> 1:4
        (-3, 2, "1:4"),
    ],
)
def test_odds_examples(attack, defence, label):
    assert c.odds_label(attack, defence) == label
    assert c.odds_column(attack, defence) == LABELS.index(label)


def _float_odds(a, d):
    if d <= 0:
        return 5
    if a <= 0:
        return 0
    ratio = a / d
    for k, t in ((5, 4), (4, 3), (3, 2), (2, 1), (1, 0.5)):
        if ratio >= t:
            return k
    return 0


strengths = st.integers(min_value=-2, max_value=200)


@given(strengths, strengths, strengths)
def test_odds_monotone_in_attack_antitone_in_defence(a, b, d):
    lo, hi = min(a, b), max(a, b)
    assert c.odds_column(lo, d) <= c.odds_column(hi, d)
    assert c.odds_column(d, hi) <= c.odds_column(d, lo) or hi <= 0 or lo <= 0
    if lo > 0:
        assert c.odds_column(d, hi) <= c.odds_column(d, lo)


@given(strengths, strengths)
def test_odds_match_the_ratio_rule(a, d):
    assert c.odds_column(a, d) == _float_odds(a, d)


@given(st.integers(0, 5), st.integers(-10, 15), st.integers(-10, 15))
def test_results_monotone_in_roll(col, m1, m2):
    lo, hi = min(m1, m2), max(m1, m2)
    assert c.gun_result(col, lo) <= c.gun_result(col, hi)


@given(st.integers(0, 5), st.integers(0, 5), st.integers(-10, 15))
def test_results_monotone_in_odds(c1, c2, m):
    lo, hi = min(c1, c2), max(c1, c2)
    assert c.gun_result(lo, m) <= c.gun_result(hi, m)


@pytest.mark.parametrize("source", sorted(EXPECTED_OTHER))
def test_other_damage_monotone_in_roll(source):
    results = [c.other_damage(source, d) for d in range(1, 7)]
    assert results == sorted(results)


def test_result_counts():
    assert c.result_counts(c.odds_index("1:1")) == (3, 0, 1, 1, 1, 0, 0)
    assert c.result_counts(c.odds_index("4:1"), 0) == (0, 0, 1, 1, 1, 1, 2)
    assert c.result_counts(c.odds_index("1:4"), 1) == (6, 0, 0, 0, 0, 0, 0)
    assert c.result_counts(c.odds_index("1:4"), -1) == (4, 2, 0, 0, 0, 0, 0)  # heroism: 5 and 6 both reach the 6 row
    for col in range(6):
        for pen in range(-2, 8):
            assert sum(c.result_counts(col, pen)) == 6


# --- strength, attack eligibility -----------------------------------------------------------------------------


def test_effective_strength():
    assert c.effective_strength(8, 0) == 8
    assert c.effective_strength(8, 1) == 0  # disabled ships count 0
    assert c.effective_strength(15, 4, c.OPERATES_ANY) == 15  # dreadnaught at any damage
    assert c.effective_strength(16, 1, c.OPERATES_D1) == 16  # orbital base at exactly D1
    assert c.effective_strength(16, 2, c.OPERATES_D1) == 0
    assert c.effective_strength(8, 0, destroyed=True) == 0
    assert c.effective_strength(15, 2, c.OPERATES_ANY, destroyed=True) == 0


def test_disabled_policy_by_type():
    assert c.disabled_policy("dreadnaught") == c.OPERATES_ANY
    assert c.disabled_policy("orbitalBase") == c.OPERATES_D1
    assert c.disabled_policy("orbital_base") == c.OPERATES_D1
    assert c.disabled_policy("frigate") == c.OPERATES_NEVER
    assert c.OPERATES_NEVER == "no"  # the value the ship data uses


def test_ship_classes():
    for t in ("corvette", "corsair", "frigate", "dreadnaught", "torch"):
        assert c.is_warship(t) and c.can_launch_torpedoes(t)
    for t in ("transport", "packet", "tanker", "liner"):
        assert not c.is_warship(t) and not c.can_launch_torpedoes(t)
    assert not c.is_warship("orbitalBase") and c.can_launch_torpedoes("orbitalBase")
    assert c.ordnance_allowed_for_type("orbitalBase") == ("torpedo",)
    assert c.ordnance_allowed_for_type("frigate") == ("mine", "torpedo", "nuke")


def test_can_attack():
    assert c.can_attack(defensive_only=False, disabled_turns=0)
    assert not c.can_attack(defensive_only=True, disabled_turns=0)  # transport, tanker, liner
    assert not c.can_attack(defensive_only=False, disabled_turns=1)
    assert c.can_attack(defensive_only=False, disabled_turns=3, policy=c.OPERATES_ANY)
    assert c.can_attack(defensive_only=False, disabled_turns=1, policy=c.OPERATES_D1)
    assert not c.can_attack(defensive_only=False, disabled_turns=2, policy=c.OPERATES_D1)
    assert not c.can_attack(defensive_only=False, disabled_turns=0, active=False)  # landed or destroyed
    assert not c.can_attack(defensive_only=False, disabled_turns=0, resupplied=True)
    assert not c.can_attack(defensive_only=False, disabled_turns=0, own_control=False)
    assert not c.can_attack(defensive_only=False, disabled_turns=5, policy=c.OPERATES_ANY, active=False)


def test_can_counterattack():
    assert c.can_counterattack(combat=2, defensive_only=False, disabled_turns=0)
    assert not c.can_counterattack(combat=0, defensive_only=False, disabled_turns=0)
    assert not c.can_counterattack(combat=2, defensive_only=True, disabled_turns=0)
    assert not c.can_counterattack(combat=8, defensive_only=False, disabled_turns=2)
    assert c.can_counterattack(combat=15, defensive_only=False, disabled_turns=2, policy=c.OPERATES_ANY)
    assert c.can_counterattack(combat=16, defensive_only=False, disabled_turns=1, policy=c.OPERATES_D1)
    assert not c.can_counterattack(combat=16, defensive_only=False, disabled_turns=2, policy=c.OPERATES_D1)


# --- modifiers and line of sight ------------------------------------------------------------------------------


def test_range_from_closest_approach():
    path = ((3, 0), (2, 0), (1, 0), (0, 0))
    assert c.closest_approach(path, (0, 0), (3, 1)) == (3, 0)
    assert c.range_modifier(path, (0, 0), (3, 1)) == 1
    assert c.range_modifier((), (0, 0), (3, -1)) == 3  # did not move: its position
    assert c.range_modifier((), (0, 0), (0, 0)) == 0
    # ties: the first hex of the path
    assert c.closest_approach(((1, 0), (0, 1)), (0, 1), (1, 1)) == (1, 0)


def test_group_range_is_worst():
    close = ship("close", pos=(0, 0))
    far = ship("far", pos=(6, 0), path=((6, 0),))
    assert c.group_range_modifier([close, far], (1, 0)) == 5


def test_velocity_modifier():
    assert c.velocity_modifier((1, 0), (1, 0)) == 0
    assert c.velocity_modifier((2, 0), (0, 0)) == 0
    assert c.velocity_modifier((5, 0), (0, 0)) == 3
    assert c.velocity_modifier((2, 1), (0, 0)) == 1  # hex norm 3
    assert c.velocity_modifier((2, -2), (-1, 1)) == 1  # difference (3, -3), norm 3
    assert c.velocity_modifier((-2, 4), (1, -1)) == 3  # difference (-3, 5), norm 5
    slow = ship("slow", vel=(2, 0))
    fast = ship("fast", vel=(6, 0))
    assert c.group_velocity_modifier([slow, fast], (0, 0)) == 4


@given(st.tuples(st.integers(-8, 8), st.integers(-8, 8)), st.tuples(st.integers(-8, 8), st.integers(-8, 8)))
def test_velocity_modifier_symmetric_and_non_negative(a, b):
    assert c.velocity_modifier(a, b) == c.velocity_modifier(b, a) >= 0


def test_line_of_sight_blocked_by_a_body():
    body = {(1, 0)}
    assert not c.line_of_sight((0, 0), (2, 0), body.__contains__)
    assert c.line_of_sight((0, 0), (2, 0), set().__contains__)
    # the endpoints never block (an attacker in orbit of a body it grazes sees past itself)
    assert c.line_of_sight((0, 0), (1, 0), body.__contains__)
    assert c.line_of_sight((1, 0), (3, 0), body.__contains__)
    assert c.line_of_sight((0, 0), (0, 0), body.__contains__)


def test_line_of_sight_not_blocked_by_a_graze():
    # (0,0) -> (2,-1) runs exactly along the hexside between (1,0) and (1,-1): an ambiguous pair
    assert c.line_of_sight((0, 0), (2, -1), {(1, 0)}.__contains__)
    assert c.line_of_sight((0, 0), (2, -1), {(1, -1)}.__contains__)
    assert c.line_of_sight((0, 0), (2, -1), {(1, 0), (1, -1)}.__contains__)
    # the same offset elsewhere on the map
    assert c.line_of_sight((5, 5), (7, 4), {(6, 5), (6, 4)}.__contains__)
    # a longer line with a definite middle hex is blocked there
    assert not c.line_of_sight((0, 0), (4, -2), {(2, -1)}.__contains__)
    assert c.line_of_sight((0, 0), (4, -2), {(1, 0), (3, -2)}.__contains__)


def test_group_line_of_sight_uses_closest_approach():
    body = {(1, 0)}.__contains__
    # started behind the body, ended beside the target: sees it from the closest hex of its path
    a = ship("a", pos=(2, -1), path=((0, 0), (1, -1), (2, -1)))
    assert c.closest_approach(a.path, a.position, (2, 0)) == (2, -1)
    assert c.group_line_of_sight([a], (2, 0), body)
    b = ship("b", pos=(0, 0))
    assert not c.group_line_of_sight([a, b], (2, 0), body)


# --- damage and repair ----------------------------------------------------------------------------------------


def test_apply_damage_and_repair():
    assert c.apply_damage(0, N) == (0, False)
    assert c.apply_damage(0, D3) == (3, False)
    assert c.apply_damage(3, D2) == (5, False)
    assert c.apply_damage(4, D3) == (7, True)
    assert c.apply_damage(1, D5) == (6, True)  # exactly 6 eliminates
    assert c.apply_damage(0, E) == (0, True)
    assert c.repair(3) == 2
    assert c.repair(1) == 0
    assert c.repair(0) == 0
    # a D1 taken in your own turn (a ram, your own torpedo) is repaired before the opponent's turn
    turns, dead = c.apply_damage(0, c.other_damage("ram", 3))
    assert (turns, dead) == (1, False) and c.repair(turns) == 0


@given(st.lists(st.sampled_from([N, D1, D2, D3, D4, D5, E]), max_size=12))
def test_damage_accumulation_eliminates_at_six(results):
    turns, dead = 0, False
    total = 0
    for r in results:
        if dead:
            break
        assert turns < 6
        turns, dead = c.apply_damage(turns, r)
        if r is E:
            assert dead
        else:
            total += int(r)
            assert turns == total
            assert dead == (total >= 6)


def _reached(results):
    total = 0
    for r in results:
        if r is E:
            return True
        total += int(r)
        if total >= 6:
            return True
    return False


@given(st.lists(st.sampled_from([N, D1, D2, D3, D4, D5, E]), max_size=12))
def test_eliminated_exactly_when_total_reaches_six_or_e(results):
    turns, dead = 0, False
    for r in results:
        turns, dead = c.apply_damage(turns, r)
        if dead:
            break
    assert dead == _reached(results)


@given(st.integers(0, 20), st.integers(0, 10))
def test_repair_one_turn_per_player_turn(start, turns):
    d = start
    for _ in range(turns):
        d = c.repair(d)
    assert d == max(0, start - turns)


# --- heroism and counterattack --------------------------------------------------------------------------------


def test_heroism_rule():
    assert c.heroism_earned(7, 8, D2)
    assert c.heroism_earned(4, 8, E)
    assert not c.heroism_earned(4, 8, D1)
    assert not c.heroism_earned(8, 8, D4)  # not an underdog
    assert not c.heroism_earned(9, 8, E)
    assert not c.heroism_earned(1, 2, N)


def test_primary_attacker_choice():
    a = ship("a", combat=4)
    b = ship("b", combat=8)
    cc = ship("c", combat=8)
    assert c.primary_attacker([a, cc, b]).id == "b"  # highest factor, ties to the smaller id
    d0 = ship("d0", combat=15, policy=c.OPERATES_ANY)
    d2 = ship("d2", combat=15, disabled=2, policy=c.OPERATES_ANY)
    assert c.primary_attacker([d0, d2, b]).id == "d2"  # ties to more disabled turns
    with pytest.raises(ValueError):
        c.primary_attacker([])


def test_counter_group_same_hex_same_course():
    target = ship("target", pos=(1, 0), vel=(1, 0))
    escort = ship("escort", pos=(1, 0), vel=(1, 0))
    outsider = ship("outsider", pos=(2, 0), vel=(1, 0))
    other_course = ship("slow", pos=(1, 0), vel=(0, 0))
    group = c.counter_group(target, [target, escort, outsider, other_course])
    assert [g.id for g in group] == ["target", "escort"]


def test_resolve_attack_reference_example():
    # corvette vs corvette one hex away, die 5: 1:1, range 1, modified 4 -> D2; the target counters first
    attacker = ship("a", pos=(0, 0))
    target = ship("t", pos=(1, 0))
    out = c.resolve_attack([attacker], target, 5, counterattackers=[target], counter_die=5)
    assert out.attack.odds_label == "1:1"
    assert (out.attack.range_mod, out.attack.velocity_mod, out.attack.heroism) == (1, 0, 0)
    assert (out.attack.die, out.attack.modified, out.attack.result) == (5, 4, D2)
    assert (out.target_disabled_turns, out.target_eliminated) == (2, False)
    assert out.counter is not None and out.counter_target_id == "a" and out.counter_ids == ("t",)
    assert (out.counter.odds_label, out.counter.range_mod, out.counter.modified, out.counter.result) == ("1:1", 1, 4, D2)
    assert (out.counter_target_disabled_turns, out.counter_target_eliminated) == (2, False)
    assert not out.heroism


def test_destroyed_target_still_counterattacks():
    attacker = ship("a", combat=15, policy=c.OPERATES_ANY)
    target = ship("t")
    out = c.resolve_attack([attacker], target, 6, counterattackers=[target], counter_die=6)
    assert out.attack.odds_label == "4:1" and out.attack.result is E and out.target_eliminated
    assert out.counter.odds_label == "1:4" and out.counter.result is D1
    assert out.counter_target_disabled_turns == 1


def test_defensive_target_has_no_counter():
    attacker = ship("a")
    transport = ship("t", combat=1)
    counter = c.counter_group(transport, [])  # the caller passes only ships that can_counterattack
    out = c.resolve_attack([attacker], transport, 1, counterattackers=counter)
    assert out.counter is None and out.counter_target_id is None
    assert out.attack.odds_label == "2:1"
    with pytest.raises(ValueError):
        c.resolve_attack([attacker], transport, 1, counter_die=3)
    with pytest.raises(ValueError):
        c.resolve_attack([attacker], transport, 1, counterattackers=[ship("x")])


def test_group_strength_and_reduced_strength():
    a1, a2 = ship("a1"), ship("a2")
    t = ship("t", pos=(1, 0))
    out = c.resolve_attack([a1, a2], t, 3)
    assert (out.attack.attack_strength, out.attack.defence_strength, out.attack.odds_label) == (4, 2, "2:1")
    dread = ship("d", combat=15, policy=c.OPERATES_ANY)
    t0 = ship("t0")
    out = c.resolve_attack([dread], t0, 3, declared=2, counterattackers=[t0], counter_die=6)
    assert (out.attack.attack_strength, out.attack.odds_label) == (2, "1:1")
    # the counter is against the group's full strength, not the declared one
    assert (out.counter.defence_strength, out.counter.odds_label) == (15, "1:4")
    with pytest.raises(ValueError):
        c.resolve_attack([dread], t0, 3, declared=16)
    with pytest.raises(ValueError):
        c.resolve_attack([dread], t0, 3, declared=0)
    with pytest.raises(ValueError):
        c.resolve_attack([], t0, 3)
    with pytest.raises(ValueError):
        c.resolve_attack([dread], t0, 7)


def test_disabled_defender_counts_zero():
    a = ship("a")
    crippled = ship("t", combat=8, disabled=2)
    assert crippled.strength == 0
    out = c.resolve_attack([a], crippled, 1)
    assert out.attack.odds_label == "4:1" and out.attack.result is D2
    dread = ship("d", combat=15, disabled=3, policy=c.OPERATES_ANY)
    assert c.resolve_attack([a], dread, 6).attack.odds_label == "1:4"
    base_d1 = ship("b", combat=16, disabled=1, policy=c.OPERATES_D1)
    base_d2 = ship("b2", combat=16, disabled=2, policy=c.OPERATES_D1)
    assert c.resolve_attack([a], base_d1, 6).attack.defence_strength == 16
    assert c.resolve_attack([a], base_d2, 6).attack.defence_strength == 0


def test_heroism_awarded_and_used():
    corsair = ship("c", combat=4)
    frigate = ship("f", combat=8)
    out = c.resolve_attack([corsair], frigate, 5)  # 4 vs 8 is 1:2; 5 -> D2
    assert out.attack.odds_label == "1:2" and out.attack.result is D2 and out.heroism
    out = c.resolve_attack([corsair], ship("f", combat=8, pos=(1, 0)), 6)  # range 1: 6 -> 5 -> D2
    assert out.attack.modified == 5 and out.heroism
    out = c.resolve_attack([corsair], frigate, 4)
    assert out.attack.result is N and not out.heroism
    # an even fight never earns heroism
    f2 = ship("f2", combat=8)
    assert not c.resolve_attack([f2], ship("t", combat=8), 6).heroism
    # a reduced-strength declaration below the defender is an underdog attack
    out = c.resolve_attack([f2], ship("t", combat=8), 5, declared=7)
    assert out.attack.odds_label == "1:2" and out.attack.result is D2 and out.heroism
    # a heroic attacker adds +1 to its group's roll: 1:1, die 4 -> 5 -> D3
    hero = ship("h", combat=2, heroic=True)
    plain = ship("p", combat=2)
    out = c.resolve_attack([plain, hero], ship("t", combat=4), 4)
    assert (out.attack.heroism, out.attack.modified, out.attack.result) == (1, 5, D3)
    # and to a counterattack it joins
    target = ship("t", combat=2, heroic=True, pos=(1, 0))
    out = c.resolve_attack([plain], target, 1, counterattackers=[target], counter_die=4)
    assert (out.counter.heroism, out.counter.modified, out.counter.result) == (1, 4, D2)
    assert not out.heroism  # counterattacks never earn heroism


def test_counter_modifiers_recomputed_to_the_primary_attacker():
    primary = ship("f", combat=8, pos=(3, 0), vel=(4, 0))
    far = ship("c", combat=4, pos=(-2, 0), vel=(0, 0))
    target = ship("t", combat=8, pos=(2, 0), vel=(0, 0))
    out = c.resolve_attack([far, primary], target, 6, counterattackers=[target], counter_die=6)
    assert (out.attack.range_mod, out.attack.velocity_mod) == (4, 2)
    assert out.counter_target_id == "f"
    assert (out.counter.range_mod, out.counter.velocity_mod) == (1, 2)
    # 8 vs 12 is 1:2; 6 - 3 = 3 -> no effect
    assert (out.counter.odds_label, out.counter.modified, out.counter.result) == ("1:2", 3, N)


def test_outcome_json_is_plain():
    attacker = ship("a")
    target = ship("t", pos=(1, 0))
    out = c.resolve_attack([attacker], target, 5, counterattackers=[target], counter_die=2)
    j = out.to_json()
    assert j["attack"] == {
        "odds": "1:1", "attack": 2, "defence": 2, "range": 1, "velocity": 0,
        "heroism": 0, "die": 5, "modified": 4, "result": "D2",
    }
    assert j["counter"]["target"] == "a" and j["counter"]["shot"]["result"] == "-"
    assert c.resolve_attack([attacker], target, 5).to_json()["counter"] is None


# --- nukes and planetary defense ------------------------------------------------------------------------------


def test_anti_nuke_fire():
    a = ship("a", combat=2, heroic=True)
    shot = c.resolve_anti_nuke([a], (0, 0), (0, 0), 3)
    assert (shot.odds_label, shot.heroism, shot.result) == ("2:1", 0, D2)  # fixed 2:1, no heroism
    assert c.nuke_destroyed(shot)
    assert not c.nuke_destroyed(c.resolve_anti_nuke([a], (0, 0), (0, 0), 2))
    b = ship("b", pos=(3, 0), vel=(0, 0))
    shot = c.resolve_anti_nuke([a, b], (1, 0), (4, 0), 6)  # range 2 (from b), velocity 2
    assert (shot.range_mod, shot.velocity_mod, shot.modified, shot.result) == (2, 2, 2, N)
    with pytest.raises(ValueError):
        c.resolve_anti_nuke([], (0, 0), (0, 0), 3)


def test_planetary_defense_shot_every_die():
    results = [c.planetary_defense_shot(d).result for d in range(1, 7)]
    assert results == [N, N, D2, D3, D4, D5]
    shot = c.planetary_defense_shot(4)
    assert (shot.odds_label, shot.range_mod, shot.velocity_mod, shot.modified) == ("2:1", 0, 0, 4)


def test_base_anti_nuke_shot():
    shot = c.base_anti_nuke_shot((0, 0), (2, 0), (3, 0), 6)
    assert (shot.range_mod, shot.velocity_mod, shot.modified, shot.result) == (2, 1, 3, D2)
    assert c.nuke_destroyed(shot)
    assert not c.nuke_destroyed(c.base_anti_nuke_shot((0, 0), (2, 0), (3, 0), 5))
    assert c.base_anti_nuke_shot((0, 0), (0, 1), (1, -1), 4).result is D2  # speed 1: no velocity penalty


def test_base_fire_zone():
    base = (-8, -6)  # a Mars base
    assert c.in_base_fire_zone((-8, -5), "Mars", base, "Mars")
    assert c.in_base_fire_zone(base, "Mars", base, "Mars")  # the base hex itself (distance 0)
    assert not c.in_base_fire_zone((-7, -6), None, base, "Mars")  # no gravity there
    assert not c.in_base_fire_zone((-10, -4), "Mars", base, "Mars")  # Mars gravity, but 2 away
    assert not c.in_base_fire_zone((-8, -5), "Venus", base, "Mars")


# --- split fire -----------------------------------------------------------------------------------------------


def _rule(fn, *args, **kwargs):
    with pytest.raises(IllegalAction) as exc:
        fn(*args, **kwargs)
    return exc.value.rule


def test_allocate_strength():
    assert c.allocate_strength(8, 0, None) == 8
    assert c.allocate_strength(8, 0, 3, target_hex=(1, 0)) == 3
    assert c.allocate_strength(8, 3, 5, group_target_hex=(1, 0), target_hex=(1, 0)) == 5
    assert c.allocate_strength(8, 3, None, group_target_hex=(1, 0), target_hex=(1, 0)) == 5
    assert _rule(c.allocate_strength, 8, 3, 6, group_target_hex=(1, 0), target_hex=(1, 0)) == "tactical.combat.strength"
    assert _rule(c.allocate_strength, 8, 0, 0) == "tactical.combat.strength"
    assert _rule(c.allocate_strength, 8, 0, True) == "tactical.combat.strength"
    assert _rule(c.allocate_strength, 8, 0, 2.5) == "tactical.combat.strength"
    assert _rule(c.allocate_strength, 8, 8, 1) == "tactical.combat.group_spent"
    assert _rule(c.allocate_strength, 8, 3, 2, group_target_hex=(1, 0), target_hex=(2, 0)) == "tactical.combat.split_hex"
    assert c.allocate_strength(8, 0, None, nuke=True) == 8
    assert _rule(c.allocate_strength, 8, 0, 4, nuke=True) == "tactical.combat.nuke_strength"
    assert _rule(c.allocate_strength, 8, 3, None, nuke=True) == "tactical.combat.split_nuke"
    assert _rule(c.allocate_strength, 8, 8, None, group_target_hex=(1, 0), target_hex=(1, 0)) == (
        "tactical.combat.group_spent"
    )


def test_check_split_fire():
    c.check_split_fire([3, 5], 8, [(1, 0), (1, 0)])
    c.check_split_fire([1, 1], 8, [(1, 0), (1, 0)])
    assert _rule(c.check_split_fire, [4, 5], 8, [(1, 0), (1, 0)]) == "tactical.combat.strength"
    assert _rule(c.check_split_fire, [0, 5], 8, [(1, 0), (1, 0)]) == "tactical.combat.strength"
    assert _rule(c.check_split_fire, [3, 5], 8, [(1, 0), (2, 0)]) == "tactical.combat.split_hex"
    assert _rule(c.check_split_fire, [3], 8, [(1, 0), (1, 0)]) == "tactical.combat.strength"


@given(st.integers(1, 40), st.lists(st.integers(1, 10), min_size=1, max_size=6))
def test_allocations_never_exceed_group_strength(group, asks):
    allocated = 0
    for ask in asks:
        remaining = group - allocated
        if 1 <= ask <= remaining:
            allocated += c.allocate_strength(group, allocated, ask, group_target_hex=(0, 1), target_hex=(0, 1))
        else:
            rule = _rule(c.allocate_strength, group, allocated, ask, group_target_hex=(0, 1), target_hex=(0, 1))
            assert rule == ("tactical.combat.group_spent" if remaining <= 0 else "tactical.combat.strength")
        assert 0 <= allocated <= group


# --- data file validation -------------------------------------------------------------------------------------

DATA = Path(c.__file__).parent / "data" / "combat.toml"


def _write(tmp_path, old, new):
    text = DATA.read_text()
    assert old in text
    p = tmp_path / "combat.toml"
    p.write_text(text.replace(old, new, 1))
    return p


def test_packaged_tables_load():
    assert c.load_tables() == c.TABLES
    assert c.load_tables(DATA) == c.TABLES


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ('["-",  "-",  "D2", "D3", "D4", "D5"],  # 4', '["-", "-", "D2", "D3", "D4", "D7"],', "gun_combat.results[4][5]"),
        ('["-",  "-",  "D2", "D3", "D4", "D5"],  # 4\n', "", "gun_combat.results"),
        ('ram      = ["-", "-",  "D1", "D1", "D3", "D5"]', 'ram = ["-", "D1"]', "other_damage.ram"),
        ("[[0, 1], [1, 2], [1, 1]", "[[0, 1], [1, 1], [1, 2]", "odds.thresholds[2]"),
        ('anti_nuke_odds = "2:1"', 'anti_nuke_odds = "5:1"', "combat.anti_nuke_odds"),
        ("elimination_threshold = 6", "elimination_threshold = true", "combat.elimination_threshold"),
        ("mass = { mine = 10, torpedo = 20, nuke = 20 }", "mass = { mine = 10, torpedo = 20 }", "ordnance.mass.nuke"),
        ('ordnance_restrictions = { orbitalBase = ["torpedo"] }', 'ordnance_restrictions = { orbitalBase = ["laser"] }',
         "ship_classes.ordnance_restrictions.orbitalBase[0]"),
        ("ship_range = 3\n", "", "detection.ship_range"),
    ],
)
def test_malformed_tables_name_the_field(tmp_path, old, new, field):
    path = _write(tmp_path, old, new)
    with pytest.raises(ScenarioError) as exc:
        c.load_tables(path)
    assert exc.value.field == field
    assert exc.value.source == str(path)


def test_unreadable_or_invalid_toml(tmp_path):
    with pytest.raises(ScenarioError):
        c.load_tables(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[odds\n")
    with pytest.raises(ScenarioError):
        c.load_tables(bad)


# --- ordnance launch legality ---------------------------------------------------------------------------------

CARGO = {"transport": 50, "packet": 50, "tanker": 0, "liner": 0, "corvette": 5, "corsair": 10, "frigate": 40,
         "dreadnaught": 50, "torch": 10, "orbitalBase": None}


def facts(ship_type, **kw):
    f = {"ship_type": ship_type, "cargo_capacity": CARGO[ship_type], "cargo_used": 0, "mine_burn": True,
         "mine_leaves_hex": True}
    f.update(kw)
    return f


def launch_rule(kind, ship_type, **kw):
    err = o.launch_error(kind, **facts(ship_type, **kw))
    return None if err is None else err[0]


def test_corvette_can_never_launch():
    assert o.launchable_types(**facts("corvette")) == ()
    assert launch_rule("mine", "corvette") == "tactical.ordnance.cargo"  # cargo 5 < mine mass 10


def test_corsair_one_mine_only():
    assert o.launchable_types(**facts("corsair")) == ("mine",)
    assert launch_rule("torpedo", "corsair") == "tactical.ordnance.cargo"
    assert launch_rule("nuke", "corsair") == "tactical.ordnance.cargo"
    used = o.cargo_after_launch(0, "mine")
    assert used == 10
    assert o.launchable_types(**facts("corsair", cargo_used=used)) == ()
    assert o.launchable_types(**facts("torch")) == ("mine",)


def test_packet_no_torpedo():
    assert launch_rule("torpedo", "packet") == "tactical.ordnance.torpedo_warship"
    assert o.launchable_types(**facts("packet")) == ("mine", "nuke")
    assert launch_rule("torpedo", "transport") == "tactical.ordnance.torpedo_warship"


def test_non_warship_one_nuke_between_resupplies():
    assert launch_rule("nuke", "transport") is None
    n = o.nukes_after_launch(0, "nuke")
    assert n == 1
    assert launch_rule("nuke", "transport", nukes_since_resupply=n, cargo_used=20) == "tactical.ordnance.nuke_limit"
    assert launch_rule("nuke", "packet", nukes_since_resupply=1) == "tactical.ordnance.nuke_limit"
    assert launch_rule("mine", "packet", nukes_since_resupply=1) is None
    # warships: only cargo limits nukes
    assert launch_rule("nuke", "frigate", nukes_since_resupply=1, cargo_used=20) is None
    assert launch_rule("nuke", "frigate", nukes_since_resupply=2, cargo_used=40) == "tactical.ordnance.cargo"
    assert launch_rule("nuke", "dreadnaught", nukes_since_resupply=2, cargo_used=20) is None
    # the override flags of the caller's ship data win over the class lists
    assert launch_rule("nuke", "transport", nukes_since_resupply=1, warship=True) is None
    assert o.nukes_after_launch(1, "mine") == 1


def test_orbital_base_torpedoes_only():
    assert launch_rule("torpedo", "orbitalBase", cargo_used=500) is None  # unlimited cargo
    assert launch_rule("mine", "orbitalBase") == "tactical.ordnance.type_for_ship"
    assert launch_rule("nuke", "orbitalBase") == "tactical.ordnance.type_for_ship"
    assert o.launchable_types(**facts("orbitalBase")) == ("torpedo",)
    assert launch_rule("torpedo", "orbitalBase", disabled_turns=1) is None  # operates at D1
    assert launch_rule("torpedo", "orbitalBase", disabled_turns=2) == "tactical.ordnance.disabled"
    assert launch_rule("torpedo", "orbitalBase", resupplied=True) == "tactical.ordnance.resupplied"


def test_mine_needs_a_burn_that_leaves_the_hex():
    assert launch_rule("mine", "frigate", mine_burn=False) == "tactical.ordnance.mine_burn"
    assert launch_rule("mine", "frigate", mine_leaves_hex=False) == "tactical.ordnance.mine_course"
    assert launch_rule("torpedo", "frigate", mine_burn=False, mine_leaves_hex=False) is None
    assert o.mine_course_ok(2, 5, (0, 0), (1, 0))
    assert not o.mine_course_ok(None, 5, (0, 0), (1, 0))  # no burn
    assert not o.mine_course_ok(2, 0, (0, 0), (1, 0))  # no fuel to pay for it
    assert o.mine_course_ok(2, None, (0, 0), (1, 0))  # unlimited fuel (torch)
    assert not o.mine_course_ok(0, 5, (0, 0), (0, 0))  # the burn cancelled the drift: still in the hex


def test_launch_state_rules():
    assert launch_rule("torpedo", "frigate", allowed_types=("nuke",)) == "tactical.ordnance.type_not_allowed"
    assert launch_rule("nuke", "frigate", allowed_types=("nuke",)) is None  # Escape: nukes only
    assert launch_rule("torpedo", "frigate", active=False) == "tactical.ordnance.ship_inactive"
    assert launch_rule("torpedo", "frigate", landed=True) == "tactical.ordnance.landed"
    assert launch_rule("torpedo", "frigate", launched_this_phase=True) == "tactical.ordnance.one_per_ship"
    assert launch_rule("torpedo", "frigate", resupplied=True) == "tactical.ordnance.resupplied"
    assert launch_rule("torpedo", "frigate", own_control=False) == "tactical.ordnance.captured"
    assert launch_rule("torpedo", "frigate", disabled_turns=1) == "tactical.ordnance.disabled"
    assert launch_rule("torpedo", "dreadnaught", disabled_turns=4) is None
    assert launch_rule("laser", "frigate") == "tactical.ordnance.unknown_type"
    assert launch_rule("torpedo", "frigate", cargo_used=30) == "tactical.ordnance.cargo"
    assert launch_rule("nuke", "transport", cargo_used=40) == "tactical.ordnance.cargo"
    assert launch_rule("mine", "tanker") == "tactical.ordnance.cargo"
    with pytest.raises(IllegalAction) as exc:
        o.check_launch("torpedo", **facts("packet"))
    assert exc.value.rule == "tactical.ordnance.torpedo_warship"
    o.check_launch("torpedo", **facts("frigate"))


@given(
    st.sampled_from(sorted(CARGO)),
    st.integers(0, 60),
    st.integers(0, 3),
    st.integers(0, 6),
    st.booleans(),
    st.booleans(),
)
def test_launchable_types_respect_cargo_and_class(ship_type, used, nukes, disabled, burn, leaves):
    f = facts(ship_type, cargo_used=used, nukes_since_resupply=nukes, disabled_turns=disabled, mine_burn=burn,
              mine_leaves_hex=leaves)
    kinds = o.launchable_types(**f)
    for kind in kinds:
        cap = CARGO[ship_type]
        assert cap is None or used + o.ordnance_mass(kind) <= cap
        if kind == "torpedo":
            assert c.can_launch_torpedoes(ship_type)
        if kind == "mine":
            assert burn and leaves
        if kind == "nuke" and not c.is_warship(ship_type):
            assert nukes == 0
    if disabled and ship_type != "dreadnaught" and not (ship_type == "orbitalBase" and disabled == 1):
        assert kinds == ()


def test_torpedo_boost():
    opts = o.torpedo_boost_options()
    assert len(opts) == 13 and opts[0] == (None, 0)
    for d, k in opts:
        assert o.boost_error("torpedo", d, k) is None
    assert o.boost_error("mine", 0, 1)[0] == "tactical.ordnance.boost_not_torpedo"
    assert o.boost_error("nuke", None, 0) is None
    assert o.boost_error("torpedo", 6, 1)[0] == "tactical.ordnance.boost"
    assert o.boost_error("torpedo", 2, 3)[0] == "tactical.ordnance.boost"
    assert o.boost_error("torpedo", 2, 0)[0] == "tactical.ordnance.boost"
    with pytest.raises(IllegalAction):
        o.check_boost("torpedo", None, 2)
    assert o.launch_velocity((1, -1)) == (1, -1)
    assert o.launch_velocity((1, -1), 0, 2) == (3, -1)
    assert o.launch_velocity((0, 0), 4, 1) == (-1, 1)
    assert o.ordnance_mass("mine") == 10
    with pytest.raises(ValueError):
        o.ordnance_mass("laser")
    assert o.LIFETIME == 5


# --- resolve_attack agrees with its parts ---------------------------------------------------------------------

hexes = st.tuples(st.integers(-6, 6), st.integers(-6, 6))
combatants = st.builds(
    lambda i, combat, disabled, pos, vel, path, heroic, policy: ship(
        f"s{i}", combat, disabled, pos, vel, tuple(path), heroic, policy
    ),
    st.integers(0, 30),
    st.sampled_from([1, 2, 4, 8, 15, 16]),
    st.integers(0, 3),
    hexes,
    hexes,
    st.lists(hexes, max_size=4),
    st.booleans(),
    st.sampled_from([c.OPERATES_NEVER, c.OPERATES_ANY, c.OPERATES_D1]),
)


@given(st.lists(combatants, min_size=1, max_size=4))
def test_primary_attacker_is_the_sorted_first(group):
    expected = sorted(group, key=lambda s: (-s.combat, -s.disabled_turns, s.id))[0]
    assert c.primary_attacker(group) == expected


@given(
    st.lists(combatants, min_size=1, max_size=3),
    combatants,
    st.lists(combatants, max_size=2),
    st.integers(1, 6),
    st.integers(1, 6),
)
def test_resolve_attack_agrees_with_its_parts(group, target, counters, die, cdie):
    full = sum(s.strength for s in group)
    if full == 0:
        return
    out = c.resolve_attack(group, target, die, counterattackers=counters, counter_die=cdie if counters else None)
    rmod = max(c.range_modifier(s.path, s.position, target.position) for s in group)
    vmod = max(c.velocity_modifier(s.velocity, target.velocity) for s in group)
    heroic = any(s.heroic for s in group)
    col = c.odds_column(full, target.strength)
    m = c.modified_roll(die, rmod, vmod, heroic)
    assert out.attack == (col, full, target.strength, rmod, vmod, int(heroic), die, m, c.gun_result(col, m))
    assert (out.target_disabled_turns, out.target_eliminated) == c.apply_damage(target.disabled_turns, out.attack.result)
    assert out.heroism == c.heroism_earned(full, target.strength, out.attack.result)
    if counters:
        p = c.primary_attacker(group)
        assert out.counter_target_id == p.id
        assert out.counter.range_mod == c.group_range_modifier(counters, p.position)
        assert out.counter.velocity_mod == c.group_velocity_modifier(counters, p.velocity)
        assert out.counter.odds == c.odds_column(sum(s.strength for s in counters), full)
        assert (out.counter_target_disabled_turns, out.counter_target_eliminated) == c.apply_damage(
            p.disabled_turns, out.counter.result
        )
    else:
        assert out.counter is None


def test_asteroid_hazards():
    rocks = {(1, 0), (2, 0), (3, 0)}.__contains__
    assert c.asteroid_hazards((0, 0), (3, 0), rocks) == ((1, 0), (2, 0), (3, 0))  # end hex included
    assert c.asteroid_hazards((1, 0), (3, 0), rocks) == ((2, 0), (3, 0))  # start hex excluded
    # a graze counts only when both hexes of the pair are asteroids
    assert c.asteroid_hazards((0, 0), (2, -1), {(1, 0)}.__contains__) == ()
    assert c.asteroid_hazards((0, 0), (2, -1), {(1, 0), (1, -1)}.__contains__) == ((1, -1),)
    assert c.asteroid_hazards((0, 0), (2, -1), {(1, 0), (1, -1), (2, -1)}.__contains__) == ((1, -1), (2, -1))
    assert c.asteroid_hazards((4, 4), (4, 4), {(4, 4)}.__contains__) == ()


def test_ship_data_of_the_game_agrees_with_the_combat_tables():
    from deltav.games.tactical.shiptypes import ship_data

    data = ship_data()
    assert dict(data.ordnance_mass) == dict(c.ORDNANCE_MASS)
    assert data.ordnance_lifetime == c.ORDNANCE_LIFETIME
    assert data.orbital_base_cargo == c.ORBITAL_BASE_CARGO
    assert data.elimination == c.ELIMINATION_THRESHOLD
    assert (data.detection_ship, data.detection_base) == (c.DETECTION_SHIP_RANGE, c.DETECTION_BASE_RANGE)
    for name, t in data.types.items():
        assert t.warship == c.is_warship(name), name
        assert t.torpedoes == c.can_launch_torpedoes(name), name
        assert t.fires_disabled == c.disabled_policy(name), name
        assert t.cargo == CARGO[name], name


def test_gun_targets():
    assert c.gun_target_error(enemy=True, active=True, detected=True) is None
    assert c.gun_target_error(enemy=False, active=True, detected=True)[0] == "tactical.combat.own_target"
    assert c.gun_target_error(enemy=True, active=False, detected=True)[0] == "tactical.combat.target_inactive"
    assert c.gun_target_error(enemy=True, active=True, detected=False)[0] == "tactical.combat.target_undetected"
    body = {(1, 0)}.__contains__
    c.check_line_of_sight([ship("a", pos=(0, 0))], (2, -1), body)  # a graze
    assert _rule(c.check_line_of_sight, [ship("a", pos=(0, 0))], (2, 0), body) == "tactical.combat.line_of_sight"
