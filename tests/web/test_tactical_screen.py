"""The tactical game screen in a real Chromium against a real server (uvicorn on a free port, a temporary SQLite
database, bots deciding in the server): burns plotted with the keyboard and with clicks, a Bi-Planetary race
flown to a landing on Venus with the astrogation assistant, a reload that reconnects, a spectator that never
receives an undetected ship, the help overlay, combat odds, a phone viewport with touch. The screen is mounted
on the shell's match page (/play/CODE), reached from the lobby or by the room's token. Screenshots:
build/screenshots/tactical-*.png."""

from __future__ import annotations

import json

import pytest


class Idler:
    """Seat 1 played by a plain socket client that ends every phase (its ship stays landed on Venus): a
    predictable opponent for a race. In fleet building it buys ``buys`` (ship types, in order), then is ready."""

    def __init__(self, live_server, code, buys=()):
        import threading

        self.buys = list(buys)
        seat = live_server.join(code, name="ben")
        self.url = f"{live_server.ws}/ws/{code}?token={seat.token}"
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        import contextlib

        from websockets.exceptions import ConnectionClosed

        with contextlib.suppress(ConnectionClosed):  # the server stopped at the end of the test session
            self.play()

    def play(self):
        from tests.server.helpers import hello_connect_sync

        with hello_connect_sync(self.url) as ws:
            while not self.stop:
                try:
                    msg = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    continue
                if msg.get("type") != "state":
                    continue
                s = msg["snapshot"]
                if s["status"] == "over":
                    return
                if s["to_act"]:
                    acts = [e["action"] for e in s["legal"]]
                    buy = [a for a in acts if a["type"] == "buy" and self.buys and a["item"] == self.buys[0]]
                    if buy:
                        self.buys.pop(0)
                    act = buy[0] if buy else next(a for a in acts if a["type"].startswith("end_") or a["type"] == "fleet_ready")
                    ws.send(json.dumps({"type": "submit", "step": s["step"], "action": act}))


def play(live_server, new_page, scenario="biplanetary", seats=("human", "bot:random"), seed=2, width=1280,
         height=800, mobile=False, idler_buys=(), **options):
    room = live_server.create("tactical", list(seats), seed=seed, name="ann", scenario=scenario, **options)
    pg = new_page(width=width, height=height, mobile=mobile)
    if "human" in seats[1:]:
        pg.idler = Idler(live_server, room.code, idler_buys)
    live_server.open_seat(pg, room)
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15000)
    pg.room = room
    return pg


def status_text(pg) -> str:
    return pg.inner_text(".match .status")


def settle(pg):
    pg.wait_for_function("window.deltavTactical.view.camera.settled", timeout=5000)
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def snap(pg) -> dict:
    return pg.evaluate("window.deltavTactical.screen.snapshot()")


def wait_my_astrogation(pg, timeout=30000):
    pg.wait_for_function(
        "(() => { const s = window.deltavTactical.screen.snapshot(); return s && (s.status === 'over' || "
        "(s.to_act && s.view.phase === 'astrogation' && Object.keys(s.view.orders).length === 0)); })()",
        timeout=timeout)


def wait_step(pg, step, timeout=30000):
    pg.wait_for_function(f"window.deltavTactical.screen.snapshot().step > {step}", timeout=timeout)


def ask_hint(pg, live_server) -> str:
    """Press I and wait for the answer, a hint or a refusal (never "Asking the hard bot…" for ever); a refusal
    fails with the end of the server log, which says why."""
    pg.keyboard.press("i")
    pg.wait_for_function("(() => { const t = document.querySelector('.match .status').textContent; "
                         "return t.startsWith('Hint') || t.startsWith('No hint') || t.startsWith('A hint') || "
                         "t.startsWith('The game moved on'); })()",
                         timeout=90000)
    text = status_text(pg)
    assert text.startswith("Hint"), f"{text}\n{live_server.log_tail()}"
    return text


def test_a_game_against_a_bot_from_the_lobby(live_server, new_page, screenshots):
    pg = new_page()
    pg.goto(live_server.base + "/")
    pg.wait_for_selector("html[data-ready=true]")
    pg.click("[data-game=tactical] .play-now")
    pg.wait_for_url("**/play/*")
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null", timeout=15000)
    assert pg.evaluate("window.deltavShell.state().screen") == "tactical"
    wait_my_astrogation(pg)
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-from-lobby.png"))
    assert "Objective: land on Venus" in pg.inner_text(".tac-status")
    assert pg.locator(".tac-dir:not([disabled])").count() >= 5  # the takeoff burns (SW crashes but is legal)
    assert not pg.errors, pg.errors


