"""The end of a match in the shell (COMMON spec 1 and 4), in real Chromium against a real ``deltav serve``: the
result dialog's verdict in words, the game's numbers, Rematch / Replay / Download the record / Lobby, the whole
of it in view on a 375x812 phone without scrolling, closed to look at the board and opened again."""

from __future__ import annotations

from tests.web.conftest import wait_step_change


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
    assert fits(page, ".dialog-result"), "the whole result is in view, no scrolling"
    page.screenshot(path=str(screenshots / "shell-result-phone.png"))
    dialog.locator(".result-look").tap()
    assert page.locator(".overlay").is_hidden()
    page.screenshot(path=str(screenshots / "shell-result-board-phone.png"))
    page.locator(".tools .result-again").tap()
    page.wait_for_selector(".dialog-result")
    assert page.errors == []
