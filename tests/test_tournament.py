"""``deltav tournament``: the schedule (round robin, gauntlet, seats rotated), a ratings table with intervals,
the records, and the same summary for the same seed."""

from __future__ import annotations

import json
from collections import Counter

from deltav.cli import main
from deltav.core.protocol import get_game
from deltav.core.records import MatchRecord, replay
from deltav.games import load_all
from deltav.tournament import schedule


def test_the_schedule_rotates_seats_in_every_group():
    load_all()
    game = get_game("tactical")
    opts = game.resolve_options({"scenario": "duel"})
    rr = schedule(game, [opts], ["a", "b", "c"], "round-robin", 2, seed=1)
    assert len(rr) == 3 * 2 * 2  # 3 pairs, 2 rounds of 2 rotations
    seats = Counter((m["job"][3][0]) for m in rr)
    assert seats == {"a": 4, "b": 4, "c": 4}  # everyone sits first equally often
    assert len({m["job"][2] for m in rr}) == len(rr)  # distinct seeds
    g = schedule(game, [opts], ["champ", "b", "c", "d"], "gauntlet", 1, seed=1)
    assert len(g) == 3 * 2 and all("champ" in m["job"][3] for m in g)
    mining = get_game("mining")
    three = schedule(mining, [mining.resolve_options({"players": 3})], ["a", "b", "c", "d"], "round-robin", 1, 1)
    assert len(three) == 4 * 3 and all(len(m["order"]) == 3 for m in three)


def test_a_tournament_rates_writes_records_and_repeats_for_a_seed(tmp_path, capsys):
    args = ["tournament", "tactical", "--bots", "bot:easy,bot:random,bot:normal", "--scenario", "duel",
            "--jobs", "1", "--seed", "3"]
    assert main([*args, "--out", str(tmp_path / "one")]) == 0
    printed = capsys.readouterr().out
    assert "95% interval" in printed and "bot:normal" in printed
    assert main([*args, "--out", str(tmp_path / "two"), "--jobs", "2"]) == 0
    one = json.loads((tmp_path / "one" / "summary.json").read_text())
    two = json.loads((tmp_path / "two" / "summary.json").read_text())
    assert one == two
    table = one["ratings"]["table"]
    assert one["ratings"]["system"] == "glicko2" and len(table) == 3 and len(one["matches"]) == 6
    assert all(r["games"] == 4 and r["interval"][0] < r["rating"] < r["interval"][1] for r in table)
    assert sum(r["wins"] for r in table) == sum(1 for m in one["matches"] if len(m["winners"]) == 1)
    for m in one["matches"]:
        record = MatchRecord.from_json(json.loads((tmp_path / "one" / m["record"]).read_text()))
        replay(record)
        assert record.seed == m["seed"] and record.seats == m["specs"]


def test_a_free_for_all_tournament_uses_openskill(tmp_path, capsys):
    assert main(["tournament", "mining", "--players", "3", "--bots", "bot:easy,bot:random,bot:normal",
                 "--jobs", "2", "--out", str(tmp_path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["ratings"]["system"] == "openskill" and len(summary["matches"]) == 3
    assert {r["name"] for r in summary["ratings"]["table"]} == {"bot:easy", "bot:random", "bot:normal"}


def test_bad_tournaments(tmp_path, capsys):
    assert main(["tournament", "tactical", "--bots", "bot:easy", "--out", str(tmp_path)]) == 2
    assert main(["tournament", "tactical", "--bots", "bot:easy,bot:nope", "--out", str(tmp_path)]) == 2
    assert main(["tournament", "tactical", "--bots", "bot:easy,bot:easy", "--out", str(tmp_path)]) == 2
    assert main(["tournament", "tactical", "--bots", "bot:easy,bot:random", "--address", "x:1",
                 "--out", str(tmp_path)]) == 2
