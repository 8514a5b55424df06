"""The defects of issue 26 found in whole games, each reproduced through the page in a real Chromium against a real
``deltav serve`` (each test failed before its fix): a confirmation per action (a crashing course's second Enter,
the rules' surrender in its own dialog, in both orders), the result of a gun attack at the target and in the
panel, overload by touch and by mouse without a modifier, Confirm always in view (a phone, five ships at
1400x900), a click on a ship under a burn arrow, your colour on your chip and your ships, no second launch from a
ship and the reason in words, no engine words on the page (ids, coordinates, the header), burn-arrow keys clear
of ships and labels, three ships in a hex, the pad labelled as the map's arrows point, ordnance in the hover
readout, and Undo. Screenshots: build/screenshots/tactical-defect-*.png."""

from __future__ import annotations

import math
import re

from tests.web.test_tactical_phases import wait_phase
from tests.web.test_tactical_screen import ask_hint, play, settle, snap, status_text, wait_my_astrogation, wait_step

SQRT3 = math.sqrt(3)


def world(h) -> tuple[float, float]:
    """The engine's flat-top pixel of a hex (hex radius 1), as the client draws it."""
    return 1.5 * h[0], SQRT3 / 2 * h[0] + SQRT3 * h[1]


def screen_point(pg, wx: float, wy: float) -> tuple[float, float]:
    return tuple(pg.evaluate("""([wx, wy]) => { const v = window.deltavTactical.view; const [sx, sy] = v.camera.toScreen(wx, wy);
        const b = v.canvas.getBoundingClientRect(); return [b.left + sx, b.top + sy]; }""", [wx, wy]))


def scene(pg) -> dict:
    """The parts of the scene the tests read (the burn arrows, the overload pick, the chosen burn)."""
    return pg.evaluate("(() => { const s = window.deltavTactical.screen.sceneForTests(); "
                       "return {arrows: s.arrows, overloadPick: !!s.overloadPick, chosenDir: s.chosenDir}; })()")


def drawn(pg) -> list[dict]:
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return pg.evaluate("window.deltavTactical.screen.drawnForTests()")


def ship(pg, sid) -> dict:
    return next(s for s in snap(pg)["view"]["ships"] if s["id"] == sid)


def selected_name(pg) -> str:
    return pg.inner_text(".tac-shiplist .tac-ship.selected .tac-ship-name")


def in_view(pg, locator) -> bool:
    """The element is on screen without scrolling anything: its centre is inside the viewport and the element
    drawn there is it (not clipped by a scrolled panel)."""
    box = locator.bounding_box()
    vp = pg.viewport_size
    if not box or box["y"] < 0 or box["x"] < 0:
        return False
    if box["y"] + box["height"] > vp["height"] or box["x"] + box["width"] > vp["width"]:
        return False
    return locator.evaluate("""(want, [x, y]) => { const e = document.elementFromPoint(x, y);
        return !!e && (e === want || want.contains(e)); }""", [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])


def overlaps(a: dict, b: dict, margin: float = 0.0) -> bool:
    return abs(a["x"] - b["x"]) < a["hw"] + b["hw"] - margin and abs(a["y"] - b["y"]) < a["hh"] + b["hh"] - margin


# --- 1 and 2: each confirmation belongs to its own action; surrender is the rules' own, not "give up the game" --


def test_a_crash_warning_does_not_arm_the_surrender(live_server, new_page, screenshots):
    pg = play(live_server, new_page, seats=("human", "bot:easy"), seed=2)
    wait_my_astrogation(pg)
    settle(pg)
    step = snap(pg)["step"]
    pg.keyboard.press("5")  # down-left from the Mars base: into Mars
    pg.keyboard.press("Enter")
    assert "crashes into Mars" in status_text(pg) and "again" in status_text(pg), status_text(pg)
    pg.locator("button.danger", has_text="Surrender").click()
    pg.wait_for_timeout(400)
    assert snap(pg)["step"] == step and ship(pg, "p0s0")["control"] == "own", "one click surrendered"
    dialog = pg.locator(".tac-modal")
    assert dialog.is_visible() and "Surrender your ships?" in dialog.inner_text()
    assert "give up the game" not in status_text(pg) and "Resign" in dialog.inner_text()
    pg.screenshot(path=str(screenshots / "tactical-defect-surrender-dialog.png"))
    pg.keyboard.press("Escape")
    assert not dialog.is_visible()
    # the dialog disarmed the crash warning too: Enter warns again, and only the next Enter sends the course
    pg.keyboard.press("Enter")
    pg.wait_for_timeout(300)
    assert snap(pg)["step"] == step and "again" in status_text(pg)
    pg.keyboard.press("Enter")
    wait_step(pg, step)
    assert not pg.errors, pg.errors


