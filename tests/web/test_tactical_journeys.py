"""Whole games of Delta-V tactical played through the page as a player would, in real Chromium against a real
``deltav serve`` and the easy bot: a Duel, a Bi-Planetary race and a Fleet Action, each by keyboard only, by mouse
only (no modifier key) and on a 375x812 phone by taps only; from the start to the result, then the replay (the
keyboard games with a turn timer, its countdown in the header), as a new player: the scenario briefing comes
first, the first-game guide is offered (followed to its end in the Duels by mouse and by touch, skipped elsewhere), and the
result has the game's statistics. The
player (tactical_driver.py) decides from the engine's notes and acts only through the page. Turn limits keep the
games short. Screenshots: build/screenshots/tactical-journey-<scenario>-<mode>-<phase>.png."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import Room
from tests.web.tactical_driver import Player
from tests.web.test_tactical_defects import engine_words

GAMES = {
    # scenario: options, fleet to buy, a race (the assistant plans), what the game must have seen
    "duel": ({"turn_limit": 4}, (), False),
    "biplanetary": ({"turn_limit": 9}, (), True),
    "fleet_action": ({"turn_limit": 3}, ("frigate", "corsair", "corvette"), False),
}
MODES = {"keyboard": (1280, 800, False), "mouse": (1400, 900, False), "touch": (375, 812, True)}


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("scenario", list(GAMES))
def test_a_whole_game(live_server, new_page, screenshots, scenario, mode):
    options, buys, race = GAMES[scenario]
    width, height, phone = MODES[mode]
    # the keyboard games run with a turn timer (a bot plays a late move): its countdown is in the header
    clock = {"turn_seconds": 900, "on_timeout": "bot"} if mode == "keyboard" else None
    status, out = live_server.http("POST", "/rooms", {"game": "tactical", "seats": ["human", "bot:easy"], "seed": 7,
                                                      "name": "Ann", "options": {"scenario": scenario, **options},
                                                      "clock": clock})
    assert status == 201, out
    room = Room(out["code"], out["seat"], out["token"], out)
    # a new player: the scenario briefing and the first-game guide come by themselves (the Duels by mouse and by
    # touch follow the guide to its end, the other games skip it)
    pg = new_page(width=width, height=height, mobile=phone, intro=True)
    live_server.open_seat(pg, room)
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15000)
    if clock:
        pg.wait_for_selector(".turn-clock:not([hidden])", timeout=15000)
        assert re.match(r"Your move:\s*1[45]:\d\d", pg.inner_text(".turn-clock")), pg.inner_text(".turn-clock")
    name = f"{scenario}-{mode}"
    follow = scenario == "duel" and mode in ("mouse", "touch")
    player = Player(pg, mode, screenshots, name, follow_guide=follow)
    final = player.play(buys=buys, race=race)
    assert final["status"] == "over", final["status"]
    # the briefing came before the first decision, with the scenario's sides and what wins
    assert "What wins" in player.briefing and "Forces" in player.briefing, player.briefing
    # the guide was offered; followed, it went through every step, waiting at the interactive one for the turn
    assert player.guide_steps, "no guide offered"
    if follow:
        assert player.guide_steps[-1] == "Help" and "Confirm your turn" in player.guide_steps, player.guide_steps
    # the status line says how it ended, never the last decision's prompt
    pg.wait_for_function("/^(Victory|Defeat|Draw|Game over)/.test(document.querySelector('.match .status').textContent)",
                         timeout=10000)
    # every text of the page in words: the log of the whole game, the panel, the chips, the header
    texts = pg.evaluate("""[...document.querySelectorAll(
        '.log-list li .log-text, .tac-panel, .seats, .match-head, .match .status')].map(e => e.textContent).join('\\n')""")
    assert not engine_words(texts), (engine_words(texts), texts[-2000:])
    # the result: the dialog in view, the verdict in words
    pg.wait_for_selector(".dialog-result", timeout=20000)
    player.dialogs()
    pg.locator(".result-more summary").click()  # the match in numbers: folded until asked for
    result = pg.inner_text(".dialog-result")
    assert re.search(r"won|draw|Draw|Victory|Defeat", result), result
    # said once: not "A draw: draw (Turn limit reached)." nor "A draw: Turn limit reached: draw."
    assert not re.search(r"(?i)\b([a-z]{3,})\b\W+\1\b", result), result
    assert ": draw." not in result, result
    # the game-over statistics (the engine's summary)
    for stat in ("Turns played", "Fuel spent", "Hits scored", "Ships lost", "Ordnance launched"):
        assert stat in result, (stat, result)
    player.shoot("result")
    if race:
        assert final["result"]["winners"] == [0], (final["result"], player.log[-20:])
    if scenario == "fleet_action":
        mine = sorted(s["type"] for s in final["view"]["ships"] if s["owner"] == 0)
        assert mine == ["corsair", "corvette", "frigate"], mine
    # the replay of the finished match, to its end
    player.press(pg.locator(".dialog-result a", has_text=re.compile("replay", re.I)).first)
    pg.wait_for_url("**/replay/**")
    pg.wait_for_selector("html[data-ready=true]")
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15000)
    if mode == "keyboard":
        pg.keyboard.press("End")
    else:
        player.press(pg.locator("button[aria-label='To the end']"))
    pg.wait_for_function("window.deltavTactical.screen.snapshot().status === 'over'", timeout=20000)
    assert pg.evaluate("window.deltavTactical.screen.sceneForTests().ships.length") > 0
    assert pg.evaluate("window.deltavReplay.state().view") == "full"  # everyone's ships: nothing is secret now
    player.shoot("replay-end")
    # the lobby lists the match as one you played (watching its replay does not make it "watched")
    pg.goto(live_server.base + "/")
    pg.wait_for_selector("html[data-ready=true]")
    entry = pg.locator("li", has_text=room.code).first
    assert "you played" in entry.inner_text(), entry.inner_text()
    assert not pg.errors, pg.errors
