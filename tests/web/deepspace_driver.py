"""A person at the Deep Space Combat page, for the browser tests: it reads only what the page shows (which orders
panel is up, ``data-kind``; the buttons; where the screen draws a ship or a hex, ``window.deltavDeepspace``) and
gives each order the way a person would: by keyboard, by mouse (drags and clicks) or by taps on a phone. It never
builds an action itself. The "what happened" card is read and continued the same way.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.web.conftest import banner_whole

ROOT = "[data-testid=ds-root]"
ORDERS = "[data-testid=ds-orders]"
CARD = ".ack-layer .ack-card"
#: engine words a player must never read: ship ids, 0-based players, axial coordinates, key=value, snake_case
ENGINE_WORDS = re.compile(r"\bs\d+-\d+\b|\bplayer \d\b|\bside \d\b|\bd-p\d|\bplot-p\d|\w=\S|\b[a-z]+_[a-z]+\b")


def seq(page) -> str:
    return page.get_attribute(ROOT, "data-seq") or ""


def wait_update(page, before: str, timeout: float = 20_000) -> None:
    page.wait_for_function(f"document.querySelector('{ROOT}')?.dataset.seq !== '{before}'", timeout=timeout)


def kind(page) -> str:
    """The orders panel's kind: "design" (the designer is up), "place", "velocity", "fire", "done", "allocate",
    "destruct", "wait" or "over"."""
    return page.get_attribute(ORDERS, "data-kind") or "wait"


def over(page) -> bool:
    return page.evaluate("window.deltavShell?.state().status") == "over"


def press(page, locator, how: str) -> None:
    """A button pressed as ``how`` says: "keys" (focus and Enter), "mouse" (a click) or "taps" (a tap)."""
    if how == "keys":
        locator.focus(timeout=8000)
        page.keyboard.press("Enter")
    elif how == "taps":
        locator.tap(timeout=8000)
    else:
        locator.click(timeout=8000)


def point(page, xy, how: str) -> None:
    """A click or a tap at page coordinates."""
    if how == "taps":
        page.touchscreen.tap(xy[0], xy[1])
    else:
        page.mouse.click(xy[0], xy[1])


def continue_card(page, how: str, cards: list | None = None) -> bool:
    """Read and continue a "what happened" card if one is up; True if there was one."""
    card = page.locator(CARD)
    if not card.count():
        return False
    if cards is not None:
        cards.append([page.locator(f"{CARD} h2").inner_text(), *card.locator("li").all_inner_texts()])
    if how == "keys":
        page.keyboard.press("Enter")
    else:
        press(page, page.locator(".ack-continue"), how)
    page.wait_for_selector(".ack-layer", state="detached", timeout=10_000)
    return True


def orders_clear_of_card(page) -> None:
    """The ship card (bottom left) never covers the orders panel (top left), however many targets it lists."""
    page.wait_for_timeout(50)  # the card's resize observer runs after a frame
    boxes = page.evaluate("""(() => {
        const box = (sel) => { const e = document.querySelector(sel); if (!e || e.hidden) return null;
                               const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
        return [box("[data-testid=ds-orders]"), box("[data-testid=ds-card]")]; })()""")
    orders, card = boxes
    if orders and card:
        assert orders[1] <= card[0], f"the ship card (top {card[0]}) covers the orders panel (bottom {orders[1]})"


def design(page, rng: random.Random, how: str, name: str | None = None) -> None:
    """One design decision: adopt a ready-made fleet, commission the form's ship (named ``name``), or finish."""
    adopt = page.locator("[data-testid^=ds-adopt-]")
    commission = page.locator("[data-testid=ds-commission]")
    if page.locator("[data-testid=ds-finish-fleet]").is_enabled():
        press(page, page.locator("[data-testid=ds-finish-fleet]"), how)
    elif adopt.count() and name is None and rng.random() < 0.5:
        press(page, adopt.first, how)
    elif commission.is_enabled():
        if name is not None:
            field = page.locator("#ds-f-name")
            if how == "taps":
                field.tap()
            else:
                field.click()
            field.fill(name)
        press(page, commission, how)
    else:  # the form does not fit the levels left: a smaller ship
        free = int(re.search(r"levels left: (\d+)", page.inner_text("[data-testid=ds-designer]")).group(1))
        page.fill("#ds-f-size", str(free))
        press(page, commission, how)


def act_once(page, rng: random.Random, zone, how: str = "mouse", name: str | None = None) -> str:
    """Give the order the page is asking for, the way a person would; return the kind of step it was ("card"
    when a "what happened" card came up first: it is read and continued instead)."""
    if continue_card(page, how):
        return "card"
    try:
        return _act(page, rng, zone, how, name)
    except PlaywrightTimeout:
        # the card of the next decision came up between reading the page and pressing (it takes every click
        # until it is continued): a person continues it
        if continue_card(page, how):
            return "card"
        raise


def _act(page, rng: random.Random, zone, how: str, name: str | None) -> str:
    k = kind(page)
    before = seq(page)
    if k == "over":
        return k
    if k == "wait":
        with contextlib.suppress(PlaywrightTimeout):  # the opponent is slow: the caller loops
            wait_update(page, before, 30_000)
        return k
    if k == "design":
        design(page, rng, how, name)
    elif k == "place":
        if how == "keys":
            page.keyboard.press("]")
            page.keyboard.press("Enter")
        else:
            q, r, rad = zone
            dq = rng.randint(-rad, rad)
            dr = max(-rad, -dq - rad) if rng.random() < 0.5 else min(rad, -dq + rad)
            point(page, page.evaluate(f"window.deltavDeepspace.hex({q + dq}, {r + dr})"), how)
    elif k == "velocity":
        if page.locator("[data-testid=ds-withdraw]").count() and rng.random() < 0.1:
            press(page, page.locator("[data-testid=ds-withdraw]"), how)
        elif how == "keys":
            for _ in range(rng.randint(0, 2)):
                page.keyboard.press(str(rng.randint(1, 6)))
            page.keyboard.press("Enter")
        elif how == "taps":
            # a lit hex one step from the plotted destination, tapped
            plan = page.evaluate("window.deltavDeepspace.plan()")
            ship = page.evaluate("window.deltavDeepspace.origin()")
            if plan and ship:
                d = rng.choice([(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)])
                page.touchscreen.tap(*page.evaluate(
                    f"window.deltavDeepspace.hex({ship[0] + plan[0] + d[0]}, {ship[1] + plan[1] + d[1]})"))
            press(page, page.locator("[data-testid=ds-confirm-course]"), how)
        else:
            hx, hy = page.evaluate("window.deltavDeepspace.handle()")
            # drag the arrow's handle a hex or two in some direction (a hex is about zoom * 1.7 pixels)
            step = page.evaluate("(() => { const a = window.deltavDeepspace.hex(0, 0), b = window.deltavDeepspace.hex(0, 1);"
                                 " return Math.hypot(a[0] - b[0], a[1] - b[1]); })()")
            ang = rng.random() * 6.283
            dist = step * rng.choice([0, 1, 1.2, 2])
            page.mouse.move(hx, hy)
            page.mouse.down()
            page.mouse.move(hx + dist * 0.5 * math.cos(ang), hy + dist * 0.5 * math.sin(ang), steps=3)
            page.mouse.move(hx + dist * math.cos(ang), hy + dist * math.sin(ang), steps=3)
            page.mouse.up()
            page.click("[data-testid=ds-confirm-course]")
    elif k == "fire":
        orders_clear_of_card(page)
        targets = page.locator("[data-testid^=ds-target-]")
        if targets.count() == 0 or rng.random() < 0.1:
            if how == "keys":
                page.keyboard.press("0")
            else:
                press(page, page.locator("[data-testid=ds-hold]"), how)
        else:
            tid = targets.first.get_attribute("data-testid").removeprefix("ds-target-")
            if how == "keys":
                page.keyboard.press("Enter")  # the best target is focused first
            elif rng.random() < 0.5:
                point(page, page.evaluate(f"window.deltavDeepspace.ship({json.dumps(tid)})"), how)
            else:
                press(page, targets.first, how)
    elif k == "done":
        if how == "keys":
            page.keyboard.press("Enter")
        else:
            press(page, page.locator("[data-testid=ds-done]"), how)
    elif k == "allocate":
        if how == "keys":
            page.keyboard.press("a")
        elif rng.random() < 0.5:
            press(page, page.locator("[data-testid=ds-auto]"), how)
        else:
            press(page, page.locator("[data-testid^=ds-place-]").first, how)
    elif k == "destruct":
        if how == "keys":
            page.keyboard.press("n")
        else:
            press(page, page.locator("[data-testid=ds-stand-down]"), how)
    elif k == "column":
        press(page, page.locator(f"{ORDERS} .ds-row button").first, how)
    else:
        raise AssertionError(f"unknown orders panel {k!r}")
    with contextlib.suppress(PlaywrightTimeout):  # a card may come up first: the caller continues it
        wait_update(page, before, 20_000)
    return k


def no_engine_words(page) -> None:
    """Nothing the page shows (the panels, the dialogs, the log, the banner, the status line) is an engine id."""
    text = page.evaluate("document.body.innerText")
    found = ENGINE_WORDS.findall(text)
    assert not found, found


def shoot(page, screenshots, name: str) -> None:
    page.screenshot(path=str(screenshots / f"deepspace-{name}.png"))
    banner_whole(page)