def test_surrender_does_not_arm_a_crash_and_surrenders_only_from_its_dialog(live_server, new_page):
    pg = play(live_server, new_page, seats=("human", "bot:easy"), seed=2)
    wait_my_astrogation(pg)
    settle(pg)
    step = snap(pg)["step"]
    pg.locator("button.danger", has_text="Surrender").click()
    pg.locator(".tac-modal button", has_text="Keep fighting").click()
    pg.keyboard.press("5")
    pg.keyboard.press("Enter")  # a crash: one Enter only warns
    pg.wait_for_timeout(400)
    assert snap(pg)["step"] == step, "the crash went with a single Enter"
    assert "crashes into Mars" in status_text(pg)
    pg.keyboard.press("0")  # a safe course instead; the warning is gone with the plan it was about
    pg.locator("button.danger", has_text="Surrender").click()
    pg.locator(".tac-modal button", has_text="Surrender my ships").click()
    pg.wait_for_function("window.deltavTactical.screen.snapshot().view.ships.find(s => s.id === 'p0s0').control "
                         "=== 'surrendered'", timeout=20000)
    assert "give up the game" not in status_text(pg)
    assert not pg.errors, pg.errors


# --- 3: a ram or enemy ordnance on the course, warned like a crash before Enter commits ------------------------------


def risky_order(s) -> tuple[dict, dict] | None:
    """An order of the snapshot whose course note warns of a ram or of ordnance (not a crash), and the warning."""
    for e in s["legal"]:
        if e["action"]["type"] != "order" or e["action"]["weak"] or e["action"]["land"]:
            continue
        for w in (e.get("note") or {}).get("warnings", []):
            if w["kind"] in ("ram", "mine", "torpedo", "nuke"):
                return e["action"], w
    return None


def test_a_ram_or_enemy_ordnance_on_the_course_is_warned_before_enter(live_server, new_page, screenshots):
    """Duel against the normal bot: at the first astrogation where a course ends in the enemy's hex or meets its
    ordnance, that course is previewed with the warning on the map and in the panel, and Enter only warns."""
    pg = play(live_server, new_page, scenario="duel", seats=("human", "bot:normal"), seed=5)
    for _ in range(8):
        wait_my_astrogation(pg, timeout=60000)
        s = snap(pg)
        assert s["status"] == "playing", s["result"]
        found = risky_order(s)
        if found:
            break
        step = s["step"]
        ask_hint(pg, live_server)
        pg.keyboard.press("Enter")
        if "again" in status_text(pg):
            pg.keyboard.press("Enter")
        wait_step(pg, step)
        pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.status === 'over' "
                             "|| !s.to_act || s.view.phase !== 'astrogation'; })()", timeout=30000)
        # ordnance, combat: skip them
        for _ in range(4):
            pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.status === "
                                 "'over' || s.to_act; })()", timeout=60000)
            s = snap(pg)
            if s["status"] == "over" or s["view"]["phase"] == "astrogation":
                break
            pg.keyboard.press("Escape")
            pg.keyboard.press("Enter")
            wait_step(pg, s["step"])
    else:
        raise AssertionError("no course with a ram or ordnance came")
    order, warning = found
    settle(pg)
    pg.keyboard.press(str(order["burn"] + 1) if order["burn"] is not None else "0")
    if order["overload"] is not None:
        pg.keyboard.press(f"Shift+Digit{order['overload'] + 1}")
    detail = pg.inner_text(".tac-detail")
    assert "⚠" in detail and warning["text"] in detail, (detail, warning)
    assert "⚠" in status_text(pg) and pg.evaluate("document.querySelector('.match .status').dataset.kind") == "warn"
    tags = [d["text"] for d in drawn(pg) if d["kind"] == "label" and d["text"].startswith("⚠")]
    assert any(warning["kind"].upper() in t for t in tags), tags
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-defect-ram-warning.png"))
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    pg.wait_for_timeout(400)
    assert snap(pg)["step"] == step and "again" in status_text(pg), status_text(pg)
    pg.keyboard.press("Enter")
    wait_step(pg, step)
    assert not pg.errors, pg.errors


