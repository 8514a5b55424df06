"""The Deep Space Combat defects of issue 27, each shown in real Chromium against a real ``deltav serve``: the
design name a player types is kept; during design every prompt follows the design; the size levels are agreed in
setup; the damage dialog leaves your ships in view and destroyed ships stay drawn as wrecks; one naming of
players and ships, no per-step design lines; a 375x812 phone shows the fleets box and the "?" button whole.
Screenshots: build/screenshots/deepspace-defect-*.png."""

from __future__ import annotations

import random

from tests.web.deepspace_driver import (
    CARD,
    ORDERS,
    act_once,
    continue_card,
    kind,
    no_engine_words,
    over,
    shoot,
)

STATUS = "div.status[role=status]"


def _zone(live_server, scenario: str, seat: int, **options) -> list[int]:
    query = "&".join(f"{k}={v}" for k, v in {"scenario": scenario, **options}.items())
    status, board = live_server.http("GET", f"/games/deepspace/board?{query}")
    assert status == 200, board
    return board["scenario"]["players"][seat]["zone"]


def _commission(page, name: str, size: int = 2) -> None:
    page.fill("#ds-f-name", name)
    page.fill("#ds-f-size", str(size))
    page.click("[data-testid=ds-commission]")


def test_the_design_name_a_player_types_is_kept(live_server, new_page, screenshots):
    page = new_page(1280, 800)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=4, scenario="design-duel", round_limit=2)
    live_server.open_seat(page, room)
    page.wait_for_selector("[data-testid=ds-designer]")
    _commission(page, "Lancer")
    designer = "[data-testid=ds-designer]"
    page.wait_for_function(f"document.querySelector('{designer}')?.innerText.includes('2 of 4 size levels used')",
                           timeout=20_000)
    _commission(page, "Picket Mk 2")
    page.wait_for_function("!document.querySelector('[data-testid=ds-finish-fleet]')?.disabled", timeout=20_000)
    fleet = page.inner_text(designer)
    assert "Lancer" in fleet and "Picket Mk 2" in fleet and "Design 1" not in fleet, fleet
    shoot(page, screenshots, "defect-design-names")
    page.click("[data-testid=ds-finish-fleet]")
    page.wait_for_function(f"document.querySelector('{ORDERS}')?.dataset.kind === 'place'", timeout=20_000)
    assert "ship 1 (Lancer)" in page.inner_text(ORDERS)
    assert not page.errors, page.errors


def test_during_design_every_prompt_follows_the_design(live_server, new_page, screenshots):
    page = new_page(1280, 800)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=5, scenario="design-duel", round_limit=2)
    live_server.open_seat(page, room)
    page.wait_for_selector("[data-testid=ds-designer]")
    said: list[str] = []

    def check() -> None:
        said.append(page.inner_text(STATUS))
        orders = page.locator(ORDERS)
        if orders.is_visible():
            text = orders.inner_text()
            assert "deployment" not in text.lower() and "Confirm" not in text, text
        assert "choice is in" not in said[-1], said[-1]
        assert "Design your fleet" in page.inner_text(".phase-banner")

    check()
    for name in ("Lancer", "Lancer"):
        before = page.inner_text(designer := "[data-testid=ds-designer]")
        _commission(page, name)
        page.wait_for_function(f"document.querySelector('{designer}')?.innerText !== {before!r}", timeout=20_000)
        page.wait_for_timeout(300)  # the queue's last step accepted
        check()
    page.wait_for_function("!document.querySelector('[data-testid=ds-finish-fleet]')?.disabled", timeout=20_000)
    check()
    shoot(page, screenshots, "defect-design-prompts")
    assert any("Ship commissioned" in s for s in said), said
    page.click("[data-testid=ds-finish-fleet]")
    page.wait_for_function(f"document.querySelector('{ORDERS}')?.dataset.kind === 'place'", timeout=20_000)
    assert "choice is in" not in page.inner_text(STATUS)
    assert not page.errors, page.errors


