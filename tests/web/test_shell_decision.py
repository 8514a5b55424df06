"""Input tied to its decision (COMMON spec 6; issue 27 Knight Hawks item 1), in real Chromium against a real
``deltav serve``, on the generic screen: a key queued while a new position was being drawn does not act on it; a
key held down since an older position does not repeat into the new one; a click on a position that a newer
snapshot replaced is refused in words and never sent; the "what happened" card takes every key and click until
Continue (Enter, Space, a click or a tap).

The page's animation frames are held back (``HOLD``, an init script wrapping ``requestAnimationFrame``) so a
snapshot can arrive without being drawn, as on a busy phone; the shell draws at most once per frame. (Waits while
frames are held poll on a timer: Playwright's default polling runs on animation frames.)"""

from __future__ import annotations

import json

from tests.web.conftest import wait_step_change

HOLD = """
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  window.__frames = { held: false, queue: [] };
  window.requestAnimationFrame = (cb) => {
    if (window.__frames.held) { window.__frames.queue.push(cb); return -1; }
    return raf(cb);
  };
  window.__release = () => {
    window.__frames.held = false;
    for (const cb of window.__frames.queue.splice(0)) cb(performance.now());
  };
})();
"""


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def newest_step(page) -> int:
    """The step of the newest snapshot received (drawn or not)."""
    return page.evaluate("window.deltavShell.connection().step")


def watch_submits(page) -> list[dict]:
    sent: list[dict] = []

    def on_socket(ws):
        ws.on("framesent", lambda payload: sent.append(json.loads(payload))
              if isinstance(payload, str) and '"submit"' in payload else None)

    page.on("websocket", on_socket)
    return sent


def open_generic(live_server, page, room, extra: str = "") -> None:
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic{extra}")
    page.wait_for_selector("html[data-ready=true]")


def my_turn(page) -> None:
    page.wait_for_selector(".generic-action:not([disabled])", timeout=20_000)


