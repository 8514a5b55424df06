"""The end of a match in the shell (COMMON spec 1 and 4), in real Chromium against a real ``deltav serve``: the
result dialog's verdict in words, the game's numbers, Rematch / Replay / Download the record / Lobby, the whole
of it in view on a 375x812 phone without scrolling, closed to look at the board and opened again; Resign in
every game through its own dialog (Keep playing focused, the focus kept inside, Esc cancels), on a phone by taps;
claiming the win over a player whose grace ran out (a server with a 2 s grace), the chip saying so."""

from __future__ import annotations

import pytest

from tests.web.conftest import LiveServer, wait_step_change


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def play_to_the_end(page) -> None:
    """Press 1 at every decision of the generic screen until the match is over."""
    for _ in range(120):
        page.wait_for_function("window.deltavShell.state().toAct || window.deltavShell.state().status === 'over'",
                               timeout=20_000)
        if shell(page)["status"] == "over":
            return
        step = shell(page)["step"]
        page.wait_for_selector(".generic-action:not([disabled])")
        page.keyboard.press("1")
        wait_step_change(page, step)
    raise AssertionError("the match did not end")


def fits(page, selector: str) -> bool:
    """The element is wholly inside the window and needs no scrolling of its own."""
    return page.evaluate("""(sel) => { const d = document.querySelector(sel); const r = d.getBoundingClientRect();
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
            && d.scrollHeight <= d.clientHeight + 1; }""", selector)


def test_the_result_dialog_fits_a_phone_and_closes_to_the_board(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=71, name="Ann", max_turns=2)
    page = new_page(375, 812, mobile=True)
    live_server.open_seat(page, room)
    page.goto(f"{live_server.base}/play/{room.code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")
    play_to_the_end(page)
    page.wait_for_selector(".dialog-result", timeout=20_000)
    dialog = page.locator(".dialog-result")
    text = dialog.inner_text()
    assert "You won" in text or "Easy bot won" in text or "You share the win" in text or "A draw" in text, text
    for label in ("Rematch", "Replay", "Download the record", "Lobby", "Look at the board"):
        assert dialog.locator(".btn", has_text=label).count() == 1, label
    # the match in numbers (snapshot.summary): one column per seat, by name
    summary = page.evaluate("window.deltavShell.connection().snapshot.summary")
    stats = dialog.locator(".result-stats")
    assert fits(page, ".dialog-result"), "the whole result is in view, no scrolling"
    page.screenshot(path=str(screenshots / "shell-result-phone.png"))
    assert stats.is_hidden()
    dialog.locator(".result-more summary").tap()  # the match in numbers, folded until asked for
    assert stats.is_visible()
    assert stats.locator("tr").first.locator("th").all_inner_texts() == ["Ann (you)", "Easy bot"]
    for row in summary["stats"]:
        assert row["label"] in stats.inner_text()
    page.screenshot(path=str(screenshots / "shell-result-numbers-phone.png"))
    dialog.locator(".result-look").tap()
    assert page.locator(".overlay").is_hidden()
    page.screenshot(path=str(screenshots / "shell-result-board-phone.png"))
    page.locator(".tools .result-again").tap()
    page.wait_for_selector(".dialog-result")
    assert page.errors == []


GAMES = [("tactical", {"scenario": "duel"}), ("mining", {}), ("deepspace", {}), ("knighthawks", {})]


