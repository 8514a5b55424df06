"""The scenario briefing (COMMON spec 5) in real Chromium against a real ``deltav serve``: before a seat's first
decision of a match the briefing of ``GET /rooms/{code}/briefing`` comes as a dialog (the seat's own side first,
"Begin" with Enter; no key reaches the game under it), once per match and seat in this browser; the help overlay
shows it again; on a 375x812 phone it is tapped away. Then, on a title's first match, the first-game guide."""

from __future__ import annotations


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def test_the_briefing_comes_once_before_the_first_decision(live_server, new_page, screenshots):
    room = live_server.create("tactical", ["human", "bot:easy"], seed=91, name="Ann", scenario="duel")
    page = new_page(intro=True)
    live_server.open_seat(page, room)
    dialog = page.locator(".dialog-briefing")
    dialog.wait_for(timeout=20_000)
    status, brief = live_server.http("GET", f"/rooms/{room.code}/briefing?match=1&seat=0")
    assert status == 200
    assert brief["title"] in dialog.inner_text() and brief["objective"] in dialog.inner_text()
    sides = dialog.locator(".briefing-sides li")
    assert sides.count() == 2 and sides.first.locator(".side-name").inner_text().startswith("You")
    assert "Easy bot" in sides.nth(1).inner_text()
    assert page.evaluate("document.activeElement.classList.contains('briefing-begin')")
    page.screenshot(path=str(screenshots / "shell-briefing.png"))
    # under the dialog no key reaches the game
    step = shell(page)["step"]
    page.keyboard.press("1")
    page.keyboard.press("l")
    assert shell(page)["step"] == step and page.locator(".side").is_visible()
    page.keyboard.press("Enter")  # Begin
    assert page.locator(".overlay").is_hidden()
    assert dialog.count() == 0
    # once per match and seat in this browser
    page.reload()
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_timeout(800)
    assert page.locator(".dialog-briefing").count() == 0
    # the help shows it again
    page.locator(".phase-banner").click()
    page.keyboard.press("?")
    page.click(".dialog-help .help-briefing")
    dialog.wait_for()
    assert brief["objective"] in dialog.inner_text()
    page.keyboard.press("Escape")
    assert page.locator(".overlay").is_hidden()
    assert page.errors == []


def test_the_briefing_then_the_guide_on_a_phone(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=92, name="Ann")
    page = new_page(375, 812, mobile=True, intro=True)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic#token={room.token}&seat={room.seat}")
    page.locator(".dialog-briefing").wait_for(timeout=20_000)
    assert page.evaluate("""(() => { const r = document.querySelector('.dialog-briefing').getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; })()""")
    page.screenshot(path=str(screenshots / "shell-briefing-phone.png"))
    page.locator(".briefing-begin").tap()
    page.locator(".guide-card").wait_for()  # the generic screen's guide follows on a first match
    assert "1 of 5" in page.locator(".guide-card").inner_text()
    page.locator(".guide-skip").tap()
    assert page.locator(".guide-card").count() == 0
    assert page.errors == []
