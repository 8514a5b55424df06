"""Accessibility and small screens, in real Chromium against a real ``deltav serve``: axe-core (from
web/node_modules, injected by the test) finds no violation on the lobby, the set-up dialog, the match page,
its help overlay and the replay page; the lobby and the match page fit a 375x812 phone without overlapping or
sideways scrolling; reduced motion is honoured."""

from __future__ import annotations

import time

from tests.web.conftest import axe_violations


def no_sideways_scroll(page) -> None:
    w = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert w[0] <= w[1], f"the page scrolls sideways: {w}"


def overlaps(page, selectors: list[str]) -> list[str]:
    """Pairs of visible boxes among ``selectors`` that overlap."""
    boxes = []
    for sel in selectors:
        loc = page.locator(sel)
        for i in range(loc.count()):
            b = loc.nth(i).bounding_box()
            if b and b["width"] > 0 and b["height"] > 0 and loc.nth(i).is_visible():
                boxes.append((f"{sel}[{i}]", b))
    out = []
    for i, (na, a) in enumerate(boxes):
        for nb, b in boxes[i + 1:]:
            if a["x"] < b["x"] + b["width"] - 1 and b["x"] < a["x"] + a["width"] - 1 and \
               a["y"] < b["y"] + b["height"] - 1 and b["y"] < a["y"] + a["height"] - 1:
                out.append(f"{na} / {nb}")
    return out


def test_axe_on_the_lobby_and_the_setup_dialog(live_server, new_page):
    page = new_page()
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_selector(".room-finished")
    assert axe_violations(page) == []
    page.click("[data-game=tactical] .setup")
    page.wait_for_selector(".dialog-setup")
    page.locator(".advanced-box summary").click()
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    assert page.locator(".dialog-setup").count() == 0
    assert page.errors == []


def test_axe_on_the_match_page_help_and_replay(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:easy"], seed=9, max_turns=1)
    page = new_page()
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function("window.deltavShell.state().toAct || window.deltavShell.state().status === 'over'")
    assert axe_violations(page) == []
    page.locator(".phase-banner").click()
    page.keyboard.press("?")
    page.wait_for_selector(".dialog-help")
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    finished = live_server.create("mining", ["bot:random", "bot:random"], seed=9, max_turns=2)
    for _ in range(100):
        if live_server.room(finished.code)["status"] == "finished":
            break
        time.sleep(0.1)
    page.goto(f"{live_server.base}/replay/{finished.code}?match=1&screen=generic")
    page.wait_for_selector("html[data-ready=true]")
    assert axe_violations(page) == []
    assert page.errors == []


def test_a_phone(live_server, new_page, screenshots):
    page = new_page(375, 812, mobile=True)
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    no_sideways_scroll(page)
    assert overlaps(page, [".game-card", ".join", ".recent"]) == []
    page.screenshot(path=str(screenshots / "lobby-mobile.png"))
    page.locator("[data-game=mining] .play-now").tap()
    page.wait_for_url("**/play/*")
    code = page.url.rstrip("/").split("/")[-1]
    page.goto(f"{live_server.base}/play/{code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_function("window.deltavShell.state().toAct")
    page.wait_for_selector(".generic-action:not([disabled])")
    no_sideways_scroll(page)
    assert overlaps(page, [".match-title", ".room-code", ".tools", ".seats", ".phase-banner"]) == []
    page.screenshot(path=str(screenshots / "match-mobile.png"))
    step = page.evaluate("window.deltavShell.state().step")
    page.locator(".generic-action").first.tap()
    page.wait_for_function(f"window.deltavShell.state().step > {step}")
    assert page.errors == []


def test_reduced_motion_stops_the_spinner(live_server, new_page):
    """The reconnect overlay's spinner turns when motion is welcome and stands still under reduced motion."""
    room = live_server.create("mining", ["human", "bot:easy"], seed=9)
    durations = []
    for reduced in (False, True):
        page = new_page(reduced_motion=reduced)
        live_server.open_seat(page, room)
        durations.append(page.evaluate("""() => {
            const s = document.createElement('div');
            s.className = 'spinner';
            document.body.append(s);
            const d = getComputedStyle(s).animationDuration;
            s.remove();
            return d;
        }"""))
    assert durations[0] == "0.9s" and durations[1] in ("1e-05s", "0.01ms"), durations


def test_axe_on_the_guide_the_resign_dialog_the_what_happened_card_and_the_result(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:easy"], seed=19, max_turns=1)
    page = new_page(intro=True)
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic&acknowledge=1")
    page.wait_for_selector("html[data-ready=true]")
    page.wait_for_selector(".guide-card, .dialog-briefing", timeout=20_000)
    if page.locator(".dialog-briefing").count():
        assert axe_violations(page) == []
        page.keyboard.press("Enter")
    page.wait_for_selector(".guide-card")
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    page.wait_for_selector(".tools .resign", state="visible")
    page.click(".tools .resign")
    page.wait_for_selector(".dialog-resign")
    assert axe_violations(page) == []
    page.keyboard.press("Escape")
    for _ in range(60):  # play on: a what-happened card comes after the bot's move, the result at the end
        page.wait_for_function("(s => s.toAct || s.acknowledging || s.status === 'over')(window.deltavShell.state())",
                               timeout=20_000)
        state = page.evaluate("window.deltavShell.state()")
        if state["acknowledging"]:
            assert axe_violations(page) == []
            page.keyboard.press("Enter")
            continue
        if state["status"] == "over":
            break
        page.wait_for_selector(".generic-action:not([disabled])")
        page.keyboard.press("1")
        page.wait_for_function(f"window.deltavShell.state().step > {state['step']}")
    page.wait_for_selector(".dialog-result", timeout=20_000)
    assert axe_violations(page) == []
    assert page.errors == []