# --- 4: the result of a gun attack where the player looks ---------------------------------------------------------


def fly_to_combat(pg, live_server):
    """Duel against the normal bot, orders from the hint, until a combat phase of ours with a target."""
    for _ in range(40):
        pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.status === 'over' "
                             "|| s.to_act; })()", timeout=60000)
        s = snap(pg)
        assert s["status"] != "over", s["result"]
        if s["view"]["phase"] == "combat" and any(e["action"]["type"] == "add_attacker" for e in s["legal"]):
            return s
        if s["view"]["phase"] == "astrogation":
            ask_hint(pg, live_server)
        pg.keyboard.press("Enter")
        if "again" in status_text(pg):
            pg.keyboard.press("Enter")
        wait_step(pg, s["step"])
        if s["view"]["phase"] == "astrogation":
            pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.status === "
                                 "'over' || !s.to_act || s.view.phase !== 'astrogation'; })()", timeout=30000)
    raise AssertionError("no combat phase came")


def test_the_result_of_a_gun_attack_is_shown_at_the_target_and_in_the_panel(live_server, new_page, screenshots):
    pg = play(live_server, new_page, scenario="duel", seats=("human", "bot:normal"), seed=8)
    fly_to_combat(pg, live_server)
    pg.keyboard.press("]")
    assert "Enter (or Attack) to fire" in status_text(pg)
    target = snap(pg)["view"]["ships"]
    enemy = next(s for s in target if s["owner"] == 1)
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    pg.wait_for_function("window.deltavTactical.screen.snapshot().log.some(e => e.event.type === 'damage_roll' "
                         f"&& e.event.source === 'gun' && e.step > {step})", timeout=20000)
    pg.wait_for_function("document.querySelector('.tac-rolls') && document.querySelector('.tac-rolls').textContent"
                         ".includes('rolled')", timeout=10000)
    status = status_text(pg)
    assert "rolled" in status and "Enter (or Attack) to fire" not in status and "Target" not in status, status
    rolls = pg.inner_text(".tac-rolls")
    assert "gun attack on the enemy frigate" in rolls and "rolled" in rolls, rolls
    tags = [d for d in drawn(pg) if d["kind"] == "roll"]
    ex, ey = world(ship(pg, enemy["id"])["position"])
    assert any(abs(t["x"] - ex) < 0.6 and abs(t["y"] - ey) < 1.5 for t in tags), (tags, ex, ey)
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-defect-attack-result.png"))
    assert not pg.errors, pg.errors


# --- 5: overload by touch and by mouse without a modifier; Confirm always in view --------------------------------


def test_overload_by_touch_and_confirm_in_view_on_a_phone(live_server, new_page, screenshots):
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1, width=375, height=812,
              mobile=True)
    wait_phase(pg, "astrogation")
    settle(pg)
    confirm = pg.locator("button.primary", has_text="Confirm")
    assert in_view(pg, confirm), confirm.bounding_box()
    pg.locator(".tac-shiplist button", has_text="Frigate").tap()
    assert selected_name(pg) == "Frigate"
    pg.locator("button.tac-dir", has_text="↗ 2").tap()
    pg.locator("button", has_text="Overload").tap()
    pg.locator("button.tac-dir", has_text="↑ 3").tap()
    detail = pg.inner_text(".tac-detail")
    assert "burn ↗ 2 + ↑ 3" in detail and "Fuel 20 → 18" in detail, detail
    assert in_view(pg, confirm) and pg.evaluate("document.scrollingElement.scrollTop") == 0
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-defect-overload-phone.png"))
    step = snap(pg)["step"]
    confirm.tap()
    if "again" in status_text(pg):  # a course with a warning (Luna's base fire): confirmed by a second tap
        confirm.tap()
    wait_step(pg, step)
    assert not pg.errors, pg.errors


