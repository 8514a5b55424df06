"""The first-game guide's frame (shell/guide.ts) on the generic screen's small guide, in real Chromium against a
real ``deltav serve``: offered by itself on a title's first match in this browser (once), its progress, the ring
round each step's anchor, Next / Back, an interactive step that waits for the player's move (made with the game's
own key while the guide is up), Esc skipping it, and the help overlay showing it again; on a 375x812 phone by
taps."""

from __future__ import annotations

from tests.web.conftest import wait_step_change


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def open_generic(live_server, page, room) -> None:
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")


def past_the_briefing(page) -> None:
    """The scenario briefing comes first on a seat's first visit (test_shell_briefing.py has it): begin."""
    page.wait_for_selector(".guide-card, .dialog-briefing", timeout=20_000)
    if page.locator(".dialog-briefing").count():
        page.keyboard.press("Enter")


def ring_holds(page, selector: str) -> bool:
    return page.evaluate("""(sel) => {
        const ring = document.querySelector('.guide-ring').getBoundingClientRect();
        const a = document.querySelector(sel).getBoundingClientRect();
        return !document.querySelector('.guide-ring').hidden && ring.left <= a.left && ring.top <= a.top
            && ring.right >= a.right - 1 && ring.bottom >= Math.min(a.bottom, innerHeight) - 1; }""", selector)


def test_the_guide_is_offered_once_and_replayed_from_the_help(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=51)
    page = new_page(intro=True)
    open_generic(live_server, page, room)
    past_the_briefing(page)
    card = page.locator(".guide-card")
    card.wait_for()
    assert "1 of 5" in card.inner_text() and "Your possible actions" in card.inner_text()
    assert ring_holds(page, ".generic-actions")
    page.screenshot(path=str(screenshots / "shell-guide-1.png"))
    page.click(".guide-next")
    assert "2 of 5" in card.inner_text() and ring_holds(page, ".generic-view")
    page.click(".guide-card button:has-text('Back')")
    assert "1 of 5" in card.inner_text()
    page.click(".guide-next")
    page.click(".guide-next")
    # the interactive step waits for a move, which the game's own key makes while the card is up
    assert "3 of 5" in card.inner_text()
    assert page.locator(".guide-next").is_disabled() and "Do it to go on" in page.locator(".guide-next").inner_text()
    page.screenshot(path=str(screenshots / "shell-guide-interactive.png"))
    page.wait_for_selector(".generic-action:not([disabled])", timeout=20_000)
    step = shell(page)["step"]
    page.locator(".phase-banner").click()
    page.keyboard.press("1")
    wait_step_change(page, step)
    page.wait_for_function("window.deltavShell.state().guide === 3")
    assert "4 of 5" in card.inner_text() and ring_holds(page, ".side")
    # Esc skips it; it is not offered again in this browser
    page.keyboard.press("Escape")
    assert card.count() == 0 and page.locator(".guide-ring").count() == 0
    assert "mining" in page.evaluate("JSON.parse(localStorage.getItem('deltav.guides'))")
    page.reload()
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_timeout(800)
    assert page.locator(".guide-card").count() == 0, "offered once per title"
    # the help shows it again, from its first step; Skip closes it
    page.locator(".phase-banner").click()
    page.keyboard.press("?")
    page.click(".dialog-help .help-guide")
    card.wait_for()
    assert "1 of 5" in card.inner_text() and page.locator(".overlay").is_hidden()
    page.click(".guide-skip")
    assert card.count() == 0
    assert page.errors == []


def test_the_guide_on_a_phone(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=52)
    page = new_page(375, 812, mobile=True, intro=True)
    open_generic(live_server, page, room)
    past_the_briefing(page)
    card = page.locator(".guide-card")
    card.wait_for()
    box = card.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["y"] + box["height"] <= 812
    page.screenshot(path=str(screenshots / "shell-guide-phone.png"))
    page.locator(".guide-next").tap()
    page.locator(".guide-next").tap()
    assert "3 of 5" in card.inner_text()
    page.locator(".generic-action").first.tap()
    page.wait_for_function("window.deltavShell.state().guide === 3")
    page.locator(".guide-next").tap()
    page.locator(".guide-next").tap()  # Done
    assert card.count() == 0
    assert page.errors == []