def test_keyboard_burns_preview_and_confirm(live_server, new_page, screenshots):
    pg = play(live_server, new_page)
    wait_my_astrogation(pg)
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-start.png"))
    pg.keyboard.press("6")  # down on the map (the engine's direction 5): toward Venus
    detail = pg.inner_text(".tac-detail")
    assert "Stopped + burn ↓ 6" in detail and "Fuel 20 → 19" in detail, detail
    pg.keyboard.press("5")  # SW from the Mars base crashes into Mars: the preview says so
    assert "CRASH into Mars" in pg.inner_text(".tac-detail")
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-crash-warning.png"))
    pg.keyboard.press("Shift+Digit6")  # an overload on top of the down-left burn
    assert "burn ↙ 5 + ↓ 6" in pg.inner_text(".tac-detail")
    pg.keyboard.press("0")
    assert "no burn" in pg.inner_text(".tac-detail")
    # an impossible key is explained in words
    pg.keyboard.press("g")
    assert "No landing with this burn" in status_text(pg)
    pg.keyboard.press("6")
    step = snap(pg)["step"]
    pg.keyboard.press("Enter")
    wait_step(pg, step + 1)
    wait_my_astrogation(pg)
    ship = next(s for s in snap(pg)["view"]["ships"] if s["id"] == "p0s0")
    assert ship["velocity"] == [0, 1] and not ship["landed"], ship
    assert not pg.errors, pg.errors


def test_clicks_on_burn_arrows(live_server, new_page, screenshots):
    pg = play(live_server, new_page, seed=4)
    wait_my_astrogation(pg)
    settle(pg)
    # the arrow for burn E (direction 0) sits beside the drift hex (the ship is landed: drift = its hex)
    pt = pg.evaluate("""() => { const v = window.deltavTactical.view; const s = window.deltavTactical.screen.snapshot();
        const sh = s.view.ships.find(x => x.id === 'p0s0'); const q = sh.position[0] + 1, r = sh.position[1];
        const [wx, wy] = [1.5 * q, Math.sqrt(3) / 2 * q + Math.sqrt(3) * r];
        const [sx, sy] = v.camera.toScreen(wx, wy); const b = v.canvas.getBoundingClientRect();
        return [b.left + sx, b.top + sy]; }""")
    pg.mouse.click(pt[0], pt[1])
    assert "burn ↘ 1" in pg.inner_text(".tac-detail")
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-click-burn.png"))
    # the panel's burn pad works too, and Confirm sends it
    pg.click("button.tac-dir:has-text('↗ 2')")
    assert "burn ↗ 2" in pg.inner_text(".tac-detail")
    step = snap(pg)["step"]
    pg.click("button:has-text('Confirm turn')")
    wait_step(pg, step + 1)
    assert not pg.errors, pg.errors


def test_the_assistant_flies_biplanetary_to_a_landing_and_a_reload_reconnects(live_server, new_page, screenshots):
    pg = play(live_server, new_page, seats=("human", "human"), seed=2)
    try:
        reloaded = False
        for turn in range(20):
            wait_my_astrogation(pg, timeout=60000)
            s = snap(pg)
            if s["status"] == "over":
                break
            ship = next(x for x in s["view"]["ships"] if x["id"] == "p0s0")
            assert not ship["destroyed"], ship
            if ship["disabled"]:
                pg.keyboard.press("Enter")  # it can only coast
            else:
                pg.click("button:has-text('Plan to objective')")
                pg.wait_for_function("document.querySelector('.tac-plan') !== null", timeout=30000)
                if turn == 0:
                    settle(pg)
                    pg.screenshot(path=str(screenshots / "tactical-assistant-plan.png"))
                pg.keyboard.press("b")
                assert "Plan applied" in status_text(pg)
                pg.keyboard.press("Enter")
                if "Enter again" in status_text(pg):
                    pg.keyboard.press("Enter")
            wait_step(pg, s["step"])
            if turn == 2 and not reloaded:
                reloaded = True
                pg.reload()
                pg.wait_for_selector("html[data-ready=true]")
                pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot() !== null")
                assert pg.evaluate("window.deltavShell.state().seat") == 0
        s = snap(pg)
        assert s["status"] == "over", s["view"]["turn"]
        assert s["result"]["winners"] == [0] and "Venus" in s["result"]["reason"], s["result"]
        pg.wait_for_timeout(300)
        pg.screenshot(path=str(screenshots / "tactical-landed-victory.png"))
        assert "Victory" in pg.inner_text(".tac-detail")
        assert not pg.errors, pg.errors
    finally:
        pg.idler.stop = True


