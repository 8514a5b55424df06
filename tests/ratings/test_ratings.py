"""Glicko-2 against the worked example of Glickman's paper, and the ladders built on it and on openskill."""

from __future__ import annotations

import pytest

from deltav.ratings import Glicko2, Ladder, match_outcome, update


def test_glickmans_worked_example():
    player = Glicko2(1500, 200, 0.06)
    results = [(Glicko2(1400, 30), 1.0), (Glicko2(1550, 100), 0.0), (Glicko2(1700, 300), 0.0)]
    new = update(player, results, tau=0.5)
    # the paper rounds its intermediate values to 4 digits (mu' = -0.2069 gives 1464.06); unrounded it is 1464.0507
    assert abs(new.r - 1464.06) < 0.01
    assert round(new.rd, 2) == 151.52
    assert abs(new.vol - 0.05999) < 1e-5  # 0.0599960 (the paper shows 5 digits)


def test_a_period_without_games_only_widens_the_deviation():
    new = update(Glicko2(1500, 200, 0.06), [])
    assert new.r == 1500 and new.vol == 0.06
    assert new.rd == pytest.approx(200.2714, abs=1e-3)  # sqrt(phi^2 + sigma^2) on the Glicko scale


def test_a_glicko2_ladder_ranks_the_stronger_and_stops_being_provisional():
    lad = Ladder("glicko2")
    for k in range(20):  # hard wins 3 of 4, seats alternating
        hard_wins = k % 4 != 3
        seats = ["bot:hard", "bot:easy"] if k % 2 else ["bot:easy", "bot:hard"]
        lad.add(seats, [float((s == "bot:hard") == hard_wins) for s in seats])
    rows = lad.table()
    assert [r["name"] for r in rows] == ["bot:hard", "bot:easy"]
    assert rows[0]["games"] == 20 and rows[0]["wins"] == 15
    assert rows[0]["rating"] > 1550 > 1450 > rows[1]["rating"]
    assert rows[0]["rd"] < 110
    assert rows[0]["interval"][0] < rows[0]["rating"] < rows[0]["interval"][1]
    assert not rows[0]["provisional"]
    fresh = Ladder("glicko2")
    fresh.add(["a", "b"], [1, 0])
    assert all(r["provisional"] for r in fresh.table())


def test_draws_and_self_play():
    lad = Ladder("glicko2")
    lad.add(["a", "b"], [0, 0])
    assert lad.table()[0]["rating"] == lad.table()[1]["rating"] == 1500
    lad.add(["a", "a"], [1, 0])  # self-play rates nobody
    assert lad.entries["a"].games == 1


def test_an_openskill_ladder_for_free_for_all():
    lad = Ladder("openskill")
    for _ in range(6):
        lad.add(["p1", "p2", "p3", "p4"], match_outcome([0], None, 4))
    rows = lad.table()
    assert rows[0]["name"] == "p1" and rows[0]["wins"] == 6
    assert rows[0]["rating"] > rows[-1]["rating"]
    with pytest.raises(ValueError):
        Ladder("glicko2").add(["a", "b", "c"], [1, 0, 0])


def test_match_outcome_prefers_returns():
    assert match_outcome([1], [-1.0, 1.0], 2) == [-1.0, 1.0]
    assert match_outcome([0, 2], None, 3) == [1.0, 0.0, 1.0]
    assert match_outcome([], None, 2) == [0.0, 0.0]
