"""The briefing before a seat's first decision: ``Game.briefing(options, seat, names)`` (the default from the
scenario's title and summary and the game's title; the toy's own content) and its shape (``check_briefing``)."""

from __future__ import annotations

import pytest

from deltav.core.protocol import Game, check_briefing, get_game


@pytest.mark.parametrize("gid", ["tactical", "mining", "deepspace", "knighthawks"])
def test_the_default_briefing_is_the_scenarios_title_and_summary(gid):
    game = get_game(gid)
    opts = game.resolve_options({})
    info = next(s for s in game.scenarios() if s.id == opts["scenario"])
    n = game.num_players(opts)
    default = Game.briefing.__func__(game, opts, 0, None)
    assert default["title"] == f"{game.title}: {info.title}" and default["objective"] == info.summary
    assert [s["name"] for s in default["sides"]] == [f"Player {p + 1}" for p in range(n)]
    assert [s["seat"] for s in default["sides"]] == list(range(n))
    check_briefing(game.briefing(opts, None, [f"N{p}" for p in range(n)]), n)


def test_a_scenario_the_game_does_not_list_is_briefed_by_the_games_title():
    game = get_game("toy")
    default = Game.briefing.__func__(game, {"scenario": "somewhere/else.toml"}, None, ["Ann", "Ben"])
    assert default == {"title": game.title, "objective": "", "wins": "", "notes": [],
                       "sides": [{"seat": 0, "name": "Ann", "forces": [], "goal": ""},
                                 {"seat": 1, "name": "Ben", "forces": [], "goal": ""}]}


def test_the_toys_own_briefing_speaks_to_the_seat():
    game = get_game("toy")
    opts = game.resolve_options({})
    mine = check_briefing(game.briefing(opts, 1, ["Ann", "Ben"]), 2)
    assert mine["title"] == "Toy race (test only): Standard"
    assert mine["objective"] == "A race to 10 with a secret card and a bid."
    assert mine["sides"][1] == {"seat": 1, "name": "Ben", "forces": ["one secret card", "a purse of 2 for the bid"],
                                "goal": "reach 10 first"}
    assert mine["notes"] == ["You are Ben: bid high to move first."]
    assert game.briefing(opts, None, None)["notes"] == []


@pytest.mark.parametrize("bad,where", [
    ([], "exactly title, objective, sides, wins and notes"),
    ({"title": "t", "objective": "o", "sides": [], "wins": "w"}, "exactly title"),
    ({"title": 1, "objective": "o", "sides": [], "wins": "w", "notes": []}, "briefing.title"),
    ({"title": "t", "objective": "o", "sides": [], "wins": None, "notes": []}, "briefing.wins"),
    ({"title": "t", "objective": "o", "sides": [], "wins": "w", "notes": []}, "briefing.sides"),
    ({"title": "t", "objective": "o", "wins": "w", "notes": [],
      "sides": [{"seat": 1, "name": "a", "forces": [], "goal": ""}, {"seat": 1, "name": "b", "forces": [], "goal": ""}]},
     "briefing.sides[0]"),
    ({"title": "t", "objective": "o", "wins": "w", "notes": [],
      "sides": [{"seat": 0, "name": "a", "forces": "ships", "goal": ""}, {"seat": 1, "name": "b", "forces": [], "goal": ""}]},
     "briefing.sides[0]"),
    ({"title": "t", "objective": "o", "wins": "w", "notes": "n",
      "sides": [{"seat": 0, "name": "a", "forces": [], "goal": ""}, {"seat": 1, "name": "b", "forces": [], "goal": ""}]},
     "briefing.notes"),
])
def test_check_briefing_names_the_bad_part(bad, where):
    with pytest.raises(ValueError, match=where.replace("[", r"\[").replace("]", r"\]")):
        check_briefing(bad, 2)