def test_a_spectator_never_receives_an_undetected_ship(live_server, new_page, screenshots):
    """Escape with fog of war, bots on both seats: every frame the spectator's page received is checked against
    the secret tokens of the spectator at that step (replayed from the finished record)."""
    from tests.secret_check import leaks, secret_history

    room = live_server.create("tactical", ["bot:normal", "bot:random"], seed=11, scenario="escape", turn_limit=6)
    pg = new_page()
    live_server.open_watch(pg, room.code)
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.screen.snapshot()?.status === 'over'",
                         timeout=120000)
    pg.wait_for_selector(".overlay:not([hidden])")
    pg.keyboard.press("Escape")  # the result dialog closed: the final board as a spectator sees it
    pg.wait_for_selector(".overlay", state="hidden")
    pg.evaluate("window.deltavTactical.view.centreOn([12, -16], 12)")
    settle(pg)
    pg.screenshot(path=str(screenshots / "tactical-spectator.png"))
    status, record = live_server.http("GET", f"/rooms/{room.code}/record")
    assert status == 200
    history = secret_history(record, [None])
    checked = 0
    for text in pg.frames_in:
        msg = json.loads(text)
        if msg.get("type") != "state":
            continue
        step = msg["snapshot"]["step"]
        assert not leaks(msg, step, None, history), (step, leaks(msg, step, None, history))
        checked += 1
    assert checked >= 1
    assert any(history[k][None] for k in range(len(history))), "the match had no hidden ship to leak"
    assert not pg.errors, pg.errors


def test_the_help_overlay_has_the_engine_tables(live_server, new_page, screenshots):
    pg = play(live_server, new_page, scenario="duel", seed=3)
    pg.keyboard.press("?")
    pg.wait_for_selector(".tac-help")
    text = pg.inner_text(".overlay")
    for want in ("Gun Combat Results Table", "1:4", "4:1", "corvette", "dreadnaught", "Mine (N)", "Shift+1-6",
                 "Win conditions"):
        assert want in text, want
    pg.screenshot(path=str(screenshots / "tactical-help.png"))
    assert not pg.errors, pg.errors


def test_a_phone_with_touch(live_server, new_page, screenshots):
    pg = play(live_server, new_page, seed=5, width=375, height=812, mobile=True)
    wait_my_astrogation(pg)
    settle(pg)
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, width
    pg.tap("button.tac-dir:has-text('↓ 6')")
    assert "burn ↓ 6" in pg.inner_text(".tac-detail")
    pg.screenshot(path=str(screenshots / "tactical-mobile.png"))
    step = snap(pg)["step"]
    pg.tap("button:has-text('Confirm turn')")
    wait_step(pg, step + 1)
    assert not pg.errors, pg.errors


def test_a_hint_against_the_bot(live_server, new_page):
    pg = play(live_server, new_page, seed=6)
    wait_my_astrogation(pg)
    assert "your corvette" in ask_hint(pg, live_server)
    assert not pg.errors, pg.errors


def test_combat_targets_and_odds(live_server, new_page, screenshots):
    """Duel: the frigates close in; at the first combat phase of ours, ] picks the target and the panel shows the
    odds from the engine's note; Enter attacks."""
    pg = play(live_server, new_page, scenario="duel", seats=("human", "bot:normal"), seed=8)
    for _ in range(40):
        pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.status === 'over' "
                             "|| s.to_act; })()", timeout=60000)
        s = snap(pg)
        if s["status"] == "over":
            break
        if s["view"]["phase"] == "combat" and any(e["action"]["type"] == "add_attacker" for e in s["legal"]):
            pg.keyboard.press("]")
            detail = pg.inner_text(".tac-detail")
            assert "Attack on the enemy frigate" in detail and "against" in detail, detail
            settle(pg)
            pg.screenshot(path=str(screenshots / "tactical-combat.png"))
            pg.keyboard.press("Enter")
            pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.view.phase "
                                 "!== 'combat' || !s.to_act || !s.legal.some(e => e.action.type === 'fire'); })()")
            break
        # head for the enemy: the hint picks a sensible order; else end the phase
        if s["view"]["phase"] == "astrogation":
            ask_hint(pg, live_server)
        pg.keyboard.press("Enter")
        if "Enter again" in status_text(pg):
            pg.keyboard.press("Enter")
        wait_step(pg, s["step"])
        if s["view"]["phase"] == "astrogation":
            # Enter sends the order and then end_astrogation: wait for both, not the first step alone
            pg.wait_for_function("(() => { const s = window.deltavTactical.screen.snapshot(); return s.status === "
                                 "'over' || !s.to_act || s.view.phase !== 'astrogation'; })()", timeout=30000)
    else:
        pytest.fail("no combat phase came")
    assert not pg.errors, pg.errors
