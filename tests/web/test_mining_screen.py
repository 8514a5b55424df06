"""The mining screen on snapshots from the real engine, in a real Chromium: each decision phase draws the field
and offers its controls, clicks stand for legal entries only, refused clicks are explained, and screenshots of
every phase go to build/screenshots/mining-*.png. (The end-to-end games against the server are in
test_mining_play.py.)"""

from __future__ import annotations

import functools
import http.server
import json
import threading

import pytest

from deltav.games.mining.visibility import squares_of
from tests.web.conftest import WEB, run_node
from tests.web.mining_fixtures import fixtures

HTML = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>mining harness</title><link rel="icon" href="data:,">
<style>html,body{margin:0;height:100%;background:#03050b;color:#dfe6f3;font-family:system-ui}
#banner{position:fixed;top:0;left:0;right:0;height:28px;padding:4px 10px;font-size:14px;background:#0b1020}
#status{position:fixed;bottom:0;left:0;right:0;height:24px;padding:3px 10px;font-size:13px;background:#0b1020}
#root{position:fixed;top:28px;bottom:24px;left:0;right:0;overflow:auto}
#help{position:fixed;inset:40px;overflow:auto;background:#0b1020;padding:16px;z-index:9}
@media (max-width: 820px){#root{position:static;margin-top:28px}body{overflow:auto;height:auto}}
</style></head><body><div id="banner" aria-live="polite"></div><div id="root"></div>
<div id="status" role="status" aria-live="polite"></div><div id="help" hidden></div>
<script id="fixtures" type="application/json">FIXTURES</script><script type="module" src="harness.js"></script>
</body></html>"""

BUILD = """
import * as esbuild from "esbuild";
await esbuild.build({entryPoints: [process.argv[1]], outfile: process.argv[2], bundle: true, format: "esm",
  target: ["es2022"], logLevel: "warning"});
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002
        pass


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    out = tmp_path_factory.mktemp("mining_harness")
    proc = run_node(["node", "--input-type=module", "-e", BUILD, str(WEB / "test" / "harness" / "mining.ts"),
                     str(out / "harness.js")])
    assert proc.returncode == 0, proc.stderr
    fx = fixtures(3)
    (out / "index.html").write_text(HTML.replace("FIXTURES", json.dumps(fx).replace("<", "\\u003c")))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(out)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html", fx
    finally:
        server.shutdown()
        server.server_close()


def open_page(browser, url, width=1280, height=800, **kw):
    ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1, **kw)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_selector("html[data-ready=true]")
    pg.errors = errors
    return ctx, pg


def show(pg, fx, label) -> dict:
    i = next(i for i, f in enumerate(fx) if f["label"] == label)
    pg.evaluate(f"window.harness.show({i})")
    pg.wait_for_function(f"document.querySelector('.mn-board').dataset.drawn === '{fx[i]['snapshot']['step']}'")
    return fx[i]["snapshot"]


def test_every_phase_draws_and_offers_its_controls(browser, harness, screenshots):
    url, fx = harness
    ctx, pg = open_page(browser, url)
    for f in fx:
        snap = show(pg, fx, f["label"])
        pg.screenshot(path=str(screenshots / f"mining-phase-{f['label']}.png"))
        prompt = pg.inner_text(".mn-prompt h2")
        assert prompt, f["label"]
        if snap["to_act"]:
            # every button on the page stands for a legal entry type of this snapshot
            types = {e["action"]["type"] for e in snap["legal"]}
            shown = set(pg.eval_on_selector_all("[data-action]", "els => els.map(e => e.dataset.action)"))
            assert shown - {"survey-open"} <= types, (f["label"], shown, types)
    assert pg.errors == []
    ctx.close()


def click_square(pg, sq: int) -> None:
    x, y = pg.evaluate(f"""() => {{
        const m = window.deltavMining, r = m.canvas.getBoundingClientRect(), [x, y] = m.board.centre({sq});
        return [r.left + x, r.top + y];
    }}""")
    pg.mouse.click(x, y)


def test_clicks_submit_only_legal_entries_and_refusals_are_explained(browser, harness, screenshots):
    url, fx = harness
    ctx, pg = open_page(browser, url)
    snap = show(pg, fx, "action")
    me = snap["seat"]
    legal = [e["action"] for e in snap["legal"]]
    # a square without my rocket: refused in words, nothing sent
    empty = next(s["square"] for s in squares_of(snap["view"]) if s["status"] == "face_down" and not s["rockets"][me])
    click_square(pg, empty)
    assert pg.evaluate("window.harness.submitted.length") == 0
    assert "no rocket" in pg.evaluate("window.harness.said.at(-1)")
    # click the station (select), then a square: the matching move is sent
    click_square(pg, 24)
    assert "selected" in pg.evaluate("window.harness.said.at(-1)")
    pg.screenshot(path=str(screenshots / "mining-move-selected.png"))
    dest = next(a["to"] for a in legal if a["type"] == "move" and a["frm"] == 24)
    click_square(pg, dest)
    sent = pg.evaluate("window.harness.submitted.at(-1)")
    assert sent in legal and sent["type"] == "move" and sent["to"] == dest
    # drag from the station to another square does the same
    show(pg, fx, "action")
    a = pg.evaluate("""() => { const m = window.deltavMining, r = m.canvas.getBoundingClientRect();
        return [[...m.board.centre(24)].map((v, i) => v + (i ? r.top : r.left)),
                [...m.board.centre(2)].map((v, i) => v + (i ? r.top : r.left))]; }""")
    pg.mouse.move(*a[0])
    pg.mouse.down()
    pg.mouse.move((a[0][0] + a[1][0]) / 2, (a[0][1] + a[1][1]) / 2, steps=4)
    pg.mouse.move(*a[1], steps=4)
    pg.mouse.up()
    assert pg.evaluate("window.harness.submitted.at(-1)") == {"type": "move", "frm": 24, "to": 2, "bump": None}
    # the buttons stand for the non-board entries: Prospect
    show(pg, fx, "action")
    pg.click("button[data-action=prospect]")
    assert pg.evaluate("window.harness.submitted.at(-1)") == {"type": "prospect"}
    # a contract card declares it
    snap = show(pg, fx, "attempt")
    cid = next(e["action"]["contract"] for e in snap["legal"] if e["action"]["type"] == "declare")
    pg.click(f"button[data-contract={cid}]")
    assert pg.evaluate("window.harness.submitted.at(-1)") == {"type": "declare", "contract": cid}
    # a reveal: click a legal square; the readout names the chance
    snap = show(pg, fx, "reveal")
    sq = next(e["action"]["square"] for e in snap["legal"] if e["action"]["type"] == "reveal")
    x, y = pg.evaluate(f"""() => {{ const m = window.deltavMining, r = m.canvas.getBoundingClientRect(),
        [x, y] = m.board.centre({sq}); return [r.left + x, r.top + y]; }}""")
    pg.mouse.move(x, y)
    assert "chance it counts" in pg.inner_text(".mn-readout")
    pg.mouse.click(x, y)
    assert pg.evaluate("window.harness.submitted.at(-1)") == {"type": "reveal", "square": sq}
    assert pg.errors == []
    ctx.close()


def test_the_keyboard_alone_plays(browser, harness):
    url, fx = harness
    ctx, pg = open_page(browser, url)
    snap = show(pg, fx, "action")
    legal = [e["action"] for e in snap["legal"]]
    pg.focus(".mn-board")
    pg.keyboard.press("Enter")  # the cursor starts on the station: select it
    pg.keyboard.press("ArrowUp")
    pg.keyboard.press("Enter")  # station -> the square above
    sent = pg.evaluate("window.harness.submitted.at(-1)")
    assert sent == {"type": "move", "frm": 24, "to": 17, "bump": None} and sent in legal
    show(pg, fx, "action")
    pg.focus(".mn-board")
    pg.keyboard.press("p")
    assert pg.evaluate("window.harness.submitted.at(-1)") == {"type": "prospect"}
    show(pg, fx, "action")
    pg.focus(".mn-board")
    pg.keyboard.press("v")  # open the survey chooser, then 1 picks the first counter
    pg.keyboard.press("1")
    assert pg.evaluate("window.harness.submitted.at(-1)")["type"] == "survey"
    snap = show(pg, fx, "replace")
    pg.focus(".mn-board")
    n = len(snap["legal"])
    pg.keyboard.press(str(n))  # the last numbered button is "Give up the contract" (pass)
    assert pg.evaluate("window.harness.submitted.at(-1)") == {"type": "pass"}
    assert pg.errors == []
    ctx.close()


def test_help_and_a_phone_screen(browser, harness, screenshots):
    url, fx = harness
    ctx, pg = open_page(browser, url)
    show(pg, fx, "reveal")
    pg.evaluate("window.harness.help()")
    pg.screenshot(path=str(screenshots / "mining-help.png"))
    text = pg.inner_text("#help")
    for word in ("Contracts", "Alphatite", "Pirate Attack", "unspent", "Arrow keys"):
        assert word in text
    ctx.close()
    ctx, pg = open_page(browser, url, 375, 812, is_mobile=True, has_touch=True)
    for label in ("action", "reveal", "bid-up-window", "over"):
        show(pg, fx, label)
        width = pg.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, (label, width)
        pg.screenshot(path=str(screenshots / f"mining-mobile-{label}.png"), full_page=True)
    show(pg, fx, "action")
    box = pg.evaluate("""() => { const m = window.deltavMining, r = m.canvas.getBoundingClientRect(),
        [x, y] = m.board.centre(24); return [r.left + x, r.top + y, r.width]; }""")
    assert box[2] >= 340  # the field takes the phone's width
    pg.touchscreen.tap(box[0], box[1])
    assert "selected" in pg.evaluate("window.harness.said.at(-1)")
    assert pg.errors == []
    ctx.close()


def test_a_whole_game_against_bots_with_clicks_only(browser, harness, screenshots):
    """The harness page with a real Session behind it (Playwright's exposed function): seat 0 is played by
    clicking what the page highlights and offers, seats 1 and 2 by the scripted bot, to the end of the game."""
    from deltav.core import Rng, get_game
    from deltav.core.rng import derive_seed
    from deltav.core.session import Session
    from deltav.games.mining.bots import ScriptedAgent
    from tests.web.mining_driver import take_step

    url, fx = harness
    game = get_game("mining")
    session = Session(game, {"players": 3, "max_turns": 12}, 11, ["me", "b1", "b2"])
    bots = {1: ScriptedAgent(), 2: ScriptedAgent()}
    rngs = {p: Rng(derive_seed(11, "seat", p)) for p in bots}

    def run_bots():
        while not session.is_over():
            p = list(session.deciding())[0]
            if p == 0:
                return
            session.submit_action(p, bots[p].act(session.decision(p, rngs[p])))

    def py_submit(action):
        step = session.step
        try:
            session.submit(0, action, expected_step=step)
        except Exception as exc:  # an illegal action: the page must never send one
            return {"error": f"{type(exc).__name__}: {exc}"}
        run_bots()
        snap = session.snapshot(0)
        return {"snapshot": snap, "events": [e for e in snap["log"] if e["step"] >= step]}

    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.expose_function("pySubmit", py_submit)
    pg.goto(url)
    pg.wait_for_selector("html[data-ready=true]")
    run_bots()
    first = session.snapshot(0)
    pg.evaluate("s => window.deltavMiningHarnessUpdate(s)", first)
    moves: list[int] = []
    phases = set()
    for _ in range(600):
        if session.is_over():
            break
        step = session.step
        phases.add(pg.evaluate("document.querySelector('.mn-root').dataset.phase"))
        take_step(pg, moves)
        pg.wait_for_function(f"Number(document.querySelector('.mn-root').dataset.step) > {step}", timeout=5000)
    assert session.is_over(), "the game did not end"
    pg.wait_for_function("document.querySelector('.mn-root').dataset.phase === 'over'")
    pg.screenshot(path=str(screenshots / "mining-harness-game-over.png"))
    assert not [s for s in pg.evaluate("window.harness.said") if "Error" in s]
    assert {"action", "attempt", "reveal"} <= phases
    assert errors == []
    ctx.close()


def test_a_collision_is_explained_before_it_happens(browser, harness, screenshots):
    url, fx = harness
    ctx, pg = open_page(browser, url)
    snap = show(pg, fx, "bump")
    bump = next(e["action"] for e in snap["legal"] if e["action"]["type"] == "move" and e["action"]["bump"] is not None)
    click_square(pg, bump["frm"])
    click_square(pg, bump["to"])
    assert pg.evaluate("window.harness.submitted.length") == 0  # nothing sent yet
    said = pg.evaluate("window.harness.said.at(-1)")
    assert "bump" in said and "shipyards" in said
    pg.screenshot(path=str(screenshots / "mining-bump-choice.png"))
    pg.click(".mn-choose button[data-action=move]")
    assert pg.evaluate("window.harness.submitted.at(-1)")["bump"] is not None
    assert pg.errors == []
    ctx.close()


def prompt_of(pg) -> tuple[str, list[str]]:
    """The prompt's words and the labels of its buttons."""
    labels = pg.eval_on_selector_all(".mn-prompt button", """els => els.map(e => [...e.childNodes]
        .filter(n => n.nodeName !== 'KBD').map(n => n.textContent).join('').trim())""")
    return pg.inner_text(".mn-prompt"), labels


def test_the_reveal_choice_says_what_is_offered(browser, harness, screenshots):
    """Issue 27 (mining 1): after a prospect with only minerals under the rockets the prompt said "Reveal an
    incident? You saw an incident under your rocket" and offered "Keep it secret". The engine asks after every
    prospect (so nobody learns whether an incident was seen); the words follow the legal entries."""
    url, fx = harness
    ctx, pg = open_page(browser, url)
    snap = show(pg, fx, "reveal-choice")
    assert [e["action"]["type"] for e in snap["legal"]] == ["pass"]
    text, buttons = prompt_of(pg)
    pg.screenshot(path=str(screenshots / "mining-reveal-choice-nothing.png"))
    assert "You saw an incident" not in text and "Reveal an incident" not in text, text
    assert "no incident" in text and buttons == ["Continue"], (text, buttons)
    snap = show(pg, fx, "reveal-choice-incident")
    squares = sorted(e["action"]["square"] for e in snap["legal"] if e["action"]["type"] == "reveal-incident")
    kinds = {snap["view"]["tiles"][s]["kind"].replace("_", " ") for s in squares}
    text, buttons = prompt_of(pg)
    pg.screenshot(path=str(screenshots / "mining-reveal-choice-incident.png"))
    assert "Reveal the incident?" in text or "Reveal an incident?" in text
    assert all(k in text.lower() for k in kinds), (text, kinds)
    assert pg.evaluate("window.deltavMining.targets()") == squares
    assert buttons == ["Keep it secret"]
    assert pg.errors == []
    ctx.close()


def test_leave_the_alien_only_when_it_is_on_the_field(browser, harness):
    """Issue 27 (mining 4): the alien's first placement offered "Leave the alien" though the alien was beside the
    field."""
    url, fx = harness
    ctx, pg = open_page(browser, url)
    snap = show(pg, fx, "alien-move")
    assert snap["view"]["alien"] is None
    text, buttons = prompt_of(pg)
    assert "Leave the alien" not in text + " ".join(buttons) and "leave it where it is" not in text, (text, buttons)
    assert any("off the field" in b for b in buttons), buttons
    snap = show(pg, fx, "alien-move-again")
    assert snap["view"]["alien"] is not None
    text, buttons = prompt_of(pg)
    assert any("Leave the alien where it is" in b for b in buttons), buttons
    assert pg.errors == []
    ctx.close()


COUNT_PIXELS = """([sq, inset, rgb, tol]) => {
    const m = window.deltavMining, c = m.canvas, k = c.width / c.getBoundingClientRect().width;
    const copy = document.createElement('canvas');  // read a copy, not the screen's own canvas
    copy.width = c.width; copy.height = c.height;
    const g = copy.getContext('2d', {willReadFrequently: true});
    g.drawImage(c, 0, 0);
    const [x, y] = m.board.cellOrigin(sq), s = m.board.cellSize;
    const d = g.getImageData(Math.round((x + inset) * k), Math.round((y + inset) * k),
                             Math.round((s - 2 * inset) * k), Math.round((s - 2 * inset) * k)).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4)
        if (Math.abs(d[i] - rgb[0]) <= tol && Math.abs(d[i + 1] - rgb[1]) <= tol && Math.abs(d[i + 2] - rgb[2]) <= tol) n++;
    return n;
}"""
ALIEN_GREEN = (0x3B, 0xD1, 0x6F)  # the alien token's colour (palette.ts BOARD.alien)
HIGHLIGHT = (0xFF, 0xE0, 0x66)  # the highlight and label colour of legal targets (BOARD.highlight)


def test_face_up_alien_encounters_do_not_look_like_the_alien(browser, harness, screenshots):
    """Issue 27 (mining 4): a face-up Alien Encounter tile was drawn in the alien token's green."""
    url, fx = harness
    ctx, pg = open_page(browser, url)
    snap = show(pg, fx, "alien-move-again")
    v = snap["view"]
    faceup = [s for s in range(49) if v["status"][s] == "face_up" and s != v["alien"]]
    assert faceup, "the fixture has a face-up Alien Encounter without the alien on it"
    pg.screenshot(path=str(screenshots / "mining-alien-encounters.png"))
    for s in faceup:
        assert pg.evaluate(COUNT_PIXELS, [s, 3, ALIEN_GREEN, 40]) == 0, s
    # the token itself is drawn in that green
    assert pg.evaluate(COUNT_PIXELS, [v["alien"], 0, ALIEN_GREEN, 40]) > 20
    assert pg.errors == []
    ctx.close()


def test_each_tile_you_may_reveal_shows_its_chance(browser, harness, screenshots):
    """Issue 27 (mining 4): the chance that a tile counts was shown only on hover, though the help says each tile
    shows it. Every revealable tile the viewer does not know carries it in its middle."""
    url, fx = harness
    ctx, pg = open_page(browser, url)
    for label in ("reveal", "bid-up-reveal"):
        snap = show(pg, fx, label)
        pg.screenshot(path=str(screenshots / f"mining-chances-{label}.png"))
        unknown = [e["action"]["square"] for e in snap["legal"]
                   if e["action"]["type"] == "reveal" and snap["view"]["tiles"][e["action"]["square"]] is None]
        assert unknown, label
        cell = pg.evaluate("window.deltavMining.board.cellSize")
        for s in unknown:
            assert pg.evaluate(COUNT_PIXELS, [s, cell // 4, HIGHLIGHT, 30]) > 10, (label, s)
        # a face-down tile nobody may reveal shows no chance
        others = [s for s in range(49) if v_status(snap, s) == "face_down" and s not in unknown
                  and snap["view"]["tiles"][s] is None]
        for s in others[:5]:
            assert pg.evaluate(COUNT_PIXELS, [s, cell // 4, HIGHLIGHT, 30]) == 0, (label, s)
    assert pg.errors == []
    ctx.close()


def v_status(snap, s: int) -> str:
    return snap["view"]["status"][s]


def test_what_changed_your_position_is_shown_before_your_decision(browser, harness, screenshots):
    """While Ann waited, Ben's rocket landed on hers (both went home): before her next decision the screen asks the
    host for a "what happened" card naming it (the shell's acknowledge; here the harness records it). A real
    Session plays both seats: Ann flies a rocket out, Ben lands on it."""
    from deltav.core import get_game
    from deltav.core.session import Session

    game = get_game("mining")
    for seed in range(20):
        s = Session(game, {"players": 2, "bid_up": False}, seed, names=["Ann", "Ben"])
        if list(s.deciding()) == [0]:
            break
    out = [e for e in s.snapshot(0)["legal"] if e["action"]["type"] == "move" and e["action"]["frm"] == 24][0]
    s.submit(0, out["action"], expected_step=s.step)
    target = out["action"]["to"]
    while list(s.deciding()) == [0]:  # end the moves, try a contract as the rules ask, reveal until it fails
        legal = [e["action"] for e in s.snapshot(0)["legal"]]
        pick = next((a for t in ("end-moves", "pass", "declare") for a in legal if a["type"] == t), None)
        if pick is None:
            pick = next(a for a in legal if a["type"] == "reveal" and a["square"] != target)
        s.submit(0, pick, expected_step=s.step)
    before = s.snapshot(0)
    while list(s.deciding()) != [0]:
        legal = [e["action"] for e in s.snapshot(1)["legal"]]
        pick = next((a for a in legal if a["type"] == "move" and a["to"] == target and a["bump"] == 0), None)
        pick = pick or next((a for t in ("end-moves", "pass", "declare") for a in legal if a["type"] == t), None)
        pick = pick or next(a for a in legal if a["type"] == "reveal" and a["square"] != target)
        s.submit(1, pick, expected_step=s.step)
    after = s.snapshot(0)
    events = [e for e in after["log"] if e["step"] >= before["step"]]
    bumped = [e for e in events if e["event"]["type"] == "rockets-bumped" and e["event"]["victims"] == [0]]
    assert bumped, [e["text"] for e in events]
    url, _ = harness
    ctx, pg = open_page(browser, url)
    pg.evaluate("([s, e]) => window.harness.feed(s, e)", [before, []])
    assert pg.evaluate("window.harness.acknowledged.length") == 0
    pg.evaluate("([s, e]) => window.harness.feed(s, e)", [after, events])
    cards = pg.evaluate("window.harness.acknowledged")
    assert len(cards) == 1 and cards[0]["title"] == "While you waited", cards
    assert any(line.startswith("Ben's rocket bumps Ann's on ") and "shipyards" in line for line in cards[0]["lines"]), cards
    assert not any("Ben moves a rocket" in line for line in cards[0]["lines"])  # only what changed Ann's position
    assert pg.errors == []
    ctx.close()
