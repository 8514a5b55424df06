"""Knight Hawks through the shell against a real ``deltav serve``: the defects of issue 27 a first game met.

- Fleets in the set-up are picked from the ship classes (a count per class, in words), not typed as class ids.
- A key never spills into the next decision: when the last weapon is declared the engine fires on its own and the
  bot's turn follows at once; an F pressed after that (the help says F fires) must not hold fire in the next
  defensive fire, and the same for the repair turn when all DCR is allocated (an Enter meant for the repair must
  not end the next movement). The automatic resolution is shown on a card the player acknowledges first.

Every WebSocket frame the page sends is kept (``page.frames_out``), so a test reads which step each submit was
made for. Screenshots: build/screenshots/knighthawks-play-*.png.
"""

from __future__ import annotations

import json
import time

from tests.web.conftest import wait_step_change
from tests.web.test_knighthawks_screen import shot


def sent(pg) -> list[dict]:
    """The submits the page sent, in order: {step, action}."""
    out = []
    for f in pg.frames_out:
        m = json.loads(f)
        if m.get("type") == "submit":
            out.append({"step": m["step"], "action": m["action"]})
    return out


def open_game(live_server, new_page, **options):
    room = live_server.create("knighthawks", ["human", "bot:normal"], seat=0, seed=3, **options)
    pg = new_page()
    pg.frames_out = []
    pg.on("websocket", lambda ws: ws.on("framesent", lambda p: pg.frames_out.append(p) if isinstance(p, str) else None))
    live_server.open_seat(pg, room)
    pg.wait_for_function("window.deltavShell?.state().screen === 'knighthawks' && window.khScreen?.snap", timeout=20_000)
    return pg


def khstate(pg) -> dict:
    return pg.evaluate("""() => { const s = window.khScreen; const v = s.view; return {
        step: window.deltavShell.state().step, toAct: s.snap.to_act, status: s.snap.status, stage: v.stage,
        mode: v.fire_mode, plotting: v.plotting, legal: s.snap.legal.map(e => e.action.type) }; }""")


def my_decision(pg, after: int) -> dict:
    """Wait for this seat's next decision after step ``after`` (or the end); its state."""
    pg.wait_for_function(f"""() => {{ const s = window.khScreen; return window.deltavShell.state().step > {after}
        && (s.snap.to_act || s.snap.status === 'over'); }}""", timeout=60_000)
    return khstate(pg)


def acknowledge_any(pg) -> list[str]:
    """Continue past a "what happened" card if one is up; its lines."""
    card = pg.locator(".ack-layer .ack-card")
    if not card.count():
        return []
    lines = card.locator("li").all_inner_texts()
    pg.keyboard.press("Enter")
    pg.wait_for_selector(".ack-layer", state="detached", timeout=10_000)
    return lines


def hold_course(pg) -> None:
    st = khstate(pg)
    pg.locator(".kh-map").focus()
    pg.keyboard.press("Enter")  # end movement: every ship holds its course
    wait_step_change(pg, st["step"])


def play_until(pg, done, what: str, limit: int = 120) -> dict:
    """Play this seat's decisions as a person would until ``done(state)``: hold every ship's course (Enter),
    declare every weapon at its first target (Enter, until the engine fires them), fire the first ICM choice
    offered, allocate each repair's largest block (Enter); a "what happened" card is continued. The state."""
    for _ in range(limit):
        st = my_decision(pg, -1)
        acknowledge_any(pg)
        st = khstate(pg)
        assert st["status"] != "over", f"the game ended before {what}"
        if done(st):
            return st
        pg.locator(".kh-map").focus()
        if st["stage"] == "intercept":
            pg.locator(".kh-controls button[data-legal]").first.click()
        else:
            pg.keyboard.press("Enter")
        wait_step_change(pg, st["step"])
    raise AssertionError(f"never reached {what}")


def declare_all(pg, stage: str) -> int:
    """Press Enter (declare the chosen weapon at its target, or allocate the chosen repair block) until the
    engine ends the ``stage`` on its own; the step the automatic resolution happened at."""
    pg.locator(".kh-map").focus()
    while True:
        st = khstate(pg)
        pg.keyboard.press("Enter")
        wait_step_change(pg, st["step"])
        now = khstate(pg)
        if not (now["toAct"] and now["stage"] == stage and now["mode"] == st["mode"]):
            break
    last = sent(pg)[-1]
    assert last["action"]["type"] == ("assign" if stage == "declare" else "repair"), last
    return last["step"] + 1


def test_an_f_after_the_automatic_fire_never_holds_fire_in_the_next_decision(live_server, new_page):
    pg = open_game(live_server, new_page, fleet0="destroyer,frigate", fleet1="heavy_cruiser", turn_limit=4)
    play_until(pg, lambda st: st["stage"] == "declare" and st["mode"] == "off" and "assign" in st["legal"],
               "an offensive fire")
    resolved_at = declare_all(pg, "declare")  # the last declaration: the engine fires the declared weapons
    nxt = my_decision(pg, resolved_at)
    assert nxt["stage"] == "declare" and nxt["mode"] == "def", nxt  # the bot moved: our defensive fire
    shot(pg, "play-after-autofire")
    before = len(sent(pg))
    pg.keyboard.press("f")  # meant for the fire that already happened
    pg.wait_for_timeout(600)
    spilled = [s for s in sent(pg)[before:] if s["action"]["type"] == "fire"]
    assert spilled == [], (
        f"the F was sent for step {spilled[0]['step']} (holding fire there); the fire it was meant for was resolved "
        f"automatically at step {resolved_at}")
    lines = acknowledge_any(pg)
    assert any("HIT" in x or "miss" in x for x in lines), lines  # the card said what fired and how it went
    assert khstate(pg)["stage"] == "declare"
    assert pg.errors == []


