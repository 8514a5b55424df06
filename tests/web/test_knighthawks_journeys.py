"""Whole Knight Hawks games played through the page as a person would, in real Chromium against a real
``deltav serve``, each from its start to the result and the replay: on a desktop by keyboard alone, on a desktop
by mouse (set up in the lobby, the guide followed to its end, the map clicked), and on a 375x812 phone by taps only.
The first-game guide and the scenario briefing come up as for a new player (``new_page(intro=True)``); every
"what happened" card is read and continued; the result dialog shows the game's victory points and the match's
numbers; the replay shows everyone's view; nothing the page shows at any stage is an engine id (names, not ids).
Screenshots: build/screenshots/knighthawks-journey-*.png."""

from __future__ import annotations

import contextlib
import re
import time

from tests.web.conftest import banner_whole, wait_step_change
from tests.web.test_knighthawks_play import khstate
from tests.web.test_knighthawks_screen import shot

ENGINE_WORDS = re.compile(r"\b[ab]\d+-[a-z_]+\b|\btrap-|\bplayer \d\b|\bside \d\b|\[-?\d+, ?-?\d+\]|\b[a-z]+_[a-z]+\b|\bw\d\b")


def no_engine_words(pg) -> None:
    """Nothing the page shows (the panel, the combat report, the log, the banner, the dialogs) is an engine id."""
    text = pg.evaluate("document.body.innerText")
    found = ENGINE_WORDS.findall(text)
    assert not found, found


def mounted(pg) -> None:
    pg.wait_for_function("window.deltavShell?.state().screen === 'knighthawks' && window.khScreen?.snap", timeout=20_000)


def intro(pg, how: str, name: str) -> None:
    """The scenario briefing (Begin) then the first-game guide, as a new player meets them: ``how`` is "keys"
    (Enter through every step), "mouse" (Next clicks) or "taps" (read the first step, then Skip)."""
    pg.wait_for_selector(".dialog-briefing, .guide-card", timeout=15_000)
    if pg.locator(".dialog-briefing").count():
        text = pg.locator(".dialog-briefing").inner_text()
        assert "What wins" in text and "Forces" in text, text
        shot(pg, f"journey-{name}-briefing")
        begin = pg.locator(".briefing-begin")
        if how == "keys":
            pg.keyboard.press("Enter")
        elif how == "taps":
            begin.tap()
        else:
            begin.click()
        pg.wait_for_selector(".guide-card", timeout=10_000)
    card = pg.locator(".guide-card")
    assert "Knight Hawks" in card.inner_text()
    shot(pg, f"journey-{name}-guide")
    if how == "taps":
        pg.locator(".guide-skip").tap()
    else:
        seen = 0
        while card.count():
            seen += 1
            if seen == 4:
                shot(pg, f"journey-{name}-guide-step")
            if how == "keys":
                pg.keyboard.press("Enter")  # Next has the focus
            else:
                pg.locator(".guide-next").click()
            pg.wait_for_timeout(60)
        assert seen >= 6
    pg.wait_for_selector(".guide-card", state="detached")


def continue_card(pg, how: str, cards: list[list[str]]) -> bool:
    """Read and continue a "what happened" card if one is up."""
    card = pg.locator(".ack-layer .ack-card")
    if not card.count():
        return False
    cards.append(card.locator("li").all_inner_texts())
    if how == "keys":
        pg.keyboard.press("Enter")
    elif how == "taps":
        pg.locator(".ack-continue").tap()
    else:
        pg.locator(".ack-continue").click()
    pg.wait_for_selector(".ack-layer", state="detached")
    return True


def act_by_keys(pg, st: dict) -> None:
    steps = pg.evaluate("window.khScreen.ctl.steps.map(c => c.entry.action.turn)")
    stage = st["stage"]
    if stage == "move" and steps:
        pg.keyboard.press({1: "1", 0: "2", -1: "3"}[0 if 0 in steps else steps[0]])
    elif stage == "move":
        plotted = pg.evaluate("Object.keys(window.khScreen.view.plots).length")
        speeds = pg.evaluate("""(() => { const s = window.khScreen; const c = s.ctl.courses.get(s.selected) ?? [];
            const sh = s.view.ships.find(x => x.id === s.selected); return [c.map(x => x.entry.action.speed), sh?.speed]; })()""")
        if "end_movement" in st["legal"] and (plotted or not speeds[0]):
            pg.keyboard.press("Enter")  # the other ships hold their course
        else:  # plot the selected ship at its speed: the digit, then a key per hex
            pg.keyboard.press(str(speeds[1] if speeds[1] in speeds[0] and speeds[1] <= 9 else min(speeds[0])))
    elif stage == "declare":
        pg.keyboard.press("Enter" if "assign" in st["legal"] else "f")
    elif stage == "intercept":
        pg.keyboard.press("0")
    else:
        pg.keyboard.press("Enter" if "repair" in st["legal"] else "f")


