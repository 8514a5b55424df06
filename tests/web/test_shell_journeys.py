"""Whole matches played through the page as a person would, for the shell's sake (its set-up dialog, chips,
dialogs, result, replay and lobby), in real Chromium against a real ``deltav serve``: Delta V on a desktop by
mouse on its own screen, set up in the lobby with a turn timer; Delta-V tactical (a Duel with a 3-turn limit) on
a 375x812 phone by taps only and on a desktop by keyboard, each to its result and its replay; Delta V on a phone
by taps on the generic screen. Screenshots: build/screenshots/journey-*.png."""

from __future__ import annotations

import time

from tests.web.conftest import wait_step_change
from tests.web.mining_driver import screen_state, take_step


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def shoot(page, screenshots, name: str) -> None:
    page.screenshot(path=str(screenshots / f"journey-{name}.png"))


def in_view(page, selector: str) -> bool:
    return page.evaluate("""(sel) => { const d = document.querySelector(sel); const r = d.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
            && d.scrollHeight <= d.clientHeight + 1; }""", selector)


def replay_and_views(page, screenshots, name: str, seat_name: str) -> None:
    """From the result dialog: Replay, then the View choice (everyone by default, then one player's eyes)."""
    page.locator(".dialog-result a", has_text="Replay").click()
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("html[data-ready=true]")
    assert page.evaluate("window.deltavReplay.state().view") == "full"
    assert page.locator("#replay-view option").first.inner_text() == "Everyone"
    page.keyboard.press("End")
    page.wait_for_function("window.deltavReplay.state().index === window.deltavReplay.state().positions - 1")
    shoot(page, screenshots, f"{name}-replay-end")
    page.select_option("#replay-view", label=seat_name)
    page.wait_for_function("window.deltavReplay.state().view === '0'")
    page.wait_for_function("window.deltavReplay.state().index === window.deltavReplay.state().positions - 1")
    assert "view=0" in page.url
    shoot(page, screenshots, f"{name}-replay-seat")


def test_mining_on_a_desktop_by_mouse_from_the_lobby(live_server, new_page, screenshots):
    page = new_page()
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.fill("#player-name", "Ann")
    page.keyboard.press("Tab")
    page.click("[data-game=mining] .setup")
    page.wait_for_selector(".dialog-setup")
    page.select_option("#seat-1", "bot:easy")
    page.select_option("#setup-timer", "900")
    page.fill("[data-option=max_turns]", "6")
    shoot(page, screenshots, "mining-setup")
    page.click(".dialog-setup button[type=submit]")
    page.wait_for_url("**/play/*")
    page.wait_for_selector(".mn-root[data-phase]", timeout=15_000)
    page.wait_for_selector(".turn-clock:not([hidden])", timeout=15_000)
    assert page.locator(".seat .seat-name").all_inner_texts() == ["Ann", "Easy bot"]
    shoot(page, screenshots, "mining-start")
    moves: list[int] = []
    t0 = time.time()
    while time.time() - t0 < 180:
        st = screen_state(page)
        if st and st["status"] == "over":
            break
        if st and st["toAct"]:
            take_step(page, moves)
            wait_step_change(page, st["step"], timeout=15_000)
        else:
            page.wait_for_timeout(100)
    page.wait_for_selector(".dialog-result", timeout=20_000)
    assert in_view(page, ".dialog-result")
    shoot(page, screenshots, "mining-result")
    code = page.url.rstrip("/").split("/")[-1]
    replay_and_views(page, screenshots, "mining", "Ann")
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    assert "you played" in page.locator(f".recent li:has(a[href='/play/{code}'])").inner_text()
    shoot(page, screenshots, "mining-lobby")
    assert page.errors == []


def tactical_to_the_end(page, act) -> None:
    """Act at every decision of this seat (``act()`` presses the panel's primary control) until the match ends; a
    second press when the screen asks for one (a crash warning)."""
    t0 = time.time()
    while time.time() - t0 < 240:
        s = shell(page)
        if s["status"] == "over":
            return
        if not s["toAct"] or s["acknowledging"]:
            page.wait_for_timeout(150)
            continue
        act()
        try:
            wait_step_change(page, s["step"], timeout=4000)
        except Exception:  # noqa: BLE001 - the screen asked for a second press
            continue
    raise AssertionError("the tactical match did not end")


def test_tactical_on_a_phone_by_taps(live_server, new_page, screenshots):
    page = new_page(375, 812, mobile=True)
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.locator("[data-game=tactical] .setup").tap()
    page.wait_for_selector(".dialog-setup")
    page.select_option("#setup-scenario", "duel")
    page.select_option("#seat-1", "bot:easy")
    page.fill("[data-option=turn_limit]", "3")
    shoot(page, screenshots, "tactical-phone-setup")
    page.locator(".dialog-setup button[type=submit]").tap()
    page.wait_for_url("**/play/*")
    page.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15_000)
    assert page.evaluate("document.documentElement.scrollWidth <= 375")
    shoot(page, screenshots, "tactical-phone-start")
    tactical_to_the_end(page, lambda: page.locator("button.tac-btn.primary").first.tap())
    page.wait_for_selector(".dialog-result", timeout=20_000)
    assert in_view(page, ".dialog-result")
    shoot(page, screenshots, "tactical-phone-result")
    page.locator(".dialog-result .result-look").tap()
    shoot(page, screenshots, "tactical-phone-over")
    page.locator(".tools .result-again").tap()
    page.locator(".dialog-result a", has_text="Replay").tap()
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("html[data-ready=true]")
    assert page.evaluate("document.documentElement.scrollWidth <= 375")
    page.locator(".replay-bar button[aria-label='To the end']").tap()
    page.wait_for_function("window.deltavReplay.state().index === window.deltavReplay.state().positions - 1")
    shoot(page, screenshots, "tactical-phone-replay")
    assert page.errors == []


def test_tactical_on_a_desktop_by_keyboard(live_server, new_page, screenshots):
    room = live_server.create("tactical", ["human", "bot:easy"], seed=81, name="Ann", scenario="duel", turn_limit=3)
    page = new_page()
    live_server.open_seat(page, room)
    page.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15_000)
    page.locator(".phase-banner").click()
    tactical_to_the_end(page, lambda: page.keyboard.press("Enter"))
    page.wait_for_selector(".dialog-result", timeout=20_000)
    shoot(page, screenshots, "tactical-desktop-result")
    replay_and_views(page, screenshots, "tactical", "Ann")
    assert page.errors == []


def test_mining_on_a_phone_by_taps_on_the_generic_screen(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=82, name="Ann", max_turns=3)
    page = new_page(375, 812, mobile=True)
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")
    shoot(page, screenshots, "generic-phone-start")
    for _ in range(150):
        page.wait_for_function("window.deltavShell.state().toAct || window.deltavShell.state().status === 'over'",
                               timeout=20_000)
        if shell(page)["status"] == "over":
            break
        step = shell(page)["step"]
        page.locator(".generic-action:not([disabled])").first.tap()
        wait_step_change(page, step)
    page.wait_for_selector(".dialog-result", timeout=20_000)
    assert in_view(page, ".dialog-result")
    shoot(page, screenshots, "generic-phone-result")
    page.locator(".dialog-result .result-look").tap()
    page.tap("button:has-text('Log')")
    shoot(page, screenshots, "generic-phone-log")
    assert page.errors == []
