"""The match summary: ``Game.match_summary(state, events, names)`` (the default: turns played and decisions per
seat; the toy's own table and statistic), its shape (``check_summary``), and the snapshot's ``summary``: null
while the match is played, computed once when it is over (by its rules or an ending), made again with new
names, and the default with a note when a game's own summary fails."""

from __future__ import annotations

import pytest

from deltav.core.protocol import Game, MatchEvents, check_summary, get_game
from deltav.core.rng import Rng
from deltav.core.session import Session


def walk(s: Session, steps: int = 10_000, seed: int = 0) -> None:
    rng = Rng(seed)
    while s.step < steps and not s.is_over():
        for p in s.deciding():
            s.submit(p, rng.choice(s.snapshot(p)["legal"])["action"])


def test_the_summary_is_null_while_played_then_made_once(monkeypatch):
    game = get_game("toy")
    s = Session(game, {}, 3, ["human", "human"], ["Ann", "Ben"])
    walk(s, 4)
    assert s.snapshot(None)["summary"] is None and s.summary() is None
    calls = []
    real = game.match_summary.__func__

    def counted(cls, state, events, names):
        calls.append(len(events))
        return real(cls, state, events, names)

    monkeypatch.setattr(game, "match_summary", classmethod(counted))
    walk(s)
    summary = s.snapshot(None)["summary"]
    assert s.snapshot(0)["summary"] == summary == s.snapshot_full()["summary"] and len(calls) == 1
    assert calls[0] == len(s.log_full(0))  # every event of the match
    moves = sum(1 for e in s.log_full(0) if e["event"]["type"] == "moved")
    assert summary == {
        "scores": {"title": "The race", "columns": ["Player", "Position", "Card"],
                   "rows": [["Ann", s.state.pos[0], s.state.cards[0]], ["Ben", s.state.pos[1], s.state.cards[1]]]},
        "stats": [{"label": "Turns played", "values": [s.state.steps] * 2},
                  {"label": "Decisions", "values": [sum(1 for x in s.record.steps if x.player == p) for p in (0, 1)]},
                  {"label": "Dice rolled", "values": [sum(1 for e in s.log_full(0) if e["event"]["type"] == "moved"
                                                          and e["event"]["player"] == p) for p in (0, 1)]}],
        "notes": ["a rolled 6 adds one step"]}
    assert sum(summary["stats"][2]["values"]) == moves
    s.set_names(["Cy", "Di"])
    assert s.snapshot(None)["summary"]["scores"]["rows"][0][0] == "Cy" and len(calls) == 2


def test_an_ended_match_has_its_summary():
    s = Session(get_game("toy"), {}, 3, ["human", "human"])
    walk(s, 5)
    s.end("resign", [1], "Player 2 resigned")
    summary = s.snapshot(None)["summary"]
    assert summary["scores"]["rows"][1][0] == "Player 2" and summary["stats"][0]["values"] == [s.state.steps] * 2


@pytest.mark.parametrize("gid", ["tactical", "mining", "deepspace", "knighthawks"])
def test_the_default_summary_of_a_game_is_turns_and_decisions(gid):
    game = get_game(gid)
    n = game.num_players(game.resolve_options({}))
    s = Session(game, {}, 1, ["human"] * n)
    walk(s, 30)
    if not s.is_over():  # random play may have ended it already
        s.end("resign", [0], "Player 1 resigned")
    events = MatchEvents((), [3] * n)
    default = Game.match_summary.__func__(game, s.state, events, [f"P{p}" for p in range(n)])
    assert default == {"scores": None, "stats": [{"label": "Turns played", "values": [s.state.turn_count()] * n},
                                                 {"label": "Decisions", "values": [3] * n}], "notes": []}
    check_summary(s.summary(), n)


def test_a_failing_game_summary_gives_way_to_the_default_with_a_note(monkeypatch):
    game = get_game("toy")

    def broken(cls, state, events, names):
        return {"scores": None, "stats": [{"label": "one value", "values": [1]}], "notes": []}

    monkeypatch.setattr(game, "match_summary", classmethod(broken))
    s = Session(game, {}, 3, ["human", "human"])
    walk(s)
    summary = s.snapshot(None)["summary"]
    assert summary["scores"] is None and summary["stats"][0]["label"] == "Turns played"
    assert summary["notes"] == ["the game's own summary failed (ValueError)"]


@pytest.mark.parametrize("bad,where", [
    (None, "exactly scores, stats and notes"),
    ({"scores": None, "stats": []}, "exactly scores, stats and notes"),
    ({"scores": {"title": "t", "columns": ["a"]}, "stats": [], "notes": []}, "summary.scores:"),
    ({"scores": {"title": 1, "columns": ["a"], "rows": []}, "stats": [], "notes": []}, "summary.scores.title"),
    ({"scores": {"title": "t", "columns": [1], "rows": []}, "stats": [], "notes": []}, "summary.scores.columns"),
    ({"scores": {"title": "t", "columns": ["a"], "rows": [[1, 2]]}, "stats": [], "notes": []}, "summary.scores.rows"),
    ({"scores": {"title": "t", "columns": ["a"], "rows": [[{}]]}, "stats": [], "notes": []}, "summary.scores.rows"),
    ({"scores": None, "stats": [{"label": "x", "values": [1]}], "notes": []}, "summary.stats[0]"),
    ({"scores": None, "stats": [{"label": "x", "values": [1, 2], "more": 1}], "notes": []}, "summary.stats[0]"),
    ({"scores": None, "stats": {}, "notes": []}, "summary.stats"),
    ({"scores": None, "stats": [], "notes": [3]}, "summary.notes"),
])
def test_check_summary_names_the_bad_part(bad, where):
    with pytest.raises(ValueError, match=where.replace("[", r"\[").replace("]", r"\]")):
        check_summary(bad, 2)
    good = {"scores": {"title": "t", "columns": ["a", "b"], "rows": [["x", 1.5], [None, True]]},
            "stats": [{"label": "x", "values": [1, "two"]}], "notes": ["n"]}
    assert check_summary(good, 2) == good