def test_an_enter_after_the_automatic_end_of_repairs_never_acts_on_the_next_turn(live_server, new_page):
    pg = open_game(live_server, new_page, fleet0="destroyer,frigate", fleet1="heavy_cruiser", turn_limit=5)
    play_until(pg, lambda st: st["stage"] == "repair" and "repair" in st["legal"], "a repair turn with damage")
    shot(pg, "play-repair")
    resolved_at = declare_all(pg, "repair")  # the last block of DCR: the repair turn ends on its own
    nxt = my_decision(pg, resolved_at)
    assert nxt["stage"] == "move", nxt  # the bot allocated, the rolls were made: turn 4 starts with our move
    pg.wait_for_timeout(300)
    card = pg.locator(".ack-layer .ack-card li").all_inner_texts()
    shot(pg, "play-repair-rolls")
    before = len(sent(pg))
    pg.keyboard.press("Enter")  # meant for the repair allocation that already ended
    pg.wait_for_timeout(600)
    spilled = sent(pg)[before:]
    assert spilled == [], (
        f"the Enter was sent for step {spilled[0]['step']} ({spilled[0]['action']['type']}); the repair turn it was "
        f"meant for ended automatically at step {resolved_at}")
    # the card showed our secret repair rolls; the Enter pressed once it was up continued it, and nothing else
    assert card and all("repairs" in x for x in card), card
    assert pg.locator(".ack-layer").count() == 0
    assert khstate(pg)["stage"] == "move"
    assert pg.errors == []


def test_fleets_are_picked_from_the_ship_classes_in_setup(live_server, new_page):
    pg = new_page()
    pg.goto(live_server.base + "/")
    pg.wait_for_selector("html[data-ready=true]")
    pg.click("[data-game=knighthawks] .setup")
    row = pg.locator(".opt-row", has=pg.locator("#opt-fleet0"))
    assert row.locator("input[type=text]").count() == 0  # nothing to type
    assert row.locator("label").first.inner_text() == "UPF fleet"  # not the option's id, fleet0
    labels = row.locator(".multi-item span").all_inner_texts()
    assert "heavy cruiser" in labels and "assault scout" in labels and not any("_" in x for x in labels)
    assert pg.input_value("#opt-fleet0-destroyer") == "1"  # the default fleet: a destroyer, a frigate, a scout
    pg.fill("#opt-fleet0-destroyer", "0")
    pg.fill("#opt-fleet0-battleship", "1")
    pg.fill("#opt-fleet1-fighter", "4")
    shot(pg, "play-setup-fleets")
    pg.click("text=Create the game")
    pg.wait_for_url("**/play/*")
    code = pg.url.rstrip("/").split("/")[-1]
    options = live_server.room(code)["options"]
    assert options["fleet0"] == "assault_scout,frigate,battleship"  # in the order of the classes
    assert options["fleet1"] == "4*fighter,heavy_cruiser"
    pg.wait_for_function("window.khScreen?.snap")
    names = pg.evaluate("window.khScreen.view.ships.map(s => s.name)")
    assert "Battleship 3" in names and "Fighter 4" in names and "Heavy cruiser 5" in names
    assert pg.errors == []


def test_the_result_dialog_shows_the_victory_points_as_the_record_scores_them(live_server, new_page):
    """A bot-only room played to its end, watched: the result dialog's table is the match summary's victory points
    (destroyed and driven off per seat), whose totals are the record's result scores, with the match's numbers."""
    room = live_server.create("knighthawks", ["bot:random", "bot:random"], seed=3)
    t0 = time.time()
    while live_server.room(room.code)["status"] != "finished":
        assert time.time() - t0 < 90, "the match did not finish"
        time.sleep(0.2)
    record = live_server.http("GET", f"/rooms/{room.code}/record?match=1")[1]
    scores = record["result"]["scores"]
    pg = new_page()
    live_server.open_watch(pg, room.code)
    pg.wait_for_selector(".dialog-result")
    table = pg.locator(".dialog-result .result-scores")
    assert table.locator("caption").inner_text() == "Victory points"
    assert table.locator("th").all_inner_texts()[:5] == ["Player", "Side", "Ships destroyed", "Ships driven off",
                                                         "Points"]
    totals = table.locator("tr td:last-child").all_inner_texts()
    assert [float(c) for c in totals] == [float(x) for x in scores]
    pg.locator(".dialog-result .result-more summary").click()  # the match in numbers: folded until asked for
    stats = pg.locator(".dialog-result .result-stats").inner_text()
    assert "Shots fired" in stats and "Hull points dealt" in stats
    assert "class points" in pg.locator(".dialog-result .result-notes").inner_text()
    shot(pg, "play-result-watched")
    assert pg.errors == []
