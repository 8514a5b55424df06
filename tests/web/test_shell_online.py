"""Online play in real Chromium pages against a real ``deltav serve``: a room set up in the lobby with a person
seat, joined by code from another browser context, both playing; chat that never swallows shortcut keys; the
spectator page checked frame by frame against the state's secret tokens; the seat opened twice (4001) and an
unknown room (4004) explained in words; a dropped socket reconnecting by itself."""

from __future__ import annotations

import asyncio
import json
import threading

from tests.secret_check import leaks, secret_history
from tests.server.helpers import Seen, play_seat
from tests.web.conftest import wait_step_change


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def generic(page, live_server, code: str) -> None:
    """Reopen the match page on the generic screen (the seat's token is in localStorage already)."""
    page.goto(f"{live_server.base}/play/{code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")


def my_turn(page) -> None:
    page.wait_for_selector(".generic-action:not([disabled])", timeout=20_000)


def test_two_browsers_play_a_room_made_in_the_lobby(live_server, new_page, screenshots):
    ann, ben = new_page(), new_page()
    ann.goto(live_server.base + "/")
    ann.wait_for_selector("html[data-ready=true]")
    ann.fill("#player-name", "  Ann  ")
    ann.keyboard.press("Tab")
    assert ann.evaluate("JSON.parse(localStorage.getItem('deltav.name'))") == "Ann"
    ann.click("[data-game=mining] .setup")
    ann.wait_for_selector(".dialog-setup")
    assert ann.locator("#setup-scenario").input_value() == "standard"
    assert ann.locator(".opt-row.ruling").count() >= 3, "rulings are marked as rulings"
    ann.locator("#seat-0").select_option("human")
    ann.locator("#seat-1").select_option("human")
    ann.click(".dialog-setup button[type=submit]")
    assert "Pick “You” for one seat" in ann.locator(".setup-error").inner_text(), "a set-up without you is explained"
    ann.locator("#seat-0").select_option("you")
    ann.locator(".advanced-box summary").click()
    ann.screenshot(path=str(screenshots / "lobby-setup.png"))
    ann.click(".dialog-setup button[type=submit]")
    ann.wait_for_url("**/play/*")
    ann.wait_for_selector("html[data-ready=true]")
    code = ann.url.rstrip("/").split("/")[-1]
    ann.wait_for_selector(".waiting:not([hidden])")
    assert code in ann.locator(".waiting").inner_text(), "the waiting line tells the code to share"
    ann.screenshot(path=str(screenshots / "match-waiting-for-player.png"))

    ben.goto(live_server.base + "/")
    ben.wait_for_selector("html[data-ready=true]")
    ben.fill("#player-name", "Ben")
    ben.keyboard.press("Tab")
    ben.fill("#join-code", code.lower())
    ben.keyboard.press("Enter")
    ben.wait_for_url(f"**/play/{code}")
    ben.wait_for_selector("html[data-ready=true]")
    assert shell(ben)["seat"] == 1
    assert [s["name"] for s in live_server.room(code)["seats"]] == ["Ann", "Ben"]
    ann.wait_for_function("document.querySelector('.seat[data-presence=free]') === null")
    generic(ann, live_server, code)
    generic(ben, live_server, code)
    assert shell(ann)["seat"] == 0 and shell(ben)["seat"] == 1
    # whoever is to move presses 1; the other page says whom it waits for, and it is never stale
    moved = {0: 0, 1: 0}
    pages = (ann, ben)
    for _ in range(40):
        ann.wait_for_function("window.deltavShell.state().toAct || !document.querySelector('.generic-action')")
        s0, s1 = shell(ann), shell(ben)
        if s0["step"] != s1["step"]:  # one page is behind (either one): both catch up with the newer step
            newest = max(s0["step"], s1["step"])
            for pg in pages:
                pg.wait_for_function(f"window.deltavShell.state().step === {newest}")
            ann.wait_for_function("window.deltavShell.state().toAct || !document.querySelector('.generic-action')")
            s0, s1 = shell(ann), shell(ben)
        actor = 0 if s0["toAct"] else 1
        me, other = pages[actor], pages[1 - actor]
        my_turn(me)
        assert ("Ann", "Ben")[actor] in other.locator(".waiting").inner_text()
        me.keyboard.press("1")
        wait_step_change(me, s0["step"])
        moved[actor] += 1
        if moved[0] >= 3 and moved[1] >= 3:
            break
    assert moved[0] >= 3 and moved[1] >= 3, moved
    ann.screenshot(path=str(screenshots / "match-online.png"))
    assert ann.errors == [] and ben.errors == []


