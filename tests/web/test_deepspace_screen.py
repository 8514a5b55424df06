"""Deep Space Combat in a real browser against a real server (issue 16): a complete game against a bot played
only through the page (drags, clicks and keys a person would use), an online game between two browser
contexts, the designer, a spectator page that never receives a secret, the help overlay, a 375x812 phone.

The driver reads only what a person sees: which orders panel is showing (``data-kind``), the buttons, and where
the screen draws a ship or a hex (``window.deltavDeepspace``); it never builds an action itself.
"""

from __future__ import annotations

import json
import random

from deltav.core.records import MatchRecord
from deltav.core.session import Session
from deltav.games.deepspace import DeepSpaceGame
from tests.web.deepspace_driver import ORDERS, ROOT, continue_card, kind, over, shoot
from tests.web.deepspace_driver import act_once as drive


def _zone(live_server, scenario: str, seat: int) -> list[int]:
    status, board = live_server.http("GET", f"/games/deepspace/board?scenario={scenario}")
    assert status == 200, board
    return board["scenario"]["players"][seat]["zone"]


def act_once(page, rng: random.Random, zone, shots: dict, style: str = "mouse") -> str:
    """The driver's order for this step (a "what happened" card first read and continued)."""
    if continue_card(page, "keys" if style == "keys" else "mouse"):
        return "card"
    if _kind(page) == "fire":
        first = page.locator("[data-testid^=ds-target-]")
        if first.count():
            tid = first.first.get_attribute("data-testid").removeprefix("ds-target-")
            shots[tid] = shots.get(tid, 0) + 1
    return drive(page, rng, zone, "keys" if style == "keys" else "mouse")


def _kind(page) -> str:
    return kind(page)


def _over(page) -> bool:
    return over(page)


def _shoot(page, screenshots, name: str) -> None:
    shoot(page, screenshots, name)


def _secret_steps(record: dict, seats) -> list[set[str]]:
    """Every secret token of each viewer along the recorded match: replayed with the engine, step by step."""
    rec = MatchRecord.from_json(record)
    s = Session(DeepSpaceGame, rec.options, rec.seed, rec.seats or None)
    out = [set() for _ in seats]
    for st in rec.steps:
        for i, who in enumerate(seats):
            out[i] |= s.state.secret_tokens(who)
        s._apply_one(st.player, DeepSpaceGame.action_from_json(st.action))
        s._after_apply()
    for i, who in enumerate(seats):
        out[i] |= s.state.secret_tokens(who)
    return out


def test_a_complete_game_against_a_bot_through_the_page(live_server, new_page, screenshots):
    page = new_page(1280, 800)
    # the lobby: set up a Deep Space Combat game (scenario, a bot, a short round limit) and create it
    page.goto(live_server.base + "/")
    page.click("[data-game=deepspace] .setup")
    page.select_option("#setup-scenario", "skirmish")
    page.select_option("#seat-1", "bot:easy")
    page.click(".options-box summary")
    page.fill("#opt-round_limit", "4")
    page.click("text=Create the game")
    page.wait_for_url("**/play/**", timeout=15_000)
    page.wait_for_selector(ROOT, timeout=15_000)
    _shoot(page, screenshots, "start")
    zone = _zone(live_server, "skirmish", 0)
    rng = random.Random(5)
    seen: set[str] = set()
    shots: dict = {}
    for n in range(400):
        if _over(page):
            break
        kind = _kind(page)
        if kind not in seen and kind != "wait":
            seen.add(kind)
            _shoot(page, screenshots, {"place": "deploy", "velocity": "plot-course", "fire": "plot-targets",
                                       "done": "plot-done", "allocate": "allocate", "destruct": "destruct"}.get(kind, kind))
        act_once(page, rng, zone, shots, style="keys" if n % 3 == 2 else "mouse")
    assert _over(page), f"the game did not end; kinds seen {seen}"
    assert {"place", "velocity", "fire", "done", "destruct"} <= seen, seen
    page.wait_for_timeout(500)
    _shoot(page, screenshots, "result")
    assert page.get_attribute(ORDERS, "data-kind") == "over"
    assert not page.errors, page.errors


