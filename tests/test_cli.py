"""The deltav command end to end (on the test-only toy game, so it does not depend on any real game)."""

from __future__ import annotations

import json

import pytest

from deltav import cli
from deltav.core.agent import RandomAgent
from deltav.core.match import play_match
from deltav.core.protocol import get_game
from deltav.core.records import MatchRecord, replay


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_games_lists_every_game_with_options(capsys):
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    games = {g["id"]: g for g in json.loads(out)}
    assert "toy" in games
    assert games["toy"]["scenarios"][0]["id"] == "standard"
    assert any(o["name"] == "scenario" for o in games["toy"]["options"])


def test_play_saves_a_record_that_replays(capsys, tmp_path):
    path = tmp_path / "m.json"
    code, out, err = run(capsys, "play", "toy", "--seat", "0=bot:random", "--seat", "1=bot:random", "--seed", "3",
                         "--record", str(path))
    assert code == 0, err
    assert "winner" in out and str(path) in out
    record = json.loads(path.read_text())
    assert record["game"] == "toy" and record["seed"] == 3 and record["steps"]
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "verified" in out


def test_replay_reports_where_a_tampered_record_diverges(capsys, tmp_path):
    game = get_game("toy")
    record, _, _ = play_match(game, {}, 5, [RandomAgent(), RandomAgent()])
    i = next(k for k, s in enumerate(record.steps) if s.action["type"] == "step")
    record.steps[i].events[0]["roll"] = 7 if record.steps[i].events[0]["roll"] != 7 else 1
    path = record.save(tmp_path / "bad.json")
    code, _, err = run(capsys, "replay", str(path), "--quiet")
    assert code == 1
    assert f"step {i}" in err


def test_simulate_reports_rates_and_intervals(capsys):
    code, out, err = run(capsys, "simulate", "toy", "-n", "12", "--jobs", "1", "--json",
                         "--seat", "0=bot:random", "--seat", "1=bot:random")
    assert code == 0, err
    s = json.loads(out)
    assert s["completed"] == 12 and not s["errors"]
    total = sum(e["wins"] for e in s["per_entrant"]) + s["draws"]
    assert total == 12
    for e in s["per_entrant"]:
        lo, hi = e["ci95"]
        assert 0 <= lo <= e["win_rate"] <= hi <= 1


@pytest.mark.parametrize(
    "argv, words",
    [
        (("play", "nosuchgame"), ["unknown game", "allowed"]),
        (("play", "toy", "--scenario", "moon"), ["scenario", "allowed", "standard"]),
        (("play", "toy", "--seat", "5=bot:random"), ["out of range", "0..1"]),
        (("play", "toy", "--seat", "0=robot"), ["bot:NAME"]),
        (("play", "toy", "--option", "nosuch=1"), ["unknown option", "allowed"]),
        (("play", "toy", "--players", "3"), ["fixed player count"]),
    ],
)
def test_bad_arguments_name_the_value_and_the_allowed_ones(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2
    for w in words:
        assert w in err


def test_demo_plays_every_game_and_saves_replayable_records(capsys, tmp_path):
    from deltav.games import load_all

    code, out, err = run(capsys, "demo", "--records", str(tmp_path))
    assert code == 0, err
    files = sorted(tmp_path.glob("*.json"))
    assert {f.name.split("-")[0] for f in files} == set(load_all())
    for f in files:
        assert f.name in out.replace("\n", "")
        replay(MatchRecord.load(f))