def test_the_size_levels_are_agreed_in_setup(live_server, new_page, screenshots):
    page = new_page(1280, 800)
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.click("[data-game=deepspace] .setup")
    page.wait_for_selector(".dialog-setup")
    page.select_option("#setup-scenario", "design-duel")
    page.select_option("#seat-1", "bot:easy")
    doc = page.inner_text(".dialog-setup")
    assert "size levels" in doc.lower() and "need not be equal" in doc
    # a bad agreement is refused in words and creates nothing
    page.fill("#opt-size_levels", "6,3,2")
    page.click(".dialog-setup button[type=submit]")
    page.wait_for_function("document.querySelector('.dialog-setup')?.innerText.includes('size_levels')", timeout=10_000)
    assert "3 numbers for the scenario's 2 sides" in page.inner_text(".dialog-setup")
    assert "/play/" not in page.url
    page.errors.clear()  # the refused request, expected
    page.fill("#opt-size_levels", "6,3")
    page.click(".dialog-setup button[type=submit]")
    page.wait_for_url("**/play/**", timeout=15_000)
    page.wait_for_selector("[data-testid=ds-designer]", timeout=15_000)
    assert "6 size levels" in page.inner_text("[data-testid=ds-designer]")
    assert "Design your fleet: 6 size levels" in page.inner_text(".phase-banner")
    fleets = page.inner_text("[data-testid=ds-fleets]")
    assert "6 size levels" in fleets and "3 size levels" in fleets, fleets
    shoot(page, screenshots, "defect-size-levels")
    assert not page.errors, page.errors


def _play_until(page, rng, zone, how, until, limit=400):
    for _ in range(limit):
        if until():
            return True
        if over(page):
            return until()
        if continue_card(page, how):
            continue
        act_once(page, rng, zone, how)
    return until()


def _mine_in_view(page, dialog: str) -> list[str]:
    """Own living ships drawn under the dialog or outside the plane (what a player could not see)."""
    return page.evaluate("""(sel) => {
        const d = document.querySelector(sel).getBoundingClientRect();
        const c = document.querySelector('[data-testid=ds-plane]').getBoundingClientRect();
        const you = window.deltavShell.state().seat;
        const snap = window.deltavShell.state();
        return window.deltavDeepspace.drawn().filter(x => !x.wreck).filter(x => {
            const s = window.deltavDeepspace.view().ships.find(y => y.id === x.id);
            return s && s.owner === you; }).filter(x => {
            const [px, py] = x.at;
            const under = px > d.left - 6 && px < d.right + 6 && py > d.top - 6 && py < d.bottom + 6;
            const out = px < c.left || px > c.right || py < c.top || py > c.bottom;
            return under || out; }).map(x => x.label); }""", dialog)


def _damage_dialogs(page, live_server, how, screenshots, name, scenario="skirmish"):
    """Play until three damage dialogs came up; at each, no ship of yours is under the dialog or off the plane."""
    zone = _zone(live_server, scenario, 0)
    rng = random.Random(7)
    dialogs = 0

    def allocating() -> bool:
        return kind(page) == "allocate" and not page.locator(CARD).count()

    while _play_until(page, rng, zone, how, allocating):
        page.wait_for_function("window.deltavDeepspace.still()", timeout=10_000)
        page.wait_for_timeout(100)
        hidden = _mine_in_view(page, "[data-testid=ds-allocate]")
        if dialogs == 0:
            shoot(page, screenshots, f"defect-allocate-{name}")
        assert not hidden, f"the damage dialog hides {hidden}"
        dialogs += 1
        act_once(page, rng, zone, how)
        if dialogs >= 3:
            break
    assert dialogs, "no damage to allocate"


def test_the_damage_dialog_leaves_your_ships_in_view(live_server, new_page, screenshots):
    page = new_page(1280, 800)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=3, scenario="duel", round_limit=6)
    live_server.open_seat(page, room)
    page.wait_for_selector(ORDERS)
    _damage_dialogs(page, live_server, "mouse", screenshots, "desktop", "duel")
    assert not page.errors, page.errors


def test_the_damage_dialog_on_a_phone_leaves_your_ships_in_view(live_server, new_page, screenshots):
    page = new_page(375, 812, mobile=True)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=3, scenario="skirmish", round_limit=6)
    live_server.open_seat(page, room)
    page.wait_for_selector(ORDERS)
    _damage_dialogs(page, live_server, "taps", screenshots, "phone")
    assert not page.errors, page.errors