def test_overload_by_mouse_without_a_modifier(live_server, new_page):
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1)
    wait_phase(pg, "astrogation")
    pg.locator(".tac-shiplist button", has_text="Frigate").click()
    settle(pg)
    first = next(a for a in scene(pg)["arrows"]["arrows"] if a["dir"] == 1)
    pg.mouse.click(*screen_point(pg, *world(first["at"])))
    assert "burn ↗ 2" in pg.inner_text(".tac-detail")
    pg.locator("button", has_text="Overload").click()
    now = scene(pg)
    assert now["overloadPick"], now
    second = next(a for a in now["arrows"]["arrows"] if a["dir"] == 2)
    pg.mouse.click(*screen_point(pg, *world(second["at"])))
    assert "burn ↗ 2 + ↑ 3" in pg.inner_text(".tac-detail")
    assert not pg.errors, pg.errors


def test_confirm_in_view_with_five_ships(live_server, new_page, screenshots):
    """Fleet Action: five corvettes of yours and five of the opponent's, all in sight."""
    pg = play(live_server, new_page, scenario="fleet_action", seats=("human", "human"), seed=3, width=1400, height=900,
              idler_buys=["corvette"] * 5)
    wait_phase(pg, "fleet_building")
    for _ in range(5):
        step = snap(pg)["step"]
        pg.locator(".tac-list button", has_text="corvette").first.click()
        wait_step(pg, step)
        wait_phase(pg, "fleet_building")
    pg.locator("button.primary", has_text="Fleet ready").click()
    wait_phase(pg, "astrogation", timeout=60000)
    settle(pg)
    assert len([s for s in snap(pg)["view"]["ships"] if s["owner"] == 0]) == 5
    confirm = pg.locator("button.primary", has_text="Confirm")
    # every ship, every burn: the preview grows (gravity next turn, landings) and Confirm stays in view
    for k in range(5):
        for key in "135":
            pg.keyboard.press(key)
            assert in_view(pg, confirm), (k, key, confirm.bounding_box())
            pg.keyboard.press(f"Shift+Digit{int(key) % 6 + 1}")  # and an overload on top (corvettes are warships)
            assert in_view(pg, confirm), (k, key, "overload", confirm.bounding_box())
        if k == 2:
            pg.screenshot(path=str(screenshots / "tactical-defect-five-ships.png"))
        pg.keyboard.press("Tab")
    assert not pg.errors, pg.errors


# --- 8: a click on a ship under a burn arrow selects it -----------------------------------------------------------


def test_clicking_a_ship_under_a_burn_arrow_selects_it(live_server, new_page, screenshots):
    """Lunar Evacuation: the frigate's drift hex is next to the transport's and the corvette's, so its "down" arrow
    points into their hex; a click on the transport selects it and plots nothing."""
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1)
    wait_phase(pg, "astrogation")
    pg.locator(".tac-shiplist button", has_text="Frigate").click()
    settle(pg)
    transport = ship(pg, "p0s0")
    arrows = scene(pg)["arrows"]["arrows"]
    assert any(a["legal"] and a["at"] == list(transport["position"]) for a in arrows), "no arrow over the transport"
    glyph = next(d for d in drawn(pg) if d["kind"] == "ship" and d["id"] == "p0s0")
    pg.mouse.click(*screen_point(pg, glyph["x"], glyph["y"]))
    assert selected_name(pg) == "Transport", selected_name(pg)
    assert "Selected your transport" in status_text(pg) and "no burn" in pg.inner_text(".tac-detail")
    assert scene(pg)["chosenDir"] is None
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-defect-ship-under-arrow.png"))
    assert not pg.errors, pg.errors


# --- 9: your chip and your ships share your colour (cyan), whichever seat you hold ---------------------------------


def test_seat_two_sees_itself_cyan(live_server, new_page, screenshots):
    room = live_server.create("tactical", ["bot:easy", "human"], seat=1, seed=4, name="ann", scenario="duel")
    pg = new_page(intro=True)
    live_server.open_seat(pg, room)
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15000)
    # the scenario briefing shows your side in your colour too
    pg.wait_for_selector(".dialog-briefing .briefing-sides li.mine", timeout=30000)
    mine = pg.evaluate("getComputedStyle(document.querySelector('.briefing-sides li.mine')).getPropertyValue('--seat').trim()")
    assert mine.lower() == "#3ee0ff", mine
    pg.keyboard.press("Enter")  # Begin
    pg.wait_for_selector(".guide-card", timeout=10000)
    pg.keyboard.press("Escape")  # the first-game guide, skipped
    pg.wait_for_function("(window.deltavTactical.screen.drawnForTests() || []).some(d => d.kind === 'ship')")
    chip = pg.evaluate("getComputedStyle(document.querySelector('.seats li.me')).getPropertyValue('--seat').trim()")
    other = pg.evaluate("getComputedStyle(document.querySelector('.seats li:not(.me)')).getPropertyValue('--seat').trim()")
    assert chip.lower() == "#3ee0ff" and other.lower() == "#ff9a3c", (chip, other)
    assert pg.evaluate("window.deltavTactical.screen.seatColour(1, 1)") == chip
    pg.screenshot(path=str(screenshots / "tactical-defect-seat-two.png"))
    assert not pg.errors, pg.errors


