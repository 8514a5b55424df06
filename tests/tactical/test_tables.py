"""The help screen's reference tables in the board document come from the game's data, unchanged."""

from __future__ import annotations

from deltav.games.tactical import combat as cb
from deltav.games.tactical.board import board
from deltav.games.tactical.shiptypes import ship_types


def test_tables_are_the_engine_data():
    t = board({"scenario": "duel"})["tables"]
    assert t["gun_combat"]["columns"] == list(cb.ODDS_LABELS)
    for roll, row in enumerate(t["gun_combat"]["rows"]):
        for col, label in enumerate(row["results"]):
            assert label == cb.gun_result(col, roll).label
    assert [r["roll"] for r in t["gun_combat"]["rows"]] == ["<=0", "1", "2", "3", "4", "5", ">=6"]
    types = ship_types()
    assert {s["type"] for s in t["ships"]} == set(types)
    for s in t["ships"]:
        assert (s["combat"], s["fuel"], s["cost"]) == (types[s["type"]].combat, types[s["type"]].fuel,
                                                       types[s["type"]].cost)
    assert t["other_damage"]["torpedo"] == [cb.other_damage("torpedo", d).label for d in range(1, 7)]
    assert t["ordnance"]["mass"] == {"mine": 10, "torpedo": 20, "nuke": 20}
