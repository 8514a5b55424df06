"""A finished match's summary (``summary.py``: the campaign points as the rules score them, statistics per fleet,
notes) and the scenario briefing (``briefing.py``: a round, each fleet's budget, what wins)."""

from __future__ import annotations

from deltav.core.match import play_match
from deltav.core.protocol import check_briefing, check_summary
from deltav.core.records import MatchRecord
from deltav.core.session import Session
from deltav.games.deepspace import DeepSpaceGame
from deltav.games.deepspace.bots import ScriptedBot


def _finished(scenario: str, seed: int, **options):
    opts = {"scenario": scenario, **options}
    n = DeepSpaceGame.num_players(DeepSpaceGame.resolve_options(opts))
    record, final, _ = play_match(DeepSpaceGame, opts, seed, [ScriptedBot() for _ in range(n)])
    events = [DeepSpaceGame.events.decode(e) for st in record.steps for e in st.events]
    return record, final, events


def test_the_campaign_points_are_the_rules_score_and_the_stats_count_the_events():
    record, final, events = _finished("melee", 3, round_limit=4)
    names = ["Ann", "Ben", "Cy"]
    got = check_summary(DeepSpaceGame.match_summary(final, events, names), 3)
    rows = got["scores"]["rows"]
    assert got["scores"]["columns"] == ["Player", "Inflicted", "Received", "Points", "Ships left"]
    by_name = {r[0]: r for r in rows}
    assert set(by_name) == set(names)
    for p, who in enumerate(names):
        _, inflicted, received, points, left = by_name[who]
        assert (inflicted, received, points) == (final.inflicted[p], final.received[p], final.scores()[p])
        ships = [s for s in final.ships if s.owner == p]
        assert left == f"{sum(1 for s in ships if s.status == 0)} of {len(ships)}"
    assert [r[3] for r in rows] == sorted((r[3] for r in rows), reverse=True)  # ranked by points (the winner's best)
    stats = {s["label"]: s["values"] for s in got["stats"]}
    fired = [0, 0, 0]
    hits = [0, 0, 0]
    for e in (e for e in events if type(e).TYPE == "shot"):
        fired[int(e.ship[1])] += 1
        hits[int(e.ship[1])] += e.hit
    assert stats["Shots fired"] == fired and stats["Hits"] == hits
    lost = [sum(1 for e in events if type(e).TYPE == "destroyed" and e.ship.startswith(f"s{p}-")) for p in range(3)]
    assert [a + b for a, b in zip(stats["Ships lost"], stats["Ships self-destructed"], strict=True)] == lost
    # without friendly fire or explosions, the hit points dealt are the campaign score's inflicted
    if not any(type(e).TYPE == "blast" for e in events):
        assert stats["Hit points dealt (shots and explosions)"] == final.inflicted
    winners = final.result().winners
    assert got["notes"][0].startswith(" and ".join(names[p] for p in winners))
    assert "campaign points" in got["notes"][0]


def test_a_two_fleet_battle_says_who_was_left_on_the_field_and_a_resignation_is_noted():
    record, final, events = _finished("skirmish", 5)
    got = DeepSpaceGame.match_summary(final, events, None)
    assert "the side left on the field wins" in got["scores"]["title"]
    if final.result().winners:  # the winner first, whatever the points
        assert got["scores"]["rows"][0][0] == f"Player {final.result().winners[0] + 1}"
    assert got["notes"] and ("Player" in got["notes"][0] or got["notes"][0].startswith("A draw"))
    # a match ended by a resignation: the battle was not fought to its end
    sess = Session(DeepSpaceGame, {"scenario": "skirmish"}, 2, names=["Ann", "Ben"])
    sess.end("resign", [1], "Ben resigned")
    summary = sess.snapshot(0)["summary"]
    check_summary(summary, 2)
    assert summary["notes"] == ["The battle was not fought to its end: it stopped in round 0 of 20."]
    assert MatchRecord.from_json(sess.record.to_json()).ending["kind"] == "resign"


def test_the_briefing_says_what_a_round_is_each_budget_and_what_wins():
    b = check_briefing(DeepSpaceGame.briefing({"scenario": "outpost"}, 0, ["Ann", "Ben"]), 2)
    assert "A round: every fleet plots in secret" in b["objective"]
    assert [s["name"] for s in b["sides"]] == ["Ann", "Ben"]
    assert b["sides"][0]["forces"] == ["Line of frigates (12 size levels)", "Frigate 1 (size 4)", "Frigate 2 (size 4)",
                                       "Frigate 3 (size 4)"]
    assert b["sides"][1]["forces"][0] == "Outpost station (8 size levels)"
    assert "Station (size 6)" in b["sides"][1]["forces"]
    assert "The side left on the field wins" in b["wins"]
    assert "The fleets' budgets are unequal: Ann 12 size levels, Ben 8 size levels." in b["notes"]
    melee = check_briefing(DeepSpaceGame.briefing({"scenario": "melee"}, None, None), 3)
    assert melee["wins"].startswith("The best campaign points win")
    agreed = check_briefing(DeepSpaceGame.briefing({"scenario": "duel", "size_levels": "6,10"}, 1, None), 2)
    assert agreed["sides"][0]["forces"] == [
        "a fleet it designs itself: 6 size levels (60 design points per level of a ship's size), secret until it "
        "shows in battle"]
    assert "10 size levels" in agreed["sides"][1]["forces"][0]
    assert "The players agreed on the fleets' size levels (Player 1: 6, Player 2: 10): every side designs its fleet." \
        in agreed["notes"]
    assert "frigates" not in agreed["objective"]  # the scenario's own fleets are not played
