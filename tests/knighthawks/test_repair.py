"""Repair: DCR blocks as success chances, 90-00 fails, 99/00 unrepairable, what each success restores."""

from __future__ import annotations

from deltav.core.rng import Rng
from deltav.games.knighthawks import damage as dm
from deltav.games.knighthawks import repair as rp
from deltav.games.knighthawks.ships import DESTROYED, LOST, OK, ship_of_class


def test_outcome_limits():
    assert rp.outcome(50, 50) == "repaired"
    assert rp.outcome(50, 51) == "failed"
    assert rp.outcome(95, 89) == "repaired"  # at most 89% whatever the points
    for r in range(90, 99):
        assert rp.outcome(100, r) == "failed"
    assert rp.outcome(100, 99) == "unrepairable"
    assert rp.outcome(100, 100) == "unrepairable"  # 00


def test_block_sizes():
    assert rp.block_sizes(75) == [10, 20, 30, 40, 50, 60, 70, 75]
    assert rp.block_sizes(200) == [10, 20, 30, 40, 50, 60, 70, 80, 90]
    assert rp.block_sizes(5) == [5]


def test_targets_and_each_success():
    d = ship_of_class("d", "destroyer")
    for roll in (53, 60, 66, 72, 88, 95, 100, 110):
        dm.apply_effect(d, dm.classify(d, roll))
    d.dmg = 12
    t = rp.repair_targets(d, [])
    lc = [f"w{i}" for i, w in enumerate(d.weapons) if w[0] == "LC"][0]
    assert set(t) == {"hull", "adf", "mr", lc, "short", "ccs", "nav", "fire", "dc"}
    # each ADF point is its own target: 3 blocks allowed on a drive with 3 points lost
    assert rp.repair_targets(d, ["adf", "adf"]).count("adf") == 1
    assert "adf" not in rp.repair_targets(d, ["adf"] * 3)
    rng = Rng(3)
    assert rp.resolve(d, "adf", 50, 10, rng) == ("repaired", 1) and d.adf == 1
    assert rp.resolve(d, lc, 50, 10, rng)[0] == "repaired"
    assert d.weapons[int(lc[1:])][3] == OK
    assert rp.resolve(d, "fire", 30, 40, rng)[0] == "failed" and d.fire
    assert rp.resolve(d, "fire", 30, 30, rng)[0] == "repaired" and not d.fire
    assert rp.resolve(d, "dc", 30, 1, rng)[0] == "repaired" and d.dcr() == 75
    out, got = rp.resolve(d, "hull", 80, 20, rng)
    assert out == "repaired" and 1 <= got <= 10 and d.dmg == 12 - got


def test_unrepairable_in_space():
    d = ship_of_class("d", "destroyer")
    dm.apply_effect(d, dm.classify(d, 66))
    lc = [i for i, w in enumerate(d.weapons) if w[3] == DESTROYED][0]
    assert rp.resolve(d, f"w{lc}", 80, 99, Rng(1)) == ("unrepairable", 0)
    assert d.weapons[lc][3] == LOST
    assert f"w{lc}" not in rp.repair_targets(d, [])
    dm.apply_effect(d, dm.classify(d, 55))
    assert rp.resolve(d, "mr", 80, 100, Rng(1))[0] == "unrepairable"
    assert "mr" not in rp.repair_targets(d, [])


def test_disastrous_fire_put_out_restores_nothing_else():
    d = ship_of_class("d", "destroyer")
    dm.apply_effect(d, dm.classify(d, 119))
    rp.resolve(d, "fire", 50, 1, Rng(1))
    assert not d.fire and d.adf == 0 and d.mr == 0 and d.ccs and d.dch


def test_sampling_secret_repairs_for_determinized_worlds():
    d = ship_of_class("d", "destroyer")
    for roll in (53, 66, 88):
        dm.apply_effect(d, dm.classify(d, roll))
    d.dmg = 30
    none = rp.sample_secret_repairs(d, Rng(1), prior=0.0)
    assert none.to_json()["damage"] == 30 and none.adf == 0 and none.shadow.dmg == 30
    every = rp.sample_secret_repairs(d, Rng(1), prior=1.0)
    assert every.adf == 3 and not every.ccs and every.dmg < 30 and all(w[3] == OK for w in every.weapons)
    assert every.shadow.adf == 0 and every.shadow.shadow is None
