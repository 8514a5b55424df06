"""Quick match in the lobby (issue 31), in Chromium against a real ``deltav serve``: two people (two browser
contexts) press Quick match on the same title and land in the same room as opponents, for every title; the offer
of a bot after the wait (the level chosen, straight into the bot match); bots in the empty seats of a 3-player
match when both people waiting agree; Cancel by keyboard; a phone's screen. This module runs its own server with
a short wait (``--quick-match-wait 2``); the last test meets on two processes (PostgreSQL + Redis).
Screenshots: build/screenshots/quick-*.png."""

from __future__ import annotations

import re

import pytest

from tests.server import services
from tests.server.helpers import ProcessServer, http
from tests.web.conftest import LiveServer, axe_violations

PLAY = re.compile(r"/play/[A-Z]{5}$")


@pytest.fixture(scope="module")
def quick_server(built_client):
    # the two people of each test connect from this one machine: no per-address limit (one queue entry per
    # address would keep the second one out; tests/server/test_quick_match.py tests that limit)
    server = LiveServer(built_client, "--grace", "30", "--no-client-limits", "--quick-match-wait", "2")
    try:
        yield server
    finally:
        server.stop()


def press_quick_match(server, page, game: str, scenario: str | None = None, players: int | None = None,
                      waits: bool = True) -> None:
    """The lobby's Quick match on a game's card, the scenario (and players) picked, "Find a match"; then (``waits``)
    the waiting state: nobody was in that queue, or the join would have paired at once."""
    page.goto(server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.click(f"[data-game={game}] .quick-match")
    page.wait_for_selector(".dialog-quick #quick-scenario")
    if scenario:
        page.select_option("#quick-scenario", scenario)
    if players:
        page.select_option("#quick-players", str(players))
    page.click(".quick-go")
    if waits:
        page.wait_for_selector(".quick-waiting")


def seat_of(page) -> int:
    page.wait_for_selector("html[data-ready=true]", timeout=20_000)
    page.wait_for_function("window.deltavShell?.state().seat !== undefined && window.deltavShell.state().seat !== null",
                           timeout=20_000)
    return page.evaluate("window.deltavShell.state().seat")


@pytest.mark.parametrize("game", ["tactical", "mining", "deepspace", "knighthawks"])
def test_two_people_press_quick_match_and_meet_in_one_room(quick_server, new_page, screenshots, game):
    ann, ben = new_page(), new_page()
    press_quick_match(quick_server, ann, game)
    assert "Looking for an opponent" in ann.locator(".quick-line").inner_text()
    ann.wait_for_function("document.querySelector('.quick-waited').textContent.includes('Waited 0:0')")
    if game == "tactical":
        ann.screenshot(path=str(screenshots / "quick-waiting.png"))
    press_quick_match(quick_server, ben, game, waits=False)  # ann waits: ben's join pairs them at once
    ann.wait_for_url(PLAY, timeout=20_000)
    ben.wait_for_url(PLAY, timeout=20_000)
    code = ann.url.rsplit("/", 1)[1]
    assert ben.url.rsplit("/", 1)[1] == code
    assert {seat_of(ann), seat_of(ben)} == {0, 1}  # opponents, not one seat twice
    room = quick_server.room(code)
    assert room["status"] == "live" and [s["spec"] for s in room["seats"]] == ["human", "human"]
    ann.screenshot(path=str(screenshots / f"quick-{game}-room.png"))
    assert not ann.errors and not ben.errors, (ann.errors, ben.errors)


def test_after_the_wait_a_bot_is_offered_and_played_at_the_chosen_level(quick_server, new_page, screenshots):
    page = new_page(width=375, height=812, mobile=True)
    press_quick_match(quick_server, page, "knighthawks", scenario="escort")
    page.screenshot(path=str(screenshots / "quick-phone-waiting.png"))
    page.wait_for_selector(".quick-offer:not([hidden])", timeout=20_000)
    assert "Play a bot now?" in page.locator(".quick-offer").inner_text()
    assert page.locator(".quick-fill").count() == 0  # two seats: no bots-in-empty-seats choice
    page.screenshot(path=str(screenshots / "quick-phone-offer.png"))
    assert axe_violations(page) == []
    # the buttons fit the phone's width and are big enough to touch
    box = page.locator(".quick-bot-now").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["height"] >= 40
    page.select_option("#quick-bot", "bot:easy")
    page.click(".quick-bot-now")
    page.wait_for_url(PLAY, timeout=20_000)
    code = page.url.rsplit("/", 1)[1]
    assert seat_of(page) == 0
    room = quick_server.room(code)
    assert [s["spec"] for s in room["seats"]] == ["human", "bot:easy"] and room["options"]["scenario"] == "escort"
    # the player left the queue: the next one to press Quick match for that scenario waits alone
    other = new_page()
    press_quick_match(quick_server, other, "knighthawks", scenario="escort")
    other.wait_for_selector(".quick-waited")
    assert "Looking for an opponent" in other.locator(".quick-line").inner_text()
    other.keyboard.press("Escape")
    assert not page.errors and not other.errors, (page.errors, other.errors)


def test_three_seats_start_with_a_bot_in_the_empty_seat_when_both_people_agree(quick_server, new_page, screenshots):
    ann, ben = new_page(), new_page()
    press_quick_match(quick_server, ann, "mining", scenario="variant-b", players=3)
    press_quick_match(quick_server, ben, "mining", scenario="variant-b", players=3)
    ben.wait_for_function("document.querySelector('.quick-line').textContent.includes('1 of the 2 others')")
    for page in (ann, ben):
        page.wait_for_selector(".quick-fill", timeout=20_000)
    ann.screenshot(path=str(screenshots / "quick-three-offer.png"))
    assert axe_violations(ann) == []  # the dialog with its offer: labels, roles, contrast
    ann.click(".quick-fill")
    ann.wait_for_selector(".quick-note:has-text('starts when everyone waiting agrees')")
    assert "/play/" not in ann.url  # ben has not agreed yet
    ben.select_option("#quick-bot", "bot:hard")
    ben.click(".quick-fill")
    ann.wait_for_url(PLAY, timeout=20_000)
    ben.wait_for_url(PLAY, timeout=20_000)
    code = ann.url.rsplit("/", 1)[1]
    assert ben.url.rsplit("/", 1)[1] == code and seat_of(ann) != seat_of(ben)
    room = quick_server.room(code)
    # the first to wait chose the level (ann: the default, normal)
    assert sorted(s["spec"] for s in room["seats"]) == ["bot:normal", "human", "human"]
    assert not ann.errors and not ben.errors, (ann.errors, ben.errors)


def test_cancel_by_keyboard_leaves_the_queue(quick_server, new_page):
    page = new_page()
    page.goto(quick_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.focus("[data-game=deepspace] .quick-match")
    page.keyboard.press("Enter")
    page.wait_for_selector(".dialog-quick #quick-scenario")
    assert page.evaluate("document.activeElement.id") == "quick-scenario"
    page.select_option("#quick-scenario", "skirmish")
    page.focus(".quick-go")
    page.keyboard.press("Enter")
    page.wait_for_selector(".quick-waiting")
    assert page.evaluate("document.activeElement.textContent") == "Cancel"
    page.keyboard.press("Enter")
    page.wait_for_selector(".dialog-quick", state="detached")
    assert page.evaluate("document.activeElement.classList.contains('quick-match')")  # focus back on the button
    # nobody is left in that queue: the next person's join (which pairs at once) finds nobody and waits alone
    other = new_page()
    press_quick_match(quick_server, other, "deepspace", scenario="skirmish")
    assert "Looking for an opponent" in other.locator(".quick-line").inner_text()
    other.click(".quick-cancel")
    assert not page.errors and not other.errors, (page.errors, other.errors)


@services.required_or_skipped()
def test_two_people_on_two_processes_meet_in_every_title(built_client, new_page, screenshots):
    """Two real ``deltav serve`` processes on one PostgreSQL and one Redis: ann's lobby is on process A, ben's on
    B; they meet in one room of each title, the seat on the process that does not own the room sent to its owner."""
    pg, redis = services.Postgres(), services.Redis()
    servers: list[ProcessServer] = []
    try:
        db = pg.new_database("web_quick")
        for _ in range(2):
            servers.append(ProcessServer(db, "--bus", redis.url, "--lease-seconds", "3", "--bot-workers", "0",
                                         "--no-client-limits", "--web-dir", str(built_client)))
        a, b = servers
        for game in ("tactical", "mining", "deepspace", "knighthawks"):
            ann, ben = new_page(), new_page()
            press_quick_match(a, ann, game)
            press_quick_match(b, ben, game, waits=False)
            ann.wait_for_url(PLAY, timeout=30_000)
            ben.wait_for_url(PLAY, timeout=30_000)
            code = ann.url.rsplit("/", 1)[1]
            assert ben.url.rsplit("/", 1)[1] == code and ann.url.startswith(a.base) and ben.url.startswith(b.base)
            assert {seat_of(ann), seat_of(ben)} == {0, 1}
            status, room = http(a.base, "GET", f"/rooms/{code}")
            assert status == 200 and room["status"] == "live"
            if game == "tactical":
                ben.screenshot(path=str(screenshots / "quick-cluster-room.png"))
            assert not ann.errors and not ben.errors, (game, ann.errors, ben.errors)
            ann.context.close()
            ben.context.close()
    finally:
        for s in servers:
            s.stop()
        redis.stop()
        pg.stop()


def test_a_reload_of_the_lobby_keeps_the_place_in_the_queue(quick_server, new_page):
    ann, ben = new_page(), new_page()
    press_quick_match(quick_server, ann, "tactical", scenario="convoy")
    ann.reload()
    ann.wait_for_selector(".dialog-quick .quick-waiting", timeout=20_000)  # waiting again, in the same place
    press_quick_match(quick_server, ben, "tactical", scenario="convoy", waits=False)
    ann.wait_for_url(PLAY, timeout=20_000)
    ben.wait_for_url(PLAY, timeout=20_000)
    assert ann.url.rsplit("/", 1)[1] == ben.url.rsplit("/", 1)[1]
    assert not ann.errors and not ben.errors, (ann.errors, ben.errors)