# --- 10: one launch per ship per turn, said in words; nothing more offered ------------------------------------------


def test_no_second_launch_from_a_ship(live_server, new_page):
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1)
    wait_phase(pg, "astrogation")
    pg.keyboard.press("Enter")
    if "again" in status_text(pg):
        pg.keyboard.press("Enter")
    wait_phase(pg, "ordnance")
    pg.keyboard.press("t")
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    wait_step(pg, step)
    wait_phase(pg, "ordnance")
    assert pg.locator(".tac-controls button", has_text=re.compile(r"^[NTK] ")).count() == 0
    assert "one item per turn" in pg.inner_text(".tac-detail")
    pg.keyboard.press("t")
    text = status_text(pg)
    assert "one item per turn" in text and "your frigate already launched" in text and "cargo" not in text, text
    assert not pg.errors, pg.errors


# --- 11: no engine words on the page --------------------------------------------------------------------------------

ENGINE_WORDS = [re.compile(p, re.M) for p in (
    r"\bp\d+s\d+\b", r"\bord\d+\b", r"-?\d+\s?,\s?-?\d+(?!\d*\s?(MC|%))", r"\bPlayer 0\b", r"-0\b", r"\(to player",
    r"^tactical\b", r"tactical grand_tour", r"grand_tour", r"\bv ?\(", r"\borbitalBase\b")]


def engine_words(text: str) -> list[str]:
    return [m.group(0) for p in ENGINE_WORDS for m in p.finditer(text)]


def screen_texts(pg) -> str:
    parts = [".match-head", ".seats", ".phase-banner", ".tac-panel", ".status", ".tac-readout", ".tac-objective", ".log-list"]
    return "\n".join(pg.inner_text(p) for p in parts if pg.locator(p).count())


def test_no_engine_words_on_the_page(live_server, new_page, screenshots):
    # the games list answers only after the first state has arrived (the header once kept "tactical grand_tour")
    room = live_server.create("tactical", ["human", "bot:easy"], seed=3, name="ann", scenario="grand_tour")
    pg = new_page()
    held = []
    pg.route("**/games", lambda route: held.append(route))
    pg.goto(f"{live_server.base}/play/{room.code}#token={room.token}&seat={room.seat}")
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15000)
    for route in held:
        route.continue_()
    pg.wait_for_timeout(500)
    wait_my_astrogation(pg)
    settle(pg)
    assert pg.inner_text(".match-title h1") == "Delta-V tactical" and "Grand Tour" in pg.inner_text(".match-scenario")
    texts = [screen_texts(pg)]
    pg.keyboard.press("2")
    pg.mouse.move(*screen_point(pg, *world(ship(pg, "p0s0")["position"])))
    pg.wait_for_function("document.querySelector('.tac-readout').textContent.length > 0")
    texts.append(screen_texts(pg))
    assert "Your corvette" in pg.inner_text(".tac-readout")
    pg.keyboard.press("Tab")
    texts.append(screen_texts(pg))
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    wait_step(pg, step)
    wait_my_astrogation(pg, timeout=60000)
    texts.append(screen_texts(pg))
    found = [w for t in texts for w in engine_words(t)]
    assert not found, (found, texts)
    pg.screenshot(path=str(screenshots / "tactical-defect-words.png"))
    assert not pg.errors, pg.errors


# --- 12: the smaller ones ----------------------------------------------------------------------------------------------


