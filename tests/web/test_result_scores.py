"""The result dialog shows each game's own scores under the game's own name for them (mining points, Deep Space
Combat's campaign points), as the finished record holds them, in the game's match summary whose caption says how
they are counted; a game without scores (tactical) shows no scores table. Bot-only rooms played to the end,
watched. (Knight Hawks' victory points come in its match summary: tests/web/test_knighthawks_play.py.)"""

from __future__ import annotations

import time

import pytest

CASES = [
    ("mining", {"max_turns": 2}, "Points", "values of the tiles collected"),
    ("deepspace", {}, "Points", "hit points each fleet inflicted"),
]


def finished(live_server, game, options, seed=3):
    room = live_server.create(game, ["bot:random", "bot:random"], seed=seed, **options)
    t0 = time.time()
    while live_server.room(room.code)["status"] != "finished":
        assert time.time() - t0 < 90, f"{game} did not finish"
        time.sleep(0.2)
    return room


@pytest.mark.parametrize("game,options,title,help_words", CASES)
def test_the_result_dialog_shows_the_games_own_scores(live_server, new_page, screenshots, game, options, title,
                                                      help_words):
    room = finished(live_server, game, options)
    record = live_server.http("GET", f"/rooms/{room.code}/record?match=1")[1]
    scores = record["result"]["scores"]
    assert scores, record["result"]
    page = new_page()
    live_server.open_watch(page, room.code)
    page.wait_for_selector(".dialog-result")
    heads = page.locator(".result-scores tr:first-of-type th").all_inner_texts()
    assert heads[0] == "Player" and title in heads, heads
    column = heads.index(title) + 1
    cells = page.locator(f".result-scores tr td:nth-child({column})").all_inner_texts()
    shown = sorted(float(c.split(" ")[0]) for c in cells)  # "13 (15 − 2)": the points, then how they add up
    assert shown == sorted(float(x) for x in scores), (cells, scores)
    assert all("." not in c for c in cells)  # 364, not 364.0
    assert help_words in page.inner_text(".result-scores caption")
    page.screenshot(path=str(screenshots / f"result-{game}.png"))
    assert page.errors == [], page.errors


def test_no_scores_no_table(live_server, new_page):
    room = finished(live_server, "tactical", {"scenario": "duel", "turn_limit": 2})
    page = new_page()
    live_server.open_watch(page, room.code)
    page.wait_for_selector(".dialog-result")
    assert page.locator(".result-scores").count() == 0
