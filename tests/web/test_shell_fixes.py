"""The shell's fixes for every game (COMMON spec 7), in real Chromium against a real ``deltav serve``: Esc leaves
the chat and a sent message hands the keys back to the game; the board never moves when "Waiting for..." appears;
the log follows the newest entry unless the player scrolled up (and a folded log opens at the newest entry); a
match you played stays "played" in the lobby after you watched it or its replay; the set-up dialog names bots by
level, keeps the other bots and the rulings under an "Advanced" fold, shows the number of players and offers the
turn timer, whose countdown the match header shows."""

from __future__ import annotations

import asyncio
import threading

from tests.server.helpers import Seen, play_seat
from tests.web.conftest import wait_step_change


def shell(page) -> dict:
    return page.evaluate("window.deltavShell.state()")


def generic(page, live_server, code: str) -> None:
    page.goto(f"{live_server.base}/play/{code}?screen=generic")
    page.wait_for_selector("html[data-ready=true]")


def my_turn(page) -> None:
    page.wait_for_selector(".generic-action:not([disabled])", timeout=20_000)


def test_esc_and_a_sent_message_give_the_keys_back_to_the_game(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=31, name="ann")
    page = new_page()
    live_server.open_seat(page, room)
    generic(page, live_server, room.code)
    my_turn(page)
    step = shell(page)["step"]
    # a message sent with Enter: the next digit plays the game instead of going into the chat
    page.click(".chat-form input")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chat-list li")
    assert page.evaluate("document.activeElement.closest('.chat-form') === null"), "the chat let go of the keys"
    page.keyboard.press("1")
    step = wait_step_change(page, step)
    page.keyboard.press("Enter")
    page.wait_for_timeout(300)
    assert page.locator(".chat-list li").count() == 1, "Enter after a message does not send it again"
    assert page.locator(".chat-form input").input_value() == ""
    # Esc leaves the chat with a half-typed line; the keys go to the game again
    my_turn(page)
    step = shell(page)["step"]
    page.click(".chat-form input")
    page.keyboard.type("gg")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.closest('.chat-form') === null"), "Esc left the chat"
    assert "keys go to the game" in page.locator(".status").inner_text()
    page.keyboard.press("1")
    wait_step_change(page, step)
    assert page.locator(".chat-form input").input_value() == "gg", "the half-typed line waits in the chat"
    assert page.locator(".chat-list li").count() == 1
    page.screenshot(path=str(screenshots / "shell-chat-esc.png"))
    assert page.errors == []


def test_the_board_does_not_move_when_waiting_appears(live_server, new_page, screenshots):
    for width, height, mobile in ((1280, 800, False), (375, 812, True)):
        room = live_server.create("mining", ["human", "human"], seed=32, name="ann")
        ben_room = live_server.join(room.code, name="ben")
        ann, ben = new_page(width, height, mobile), new_page(width, height, mobile)
        live_server.open_seat(ann, room)
        live_server.open_seat(ben, ben_room)
        generic(ann, live_server, room.code)
        generic(ben, live_server, room.code)
        ann.wait_for_function("window.deltavShell.state().step >= 0")
        me = ann if shell(ann)["toAct"] else ben
        other_name = "ben" if me is ann else "ann"
        my_turn(me)
        assert me.locator(".waiting").is_hidden()
        before = me.locator("#screen").bounding_box()
        for _ in range(30):  # a mining turn may be several decisions: play until it passes to the other
            step = shell(me)["step"]
            if mobile:
                me.locator(".generic-action").first.tap()
            else:
                me.keyboard.press("1")
            wait_step_change(me, step)
            if not shell(me)["toAct"]:
                break
            my_turn(me)
        me.wait_for_selector(".waiting:not([hidden])")
        assert other_name in me.locator(".waiting").inner_text()
        after = me.locator("#screen").bounding_box()
        assert after == before, (width, before, after)
        me.screenshot(path=str(screenshots / f"shell-waiting-{width}.png"))
        assert ann.errors == [] and ben.errors == []