def act_by_pointer(pg, st: dict, tap: bool) -> None:
    """A click (or a tap) on what a person would press: the straight-on arrowed hex on the map while plotting,
    the held speed, End movement, the first target (on the map, when a desktop shows it), the first choice."""
    press = (lambda loc: loc.tap()) if tap else (lambda loc: loc.click())
    controls = pg.locator(".kh-controls")
    stage = st["stage"]
    if stage == "move" and st["plotting"]:
        pg.locator(".kh-map").scroll_into_view_if_needed()  # a phone's panel scrolls the map away
        aim = pg.evaluate("""(() => { const s = window.khScreen; const c = s.ctl.steps.find(x => x.entry.action.turn === 0)
            ?? s.ctl.steps[0]; const n = c.entry.note; const d = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]][n.facing];
            const h = s.ctl.steps.length === 1 ? n.hex : [n.hex[0] + d[0], n.hex[1] + d[1]];
            const r = s.map.canvas.getBoundingClientRect(); const [x, y] = s.map.screenOf(h);
            const [px, py] = [r.left + x, r.top + y];
            return x > 8 && y > 8 && x < r.width - 8 && y < r.height - 8 && py > 0 && py < innerHeight ? [px, py] : null; })()""")
        if aim:
            (pg.touchscreen.tap if tap else pg.mouse.click)(aim[0], aim[1])
        else:
            press(controls.locator("button.kh-btn.primary[data-legal], button[data-legal]").first)
    elif stage == "move":
        plotted = pg.evaluate("Object.keys(window.khScreen.view.plots).length")
        held = controls.locator(".kh-speeds button.primary[data-legal]")
        if not plotted and held.count():
            press(held.first)
        else:
            press(controls.locator("button.wide[data-legal]").first)
    elif stage == "declare" and "assign" in st["legal"]:
        target = pg.evaluate("""(() => { const s = window.khScreen;
            const m = s.overlay().markers.find(x => x.kind === 'declared');
            if (!m) return null; const r = s.map.canvas.getBoundingClientRect(); const [x, y] = s.map.screenOf(m.hex);
            return x > 8 && y > 8 && x < r.width - 8 && y < r.height - 8 ? [r.left + x, r.top + y] : null; })()""")
        if target and not tap:
            pg.mouse.click(target[0], target[1])
        else:
            press(controls.locator(".kh-weapons button[data-legal]").first)
    elif stage == "declare":
        press(controls.locator("button.wide[data-legal]").first)
    elif stage == "intercept":
        press(controls.locator("button[data-legal]").first)
    else:
        press(controls.locator("button.wide[data-legal]").last)


def play_to_the_end(pg, how: str, name: str) -> list[list[str]]:
    """This seat's every decision taken ``how`` until the game is over; the lines of the cards met."""
    cards: list[list[str]] = []
    shots: set[str] = set()
    t0 = time.time()
    while time.time() - t0 < 300:
        if continue_card(pg, how, cards):
            continue
        st = khstate(pg)
        if pg.locator(".ack-layer").count():  # the update that made it our turn brought a card with it
            continue
        if st["status"] == "over":
            return cards
        if not st["toAct"]:
            pg.wait_for_timeout(100)
            continue
        key = st["stage"] + ("-plot" if st["plotting"] else "")
        if key not in shots:
            shots.add(key)
            shot(pg, f"journey-{name}-{key}")
            no_engine_words(pg)
            banner_whole(pg)
        if how == "keys":
            pg.locator(".kh-map").focus() if not pg.evaluate("document.activeElement?.closest('.kh-root')") else None
            act_by_keys(pg, st)
        else:
            act_by_pointer(pg, st, tap=how == "taps")
        with contextlib.suppress(Exception):  # a warning asked for a second press, or a card came up first
            wait_step_change(pg, st["step"], timeout=5000)
    raise AssertionError("the game did not end")


