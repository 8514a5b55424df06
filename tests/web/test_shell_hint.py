"""The Hint button of the match page in every game (issue 27's left-alone item: only tactical had one), in real
Chromium against a real ``deltav serve``: in a match against a bot, on the player's own turn, Hint asks the
hard bot (the server's ``suggest`` from the seat's own view) and the status line says its move in words; the
answer is the text of one of the player's legal actions now. Hidden between people (the server gives no bot
advice there) and while the other side decides; tactical's screen sets the hinted order itself (its own
test: test_tactical_screen.py). On a 375x812 phone the header with Hint still fits the width."""

from __future__ import annotations

import pytest


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


GAMES = [("mining", {}), ("deepspace", {}), ("knighthawks", {})]


@pytest.mark.parametrize("game,options", GAMES)
def test_hint_says_the_hard_bots_move_in_words(live_server, new_page, screenshots, game, options):
    room = live_server.create(game, ["human", "bot:easy"], seed=81, name="Ann", **options)
    page = new_page()
    live_server.open_seat(page, room)
    hint = page.locator(".tools .hint")
    page.wait_for_function("window.deltavShell.state().toAct", timeout=30_000)
    hint.wait_for(state="visible", timeout=10_000)
    step = shell(page)["step"]
    hint.click()
    page.wait_for_function("(() => { const t = document.querySelector('.match .status').textContent; "
                           "return t.startsWith('Hint') || t.startsWith('No hint') || t.startsWith('The game moved on'); })()",
                           timeout=90_000)
    text = page.locator(".match .status").inner_text()
    assert text.startswith("Hint: the hard bot would play: "), f"{text}\n{live_server.log_tail()}"
    said = text.removeprefix("Hint: the hard bot would play: ").rstrip(".")
    legal = [e["text"].rstrip(".") for e in page.evaluate("window.deltavShell.connection().snapshot.legal")]
    assert shell(page)["step"] == step and said in legal, (said, legal[:8])
    assert not any(ch in said for ch in "{}[]"), said  # words, not an action's JSON
    page.screenshot(path=str(screenshots / f"shell-hint-{game}.png"))
    assert page.errors == []


def test_no_hint_between_people_and_the_header_fits_a_phone(live_server, new_page, screenshots):
    people = live_server.create("mining", ["human", "human"], seed=82, name="Ann")
    page = new_page()
    live_server.open_seat(page, people)
    page.wait_for_selector(".tools .resign", state="attached", timeout=20_000)
    assert page.locator(".tools .hint").is_hidden()
    room = live_server.create("knighthawks", ["human", "bot:easy"], seed=83, name="Ann")
    phone = new_page(375, 812, mobile=True)
    live_server.open_seat(phone, room)
    phone.wait_for_function("window.deltavShell.state().toAct", timeout=30_000)
    phone.locator(".tools .hint").wait_for(state="visible", timeout=10_000)
    assert phone.evaluate("document.documentElement.scrollWidth <= 375")
    phone.locator(".tools .hint").tap()
    phone.wait_for_function("document.querySelector('.match .status').textContent.startsWith('Hint')", timeout=90_000)
    phone.screenshot(path=str(screenshots / "shell-hint-phone.png"))
    assert page.errors == [] and phone.errors == []