LOG_OVERFLOWS = "(() => { const l = document.querySelector('.log-list'); return l.scrollHeight > l.clientHeight + 40; })()"


LOG_AT_END = ("(() => { const l = document.querySelector('.log-list');"
              " return l.scrollTop + l.clientHeight >= l.scrollHeight - 8; })()")


def _log_at_end(page) -> bool:
    """The log shows its newest entry by the first frame it is drawn in (it scrolls as it is laid out)."""
    try:
        page.wait_for_function(LOG_AT_END, timeout=3000)
    except Exception:  # noqa: BLE001 - a timeout: it is not at the end
        return False
    return True


def test_the_log_follows_the_newest_entry_unless_scrolled_up(live_server, new_page, screenshots):
    room = live_server.create("mining", ["human", "bot:easy"], seed=33)
    page = new_page(375, 812, mobile=True)
    live_server.open_seat(page, room)
    generic(page, live_server, room.code)
    assert page.locator(".side").is_hidden(), "a phone starts with the log folded away"
    # play until the log holds more than its box shows, the log folded all along
    for _ in range(40):
        my_turn(page)
        step = shell(page)["step"]
        page.locator(".generic-action").first.tap()
        wait_step_change(page, step)
        if shell(page)["log"] > 30:
            break
    page.tap("button:has-text('Log')")
    page.wait_for_selector(".side", state="visible")
    page.wait_for_function(LOG_OVERFLOWS)
    assert _log_at_end(page), "the log opens at the newest entry"
    page.screenshot(path=str(screenshots / "shell-log-phone.png"))
    # scrolled up: new entries do not pull the log down
    page.evaluate("document.querySelector('.log-list').scrollTop = 0")
    page.wait_for_timeout(100)
    page.tap("button:has-text('Log')")  # fold it to reach the actions, play, open it again
    my_turn(page)
    log = shell(page)["log"]
    page.locator(".generic-action").first.tap()
    page.wait_for_function(f"window.deltavShell.state().log > {log}")
    page.tap("button:has-text('Log')")
    page.wait_for_selector(".side", state="visible")
    assert page.evaluate("document.querySelector('.log-list').scrollTop") < 40, "the player's place is kept"
    # back at the end, it follows again
    page.evaluate("(() => { const l = document.querySelector('.log-list'); l.scrollTop = l.scrollHeight; })()")
    page.wait_for_timeout(100)
    page.tap("button:has-text('Log')")
    my_turn(page)
    log = shell(page)["log"]
    page.locator(".generic-action").first.tap()
    page.wait_for_function(f"window.deltavShell.state().log > {log}")
    page.tap("button:has-text('Log')")
    page.wait_for_selector(".side", state="visible")
    assert _log_at_end(page)
    assert page.errors == []