def result_and_replay(pg, how: str, name: str) -> None:
    pg.wait_for_selector(".dialog-result", timeout=20_000)
    pg.locator(".result-more summary").click()  # the match in numbers: folded until asked for
    text = pg.locator(".dialog-result").inner_text()
    assert "Victory points" in text and "Shots fired" in text and "Objective" in text, text
    shot(pg, f"journey-{name}-result")
    no_engine_words(pg)
    replay = pg.locator(".dialog-result a", has_text="Replay")
    if how == "keys":
        replay.focus()
        pg.keyboard.press("Enter")
    elif how == "taps":
        replay.tap()
    else:
        replay.click()
    pg.wait_for_url("**/replay/**")
    pg.wait_for_selector("html[data-ready=true]")
    assert pg.evaluate("window.deltavReplay.state().view") == "full"
    if how == "taps":
        pg.locator(".replay-bar button[aria-label='To the end']").tap()
    elif how == "keys":
        pg.keyboard.press("End")
    else:
        pg.locator(".replay-bar button[aria-label='To the end']").click()
    pg.wait_for_function("window.deltavReplay.state().index === window.deltavReplay.state().positions - 1")
    pg.wait_for_function("window.khScreen?.snap?.status === 'over'")
    assert pg.evaluate("window.khScreen.snap.seat") is None
    # the combat report rebuilt from the log the replay's position carries (its newest entries), ending as it did
    assert pg.locator(".kh-report li").count() > 5
    shot(pg, f"journey-{name}-replay")
    no_engine_words(pg)


def test_a_whole_game_on_a_desktop_by_keyboard(live_server, new_page):
    room = live_server.create("knighthawks", ["human", "bot:normal"], seat=0, seed=11, name="Ann", turn_limit=3,
                              fleet0="destroyer,frigate", fleet1="heavy_cruiser")
    pg = new_page(intro=True)
    live_server.open_seat(pg, room)
    mounted(pg)
    intro(pg, "keys", "keys")
    cards = play_to_the_end(pg, "keys", "keys")
    assert cards and any(any("rolls" in line for line in c) for c in cards)
    result_and_replay(pg, "keys", "keys")
    assert pg.errors == []


def test_a_whole_game_on_a_desktop_by_mouse_from_the_lobby(live_server, new_page):
    pg = new_page(intro=True)
    pg.goto(live_server.base + "/")
    pg.wait_for_selector("html[data-ready=true]")
    pg.click("[data-game=knighthawks] .setup")
    pg.wait_for_selector(".dialog-setup")
    pg.select_option("#setup-scenario", "escort")
    pg.select_option("#seat-1", "bot:easy")
    pg.fill("#opt-turn_limit", "2")
    pg.click(".dialog-setup button[type=submit]")
    pg.wait_for_url("**/play/*")
    mounted(pg)
    intro(pg, "mouse", "mouse")
    play_to_the_end(pg, "mouse", "mouse")
    result_and_replay(pg, "mouse", "mouse")
    assert pg.errors == []


def test_a_whole_game_on_a_phone_by_taps(live_server, new_page):
    pg = new_page(375, 812, mobile=True, intro=True)
    pg.goto(live_server.base + "/")
    pg.wait_for_selector("html[data-ready=true]")
    pg.locator("[data-game=knighthawks] .setup").tap()
    pg.wait_for_selector(".dialog-setup")
    pg.locator("#opt-turn_limit").tap()
    pg.fill("#opt-turn_limit", "2")
    pg.fill("#opt-fleet1-heavy_cruiser", "0")
    pg.fill("#opt-fleet1-destroyer", "1")
    pg.fill("#opt-fleet1-fighter", "0")
    shot(pg, "journey-taps-setup")
    pg.locator(".dialog-setup button[type=submit]").tap()
    pg.wait_for_url("**/play/*")
    mounted(pg)
    assert pg.evaluate("document.documentElement.scrollWidth <= 375")
    intro(pg, "taps", "taps")
    play_to_the_end(pg, "taps", "taps")
    result_and_replay(pg, "taps", "taps")
    assert pg.evaluate("document.documentElement.scrollWidth <= 375")
    assert pg.errors == []