def test_a_key_queued_while_a_new_position_is_drawn_does_not_act_on_it(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:easy"], seed=41)
    page = new_page()
    page.add_init_script(HOLD)
    sent = watch_submits(page)
    open_generic(live_server, page, room)
    my_turn(page)
    step = shell(page)["step"]
    page.evaluate("window.__frames.held = true")
    page.keyboard.press("1")  # my move; the answers arrive but are not drawn yet
    page.wait_for_function(f"window.deltavShell.connection().step > {step}"
                           " && window.deltavShell.connection().snapshot.to_act", timeout=20_000, polling=100)
    assert shell(page)["step"] == step, "the new position is not drawn yet"
    # a key pressed now, while the page is busy, is handled only after the new position was drawn
    page.evaluate("window.__queued = new KeyboardEvent('keydown', {key: '1', code: 'Digit1', bubbles: true,"
                  " cancelable: true})")
    page.evaluate("window.__release()")
    page.wait_for_function("window.deltavShell.state().step === window.deltavShell.connection().step")
    drawn = shell(page)["step"]
    submits = len(sent)
    page.evaluate("document.body.dispatchEvent(window.__queued)")
    page.wait_for_timeout(600)
    assert shell(page)["step"] == drawn and newest_step(page) == drawn, "the queued key did not act"
    assert len(sent) == submits, "nothing was sent"
    # a key pressed on the drawn position acts
    my_turn(page)
    page.keyboard.press("1")
    wait_step_change(page, drawn)
    assert sent[-1]["step"] == drawn
    assert page.errors == []


def test_a_key_held_down_does_not_repeat_into_the_next_decision(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:easy"], seed=42)
    page = new_page()
    sent = watch_submits(page)
    open_generic(live_server, page, room)
    my_turn(page)
    step = shell(page)["step"]
    page.keyboard.down("1")  # held: acts once
    step = wait_step_change(page, step)
    my_turn(page)
    step = shell(page)["step"]
    submits = len(sent)
    page.keyboard.down("1")  # the key's auto-repeat, still held since the older position
    page.wait_for_timeout(600)
    assert shell(page)["step"] == step and len(sent) == submits, "the repeat did not act"
    page.keyboard.up("1")
    page.keyboard.press("1")
    wait_step_change(page, step)
    assert page.errors == []


def test_a_click_on_a_replaced_position_is_refused_in_words(live_server, new_page, screenshots):
    # the turn timer plays my move when I am late (a bot), so a newer position comes while I look at the old one
    status, out = live_server.http("POST", "/rooms", {
        "game": "mining", "seats": ["human", "bot:easy"], "seed": 43, "options": {},
        "clock": {"turn_seconds": 3, "on_timeout": "bot"}})
    assert status == 201, out
    page = new_page()
    page.add_init_script(HOLD)
    sent = watch_submits(page)
    page.goto(f"{live_server.base}/play/{out['code']}?screen=generic#token={out['token']}&seat={out['seat']}")
    page.wait_for_selector("html[data-ready=true]")
    my_turn(page)
    page.evaluate("window.__frames.held = true")
    step = shell(page)["step"]
    page.wait_for_function(f"window.deltavShell.connection().step > {step}", timeout=20_000, polling=100)
    assert shell(page)["step"] == step, "the old position is still on screen"
    submits = len(sent)
    page.locator(".generic-action").first.click()
    page.wait_for_function("document.querySelector('.status').textContent.includes('Not sent')", polling=100)
    assert "the game moved on" in page.locator(".status").inner_text()
    assert len(sent) == submits, "the stale click was never sent"
    page.screenshot(path=str(screenshots / "shell-stale-click.png"))
    page.evaluate("window.__release()")
    page.wait_for_function("window.deltavShell.state().step === window.deltavShell.connection().step")
    assert page.errors == []


def test_the_what_happened_card_takes_every_key_until_continue(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=44)
    page = new_page()
    sent = watch_submits(page)
    open_generic(live_server, page, room, "&acknowledge=1")

    def next_card() -> None:
        for _ in range(30):
            page.wait_for_function("window.deltavShell.state().toAct || window.deltavShell.state().acknowledging",
                                   timeout=20_000)
            if shell(page)["acknowledging"]:
                return
            my_turn(page)
            step = shell(page)["step"]
            page.keyboard.press("1")
            wait_step_change(page, step)
        raise AssertionError("no card came")

    next_card()
    card = page.locator(".ack-card")
    assert card.is_visible() and card.locator("li").count() >= 1
    assert page.evaluate("document.activeElement.classList.contains('ack-continue')")
    page.screenshot(path=str(screenshots / "shell-what-happened.png"))
    step, submits = shell(page)["step"], len(sent)
    # keys and clicks meant for the game wait: nothing acts, nothing opens
    page.keyboard.press("1")
    page.keyboard.press("l")
    page.keyboard.press("?")
    box = page.locator(".generic-action").first.bounding_box()
    page.mouse.click(box["x"] + 10, box["y"] + 10)
    page.wait_for_timeout(300)
    assert shell(page)["acknowledging"] and shell(page)["step"] == step and len(sent) == submits
    assert page.locator(".side").is_visible() and page.locator(".dialog-help").count() == 0
    # Enter continues; then the keys play the game again
    page.keyboard.press("Enter")
    assert not shell(page)["acknowledging"] and card.count() == 0
    page.keyboard.press("1")
    wait_step_change(page, step)
    # a click on Continue, then Space
    next_card()
    page.locator(".ack-continue").click()
    assert not shell(page)["acknowledging"]
    next_card()
    page.keyboard.press(" ")
    assert not shell(page)["acknowledging"]
    assert page.errors == []


def test_the_card_on_a_phone_is_tapped_away(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=45)
    page = new_page(375, 812, mobile=True)
    open_generic(live_server, page, room, "&acknowledge=1")
    for _ in range(30):
        page.wait_for_function("window.deltavShell.state().toAct || window.deltavShell.state().acknowledging",
                               timeout=20_000)
        if shell(page)["acknowledging"]:
            break
        my_turn(page)
        step = shell(page)["step"]
        page.locator(".generic-action").first.tap()
        wait_step_change(page, step)
    assert shell(page)["acknowledging"]
    page.screenshot(path=str(screenshots / "shell-what-happened-phone.png"))
    page.locator(".ack-continue").tap()
    assert not shell(page)["acknowledging"]
    assert page.errors == []