def test_burn_arrow_keys_clear_of_ships_and_labels_and_three_ships_in_a_hex(live_server, new_page, screenshots):
    """The key badges of the burn arrows never cover a ship or a label, and in Convoy's hex of three ships
    (landed together on Mars) every ship and every tag can be told apart; Evacuation's frigate's arrows reach
    the transport's hex."""
    for scenario, select in (("convoy", None), ("evacuation", "Frigate")):
        pg = play(live_server, new_page, scenario=scenario, seats=("human", "human"), seed=1, width=375, height=812,
                  mobile=True)
        wait_phase(pg, "astrogation")
        if select:
            pg.locator(".tac-shiplist button", has_text=select).tap()
        settle(pg)
        items = drawn(pg)
        badges = [d for d in items if d["kind"] == "badge"]
        ships = [d for d in items if d["kind"] == "ship"]
        labels = [d for d in items if d["kind"] == "label" and d.get("id")]
        assert len(badges) >= 5 and ships and labels, items
        for b in badges:
            for o in ships + labels:
                assert not overlaps(b, o), (scenario, b, o)
        shared = [s for s in ships if s["id"] in ("p0s0", "p0s1", "p0s2")] if scenario == "convoy" else []
        for i, a in enumerate(shared):
            for b in shared[i + 1:]:
                assert not overlaps(a, b), (a, b)
        tags = [t for t in labels if scenario == "convoy"]
        for i, a in enumerate(tags):
            for b in tags[i + 1:]:
                assert not overlaps(a, b), (a, b)
        pg.screenshot(path=str(screenshots / f"tactical-defect-arrows-{scenario}.png"))
        assert not pg.errors, pg.errors


def test_the_pad_is_labelled_as_the_map_arrows_point(live_server, new_page):
    pg = play(live_server, new_page, seed=4)
    wait_my_astrogation(pg)
    settle(pg)
    arrows = scene(pg)["arrows"]
    drift = arrows["drift"]
    glyphs = {(1, -1): "↗", (0, -1): "↑", (-1, -1): "↖", (-1, 1): "↙", (0, 1): "↓", (1, 1): "↘"}
    for a in arrows["arrows"]:
        x0, y0 = screen_point(pg, *world(drift))
        x1, y1 = screen_point(pg, *world(a["at"]))
        dx, dy = x1 - x0, y1 - y0
        want = glyphs[(0 if abs(dx) < 1 else (1 if dx > 0 else -1), 1 if dy > 0 else -1)]
        button = pg.locator(".tac-burnpad button").nth([3, 2, 1, 4, 5, 0].index(a["dir"]))
        text = button.inner_text()
        assert text == f"{want} {a['dir'] + 1}", (a["dir"], text, want)
        box = button.bounding_box()
        pad = pg.locator(".tac-burnpad").bounding_box()
        # its place in the pad: top row for arrows pointing up, bottom row for down; left, middle, right
        assert (box["y"] + box["height"] / 2 < pad["y"] + pad["height"] / 2) == (dy < 0), (a["dir"], box, pad)
    assert not pg.errors, pg.errors


def test_the_hover_readout_lists_ordnance(live_server, new_page):
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1)
    wait_phase(pg, "astrogation")
    pg.keyboard.press("Enter")
    if "again" in status_text(pg):
        pg.keyboard.press("Enter")
    wait_phase(pg, "ordnance")
    pg.keyboard.press("t")
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    wait_step(pg, step)
    item = snap(pg)["view"]["ordnance"][0]
    settle(pg)
    pg.mouse.move(*screen_point(pg, *world(item["position"])))
    pg.wait_for_function("document.querySelector('.tac-readout').textContent.includes('torpedo')", timeout=5000)
    assert "Your torpedo" in pg.inner_text(".tac-readout") or "torpedo from your frigate" in pg.inner_text(".tac-readout")
    assert not pg.errors, pg.errors


# --- beyond the reference: Undo before Confirm ----------------------------------------------------------------------


def test_undo_takes_back_burns_before_confirm(live_server, new_page):
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1)
    wait_phase(pg, "astrogation")
    pg.keyboard.press("3")  # the transport: up
    pg.keyboard.press("Tab")
    pg.keyboard.press("4")  # the corvette: up-left
    pg.keyboard.press("1")  # then changed to down-right
    assert "burn ↘ 1" in pg.inner_text(".tac-detail")
    pg.keyboard.press("z")
    assert "burn ↖ 4" in pg.inner_text(".tac-detail") and "Undone" in status_text(pg)
    pg.locator("button", has_text="Undo").click()
    assert selected_name(pg) == "Corvette" and "no burn" in pg.inner_text(".tac-detail")
    pg.keyboard.press("z")
    assert selected_name(pg) == "Transport" and "no burn" in pg.inner_text(".tac-detail")
    assert pg.locator("button", has_text="Undo").is_disabled()
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    if "again" in status_text(pg):
        pg.keyboard.press("Enter")
    wait_step(pg, step)
    assert not pg.errors, pg.errors


