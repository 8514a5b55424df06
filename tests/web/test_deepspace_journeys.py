"""Whole Deep Space Combat games played through the page as a person would, in real Chromium against a real
``deltav serve``, each from the start to the result and the replay: on a desktop by keyboard alone, on a desktop
by mouse (set up in the lobby with agreed, unequal size levels), and on a 375x812 phone by taps only. Each one
designs its fleet (a design-duel), deploys, plots, fires, allocates damage and declares until the battle ends.
The scenario briefing and the first-game guide come up as for a new player (``new_page(intro=True)``) and are
followed (its interactive steps wait for the player's orders); every "what happened" card is read and continued;
the result dialog shows the campaign points and the match's numbers; the replay shows everyone's view (the
designs and the plots); nothing the page shows at any stage is an engine id. Screenshots:
build/screenshots/deepspace-journey-*.png."""

from __future__ import annotations

import random
import time

from tests.web.conftest import SCREENSHOTS, banner_whole
from tests.web.deepspace_driver import (
    CARD,
    ORDERS,
    act_once,
    continue_card,
    kind,
    no_engine_words,
    over,
    press,
)


def shoot(page, name: str) -> None:
    page.screenshot(path=str(SCREENSHOTS / f"deepspace-{name}.png"))
    banner_whole(page)


def _zone(live_server, scenario: str, seat: int) -> list[int]:
    status, board = live_server.http("GET", f"/games/deepspace/board?scenario={scenario}")
    assert status == 200, board
    return board["scenario"]["players"][seat]["zone"]


def briefing(page, how: str, name: str) -> None:
    """The scenario briefing, read and begun."""
    page.wait_for_selector(".dialog-briefing", timeout=15_000)
    text = page.inner_text(".dialog-briefing")
    assert "What wins" in text and "Forces" in text and "A round:" in text, text
    no_engine_words(page)
    shoot(page, f"journey-{name}-briefing")
    if how == "keys":
        page.keyboard.press("Enter")
    else:
        press(page, page.locator(".briefing-begin"), how)
    page.wait_for_selector(".dialog-briefing", state="detached")


def guide_step(page, how: str, seen: list[str]) -> bool:
    """Move the first-game guide on when its step only asks to read (Next); False when there is no guide or its
    step waits for the player to do what it says."""
    card = page.locator(".guide-card")
    if not card.count():
        return False
    title = page.inner_text(".guide-card h2")
    if title not in seen:
        seen.append(title)
        if len(seen) in (1, 2, 4):
            shoot(page, f"journey-{how}-guide-{len(seen)}")
    if page.locator(".guide-card.guide-waiting").count():
        return False
    if how == "keys":
        page.locator(".guide-next").focus()
        page.keyboard.press("Enter")
    else:
        press(page, page.locator(".guide-next"), how)
    page.wait_for_timeout(60)
    return True


def play_to_the_end(page, live_server, how: str, name: str, scenario: str = "design-duel") -> tuple[list, list]:
    """This seat's every decision taken ``how`` until the battle is over, the guide followed on the way; the cards
    read and the guide's steps seen."""
    zone = _zone(live_server, scenario, 0)
    rng = random.Random(11)
    cards: list = []
    guide: list[str] = []
    shots: set[str] = set()
    t0 = time.time()
    while time.time() - t0 < 420:
        if over(page):
            return cards, guide
        if continue_card(page, how, cards):
            continue
        if how != "taps" and guide_step(page, how, guide):
            continue
        if how == "taps" and page.locator(".guide-card").count():
            guide.append(page.inner_text(".guide-card h2"))
            press(page, page.locator(".guide-skip"), how)  # a phone player reads the first step and skips
            continue
        k = kind(page)
        if k not in shots and k != "wait":
            shots.add(k)
            page.wait_for_timeout(150)
            shoot(page, f"journey-{name}-{k}")
            no_engine_words(page)
        act_once(page, rng, zone, how, name="Lancer" if k == "design" else None)
    raise AssertionError(f"the game did not end; seen {shots}")