@pytest.mark.parametrize("game,options", GAMES)
def test_resign_asks_in_its_own_dialog_then_ends_the_match(live_server, new_page, screenshots, game, options):
    room = live_server.create(game, ["human", "bot:easy"], seed=72, name="Ann", **options)
    page = new_page()
    live_server.open_seat(page, room)
    resign = page.locator(".tools .resign")
    resign.wait_for(state="visible", timeout=20_000)
    step = shell(page)["step"]
    resign.click()
    dialog = page.locator(".dialog-resign")
    dialog.wait_for()
    assert "Resign this match?" in dialog.inner_text() and "Easy bot wins" in dialog.inner_text()
    assert page.evaluate("document.activeElement.classList.contains('resign-keep')"), "Keep playing is focused first"
    for _ in range(5):  # the focus stays in the dialog
        page.keyboard.press("Tab")
        assert page.evaluate("document.querySelector('.dialog-resign').contains(document.activeElement)")
    page.keyboard.press("Escape")  # cancels
    assert page.locator(".overlay").is_hidden() and shell(page)["status"] == "playing"
    assert live_server.room(room.code)["status"] == "live"
    resign.click()
    dialog.wait_for()
    if game == "tactical":
        page.screenshot(path=str(screenshots / "shell-resign.png"))
    page.click(".dialog-resign .resign-confirm")
    page.wait_for_selector(".dialog-result", timeout=20_000)
    assert "You resigned." in page.locator(".dialog-result").inner_text()
    assert shell(page)["status"] == "over" and shell(page)["step"] >= step
    status, record = live_server.http("GET", f"/rooms/{room.code}/record?match=1")
    assert status == 200 and record["ending"]["kind"] == "resign" and record["ending"]["seats"] == [0]
    if game == "tactical":
        page.screenshot(path=str(screenshots / "shell-resigned.png"))
    assert page.errors == []


def test_resign_on_a_phone_by_taps(live_server, new_page, screenshots):
    room = live_server.create("tactical", ["human", "bot:easy"], seed=73, scenario="duel")
    page = new_page(375, 812, mobile=True)
    live_server.open_seat(page, room)
    resign = page.locator(".tools .resign")
    resign.wait_for(state="visible", timeout=20_000)
    assert page.evaluate("document.documentElement.scrollWidth <= 375")
    page.screenshot(path=str(screenshots / "shell-match-phone.png"))
    resign.tap()
    page.locator(".dialog-resign").wait_for()
    assert fits(page, ".dialog-resign")
    page.screenshot(path=str(screenshots / "shell-resign-phone.png"))
    page.locator(".dialog-resign .resign-keep").tap()
    assert page.locator(".overlay").is_hidden()
    resign.tap()
    page.locator(".dialog-resign .resign-confirm").tap()
    page.wait_for_selector(".dialog-result", timeout=20_000)
    assert fits(page, ".dialog-result")
    page.screenshot(path=str(screenshots / "shell-resigned-phone.png"))
    assert page.errors == []


@pytest.fixture(scope="module")
def short_grace(built_client):
    """A server whose absent players have 2 s to come back (the others may then claim the win)."""
    server = LiveServer(built_client, "--grace", "2", "--chosen-seeds", "any")
    try:
        yield server
    finally:
        server.stop()


def test_claim_the_win_when_an_absent_player_did_not_come_back(short_grace, new_page, screenshots):
    room = short_grace.create("mining", ["human", "human"], seed=74, name="Ann")
    ann, ben = new_page(), new_page()
    short_grace.open_seat(ann, room)
    short_grace.open_seat(ben, short_grace.join(room.code, name="Ben"))
    chip = ann.locator(".seat", has_text="Ben")
    ann.wait_for_function("document.querySelector('.seat[data-presence=free]') === null")
    assert ann.locator(".tools .claim").is_hidden()
    ben.close()
    ann.wait_for_function("document.querySelectorAll('.seat')[1].dataset.presence === 'away'")
    assert "s to return" in chip.locator(".seat-state").inner_text()
    ann.wait_for_function("document.querySelectorAll('.seat')[1].dataset.presence === 'gone'", timeout=15_000)
    assert chip.locator(".seat-state").inner_text() == "gone: you may claim the win"
    claim = ann.locator(".tools .claim")
    assert claim.is_visible()
    if shell(ann)["toAct"] is False:
        assert "Ben did not come back in time: claim the win" in ann.locator(".waiting").inner_text()
    ann.screenshot(path=str(screenshots / "shell-claim.png"))
    claim.click()
    ann.wait_for_selector(".dialog-result", timeout=20_000)
    text = ann.locator(".dialog-result").inner_text()
    assert "You won: Ben left the game." in text and "claimed the win" in text, text
    ann.screenshot(path=str(screenshots / "shell-claimed.png"))
    assert ann.errors == []
