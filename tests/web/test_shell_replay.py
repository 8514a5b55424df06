"""The replay page's views (COMMON spec 3), in real Chromium against a real ``deltav serve``: a finished
fog-of-war tactical match (Escape, fog on, as by default) replays in everyone's view by default, so the ships of
both sides are on the board from step 0; "A spectator" shows what a spectator saw then (no ship yet: none was
detected), one player's view their own; the choice is kept in the page's address."""

from __future__ import annotations

import time


def ships(page) -> list[tuple[str, int]]:
    return page.evaluate("(window.deltavTactical.screen.snapshot().view.ships || []).map(s => [s.id, s.owner])")


def at_index(page, i: int) -> None:
    page.wait_for_function(f"window.deltavReplay.state().index === {i}")


def test_a_fog_of_war_match_replays_with_every_ship_from_step_0(live_server, new_page, screenshots):
    room = live_server.create("tactical", ["bot:random", "bot:random"], seed=93, scenario="escape", turn_limit=2)
    t0 = time.time()
    while live_server.room(room.code)["status"] != "finished":
        assert time.time() - t0 < 90, "the match did not finish"
        time.sleep(0.2)
    status, spectator0 = live_server.http("GET", f"/rooms/{room.code}/replay?match=1&step=0&view=spectator")
    assert status == 200 and spectator0["snapshot"]["view"]["ships"] == [], "fog: a spectator saw no ship at first"
    page = new_page()
    page.goto(f"{live_server.base}/replay/{room.code}?match=1")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null")
    at_index(page, 0)
    seen = ships(page)
    assert {owner for _, owner in seen} == {0, 1} and len(seen) == 5, seen
    assert page.locator("#replay-view").input_value() == "full"
    page.screenshot(path=str(screenshots / "shell-replay-full.png"))
    # a spectator's eyes: nothing detected yet at step 0
    page.select_option("#replay-view", "spectator")
    page.wait_for_function("window.deltavReplay.state().view === 'spectator'")
    at_index(page, 0)
    page.wait_for_function("window.deltavTactical.screen.snapshot().view.ships.length === 0")
    assert "view=spectator" in page.url
    page.screenshot(path=str(screenshots / "shell-replay-spectator.png"))
    # one player's own view: its own ships at least
    page.select_option("#replay-view", "0")
    page.wait_for_function("window.deltavReplay.state().view === '0'")
    at_index(page, 0)
    page.wait_for_function("window.deltavTactical.screen.snapshot().view.ships.some(s => s.owner === 0)")
    # the address keeps the choice
    page.reload()
    page.wait_for_selector("html[data-ready=true]")
    assert page.locator("#replay-view").input_value() == "0"
    page.select_option("#replay-view", "full")
    page.wait_for_function("window.deltavTactical.screen.snapshot().view.ships.length === 5")
    assert "view=" not in page.url
    page.keyboard.press("End")
    page.wait_for_function("window.deltavReplay.state().index === window.deltavReplay.state().positions - 1")
    page.screenshot(path=str(screenshots / "shell-replay-full-end.png"))
    assert page.errors == []
