"""One naming of players everywhere (COMMON spec 2), in real Chromium against a real ``deltav serve``: the seat
chips, the waiting line, the result dialog and the replay page show the seats' display names the match's texts
use (``snapshot.names``): a person's name, a bot by its level ("Easy bot"), an unnamed person "Player N" counted
from 1."""

from __future__ import annotations

from tests.web.conftest import wait_step_change


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def generic(page, live_server, code: str) -> None:
    page.goto(f"{live_server.base}/play/{code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")


def chips(page) -> list[str]:
    return page.locator(".seat .seat-name").all_inner_texts()


def names_sent(page) -> list[str]:
    return page.evaluate("window.deltavShell.connection().snapshot.names")


def test_unnamed_people_are_player_1_and_player_2_everywhere(live_server, new_page):
    room = live_server.create("mining", ["human", "human"], seed=61)
    other = live_server.join(room.code)
    one, two = new_page(), new_page()
    live_server.open_seat(one, room)
    live_server.open_seat(two, other)
    generic(one, live_server, room.code)
    generic(two, live_server, room.code)
    one.wait_for_function("document.querySelector('.seat[data-presence=free]') === null")
    assert names_sent(one) == ["Player 1", "Player 2"]
    assert chips(one) == ["Player 1", "Player 2"] and chips(two) == ["Player 1", "Player 2"]
    assert one.locator(".seat.me .seat-name").inner_text() == "Player 1"
    waiting, mover = (two, one) if shell(one)["toAct"] else (one, two)
    waiting.wait_for_selector(".waiting:not([hidden])")
    expected = "Player 1" if mover is one else "Player 2"
    assert f"Waiting for {expected}" in waiting.locator(".waiting").inner_text()
    assert one.errors == [] and two.errors == []


def test_a_named_person_and_a_bot_in_chips_result_and_replay(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=62, name="Ann", max_turns=2)
    page = new_page()
    live_server.open_seat(page, room)
    generic(page, live_server, room.code)
    assert names_sent(page) == ["Ann", "Easy bot"]
    assert chips(page) == ["Ann", "Easy bot"]
    for _ in range(80):
        page.wait_for_function("window.deltavShell.state().toAct || window.deltavShell.state().status === 'over'",
                               timeout=20_000)
        if shell(page)["status"] == "over":
            break
        step = shell(page)["step"]
        page.wait_for_selector(".generic-action:not([disabled])")
        page.keyboard.press("1")
        wait_step_change(page, step)
    page.wait_for_selector(".dialog-result", timeout=20_000)
    text = page.locator(".dialog-result").inner_text()
    assert "You" in text or "Easy bot" in text
    assert "Player 0" not in text and "player 0" not in text
    page.goto(f"{live_server.base}/replay/{room.code}?match=1&screen=generic")
    page.wait_for_selector("html[data-ready=true]")
    assert chips(page) == ["Ann", "Easy bot"]
    page.keyboard.press("End")
    page.wait_for_function("window.deltavReplay.state().index === window.deltavReplay.state().positions - 1")
    assert "Ann" in page.locator(".waiting").inner_text() or "Easy bot" in page.locator(".waiting").inner_text() \
        or "draw" in page.locator(".waiting").inner_text().lower()
    page.screenshot(path=str(screenshots / "shell-names-replay.png"))
    assert page.errors == []
