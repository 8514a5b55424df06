"""The shell in a real Chromium against a real ``deltav serve``: the lobby's one-click game against a bot, the
generic screen's actions submitted by click and by keyboard, a reload that reconnects to the same seat.
Screenshots go to build/screenshots/ (lobby.png, match-generic.png...)."""

from __future__ import annotations

from tests.web.conftest import wait_step_change


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def test_lobby_play_now_starts_a_game_against_a_bot(live_server, new_page, screenshots):
    page = new_page()
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    cards = page.locator(".game-card")
    assert cards.count() == 4
    assert {cards.nth(i).get_attribute("data-game") for i in range(4)} == {"tactical", "mining", "deepspace", "knighthawks"}
    page.screenshot(path=str(screenshots / "lobby.png"))
    page.click("[data-game=mining] .play-now")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("html[data-ready=true]")
    code = page.url.rstrip("/").split("/")[-1]
    assert len(code) == 5
    room = live_server.room(code)
    assert room["game"] == "mining" and [s["kind"] for s in room["seats"]] == ["human", "bot"]
    assert room["seats"][1]["spec"] == "bot:normal"
    # the seat's token is kept under the room code, so a reload reconnects to it
    key = page.evaluate(f"JSON.parse(localStorage.getItem('deltav.seat.{code}'))")
    assert key["seat"] == 0 and len(key["token"]) > 20
    page.wait_for_selector(".generic-action, .mn-root")  # the generic screen, or mining's own once registered
    assert shell(page)["screen"] in ("generic", "mining")
    page.wait_for_function("window.deltavShell.state().step >= 0")
    # back in the lobby, the match is among my recent matches and links back to my seat
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    assert page.locator(f".recent a[href='/play/{code}']").count() == 1
    assert page.errors == []


def test_an_action_by_click_and_by_keyboard(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=7)
    page = new_page()
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic")  # the token is in localStorage now
    page.wait_for_selector(".generic-action:not([disabled])")
    assert "token" not in page.url
    s0 = shell(page)
    assert s0["seat"] == 0 and s0["screen"] == "generic" and s0["link"] == "open"
    page.screenshot(path=str(screenshots / "match-generic.png"))
    # a long list has a filter: words narrow it, and the number keys pick among what is shown
    assert page.locator(".generic-filter").is_visible()
    total = page.locator(".generic-action").count()
    page.fill(".generic-filter", "r3 c4")
    texts = page.locator(".generic-text").all_inner_texts()
    assert 1 <= len(texts) < total and all("r3 c4" in t for t in texts), texts
    page.fill(".generic-filter", "")
    assert page.locator(".generic-action").count() == total
    page.locator(".generic-action").first.click()
    step = wait_step_change(page, s0["step"])
    page.wait_for_function(f"document.querySelectorAll('.log-text').length > {s0['log']}")
    assert any(t.startswith("player 0") for t in page.locator(".log-text").all_inner_texts()), "the log shows my move"
    assert page.locator("#narrator").get_attribute("aria-live") == "polite"
    page.wait_for_function("document.querySelector('#narrator').textContent.includes('player')")
    # the bot moves, then it is my turn again: the keyboard picks the second action
    page.wait_for_selector(".generic-action:not([disabled])")
    step = shell(page)["step"]
    page.keyboard.press("2")
    wait_step_change(page, step)
    assert page.errors == []


def test_a_reload_reconnects_to_the_same_seat(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:easy"], seed=11)
    page = new_page()
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic")
    page.wait_for_selector(".generic-action:not([disabled])")
    s0 = shell(page)
    page.locator(".generic-action").first.click()
    wait_step_change(page, s0["step"])
    page.wait_for_selector(".generic-action:not([disabled])")
    before = shell(page)
    page.reload()
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_selector(".generic-action:not([disabled])")
    after = shell(page)
    assert after["seat"] == 0 and after["step"] == before["step"] and after["link"] == "open"
    assert live_server.room(room.code)["seats"][0]["connected"] is True
    page.keyboard.press("1")
    wait_step_change(page, after["step"])
    assert page.errors == []


def test_a_game_of_bots_set_up_in_the_lobby_is_watched(live_server, new_page, screenshots):
    page = new_page()
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.click("[data-game=mining] .setup")
    page.wait_for_selector(".dialog-setup")
    page.locator("#seat-0").select_option("bot:easy")
    page.locator(".advanced-box summary").click()  # the random bot is an advanced one
    page.locator("#seat-1").select_option("bot:random")
    page.fill("[data-option=max_turns]", "2")
    page.screenshot(path=str(screenshots / "lobby-setup-bots.png"))
    page.click(".dialog-setup button[type=submit]")
    page.wait_for_url("**/watch/*")
    page.wait_for_selector("html[data-ready=true]")
    code = page.url.rstrip("/").split("/")[-1]
    room = live_server.room(code)
    assert [s["spec"] for s in room["seats"]] == ["bot:easy", "bot:random"] and room["options"]["max_turns"] == 2
    page.wait_for_selector(".dialog-result", timeout=30_000)
    assert shell(page)["seat"] is None
    assert page.locator(".chat-form").is_hidden() and "only players write" in page.locator(".chat").inner_text()
    assert page.errors == []