def test_an_online_game_between_two_browsers(live_server, new_page, screenshots):
    a = new_page(1280, 800)
    b = new_page(1280, 800)
    room = live_server.create("deepspace", ["human", "human"], seed=9, scenario="skirmish", round_limit=3)
    other = live_server.join(room.code, seat=1, name="ben")
    live_server.open_seat(a, room)
    live_server.open_seat(b, other)
    zones = [_zone(live_server, "skirmish", 0), _zone(live_server, "skirmish", 1)]
    rngs = [random.Random(1), random.Random(2)]
    shots = [{}, {}]
    pages = [a, b]
    waited_shot = False
    for n in range(600):
        if _over(a) and _over(b):
            break
        for i, p in enumerate(pages):
            if _kind(p) == "wait":
                if not waited_shot and p.locator("[data-testid=ds-waiting]").count():
                    # one fleet has plotted, the other not: the first sees who it waits for, never what
                    text = p.inner_text("[data-testid=ds-waiting]")
                    assert "Waiting for" in text
                    _shoot(p, screenshots, "online-waiting")
                    waited_shot = True
                continue
            kind = _kind(p)
            if kind == "over":
                continue
            act_once(p, rngs[i], zones[i], shots[i], style="keys" if (n + i) % 2 else "mouse")
    assert _over(a) and _over(b)
    _shoot(a, screenshots, "online-result")
    assert not a.errors and not b.errors, a.errors + b.errors
    # each seat's page never received the other's secrets (their designs' ids, their pending plot ids)
    status, record = live_server.http("GET", f"/rooms/{room.code}/record")
    assert status == 200, record
    secrets = _secret_steps(record, [0, 1])
    for i, p in enumerate(pages):
        blob = "\n".join(p.frames_in)
        mine = {f"d-p{i}-"}
        leaked = [t for t in secrets[i] if t in blob and not any(t.startswith(m) for m in mine)]
        assert not leaked, f"seat {i} received {leaked[:5]}"


def test_the_designer_budget_saved_designs_and_a_designed_fleet(live_server, new_page, screenshots):
    page = new_page(1280, 800)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=4, scenario="design-duel", round_limit=2)
    live_server.open_seat(page, room)
    page.wait_for_selector("[data-testid=ds-designer]")
    budget = page.locator("[data-testid=ds-budget]")
    page.fill("#ds-f-size", "2")
    page.fill("#ds-f-endurance", "50")  # 2 x (3 + 10 + 50) + 56 = 182 > 120: over budget, shown as you type
    assert "over" in budget.inner_text()
    assert not page.locator("[data-testid=ds-commission]").is_enabled()
    assert "budget of 120" in page.inner_text(".ds-problem")
    _shoot(page, screenshots, "designer-over-budget")
    page.fill("#ds-f-endurance", "8")
    assert "98 / 120" in budget.inner_text()  # 2 x (3 + 10 + 8) + 25 + 31
    page.fill("#ds-f-name", "Lancer")
    page.click("[data-testid=ds-save-design]")
    saved = page.evaluate("localStorage.getItem('deltav.deepspace.designs')")
    assert "Lancer" in saved
    page.click("[data-testid=ds-commission]")
    page.wait_for_function("document.querySelector('[data-testid=ds-designer]')?.innerText.includes('2 of 4 size levels used')",
                           timeout=20_000)
    # the saved design is offered again and builds the second ship
    page.click("[data-testid=ds-load-0]")
    page.wait_for_function("!document.querySelector('[data-testid=ds-commission]')?.disabled", timeout=10_000)
    page.click("[data-testid=ds-commission]")
    page.wait_for_function("!document.querySelector('[data-testid=ds-finish-fleet]')?.disabled", timeout=20_000)
    _shoot(page, screenshots, "designer")
    page.click("[data-testid=ds-finish-fleet]")
    page.wait_for_function(f"document.querySelector('{ORDERS}')?.dataset.kind === 'place'", timeout=20_000)
    card = page.inner_text(ORDERS)
    assert "thrust 3" in card and "endurance 8" in card  # the designed stats, shown to their owner
    assert not page.errors, page.errors


