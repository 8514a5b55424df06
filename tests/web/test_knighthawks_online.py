"""The Knight Hawks screen in the real shell against a real ``deltav serve`` (tests/web/conftest.py): a whole game
against a bot set up in the lobby and played only through the page, an online game between two browser contexts,
and a spectator's page whose every WebSocket frame is checked against the secrets of the match at that step
(replayed from the finished record). Screenshots: build/screenshots/knighthawks-shell-*.png."""

from __future__ import annotations

import json

from deltav.core import get_game
from deltav.core.records import MatchRecord
from deltav.core.session import Session
from deltav.games import load_all
from tests.web.conftest import wait_step_change
from tests.web.test_knighthawks_screen import play_one, shot

load_all()
KH = get_game("knighthawks")


def shell_wait(pg, step: int) -> None:
    wait_step_change(pg, step, timeout=60_000)


def mounted(pg) -> None:
    pg.wait_for_function("window.deltavShell?.state().screen === 'knighthawks' && window.khScreen?.snap", timeout=20_000)


def secrets_by_step(record: dict, seat: int | None) -> list[set[str]]:
    """The tokens secret from ``seat`` after each number of steps of a finished match (index = step)."""
    rec = MatchRecord.from_json(record)
    s = Session(KH, rec.options, rec.seed, rec.seats or None)
    out = [set(s.state.secret_tokens(seat))]
    for st in rec.steps:
        s.submit(st.player, st.action)
        out.append(set(s.state.secret_tokens(seat)))
    return out


def check_frames(frames: list[str], secrets: list[set[str]]) -> int:
    checked = 0
    for f in frames:
        msg = json.loads(f)
        snap = msg.get("snapshot")
        if not snap:
            continue
        step = snap["step"]
        text = json.dumps(msg)
        for tok in secrets[min(step, len(secrets) - 1)]:
            assert tok not in text, f"secret {tok} sent at step {step}"
        checked += 1
    return checked


def test_a_whole_game_against_a_bot_set_up_in_the_lobby(live_server, new_page):
    pg = new_page()
    pg.goto(live_server.base + "/")
    pg.wait_for_selector("html[data-ready=true]")
    pg.click("[data-game=knighthawks] .setup")
    pg.fill("#opt-turn_limit", "2")
    for fleet, counts in (("fleet0", {"frigate": 1, "assault_scout": 1, "destroyer": 0}),
                          ("fleet1", {"destroyer": 1, "heavy_cruiser": 0, "fighter": 0})):
        for cls, n in counts.items():
            pg.fill(f"#opt-{fleet}-{cls}", str(n))
    pg.click("text=Create the game")
    pg.wait_for_url("**/play/*")
    mounted(pg)
    shot(pg, "shell-start")
    pg.keyboard.press("?")  # the shell's help overlay carries the screen's section with the engine's tables
    pg.wait_for_selector(".overlay:not([hidden]) .kh-help")
    help_text = pg.locator(".overlay").inner_text()
    assert "Advanced Combat Table" in help_text and "Damage Table" in help_text and "frigate" in help_text
    shot(pg, "shell-help")
    pg.keyboard.press("Escape")
    pg.wait_for_selector(".overlay", state="hidden")
    seen: set[str] = set()
    for _ in range(300):
        if not play_one(pg, seen, prefix="shell-", wait=shell_wait):
            break
    assert pg.evaluate("window.khScreen.snap.status") == "over"
    pg.wait_for_selector(".kh-result")
    shot(pg, "shell-over")
    code = pg.url.rstrip("/").split("/")[-1]
    room = live_server.room(code)
    assert room["game"] == "knighthawks" and room["options"]["turn_limit"] == 2
    assert room["options"]["fleet0"] == "assault_scout,frigate" and room["options"]["fleet1"] == "destroyer"
    assert pg.errors == []


