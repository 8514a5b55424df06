"""The game review on the replay page, in real Chromium against a real ``deltav serve`` (docs/review.md, docs/web.md):
a finished bot match's replay offers "Review this game", shows the progress, then marks the decisions on the
timeline coloured by grade and, at a marked step, says in words what was played, what the hard bot would play and both
chances to win. Desktop and phone (375x812); the other three games end to end too."""

from __future__ import annotations

import re
import time

import pytest

from tests.web.conftest import LiveServer, axe_violations

#: Cheap reviews for the browser tests (the server's default is rollouts=8,estimates=80).
BUDGET = "rollouts=4,estimates=30"


@pytest.fixture(scope="module")
def review_server(built_client):
    server = LiveServer(built_client, "--no-client-limits", "--chosen-seeds", "any", "--review-budget", BUDGET)
    try:
        yield server
    finally:
        server.stop()


def _finished(server, game: str, seats: list[str], seed: int, **options) -> str:
    room = server.create(game, seats, seed=seed, **options)
    t0 = time.time()
    while server.room(room.code)["status"] != "finished":
        assert time.time() - t0 < 180, f"the {game} match did not finish:\n{server.log_tail()}"
        time.sleep(0.2)
    return room.code


def _open_replay(new_page, server, code: str, **size):
    page = new_page(**size)
    page.goto(f"{server.base}/replay/{code}?match=1")
    page.wait_for_selector("html[data-ready=true]")
    return page


def _wait_review(page, timeout: float = 240_000) -> None:
    page.wait_for_selector("html[data-review=done]", timeout=timeout)


def test_review_a_duel_on_desktop_then_on_a_phone(review_server, new_page, screenshots):
    # seed 4: bot:easy's mistake at step 11 and bot:normal's blunder at step 22 (at this budget)
    code = _finished(review_server, "tactical", ["bot:easy", "bot:normal"], 4, scenario="duel")
    page = _open_replay(new_page, review_server, code)
    ask = page.get_by_role("button", name="Review this game")
    ask.wait_for()
    page.screenshot(path=str(screenshots / "review-desktop-offer.png"))
    ask.click()
    page.wait_for_function("document.documentElement.dataset.review === 'running' || "
                           "document.documentElement.dataset.review === 'done'")
    page.screenshot(path=str(screenshots / "review-desktop-progress.png"))  # the progress bar, if still running
    _wait_review(page)
    marks = page.locator(".review-mark")
    assert marks.count() >= 2
    grades = {c for c in marks.evaluate_all("ms => ms.map(m => m.className)")}
    assert any("grade-blunder" in c for c in grades) and any("grade-mistake" in c for c in grades), grades
    colours = set(marks.evaluate_all("ms => ms.map(m => getComputedStyle(m).backgroundColor)"))
    assert len(colours) >= 2  # one colour per grade
    summary = page.locator(".review-summary").inner_text()
    assert "Easy bot" in summary and "Normal bot" in summary and "1 blunder" in summary
    # the key moment jumps there and says it in words
    page.locator(".review-moment.grade-blunder").first.click()
    page.wait_for_function("window.deltavReplay.state().step === 22")
    words = page.locator(".review-here").inner_text()
    assert "Blunder · Normal bot" in words and "would play" in words and "Chance to win" in words, words
    assert "frigate" in words and "{" not in words
    panel = page.locator(".review").inner_text()  # in words: "the hard bot", never the spec "bot:hard"
    assert "the hard bot would play" in words and not re.search(r"\bbot:[a-z]", panel), panel
    page.screenshot(path=str(screenshots / "review-desktop-blunder.png"))
    assert axe_violations(page) == []  # the review panel, its moments and progress: labelled, contrasted
    # a mark on the timeline goes there too
    page.locator(".review-mark.grade-mistake").first.click()
    page.wait_for_function("window.deltavReplay.state().step === 11")
    assert "Mistake · Easy bot" in page.locator(".review-here").inner_text()
    # a position where nobody was marked still says who played what
    page.keyboard.press("Home")
    page.wait_for_function("window.deltavReplay.state().index === 0")
    assert "Played" in page.locator(".review-here").inner_text()
    assert page.errors == []

    # a phone: the review asked for above is there at once
    phone = _open_replay(new_page, review_server, code, width=375, height=812, mobile=True)
    _wait_review(phone, 30_000)
    assert phone.get_by_role("button", name="Review this game").is_hidden()
    assert phone.locator(".review-mark").count() == marks.count()
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= 375
    phone.locator(".review-moment.grade-blunder").first.click()
    phone.wait_for_function("window.deltavReplay.state().step === 22")
    here = phone.locator(".review-here")
    assert "Blunder · Normal bot" in here.inner_text()
    box = here.bounding_box()
    assert box is not None and box["width"] <= 375 and box["height"] > 0
    panel = phone.locator(".review").bounding_box()  # the words start inside the short panel, title first
    assert panel is not None and panel["y"] <= box["y"] < panel["y"] + panel["height"], (panel, box)
    phone.screenshot(path=str(screenshots / "review-phone-blunder.png"))
    assert phone.errors == []


@pytest.mark.parametrize("game,seats,seed,options", [
    ("deepspace", ["bot:easy", "bot:normal"], 3, {"scenario": "skirmish"}),
    ("knighthawks", ["bot:easy", "bot:normal"], 3, {"scenario": "skirmish", "turn_limit": 2}),
    ("mining", ["bot:easy", "bot:normal"], 3, {"max_turns": 16}),
], ids=["deepspace", "knighthawks", "mining"])
def test_every_game_is_reviewed_on_its_replay_page(review_server, new_page, screenshots, game, seats, seed, options):
    code = _finished(review_server, game, seats, seed, **options)
    page = _open_replay(new_page, review_server, code)
    page.get_by_role("button", name="Review this game").click()
    _wait_review(page)
    summary = page.locator(".review-summary").inner_text()
    assert "Easy bot" in summary and "Normal bot" in summary and "choices as the hard bot" in summary
    assert not re.search(r"\bbot:[a-z]", page.locator(".review").inner_text())  # no spec, only words
    status, got = review_server.http("GET", f"/rooms/{code}/review?match=1")
    assert status == 200 and got["status"] == "done"
    review = got["review"]
    differing = [d for d in review["decisions"] if not d["same"] and not d["forced"]]
    assert differing, "bot:easy and bot:normal never chose otherwise than bot:hard"
    d = differing[0]
    index = page.evaluate(f"""(async () => {{
        const r = await fetch('/rooms/{code}/replay?match=1&step={d["step"]}');
        return (await r.json()).index; }})()""")
    page.locator(".replay-slider").fill(str(index))
    page.wait_for_function(f"window.deltavReplay.state().step === {d['step']}")
    words = page.locator(".review-here").inner_text()
    assert d["played_text"] in words and (d["best_text"] in words), (words, d)
    assert "would play" in words
    page.screenshot(path=str(screenshots / f"review-{game}.png"))
    assert page.errors == []