def test_destroyed_ships_stay_drawn_as_wrecks(live_server, new_page, screenshots):
    """Every destroyed ship stays drawn, as a wreck where it died, in every later decision and at the end."""
    page = new_page(1280, 800)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=3, scenario="duel", round_limit=5)
    live_server.open_seat(page, room)
    page.wait_for_selector(ORDERS)
    zone = _zone(live_server, "duel", 0)
    rng = random.Random(7)
    checked = 0
    for _ in range(500):
        done = over(page)
        if done or (kind(page) in ("velocity", "fire", "destruct", "allocate") and not page.locator(CARD).count()):
            destroyed = page.evaluate("window.deltavDeepspace.view().ships.filter(s => s.status === 'destroyed')"
                                      ".map(s => s.id)")
            if destroyed:
                wrecks = page.evaluate("window.deltavDeepspace.drawn().filter(x => x.wreck).map(x => x.id)")
                assert set(destroyed) <= set(wrecks), (destroyed, wrecks)
                if not checked:
                    shoot(page, screenshots, "defect-wrecks")
                checked += 1
        if done:
            break
        if not continue_card(page, "keys"):
            act_once(page, rng, zone, "keys")
    assert checked >= 2, "no ship was destroyed before the end"
    assert not page.errors, page.errors


def test_one_naming_of_players_and_ships_and_one_line_per_design(live_server, new_page, screenshots):
    page = new_page(1280, 800)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=6, scenario="design-duel", round_limit=3,
                              name="Ann")
    live_server.open_seat(page, room)
    page.wait_for_selector("[data-testid=ds-designer]")
    zone = _zone(live_server, "design-duel", 0)
    rng = random.Random(2)
    seen = set()
    for _ in range(300):
        if over(page):
            break
        if continue_card(page, "mouse"):
            continue
        k = kind(page)
        if k not in seen and k != "wait":
            seen.add(k)
            no_engine_words(page)
            chips = page.inner_text(".seats")
            assert "Ann" in chips and "Player 1" not in chips, chips
            fleets = page.inner_text("[data-testid=ds-fleets]")
            assert "Ann (you)" in fleets and "Blue" not in fleets, fleets
        act_once(page, rng, zone, "mouse", name="Lancer" if k == "design" else None)
    assert over(page)
    log = page.locator(".log li").all_inner_texts()
    text = "\n".join(log)
    assert "designing:" not in text and "(to [" not in text, text
    assert text.count("Ann completed a design") == len(page.evaluate(
        "window.deltavDeepspace.view().ships.filter(s => s.owner === 0)"))
    assert "Ann's ship 1" in text or "your ship 1" in text.lower(), text
    assert "player 1" not in text and "Player 1" not in text, text
    shoot(page, screenshots, "defect-names")
    assert not page.errors, page.errors


def test_a_phone_shows_the_fleets_box_and_the_help_button_whole(live_server, new_page, screenshots):
    page = new_page(375, 812, mobile=True)
    room = live_server.create("deepspace", ["human", "bot:easy", "bot:easy"], seed=2, scenario="melee", round_limit=2,
                              name="Annabelle Longname")
    live_server.open_seat(page, room)
    page.wait_for_selector(ORDERS)
    zone = _zone(live_server, "melee", 0)
    rng = random.Random(4)
    seen = set()
    for _ in range(300):
        if over(page):
            break
        if continue_card(page, "taps"):
            continue
        k = kind(page)
        if k not in seen:
            seen.add(k)
            boxes = page.evaluate("""(() => { const r = (s) => { const e = document.querySelector(s);
                if (!e || e.hidden) return null; const b = e.getBoundingClientRect(); return [b.left, b.right]; };
                return { fleets: r('[data-testid=ds-fleets]'), help: r('.match-head button[aria-label="Help and controls"]'),
                         width: document.documentElement.scrollWidth, view: innerWidth }; })()""")
            assert boxes["width"] <= boxes["view"], boxes
            for part in ("fleets", "help"):
                if boxes[part]:
                    assert boxes[part][0] >= 0 and boxes[part][1] <= boxes["view"], (k, part, boxes)
            if k in ("place", "fire", "allocate"):
                shoot(page, screenshots, f"defect-phone-{k}")
        act_once(page, rng, zone, "taps")
    assert {"place", "velocity", "fire"} <= seen, seen
    assert not page.errors, page.errors
