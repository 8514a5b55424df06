"""The tactical screen's other phases in a real Chromium against a real server: fleet building with the budget
(Fleet Action: buy ships by click and by keyboard, the budget and the fleet go down and up, Fleet ready), ordnance
(Evacuation: T with a torpedo boost by keys, Enter launches it; K a nuke) and logistics (Evacuation: a passenger
transfer between two ships in one hex by click, then Done). Everything goes through the page, as a player would.
Screenshots: build/screenshots/tactical-fleet*.png, tactical-ordnance*.png, tactical-logistics.png."""

from __future__ import annotations

from tests.web.test_tactical_screen import play, settle, snap, status_text


def wait_phase(pg, phase, timeout=30000):
    pg.wait_for_function(
        "(() => { const s = window.deltavTactical.screen.snapshot(); return s && s.status === 'over' || "
        f"(s.to_act && s.view.phase === '{phase}'); }})()", timeout=timeout)
    assert snap(pg)["status"] == "playing", snap(pg)["result"]


def budget(pg) -> int:
    return int(pg.inner_text(".tac-budget").split(":")[1].split()[0])


def test_fleet_building_with_the_budget(live_server, new_page, screenshots):
    pg = play(live_server, new_page, scenario="fleet_action", seats=("human", "bot:random"), seed=3)
    wait_phase(pg, "fleet_building")
    settle(pg)
    assert "Fleet building: buy your ships" in pg.inner_text(".phase-banner")
    assert budget(pg) == 600
    assert "no ship yet" in pg.inner_text(".tac-fleet")
    pg.screenshot(path=str(screenshots / "tactical-fleet.png"))
    frigate = pg.locator(".tac-list button", has_text="frigate")
    assert "150 MC" in frigate.inner_text() and frigate.get_attribute("title") == "450 MC left after"
    step = snap(pg)["step"]
    frigate.click()
    pg.wait_for_function(f"window.deltavTactical.screen.snapshot().step > {step}", timeout=20000)
    wait_phase(pg, "fleet_building")
    assert budget(pg) == 450 and "1 frigate" in pg.inner_text(".tac-fleet")
    # what is left to buy costs at most the budget (the dreadnaught is gone); by keyboard: Tab to a corvette, Enter
    labels = pg.locator(".tac-list button").all_inner_texts()
    assert labels and not any("dreadnaught" in x.lower() for x in labels), labels
    pg.locator(".tac-list button", has_text="corvette").focus()
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    pg.wait_for_function(f"window.deltavTactical.screen.snapshot().step > {step}", timeout=20000)
    wait_phase(pg, "fleet_building")
    assert budget(pg) == 410 and "1 frigate" in pg.inner_text(".tac-fleet") and "1 corvette" in pg.inner_text(".tac-fleet")
    pg.screenshot(path=str(screenshots / "tactical-fleet-bought.png"))
    # Enter on the board (no button focused) is Fleet ready
    pg.locator("canvas").first.focus()
    pg.evaluate("document.activeElement && document.activeElement.blur()")
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    pg.wait_for_function(
        "(() => { const s = window.deltavTactical.screen.snapshot(); return s.view.phase !== 'fleet_building'; })()",
        timeout=30000)
    mine = sorted(s["type"] for s in snap(pg)["view"]["ships"] if s["owner"] == 0)
    assert mine == ["corvette", "frigate"], mine
    assert not pg.errors, pg.errors


def test_ordnance_torpedo_boost_and_logistics_transfer(live_server, new_page, screenshots):
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1)
    wait_phase(pg, "astrogation")
    pg.keyboard.press("Enter")  # every ship coasts
    if "Press Enter again" in status_text(pg):
        pg.keyboard.press("Enter")
    wait_phase(pg, "ordnance")
    settle(pg)
    assert "launch ordnance or skip" in pg.inner_text(".phase-banner")
    # no ship can lay a mine here: the key says why in words
    pg.keyboard.press("n")
    assert "No ship can launch a mine" in status_text(pg)
    pg.keyboard.press("t")
    assert "A torpedo from your frigate" in status_text(pg)
    # the launch preview: boosted 2 hexes down (key 6) it flies into Luna, and the board and the panel say so before Enter
    pg.keyboard.press("6")
    pg.keyboard.press("6")
    detail = pg.inner_text(".tac-detail")
    assert "boosted 2 hexes S" in detail and "It hits Luna this turn" in detail, detail
    assert pg.evaluate("window.deltavTactical.screen.sceneForTests().launch.first_hit.body") == "Luna"
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-ordnance-into-luna.png"))
    pg.keyboard.press("4")
    assert "boosted 1 hex NW" in pg.inner_text(".tac-detail")
    pg.keyboard.press("4")  # again: two hexes (up-left, toward the enemy at 3,-7; down would fly it into Terra)
    detail = pg.inner_text(".tac-detail")
    assert "boosted 2 hexes NW" in detail and "Nothing in its way this turn" in detail, detail
    assert "Speed 3 W: this turn it ends" in detail and "then drifts" in detail, detail
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-ordnance-torpedo.png"))
    before = len(snap(pg)["view"]["ordnance"])
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    pg.wait_for_function(f"window.deltavTactical.screen.snapshot().step > {step}", timeout=20000)
    launched = snap(pg)["view"]["launched"]
    assert "p0s2" in str(launched), launched
    # the phase goes on until Enter skips; then movement, combat (nothing in sight: Enter ends it), logistics
    for _ in range(4):
        s = snap(pg)
        if s["to_act"] and s["view"]["phase"] == "logistics":
            break
        if s["to_act"]:
            step = s["step"]
            pg.keyboard.press("Enter")
            pg.wait_for_function(f"window.deltavTactical.screen.snapshot().step > {step}", timeout=20000)
        else:
            pg.wait_for_timeout(200)
    wait_phase(pg, "logistics")
    view = snap(pg)["view"]
    torp = [o for o in view["ordnance"] if o["launched_by"] == "p0s2"]
    assert len(view["ordnance"]) == before + 1 and torp[0]["kind"] == "torpedo", view["ordnance"]
    assert torp[0]["velocity"] == [-3, 1], torp  # the ship's (-1, 1) plus the boost of 2 W
    settle(pg)
    assert "transfer fuel or cargo" in pg.inner_text(".phase-banner")
    assert "Logistics: pick a transfer" in status_text(pg)  # the last phase's words are gone
    row = pg.locator(".tac-transfer", has_text="Passengers: your transport → your corvette")
    assert row.locator("button").all_inner_texts() == ["1", "2", "3", "4", "5"]
    assert "40 passengers" in pg.inner_text(".tac-shiplist")
    btn = row.locator("button[aria-label='5 passengers from your transport to your corvette']")
    assert btn.count() == 1
    pg.screenshot(path=str(screenshots / "tactical-logistics.png"))
    step = snap(pg)["step"]
    btn.click()
    pg.wait_for_function(f"window.deltavTactical.screen.snapshot().step > {step}", timeout=20000)
    ships = {s["id"]: s for s in snap(pg)["view"]["ships"]}
    assert ships["p0s0"]["passengers"] == 35 and ships["p0s1"]["passengers"] == 5, ships
    step = snap(pg)["step"]
    pg.click("button:has-text('Done')")
    pg.wait_for_function(f"window.deltavTactical.screen.snapshot().step > {step}", timeout=20000)
    assert snap(pg)["view"]["active_player"] == 1 or snap(pg)["view"]["phase"] != "logistics"
    assert not pg.errors, pg.errors