# --- beyond the reference: the enemy's reach drawn with the course preview -----------------------------------------


def test_the_enemy_reach_is_drawn_with_the_course_preview(live_server, new_page, screenshots):
    pg = play(live_server, new_page, scenario="duel", seats=("human", "bot:easy"), seed=1)
    wait_my_astrogation(pg)
    pg.wait_for_function("(() => { const r = window.deltavTactical.screen.sceneForTests().reach; return r && r.size > 0; })()",
                         timeout=30000)
    drawn_hexes = sorted(pg.evaluate("[...window.deltavTactical.screen.sceneForTests().reach.keys()]"))
    answer = pg.evaluate("window.deltavShell.connection().request({type: 'suggest', plan: {kind: 'reach'}})")
    want = sorted({h["hex"] for sh in answer["plan"]["ships"] for h in sh["hexes"]})
    assert drawn_hexes == want and want, (drawn_hexes, want)
    enemy = next(s for s in snap(pg)["view"]["ships"] if s["owner"] == 1)
    drift = f"{enemy['position'][0] + enemy['velocity'][0]},{enemy['position'][1] + enemy['velocity'][1]}"
    assert len(want) > 1 and any(h != drift for h in want)
    pg.keyboard.press("3")  # a course preview with the shadow
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-reach-shadow.png"))
    pg.keyboard.press("r")
    assert "Enemy reach hidden" in status_text(pg)
    assert pg.evaluate("window.deltavTactical.screen.sceneForTests().reach") is None
    pg.keyboard.press("r")
    assert pg.evaluate("window.deltavTactical.screen.sceneForTests().reach.size") == len(want)
    assert not pg.errors, pg.errors


def test_the_help_has_the_map_symbols_and_the_ship_notes(live_server, new_page, screenshots):
    pg = play(live_server, new_page, scenario="duel", seats=("human", "bot:easy"), seed=3)
    pg.keyboard.press("?")
    pg.wait_for_selector(".tac-help")
    text = pg.inner_text(".tac-help")
    for want in ("Map symbols", "Gravity", "Sensor ring", "Threat zone", "Enemy reach", "Dice", "Burn arrows",
                 "fires when disabled", "sealed fuel: can't transfer", "carries orbital bases", "fires at D1",
                 "One item per ship per turn", "Surrender ships", "Undo", "Overload"):
        assert want in text, want
    swatches = pg.locator(".tac-legend canvas.tac-swatch")
    assert swatches.count() >= 12
    # each symbol is drawn (its canvas is not blank)
    blank = pg.evaluate("""[...document.querySelectorAll('.tac-legend canvas')].filter(c => {
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; const seen = new Set();
        for (let i = 0; i < d.length; i += 16) seen.add(d[i] + ',' + d[i + 1] + ',' + d[i + 2]);
        return seen.size < 3; }).map(c => c.getAttribute('aria-label'))""")
    assert not blank, blank
    pg.locator(".tac-legend").scroll_into_view_if_needed()
    pg.screenshot(path=str(screenshots / "tactical-help-legend.png"))
    # the first-game guide again, from the help: its first step rings the map
    pg.locator(".help-guide").click()
    pg.wait_for_selector(".guide-card")
    assert "Your ships" in pg.inner_text(".guide-card") and "1 of 9" in pg.inner_text(".guide-card")
    pg.keyboard.press("Escape")
    assert pg.locator(".guide-card").count() == 0 or not pg.locator(".guide-card").first.is_visible()
    assert not pg.errors, pg.errors


# --- 7: the replay of a fog-of-war match draws everything (the full view) ---------------------------------------------