def result_and_replay(page, how: str, name: str) -> None:
    page.wait_for_selector(".dialog-result", timeout=30_000)
    page.locator(".result-more summary").click()  # the match in numbers: folded until asked for
    text = page.inner_text(".dialog-result")
    assert "Campaign points" in text and "Shots fired" in text and "Hits" in text, text
    shoot(page, f"journey-{name}-result")
    no_engine_words(page)
    assert page.locator(ORDERS).get_attribute("data-kind") == "over"
    replay = page.locator(".dialog-result a", has_text="Replay")
    press(page, replay, how)
    page.wait_for_url("**/replay/**")
    page.wait_for_selector("html[data-ready=true]")
    assert page.evaluate("window.deltavReplay.state().view") == "full"
    # early on: every fleet's design (the designs of a finished match are no secret)
    fwd = page.locator(".replay-bar button[aria-label='One step forward']")
    designs = ""
    for _ in range(60):
        page.wait_for_selector(ORDERS)
        designs = page.inner_text(ORDERS)
        if "Lancer" in designs and "size 2" in designs:
            break
        if how == "keys":
            page.keyboard.press(".")
        else:
            press(page, fwd, how)
        page.wait_for_timeout(80)
    assert "Lancer" in designs, designs
    shoot(page, f"journey-{name}-replay-designs")
    no_engine_words(page)
    # a plot in progress: the orders every fleet gave so far
    plots = ""
    for _ in range(120):
        v = page.evaluate("window.deltavDeepspace.view()")
        if v["phase"] == "plot" and any((p.get("private") or {}).get("plans") for p in v["players"]):
            plots = page.inner_text(ORDERS)
            if "weapon 1" in plots:
                break
        if how == "keys":
            page.keyboard.press(".")
        else:
            press(page, fwd, how)
        page.wait_for_timeout(60)
    assert "Everyone's view" in plots and "weapon 1" in plots, plots
    shoot(page, f"journey-{name}-replay-plots")
    no_engine_words(page)
    if how == "keys":
        page.keyboard.press("End")
    else:
        press(page, page.locator(".replay-bar button[aria-label='To the end']"), how)
    page.wait_for_function("window.deltavReplay.state().index === window.deltavReplay.state().positions - 1")
    page.wait_for_function(f"document.querySelector('{ORDERS}')?.dataset.kind === 'over'")
    shoot(page, f"journey-{name}-replay-end")
    no_engine_words(page)


def test_a_whole_game_on_a_desktop_by_keyboard(live_server, new_page, screenshots):
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=21, scenario="design-duel", round_limit=3,
                              name="Ann")
    page = new_page(1280, 800, intro=True)
    live_server.open_seat(page, room)
    briefing(page, "keys", "keys")
    cards, guide = play_to_the_end(page, live_server, "keys", "keys")
    assert "Design your fleet" in guide and "Plot a course" in guide and "Fire" in guide, guide
    assert cards and all(c[0].startswith("Round ") for c in cards), cards
    result_and_replay(page, "keys", "keys")
    assert not page.errors, page.errors


def test_a_whole_game_on_a_desktop_by_mouse_from_the_lobby(live_server, new_page, screenshots):
    page = new_page(1280, 800, intro=True)
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.click("[data-game=deepspace] .setup")
    page.wait_for_selector(".dialog-setup")
    page.select_option("#setup-scenario", "design-duel")
    page.select_option("#seat-1", "bot:easy")
    page.fill("#opt-size_levels", "4,3")
    if not page.locator("#opt-round_limit").is_visible():
        page.click(".options-box summary")
    page.fill("#opt-round_limit", "3")
    page.click(".dialog-setup button[type=submit]")
    page.wait_for_url("**/play/**", timeout=15_000)
    briefing(page, "mouse", "mouse")
    cards, guide = play_to_the_end(page, live_server, "mouse", "mouse")
    assert "Seal the plot" in guide, guide
    result_and_replay(page, "mouse", "mouse")
    assert not page.errors, page.errors


def test_a_whole_game_on_a_phone_by_taps(live_server, new_page, screenshots):
    page = new_page(375, 812, mobile=True, intro=True)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=23, scenario="design-duel", round_limit=3)
    live_server.open_seat(page, room)
    briefing(page, "taps", "phone")
    cards, guide = play_to_the_end(page, live_server, "taps", "phone")
    assert guide and guide[0] == "Deep Space Combat", guide
    assert not page.locator(CARD).count()
    result_and_replay(page, "taps", "phone")
    assert not page.errors, page.errors
