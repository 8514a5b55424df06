"""The tactical game screen in a real Chromium against a real server (uvicorn on a free port, a temporary SQLite
database, bots deciding in the server): burns plotted with the keyboard and with clicks, a Bi-Planetary race
flown to a landing on Venus with the astrogation assistant, a reload that reconnects, a spectator that never
receives an undetected ship, the help overlay, combat odds, a phone viewport with touch. The screen is mounted
by its bare host page (web/src/tactical/devHarness.ts) over the real protocol. Screenshots:
build/screenshots/tactical-*.png."""

from __future__ import annotations

import json
import subprocess

import pytest

from deltav.core.protocol import get_game, json_tokens
from deltav.games import load_all
from deltav.server.rooms import Settings
from tests.server.helpers import ThreadServer, http
from tests.web.conftest import WEB, node_ready

load_all()
GAME = get_game("tactical")

HARNESS_HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>deltav tactical</title>
<style>html,body{margin:0;height:100%;background:#03050b;color:#d7dff0;font:14px system-ui,sans-serif}
#top{height:34px;display:flex;align-items:center;gap:12px;padding:0 12px;background:#0a0f1d;border-bottom:1px solid #1c2640}
#phase{font-weight:700;color:#fff}#status{color:#aab5cc;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
#app{height:calc(100% - 35px)}#help{position:fixed;inset:40px;overflow:auto;background:#0a0f1d;border:1px solid #3ee0ff;
border-radius:10px;padding:16px;z-index:5}</style></head>
<body><div id="top"><span id="phase" aria-live="polite"></span><span id="status" role="status" aria-live="polite"></span></div>
<main id="app"></main><div id="help" hidden role="dialog" aria-label="Help"></div>
<script type="module" src="harness.js"></script></body></html>"""


@pytest.fixture(scope="module")
def harness_dir(tmp_path_factory):
    node_ready()
    out = tmp_path_factory.mktemp("tactical_harness")
    script = ("import('esbuild').then(e => e.build({entryPoints: ['src/tactical/devHarness.ts'], bundle: true, "
              f"format: 'esm', target: ['es2022'], outfile: {json.dumps(str(out / 'harness.js'))}, logLevel: 'error'}}))"
              ".catch(err => { console.error(err); process.exit(1); })")
    proc = subprocess.run(["node", "-e", script], cwd=WEB, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    (out / "index.html").write_text(HARNESS_HTML)
    for sc in ("biplanetary", "duel", "escape"):
        (out / f"board-{sc}.json").write_text(json.dumps(GAME.board({"scenario": sc})))
    return out


@pytest.fixture(scope="module")
def harness_url(harness_dir):
    import functools
    import http.server
    import threading

    from tests.web.conftest import _QuietHandler

    handler = functools.partial(_QuietHandler, directory=str(harness_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    db = tmp_path_factory.mktemp("db") / "t.db"
    with ThreadServer(f"sqlite+aiosqlite:///{db}", Settings(grace_seconds=30, bot_workers=0)) as srv:
        yield srv


def new_room(live, scenario="biplanetary", seats=("human", "bot:random"), seed=2, options=None):
    status, body = http(live.base, "POST", "/rooms", {"game": "tactical", "seats": list(seats), "seed": seed,
                                                      "name": "ann", "options": {"scenario": scenario, **(options or {})}})
    assert status == 201, body
    return body


class Idler:
    """Seat 1 played by a plain socket client that ends every phase (its ship stays landed on Venus): a
    predictable opponent for a race."""

    def __init__(self, live, room):
        import threading

        status, body = http(live.base, "POST", f"/rooms/{room['code']}/join", {"name": "ben"})
        assert status == 200, body
        self.url = f"{live.ws}/ws/{room['code']}?token={body['token']}"
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        from websockets.sync.client import connect

        with connect(self.url) as ws:
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
                    end = next(e for e in s["legal"] if e["action"]["type"].startswith("end_"))
                    ws.send(json.dumps({"type": "submit", "step": s["step"], "action": end["action"]}))


def open_page(browser, harness_url, live, room, scenario="biplanetary", viewport=(1280, 800), token=True, **ctx_kw):
    ctx = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, device_scale_factor=1, **ctx_kw)
    pg = ctx.new_page()
    errors: list[str] = []
    frames: list[str] = []
    pg.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    pg.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else f.decode())))
    q = f"ws={live.ws}/ws/{room['code']}&board=board-{scenario}.json"
    if token:
        q += f"&token={room['token']}"
    pg.goto(f"{harness_url}/index.html?{q}")
    pg.wait_for_selector("html[data-ready=true]")
    pg.wait_for_function("window.harness.snap() !== null")
    pg.errors = errors
    pg.frames_seen = frames
    return ctx, pg


def settle(pg):
    pg.wait_for_function("window.deltavTactical && window.deltavTactical.view.camera.settled", timeout=5000)
    pg.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def snap(pg) -> dict:
    return pg.evaluate("window.harness.snap()")


def wait_my_astrogation(pg, timeout=30000):
    pg.wait_for_function(
        "(() => { const s = window.harness.snap(); return s && (s.status === 'over' || (s.to_act && s.view.phase === 'astrogation' && Object.keys(s.view.orders).length === 0)); })()",
        timeout=timeout)


def test_keyboard_burns_preview_and_confirm(browser, harness_url, live, screenshots):
    room = new_room(live)
    ctx, pg = open_page(browser, harness_url, live, room)
    try:
        wait_my_astrogation(pg)
        settle(pg)
        pg.screenshot(path=str(screenshots / "tactical-start.png"))
        pg.keyboard.press("6")  # SE: the burn toward Venus
        detail = pg.inner_text(".tac-detail")
        assert "v (0, 0)" in detail and "burn SE" in detail and "Fuel 20 → 19" in detail, detail
        pg.keyboard.press("5")  # SW from the Mars base crashes into Mars: the preview says so
        assert "CRASH into Mars" in pg.inner_text(".tac-detail")
        settle(pg)
        pg.screenshot(path=str(screenshots / "tactical-crash-warning.png"))
        pg.keyboard.press("Shift+Digit6")  # an overload on top of SW
        assert "burn SW+SE" in pg.inner_text(".tac-detail")
        pg.keyboard.press("0")
        assert "no burn" in pg.inner_text(".tac-detail")
        pg.keyboard.press("6")
        step = snap(pg)["step"]
        pg.keyboard.press("Enter")
        pg.wait_for_function(f"window.harness.snap().step > {step + 1}")
        rec = http(live.base, "GET", f"/rooms/{room['code']}")[1]
        assert rec["step"] >= step + 2
        wait_my_astrogation(pg)
        ship = next(s for s in snap(pg)["view"]["ships"] if s["id"] == "p0s0")
        assert ship["velocity"] == [0, 1] and not ship["landed"], ship
        assert not pg.errors, pg.errors
    finally:
        ctx.close()


def test_clicks_on_burn_arrows(browser, harness_url, live, screenshots):
    room = new_room(live, seed=4)
    ctx, pg = open_page(browser, harness_url, live, room)
    try:
        wait_my_astrogation(pg)
        settle(pg)
        # the arrow for burn E (direction 0) sits beside the drift hex (the ship is landed: drift = its hex)
        pt = pg.evaluate("""() => { const v = window.deltavTactical.view; const s = window.harness.snap();
            const sh = s.view.ships.find(x => x.id === 'p0s0'); const q = sh.position[0] + 1, r = sh.position[1];
            const [wx, wy] = [1.5 * q, Math.sqrt(3) / 2 * q + Math.sqrt(3) * r];
            const [sx, sy] = v.camera.toScreen(wx, wy); const b = v.canvas.getBoundingClientRect();
            return [b.left + sx, b.top + sy]; }""")
        pg.mouse.click(pt[0], pt[1])
        assert "burn E" in pg.inner_text(".tac-detail")
        settle(pg)
        pg.screenshot(path=str(screenshots / "tactical-click-burn.png"))
        # the on-screen burn pad works too, and Confirm sends it
        pg.click("button.tac-dir:has-text('NE')")
        assert "burn NE" in pg.inner_text(".tac-detail")
        step = snap(pg)["step"]
        pg.click("button:has-text('Confirm turn')")
        pg.wait_for_function(f"window.harness.snap().step > {step + 1}")
        assert not pg.errors, pg.errors
    finally:
        ctx.close()


def test_the_assistant_flies_biplanetary_to_a_landing_and_a_reload_reconnects(browser, harness_url, live, screenshots):
    room = new_room(live, seed=2, seats=("human", "human"))
    idler = Idler(live, room)
    ctx, pg = open_page(browser, harness_url, live, room)
    try:
        reloaded = False
        for turn in range(20):
            wait_my_astrogation(pg, timeout=60000)
            s = snap(pg)
            if s["status"] == "over":
                break
            ship = next(x for x in s["view"]["ships"] if x["id"] == "p0s0")
            if ship["destroyed"]:
                pytest.fail(f"the ship was destroyed: {ship}")
            if ship["disabled"]:
                pg.keyboard.press("Enter")  # it can only coast
            else:
                pg.click("button:has-text('Plan to objective')")
                pg.wait_for_function("document.querySelector('.tac-plan') !== null", timeout=30000)
                if turn == 0:
                    settle(pg)
                    pg.screenshot(path=str(screenshots / "tactical-assistant-plan.png"))
                pg.keyboard.press("b")
                assert "Plan applied" in pg.inner_text("#status")
                pg.keyboard.press("Enter")
                if "Press Enter again" in pg.inner_text("#status"):
                    pg.keyboard.press("Enter")
            pg.wait_for_function(f"window.harness.snap().step > {s['step']}")
            if turn == 2 and not reloaded:
                reloaded = True
                pg.reload()
                pg.wait_for_selector("html[data-ready=true]")
                pg.wait_for_function("window.harness.snap() !== null")
        s = snap(pg)
        assert s["status"] == "over", s["view"]["turn"]
        assert s["result"]["winners"] == [0] and "Venus" in s["result"]["reason"], s["result"]
        settle(pg)
        pg.screenshot(path=str(screenshots / "tactical-landed-victory.png"))
        assert "Victory" in pg.inner_text(".tac-detail")
        assert not [e for e in pg.errors if "WebSocket" not in e], pg.errors
    finally:
        idler.stop = True
        ctx.close()


def test_a_spectator_never_receives_an_undetected_ship(browser, harness_url, live, screenshots):
    """Escape with fog of war, bots on both seats: every frame the spectator's page received is checked against
    the secret tokens of the spectator at that step (replayed from the finished record)."""
    from tests.secret_check import leaks, secret_history

    room = new_room(live, scenario="escape", seats=("bot:normal", "bot:random"), seed=11,
                    options={"turn_limit": 6})
    ctx, pg = open_page(browser, harness_url, live, room, scenario="escape", token=False)
    try:
        pg.wait_for_function("window.harness.snap().status === 'over'", timeout=120000)
        settle(pg)
        pg.screenshot(path=str(screenshots / "tactical-spectator.png"))
        status, record = http(live.base, "GET", f"/rooms/{room['code']}/record")
        assert status == 200
        history = secret_history(record, [None])
        checked = 0
        for text in pg.frames_seen:
            msg = json.loads(text)
            if msg.get("type") != "state":
                continue
            step = msg["snapshot"]["step"]
            assert not leaks(msg, step, None, history), (step, leaks(msg, step, None, history))
            checked += 1
        assert checked >= 1
        # the spectator's ships are only the detected ones, and some enemy ships were hidden at some point
        assert any(history[k][None] for k in range(len(history)))
        assert not pg.errors, pg.errors
    finally:
        ctx.close()


def test_the_help_overlay_has_the_engine_tables(browser, harness_url, live, screenshots):
    room = new_room(live, scenario="duel", seed=3)
    ctx, pg = open_page(browser, harness_url, live, room, scenario="duel")
    try:
        pg.keyboard.press("?")
        pg.wait_for_selector("#help:not([hidden]) .tac-help")
        text = pg.inner_text("#help")
        for want in ("Gun Combat Results Table", "1:4", "4:1", "corvette", "dreadnaught", "Mine (N)", "Shift+1-6",
                     "Win conditions"):
            assert want in text, want
        pg.screenshot(path=str(screenshots / "tactical-help.png"))
        assert not pg.errors, pg.errors
    finally:
        ctx.close()


def test_a_phone_with_touch(browser, harness_url, live, screenshots):
    room = new_room(live, seed=5)
    ctx, pg = open_page(browser, harness_url, live, room, viewport=(375, 812), has_touch=True, is_mobile=True)
    try:
        wait_my_astrogation(pg)
        settle(pg)
        # nothing of the panel is wider than the screen
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, width
        pg.tap("button.tac-dir:has-text('SE')")
        assert "burn SE" in pg.inner_text(".tac-detail")
        pg.screenshot(path=str(screenshots / "tactical-mobile.png"))
        step = snap(pg)["step"]
        pg.tap("button:has-text('Confirm turn')")
        pg.wait_for_function(f"window.harness.snap().step > {step + 1}")
        assert not pg.errors, pg.errors
    finally:
        ctx.close()


def test_notes_in_frames_never_name_a_secret(browser, harness_url, live):
    """The seat's own frames in a fog-of-war game: its legal notes name nothing secret from it."""
    room = new_room(live, scenario="duel", seed=9)
    ctx, pg = open_page(browser, harness_url, live, room, scenario="duel")
    try:
        wait_my_astrogation(pg)
        frames = [json.loads(f) for f in pg.frames_seen]
        states = [f for f in frames if f.get("type") == "state"]
        assert states
        s = states[-1]["snapshot"]
        hidden = {sh for sh in ("p1s0", "p1s1", "p1s2") if not any(x["id"] == sh for x in s["view"]["ships"])}
        for e in s["legal"]:
            if "note" in e:
                assert not (json_tokens(e["note"]) & hidden)
    finally:
        ctx.close()