def test_chat_keeps_its_keys(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "human"], seed=5, name="ann")
    ann, ben = new_page(), new_page()
    live_server.open_seat(ann, room)
    other = live_server.join(room.code, name="ben")
    live_server.open_seat(ben, other)
    generic(ann, live_server, room.code)
    generic(ben, live_server, room.code)
    ann.wait_for_function("window.deltavShell.state().step >= 0")
    # the player to move types into the chat: a digit there must not submit an action
    typer, reader, name = (ann, ben, "ann") if shell(ann)["toAct"] else (ben, ann, "ben")
    my_turn(typer)
    before = shell(typer)
    typer.click(".chat-form input")
    typer.keyboard.type("1 l m ? good luck")
    typer.keyboard.press("Enter")
    reader.wait_for_selector(".chat-list li")
    assert "1 l m ? good luck" in reader.locator(".chat-list").inner_text()
    assert name in reader.locator(".chat-list").inner_text()
    after = shell(typer)
    assert after["step"] == before["step"] and after["toAct"], "a digit typed in the chat did not submit an action"
    assert typer.locator(".side").is_visible(), "an L typed in the chat did not hide the log"
    assert typer.locator(".overlay").is_hidden(), "a ? typed in the chat did not open the help"
    assert typer.evaluate("window.deltavShell.sounds.muted") is False, "an M typed in the chat did not mute"
    # outside the chat the same keys work
    typer.locator(".phase-banner").click()
    typer.keyboard.press("l")
    assert typer.locator(".side").is_hidden()
    typer.keyboard.press("l")
    typer.keyboard.press("m")
    assert typer.evaluate("window.deltavShell.sounds.muted") is True
    typer.keyboard.press("m")
    typer.keyboard.press("1")
    wait_step_change(typer, before["step"])
    reader.screenshot(path=str(screenshots / "match-chat.png"))
    assert ann.errors == [] and ben.errors == []


def test_help_overlay(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=2)
    page = new_page()
    live_server.open_seat(page, room)
    page.locator(".phase-banner").click()
    page.keyboard.press("?")
    page.wait_for_selector(".dialog-help")
    text = page.locator(".dialog-help").inner_text()
    assert "Controls of every game" in text and "show or hide the log" in text
    page.screenshot(path=str(screenshots / "match-help.png"))
    for _ in range(4):  # Tab stays inside the dialog
        page.keyboard.press("Tab")
        assert page.evaluate("document.querySelector('.dialog-help').contains(document.activeElement)")
    page.keyboard.press("Escape")
    assert page.locator(".overlay").is_hidden()
    page.click("button[aria-label='Help and controls']")
    page.wait_for_selector(".dialog-help")
    page.click(".dialog-help .dialog-close")
    assert page.locator(".overlay").is_hidden()
    assert page.errors == []


def test_a_spectator_never_receives_a_secret(live_server, new_page, screenshots):
    """Two seats played by socket clients to the end while a /watch page receives every frame; each frame is
    checked against the spectator's secret tokens at its step (tests/secret_check.py)."""
    room = live_server.create("mining", ["human", "human"], seed=21)
    other = live_server.join(room.code)
    page = new_page()
    live_server.open_watch(page, room.code)
    seen = [Seen(0), Seen(1)]

    async def both() -> list[str]:
        return await asyncio.gather(
            play_seat(f"{live_server.ws}/ws/{room.code}", room.token, 0, 99, seen[0], timeout=60),
            play_seat(f"{live_server.ws}/ws/{room.code}", other.token, 1, 99, seen[1], timeout=60))

    outcome: list = []
    t = threading.Thread(target=lambda: outcome.append(asyncio.run(both())))
    t.start()
    t.join(180)
    assert outcome and outcome[0] == ["over", "over"], outcome
    page.wait_for_selector(".dialog-result", timeout=20_000)
    page.screenshot(path=str(screenshots / "watch-result.png"))
    status, record = live_server.http("GET", f"/rooms/{room.code}/record")
    assert status == 200
    history = secret_history(record, [None])
    assert any(history[k][None] for k in range(len(history))), "the game has secrets to keep"
    frames = [json.loads(f) for f in page.frames_in]
    states = [f for f in frames if f.get("type") == "state"]
    assert len(states) > 20, "the page saw the match being played"
    found = []
    step = 0
    for f in frames:
        if f.get("type") == "state":
            step = f["snapshot"]["step"]
            assert f["snapshot"]["seat"] is None and f["snapshot"]["legal"] == []
        found += leaks(f, step, None, history)
    assert found == []
    assert "Player" in page.locator(".dialog-result").inner_text()
    assert page.locator(".dialog-result button", has_text="Rematch").count() == 0, "a spectator cannot ask"
    assert page.errors == []