def test_a_spectator_never_receives_a_secret(live_server, new_page, screenshots):
    """A person plays a three-fleet melee against two bots while a spectator watches: every frame the
    spectator's page receives is checked against the secrets of every step (replayed from the record)."""
    player = new_page(1280, 800)
    page = new_page(1280, 800)
    room = live_server.create("deepspace", ["human", "bot:easy", "bot:easy"], seed=2, scenario="melee", round_limit=2)
    live_server.open_seat(player, room)
    live_server.open_watch(page, room.code)
    page.wait_for_selector(ROOT)
    zone = _zone(live_server, "melee", 0)
    rng = random.Random(8)
    shots: dict = {}
    shot_mid = shot_fire = False
    for _ in range(300):
        if _over(player):
            break
        if not shot_mid and "Round 2" in (player.text_content(".phase-banner") or ""):
            page.wait_for_timeout(1500)  # the reveal's animation
            _shoot(page, screenshots, "spectator-melee")
            text = page.inner_text(ORDERS)
            assert "You are watching" in text
            shot_mid = True
        if not shot_fire and _kind(player) == "fire" and player.locator("[data-testid^=ds-target-]").count() >= 4:
            _shoot(player, screenshots, "melee-fire")  # a long target list above the ship card
            shot_fire = True
        act_once(player, rng, zone, shots)
    assert _over(player) and shot_mid
    page.wait_for_function("window.deltavShell.state().status === 'over'", timeout=30_000)
    status, record = live_server.http("GET", f"/rooms/{room.code}/record")
    assert status == 200, record
    secrets = _secret_steps(record, [None])[0]
    assert any(t.startswith("d-p0-") for t in secrets)  # the player's designs at least
    assert page.frames_in
    blob = "\n".join(page.frames_in)
    assert not [t for t in secrets if t in blob]
    for frame in page.frames_in:
        msg = json.loads(frame)
        if msg.get("type") != "state":
            continue
        view = msg["snapshot"]["view"]
        assert "mine" not in view and msg["snapshot"]["legal"] == []
        for s in view["ships"]:
            assert not {"evasion", "endurance", "weapons", "design", "name", "pending"} & set(s), s
    assert not page.errors and not player.errors, page.errors + player.errors


def test_help_overlay_and_a_phone(live_server, new_page, screenshots):
    page = new_page(375, 812, mobile=True)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=6, scenario="skirmish", round_limit=2)
    live_server.open_seat(page, room)
    page.wait_for_selector(ROOT)
    _shoot(page, screenshots, "mobile-deploy")
    zone = _zone(live_server, "skirmish", 0)
    rng = random.Random(3)
    shots: dict = {}
    for _ in range(60):
        if _kind(page) == "fire":
            break
        act_once(page, rng, zone, shots)
    assert _kind(page) == "fire"
    _shoot(page, screenshots, "mobile-targets")
    page.keyboard.press("l")  # a phone player hides the log for a bigger board
    page.wait_for_timeout(400)
    _shoot(page, screenshots, "mobile-targets-nolog")
    # the panels do not cover each other
    boxes = [page.locator(sel).bounding_box() for sel in (ORDERS, "[data-testid=ds-fleets]")]
    a, b = boxes
    assert a and b and (a["y"] >= b["y"] + b["height"] or b["y"] >= a["y"] + a["height"]), boxes
    page.keyboard.press("?")
    page.wait_for_selector(".ds-help")
    assert "Chance to hit" in page.inner_text(".ds-help")
    _shoot(page, screenshots, "mobile-help")
    assert not page.errors, page.errors


def test_help_overlay_desktop_and_reduced_motion_reveal(live_server, new_page, screenshots):
    page = new_page(1280, 800, reduced_motion=True)
    room = live_server.create("deepspace", ["human", "bot:easy"], seed=8, scenario="skirmish", round_limit=2)
    live_server.open_seat(page, room)
    page.wait_for_selector(ROOT)
    page.wait_for_function(f"document.querySelector('{ORDERS}')?.dataset.kind === 'place'", timeout=20_000)
    before = page.inner_text(ORDERS)
    cam = page.evaluate("window.deltavDeepspace.hex(0, 0)")
    page.keyboard.press("?")
    page.wait_for_selector(".ds-help")
    _shoot(page, screenshots, "help")
    # keys pressed while the help is open reach neither the orders nor the camera (Enter would press the focused
    # close button, as it should)
    for key in ("d", "]", "ArrowUp", "+", "]"):
        page.keyboard.press(key)
    page.wait_for_timeout(400)
    page.keyboard.press("Escape")
    page.wait_for_timeout(200)
    assert page.inner_text(ORDERS) == before
    assert page.evaluate("window.deltavDeepspace.hex(0, 0)") == cam
    zone = _zone(live_server, "skirmish", 0)
    rng = random.Random(4)
    shots: dict = {}
    revealed = False
    for _ in range(80):
        plotting = _kind(page) == "done" and "End plotting" in page.inner_text("[data-testid=ds-done]")
        act_once(page, rng, zone, shots, style="keys")
        if plotting:
            page.wait_for_function(f"document.querySelector('{ORDERS}')?.dataset.kind !== 'wait'", timeout=20_000)
            assert page.evaluate("window.deltavDeepspace.animating()") is False  # no animation under reduced motion
            revealed = True
            _shoot(page, screenshots, "reveal")
            break
    assert revealed
    assert not page.errors, page.errors
