"""The Knight Hawks screen in a real Chromium (Playwright) against a real deltav Session (tests/web/kh_harness.py):
a whole game against the scripted bot played only by clicking the page's controls and the map, plotting by map
clicks and by keys, the odds on the fire controls matching the engine's attack roll, refused keys explained,
the help overlay's tables, a 375x812 viewport, and no secret in any snapshot the page got. Screenshots of every
stage go to build/screenshots/knighthawks-*.png."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from tests.web.kh_harness import Driver, Server, build_harness, open_page

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"


@pytest.fixture(scope="module")
def harness():
    out = build_harness(Path(tempfile.mkdtemp(prefix="kh-harness-")))
    srv = Server(out)
    try:
        yield srv.url
    finally:
        srv.close()


@pytest.fixture
def chromium(browser):
    """The session's Chromium (tests/web/conftest.py): one Playwright per test process."""
    return browser


def shot(pg, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.wait_for_timeout(900)  # the camera eases, moves and shots are animated
    pg.screenshot(path=str(SHOTS / f"knighthawks-{name}.png"))


def stage(pg) -> dict:
    return pg.evaluate("""() => { const s = window.khScreen; return {
        stage: s.view?.stage, toAct: s.snap?.to_act, status: s.snap?.status, step: s.snap?.step,
        plotting: s.view?.plotting, turn: s.view?.turn }; }""")


def wait_step_change(pg, step: int) -> None:
    pg.wait_for_function(f"Number(document.documentElement.dataset.step) !== {step}", timeout=30_000)


def click_hex(pg, q: int, r: int) -> None:
    """A click on the map's canvas at the centre of hex [q, r] (the page's own camera places it)."""
    x, y = pg.evaluate(f"""() => {{ const m = window.khScreen.map; const c = m.canvas.getBoundingClientRect();
        const [x, y] = m.screenOf([{q}, {r}]); return [c.left + x, c.top + y]; }}""")
    pg.mouse.click(x, y)


def play_one(pg, seen: set[str], prefix: str = "", wait=None) -> bool:
    """Take one decision by clicking what a person would click; False when the game is over. ``wait(pg, step)``
    waits for the page to move past a step (default: the harness's marker)."""
    pg.wait_for_function("window.khScreen.snap && (window.khScreen.snap.to_act || window.khScreen.snap.status === 'over')",
                         timeout=60_000)
    card = pg.locator(".ack-layer .ack-continue")  # the shell's "what happened" card: read, then Continue
    if card.count():
        card.click()
        pg.wait_for_selector(".ack-layer", state="detached")
    st = stage(pg)
    if st["status"] == "over":
        return False
    before = st["step"]
    planned = pg.evaluate("Object.keys(window.khScreen.view.plots ?? {}).length > 0")
    key = st["stage"] + ("-plot" if st["plotting"] else "-planned" if planned and st["stage"] == "move" else "")
    if key not in seen:
        seen.add(key)
        names = {"move": "movement", "move-plot": "plotting", "move-planned": "planned", "declare": "fire",
                 "intercept": "intercept", "repair": "repair"}
        shot(pg, prefix + names[key])
    controls = pg.locator(".kh-controls")
    if st["stage"] == "move" and st["plotting"]:
        # every other step by clicking its arrowed hex on the map, the rest with the straight-on button
        steps = pg.evaluate("window.khScreen.ctl.steps.map(c => [c.entry.action.turn, c.entry.note])")
        straight = [n for t, n in steps if t == 0] or [steps[0][1]]
        n = straight[0]
        if before % 2 == 0 and not n["end"]:
            from deltav.core.hexgrid import neighbour

            aim = neighbour(tuple(n["hex"]), n["facing"])
            click_hex(pg, *aim)
        else:
            btn = controls.locator("button.kh-btn.primary[data-legal]")
            (btn if btn.count() else controls.locator("button[data-legal]")).first.click()
    elif st["stage"] == "move":
        speed = controls.locator(".kh-speeds button.primary[data-legal]")
        if speed.count():
            speed.first.click()
        elif controls.locator(".kh-speeds button[data-legal]").count():
            controls.locator(".kh-speeds button[data-legal]").first.click()
        else:
            controls.locator("button.wide[data-legal]").first.click()
    elif st["stage"] == "declare":
        target = controls.locator(".kh-weapons button[data-legal]")
        if target.count():
            target.first.click()
        else:
            controls.locator("button.wide[data-legal]").first.click()
    elif st["stage"] == "intercept":
        controls.locator("button[data-legal]").last.click()
    else:
        controls.locator("button.wide[data-legal]").first.click()
    (wait or wait_step_change)(pg, before)
    return True


def secrets_ok(driver: Driver) -> None:
    """No snapshot (legal list and notes included) the page got holds a token secret from its seat when sent."""
    assert len(driver.frames) == len(driver.secrets)
    for snap, secret in zip(driver.frames, driver.secrets):
        text = json.dumps(snap)
        for tok in secret:
            assert tok not in text, f"secret {tok} in a snapshot at step {snap['step']}"


def test_a_whole_game_against_the_bot_by_clicks(harness, chromium):
    d = Driver({"scenario": "skirmish", "turn_limit": 4}, seed=3, seat=0)
    pg = open_page(chromium, harness, d)
    seen: set[str] = set()
    for _ in range(400):
        if not play_one(pg, seen):
            break
    st = stage(pg)
    assert st["status"] == "over", st
    assert {"move", "move-plot", "declare", "repair"} <= seen, seen
    result = pg.locator(".kh-result").inner_text()
    assert " won" in result or "A draw" in result
    assert pg.locator(".kh-report li").count() > 0
    shot(pg, "over")
    assert d.refusals == []
    assert pg.errors == []
    secrets_ok(d)
    pg.ctx.close()


def test_plotting_with_the_keyboard_and_refusals_in_words(harness, chromium):
    d = Driver({"scenario": "skirmish", "fleet0": "destroyer,frigate", "fleet1": "heavy_cruiser"}, seed=1, seat=0)
    pg = open_page(chromium, harness, d)
    pg.locator(".kh-map").focus()
    first = stage(pg)["step"]
    pg.keyboard.press("9")  # no speed 9 within a destroyer's ADF 3 from speed 2
    assert "Speed 9 is not possible" in pg.evaluate("window.kh.said.at(-1)")
    assert stage(pg)["step"] == first
    pg.keyboard.press("Tab")  # the next ship: the frigate
    assert pg.evaluate("window.khScreen.selected") == "a2-frigate"
    pg.keyboard.press("Shift+Tab")
    assert pg.evaluate("window.khScreen.selected") == "a1-destroyer"
    pg.keyboard.press("3")
    wait_step_change(pg, first)
    assert stage(pg)["plotting"][:2] == ["a1-destroyer", 3]
    shot(pg, "keyboard-plotting")
    for key in ("1", "2", "3"):  # left, straight, right
        s = stage(pg)["step"]
        pg.keyboard.press(key)
        wait_step_change(pg, s)
    plots = pg.evaluate("window.khScreen.view.plots")
    assert plots["a1-destroyer"] == [3, 0, [1, 0, -1]]
    # a click on an empty hex far away is explained, not ignored
    pg.keyboard.press("3")
    pg.wait_for_function("window.khScreen.view.plotting !== null")
    q, r = pg.evaluate("""() => { const v = window.khScreen.view; const s = v.ships.find(x => x.id === v.plotting[0]);
        const d = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]][s.facing];
        return [s.hex[0] - 2 * d[0], s.hex[1] - 2 * d[1]]; }""")
    click_hex(pg, q, r)  # two hexes behind the ship: no step goes there
    assert "not one of the next steps" in pg.evaluate("window.kh.said.at(-1)")
    for key in ("2", "2", "2"):
        s = stage(pg)["step"]
        pg.keyboard.press(key)
        wait_step_change(pg, s)
    s = stage(pg)["step"]
    pg.keyboard.press("Enter")  # end movement
    wait_step_change(pg, s)
    assert stage(pg)["stage"] != "move" or stage(pg)["turn"] > 1 or not stage(pg)["toAct"]
    assert d.refusals == [] and pg.errors == []
    pg.ctx.close()


def test_the_help_overlay_shows_the_engines_tables(harness, chromium):
    d = Driver({"scenario": "escort"}, seed=2, seat=0)
    pg = open_page(chromium, harness, d)
    pg.evaluate("window.kh.help()")
    help_ = pg.locator("#help")
    text = help_.inner_text()
    for words in ("Advanced Combat Table", "Damage Table", "Controls", "laser cannon", "heavy cruiser", "break apart"):
        assert words in text, words
    b = d.board()
    rows = help_.locator("table").nth(2).locator("tbody tr")
    assert rows.count() == len(b["damage_table"])
    lc = help_.locator("table").nth(1).locator("tbody tr").first.inner_text().split()
    assert lc == ["LC", *[str(x) for x in b["combat_table"]["LC"]]]
    shot(pg, "help")
    assert pg.errors == []
    pg.ctx.close()


def test_a_phone_viewport(harness, chromium):
    d = Driver({"scenario": "escort"}, seed=2, seat=0)
    pg = open_page(chromium, harness, d, viewport=(375, 812))
    pg.wait_for_timeout(300)
    overflow = pg.evaluate("document.documentElement.scrollWidth > window.innerWidth || "
                           "[...document.querySelectorAll('.kh-side *')]"
                           ".some(e => e.getBoundingClientRect().right > window.innerWidth + 1)")
    assert not overflow
    box = pg.locator(".kh-map").bounding_box()
    assert box["width"] == 375 and box["height"] > 300
    shot(pg, "mobile")
    before = stage(pg)["step"]
    target = pg.locator(".kh-controls button[data-legal]").first  # the escort opens with defensive fire
    target.scroll_into_view_if_needed()
    target.click()
    wait_step_change(pg, before)
    shot(pg, "mobile-declared")
    assert pg.errors == []
    pg.ctx.close()


def test_a_spectator_never_receives_a_secret(harness, chromium):
    d = Driver({"scenario": "station_assault", "turn_limit": 3}, seed=4, spectator=True)
    pg = open_page(chromium, harness, d)
    assert pg.locator(".kh-controls").inner_text().startswith("You are watching")
    n = 0
    while d.bot_step():
        n += 1
        if n % 5 == 0:
            pg.evaluate("window.kh.pull()")
    pg.evaluate("window.kh.pull()")
    assert stage(pg)["status"] == "over"
    assert len(d.frames) > 10
    for snap in d.frames:
        assert snap["seat"] is None and snap["legal"] == []
    assert d.secrets[0], "the scenario's traps start hidden from a spectator"
    secrets_ok(d)
    assert pg.evaluate("document.querySelectorAll('.kh-controls button[data-legal]').length") == 0
    shot(pg, "spectator")
    assert pg.errors == []
    pg.ctx.close()


@pytest.mark.parametrize("reduced", [False, True])
def test_moves_are_animated_unless_reduced_motion_is_asked(harness, chromium, reduced):
    d = Driver({"scenario": "skirmish", "fleet0": "destroyer", "fleet1": "frigate"}, seed=1, seat=0)
    pg = open_page(chromium, harness, d, reduced_motion=reduced)
    pg.locator(".kh-map").focus()
    s = stage(pg)["step"]
    pg.keyboard.press("Enter")  # end movement: the destroyer holds its course, then the bot moves and fires
    wait_step_change(pg, s)
    pg.wait_for_function("window.khScreen.snap.to_act || window.khScreen.snap.status === 'over'")
    n = pg.evaluate("window.khScreen.map.animations")
    assert (n == 0) if reduced else (n > 0), n
    assert pg.errors == []
    pg.ctx.close()