def test_the_same_seat_opened_twice_and_an_unknown_room(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=3)
    first = new_page()
    live_server.open_seat(first, room)
    token = first.evaluate(f"localStorage.getItem('deltav.seat.{room.code}')")
    second = first.context.new_page()  # same browser: same localStorage, another tab
    second.goto(f"{live_server.base}/play/{room.code}")
    second.wait_for_selector("html[data-ready=true]")
    first.wait_for_selector(".dialog-link")
    text = first.locator(".dialog-link").inner_text()
    assert "another tab" in text and "Play here instead" in text
    assert shell(first)["link"] == "closed"
    first.wait_for_timeout(1500)
    assert shell(first)["link"] == "closed", "a replaced page does not fight back"
    assert second.evaluate(f"localStorage.getItem('deltav.seat.{room.code}')") == token
    first.screenshot(path=str(screenshots / "match-replaced.png"))
    lost = new_page()
    lost.goto(f"{live_server.base}/watch/ZZZZZ")
    lost.wait_for_selector(".dialog-link")
    assert "no such room" in lost.locator(".dialog-link").inner_text()
    lost.goto(f"{live_server.base}/play/ZZZZZ")
    lost.wait_for_selector(".dialog-link")
    assert "no room ZZZZZ" in lost.locator(".dialog-link").inner_text()


def test_a_dropped_socket_reconnects_by_itself(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:easy"], seed=4)
    page = new_page()
    live_server.open_seat(page, room)
    generic(page, live_server, room.code)
    my_turn(page)
    step = shell(page)["step"]
    page.evaluate("window.deltavShell.connection().drop()")
    page.wait_for_function("window.deltavShell.state().link !== 'open'")
    page.wait_for_function("window.deltavShell.state().link === 'open'", timeout=15_000)
    assert "Reconnected" in page.locator(".status").inner_text()
    my_turn(page)
    page.keyboard.press("1")
    wait_step_change(page, step)
    assert page.errors == []


def test_a_player_who_leaves_shows_away_with_the_grace_countdown(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "human"], seed=6, name="ann")
    ann, ben = new_page(), new_page()
    live_server.open_seat(ann, room)
    live_server.open_seat(ben, live_server.join(room.code, name="ben"))
    ann.wait_for_selector(".seat[data-presence=online] >> text=ben")
    ben.close()
    chip = ann.locator(".seat", has_text="ben")
    ann.wait_for_function("document.querySelector('.seat:nth-child(2)').dataset.presence === 'away'")
    first = chip.locator(".seat-state").inner_text()
    assert "s to return" in first, first
    ann.wait_for_timeout(2200)
    later = chip.locator(".seat-state").inner_text()
    assert int(later.split("·")[1].split()[0]) < int(first.split("·")[1].split()[0]), (first, later)
    ann.screenshot(path=str(screenshots / "match-opponent-away.png"))
    assert ann.errors == []


def test_a_bad_seat_token_is_explained_and_forgotten(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:easy"], seed=12)
    page = new_page()
    page.goto(live_server.base + "/")
    page.evaluate(f"localStorage.setItem('deltav.seat.{room.code}', JSON.stringify({{token: 'not-a-token', seat: 0}}))")
    page.goto(f"{live_server.base}/play/{room.code}")
    page.wait_for_selector(".dialog-link")
    assert "does not accept this page's seat key" in page.locator(".dialog-link").inner_text()
    assert page.evaluate(f"localStorage.getItem('deltav.seat.{room.code}')") is None, "the bad token is forgotten"
    page.wait_for_timeout(1200)
    assert page.evaluate("window.deltavShell.state().link") == "closed", "no reconnect loop"
