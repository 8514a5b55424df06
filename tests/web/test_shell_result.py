"""The end of a match in real Chromium against a real ``deltav serve``: a seat plays a short mining game
(``max_turns=2``) against a bot to its end with the keyboard on the generic screen and gets the result dialog
(who won and why, the scores, rematch, replay, the record), asks for the rematch, which starts at once against a
bot; the finished match replays step by step."""

from __future__ import annotations

import json
import urllib.request


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def test_surrender_result_dialog_rematch_and_replay(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=8, name="ann", max_turns=2)
    page = new_page()
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")
    for _ in range(80):
        page.wait_for_function("window.deltavShell.state().toAct || window.deltavShell.state().status === 'over'",
                               timeout=20_000)
        if shell(page)["status"] == "over":
            break
        step = shell(page)["step"]
        page.wait_for_selector(".generic-action:not([disabled])")
        page.keyboard.press("1")
        page.wait_for_function(f"window.deltavShell.state().step > {step}", timeout=20_000)
    page.wait_for_selector(".dialog-result", timeout=20_000)
    text = page.locator(".dialog-result").inner_text()
    final = shell(page)
    status, record = live_server.http("GET", f"/rooms/{room.code}/record?match=1")
    winners = record["result"]["winners"]
    reason = record["result"]["reason"].rstrip(".")
    expected = (f"You won: {reason}." if winners == [0] else f"Easy bot won: {reason}." if winners == [1]
                else "You share the win")
    assert expected in text, text
    assert "Score" in text or "Points" in text
    assert page.locator(".dialog-result a", has_text="Download the record").get_attribute("href") == \
        f"/rooms/{room.code}/record?match=1"
    assert page.locator(".dialog-result a", has_text="Replay").get_attribute("href") == f"/replay/{room.code}?match=1"
    assert page.locator(".dialog-result a", has_text="Lobby").get_attribute("href") == "/"
    # closed to look at the board, it comes back from the header
    page.click(".dialog-result .result-look")
    assert page.locator(".overlay").is_hidden()
    page.click(".tools .result-again")
    page.wait_for_selector(".dialog-result")
    page.screenshot(path=str(screenshots / "match-result.png"))
    assert final["status"] == "over"
    assert page.evaluate("window.deltavShell.sounds.played.map(s => s.name)")[-1] == ("win" if 0 in winners else "lose")
    # the record link really downloads the finished record
    with urllib.request.urlopen(f"{live_server.base}/rooms/{room.code}/record?match=1", timeout=10) as r:
        assert json.loads(r.read()) == record
    # rematch: the only human asked, so it starts at once, seats rotated (ann is seat 1 now)
    page.click(".dialog-result button:has-text('Rematch')")
    page.wait_for_function("window.deltavShell.state().match === 2", timeout=20_000)
    page.wait_for_selector(".overlay[hidden]", state="attached")
    assert shell(page)["seat"] == 1 and shell(page)["status"] == "playing"
    assert page.locator(".seat.me .seat-name").inner_text() == "ann"
    # the replay of match 1: the same game's screen as a spectator, stepped with the keyboard
    page.goto(f"{live_server.base}/replay/{room.code}?match=1&screen=generic")
    page.wait_for_selector("html[data-ready=true]")
    st = page.evaluate("window.deltavReplay.state()")
    assert st["index"] == 0 and st["positions"] >= 2
    page.locator(".phase-banner").click()
    page.keyboard.press(".")
    page.wait_for_function("window.deltavReplay.state().index === 1")
    page.keyboard.press("End")
    page.wait_for_function(f"window.deltavReplay.state().index === {st['positions'] - 1}")
    assert "won" in page.locator(".waiting").inner_text()
    page.screenshot(path=str(screenshots / "replay-end.png"))
    page.keyboard.press("Home")
    page.wait_for_function("window.deltavReplay.state().index === 0")
    page.click(".replay-bar button:has-text('Play')")
    page.wait_for_function("window.deltavReplay.state().index >= 1", timeout=10_000)
    assert page.errors == []


def test_the_replay_route(live_server):
    room = live_server.create("mining", ["bot:random", "bot:random"], seed=3)
    code = room.code
    for _ in range(200):
        if live_server.room(code)["status"] == "finished":
            break
        import time

        time.sleep(0.1)
    status, a = live_server.http("GET", f"/rooms/{code}/replay?match=1&step=0")
    assert status == 200 and a["index"] == 0 and a["step"] == 0 and a["snapshot"]["seat"] is None
    positions = a["positions"]
    assert positions[0] == 0 and positions == sorted(positions)
    status, record = live_server.http("GET", f"/rooms/{code}/record?match=1")
    assert positions[-1] == len(record["steps"])
    status, end = live_server.http("GET", f"/rooms/{code}/replay?match=1&step={10**9}")
    assert end["snapshot"]["status"] == "over" and end["snapshot"]["result"] == record["result"]
    status, mid = live_server.http("GET", f"/rooms/{code}/replay?match=1&step={positions[5]}")
    assert mid["step"] == positions[5] and all(e["step"] == positions[4] for e in mid["events"]) or mid["events"]
    assert live_server.http("GET", f"/rooms/{code}/replay?match=9")[0] == 409
    assert live_server.http("GET", f"/rooms/{code}/replay?step=x")[0] == 400
    assert live_server.http("GET", "/rooms/ZZZZZ/replay")[0] == 404