def test_the_replay_of_a_fog_of_war_match_shows_every_ship(live_server, new_page, screenshots):
    """Escape with fog of war and hidden identities, bots on both seats: live, a spectator sees no ship at the
    start; the replay of the finished match (view=full, the default) draws all five from step 0 on, and says which
    transport carries the fugitives."""
    import time

    room = live_server.create("tactical", ["bot:normal", "bot:random"], seed=11, scenario="escape", turn_limit=2)
    t0 = time.time()
    while live_server.room(room.code)["status"] != "finished":
        assert time.time() - t0 < 120, live_server.room(room.code)
        time.sleep(0.3)
    status, first = live_server.http("GET", f"/rooms/{room.code}/replay?match=1&step=0&view=spectator")
    assert status == 200 and len(first["snapshot"]["view"]["ships"]) == 0, first["snapshot"]["view"]["ships"]
    pg = new_page()
    pg.goto(f"{live_server.base}/replay/{room.code}?match=1")
    pg.wait_for_selector("html[data-ready=true]")
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15000)
    pg.keyboard.press("Home")
    pg.wait_for_function("window.deltavReplay.state().index === 0")
    pg.wait_for_function("window.deltavTactical.screen.snapshot().step === 0")
    ships = [d for d in drawn(pg) if d["kind"] == "ship"]
    assert len(ships) == 5, ships
    others = pg.inner_text(".tac-others")
    assert "the fugitives aboard" in others and others.count("decoy") == 2, others
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-replay-full-view.png"))
    assert not pg.errors, pg.errors


# --- 2: giving up is the shell's Resign, which ends the match -------------------------------------------------------


def test_resign_ends_the_match_and_the_screen_says_so(live_server, new_page, screenshots):
    pg = play(live_server, new_page, scenario="duel", seats=("human", "bot:easy"), seed=3)
    wait_my_astrogation(pg)
    assert "give up the game" not in pg.inner_text("body")
    pg.locator("button.resign").click()
    dialog = pg.locator(".dialog-resign")
    assert dialog.is_visible() and "Surrender" not in dialog.inner_text()
    pg.locator(".resign-confirm").click()
    pg.wait_for_function("window.deltavTactical.screen.snapshot().status === 'over'", timeout=20000)
    s = snap(pg)
    assert s["result"]["winners"] == [1] and s["result"]["reason"] == "resign", s["result"]
    pg.wait_for_selector(".dialog-result")
    pg.keyboard.press("Escape")
    assert pg.inner_text(".tac-result") == "Defeat: you resigned"
    assert "give up the game" not in pg.inner_text("body")
    pg.screenshot(path=str(screenshots / "tactical-resigned.png"))
    assert not pg.errors, pg.errors


# --- 6: chat keeps its keys only while typing; after sending or Esc the game has them -------------------------------


def test_chat_gives_the_keys_back_to_the_game(live_server, new_page):
    pg = play(live_server, new_page, scenario="duel", seats=("human", "bot:easy"), seed=3)
    wait_my_astrogation(pg)
    chat = pg.locator(".chat-form input")
    chat.click()
    pg.keyboard.type("2")
    pg.keyboard.press("Enter")  # sends "2"
    pg.keyboard.press("2")  # the game's key now: burn NE
    pg.keyboard.press("Enter")  # and the game's Enter: confirm (a warned course: once more)
    if "again" in status_text(pg):
        pg.keyboard.press("Enter")
    pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.status === 'over' || "
                         "!s.to_act || s.view.phase !== 'astrogation'; })()", timeout=20000)
    sent = [m for m in pg.locator(".chat-list li").all_inner_texts() if m.endswith("2")]
    assert len(sent) == 1, sent
    orders = [e["text"] for e in snap(pg)["log"] if e["event"]["type"] == "order_given"]
    assert orders and "NE" in orders[-1], orders
    # Esc leaves the chat without sending, and the keys go to the game (at the next astrogation)
    for _ in range(8):
        pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.status === 'over' "
                             "|| s.to_act; })()", timeout=60000)
        s = snap(pg)
        if s["status"] == "over" or s["view"]["phase"] == "astrogation":
            break
        pg.keyboard.press("Escape")
        pg.keyboard.press("Enter")  # skip ordnance, end combat
        wait_step(pg, s["step"])
    assert snap(pg)["view"]["phase"] == "astrogation", snap(pg)["view"]["phase"]
    pg.wait_for_timeout(300)
    if pg.locator(".ack-card").count():  # what the opponent's turn did to your ship, first
        pg.keyboard.press("Enter")
    chat.click()
    pg.keyboard.type("hello")
    pg.keyboard.press("Escape")
    pg.keyboard.press("3")
    assert "burn ↑ 3" in pg.inner_text(".tac-detail")
    assert not pg.errors, pg.errors