def test_the_log_follows_on_a_desktop_after_it_was_hidden(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:easy"], seed=34)
    page = new_page(1280, 560)
    live_server.open_seat(page, room)
    generic(page, live_server, room.code)
    page.locator(".phase-banner").click()
    page.keyboard.press("l")
    assert page.locator(".side").is_hidden()
    for _ in range(40):
        my_turn(page)
        step = shell(page)["step"]
        page.keyboard.press("1")
        wait_step_change(page, step)
        if shell(page)["log"] > 40:
            break
    page.keyboard.press("l")
    page.wait_for_selector(".side", state="visible")
    page.wait_for_function(LOG_OVERFLOWS)
    assert _log_at_end(page), "shown again, the log is at the newest entry"
    assert page.errors == []


def test_a_match_you_played_stays_played_in_the_lobby(live_server, new_page):
    room = live_server.create("mining", ["human", "bot:random"], seed=35, max_turns=2)
    page = new_page()
    live_server.open_seat(page, room)
    # the same browser watches the room it plays in, then a socket plays the seat to the end and the page
    # watches the replay: the lobby still lists the match as played, linking back to the seat
    page.goto(f"{live_server.base}/watch/{room.code}")
    page.wait_for_selector("html[data-ready=true]")
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    item = page.locator(f".recent li:has(a[href='/play/{room.code}'])")
    assert item.count() == 1 and "you played" in item.inner_text()
    seen = Seen(0)
    out: list = []
    t = threading.Thread(target=lambda: out.append(asyncio.run(
        play_seat(f"{live_server.ws}/ws/{room.code}", room.token, 0, 7, seen, timeout=60))))
    t.start()
    t.join(120)
    assert out == ["over"], out
    page.goto(f"{live_server.base}/replay/{room.code}?match=1")
    page.wait_for_selector("html[data-ready=true]")
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    item = page.locator(f".recent li:has(a[href='/play/{room.code}'])")
    assert item.count() == 1 and "you played" in item.inner_text()
    assert "watched" not in item.inner_text()
    assert page.errors == []


def test_setup_bots_by_level_players_in_sight_advanced_fold_and_timer(live_server, new_page, screenshots):
    page = new_page()
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.click("[data-game=mining] .setup")
    page.wait_for_selector(".dialog-setup")
    # bots by level; the search bots and the game's own wait under the Advanced fold
    options = page.locator("#seat-1 option").all_inner_texts()
    assert options == ["You", "A person (invite by code or link)", "Easy bot", "Normal bot", "Hard bot"], options
    assert page.locator("#seat-0").locator("..").locator("label").inner_text() == "Player 1"
    assert page.locator(".advanced-box").get_attribute("open") is None
    assert not page.locator(".opt-row.ruling").first.is_visible(), "rulings are folded away"
    # the number of players in plain sight: three seats for three players
    assert page.locator("#setup-players").is_visible()
    page.select_option("#setup-players", "3")
    assert page.locator(".seat-row").count() == 3
    page.click(".advanced-box summary")
    assert "Mcts bot" in page.locator("#seat-2 optgroup").inner_text()
    assert "Monte Carlo" in page.locator(".bot-list").inner_text(), "each advanced bot is explained"
    tags = page.locator(".opt-row.ruling .tag").all_inner_texts()
    assert tags and all(t.startswith("ruling") for t in tags) and "ruling 1.5.3" in tags, tags
    bump = page.locator("#opt-bump-doc").inner_text()
    assert not bump.startswith("1.5.3") and "Default: one." in bump, bump
    page.screenshot(path=str(screenshots / "shell-setup-advanced.png"), full_page=True)
    page.click(".advanced-box summary")
    # the turn timer: one minute, a bot plays a late move
    assert page.locator("#setup-timeout").is_hidden()
    page.select_option("#setup-timer", "60")
    assert page.locator("#setup-timeout").is_visible()
    page.select_option("#setup-timeout", "bot")
    page.select_option("#seat-1", "bot:easy")
    page.select_option("#seat-2", "bot:hard")
    page.screenshot(path=str(screenshots / "shell-setup.png"))
    page.click(".dialog-setup button[type=submit]")
    page.wait_for_url("**/play/*")
    page.wait_for_selector("html[data-ready=true]")
    code = page.url.rstrip("/").split("/")[-1]
    room = live_server.room(code)
    assert room["options"]["players"] == 3
    assert [s["spec"] for s in room["seats"]] == ["human", "bot:easy", "bot:hard"]
    assert room["clock"]["turn_seconds"] == 60 and room["clock"]["on_timeout"] == "bot"
    page.wait_for_selector(".turn-clock:not([hidden])", timeout=20_000)
    assert page.locator(".clock-left").inner_text() in {"1:00", "0:59", "0:58", "0:57", "0:56", "0:55"}
    page.screenshot(path=str(screenshots / "shell-timer.png"))
    assert page.errors == []


def test_setup_on_a_phone(live_server, new_page, screenshots):
    page = new_page(375, 812, mobile=True)
    page.goto(live_server.base + "/")
    page.wait_for_selector("html[data-ready=true]")
    page.locator("[data-game=tactical] .setup").tap()
    page.wait_for_selector(".dialog-setup")
    assert page.locator(".players-fixed").inner_text() == "2 players (set by the scenario)"
    page.locator(".advanced-box summary").tap()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(screenshots / "shell-setup-phone.png"))
    assert page.errors == []
