"""The summary of a finished match (``MiningGame.match_summary``) and the briefing (``MiningGame.briefing``)."""

from __future__ import annotations

import pytest

from deltav.core.match import play_match
from deltav.core.protocol import MatchEvents, check_briefing, check_summary
from deltav.games.mining import MiningGame
from deltav.games.mining.bots import ScriptedAgent
from tests.mining.helpers import new, tile_of

NAMES = ["Ann", "Ben", "Cleo", "Dev"]


@pytest.mark.parametrize("players,seed", [(2, 3), (3, 8), (4, 1)])
def test_the_scores_table_is_the_rulebooks_scoring_in_ranking_order(players, seed):
    rec, st, _ = play_match(MiningGame, {"players": players}, seed, [ScriptedAgent() for _ in range(players)])
    events = [e for step in rec.steps for e in step.events]
    s = check_summary(MiningGame.match_summary(st, events, NAMES[:players]), players)
    cols = s["scores"]["columns"]
    rows = [dict(zip(cols, r, strict=True)) for r in s["scores"]["rows"]]
    assert sorted(r["Player"] for r in rows) == sorted(NAMES[:players])
    by_name = {r["Player"]: r for r in rows}
    for p in range(players):
        r = by_name[NAMES[p]]
        spent = sum(1 for b in st.view(None)["bribes"] if b["holder"] == p and b["spent"])
        tiles = sum(t["value"] for t in st.view(None)["collected"][p])
        assert r["Points"] == (f"{tiles - 2 * spent} ({tiles} − {2 * spent})" if spent else str(tiles))
        assert int(r["Points"].split()[0]) == rec.result["scores"][p]
        assert r["Contracts"] == sum(1 for c in st.view(None)["contracts"] if c["owner"] == p)
    keys = [(int(r["Points"].split()[0]), r["Contracts"], r["Unspent"]) for r in rows]
    assert keys == sorted(keys, reverse=True)
    assert {NAMES[w] for w in rec.result["winners"]} == {r["Player"] for r in rows if
                                                         (int(r["Points"].split()[0]), r["Contracts"], r["Unspent"]) == keys[0]}
    stats = {x["label"]: x["values"] for x in s["stats"]}
    assert all(len(v) == players for v in stats.values())
    assert stats["Contracts fulfilled"] == [by_name[NAMES[p]]["Contracts"] for p in range(players)]
    assert sum(stats["Turns played"]) == st.turn
    assert s["notes"][0] == f"The game ended: {rec.result['reason']}."
    decisions = MatchEvents([], [len([x for x in rec.steps if x.player == p]) for p in range(players)])
    counted = MiningGame.match_summary(st, decisions, NAMES[:players])["stats"]
    assert counted[1] == {"label": "Decisions", "values": list(decisions.decisions)}
    assert [x["label"] for x in counted[:4]] == ["Turns played", "Decisions", "Contracts fulfilled", "Tiles collected"]


def test_a_tie_names_the_tie_break_that_settled_it():
    st = new(players=3)
    a, b = tile_of(st, "alphatite", 5), tile_of(st, "betamite", 5)
    st.collected = [[(a, 0)], [(b, 1)], []]
    st.contract_owners[0], st.contract_owners[1], st.contract_owners[2] = 0, 1, 1  # Ben has two contracts, Ann one
    s = MiningGame.match_summary(st, [], NAMES[:3])
    assert [r[0] for r in s["scores"]["rows"]] == ["Ben", "Ann", "Cleo"]
    assert "Ben and Ann tied on 5 points; the first tie-break, fulfilled contracts, went to Ben (2 to 1)." in s["notes"]
    st.contract_owners[2] = -1
    st.spent |= 1 << 5  # Ben spent his Alphatite counter... and gets 2 points fewer: make it even again
    st.collected[1] = [(b, 1), (tile_of(st, "alphatite", 2), 0)]
    s = MiningGame.match_summary(st, [], NAMES[:3])
    assert s["scores"]["rows"][0][0] == "Ann"
    assert ("Ann and Ben tied on 5 points and 1 contract; the second tie-break, unspent bribe counters, went to Ann "
            "(5 to 4).") in s["notes"]


def test_the_briefing_follows_the_player_count_and_the_options():
    b = MiningGame.briefing({"players": 3, "max_turns": 20, "bid_up": False}, 1, NAMES[:3])
    assert b["title"] == "Delta V asteroid mining: 3 players"
    assert [s["name"] for s in b["sides"]] == NAMES[:3] and b["sides"][1]["goal"] == "the most points"
    assert "4 rockets in the shipyard" in b["sides"][0]["forces"]
    check_briefing(b, 3)
    assert "after 20 turns" in b["wins"] and "fifth Alien Encounter" in b["wins"]
    assert "There are no bid-ups in this game." in b["notes"]
    plain = check_briefing(MiningGame.briefing({"players": 2}, None, None), 2)
    assert [s["name"] for s in plain["sides"]] == ["Player 1", "Player 2"] and "turn limit" not in plain["wins"]
    assert not any("bid-ups" in n for n in plain["notes"])
