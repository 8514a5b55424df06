"""Accessibility of the tactical screen itself, in the middle of a game (axe-core, injected from web/node_modules):
the astrogation panel with a burn plotted, the ordnance phase, combat odds, the help overlay with its tables,
and the fleet-building list."""

from __future__ import annotations

from tests.web.conftest import axe_violations
from tests.web.test_tactical_phases import wait_phase
from tests.web.test_tactical_screen import play, settle, status_text


def test_axe_on_the_tactical_screen_mid_game_and_its_help(live_server, new_page):
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1)
    wait_phase(pg, "astrogation")
    settle(pg)
    pg.keyboard.press("3")  # a burn plotted: the preview in the panel
    assert axe_violations(pg) == []
    pg.keyboard.press("?")
    pg.wait_for_selector(".dialog-help")
    assert axe_violations(pg) == []
    pg.keyboard.press("Escape")
    pg.keyboard.press("0")
    pg.keyboard.press("Enter")
    if "Press Enter again" in status_text(pg):
        pg.keyboard.press("Enter")
    wait_phase(pg, "ordnance")
    pg.keyboard.press("t")
    pg.keyboard.press("4")
    assert axe_violations(pg) == []
    assert not pg.errors, pg.errors


def test_axe_on_fleet_building(live_server, new_page):
    pg = play(live_server, new_page, scenario="fleet_action", seats=("human", "bot:random"), seed=3)
    wait_phase(pg, "fleet_building")
    assert axe_violations(pg) == []


def test_axe_on_the_surrender_dialog_and_the_overload_pick(live_server, new_page):
    pg = play(live_server, new_page, scenario="evacuation", seats=("human", "human"), seed=1)
    wait_phase(pg, "astrogation")
    pg.locator(".tac-shiplist button", has_text="Frigate").click()
    pg.keyboard.press("2")
    pg.locator("button", has_text="Overload").click()  # the pad now picks the overload
    assert axe_violations(pg) == []
    pg.locator("button.danger", has_text="Surrender").click()
    pg.wait_for_selector(".tac-modal")
    assert pg.evaluate("document.activeElement.textContent") == "Keep fighting"
    assert axe_violations(pg) == []
    pg.keyboard.press("Tab")
    pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.textContent") == "Keep fighting"  # the focus stays in the dialog
    pg.keyboard.press("Escape")
    assert pg.locator(".tac-modal").count() == 0
    assert not pg.errors, pg.errors
