"""The turn timer in the shell's header, in real Chromium against a real ``deltav serve``: a room created with a
short ``clock`` shows the deciding seat a countdown to the server's deadline, turns it urgent in the last 10 s,
announces that once through an aria-live region, and starts again after the server's bot played the late move
(``on_timeout: "bot"``). A room without a clock shows none."""

from __future__ import annotations

import re

TURN = 20  # seconds: enough for a loaded machine to open the page before the last 10 s begin


def make_room(live_server, clock):
    body = {"game": "mining", "seats": ["human", "bot:easy"], "seed": 5, "name": "ann", "options": {"max_turns": 3}}
    if clock is not None:
        body["clock"] = clock
    status, out = live_server.http("POST", "/rooms", body)
    assert status == 201, out
    from tests.web.conftest import Room

    return Room(out["code"], out["seat"], out["token"], out)


def seconds(text: str) -> int:
    m = re.search(r"(\d+):(\d\d)", text)
    assert m, text
    return int(m.group(1)) * 60 + int(m.group(2))


def test_countdown_urgent_once_and_restarted_after_the_bot_moved_for_the_late_seat(live_server, new_page,
                                                                                     screenshots):
    room = make_room(live_server, {"turn_seconds": TURN, "on_timeout": "bot"})
    page = new_page()
    live_server.open_seat(page, room)
    page.evaluate("""() => { window.clockAlerts = []; const a = document.querySelector('.clock-alert');
        new MutationObserver(() => window.clockAlerts.push(a.textContent)).observe(a, {childList: true,
        characterData: true, subtree: true}); }""")
    page.wait_for_function("window.deltavShell.state().toAct", timeout=20_000)
    clock = page.locator(".turn-clock")
    clock.wait_for(state="visible")
    text = clock.inner_text()
    assert text.startswith("Your move:"), text
    assert 0 < seconds(text) <= TURN
    assert "urgent" not in (clock.get_attribute("class") or "")
    assert f"{TURN} s per move" in clock.get_attribute("title") and "a bot plays the move" in clock.get_attribute("title")
    page.screenshot(path=str(screenshots / "match-clock.png"), clip={"x": 0, "y": 0, "width": 1280, "height": 120})
    step = page.evaluate("window.deltavShell.state().step")
    page.wait_for_selector(".turn-clock.urgent", timeout=(TURN + 5) * 1000)
    assert seconds(clock.inner_text()) <= 10
    page.screenshot(path=str(screenshots / "match-clock-urgent.png"), clip={"x": 0, "y": 0, "width": 1280, "height": 120})
    # the ticking countdown is not read out; the warning is, once
    assert page.get_attribute(".turn-clock", "aria-live") == "off"
    page.wait_for_timeout(2500)
    alerts = page.evaluate("window.clockAlerts")
    assert len(alerts) == 1 and "seconds left for your move" in alerts[0] and "a bot plays the move" in alerts[0], alerts
    # the deadline passes: the server's bot moves for this seat, and the next decision gets a fresh clock
    page.wait_for_function(f"window.deltavShell.state().step > {step}", timeout=15_000)
    page.wait_for_function("window.deltavShell.state().toAct || window.deltavShell.state().status === 'over'",
                           timeout=20_000)
    if page.evaluate("window.deltavShell.state().status") == "playing":
        page.wait_for_function("!document.querySelector('.turn-clock').classList.contains('urgent')", timeout=5000)
        assert seconds(clock.inner_text()) > 10
    assert not page.errors, page.errors


def test_no_clock_no_countdown(live_server, new_page):
    room = make_room(live_server, None)
    page = new_page()
    live_server.open_seat(page, room)
    page.wait_for_function("window.deltavShell.state().toAct", timeout=20_000)
    assert page.locator(".turn-clock").is_hidden()


def test_the_countdown_fits_a_phone_header(live_server, new_page, screenshots):
    room = make_room(live_server, {"turn_seconds": 300, "on_timeout": "forfeit"})
    page = new_page(width=375, height=812, mobile=True)
    live_server.open_seat(page, room)
    page.wait_for_function("window.deltavShell.state().toAct", timeout=20_000)
    clock = page.locator(".turn-clock")
    clock.wait_for(state="visible")
    assert "the game is forfeited" in clock.get_attribute("title")
    assert seconds(clock.inner_text()) > 250
    w = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert w[0] <= w[1], w
    box = clock.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375, box
    page.screenshot(path=str(screenshots / "match-clock-mobile.png"), clip={"x": 0, "y": 0, "width": 375, "height": 200})
