"""The deltav command end to end (on the test-only toy game, so it does not depend on any real game)."""

from __future__ import annotations

import itertools
import json
import re

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


@pytest.mark.parametrize("game", ["tactical", "mining", "deepspace", "knighthawks"])
def test_simulate_reports_the_average_length_in_game_turns(capsys, game):
    code, out, err = run(capsys, "simulate", game, "-n", "2", "--jobs", "1", "--json", "--seed", "4")
    assert code == 0, err
    s = json.loads(out)
    assert s["completed"] == 2
    assert isinstance(s["avg_turns"], float) and 1 <= s["avg_turns"] <= s["avg_decisions"]


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


def _toy_record(tmp_path, seed=5):
    record, _, _ = play_match(get_game("toy"), {}, seed, [RandomAgent(), RandomAgent()])
    return json.loads(json.dumps(record.to_json()))


def _write(tmp_path, data: bytes | str | dict):
    path = tmp_path / "r.json"
    if isinstance(data, dict):
        data = json.dumps(data)
    path.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    return path


def _bad_records(tmp_path):
    good = json.dumps(_toy_record(tmp_path))
    obj = _toy_record(tmp_path)
    yield "invalid utf-8", good.encode().replace(b'"random"', b'"\xff"', 1)
    yield "5000-digit number", good.replace('"seed": 5', '"seed": ' + "7" * 5000)
    yield "deep nesting", good.replace('"meta": {}', '"meta": ' + "[" * 50_000 + "]" * 50_000)
    yield "seats of the wrong type", {**obj, "seats": 3}
    yield "meta of the wrong type", {**obj, "meta": [1]}
    yield "seed true", {**obj, "seed": True}
    yield "returns altered", {**obj, "returns": [-x for x in obj["returns"]]}
    yield "markup in a seat name, wrong type elsewhere", {**obj, "seats": ["[/red]", "[bold]x"], "meta": 1}
    yield "markup in a diverging seat count", {**obj, "seats": ["[/red]"]}
    yield "NUL scenario", {**obj, "options": {**obj["options"], "scenario": "a\x00b"}}
    yield "lone surrogate scenario", good.replace('"standard"', '"\\ud800"')
    yield "long scenario", {**obj, "options": {**obj["options"], "scenario": "s" * 5000}}
    yield "markup scenario", {**obj, "options": {**obj["options"], "scenario": "[/bold]\n[red]"}}
    yield "not an object", "[]"
    yield "engine version", {**obj, "engine_version": "[/x]0.0.1"}
    yield "unknown game", {**obj, "game": "[/x]nosuch"}


def test_every_bad_record_is_a_one_line_error_never_a_traceback(capsys, tmp_path):
    for name, data in _bad_records(tmp_path):
        path = _write(tmp_path, data)
        code, out, err = run(capsys, "replay", str(path), "--quiet")
        assert code == 1, f"{name}: exit {code}"
        assert err.startswith("deltav: ") and err.count("\n") == 1, f"{name}: {err!r}"
        assert "Traceback" not in err and "verified" not in out, name


def test_replay_prints_seat_names_with_markup_as_written(capsys, tmp_path):
    obj = _toy_record(tmp_path)
    obj["seats"] = ["[/red]", "[bold]x[/bold]"]
    code, out, err = run(capsys, "replay", str(_write(tmp_path, obj)))
    assert code == 0, err
    assert "0=[/red], 1=[bold]x[/bold]" in out


def test_replay_refuses_another_engine_version_unless_told(capsys, tmp_path):
    obj = _toy_record(tmp_path)
    obj["engine_version"] = "0.0.1"
    path = _write(tmp_path, obj)
    code, _, err = run(capsys, "replay", str(path), "--quiet")
    assert code == 1 and "engine '0.0.1'" in err
    code, out, err = run(capsys, "replay", str(path), "--quiet", "--accept-version-mismatch")
    assert code == 0 and "verified" in out
    assert err.startswith("deltav: warning: recorded with engine '0.0.1'")


