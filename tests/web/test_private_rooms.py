"""Private rooms in the lobby (issue 32, item 8), in Chromium against a real ``deltav serve``: "Set up a game"
makes a private room unless "Open to anyone" is ticked; a private room is listed nowhere and its page says so
while it waits (its code or invite link is the way in); an open one is listed in the lobby, where another person
finds it and takes the free seat. Screenshots: build/screenshots/private-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect


def set_up_a_duel(live_server, page, public: bool) -> str:
    """The lobby's set-up dialog: tactical duel, you against a person; returns the new room's code."""
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.click("[data-game=tactical] .setup")
    page.select_option("#setup-scenario", "duel")
    page.select_option("#seat-1", "human")
    box = page.locator("#setup-public")
    assert not box.is_checked()  # private by default
    if public:
        box.check()
    page.click("text=Create the game")
    page.wait_for_url(re.compile(r"/play/[A-Z]{5}"))
    return page.url.rsplit("/", 1)[1][:5]


def test_a_game_set_up_is_private_unless_opened_to_anyone(live_server, new_page, screenshots):
    page = new_page()
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.click("[data-game=tactical] .setup")
    page.locator("#setup-public").scroll_into_view_if_needed()
    page.screenshot(path=str(screenshots / "private-setup.png"))
    assert "only the people you give its code or invite link" in page.locator("#setup-public-doc").inner_text()

    private = set_up_a_duel(live_server, page, public=False)
    # the waiting box shows before its words are filled in: wait for the words (under load they came later)
    expect(page.locator(".waiting")).to_contain_text("the room is private", timeout=20_000)
    waiting = page.locator(".waiting").inner_text()
    assert private in waiting, waiting
    page.screenshot(path=str(screenshots / "private-waiting.png"))
    assert live_server.room(private)["public"] is False
    for status in ("open", "live", "finished"):
        assert private not in {r["code"] for r in live_server.http("GET", f"/rooms?status={status}")[1]}

    listed = set_up_a_duel(live_server, page, public=True)
    expect(page.locator(".waiting")).to_contain_text("listed in the lobby", timeout=20_000)
    # another person finds it in the lobby and takes the free seat
    other = new_page()
    other.goto(live_server.base + "/")
    other.wait_for_selector(f".room-open a[href='/play/{listed}']", timeout=20_000)
    assert other.locator(f".room-open a[href='/play/{private}']").count() == 0
    other.screenshot(path=str(screenshots / "private-lobby-lists.png"))
    other.click(f".room-open a[href='/play/{listed}']")
    other.wait_for_selector("html[data-ready=true]", timeout=20_000)
    other.wait_for_function("window.deltavShell.state().seat === 1", timeout=20_000)
    info = live_server.room(listed)
    assert info["status"] == "live" and all(s["taken"] for s in info["seats"])
    assert not page.errors and not other.errors, (page.errors, other.errors)