def test_an_online_game_between_two_browsers(live_server, new_page):
    room = live_server.create("knighthawks", ["human", "human"], seat=0, seed=5, turn_limit=1,
                              fleet0="frigate", fleet1="destroyer")
    a = new_page()
    live_server.open_seat(a, room)
    other = live_server.join(room.code, seat=1)
    b = new_page()
    live_server.open_seat(b, other)
    mounted(a)
    mounted(b)
    seen_a: set[str] = set()
    seen_b: set[str] = set()
    for _ in range(200):
        over = a.evaluate("window.khScreen.snap.status") == "over"
        if over:
            break
        # whoever is to act clicks; the other page waits for the shared step to move on
        pg, seen = (a, seen_a) if a.evaluate("window.khScreen.snap.to_act") else (b, seen_b)
        if not pg.evaluate("window.khScreen.snap.to_act"):
            a.wait_for_timeout(200)
            continue
        step = pg.evaluate("window.deltavShell.state().step")
        play_one(pg, seen, prefix="online-", wait=shell_wait)
        other_pg = b if pg is a else a
        wait_step_change(other_pg, step)
    b.wait_for_function("window.khScreen.snap.status === 'over'", timeout=20_000)
    a.wait_for_function("window.khScreen.snap.status === 'over'", timeout=20_000)
    assert "waiting" not in b.locator(".kh-controls").inner_text().lower()
    shot(b, "online-seat1-over")
    status, record = live_server.http("GET", f"/rooms/{room.code}/record")
    assert status == 200
    for pg, seat in ((a, 0), (b, 1)):
        assert check_frames(pg.frames_in, secrets_by_step(record, seat)) > 5
        assert pg.errors == []


def test_a_spectator_page_never_receives_a_secret(live_server, new_page):
    room = live_server.create("knighthawks", ["human", "bot:easy"], seat=0, seed=9, turn_limit=3,
                              scenario="station_assault")
    watcher = new_page()
    live_server.open_watch(watcher, room.code)
    mounted(watcher)
    assert watcher.evaluate("window.khScreen.snap.seat") is None
    player = new_page()
    live_server.open_seat(player, room)
    mounted(player)
    seen: set[str] = set()
    for _ in range(400):
        if not play_one(player, seen, prefix="assault-", wait=shell_wait):
            break
    watcher.wait_for_function("window.khScreen.snap.status === 'over'", timeout=30_000)
    shot(watcher, "shell-spectator")
    assert watcher.locator(".kh-controls button[data-legal]").count() == 0
    shown = watcher.locator(".kh-controls").inner_text()
    assert shown.startswith("You are watching") or " won" in shown or "A draw" in shown, shown
    status, record = live_server.http("GET", f"/rooms/{room.code}/record")
    assert status == 200
    secrets = secrets_by_step(record, None)
    assert secrets[0], "the scenario's traps start hidden from a spectator"
    assert check_frames(watcher.frames_in, secrets) > 10
    assert check_frames(player.frames_in, secrets_by_step(record, 0)) > 10
    assert watcher.errors == [] and player.errors == []


def test_a_phone_in_the_shell(live_server, new_page):
    room = live_server.create("knighthawks", ["human", "bot:easy"], seat=0, seed=3, turn_limit=1)
    pg = new_page(width=375, height=812, mobile=True)
    live_server.open_seat(pg, room)
    mounted(pg)
    pg.wait_for_timeout(300)
    wide = pg.evaluate("[...document.querySelectorAll('.kh-root *')].filter(e => e.getBoundingClientRect().right > "
                       "window.innerWidth + 1).map(e => e.className)")
    assert wide == []
    box = pg.locator(".kh-map").bounding_box()
    assert box["width"] > 300 and box["height"] > 100
    shot(pg, "shell-mobile")
    step = pg.evaluate("window.deltavShell.state().step")
    speed = pg.locator(".kh-speeds button.primary[data-legal]").first  # hold the speed: then plot its path
    speed.scroll_into_view_if_needed()
    speed.tap()
    wait_step_change(pg, step)
    pg.wait_for_function("window.khScreen.view.plotting !== null")
    pg.evaluate("document.querySelector('.kh-root').scrollTop = 0")
    shot(pg, "shell-mobile-plotting")
    assert pg.errors == []