def _play_with_humans(capsys, monkeypatch, seats, seed=3):
    picks = itertools.cycle("3102")  # a varied, repeatable human (an out-of-range pick is asked again)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(picks))
    argv = ["play", "mining", "--seed", str(seed), "--log"]
    for s in seats:
        argv += ["--seat", s]
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return out


def _log_lines(out):
    return [line for line in out.splitlines() if line.startswith("  #")]


def _audiences(lines):
    """The seats (0-based, as text) of the private events among log lines: a mining secret look reads "Player N
    secretly sees ..." (only its looker is told)."""
    found = [re.search(r"Player (\d+) secretly sees", line) for line in lines]
    return [str(int(m.group(1)) - 1) for m in found if m]


def test_play_log_with_a_human_seat_shows_only_what_that_seat_may_see(capsys, monkeypatch):
    out = _play_with_humans(capsys, monkeypatch, ["0=human", "1=bot:random"])
    audiences = _audiences(_log_lines(out))
    assert audiences  # the human's own secret looks are shown...
    assert set(audiences) == {"0"}  # ...and the bot's are not


def test_play_log_with_only_bots_shows_every_event(capsys, monkeypatch):
    out = _play_with_humans(capsys, monkeypatch, ["0=bot:random", "1=bot:random"])
    assert set(_audiences(_log_lines(out))) == {"0", "1"}


def test_play_log_with_two_humans_shows_private_events_only_at_their_owners_turn(capsys, monkeypatch):
    out = _play_with_humans(capsys, monkeypatch, ["0=human", "1=human"])
    assert _audiences(_log_lines(out)) == []  # the shared log shows what both may see
    shown = set()
    heads = out.split("private events of player ")[1:]
    assert heads
    for block in heads:
        who = block.split(" ", 1)[0]
        body = block.split("\n", 1)[1].split("\n  [0]", 1)[0]
        audiences = _audiences(body.splitlines())
        assert audiences and set(audiences) == {who}
        shown.add(who)
    assert shown == {"0", "1"}


def test_review_prints_each_seats_decisions_in_words_and_as_json(capsys, tmp_path):
    path = tmp_path / "duel.json"
    code, _, err = run(capsys, "play", "tactical", "--scenario", "duel", "--seat", "0=bot:easy", "--seat",
                       "1=bot:normal", "--seed", "5", "--record", str(path))
    assert code == 0, err
    code, out, err = run(capsys, "review", str(path), "--budget", "rollouts=4")
    assert code == 0, err
    assert out.startswith("Review of tactical (seed 5): Player 1 (bot:easy) vs Player 2 (bot:normal)")
    assert "Player 1: " in out and "Player 2: " in out and "would play" in out and "Chance to win" in out
    assert "frigate" in out and '"type"' not in out  # the game's words, not action JSON
    code, out, err = run(capsys, "review", str(path), "--seat", "1", "--json", "--budget", "rollouts=4")
    assert code == 0, err
    review = json.loads(out)
    assert review["reviewed"] == [1] and {d["seat"] for d in review["decisions"]} == {1}
    code, again, _ = run(capsys, "review", str(path), "--seat", "1", "--json", "--budget", "rollouts=4")
    assert again == out  # the same record and budget give the same review


@pytest.mark.parametrize("args,message", [
    (["--seat", "2"], "no seat 2"),
    (["--budget", "rollouts=0"], "rollouts=0"),
    (["--budget", "speed=9"], "NAME=VALUE"),
])
def test_review_refuses_bad_arguments_in_one_line(capsys, tmp_path, args, message):
    path = tmp_path / "duel.json"
    run(capsys, "play", "tactical", "--scenario", "duel", "--seat", "0=bot:easy", "--seat", "1=bot:easy", "--seed", "2",
        "--record", str(path))
    code, out, err = run(capsys, "review", str(path), *args)
    assert code == 1 and message in err and not out


def test_review_of_a_file_that_is_not_a_record_says_so(capsys, tmp_path):
    path = tmp_path / "x.json"
    path.write_text("[1, 2")
    code, out, err = run(capsys, "review", str(path))
    assert code == 1 and "x.json" in err and not out
